"""The numpy equity of the Monte Carlo bots: the same strengths and shares as the plain loop on
the same deals, draws that respect ranges and seen cards, and the same estimate as the loop."""

from __future__ import annotations

import random

import numpy as np
import pytest

from feltro.bots import montecarlo
from feltro.bots.montecarlo import MonteCarloBot, _connects, estimate_equity
from feltro.bots.reading import range_threshold, score_table
from feltro.bots.vectorequity import Deals, deal, equity_of_deals, estimate_equity_np
from feltro.cards import Deck, parse_cards
from feltro.equity import monte_carlo_equity
from feltro.evaluator import hand_strength
from feltro.hand import Hand, HandConfig

CASES = [
    ("As Ah", "", [(1.0, 0.0)]),
    ("As Kd", "", [(0.15, 0.0), (0.4, 0.0)]),
    ("Qs Jd", "Qh 7c 2d", [(0.3, 0.6)]),
    ("9h 8h", "7h 6c 2h", [(0.08, 0.85), (0.5, 0.0), (1.0, 0.6)]),
    ("Ac 2c", "Kd Qd Js 3h", [(0.2, 0.85)]),
    ("Tc Td", "Kd Qd Js 3h 4c", [(0.2, 0.85), (0.15, 0.6)]),
    ("7c 2d", "", [(0.4, 0.0)] * 9),
]


def _ids(text: str) -> list[int]:
    return [int(c) for c in parse_cards(text)]


def _scalar_equity(hole: list[int], board: list[int], deals: Deals) -> float:
    """The plain loop's tally (hand_strength per player, ties split) over the same deals."""
    won = 0.0
    trials = len(deals.runout)
    for t in range(trials):
        full = board + [int(c) for c in deals.runout[t]]
        mine = hand_strength(hole + full)
        theirs = [hand_strength([int(a[t]), int(b[t]), *full]) for a, b in deals.holes]
        best = max(theirs)
        if mine > best:
            won += 1.0
        elif mine == best:
            won += 1.0 / (theirs.count(best) + 1)
    return won / trials


@pytest.mark.parametrize(("hole", "board", "ranges"), CASES)
def test_vector_tally_equals_the_scalar_loop_on_the_same_deals(
        hole: str, board: str, ranges: list[tuple[float, float]]) -> None:
    mine, table = _ids(hole), _ids(board)
    deals = deal(mine, table, ranges, 400, np.random.default_rng(7))
    assert equity_of_deals(mine, table, deals) == pytest.approx(
        _scalar_equity(mine, table, deals), abs=1e-12)


def test_the_tally_comparison_can_fail() -> None:
    # Swapping the hero's hand for another changes the share: the check above is not vacuous.
    mine, table = _ids("Qs Jd"), _ids("Qh 7c 2d")
    deals = deal(mine, table, [(0.3, 0.6)], 400, np.random.default_rng(7))
    assert equity_of_deals(_ids("3c 4c"), table, deals) != pytest.approx(
        _scalar_equity(mine, table, deals), abs=1e-3)


@pytest.mark.parametrize(("hole", "board", "ranges"), CASES)
def test_draws_respect_ranges_seen_cards_and_each_other(
        hole: str, board: str, ranges: list[tuple[float, float]]) -> None:
    mine, table = _ids(hole), _ids(board)
    deals = deal(mine, table, ranges, 300, np.random.default_rng(3))
    scores = score_table()
    for t in range(300):
        cards = mine + table + [int(c) for c in deals.runout[t]]
        for (a, b), (share, _hit) in zip(deals.holes, ranges, strict=True):
            cards += [int(a[t]), int(b[t])]
            if len(ranges) == 1:  # alone (no collisions to resolve) a hand fits its range
                assert scores[int(a[t])][int(b[t])] >= range_threshold(share)
        assert len(set(cards)) == len(cards) == 7 + 2 * len(ranges)


def test_a_read_of_a_hit_draws_hands_that_connect() -> None:
    mine, table = _ids("As Kd"), _ids("Qh 7c 2d")
    deals = deal(mine, table, [(0.5, 1.0)], 500, np.random.default_rng(5))
    (a, b), = deals.holes
    assert all(_connects(int(x), int(y), table) for x, y in zip(a, b, strict=True))


def test_equity_against_any_hand_matches_the_library_estimate() -> None:
    # Aces against one unknown hand: about 85.2%; feltro.equity's Monte Carlo says the same.
    estimate = estimate_equity_np(_ids("As Ah"), [], [(1.0, 0.0)], 40_000, random.Random(2))
    reference = monte_carlo_equity(["As Ah", None], trials=40_000, rng=random.Random(2))
    assert estimate == pytest.approx(reference.equity[0], abs=0.008)
    assert 0.845 < estimate < 0.86


@pytest.mark.parametrize(("hole", "board", "ranges"), CASES)
def test_numpy_estimate_agrees_with_the_loop(
        hole: str, board: str, ranges: list[tuple[float, float]]) -> None:
    mine, table = _ids(hole), _ids(board)
    fast = estimate_equity_np(mine, table, ranges, 20_000, random.Random(1))
    slow = estimate_equity(mine, table, ranges, 6_000, random.Random(1))
    assert fast == pytest.approx(slow, abs=0.03)


def test_numpy_estimate_is_reproducible_from_the_rng() -> None:
    mine, table = _ids("9h 8h"), _ids("7h 6c 2h")
    ranges = [(0.08, 0.85), (0.5, 0.0)]
    first = estimate_equity_np(mine, table, ranges, 1000, random.Random(4))
    assert first == estimate_equity_np(mine, table, ranges, 1000, random.Random(4))
    assert first != estimate_equity_np(mine, table, ranges, 1000, random.Random(5))


def test_the_bot_plays_without_numpy(monkeypatch: pytest.MonkeyPatch) -> None:
    hand = Hand.start(HandConfig.standard([200] * 3), Deck.shuffled(random.Random(8)))
    monkeypatch.setattr(montecarlo, "_vector_equity", lambda: None)
    answer = MonteCarloBot(random.Random(1)).act(hand.view(hand.to_act or 0), hand.legal)
    assert answer in hand.legal
