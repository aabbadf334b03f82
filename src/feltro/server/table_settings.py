"""What the host chose for a table: :class:`TableSettings` (stakes, seats, timers, reveal).

Built once from the validated ``POST /api/tables`` body
(:class:`~feltro.server.protocol.CreateTable`) and journaled in the table's ``created`` record;
read back with :meth:`TableSettings.from_dict`, where a field a newer server added takes its
default.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from datetime import datetime
from typing import Any

from feltro.config import Structure
from feltro.entries import ReentryRule
from feltro.errors import ConfigError
from feltro.levels import BlindSchedule
from feltro.series import SeriesConfig
from feltro.server.protocol import CreateTable, ErrorCode, ProtocolError

__all__ = ["TableSettings"]


@dataclass(frozen=True, kw_only=True)
class TableSettings:
    """What the host chose when creating the table (see :class:`CreateTable`)."""

    name: str
    seats: int
    stack: int
    small_blind: int
    big_blind: int
    ante: int
    structure: str
    stop_at: datetime | None
    max_hands: int | None
    action_seconds: int | None
    bank_seconds: int
    bank_refill_seconds: int
    bank_max_seconds: int
    disconnect_grace_seconds: int
    between_hands_seconds: float
    bot_seconds: float
    reveal: str = "series"
    reentries: int | None = None
    """Re-entries per player in the re-entry period (G8); ``None``: a freezeout (G4)."""
    reentry_level: int | None = None
    reentry_minutes: int | None = None
    late_seats: bool = False
    """Late seats in the re-entry period (G9)."""
    levels: str | None = None
    """Blind levels (G7): a ready structure or custom levels; ``None``: fixed blinds (G5)."""
    level_unit: str = "hands"
    level_length: int = 10
    antes_from: int | None = None
    reactions: bool = True

    @classmethod
    def from_request(cls, request: CreateTable) -> TableSettings:
        """Settings from a validated request.

        :raises ProtocolError: ``invalid`` for a stop time that is not ISO 8601 with a zone, or
            blind levels (G7) or a re-entry period (G8, G9) the series refuses.
        """
        stop_at = None
        if request.stop_at is not None:
            try:
                stop_at = datetime.fromisoformat(request.stop_at)
            except ValueError:
                raise ProtocolError(ErrorCode.INVALID, "stop_at: not an ISO 8601 date and "
                                    "time") from None
            if stop_at.tzinfo is None:
                raise ProtocolError(ErrorCode.INVALID, "stop_at: give a time zone offset, "
                                    "e.g. 2026-05-01T23:30:00+01:00")
        data = request.model_dump()
        data["stop_at"] = stop_at
        settings = cls(**data)
        try:
            settings.blind_schedule()  # refused now, not when the first hand is dealt
            settings.series_config({1: "a", 2: "b"})
        except ConfigError as exc:
            raise ProtocolError(ErrorCode.INVALID, f"levels: {exc}") from None
        return settings

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready (the stop time as ISO 8601)."""
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        data["stop_at"] = self.stop_at.isoformat() if self.stop_at else None
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TableSettings:
        """Inverse of :meth:`to_dict`; fields a newer server added get their defaults."""
        values = CreateTable().model_dump()
        values.update({k: v for k, v in data.items() if k in values})
        values["stop_at"] = (datetime.fromisoformat(values["stop_at"])
                             if values.get("stop_at") else None)
        return cls(**values)

    @property
    def timed(self) -> bool:
        """Whether decisions have a timer."""
        return self.action_seconds is not None

    def blind_schedule(self) -> BlindSchedule | None:
        """The blind levels (G7), or ``None`` for fixed blinds (G5).

        :raises ConfigError: for levels the schedule refuses.
        """
        if self.levels is None:
            return None
        return BlindSchedule.parse(self.levels, unit=self.level_unit, length=self.level_length,
                                   ante_from=self.antes_from)

    def reentry_rule(self) -> ReentryRule | None:
        """The re-entry period and late seats (G8, G9), or ``None`` for a freezeout (G4).

        :raises ConfigError: without exactly one end (a level or minutes).
        """
        if self.reentries is None:
            if self.late_seats:
                raise ConfigError("late seats need a re-entry period (G9)")
            return None
        return ReentryRule(times=self.reentries, until_level=self.reentry_level,
                           until_minutes=self.reentry_minutes, late_seats=self.late_seats)

    def series_config(self, players: Mapping[int, str]) -> SeriesConfig:
        """The series these settings play with *players* (seat -> name).

        :raises ProtocolError: ``invalid`` if the series refuses them.
        """
        try:
            return SeriesConfig(
                players=dict(sorted(players.items())), seat_count=self.seats,
                starting_stack=self.stack, small_blind=self.small_blind,
                big_blind=self.big_blind, ante=self.ante, stop_at=self.stop_at,
                max_hands=self.max_hands, structure=Structure(self.structure),
                levels=self.blind_schedule(), reentry=self.reentry_rule())
        except (ConfigError, ValueError) as exc:
            raise ProtocolError(ErrorCode.INVALID, str(exc)) from None
