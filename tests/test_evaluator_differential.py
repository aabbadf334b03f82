"""feltro against an independent evaluator (phevaluator) on over a million random hands.

Two evaluators agree when they order hands the same way and tie the same hands. phevaluator's
rank is lower-is-stronger; map each distinct phevaluator rank to feltro's value: the pairs must
form a strictly decreasing sequence when sorted by phevaluator's rank (so the mapping is
one-to-one and reverses the order). Hands of 5, 6 and 7 cards are checked together, since
both libraries put every size on one scale.

The seed is fixed so failures reproduce; set ``FELTRO_TEST_SEED`` to try other hands.
"""

from __future__ import annotations

import os

import numpy as np
import pytest
from phevaluator.evaluator import evaluate_cards

import feltro
from feltro.evaluator import hand_strength

pytestmark = pytest.mark.slow

SEED = int(os.environ.get("FELTRO_TEST_SEED", "20240601"))
SIZES = {5: 250_000, 6: 250_000, 7: 500_000}  # 1,000,000 hands in all


def random_hands(rng: np.random.Generator, count: int, size: int) -> np.ndarray:
    """*count* hands of *size* distinct cards, uniformly, as a uint8 array."""
    out = np.empty((count, size), dtype=np.uint8)
    step = 50_000
    for start in range(0, count, step):
        n = min(step, count - start)
        keys = rng.random((n, 52), dtype=np.float32)
        out[start:start + n] = np.argpartition(keys, size, axis=1)[:, :size]
    return out


def phevaluator_ranks(hands: np.ndarray) -> np.ndarray:
    return np.fromiter((evaluate_cards(*h) for h in hands.tolist()), dtype=np.int64,
                       count=len(hands))


def assert_same_order_and_ties(reference_rank: np.ndarray, value: np.ndarray) -> None:
    """*reference_rank* lower-is-stronger, *value* greater-is-stronger: same order, same ties."""
    pairs = np.unique(np.stack([reference_rank.astype(np.int64), value.astype(np.int64)]),
                      axis=1)
    ref, val = pairs
    repeated = np.flatnonzero(np.diff(ref) == 0)
    assert not len(repeated), (
        f"one phevaluator rank, several feltro values: rank {ref[repeated[0]]} -> "
        f"{val[repeated[0]]}, {val[repeated[0] + 1]}"
    )
    bad = np.flatnonzero(np.diff(val) >= 0)
    assert not len(bad), (
        f"order differs: phevaluator ranks {ref[bad[0]]} < {ref[bad[0] + 1]} but feltro values "
        f"{val[bad[0]]} <= {val[bad[0] + 1]}"
    )


@pytest.fixture(scope="module")
def hands() -> dict[int, np.ndarray]:
    rng = np.random.default_rng(SEED)
    return {size: random_hands(rng, count, size) for size, count in SIZES.items()}


def test_random_hand_generator_is_sound(hands: dict[int, np.ndarray]) -> None:
    for size, array in hands.items():
        assert array.shape == (SIZES[size], size)
        ordered = np.sort(array, axis=1)
        assert (np.diff(ordered.astype(np.int16), axis=1) > 0).all()  # distinct cards
        assert array.max() == 51
        assert array.min() == 0
    seven = hands[7]
    # every card turns up about equally often (7/52 of the time)
    freq = np.bincount(seven.ravel(), minlength=52) / len(seven)
    assert np.allclose(freq, 7 / 52, atol=0.005)


def test_evaluate_many_orders_like_phevaluator(hands: dict[int, np.ndarray]) -> None:
    assert sum(len(a) for a in hands.values()) >= 1_000_000
    ref = np.concatenate([phevaluator_ranks(a) for a in hands.values()])
    ours = np.concatenate([np.asarray(feltro.evaluate_many(a)) for a in hands.values()])
    assert_same_order_and_ties(ref, ours)
    # and a good part of the 7,462 classes was exercised
    assert len(np.unique(ours)) > 5_000


@pytest.mark.parametrize("size", [5, 6, 7])
def test_single_calls_order_like_phevaluator(hands: dict[int, np.ndarray], size: int) -> None:
    sample = hands[size][:20_000]
    ref = phevaluator_ranks(sample)
    rows = sample.tolist()
    single = np.array([int(feltro.evaluate(h)) for h in rows])
    fast = np.array([hand_strength(h) for h in rows])
    batch = np.asarray(feltro.evaluate_many(sample))
    assert_same_order_and_ties(ref, single)
    assert (fast == single).all()
    assert (batch == single).all()


def test_the_comparison_catches_disagreements() -> None:
    """The checker itself: a swapped order and a broken tie are both reported."""
    ref = np.array([1, 2, 3, 3])
    assert_same_order_and_ties(ref, np.array([30, 20, 10, 10]))
    with pytest.raises(AssertionError, match="order differs"):
        assert_same_order_and_ties(ref, np.array([20, 30, 10, 10]))
    with pytest.raises(AssertionError, match="several feltro values"):
        assert_same_order_and_ties(ref, np.array([30, 20, 10, 11]))
    with pytest.raises(AssertionError, match="order differs"):  # two ranks, one value
        assert_same_order_and_ties(ref, np.array([30, 30, 10, 10]))
