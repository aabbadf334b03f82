"""The server's records of a table: settings, seats, seat requests, identities.

Plain data, shared by :mod:`feltro.server.game` (which changes them) and
:mod:`feltro.server.views` (which shows them). Secrets never appear here: seats and requests hold
only token *hashes*, and those are left out of ``repr`` so that no log line can carry them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from datetime import datetime
from typing import Any

from feltro.actions import CALL, CHECK, FOLD, Action, Raise
from feltro.bots import Bot
from feltro.errors import Refusal
from feltro.events import ActionTaken
from feltro.hand import Hand, LegalActions, SeatView
from feltro.series import SeriesConfig
from feltro.server.protocol import CreateTable, ErrorCode, ProtocolError
from feltro.server.refusals import error_code, refusal_words, seat_refusal

__all__ = [
    "BotTurn",
    "Identity",
    "SeatRequest",
    "SeatState",
    "TableSettings",
    "parse_action",
    "precheck",
    "series_has",
    "turn_index",
]


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

    @classmethod
    def from_request(cls, request: CreateTable) -> TableSettings:
        """Settings from a validated request.

        :raises ProtocolError: ``invalid`` for a stop time that is not ISO 8601 with a zone,
            or a structure the series layer does not offer yet.
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
        if request.structure != "no-limit" and not series_has("structure"):
            raise ProtocolError(ErrorCode.INVALID, f"structure: the series layer plays "
                                f"no-limit only for now, not {request.structure}")
        data = request.model_dump()
        data["stop_at"] = stop_at
        return cls(**data)

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


def series_has(name: str) -> bool:
    return any(f.name == name for f in fields(SeriesConfig))


@dataclass
class SeatState:
    """A seat as the server sees it, above the series (which knows only names and chips)."""

    seat: int
    name: str
    token_hash: str | None = field(default=None, repr=False)
    """SHA-256 of the seat token; ``None`` for bots and removed players."""
    bot: str | None = None
    """The bot kind; always shown to everybody."""
    away: bool = False
    away_reason: str | None = None
    removed: bool = False
    timeouts: int = 0
    """Timeouts in a row (a decision of the player's own resets it)."""
    bank_ms: int = 0
    bank_hand: int = 1
    """:attr:`bank_ms` is the bank at the start of this hand number, before later refills."""


@dataclass
class SeatRequest:
    """Somebody asked for a seat."""

    request_id: str
    name: str
    token_hash: str = field(repr=False)
    seat: int | None
    status: str = "pending"


@dataclass(frozen=True, slots=True)
class Identity:
    """Who a token is at this table."""

    role: str
    """``"host"``, ``"player"`` or ``"pending"`` (a seat request)."""
    seat: int | None = None
    request_id: str | None = None


@dataclass(frozen=True, slots=True)
class BotTurn:
    """A bot's decision to make outside the lock: its view and legal actions, frozen."""

    seat: int
    key: tuple[int, int]
    bot: Bot
    view: SeatView
    legal: LegalActions


def turn_index(hand: Hand) -> int:
    """How many decisions were taken in *hand* so far: with the hand number, it names a turn."""
    return sum(1 for event in hand.events if type(event) is ActionTaken)


def parse_action(kind: str, to: int | None) -> Action:
    """The engine action for a validated ``act`` message."""
    if kind == "fold":
        return FOLD
    if kind == "check":
        return CHECK
    if kind == "call":
        return CALL
    assert to is not None
    return Raise(to)


def precheck(action: Action, legal: LegalActions, order: Sequence[int]) -> None:
    """Refuse with the engine's own refusal (as data, seats as seats) before the engine is
    asked, with a precise code; the engine stays the final judge.

    :raises ProtocolError: ``illegal_check`` or ``raise_closed``.
    """
    details = legal.refusal_details
    if action == CHECK and not legal.can_check:
        refusal = details.get("check") or Refusal("B3", "owes", {"owed": legal.call_amount})
    elif isinstance(action, Raise) and legal.min_raise_to is None:
        refusal = details.get("raise") or Refusal("B7", "no-chips", {})
    else:
        return
    seated = seat_refusal(refusal, order)
    raise ProtocolError(error_code(seated), refusal_words(seated), refusal=seated)
