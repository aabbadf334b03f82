"""The re-entry period (G8) and late seats (G9): who may come (back) in, and until when.

The house rule is a freezeout (G4): nobody comes back. A :class:`ReentryRule` is the table
option that opens a *re-entry period*: until a chosen blind level (G7) or a number of minutes
from the first deal, a player who lost every chip may take a fresh starting stack, at most
``times`` times, when the host approves; and, with ``late_seats``, a player who arrives during
the period may sit at a free seat with a starting stack.

Who comes in waits for the big blind (D8): the seat counts for the big blind's rotation at
once, and its player is dealt in when the big blind reaches it, posting it
(:func:`feltro.seating.joins_next`). Nobody skips the big blind or posts it twice in a row. Only
when fewer than two players could play is a waiting player dealt in at once.

Pure: the series passes the level and the time elapsed since the first deal.

>>> rule = ReentryRule(times=2, until_level=3)
>>> rule.is_open(level=3, elapsed=None), rule.is_open(level=4, elapsed=None)
(True, False)
>>> ReentryRule.from_dict(rule.to_dict()) == rule
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Final

from feltro.errors import ConfigError

__all__ = ["MAX_REENTRIES", "ReentryRule"]

MAX_REENTRIES: Final = 10
"""At most this many re-entries per player (a bound on input)."""


@dataclass(frozen=True, kw_only=True)
class ReentryRule:
    """The re-entry period (G8) and whether late seats are taken in it (G9).

    :raises ConfigError: for ``times`` outside 1..10, or not exactly one of ``until_level``
        (1..40) and ``until_minutes`` (1..1440).
    """

    times: int = 1
    """Re-entries each player may take."""
    until_level: int | None = None
    """The period lasts to the end of this blind level (needs blind levels, G7)."""
    until_minutes: int | None = None
    """Or this many minutes from the deal of the first hand."""
    late_seats: bool = False
    """Whether a player arriving in the period may sit at a free seat (G9)."""

    def __post_init__(self) -> None:
        if type(self.times) is not int or not 1 <= self.times <= MAX_REENTRIES:
            raise ConfigError(f"re-entries per player must be 1..{MAX_REENTRIES}, "
                              f"got {self.times!r}")
        if (self.until_level is None) == (self.until_minutes is None):
            raise ConfigError("the re-entry period ends at a blind level or after a number of "
                              "minutes: give exactly one")
        bound = (("until_level", self.until_level, 40) if self.until_level is not None
                 else ("until_minutes", self.until_minutes, 1440))
        name, value, top = bound
        if type(value) is not int or not 1 <= value <= top:
            raise ConfigError(f"{name} must be 1..{top}, got {value!r}")
        if not isinstance(self.late_seats, bool):
            raise ConfigError("late_seats must be true or false")

    def is_open(self, *, level: int, elapsed: timedelta | None) -> bool:
        """Whether the period is still open at blind *level* and *elapsed* since the first
        deal (``None`` before it: open)."""
        if self.until_level is not None:
            return level <= self.until_level
        assert self.until_minutes is not None
        return elapsed is None or elapsed < timedelta(minutes=self.until_minutes)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready (kept in the series log's header)."""
        return {"times": self.times, "until_level": self.until_level,
                "until_minutes": self.until_minutes, "late_seats": self.late_seats}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ReentryRule:
        """Inverse of :meth:`to_dict`.

        :raises ConfigError: for missing or wrong fields.
        """
        try:
            return cls(times=data["times"], until_level=data["until_level"],
                       until_minutes=data["until_minutes"], late_seats=data["late_seats"])
        except (KeyError, TypeError) as exc:
            raise ConfigError(f"not a re-entry rule: {exc!r}") from None
