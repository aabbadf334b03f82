"""The night's hands to review (issue 23): every finished hand as its public log, as the
table showed it while it was played (actions, board, cards shown at the showdown, pots), and
for a player their own hole cards too.

Built from the hands' events by :class:`~feltro.server.hand_log.HandLog`, which never logs a
private deal: a mucked or folded hand stays hidden here as it did at the table.
"""

from __future__ import annotations

from typing import Any

from feltro import events as ev
from feltro.series import Series
from feltro.server.hand_log import HandLog, cards_json

__all__ = ["reviewed_hands"]


def reviewed_hands(series: Series, seat: int | None) -> list[dict[str, Any]]:
    """The finished hands of *series*, oldest first; *seat*: the reader's seat (their own
    hole cards are added as ``hole``), ``None`` for public only."""
    players, levels = series.config.players, series.config.levels
    hands: list[dict[str, Any]] = []
    for summary in series.summaries:
        seating = summary.seating
        order = seating.order
        hole = None
        if seat is not None and seat in order:
            position = order.index(seat)
            hole = cards_json([e.card for e in summary.hand.events
                               if isinstance(e, ev.HoleCardDealt) and e.position == position])
        hands.append({
            "number": summary.number,
            "seats": [{"seat": s, "name": players[s], "button": s == seating.button,
                       "small_blind": s == seating.small_blind_seat,
                       "big_blind": s == seating.big_blind} for s in order],
            "log": HandLog(order, summary.hand.events).entries,
            "hole": hole,
            **({} if levels is None else {"level": {  # blind levels (G7): the hand's level
                "level": summary.level, "blinds": levels.level(summary.level).to_dict()}}),
        })
    return hands
