"""A season's standings as CSV, for a spreadsheet: one line per player of the group.

Columns: place, player, points, series played, wins, hands, biggest pot, knock-outs,
re-entries (only when a night has them), then the place in each night (empty: not played).
Header words come from the caller (the reader's language); a name that a spreadsheet would
take for a formula (``=``, ``+``, ``-``, ``@``) is written with a leading ``'``.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from typing import Final

from feltro.season.log import SeasonBook
from feltro.season.standings import standings

__all__ = ["COLUMNS", "season_csv"]

COLUMNS: Final = ("place", "player", "points", "series", "wins", "hands", "biggest_pot",
                  "knockouts", "reentries")
"""The fixed columns, by key (``season.column.<key>`` in the catalogues)."""


def _cell(text: str) -> str:
    return f"'{text}" if text[:1] in ("=", "+", "-", "@") else text


def season_csv(book: SeasonBook, words: Callable[[str], str] = str) -> str:
    """The standings of *book* as CSV text (``words(key)`` names each fixed column)."""
    nights = book.nights
    lines = standings(book.season, nights)
    reentries = any(line.reentries is not None for line in lines)
    columns = [c for c in COLUMNS if reentries or c != "reentries"]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([words(c) for c in columns]
                    + [_cell(f"{night.day} {night.label}") for night in nights])
    for line in lines:
        values: dict[str, object] = {
            "place": line.place, "player": _cell(line.name), "points": line.points,
            "series": line.series, "wins": line.wins, "hands": line.hands,
            "biggest_pot": line.biggest_pot, "knockouts": line.knockouts,
            "reentries": line.reentries if line.reentries is not None else 0}
        writer.writerow([values[c] for c in columns]
                        + ["" if place is None else place for place in line.places])
    return out.getvalue()
