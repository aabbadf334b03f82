"""What a season is made of: its group, its points table and its nights, as plain data.

A **season** is a group of friends (a name and its players) whose series add up. Each series
that joins it is a **night**: the facts of one finished series (who took which place, hands
played, the biggest pot each player collected, who knocked out whom), kept as data so that a
season stands on its own, whatever happens later to the series' files.

Every problem is a :class:`SeasonError` with a stable :attr:`~SeasonError.reason` code and its
numbers, for interfaces that word it themselves (``season.error.<reason>`` in the catalogues).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any, Final

from feltro.errors import FeltroError
from feltro.playernames import clean_name, name_key

__all__ = [
    "DEFAULT_POINTS",
    "MAX_NAME",
    "MAX_NIGHTS",
    "MAX_PLACES",
    "MAX_PLAYERS",
    "MAX_POINTS",
    "Night",
    "NightPlayer",
    "Season",
    "SeasonError",
    "parse_points",
]

DEFAULT_POINTS: Final = (10, 7, 5, 3, 2, 1)
"""Points for 1st, 2nd, ... place (``docs/seasons.md``); places after the table score 0."""
MAX_NAME: Final = 40
"""The longest season name."""
MAX_PLAYERS: Final = 40
"""The most players a season's group may have."""
MAX_PLACES: Final = 10
"""A points table covers at most the ten places of a full table."""
MAX_POINTS: Final = 1000
"""The most points one place may score."""
MAX_NIGHTS: Final = 1000
"""The most series one season may hold."""
PLAYER_NAME: Final = 24
"""The longest player name (the same bound as a seat's name)."""


class SeasonError(FeltroError, ValueError):
    """A season that cannot be made, read or changed so; nothing was changed.

    :attr:`reason` is a stable code (``"no-season"``, ``"not-over"``...), :attr:`params` the
    values its sentence needs; ``str(exc)`` is an English line for logs.
    """

    def __init__(self, reason: str, message: str, **params: object) -> None:
        super().__init__(message)
        self.reason = reason
        self.params: Mapping[str, object] = params


def _name(text: object, *, limit: int, what: str) -> str:
    if not isinstance(text, str):
        raise SeasonError("bad-name", f"{what} must be text", name=str(text)[:limit])
    try:
        cleaned = clean_name(text)
    except ValueError as exc:
        raise SeasonError("bad-name", f"{what} {text[:limit]!r}: {exc}",
                          name=text[:limit]) from None
    if len(cleaned) > limit:
        raise SeasonError("name-too-long", f"{what} {cleaned[:limit]!r}... is longer than "
                          f"{limit} characters", name=cleaned[:limit], max=limit)
    return cleaned


def parse_points(value: object) -> tuple[int, ...]:
    """A points table from ``"10,7,5"`` or ``[10, 7, 5]``: whole numbers ``0..1000`` for places
    1, 2, 3..., at most ten, never more points for a worse place.

    >>> parse_points("10, 6,4")
    (10, 6, 4)

    :raises SeasonError: ``bad-points``, ``too-many-points`` or ``points-order``.
    """
    items: Sequence[object]
    if isinstance(value, str):
        items = [part.strip() for part in value.split(",") if part.strip()]
    elif isinstance(value, Sequence):
        items = value
    else:
        raise SeasonError("bad-points", f"not a points table: {value!r}", text=str(value)[:40],
                          max=MAX_POINTS)
    points: list[int] = []
    for item in items:
        number = int(item) if isinstance(item, str) and item.isdigit() and len(item) <= 4 \
            else item
        if type(number) is not int or not 0 <= number <= MAX_POINTS:
            raise SeasonError("bad-points", f"{item!r} is not a whole number of points from 0 "
                              f"to {MAX_POINTS}", text=str(item)[:40], max=MAX_POINTS)
        points.append(number)
    if not points:
        raise SeasonError("bad-points", "a points table needs the points of first place",
                          text="", max=MAX_POINTS)
    if len(points) > MAX_PLACES:
        raise SeasonError("too-many-points", f"points for {len(points)} places: at most "
                          f"{MAX_PLACES}", max=MAX_PLACES)
    if any(later > earlier for earlier, later in pairwise(points)):
        raise SeasonError("points-order", f"a worse place cannot score more points: "
                          f"{', '.join(map(str, points))}")
    return tuple(points)


@dataclass(frozen=True, slots=True)
class Season:
    """A group and its points table (see the module docstring).

    :raises SeasonError: for a bad name, fewer than 2 or more than :data:`MAX_PLAYERS`
        players, a player named twice (names compare as seats' do:
        :func:`~feltro.playernames.name_key`), or a bad points table.
    """

    name: str
    players: tuple[str, ...]
    points: tuple[int, ...] = DEFAULT_POINTS

    def __post_init__(self) -> None:
        object.__setattr__(self, "name", _name(self.name, limit=MAX_NAME, what="the season's "
                                                                              "name"))
        players = tuple(_name(p, limit=PLAYER_NAME, what="a player's name")
                        for p in self.players)
        if len(players) < 2:
            raise SeasonError("too-few-players", "a season needs at least 2 players", min=2)
        if len(players) > MAX_PLAYERS:
            raise SeasonError("too-many-players", f"a season has at most {MAX_PLAYERS} "
                              f"players", max=MAX_PLAYERS)
        seen: dict[str, str] = {}
        for player in players:
            if name_key(player) in seen:
                raise SeasonError("same-player", f"{player!r} is in the group twice",
                                  name=player)
            seen[name_key(player)] = player
        object.__setattr__(self, "players", players)
        object.__setattr__(self, "points", parse_points(self.points))

    def member(self, name: str) -> str | None:
        """The group's spelling of *name*, or ``None`` when *name* is not in the group."""
        wanted = name_key(name)
        return next((p for p in self.players if name_key(p) == wanted), None)

    def points_for(self, place: int) -> int:
        """The points *place* scores (0 after the table)."""
        return self.points[place - 1] if 1 <= place <= len(self.points) else 0

    def with_player(self, name: str) -> Season:
        """The same season with *name* in its group.

        :raises SeasonError: ``player-exists``, or as the constructor.
        """
        if self.member(name) is not None:
            raise SeasonError("player-exists", f"{name!r} is already in the group", name=name)
        return Season(self.name, (*self.players, name), self.points)

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "players": list(self.players), "points": list(self.points)}


@dataclass(frozen=True, slots=True)
class NightPlayer:
    """One player of one night."""

    name: str
    seat: int
    bot: bool
    """Bots never count in a season, whatever their name."""
    place: int
    """The finishing place in that series (G4, G6: equal places are shared)."""
    hands: int
    """Hands the player was dealt into."""
    biggest_pot: int
    """The most chips the player collected from the pots of one hand (0: none won)."""
    knockouts: tuple[str, ...]
    """The players this one knocked out, in order (see :func:`~feltro.season.night_of`)."""
    reentries: int | None = None
    """Re-entries taken, when the series had them (``None``: the series does not say)."""

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"name": self.name, "seat": self.seat, "bot": self.bot,
                                "place": self.place, "hands": self.hands,
                                "biggest_pot": self.biggest_pot,
                                "knockouts": list(self.knockouts)}
        if self.reentries is not None:
            data["reentries"] = self.reentries
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> NightPlayer:
        """:raises KeyError, TypeError, ValueError: if *data* is not what :meth:`to_dict`
        writes."""
        reentries = data.get("reentries")
        player = cls(str(data["name"]), _count(data["seat"]), bool(data["bot"]),
                     _count(data["place"]), _count(data["hands"]),
                     _count(data["biggest_pot"]), tuple(str(n) for n in data["knockouts"]),
                     None if reentries is None else _count(reentries))
        if player.place < 1 or player.seat < 1:
            raise ValueError("places and seats start at 1")
        return player


def _count(value: object) -> int:
    if type(value) is not int or value < 0:
        raise ValueError(f"{value!r} is not a count")
    return value


@dataclass(frozen=True, slots=True)
class Night:
    """One finished series, as a season counts it."""

    key: str
    """Where it came from, unique in a season: ``terminal:<series id>``, ``server:<table>``."""
    label: str
    """How people name it: the table's name, or the series' id."""
    date: str
    """When it was played: the day, ``YYYY-MM-DD``, and the start time when known
    (``YYYY-MM-DDTHH:MM:SS``), which orders the series of one day."""

    @property
    def day(self) -> str:
        """The day it was played, ``YYYY-MM-DD``."""
        return self.date[:10]
    hands: int
    end: str
    """``"last_player"`` (G4) or ``"stopped"`` (G6)."""
    players: tuple[NightPlayer, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, "label": self.label, "date": self.date, "hands": self.hands,
                "end": self.end, "players": [p.to_dict() for p in self.players]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Night:
        """:raises KeyError, TypeError, ValueError: if *data* is not what :meth:`to_dict`
        writes."""
        players = tuple(NightPlayer.from_dict(p) for p in data["players"])
        if not players:
            raise ValueError("a night without players")
        return cls(str(data["key"]), str(data["label"]), str(data["date"]),
                   _count(data["hands"]), str(data["end"]), players)

    def people(self) -> Iterable[NightPlayer]:
        """Its players who are not bots."""
        return (p for p in self.players if not p.bot)
