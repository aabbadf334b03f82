"""Blind levels (G7): a schedule of rising blinds, changed by hands played or by time.

The house rule is fixed blinds (G5); a :class:`BlindSchedule` is the table option that replaces
it. A schedule is a list of :class:`Level` (small blind, big blind, ante), a *unit* (``hands``:
every *length* hands; ``minutes``: every *length* minutes from the deal of the first hand) and
the level from which antes are paid (``ante_from``, ``None`` for no antes). After the last level
the blinds stay where they are.

The level only changes **between hands** (G7): a hand keeps the level it was dealt with, even
when its time runs out while it is being played. Levels never go back.

Pure: no clock is read. The series passes the hands played and the time elapsed
(:meth:`BlindSchedule.due`); a countdown (:meth:`BlindSchedule.countdown`) takes ``now``.

Ready structures (:data:`READY`, *choice*): ``standard`` (12 levels, 1/2 to 100/200),
``turbo`` (8 levels, doubling quickly) and ``slow`` (15 small steps). A custom schedule is
written ``"1/2, 2/4, 5/10/1"`` (small/big[/ante] per level).

>>> schedule = BlindSchedule.ready("turbo", unit="hands", length=10, ante_from=3)
>>> [schedule.due(hands, None, 1) for hands in (0, 9, 10, 25)]
[1, 1, 2, 3]
>>> schedule.level(3)
Level(small_blind=5, big_blind=10, ante=1)
>>> BlindSchedule.parse("1/2, 2/4/1", unit="minutes", length=15).level(2)
Level(small_blind=2, big_blind=4, ante=1)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any, Final

from feltro.errors import ConfigError

__all__ = ["MAX_LEVELS", "READY", "BlindSchedule", "Countdown", "Level", "LevelUnit"]

MAX_LEVELS: Final = 40
"""At most this many levels in a schedule (a bound on input)."""
_MAX_LENGTH: Final = 10_000
_MAX_CHIPS: Final = 10_000_000


class LevelUnit(StrEnum):
    """What moves the levels on."""

    HANDS = "hands"
    """A new level every *length* hands."""
    MINUTES = "minutes"
    """A new level every *length* minutes from the deal of the first hand."""


@dataclass(frozen=True, slots=True)
class Level:
    """The forced bets of one level, in chips."""

    small_blind: int
    big_blind: int
    ante: int = 0

    def __post_init__(self) -> None:
        for name in ("small_blind", "big_blind", "ante"):
            value = getattr(self, name)
            low = 0 if name == "ante" else 1
            if type(value) is not int or not low <= value <= _MAX_CHIPS:
                raise ConfigError(f"a level's {name} must be a whole number in "
                                  f"{low}..{_MAX_CHIPS}, got {value!r}")
        if self.big_blind < self.small_blind:
            raise ConfigError(f"a level's big blind ({self.big_blind}) cannot be smaller than "
                              f"its small blind ({self.small_blind})")

    def __str__(self) -> str:
        return f"{self.small_blind}/{self.big_blind}" + (f"/{self.ante}" if self.ante else "")

    def to_dict(self) -> dict[str, int]:
        """JSON-ready: ``{"small_blind", "big_blind", "ante"}``."""
        return _level_dict(self)


def _ladder(*pairs: tuple[int, int]) -> tuple[Level, ...]:
    """Levels from (small, big) pairs; the ante, where antes are paid, is an eighth of the big
    blind, at least 1 (*choice*)."""
    return tuple(Level(small, big, max(1, big // 8)) for small, big in pairs)


READY: Final[Mapping[str, tuple[Level, ...]]] = {
    "standard": _ladder((1, 2), (2, 4), (3, 6), (4, 8), (5, 10), (10, 20), (15, 30), (20, 40),
                        (30, 60), (50, 100), (75, 150), (100, 200)),
    "turbo": _ladder((1, 2), (2, 4), (5, 10), (10, 20), (20, 40), (50, 100), (100, 200),
                     (200, 400)),
    "slow": _ladder((1, 2), (2, 3), (2, 4), (3, 5), (3, 6), (4, 8), (5, 10), (6, 12), (8, 16),
                    (10, 20), (12, 24), (15, 30), (20, 40), (25, 50), (30, 60)),
}
"""The ready structures by name (*choice*)."""


@dataclass(frozen=True, slots=True)
class Countdown:
    """Where the schedule stands: the level now, the next, and how far away it is."""

    level: int
    """The current level (1 = first)."""
    blinds: Level
    """Its forced bets (the ante is 0 before ``ante_from``)."""
    next_blinds: Level | None
    """The next level's, or ``None`` at the last level."""
    hands_left: int | None
    """By hands: hands still to start before the next level (0: it starts with the next hand)."""
    seconds_left: int | None
    """By time: seconds until the next level is due (0: it starts with the next hand); ``None``
    before the first hand, when the clock has not started."""
    due_at: datetime | None = None
    """By time: when the next level is due (a client counts down to it by its own clock)."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready, for the phones, the TV and the terminal."""
        return {"level": self.level, "blinds": _level_dict(self.blinds),
                "next": None if self.next_blinds is None else _level_dict(self.next_blinds),
                "hands_left": self.hands_left, "seconds_left": self.seconds_left,
                "due_at": None if self.due_at is None else self.due_at.isoformat()}


def _unit(unit: str) -> LevelUnit:
    try:
        return LevelUnit(unit)
    except ValueError:
        raise ConfigError(f"levels change by 'hands' or 'minutes', not {unit!r}") from None


def _level_dict(level: Level) -> dict[str, int]:
    return {"small_blind": level.small_blind, "big_blind": level.big_blind, "ante": level.ante}


@dataclass(frozen=True, kw_only=True)
class BlindSchedule:
    """A blind schedule (G7). Build it with :meth:`ready` or :meth:`parse`.

    :raises ConfigError: for no levels or more than :data:`MAX_LEVELS`, a *length* that is not
        a whole number in 1..10000, an unknown unit, or an ``ante_from`` outside the levels.
    """

    levels: tuple[Level, ...]
    unit: LevelUnit = LevelUnit.HANDS
    length: int = 10
    """Hands or minutes per level."""
    ante_from: int | None = None
    """The first level (1 = first) whose hands have antes; ``None``: no antes."""
    name: str = "custom"
    """A ready structure's name, or ``custom``."""

    def __post_init__(self) -> None:
        levels = tuple(self.levels)
        if not 1 <= len(levels) <= MAX_LEVELS or not all(isinstance(x, Level) for x in levels):
            raise ConfigError(f"a blind schedule needs 1..{MAX_LEVELS} levels")
        object.__setattr__(self, "levels", levels)
        object.__setattr__(self, "unit", _unit(self.unit))
        if type(self.length) is not int or not 1 <= self.length <= _MAX_LENGTH:
            raise ConfigError(f"a level lasts 1..{_MAX_LENGTH} {self.unit.value}, "
                              f"got {self.length!r}")
        if self.ante_from is not None and (type(self.ante_from) is not int
                                           or not 1 <= self.ante_from <= len(levels)):
            raise ConfigError(f"antes must start at a level in 1..{len(levels)}, "
                              f"got {self.ante_from!r}")

    # --- building ---------------------------------------------------------------------------

    @classmethod
    def ready(cls, name: str, *, unit: LevelUnit | str = LevelUnit.HANDS, length: int = 10,
              ante_from: int | None = None) -> BlindSchedule:
        """A ready structure (:data:`READY`) by *name*.

        :raises ConfigError: for an unknown name, or as the constructor.
        """
        if name not in READY:
            raise ConfigError(f"unknown blind structure {name!r}: use one of "
                              f"{', '.join(READY)} or list the levels, e.g. '1/2, 2/4, 5/10'")
        return cls(levels=READY[name], unit=_unit(unit), length=length, ante_from=ante_from,
                   name=name)

    @classmethod
    def parse(cls, text: str, *, unit: LevelUnit | str = LevelUnit.HANDS, length: int = 10,
              ante_from: int | None = None) -> BlindSchedule:
        """A ready structure's name, or custom levels ``"1/2, 2/4, 5/10/1"`` (small/big[/ante]).
        Custom antes are paid from *ante_from*, by default the first level that lists one.

        :raises ConfigError: for text that is neither, or as the constructor.
        """
        if not isinstance(text, str) or len(text) > 1000:
            raise ConfigError("blind levels: give a structure name or at most 1000 characters")
        text = text.strip()
        if text in READY:
            return cls.ready(text, unit=unit, length=length, ante_from=ante_from)
        levels = []
        for part in text.replace(";", ",").split(","):
            numbers = part.strip().split("/")
            if not 2 <= len(numbers) <= 3 or not all(n.strip().isdigit() for n in numbers):
                raise ConfigError(f"blind level {part.strip()!r}: write small/big or "
                                  f"small/big/ante, e.g. 5/10/1 (or a structure: "
                                  f"{', '.join(READY)})")
            levels.append(Level(*(int(n) for n in numbers)))
        if ante_from is None:
            ante_from = next((i + 1 for i, level in enumerate(levels) if level.ante), None)
        return cls(levels=tuple(levels), unit=_unit(unit), length=length, ante_from=ante_from)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready (kept in the series log's header)."""
        return {"name": self.name, "levels": [str(level) for level in self.levels],
                "unit": self.unit.value, "length": self.length, "ante_from": self.ante_from}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> BlindSchedule:
        """Inverse of :meth:`to_dict`.

        :raises ConfigError: for missing or wrong fields.
        """
        try:
            schedule = cls.parse(", ".join(data["levels"]), unit=data["unit"],
                                 length=data["length"], ante_from=data["ante_from"])
            name = data.get("name", "custom")
        except (KeyError, TypeError) as exc:
            raise ConfigError(f"not a blind schedule: {exc!r}") from None
        if not isinstance(name, str) or len(name) > 40:
            raise ConfigError("a blind schedule's name is at most 40 characters")
        return cls(levels=schedule.levels, unit=schedule.unit, length=schedule.length,
                   ante_from=data["ante_from"], name=name)

    # --- reading ------------------------------------------------------------------------------

    @property
    def last(self) -> int:
        """The number of the last level."""
        return len(self.levels)

    def level(self, number: int) -> Level:
        """The forced bets of level *number* (1 = first), the ante 0 before ``ante_from``.

        :raises ConfigError: for a number outside ``1..last``.
        """
        if type(number) is not int or not 1 <= number <= self.last:
            raise ConfigError(f"level {number!r} is not in 1..{self.last}")
        level = self.levels[number - 1]
        paid = self.ante_from is not None and number >= self.ante_from
        return Level(level.small_blind, level.big_blind, level.ante if paid else 0)

    def due(self, hands_played: int, elapsed: timedelta | None, current: int) -> int:
        """The level of the next hand: after *hands_played* hands, *elapsed* since the first
        deal (``None``: no clock, the level stays) and at level *current*. Never lower than
        *current*, never past the last level.
        """
        if self.unit is LevelUnit.HANDS:
            reached = 1 + hands_played // self.length
        elif elapsed is None:
            reached = current
        else:
            reached = 1 + int(elapsed.total_seconds() // (60 * self.length))
        return max(current, min(reached, self.last))

    def countdown(self, current: int, hands_played: int, clock_start: datetime | None,
                  now: datetime | None) -> Countdown:
        """The level now, the next one and how far away it is, for *current* after
        *hands_played* hands (the hand being played counts), the clock started at
        *clock_start* and read as *now* by the caller.
        """
        following = self.level(current + 1) if current < self.last else None
        hands_left = seconds_left = None
        due_at: datetime | None = None
        if following is not None and self.unit is LevelUnit.HANDS:
            hands_left = max(0, current * self.length - hands_played)
        elif following is not None and clock_start is not None and now is not None:
            due_at = clock_start + timedelta(minutes=current * self.length)
            seconds_left = max(0, int((due_at - now).total_seconds()))
        return Countdown(current, self.level(current), following, hands_left, seconds_left,
                         due_at)
