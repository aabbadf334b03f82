"""Vector hand evaluation with numpy: the same strengths as :func:`feltro.evaluate`.

>>> import numpy as np
>>> evaluate_many(np.array([[51, 47, 43, 39, 35], [0, 4, 8, 12, 51]]))
array([7462, 5854], dtype=int32)

The same additive keys as the scalar evaluator (see :mod:`feltro._evaltables`), summed column
by column; non-flush strengths come from a minimal perfect hash of the rank multiset, flush
strengths from the flush suit's rank mask.
"""

from __future__ import annotations

from functools import cache
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from feltro import _evaltables as tables_module
from feltro.cards import format_cards
from feltro.errors import CardError

__all__ = ["evaluate_many", "key_tables", "strengths_from_keys"]

_CHUNK: Final = 1 << 15  # rows per pass: keeps every temporary in cache


class _VectorTables:
    def __init__(self) -> None:
        t = tables_module.load()
        cards = range(52)
        self.key_a = np.array([tables_module.key_a(c) for c in cards], dtype=np.int64)
        # The card's bit in per-suit rank masks: 13 bits a suit.
        self.key_b = np.array([tables_module.key_b(c) for c in cards], dtype=np.int64)
        self.flush_suit = np.array(
            [tables_module.flush_suit_of_counts(s) for s in range(1 << 12)], dtype=np.int64
        )
        self.low_rank = np.frombuffer(t.low_rank, dtype=np.uint16).astype(np.int64)
        self.offsets = {n: np.frombuffer(t.offsets[n], dtype=np.uint32).astype(np.int64)
                        for n in (5, 6, 7)}
        self.table = {n: np.frombuffer(t.table[n], dtype=np.uint16).astype(np.int32)
                      for n in (5, 6, 7)}
        self.flush = np.frombuffer(t.flush_values, dtype=np.uint16).astype(np.int32)


@cache
def _tables() -> _VectorTables:
    return _VectorTables()


def key_tables() -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The additive keys A and B of every card id (arrays of 52), for callers that sum them
    themselves (:func:`strengths_from_keys`)."""
    t = _tables()
    return t.key_a, t.key_b


def strengths_from_keys(
    key_a: npt.NDArray[np.int64], key_b: npt.NDArray[np.int64], count: int
) -> npt.NDArray[np.int32]:
    """Strengths of hands of *count* cards given their summed keys A and B.

    For callers that build key sums incrementally (exact equity over many boards).
    """
    t = _tables()
    suit = t.flush_suit[key_a & 0xFFF]
    low = (key_a >> tables_module.SUIT_FIELD_BITS) & tables_module.LOW_FIELD_MASK
    high = key_a >> tables_module.HIGH_FIELD_SHIFT
    strength: npt.NDArray[np.int32] = t.table[count][t.offsets[count][high] + t.low_rank[low]]
    flushes = np.flatnonzero(suit >= 0)
    if flushes.size:
        masks = (key_b[flushes] >> (13 * suit[flushes])) & 0x1FFF
        strength[flushes] = t.flush[masks]
    return strength


def evaluate_many(ids: npt.ArrayLike) -> npt.NDArray[np.int32]:
    """Strengths of many hands: an integer array of shape (N, 5..7) of card ids in, an int32
    array of N strengths out, with the same order and ties as :func:`feltro.evaluate`.

    :raises CardError: for a wrongly shaped or non-integer array, ids outside 0..51, or a
        repeated card in a row (the message names the first bad row).
    """
    hands = np.asarray(ids)
    if hands.ndim != 2 or not 5 <= hands.shape[1] <= 7:
        raise CardError(f"evaluate_many needs an array of shape (N, 5..7), got {hands.shape}")
    if hands.dtype.kind not in "iu":
        raise CardError(f"evaluate_many needs integer card ids, got dtype {hands.dtype}")
    count = hands.shape[1]
    out = np.empty(len(hands), dtype=np.int32)
    if not len(hands):
        return out
    low, high = hands.min(), hands.max()
    if low < 0 or high > 51:
        row = int(np.flatnonzero(((hands < 0) | (hands > 51)).any(axis=1))[0])
        raise CardError(f"card ids must be 0..51; row {row} is {hands[row].tolist()}")
    t = _tables()
    for start in range(0, len(hands), _CHUNK):
        # Column-major and index-typed, one chunk at a time (never a copy of the whole input).
        part = np.ascontiguousarray(hands[start:start + _CHUNK].T, dtype=np.intp)
        key_a = t.key_a[part[0]]
        key_b = t.key_b[part[0]]
        for column in part[1:]:
            key_a += t.key_a[column]
            key_b += t.key_b[column]
        _check_distinct(key_b, count, hands, start)
        out[start:start + len(key_a)] = strengths_from_keys(key_a, key_b, count)
    return out


def _check_distinct(
    key_b: npt.NDArray[np.int64], count: int, hands: npt.NDArray[Any], start: int
) -> None:
    # Distinct cards set `count` different bits; a repeated card carries into fewer.
    bad = np.bitwise_count(key_b) != count
    if bad.any():
        row = start + int(np.flatnonzero(bad)[0])
        raise CardError(f"duplicate card in row {row}: {format_cards(hands[row].tolist())}")
