"""``feltro replay``: replay PHH hand histories strictly under RULES.md and print the results."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import typer

# Typer shows this as the command's help; one string per paragraph, so Rich can wrap them.
_HELP = "\n\n".join((
    "Replay PHH hand histories strictly under the house rules (feltro rules shows them).",
    'One .phh file: prints one JSON object {"finishing_stacks": [...], "pots": [{"amount", '
    '"eligible", "winners", "shares"}, ...]}. Several files, or a .phhs file (many hands): one '
    "line per hand, PATH<TAB>JSON; a hand of a .phhs file is named PATH[TABLE].",
    "Players are PHH player numbers, 1-based: 1 is p1, the first player left of the button. "
    "finishing_stacks are in p1..pN order; pots come main pot first, and each share goes to the "
    'winner at the same place in winners. A history that stops before the hand ends adds '
    '"complete": false and gives the stacks after its last line, with no pots.',
    'A line the rules refuse, or that does not parse, makes that hand\'s JSON {"error": '
    '"B8: ...", "action": N}: the message starts with the rule id and N is the 0-based index of '
    "the line in actions (null when the problem is another field). The other files go on, and "
    "the exit status is 1. Files may be compressed (.gz, .xz, .bz2).",
))


def _dumps(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False)


def replay_results(paths: list[Path]) -> Iterator[tuple[str, dict[str, Any], bool]]:
    """``(label, JSON object, ok)`` for every hand in *paths*, in order.

    Reading problems of a whole file give one error entry labelled with the path.
    """
    from feltro.errors import FeltroError
    from feltro.history import ReplayError, read_hands, replay

    for path in paths:
        try:
            hands = read_hands(path)
        except (OSError, FeltroError) as exc:
            if isinstance(exc, OSError):
                error = f"cannot read {path}: {exc.strerror or exc}"
            else:  # the history's own error already names the file
                error = f"cannot read {exc}" if str(path) in str(exc) else \
                    f"cannot read {path}: {exc}"
            yield str(path), {"error": error, "action": None}, False
            continue
        for label, record in hands:
            try:
                outcome = replay(record)
            except ReplayError as exc:
                yield label, exc.to_dict(), False
            else:
                yield label, outcome.to_dict(), True


def replay_command(
    files: Annotated[list[Path], typer.Argument(help="PHH files (.phh, or .phhs with many hands).",
                                                show_default=False)],
) -> None:
    from feltro.history import is_bulk

    failed = False
    single = len(files) == 1 and not is_bulk(files[0])
    for label, data, ok in replay_results(files):
        failed = failed or not ok
        typer.echo(_dumps(data) if single else f"{label}\t{_dumps(data)}")
    if failed:
        raise typer.Exit(code=1)


replay_command.__doc__ = _HELP


def register(app: typer.Typer) -> None:
    """Add ``replay`` to the command line."""
    app.command("replay")(replay_command)
