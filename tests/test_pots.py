"""Side pots by contribution level (P1), splitting with odd chips (P7), uncalled bets (B7)."""


from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from feltro.pots import Pot, build_pots, split_pot, uncalled


def test_single_level_is_one_pot_for_everyone_in__P1() -> None:
    assert build_pots([10, 10, 10], [False, False, False]) == [Pot(30, (0, 1, 2))]


def test_all_in_player_contests_only_levels_covered__P1() -> None:
    # X2 after the return: A 20, B 50, C 50.
    assert build_pots([20, 50, 50], [False] * 3) == [Pot(60, (0, 1, 2)), Pot(60, (1, 2))]


def test_folded_chips_stay_in_the_pots_but_cannot_win__P1() -> None:
    # The folder's 30 is spread over the levels it reached; it is eligible for none. Its
    # level (30) does not start a pot: p2 and p3 contest everything above 20 (70 chips).
    pots = build_pots([20, 30, 50, 50], [False, True, False, False])
    assert pots == [Pot(80, (0, 2, 3)), Pot(70, (2, 3))]
    assert sum(p.amount for p in pots) == 150


def test_x4_levels_with_the_same_contenders_are_one_pot__X4_P1() -> None:
    # Seed 004: A 50, B 250, C 350, D 800, E 800 all-in or calling, F folds after 500. The
    # levels are 300 / 1000 / 400 / 450 / 600; the last two are contested by D and E alone, so
    # they are one pot of 1050.
    pots = build_pots([50, 250, 350, 800, 800, 500], [False] * 5 + [True])
    assert [p.amount for p in pots] == [300, 1000, 400, 1050]
    assert [p.eligible for p in pots] == [(0, 1, 2, 3, 4), (1, 2, 3, 4), (2, 3, 4), (3, 4)]


def test_folded_levels_do_not_start_pots_without_an_all_in__P1() -> None:
    # Issue example: blinds 1 and 2, p3 raises to 5, p4 re-raises to 8, p5 calls; the blinds
    # and p3 fold. Levels 1 / 2 / 5 / 8 (5, 4, 9, 6 chips) all have p4 and p5 as the only
    # contenders: one pot of 24, which a tie splits 12 / 12 (an engine that kept the levels
    # apart would give p4 every odd chip: 13 / 11).
    pots = build_pots([1, 2, 5, 8, 8], [True, True, True, False, False])
    assert pots == [Pot(24, (3, 4))]


def test_all_in_pots_merge_levels_a_folded_player_made__P1() -> None:
    # p0 all-in 10, p1 folds after 15, p2 all-in 30, p3 folds after 35, p4 and p5 in for 60.
    # Levels 10 / 15 / 30 / 35 / 60 make three pots, not five: the contenders change at 10
    # and at 30 only (the folded levels 15 and 35 add their chips to the pot they fall in).
    pots = build_pots([10, 15, 30, 35, 60, 60], [False, True, False, True, False, False])
    assert pots == [Pot(60, (0, 2, 4, 5)), Pot(85, (2, 4, 5)), Pot(65, (4, 5))]


def test_folded_chips_above_every_live_level_join_the_top_pot__P1() -> None:
    assert build_pots([5, 9], [False, True]) == [Pot(14, (0,))]


def test_dead_money_goes_to_the_main_pot__B11() -> None:
    assert build_pots([2, 2, 0], [False, False, True], dead=3) == [Pot(7, (0, 1))]


def test_player_all_in_by_the_ante_alone_contests_only_the_dead_money__B11() -> None:
    pots = build_pots([0, 10, 10], [False, False, False], dead=3)
    assert pots == [Pot(3, (0, 1, 2)), Pot(20, (1, 2))]


def test_build_pots_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match="folded flags"):
        build_pots([1, 2], [False])
    with pytest.raises(ValueError, match="not folded"):
        build_pots([1, 2], [True, True])


def test_even_split__P7() -> None:
    assert split_pot(100, [0, 3]) == (50, 50)


def test_odd_chip_goes_to_first_winner_left_of_button__P7() -> None:
    assert split_pot(101, [1, 4]) == (51, 50)


def test_several_odd_chips_go_one_each_clockwise__P7() -> None:
    assert split_pot(11, [0, 2, 5, 7]) == (3, 3, 3, 2)


def test_x5_split_in_chips_of_ten__P7() -> None:
    # A B C D E clockwise, A on the button: C is the first winner left of the button.
    assert split_pot(1000, ["C", "D", "E"], chip=10) == (340, 330, 330)  # type: ignore[list-item]


def test_split_rejects_no_winners_and_bad_chip() -> None:
    with pytest.raises(ValueError, match="winner"):
        split_pot(10, [])
    with pytest.raises(ValueError, match="chip"):
        split_pot(10, [0], chip=0)


def test_uncalled_excess_goes_back_to_the_top_bettor__B7() -> None:
    assert uncalled([20, 50, 80]) == (2, 30)  # X2: C's 30
    assert uncalled([10, 10, 0]) is None
    assert uncalled([0, 0]) is None
    assert uncalled([0, 7]) == (1, 7)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 500), st.booleans()), min_size=2, max_size=10),
       st.integers(0, 50))
def test_pots_add_up_to_contributions_and_only_live_players_are_eligible__P1(
    players: list[tuple[int, bool]], dead: int
) -> None:
    contributions = [c for c, _ in players]
    folded = [f for _, f in players]
    if all(folded):
        folded[0] = False
    pots = build_pots(contributions, folded, dead)
    assert sum(p.amount for p in pots) == sum(contributions) + dead
    for pot in pots:
        assert pot.amount > 0
        assert pot.eligible
        assert all(not folded[i] for i in pot.eligible)
    # Eligibility only narrows from the main pot outward, and each pot has its own
    # contenders: a new pot starts only where they change (P1).
    for inner, outer in itertools.pairwise(pots):
        assert set(outer.eligible) < set(inner.eligible)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 10))
def test_split_shares_add_up_and_differ_by_at_most_one_chip__P7(amount: int, k: int) -> None:
    shares = split_pot(amount, list(range(k)))
    assert sum(shares) == amount
    assert max(shares) - min(shares) <= 1
    assert list(shares) == sorted(shares, reverse=True)
