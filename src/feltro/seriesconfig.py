"""What a series agrees before its first hand: :class:`SeriesConfig` (G2, G5-G7, B10).

Re-exported by :mod:`feltro.series`, which plays it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from types import MappingProxyType
from typing import Any

from feltro.config import Structure
from feltro.entries import ReentryRule
from feltro.errors import ConfigError
from feltro.levels import BlindSchedule
from feltro.seating import validate_seats

__all__ = ["SeriesConfig"]


def _positive_int(name: str, value: object, *, zero_ok: bool = False) -> int:
    if type(value) is not int or value < (0 if zero_ok else 1):
        kind = "a non-negative" if zero_ok else "a positive"
        raise ConfigError(f"{name} must be {kind} integer, got {value!r}")
    return value


@dataclass(frozen=True, kw_only=True)
class SeriesConfig:
    """Everything agreed before the first hand. Defaults are the house rules (G2).

    :raises ConfigError: for fewer than 2 or more than 10 players, a seat outside
        ``1..seat_count``, a stack or blind that is not a positive integer, a big blind smaller
        than the small blind, a negative ante, or a hand limit that is not a positive integer.
    """

    players: Mapping[int, str]
    """Seat number -> player name. Seats are fixed for the whole series."""
    seat_count: int = 10
    """Seats at the table (2..10); seats ``1..seat_count`` exist, some may be empty."""
    starting_stack: int = 200
    small_blind: int = 1
    big_blind: int = 2
    ante: int = 0
    stop_at: datetime | None = None
    """The agreed stop time (G6): no hand starts at or after it; compare with ``now``."""
    max_hands: int | None = None
    """Stop after this many hands (G6 counted in hands; ``feltro simulate --stop-after-hands``)."""
    structure: Structure = Structure.NO_LIMIT
    """No-limit (G1, the house rule), or the pot-limit and fixed-limit variants (B10)."""
    reentry: ReentryRule | None = None
    """The re-entry period and late seats (G8, G9); ``None`` is the house rule, a freezeout
    (G4)."""
    levels: BlindSchedule | None = None
    """Blind levels (G7); ``None`` is the house rule, fixed blinds (G5). With a schedule,
    ``small_blind``, ``big_blind`` and ``ante`` are those of its first level."""

    def __post_init__(self) -> None:
        if not isinstance(self.players, Mapping):
            raise ConfigError("players must map seat numbers to names")
        validate_seats(self.players.keys(), self.seat_count)
        for seat, name in self.players.items():
            if not isinstance(name, str) or not name.strip():
                raise ConfigError(f"seat {seat}: a player needs a name, got {name!r}")
        _positive_int("starting_stack", self.starting_stack)
        _positive_int("small_blind", self.small_blind)
        _positive_int("big_blind", self.big_blind)
        _positive_int("ante", self.ante, zero_ok=True)
        if self.big_blind < self.small_blind:
            raise ConfigError(f"the big blind ({self.big_blind}) cannot be smaller than the "
                              f"small blind ({self.small_blind})")
        if self.max_hands is not None:
            _positive_int("max_hands", self.max_hands)
        if self.stop_at is not None and not isinstance(self.stop_at, datetime):
            raise ConfigError(f"stop_at must be a datetime, got {self.stop_at!r}")
        try:
            object.__setattr__(self, "structure", Structure(self.structure))
        except ValueError:
            raise ConfigError(f"unknown structure {self.structure!r}: use one of "
                              f"{', '.join(s.value for s in Structure)}") from None
        ordered = dict(sorted(self.players.items()))
        object.__setattr__(self, "players", MappingProxyType(ordered))
        if self.reentry is not None and not isinstance(self.reentry, ReentryRule):
            raise ConfigError("reentry must be a ReentryRule")
        if self.reentry is not None and self.reentry.until_level is not None and (
                self.levels is None or self.reentry.until_level > self.levels.last):
            raise ConfigError("a re-entry period that ends at a blind level needs blind "
                              "levels with that level (G7, G8)")
        if self.levels is not None:
            if not isinstance(self.levels, BlindSchedule):
                raise ConfigError("levels must be a BlindSchedule")
            first = self.levels.level(1)
            object.__setattr__(self, "small_blind", first.small_blind)
            object.__setattr__(self, "big_blind", first.big_blind)
            object.__setattr__(self, "ante", first.ante)

    @classmethod
    def with_players(cls, count: int, **options: Any) -> SeriesConfig:
        """*count* players named ``Player 1``.. in seats ``1..count`` of a *count*-seat table.

        :raises ConfigError: as the constructor, e.g. for *count* outside 2..10.
        """
        if type(count) is not int or not 2 <= count <= 10:
            raise ConfigError(f"a series needs 2..10 players, got {count!r}")
        options.setdefault("seat_count", count)
        return cls(players={seat: f"Player {seat}" for seat in range(1, count + 1)}, **options)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form (seats as string keys, the stop time in ISO 8601)."""
        return {
            "players": {str(seat): name for seat, name in self.players.items()},
            "seat_count": self.seat_count,
            "starting_stack": self.starting_stack,
            "small_blind": self.small_blind,
            "big_blind": self.big_blind,
            "ante": self.ante,
            "stop_at": self.stop_at.isoformat() if self.stop_at else None,
            "max_hands": self.max_hands,
            "structure": self.structure.value,
            **({} if self.levels is None else {"levels": self.levels.to_dict()}),
            **({} if self.reentry is None else {"reentry": self.reentry.to_dict()}),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SeriesConfig:
        """Inverse of :meth:`to_dict`.

        :raises ConfigError: for missing or wrong fields.
        """
        try:
            players = {int(seat): name for seat, name in data["players"].items()}
            stop_at = data.get("stop_at")
            return cls(
                players=players,
                seat_count=data["seat_count"],
                starting_stack=data["starting_stack"],
                small_blind=data["small_blind"],
                big_blind=data["big_blind"],
                ante=data["ante"],
                stop_at=datetime.fromisoformat(stop_at) if stop_at else None,
                max_hands=data.get("max_hands"),
                structure=data.get("structure", Structure.NO_LIMIT),
                levels=(BlindSchedule.from_dict(data["levels"]) if data.get("levels")
                        else None),
                reentry=(ReentryRule.from_dict(data["reentry"]) if data.get("reentry")
                         else None),
            )
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            if isinstance(exc, ConfigError):
                raise
            raise ConfigError(f"not a series configuration: {exc!r}") from None
