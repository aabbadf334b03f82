"""What the views need to know about a table at one moment: :class:`TableSnapshot`.

:meth:`TableGame.snapshot <feltro.server.game.TableGame.snapshot>` builds one under the room's
lock; :mod:`feltro.server.views` reads it and nothing else, so no view reaches through the store
into the series and the hand. A snapshot is read-only; the only cards it can give out beyond the
public ones are one seat's own (:meth:`TableSnapshot.own_view`), for that seat's own view.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from feltro.hand import Hand
from feltro.series import HandSummary, Outcome, Standing
from feltro.server.fairplay import FairPlay
from feltro.server.model import SeatRequest, SeatState, TableSettings
from feltro.server.protocol import TableStatus
from feltro.table import Seating
from feltro.view import SeatView

__all__ = ["HandSnapshot", "SeriesSnapshot", "TableSnapshot", "TurnClock"]


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
    summaries: Sequence[HandSummary]
    stop_requested: bool
    should_stop: bool
    """Whether the series ends after the hand in progress (asked, or a stop condition met)."""


@dataclass(frozen=True, slots=True)
class TurnClock:
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
    clock: TurnClock | None
    series: SeriesSnapshot | None
    hand: HandSnapshot | None
    mono_now: float
    wall_now: datetime
    _hand: Hand | None = field(default=None, repr=False)
    fair: Mapping[str, Any] | None = None
    """The public part of the verifiable shuffle (:meth:`FairPlay.public`)."""
    _fair: FairPlay | None = field(default=None, repr=False)

    def own_fair(self, seat: int) -> dict[str, Any] | None:
        """The salts of *seat*'s own hole cards (its ``you.fair``), if it is dealt in."""
        current, series = self.hand, self.series
        if self._fair is None or current is None or series is None \
                or seat not in current.seating.order:
            return None
        return self._fair.own(self._hand, current.number, current.seating.position_of(seat),
                              len(current.seating.order))

    def own_view(self, seat: int) -> SeatView | None:
        """What *seat* itself sees of the hand (its own cards only), if it is dealt in."""
        hand, current = self._hand, self.hand
        if hand is None or current is None or seat not in current.seating.order:
            return None
        return hand.view(current.seating.position_of(seat))

    def pending_requests(self) -> list[SeatRequest]:
        """Requests waiting for the host, oldest first."""
        return [r for r in self.requests.values() if r.status == "pending"]
