"""Taking a :class:`~feltro.server.snapshot.TableSnapshot` of a live table: the one place that
reads the live hand, series and fair dealer for the views.

Everything a view may show is computed here, when the table changes: the public parts, and for
each seat dealt in, its own part (:class:`~feltro.server.snapshot.OwnHand`: its hole cards, its
legal actions when it is to act, the salts of its own cards). The views then read plain data
only (:mod:`feltro.server.views`).
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from feltro.courtesy import may_show
from feltro.series import Series
from feltro.server.entries import entries_view
from feltro.server.hand_log import HandLog
from feltro.server.snapshot import (
    FinishedHand,
    HandSnapshot,
    OwnHand,
    SeriesSnapshot,
    TableSnapshot,
    TurnTimer,
)
from feltro.session import turn_index

if TYPE_CHECKING:
    from feltro.server.live_table import LiveTable

__all__ = ["table_snapshot"]


def table_snapshot(table: LiveTable, mono: float, wall: datetime) -> TableSnapshot:
    """*table* at monotonic *mono* and wall time *wall*, as plain data."""
    series = table.store.series if table.store is not None else None
    hand = _hand_snapshot(table, series)
    return TableSnapshot(
        table_id=table.table_id, settings=table.settings, status=table.status,
        seats=dict(table.seats), host_seat=table.lobby.host_seat,
        connected=dict(table.connected),
        requests=dict(table.lobby.requests), paused=table.paused, in_hand=table.in_hand,
        stop_logged=table.stop_logged, problem=table.problem,
        next_deal_at=table.timer.next_deal_at, turn_key=table.turn_key,
        banks={seat: table.bank_ms(seat) for seat in table.seats},
        clock=_turn_timer(table), series=_series_snapshot(table, series, wall), hand=hand,
        own=_own_parts(table, series, hand), mono_now=mono, wall_now=wall,
        fair=_fair_public(table, series))


def _series_snapshot(table: LiveTable, series: Series | None,
                     wall: datetime) -> SeriesSnapshot | None:
    if series is None:
        return None
    standings = series.standings()
    return SeriesSnapshot(
        in_hand=series.in_hand, hand_number=series.hand_number, to_act=series.to_act,
        stacks=dict(series.stacks), standings=standings,
        places={row.seat: row for row in standings}, outcome=series.outcome,
        players=series.players, starting_stack=series.config.starting_stack,
        finished=_finished(table, series), stop_requested=series.stop_requested,
        should_stop=series.in_hand and (table.stop_logged or series.stop_requested
                                        or series.should_stop(wall)),
        level=_level(series, wall), entries=entries_view(series, wall))


def _level(series: Series, wall: datetime) -> dict[str, Any] | None:
    countdown = series.countdown(wall)
    return None if countdown is None else countdown.to_dict()


def _finished(table: LiveTable, series: Series) -> tuple[FinishedHand, ...]:
    """The chips of every hand played (kept on the table, added to as hands end)."""
    done = table.finished_hands
    for summary in series.summaries[len(done):]:
        done.append(FinishedHand(summary.number, dict(summary.stacks_after),
                                 summary.eliminated))
    return tuple(done)


def _hand_snapshot(table: LiveTable, series: Series | None) -> HandSnapshot | None:
    if series is None or series.hand is None or series.seating is None:
        return None
    log = table.hand_log
    if log is None or log.order != series.seating.order:  # pragma: no cover - kept in step
        log = table.hand_log = HandLog(series.seating.order, series.hand.events)
    key = table.turn_key
    return HandSnapshot(number=series.hand_number, public=series.hand.public_view(),
                        seating=series.seating, log=tuple(log.entries),
                        last_actions=dict(log.last_actions), shows=tuple(log.shows),
                        turn=key[1] if key is not None else turn_index(series.hand),
                        level=_hand_level(series))


def _hand_level(series: Series) -> dict[str, Any] | None:
    """The level the current (or last) hand was dealt at (G7), ``None`` with fixed blinds."""
    if series.config.levels is None:
        return None
    return {"level": series.level, "blinds": series.blinds.to_dict()}


def _own_parts(table: LiveTable, series: Series | None,
               current: HandSnapshot | None) -> dict[int, OwnHand]:
    """Each dealt-in seat's own cards, legal actions (its turn only) and salts."""
    if series is None or current is None or series.hand is None:
        return {}
    hand, order = series.hand, current.seating.order
    to_act = hand.to_act if series.in_hand and table.turn_key is not None else None
    fair = table.fairplay
    parts = {}
    for position, seat in enumerate(order):
        salts = (fair.own(hand, current.number, position, len(order))
                 if fair is not None else None)
        parts[seat] = OwnHand(hole=tuple(c for c in hand.hole(position) if c is not None),
                              legal=hand.legal if position == to_act else None, fair=salts,
                              may_show=may_show(series, seat),
                              show_losers=seat in series.show_losers)
    return parts


def _turn_timer(table: LiveTable) -> TurnTimer | None:
    limits = table.deadlines()
    key = table.turn_key
    if limits is None or key is None or table.store is None:
        return None
    seat = table.store.series.to_act
    assert seat is not None
    return TurnTimer(seat=seat, hand=key[0], turn=key[1], started=table.timer.started,
                     action_ends=limits[0], ends=limits[1], bank_ms=table.bank_ms(seat),
                     grace=table.timer.grace)


def _fair_public(table: LiveTable, series: Series | None) -> dict[str, Any] | None:
    if table.fairplay is None or series is None:
        return None
    players = len(series.seating.order) if series.seating is not None else 0
    return table.fairplay.public(series.hand, series.hand_number, in_hand=series.in_hand,
                                 over=series.is_over, players=players,
                                 seats=series.seating.order if series.seating else ())
