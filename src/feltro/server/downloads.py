"""A player's own hand histories (PHH), for the download after the game, and the table's
fair-play export.

Each finished hand the player's seat was dealt into, as the series log exports it
(:meth:`feltro.series_log.SeriesStore.export_phh`) with only that player's hole cards
(``visible_to``): the download holds the player's own cards, the board, and the cards shown
at the showdown (their ``sm`` lines), nothing else. The records are data until they are
written here; the dealt cards of the fair-play export come from the hands' events.
"""

from __future__ import annotations

from typing import Any

from feltro.errors import HistoryError
from feltro.fairdeal import dealt_cards
from feltro.history import HandRecord, dumps_all
from feltro.series_log import SeriesStore, played_hand
from feltro.server.fairplay import FairPlay

__all__ = ["fair_export", "player_histories"]


def player_histories(store: SeriesStore, seat: int, fair: FairPlay | None = None) -> str:
    """``.phhs`` text of the finished hands *seat* played, named ``hand-<n>``; with *fair*,
    each hand carries its ``_fair`` field (commitments, the salts of the cards the player saw,
    the secret once revealed), so ``feltro verify`` can check the download.

    :raises HistoryError: if the series cannot be written as PHH (pot-limit).
    """
    series = store.series
    records: dict[str, HandRecord] = {}
    for summary in series.summaries:
        order = summary.seating.order
        if seat not in order:
            continue
        position = order.index(seat)
        record = store.export_phh(summary.number, visible_to=position)
        if fair is not None and fair.dealer is not None:
            record = fair.phh(record, summary.number, len(order), position,
                              board_cards=len(summary.hand.board), over=series.is_over,
                              dealt=series.hand_number, seating=summary.seating)
        records[f"hand-{summary.number}"] = record
    if not records:
        raise HistoryError("no finished hand to download yet")
    return dumps_all(records)


def fair_export(store: SeriesStore, fair: FairPlay) -> dict[str, Any]:
    """The series export of *fair*'s table now (:meth:`FairPlay.export`), the dealt cards
    taken from each hand's events."""
    series = store.series
    dealt = []
    for number in range(1, series.hand_number + 1):
        _, hand, seating = played_hand(series, number)
        dealt.append((number, dealt_cards(hand), seating))
    return fair.export(dealt, in_hand=series.in_hand, over=series.is_over)
