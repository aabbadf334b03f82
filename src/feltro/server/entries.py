"""Re-entries (G8) and late seats (G9) at a live table, without growing
:class:`~feltro.server.live_table.LiveTable`.

* The host approves a re-entry (``reenter``): the series log records it first
  (:meth:`feltro.series_log.SeriesStore.reenter`), the player waits for the big blind (D8).
* During the re-entry period of a table with late seats, ``join`` works after the start too;
  when the host accepts, the series log records the late seat first
  (:meth:`feltro.series_log.SeriesStore.seat_late`), then the lobby seats the player.

The rules judge (:class:`~feltro.errors.EntryError`); their refusal reaches the client as data
(``refusal.<rule>.<reason>``). :func:`entries_view` is what phones and the TV are told.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from feltro.errors import EntryError
from feltro.server.protocol import ErrorCode, ProtocolError
from feltro.server.refusals import refusal_error
from feltro.session import Player

if TYPE_CHECKING:
    from feltro.series import Series
    from feltro.server.live_table import LiveTable
    from feltro.server.lobby import SeatRequest

__all__ = ["accept", "entries_view", "join", "late_seats_open", "reconcile", "reenter"]


def late_seats_open(table: LiveTable) -> bool:
    """Whether a player arriving now may ask for a seat (G9): the series started, a re-entry
    rule with late seats, and its period open."""
    store = table.store
    if store is None or store.series.is_over:
        return False
    rule = store.series.config.reentry
    return (rule is not None and rule.late_seats
            and store.series.entries_open(table.clock.wall()))


def join(table: LiveTable, name: str, seat: int | None, *,
         by_host: bool) -> tuple[SeatRequest, str]:
    """``join``: before the start, the lobby's; after it, a late seat's request (G9).

    :raises ProtocolError: ``not_now`` when no late seat is open, or the lobby's refusal.
    """
    if not table.started or not late_seats_open(table):
        return table.join(name, seat, by_host=by_host)
    request, token = table.lobby.join(name, seat, by_host=False)
    if by_host:
        accept(table, request.request_id, seat)
    return request, token


def accept(table: LiveTable, request_id: str, seat: int | None) -> None:
    """``accept``: before the start, the lobby's; after it, a late seat (G9), logged in the
    series first, then seated.

    :raises ProtocolError: the lobby's refusal, or the rules' (``refusal``).
    """
    if not table.started:
        table.accept(request_id, seat)
        return
    store, seated = table.store, table.seated
    if store is None or seated is None:
        raise ProtocolError(ErrorCode.NOT_NOW, "the series has not started")
    request = table.lobby.pending(request_id)
    chosen = seat if seat is not None else request.seat
    if chosen is None:
        free = table.lobby.free_seats()
        if not free:
            raise ProtocolError(ErrorCode.TABLE_FULL, "every seat is taken")
        chosen = free[0]
    wall = table.clock.wall()
    try:  # the rules judge first; then the lobby's journal, then the series log
        store.series.check_late_seat(chosen, request.name, wall)
    except EntryError as exc:
        raise refusal_error(exc.refusal) from None
    table.lobby.accept(request_id, chosen)
    seated.seat_late(Player(chosen, request.name), wall)


def reconcile(table: LiveTable) -> None:
    """After a crash between a late seat's two logs (the lobby's journal first, then the
    series log): seat in the series the late players the lobby granted (G9), so that the
    table resumes with the same players. Called when the series is opened."""
    store = table.store
    if store is None or store.series.config.reentry is None:
        return
    for seat, state in table.lobby.seats.items():
        if seat not in store.series.players:
            store.seat_late(seat, state.name)  # no clock: it was granted in the period


def reenter(table: LiveTable, seat: int) -> None:
    """``reenter`` (host): the busted player in *seat* takes a fresh starting stack (G8).

    :raises ProtocolError: ``not_now`` before the start, or the rules' refusal.
    """
    seated = table.seated
    if seated is None:
        raise ProtocolError(ErrorCode.NOT_NOW, "the series has not started")
    try:
        seated.reenter(seat, table.clock.wall())
    except EntryError as exc:
        raise refusal_error(exc.refusal) from None


def entries_view(series: Series, wall: Any) -> dict[str, Any] | None:
    """The re-entry period as phones and the TV see it, or ``None`` for a freezeout (G4):
    ``open``, ``times``, ``late_seats``, ``reentries`` (seat -> count) and ``waiting`` (seat ->
    the hand it is dealt in at, and ``now`` when fewer than two others could play)."""
    rule = series.config.reentry
    if rule is None:
        return None
    playing = set(series.alive) - set(series.waiting)
    return {
        "open": series.entries_open(wall), "times": rule.times,
        "until_level": rule.until_level, "until_minutes": rule.until_minutes,
        "late_seats": rule.late_seats,
        "reentries": {str(seat): series.reentries(seat) for seat in series.players
                      if series.reentries(seat)},
        "waiting": {str(seat): {"hand": series.joins_in(seat), "now": len(playing) < 2}
                    for seat in series.waiting},
    }
