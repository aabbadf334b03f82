"""What the views need to know about a table at one moment: :class:`TableSnapshot`.

A snapshot is computed when the table changes (:meth:`LiveTable.snapshot
<feltro.server.live_table.LiveTable.snapshot>`, under the room's lock) and is plain data from
then on: public parts, and each dealt-in seat's own part (:class:`OwnHand`: its hole cards, its
legal actions when it is to act, the salts of its own cards). It holds no live object (no hand,
no series, no fair dealer), so :mod:`feltro.server.views` cannot reach past it, and a snapshot
sent a second later still says what the table was (``tests/server/test_pure_snapshots.py``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from feltro.cards import Card
from feltro.legal import LegalActions
from feltro.seating import Seating
from feltro.series import Outcome, Standing
from feltro.server.lobby import SeatRequest, SeatState
from feltro.server.outgoing import TableStatus
from feltro.server.table_settings import TableSettings
from feltro.view import SeatView

__all__ = ["FinishedHand", "HandSnapshot", "OwnHand", "SeriesSnapshot", "TableSnapshot",
           "TurnTimer"]


@dataclass(frozen=True, slots=True)
class HandSnapshot:
    """The hand in progress (or the last one played), publicly."""

    number: int
    public: SeatView
    """The engine's public view: no private cards but those shown."""
    seating: Seating
    log: Sequence[dict[str, Any]]
    """The public log entries (``hand.log``), from the events the hand returned."""
    last_actions: Mapping[int, dict[str, Any]]
    shows: Sequence[tuple[int, Any]]
    """The showdown in show order: ``(seat, cards)``, cards ``None`` for a muck."""
    turn: int
    """Decisions taken so far in this hand (with :attr:`number`, it names a turn)."""
    level: Mapping[str, Any] | None = None
    """The blind level the hand was dealt at (G7): ``{"level": n, "blinds": {"small_blind",
    "big_blind", "ante"}}``, or ``None`` with fixed blinds."""


@dataclass(frozen=True, slots=True)
class OwnHand:
    """What one dealt-in seat alone may see of the hand, beyond the public part."""

    hole: tuple[Card, ...]
    """Its own hole cards."""
    legal: LegalActions | None
    """Its legal actions, when it is to act in a hand being played."""
    fair: Mapping[str, Any] | None
    """The salts of its own cards (its ``you.fair``), at a table with the fair dealer."""
    may_show: bool = False
    """Whether it may show the hand it won uncontested now (P8, ``you.may_show``)."""
    show_losers: bool = False
    """Whether it chose to show even losing hands at the showdown (P8, ``you.show_losers``)."""


@dataclass(frozen=True, slots=True)
class FinishedHand:
    """A finished hand's chips (a point of the chips chart)."""

    number: int
    stacks_after: Mapping[int, int]
    """Seat -> chips after the pots were paid."""
    eliminated: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SeriesSnapshot:
    """The series, once started."""

    in_hand: bool
    hand_number: int
    to_act: int | None
    """The seat to act, if any."""
    stacks: Mapping[int, int]
    standings: tuple[Standing, ...]
    places: Mapping[int, Standing]
    """Seat -> its line in :attr:`standings`."""
    outcome: Outcome | None
    players: Mapping[int, str]
    starting_stack: int
    finished: Sequence[FinishedHand]
    """The hands played, oldest first."""
    stop_requested: bool
    should_stop: bool
    """Whether the series ends after the hand in progress (asked, or a stop condition met)."""
    level: Mapping[str, Any] | None = None
    entries: Mapping[str, Any] | None = None
    """The re-entry period (G8, G9, :func:`feltro.server.entries.entries_view`), or ``None``."""
    """The blind level, the next and the countdown (G7, :meth:`Countdown.to_dict`), or
    ``None`` with fixed blinds."""


@dataclass(frozen=True, slots=True)
class TurnTimer:
    """The timer of the turn in progress (monotonic seconds)."""

    seat: int
    hand: int
    turn: int
    started: float
    action_ends: float
    ends: float
    bank_ms: int
    grace: bool


@dataclass(frozen=True, slots=True)
class TableSnapshot:
    """One table at one moment (see the module docstring)."""

    table_id: str
    settings: TableSettings
    status: TableStatus
    seats: Mapping[int, SeatState]
    host_seat: int | None
    connected: Mapping[int, int]
    requests: Mapping[str, SeatRequest]
    paused: bool
    in_hand: bool
    stop_logged: bool
    problem: str | None
    next_deal_at: float | None
    turn_key: tuple[int, int] | None
    banks: Mapping[int, int]
    """Seat -> its time bank now (ms)."""
    clock: TurnTimer | None
    series: SeriesSnapshot | None
    hand: HandSnapshot | None
    own: Mapping[int, OwnHand]
    """Seat -> its own part of the hand (:class:`OwnHand`), for the seats dealt in."""
    mono_now: float
    wall_now: datetime
    fair: Mapping[str, Any] | None = None
    """The public part of the verifiable shuffle (:meth:`FairPlay.public
    <feltro.server.fairplay.FairPlay.public>`)."""

    def pending_requests(self) -> list[SeatRequest]:
        """Requests waiting for the host, oldest first."""
        return [r for r in self.requests.values() if r.status == "pending"]
