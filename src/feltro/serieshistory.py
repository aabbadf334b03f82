"""A series' hands as hand histories (PHH): :func:`played_hand`, :func:`series_hand_record`.

Re-exported by :mod:`feltro.series_log`.
"""

from __future__ import annotations

from feltro.hand import Hand
from feltro.history.phh import HandRecord
from feltro.history.record import Visible, seated_record
from feltro.seating import Seating
from feltro.series import Series, level_field

__all__ = ["played_hand", "series_hand_record"]


def played_hand(series: Series, number: int | None = None) -> tuple[int, Hand, Seating]:
    """Hand *number* of *series* (default: the current or last hand): its number, the hand
    and its seating.

    :raises KeyError: if hand *number* has not been dealt.
    """
    current = series.hand_number
    if number is None or number == current:
        if series.hand is None or series.seating is None:
            raise KeyError("no hand has been dealt yet")
        return current, series.hand, series.seating
    summary = next((s for s in series.summaries if s.number == number), None)
    if summary is None:
        raise KeyError(f"hand {number} has not been dealt (hands 1..{current})")
    return number, summary.hand, summary.seating


def series_hand_record(series: Series, number: int | None = None, *,
                       visible_to: Visible = None) -> HandRecord:
    """Hand *number* of *series* (default: the current or last hand) as a PHH record, with
    every hole card or only those of *visible_to* (see :func:`~feltro.history.record_of`).

    :raises KeyError: if hand *number* has not been dealt.
    :raises HistoryError: for a pot-limit series (see :func:`~feltro.history.record.stakes_of`).
    """
    number, hand, seating = played_hand(series, number)
    config = series.config
    return seated_record(hand, seating.order, seating.button, series.players,
                         hand_number=number, seat_count=config.seat_count,
                         visible_to=visible_to, **level_field(series, number))

