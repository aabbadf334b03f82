"""``feltro season``: a season's standings, its points as a chart, and its series, with Rich.

The chart is what people look at first: one bar per player, as long as their points, built of
one block per series (``█`` and ``▒`` in turn, so that the series are told apart without
colour), the number at its end.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Final

from rich.console import Console
from rich.table import Table
from rich.text import Text

from feltro.i18n import t
from feltro.season import SeasonBook, SeasonEntry, SeasonLine, played_by, standings

__all__ = ["BAR_WIDTH", "points_bars", "print_season", "print_seasons"]

BAR_WIDTH: Final = 40
"""The longest bar, in characters (the leader's)."""
BLOCKS: Final = ("█", "▒")
"""The blocks of series 1, 2, 3, 4... in turn."""


def points_bars(book: SeasonBook, width: int = BAR_WIDTH) -> list[tuple[str, str, int]]:
    """``(name, bar, points)`` for each player, in standings order: the bar is *width*
    characters for the leader, one block per series scaled alike (a series that scored gets at
    least one character)."""
    nights = book.nights
    lines = standings(book.season, nights)
    top = max((line.points for line in lines), default=0)
    scored = {night.key: {member: book.season.points_for(player.place)
                          for member, player in played_by(book.season, night).items()}
              for night in nights}
    bars: list[tuple[str, str, int]] = []
    for line in lines:
        bar, total = "", 0
        for index, night in enumerate(nights):
            points = scored[night.key].get(line.name, 0)
            if not points:
                continue
            total += points
            end = max(len(bar) + 1, round(total * width / top))
            bar += BLOCKS[index % len(BLOCKS)] * (end - len(bar))
        bars.append((line.name, bar, line.points))
    return bars


def _standings_table(book: SeasonBook, lines: Sequence[SeasonLine], lang: str) -> Table:
    reentries = any(line.reentries is not None for line in lines)
    table = Table(title=t("season.title", lang, name=book.season.name))
    columns = ["place", "player", "points", "series", "wins", "hands", "biggest_pot",
               "knockouts", *(["reentries"] if reentries else [])]
    for column in columns:
        table.add_column(t(f"season.column.{column}", lang),
                         justify="left" if column == "player" else "right")
    for line in lines:
        row = [str(line.place), line.name, str(line.points), str(line.series), str(line.wins),
               str(line.hands), str(line.biggest_pot), str(line.knockouts)]
        if reentries:
            row.append(str(line.reentries or 0))
        table.add_row(*row)
    return table


def _nights_table(book: SeasonBook, lang: str) -> Table:
    table = Table(title=t("season.nights", lang))
    for column in ("number", "date", "series", "winner", "hands", "played"):
        table.add_column(t(f"season.night.{column}", lang),
                         justify="right" if column in ("number", "hands") else "left")
    for number, night in enumerate(book.nights, 1):
        winners = ", ".join(p.name for p in night.players if p.place == 1)
        group = ", ".join(played_by(book.season, night))
        table.add_row(str(number), night.day, night.label, winners, str(night.hands), group)
    return table


def print_season(book: SeasonBook, lang: str, console: Console | None = None) -> None:
    """The standings, the chart and the series of *book*."""
    console = console or Console()
    lines = standings(book.season, book.nights)
    console.print(_standings_table(book, lines, lang))
    console.print(t("season.points_table", lang,
                    points=", ".join(map(str, book.season.points))))
    if not book.nights:
        console.print(t("season.empty_terminal", lang, name=book.season.name))
        return
    console.print()
    console.print(Text(t("season.chart", lang), style="bold"))
    bars = points_bars(book)
    width = max(len(name) for name, _, _ in bars)
    for name, bar, points in bars:
        console.print(Text(f"{name:<{width}}  {bar} {points}"))
    console.print(t("season.chart_key", lang))
    console.print()
    console.print(_nights_table(book, lang))
    console.print(t("season.who_counts", lang))


def print_seasons(entries: Sequence[SeasonEntry], folder: Path, lang: str,
                  console: Console | None = None) -> None:
    """Every season of *folder* (a damaged one with its problem)."""
    console = console or Console()
    if not entries:
        console.print(t("season.none", lang))
        return
    table = Table(title=t("season.seasons", lang))
    for column in ("name", "series", "players", "leader"):
        table.add_column(t(f"season.list.{column}", lang))
    for entry in entries:
        if entry.book is None:
            table.add_row(entry.slug, "", "", t("season.list.damaged", lang))
            continue
        book = entry.book
        leaders = [line.name for line in standings(book.season, book.nights)
                   if line.place == 1 and line.points]
        table.add_row(book.season.name, str(len(book.joined)), str(len(book.season.players)),
                      ", ".join(leaders))
    console.print(table)
    console.print(t("season.usage", lang))
