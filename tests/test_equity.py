"""Exact and Monte Carlo equity: the known AA vs KK counts, brute-force checks, convergence."""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from itertools import combinations

import pytest

import feltro
from feltro.cards import parse_cards
from feltro.equity import EquityResult, exact_equity, monte_carlo_equity
from feltro.errors import CardError


def brute_force(holes: list[str], board: str) -> EquityResult:
    """Win/tie/loss counts by enumerating boards with the validated single-call evaluator."""
    hands = [parse_cards(h) for h in holes]
    table = parse_cards(board)
    used = {c for h in hands for c in h} | set(table)
    rest = [c for c in range(52) if c not in used]
    players = len(hands)
    wins, ties, shares = [0] * players, [0] * players, [0.0] * players
    boards = 0
    for extra in combinations(rest, 5 - len(table)):
        values = [feltro.evaluate([*h, *table, *extra]) for h in hands]
        best = max(values)
        winners = [p for p, v in enumerate(values) if v == best]
        for p in winners:
            if len(winners) == 1:
                wins[p] += 1
            else:
                ties[p] += 1
            shares[p] += 1 / len(winners)
        boards += 1
    losses = [boards - w - t for w, t in zip(wins, ties, strict=True)]
    return EquityResult(tuple(wins), tuple(ties), tuple(losses),
                        tuple(s / boards for s in shares), boards)


def assert_same_counts(result: EquityResult, expected: EquityResult) -> None:
    assert result.boards == expected.boards
    assert result.wins == expected.wins
    assert result.ties == expected.ties
    assert result.losses == expected.losses
    assert result.equity == pytest.approx(expected.equity, abs=1e-12)


def test_aces_against_kings_preflop_exact() -> None:
    result = exact_equity(["As Ah", "Ks Kh"])
    assert result.boards == 1_712_304
    assert result.wins[0] == 1_410_336
    assert result.ties[0] == 9_308
    assert result.losses[0] == 292_660
    # the other side of the same boards
    assert result.wins[1] == 292_660
    assert result.ties[1] == 9_308
    assert result.losses[1] == 1_410_336
    assert result.equity[0] == pytest.approx((1_410_336 + 9_308 / 2) / 1_712_304)
    assert sum(result.equity) == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("holes", "board"),
    [
        (["As Kd", "Qh Qc"], "2c 7d Jh"),  # a flop: 990 boards
        (["As Kd", "Qh Qc"], "2c 7d Jh 5s"),  # a turn: 44 boards
        (["As Kd", "Qh Qc", "7c 8c"], "2c 7d Jh"),  # three players
        (["2c 3d", "4h 5s"], "Ac Kd Qh Js"),  # the board's straight: mostly ties
        (["9c 8c", "Ah Kh", "Td Tc", "2s 2h"], "Jc Qc 3h"),  # four players, draws
        (["As Ks", "Ad Kd"], "Qs Js 2d 3h 9c"),  # a full board: one deal
    ],
)
def test_exact_equity_matches_brute_force(holes: list[str], board: str) -> None:
    result = exact_equity(holes, board=board)
    assert_same_counts(result, brute_force(holes, board))
    for p in range(len(holes)):
        assert result.wins[p] + result.ties[p] + result.losses[p] == result.boards
    assert sum(result.equity) == pytest.approx(1.0)


def test_exact_equity_without_numpy_gives_the_same_counts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    holes, board = ["As Kd", "Qh Qc", "7c 8c"], "2c 7d Jh"
    with_numpy = exact_equity(holes, board=board)
    monkeypatch.setitem(sys.modules, "numpy", None)  # `import numpy` now fails
    without = exact_equity(holes, board=board)
    assert_same_counts(without, with_numpy)


def test_exact_equity_accepts_card_forms() -> None:
    a = exact_equity(["As Kd", "Qh Qc"], board="2c 7d Jh 5s")
    b = exact_equity([parse_cards("A♠ K♦"), [42, 40]], board=[0, 21, 38, 15])
    assert_same_counts(b, a)


# --- Monte Carlo ---------------------------------------------------------------------------


def test_monte_carlo_converges_to_exact_three_players() -> None:
    holes = ["As Ah", "Ks Kd", "7c 8c"]
    exact = exact_equity(holes)
    trials = 40_000
    estimate = monte_carlo_equity(holes, trials=trials, rng=random.Random(1))
    assert estimate.boards == trials
    # standard error of an equity share is at most 0.5 / sqrt(trials) = 0.0025; allow 5 of them
    for p in range(3):
        assert estimate.equity[p] == pytest.approx(exact.equity[p], abs=0.0125)
        assert estimate.wins[p] / trials == pytest.approx(exact.wins[p] / exact.boards,
                                                          abs=0.0125)
        assert estimate.wins[p] + estimate.ties[p] + estimate.losses[p] == trials


def test_monte_carlo_on_a_flop_converges_to_exact() -> None:
    holes = ["9c 8c", "Ah Kh", "Td Tc", "2s 2h"]
    exact = exact_equity(holes, board="Jc Qc 3h")
    estimate = monte_carlo_equity(holes, board="Jc Qc 3h", trials=40_000, rng=random.Random(2))
    for p in range(4):
        assert estimate.equity[p] == pytest.approx(exact.equity[p], abs=0.0125)


def test_monte_carlo_with_an_unknown_hand() -> None:
    # Aces against a random hand win about 85.2% (a well-known figure: 85.20%).
    estimate = monte_carlo_equity(["As Ah", None], trials=40_000, rng=random.Random(3))
    assert estimate.equity[0] == pytest.approx(0.852, abs=0.0125)


def test_monte_carlo_is_reproducible_from_its_rng() -> None:
    holes = ["As Ah", "Ks Kd", "7c 8c"]
    first = monte_carlo_equity(holes, trials=2_000, rng=random.Random(9))
    again = monte_carlo_equity(holes, trials=2_000, rng=random.Random(9))
    other = monte_carlo_equity(holes, trials=2_000, rng=random.Random(10))
    assert first == again
    assert first != other


def test_monte_carlo_never_uses_the_global_rng(global_random_forbidden: None) -> None:
    result = monte_carlo_equity(["As Ah", "Ks Kd"], trials=1_000, rng=random.Random(4))
    assert result.boards == 1_000


# --- bad input -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("holes", "board", "offending"),
    [
        (["As Ah", "As Kd"], "", "twice"),
        (["As Ah", "Ks Kd"], "As 2c 3d", "twice"),
        (["As Ah", "Ks"], "", "two"),
        (["As Ah Ad", "Ks Kd"], "", "two"),
        (["As Ah"], "", "two hands"),
        (["As Ah", "Ks Kd"], "2c 3d", "got 2"),
        (["As Ah", "Ks Kd"], "2c", "got 1"),
        (["As Ah", "Ks Kd"], "2c 3d 4h 5s 6c 7d", "got 6"),
        (["As Ah", "Ks 1x"], "", "1x"),
    ],
)
def test_bad_input_is_a_card_error(holes: list[str], board: str, offending: str) -> None:
    calls: list[Callable[[], EquityResult]] = [
        lambda: exact_equity(holes, board=board),
        lambda: monte_carlo_equity(holes, board=board, trials=10, rng=random.Random(0)),
    ]
    for call in calls:
        with pytest.raises(ValueError, match=offending) as info:
            call()
        assert isinstance(info.value, feltro.FeltroError)


def test_exact_equity_needs_known_hands() -> None:
    with pytest.raises(CardError):
        exact_equity(["As Ah", None])  # type: ignore[list-item]


def test_monte_carlo_needs_positive_trials() -> None:
    with pytest.raises(ValueError, match="trials"):
        monte_carlo_equity(["As Ah", "Ks Kd"], trials=0, rng=random.Random(0))
