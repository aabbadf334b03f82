"""Why a table cannot play, in plain words: :data:`PROBLEMS` and :func:`problem_text`.

A table's ``problem`` is a key of the ``table_problem`` catalogue section; the details (paths,
SQLite's words) go to the server's log only, never to a page.
"""

from __future__ import annotations

from typing import Final

from feltro.i18n import t

__all__ = ["PROBLEMS", "problem_text"]

PROBLEMS: Final = ("damaged", "missing", "stalled")
"""What :attr:`LiveTable.problem <feltro.server.live_table.LiveTable.problem>` may hold (and
``stalled``, the words of a table whose logs cannot be written now)."""


def problem_text(problem: str, lang: str = "en") -> str:
    """The public words for a table's *problem* (see :data:`PROBLEMS`), in *lang*."""
    return t(f"table_problem.{problem if problem in PROBLEMS else 'damaged'}", lang)
