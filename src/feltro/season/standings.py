"""A season's standings: its nights added up for each player of its group.

Pure. A night counts for a player of the group when a seat that no bot played carries their
name (names compare as seats' do, :func:`~feltro.playernames.name_key`); other players of the
night (guests, bots) take their places in it but are not in the standings. Each place scores
the season's points table (equal places share the better place's points, as G4 ranks them);
players are ranked by points, then wins (first places), and share a place when both are equal.

>>> from feltro.season.model import Night, NightPlayer, Season
>>> night = Night("terminal:1", "1", "2026-01-09", 12, "last_player", (
...     NightPlayer("Ana", 1, False, 1, 12, 40, ("Rui",)),
...     NightPlayer("Rui", 2, False, 2, 12, 22, ())))
>>> season = Season("Fridays", ("Ana", "Rui", "Eva"))
>>> [(line.place, line.name, line.points) for line in standings(season, [night])]
[(1, 'Ana', 10), (2, 'Rui', 7), (3, 'Eva', 0)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from feltro.playernames import name_key
from feltro.season.model import Night, NightPlayer, Season

__all__ = ["SeasonLine", "cumulative_points", "played_by", "standings"]


@dataclass(frozen=True, slots=True)
class SeasonLine:
    """One player's line in a season's standings."""

    place: int
    name: str
    points: int
    series: int
    """Nights played."""
    wins: int
    """First places (co-winners of a stopped series each count one, G6)."""
    hands: int
    biggest_pot: int
    knockouts: int
    reentries: int | None
    """Re-entries taken, when some night says (``None``: no night does)."""
    places: tuple[int | None, ...]
    """The place in each night, in the season's order (``None``: not played)."""


def played_by(season: Season, night: Night) -> dict[str, NightPlayer]:
    """The group's players in *night*: the group's spelling -> their line (bots never count;
    of two seats with one name, the first)."""
    found: dict[str, NightPlayer] = {}
    for player in night.people():
        member = season.member(player.name)
        if member is not None and member not in found:
            found[member] = player
    return found


def standings(season: Season, nights: Sequence[Night]) -> tuple[SeasonLine, ...]:
    """The standings of *season* over *nights* (in the season's order), every player of the
    group included (with zeros before their first night)."""
    rows = {name: _Tally(len(nights)) for name in season.players}
    for index, night in enumerate(nights):
        for member, player in played_by(season, night).items():
            rows[member].add(index, player, season.points_for(player.place))
    ordered = sorted(season.players,
                     key=lambda n: (-rows[n].points, -rows[n].wins, name_key(n), n))
    lines: list[SeasonLine] = []
    for index, name in enumerate(ordered):
        tally = rows[name]
        previous = lines[-1] if lines else None
        tied = previous is not None and (previous.points, previous.wins) == (tally.points,
                                                                             tally.wins)
        place = previous.place if tied and previous is not None else index + 1
        lines.append(tally.line(place, name))
    return tuple(lines)


def cumulative_points(season: Season, nights: Sequence[Night]) -> dict[str, list[int]]:
    """Each player's points after each night (for the season chart): ``name -> [after night
    1, after night 2, ...]``."""
    totals = dict.fromkeys(season.players, 0)
    series: dict[str, list[int]] = {name: [] for name in season.players}
    for night in nights:
        for member, player in played_by(season, night).items():
            totals[member] += season.points_for(player.place)
        for name in season.players:
            series[name].append(totals[name])
    return series


class _Tally:
    """One player's sums while the nights are read."""

    def __init__(self, nights: int) -> None:
        self.points = self.series = self.wins = self.hands = self.biggest = self.knockouts = 0
        self.reentries: int | None = None
        self.places: list[int | None] = [None] * nights

    def add(self, index: int, player: NightPlayer, points: int) -> None:
        self.points += points
        self.series += 1
        self.wins += player.place == 1
        self.hands += player.hands
        self.biggest = max(self.biggest, player.biggest_pot)
        self.knockouts += len(player.knockouts)
        if player.reentries is not None:
            self.reentries = (self.reentries or 0) + player.reentries
        self.places[index] = player.place

    def line(self, place: int, name: str) -> SeasonLine:
        return SeasonLine(place, name, self.points, self.series, self.wins, self.hands,
                          self.biggest, self.knockouts, self.reentries, tuple(self.places))
