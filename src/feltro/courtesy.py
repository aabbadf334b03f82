"""A voluntary show after a hand won uncontested (P8, D11; B5 in the engine).

When everybody else folded, the winner's cards stay hidden unless the winner chooses to show
them, before the next hand is dealt. :func:`show_after_win` checks that choice against the
series and lets the engine (:meth:`feltro.hand.Hand.show`) record it: the shown cards become
part of the hand (its events, its PHH, every view of it), and the chips do not move.

Pure like :mod:`feltro.series`: the durable log (:meth:`feltro.series_log.SeriesStore.show`)
and the server call it.
"""

from __future__ import annotations

from feltro.errors import IllegalActionError, Refusal
from feltro.events import Event
from feltro.series import Series


def may_show(series: Series, seat: int) -> bool:
    """Whether *seat* may show now (:func:`show_after_win` would accept it): the hand it won
    uncontested is over, the next one not dealt, and its cards not shown yet."""
    hand, seating = series.hand, series.seating
    if hand is None or seating is None or not hand.is_over or seat not in seating.order:
        return False
    position = seating.position_of(seat)
    live = [p for p in range(hand.players) if not hand.folded[p]]
    return live == [position] and position not in hand.shown


def show_after_win(series: Series, seat: int) -> tuple[Event, ...]:
    """*seat* shows both private cards of the hand it just won uncontested.

    Allowed once the hand is over, before the next one is dealt, to the only player left in
    it; the cards shown are those dealt (D11) and the result does not change.

    :raises IllegalActionError: naming the rule, nothing changed: no hand over yet (P8
        ``betting-not-over``), *seat* not in the hand (B2 ``not-your-turn``), a hand decided
        at the showdown (B5 ``hand-over``), a folded seat (P2 ``folded``), a second show (P8
        ``already-shown``). The engine's refusals keep hand positions
        (:func:`feltro.session.seat_refusal` turns them into seats).
    """
    hand, seating = series.hand, series.seating
    if hand is None or seating is None or not hand.is_over:
        raise IllegalActionError(Refusal("P8", "betting-not-over", {"seat": seat}),
                                 "a hand is shown once it is over", seat=seat)
    if seat not in seating.order:
        raise IllegalActionError(Refusal("B2", "not-your-turn", {"seat": seat}),
                                 f"seat {seat} is not in this hand", seat=seat)
    position = seating.position_of(seat)
    try:
        return hand.show(position)
    except IllegalActionError as exc:
        exc.seat = seat
        raise
