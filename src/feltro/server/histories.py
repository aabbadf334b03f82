"""A player's own hand histories (PHH), for the download after the game.

Each finished hand the player's seat was dealt into, as the series log exports it
(:meth:`feltro.store.SeriesStore.export_phh`), with every other player's hole cards replaced by
``??``: the download holds the player's own cards, the board, and the cards shown at the
showdown (their ``sm`` lines), nothing else.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from feltro.errors import HistoryError
from feltro.fairdeal import phh_dealt_cards
from feltro.history import HandRecord, dumps_all
from feltro.server.fairplay import FairPlay
from feltro.store import SeriesStore

__all__ = ["fair_export", "player_histories", "redact_record"]

_DEAL = re.compile(r"^d dh p(\d+) (\S+)(.*)$")


def redact_record(record: HandRecord, position: int) -> HandRecord:
    """*record* with the hole cards of every position but *position* (0-based) hidden."""
    actions = []
    for line in record.actions:
        match = _DEAL.match(line)
        if match and int(match.group(1)) - 1 != position:
            hidden = "??" * (len(match.group(2)) // 2)
            line = f"d dh p{match.group(1)} {hidden}{match.group(3)}"
        actions.append(line)
    return dataclasses.replace(record, actions=tuple(actions))


def player_histories(store: SeriesStore, seat: int, fair: FairPlay | None = None) -> str:
    """``.phhs`` text of the finished hands *seat* played, named ``hand-<n>``; with *fair*,
    each hand carries its ``_fair`` field (commitments, the salts of the cards the player saw,
    the secret once revealed), so ``feltro verify`` can check the download.

    :raises HistoryError: if the series cannot be written as PHH (pot-limit).
    """
    series = store.series
    records: dict[str, HandRecord] = {}
    for summary in series.summaries:
        if seat not in summary.seating.order:
            continue
        record = store.export_phh(summary.number)
        position = summary.seating.order.index(seat)
        record = redact_record(record, position)
        if fair is not None and fair.dealer is not None:
            record = fair.phh(record, summary.number, len(summary.seating.order), position,
                              over=series.is_over, dealt=series.hand_number)
        records[f"hand-{summary.number}"] = record
    if not records:
        raise HistoryError("no finished hand to download yet")
    return dumps_all(records)


def fair_export(store: SeriesStore, fair: FairPlay) -> dict[str, Any]:
    """The series export of *fair*'s table now (:meth:`FairPlay.export`), the dealt cards
    read from the series log."""
    series = store.series
    dealt = [(number, phh_dealt_cards(store.export_phh(number)))
             for number in range(1, series.hand_number + 1)]
    return fair.export(dealt, in_hand=series.in_hand, over=series.is_over)
