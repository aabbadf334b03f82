"""Every five-card and every seven-card hand, with the known counts (issue 2, part 5).

Combinations are generated with vectorised numpy in chunks (never itertools over 133 M items)
and evaluated with ``evaluate_many``. Categories are not read from the raw integers: each distinct
value gets the category that the single-call ``evaluate`` gives one five-card hand having it, so
the batch path and the single-call path check each other.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from math import comb

import numpy as np
import pytest

import feltro
from feltro.evaluator import Category, hand_strength

pytestmark = pytest.mark.slow

FIVE_CARD_COUNTS = {
    Category.STRAIGHT_FLUSH: 40,
    Category.FOUR_OF_A_KIND: 624,
    Category.FULL_HOUSE: 3_744,
    Category.FLUSH: 5_108,
    Category.STRAIGHT: 10_200,
    Category.THREE_OF_A_KIND: 54_912,
    Category.TWO_PAIR: 123_552,
    Category.ONE_PAIR: 1_098_240,
    Category.HIGH_CARD: 1_302_540,
}
FIVE_CARD_CLASSES = {  # distinct values per category (7,462 in all)
    Category.STRAIGHT_FLUSH: 10,
    Category.FOUR_OF_A_KIND: 156,
    Category.FULL_HOUSE: 156,
    Category.FLUSH: 1_277,
    Category.STRAIGHT: 10,
    Category.THREE_OF_A_KIND: 858,
    Category.TWO_PAIR: 858,
    Category.ONE_PAIR: 2_860,
    Category.HIGH_CARD: 1_277,
}
SEVEN_CARD_COUNTS = {
    Category.STRAIGHT_FLUSH: 41_584,
    Category.FOUR_OF_A_KIND: 224_848,
    Category.FULL_HOUSE: 3_473_184,
    Category.FLUSH: 4_047_644,
    Category.STRAIGHT: 6_180_020,
    Category.THREE_OF_A_KIND: 6_461_620,
    Category.TWO_PAIR: 31_433_400,
    Category.ONE_PAIR: 58_627_800,
    Category.HIGH_CARD: 23_294_460,
}


def combos(m: int, k: int) -> np.ndarray:
    """All k-subsets of range(m) in lexicographic order, shape (C(m, k), k), uint8.

    The (j-1)-subsets whose smallest element is at least s are the last C(m - s, j - 1) rows of
    the lexicographic table, so each width is built from the previous one block by block.
    """
    table = np.arange(m, dtype=np.uint8).reshape(m, 1)
    for j in range(2, k + 1):
        blocks = []
        for first in range(m - j + 1):
            tail = table[len(table) - comb(m - first - 1, j - 1):]
            block = np.empty((len(tail), j), dtype=np.uint8)
            block[:, 0] = first
            block[:, 1:] = tail
            blocks.append(block)
        table = np.concatenate(blocks)
    return table


def seven_card_chunks(target_rows: int = 2_000_000, deck: int = 52) -> Iterator[np.ndarray]:
    """Every 7-card hand exactly once, in lexicographic order: two leading cards a < b, then
    each 5-subset above b (the last C(deck - 1 - b, 5) rows of the 5-subset table)."""
    five = combos(deck, 5)
    pending: list[tuple[int, int, int]] = []
    size = 0

    def build() -> np.ndarray:
        out = np.empty((size, 7), dtype=np.uint8)
        pos = 0
        for a, b, n in pending:
            out[pos:pos + n, 0] = a
            out[pos:pos + n, 1] = b
            out[pos:pos + n, 2:] = five[len(five) - n:]
            pos += n
        return out

    for a in range(deck):
        for b in range(a + 1, deck - 5):
            n = comb(deck - 1 - b, 5)
            pending.append((a, b, n))
            size += n
            if size >= target_rows:
                yield build()
                pending, size = [], 0
    if pending:
        yield build()


def test_combination_generators_are_exact() -> None:
    """The generators themselves: lexicographic, complete, no repeats (checked small)."""
    for m, k in ((9, 4), (12, 5), (7, 7), (6, 1)):
        assert combos(m, k).tolist() == [list(c) for c in combinations(range(m), k)]
    # The chunked seven-card walk on a 15-card deck, small chunks, against itertools.
    chunks = list(seven_card_chunks(target_rows=500, deck=15))
    assert len(chunks) > 3
    walked = np.concatenate(chunks).tolist()
    assert walked == [list(c) for c in combinations(range(15), 7)]
    assert sum(comb(51 - b, 5) for a in range(52) for b in range(a + 1, 47)) == comb(52, 7)


def _value_categories(values5: np.ndarray, hands5: np.ndarray) -> np.ndarray:
    """category[v] for every value v that some five-card hand has (0 elsewhere), taken from the
    single-call ``evaluate`` of one hand per value."""
    distinct, first = np.unique(values5, return_index=True)
    categories = np.zeros(int(distinct.max()) + 1, dtype=np.int8)
    for value, index in zip(distinct.tolist(), first.tolist(), strict=True):
        hand = hands5[index].tolist()
        single = feltro.evaluate(hand)
        assert int(single) == value, f"evaluate_many and evaluate differ on {hand}"
        categories[value] = int(single.category)
    return categories


@pytest.fixture(scope="module")
def five_card() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    hands = combos(52, 5)
    assert len(hands) == 2_598_960
    values = np.asarray(feltro.evaluate_many(hands))
    assert values.shape == (len(hands),)
    return hands, values, _value_categories(values, hands)


def test_all_five_card_hands(five_card: tuple[np.ndarray, np.ndarray, np.ndarray]) -> None:
    _, values, categories = five_card
    distinct = np.unique(values)
    assert len(distinct) == 7_462
    per_hand = categories[values]
    counts = np.bincount(per_hand, minlength=10)
    assert {c: int(counts[c]) for c in Category} == FIVE_CARD_COUNTS
    classes = np.bincount(categories[distinct], minlength=10)
    assert {c: int(classes[c]) for c in Category} == FIVE_CARD_CLASSES
    # Categories never overlap in value: every value of a category is above every value of
    # the category below (P4).
    for lower, upper in zip(list(Category), list(Category)[1:], strict=False):
        assert distinct[categories[distinct] == lower].max() < distinct[
            categories[distinct] == upper].min()


def test_five_card_sample_through_single_calls(
    five_card: tuple[np.ndarray, np.ndarray, np.ndarray],
) -> None:
    hands, values, _ = five_card
    rng = np.random.default_rng(5)
    for index in rng.choice(len(hands), 3_000, replace=False).tolist():
        hand = hands[index].tolist()
        assert hand_strength(hand) == int(values[index])
        assert int(feltro.evaluate(hand)) == int(values[index])


def test_all_seven_card_hands(five_card: tuple[np.ndarray, np.ndarray, np.ndarray]) -> None:
    _, _, categories = five_card
    size = len(categories)
    counts = np.zeros(size, dtype=np.int64)
    total = 0
    rng = np.random.default_rng(7)
    for n, chunk in enumerate(seven_card_chunks()):
        values = np.asarray(feltro.evaluate_many(chunk))
        assert values.shape == (len(chunk),)
        if int(values.max()) >= size or int(values.min()) < 0:
            pytest.fail(f"seven-card values {values.min()}..{values.max()} outside 5-card ones")
        counts += np.bincount(values.astype(np.intp), minlength=size)
        total += len(chunk)
        if n % 8 == 0:  # a sample through the single-call paths
            for index in rng.choice(len(chunk), 200, replace=False).tolist():
                hand = chunk[index].tolist()
                assert hand_strength(hand) == int(values[index]), hand
                assert int(feltro.evaluate(hand)) == int(values[index]), hand
    assert total == 133_784_560
    present = np.flatnonzero(counts)
    assert len(present) == 4_824
    assert (categories[present] > 0).all()
    per_category = np.bincount(categories[present], weights=counts[present], minlength=10)
    assert {c: int(per_category[c]) for c in Category} == SEVEN_CARD_COUNTS
