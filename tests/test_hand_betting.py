"""Forced bets, dealing and betting rules of one hand (D3-D6, D10, B1-B9, B11)."""


from __future__ import annotations

import pytest

from feltro.actions import Call, Check, Fold, Raise
from feltro.cards import Card, Deck, parse_cards
from feltro.errors import ConfigError, HandNotOverError, IllegalActionError
from feltro.events import (
    ActionTaken,
    AntePosted,
    BlindPosted,
    BoardDealt,
    CardsShown,
    HoleCardDealt,
    Street,
    UncalledReturned,
)
from feltro.hand import Hand, HandConfig
from playkit import play

# A deck in id order: card k of the deck is Card(k), so deal positions are easy to check.
ORDERED = Deck.standard()


def start(stacks: list[int], **kwargs: int) -> Hand:
    return Hand.start(HandConfig.standard(stacks, **kwargs), ORDERED)


def refused(hand: Hand, action: str | Raise | Check | Call | Fold, rule: str,
            position: int | None = None) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as info:
        hand.apply(action, position)
    assert info.value.rule == rule, str(info.value)
    assert str(info.value).startswith(f"{rule}: ")
    return info.value


# ---------------------------------------------------------------- D3, D4, D5: posting, dealing


def test_small_and_big_blind_are_left_of_the_button__D3() -> None:
    hand = start([200, 200, 200, 200])
    assert hand.bets == (1, 2, 0, 0)
    assert hand.stacks == (199, 198, 200, 200)
    assert [e for e in hand.events if isinstance(e, BlindPosted)] == [
        BlindPosted(0, 1), BlindPosted(1, 2)]


def test_blinds_count_as_bets_in_the_first_round__D3() -> None:
    hand = start([200, 200, 200])
    play(hand, "c", "c")  # button calls 2, small blind completes with 1 more
    assert hand.bets == (2, 2, 2)
    assert hand.legal.can_check  # the big blind owes nothing: its blind was a bet


def test_hole_cards_one_at_a_time_from_the_buttons_left__D4() -> None:
    hand = start([200] * 4)
    deck = ORDERED.cards
    for p in range(4):
        assert hand.hole(p) == (deck[p], deck[4 + p])
    dealt = [e for e in hand.events if isinstance(e, HoleCardDealt)]
    assert [e.position for e in dealt] == [0, 1, 2, 3, 0, 1, 2, 3]
    assert [e.card for e in dealt] == list(deck[:8])


def test_one_burn_before_each_community_deal__D5() -> None:
    n = 3
    hand = start([200] * n)
    play(hand, "c", "c", "x")
    deck = ORDERED.cards
    base = 2 * n
    assert hand.board == deck[base + 1:base + 4]  # burn deck[base], flop
    play(hand, "x", "x", "x")
    assert hand.board[3] == deck[base + 5]  # burn deck[base + 4], turn
    play(hand, "x", "x", "x")
    assert hand.board[4] == deck[base + 7]  # burn deck[base + 6], river
    burns = {deck[base], deck[base + 4], deck[base + 6]}
    assert set(hand.burned) == burns
    for position in range(n):
        seen = {c for e in hand.view(position).events for c in _cards_of(e)}
        assert not seen & burns


def _cards_of(event: object) -> tuple[Card, ...]:
    if isinstance(event, HoleCardDealt):
        return () if event.card is None else (event.card,)
    if isinstance(event, BoardDealt | CardsShown):
        return event.cards
    return ()


def test_deal_order_matches_deck_for_deal__D4() -> None:
    deck = Deck.for_deal(["AsKs", "QdQh", "7c2d"], "Td8s3c Jh 2s")
    hand = Hand.start(HandConfig.standard([200] * 3), deck)
    assert hand.hole(1) == parse_cards("QdQh")
    play(hand, "c", "c", "x", "x", "x", "x", "x", "x", "x", "x", "x", "x")
    assert hand.board == parse_cards("Td8s3c Jh 2s")


# ---------------------------------------------------------------- D6: heads-up


def test_heads_up_button_posts_small_blind_and_acts_first_preflop__D6() -> None:
    hand = start([200, 200])
    assert hand.config.blinds == (2, 1)
    assert hand.bets == (2, 1)  # position 1 is the button
    assert hand.to_act == 1


def test_heads_up_button_is_dealt_last__D6() -> None:
    hand = start([200, 200])
    dealt = [e.position for e in hand.events if isinstance(e, HoleCardDealt)]
    assert dealt == [0, 1, 0, 1]


def test_heads_up_button_acts_last_after_the_flop__D6() -> None:
    hand = start([200, 200])
    play(hand, "c", "x")
    assert hand.street is Street.FLOP
    assert hand.to_act == 0
    play(hand, "x")
    assert hand.to_act == 1


def test_positions_do_not_change_when_two_remain__D6() -> None:
    # The hand starts three-handed; the button folds; the small blind still acts first.
    hand = start([200, 200, 200])
    play(hand, "f", "c", "x")
    assert hand.street is Street.FLOP
    assert hand.to_act == 0


# ---------------------------------------------------------------- D10: short blinds


def test_short_big_blind_posts_all_and_others_face_the_full_big_blind__D10() -> None:
    hand = start([200, 1, 200])
    assert hand.bets == (1, 1, 0)
    assert hand.all_in == (False, True, False)
    legal = hand.legal
    assert legal.position == 2
    assert legal.call_amount == 2
    assert legal.min_raise_to == 4  # the big blind counts as a full bet of 2


def test_small_blind_facing_short_big_blind_still_owes_the_difference_to_two__D10() -> None:
    # While another player could still bet, the small blind faces the full big blind (D10).
    hand = start([200, 1, 200])
    play(hand, "c")
    assert hand.to_act == 0
    assert hand.legal.call_amount == 1
    play(hand, "c")
    assert hand.street is Street.FLOP
    assert hand.committed == (2, 1, 2)


def test_small_blind_alone_with_a_short_big_blind_has_no_decision__B5_D10() -> None:
    # The button folds: the small blind is the only player left with chips, and the short big
    # blind put in no more than it (1): nobody is asked to act (B5), not even to complete to
    # the full big blind (D10 does not make it owe that).
    hand = start([200, 1, 200])
    play(hand, "f")
    assert hand.to_act is None
    assert hand.is_over
    assert hand.result().pots[0].amount == 2


def test_short_small_blind_is_all_in__D10() -> None:
    hand = start([1, 200, 200])
    assert hand.bets == (1, 2, 0)
    assert hand.all_in[0]
    play(hand, "c", "x")  # the button calls; the big blind checks
    assert hand.street is Street.FLOP
    assert hand.to_act == 1  # the all-in small blind has no decision


def test_heads_up_short_big_blind_leaves_the_button_no_decision__B5_D10() -> None:
    hand = start([1, 200])  # position 0 is the big blind with one chip, as much as the button's
    assert hand.to_act is None
    assert hand.is_over
    assert sum(hand.result().stacks) == 201
    assert hand.result().pots[0].amount == 2


def test_blind_amount_above_stack_is_all_in_blind__D10() -> None:
    hand = Hand.start(HandConfig(stacks=(3, 5, 9), blinds=(5, 10, 0), big_blind=10), ORDERED)
    assert hand.bets == (3, 5, 0)
    assert hand.legal.call_amount == 9  # faces 10, has 9: a call for less (B7)


# ---------------------------------------------------------------- B1, B2: rounds and order


def test_four_betting_rounds_then_showdown__B1() -> None:
    hand = start([200, 200, 200])
    seen = [hand.street]
    for actions in (["c", "c", "x"], ["x"] * 3, ["x"] * 3, ["x"] * 3):
        play(hand, *actions)
        seen.append(hand.street)
    assert seen == [Street.PREFLOP, Street.FLOP, Street.TURN, Street.RIVER, Street.SHOWDOWN]
    assert hand.is_over


def test_preflop_first_is_after_the_big_blind__B2() -> None:
    assert start([200] * 6).to_act == 2
    assert start([200] * 3).to_act == 2  # three-handed: the button


def test_after_the_flop_first_active_left_of_button_skipping_folded_and_all_in__B2() -> None:
    hand = start([200, 10, 200, 200])
    # 2 calls, 3 calls, 0 folds, 1 (big blind) goes all-in for 10, 2 and 3 call.
    play(hand, "c", "c", "f", "r 10", "c", "c")
    assert hand.street is Street.FLOP
    assert hand.to_act == 2  # 0 folded, 1 is all-in


def test_dead_small_blind_first_preflop_after_the_big_blind__B2() -> None:
    hand = Hand.start(HandConfig(stacks=(200,) * 4, blinds=(2, 0, 0, 0), big_blind=2),
                      ORDERED)
    assert hand.to_act == 1
    play(hand, "c", "c", "c", "x")
    assert hand.to_act == 0  # postflop: first left of the button


def test_wrong_position_is_refused_and_names_the_turn__B2() -> None:
    hand = start([200, 200, 200])
    error = refused(hand, "c", "B2", position=0)
    assert "p3" in str(error)
    assert "p1" in str(error)


def test_unknown_position_is_refused() -> None:
    hand = start([200, 200, 200])
    with pytest.raises(IllegalActionError) as info:
        hand.apply("c", 7)
    assert "no position 7" in str(info.value)


# ---------------------------------------------------------------- B3: fold, check, call, raise


def test_check_facing_a_bet_is_refused__B3() -> None:
    hand = start([200, 200, 200])
    error = refused(hand, "x", "B3")
    assert "call 2" in str(error)
    assert "check" in hand.legal.refusals
    assert hand.legal.refusals["check"].startswith("B3: ")


def test_fold_is_allowed_even_when_checking_is_free__B3() -> None:
    hand = start([200, 200, 200])
    play(hand, "c", "c")
    assert hand.legal.can_check
    assert hand.legal.can_fold
    assert Fold() in hand.legal
    play(hand, "f")  # the big blind folds although it could check (seed 002)
    assert hand.folded == (False, True, False)
    assert hand.street is Street.FLOP


def test_call_matches_the_current_bet__B3() -> None:
    hand = start([200, 200, 200])
    play(hand, "r 7")
    events = hand.apply("c")
    assert events[0] == ActionTaken(0, Call(), Street.PREFLOP, 6, False)
    assert hand.bets == (7, 2, 7)


def test_call_with_nothing_owed_is_recorded_as_check__B3() -> None:
    hand = start([200, 200, 200])
    play(hand, "c", "c")
    events = hand.apply(Call())
    assert events[0].action == Check()  # type: ignore[attr-defined]


# ---------------------------------------------------------------- B4: option and check-raise


def test_big_blind_may_raise_after_calls__B4() -> None:
    hand = start([200, 200, 200])
    play(hand, "c", "c")
    assert hand.to_act == 1
    assert hand.legal.min_raise_to == 4
    play(hand, "r 8")
    assert hand.to_act == 2  # the others act again
    assert hand.street is Street.PREFLOP


def test_check_raise_is_allowed__B4() -> None:
    hand = start([200, 200, 200])
    play(hand, "c", "c", "x", "x", "r 6", "c")
    assert hand.last_aggressor == 1
    assert hand.to_act == 0
    assert hand.legal.min_raise_to == 12
    play(hand, "r 12")
    assert hand.bets == (12, 6, 6)


# ---------------------------------------------------------------- B5: end of a round


def test_round_ends_when_all_have_acted_and_matched__B5() -> None:
    hand = start([200, 200, 200])
    play(hand, "r 6", "c")
    assert hand.street is Street.PREFLOP
    play(hand, "c")
    assert hand.street is Street.FLOP


def test_everyone_checks_ends_the_round__B5() -> None:
    hand = start([200, 200, 200])
    play(hand, "c", "c", "x", "x", "x")
    assert hand.street is Street.FLOP
    play(hand, "x")
    assert hand.street is Street.TURN


def test_last_player_standing_wins_at_once_without_showing__B5() -> None:
    hand = start([200, 200, 200])
    play(hand, "r 6", "f", "f")
    assert hand.is_over
    assert not any(isinstance(e, CardsShown) for e in hand.events)
    assert hand.board == ()
    result = hand.result()
    assert result.stacks == (199, 198, 203)
    assert result.returned == (0, 0, 4)  # raise to 6, matched only up to the big blind's 2


def test_no_action_after_the_hand_is_over__B5() -> None:
    hand = start([200, 200, 200])
    play(hand, "f", "f")
    assert hand.to_act is None
    assert not hand.legal
    refused(hand, "c", "B5")


def test_result_before_the_end_raises() -> None:
    hand = start([200, 200])
    with pytest.raises(HandNotOverError):
        hand.result()


# ---------------------------------------------------------------- B6: minimum bet and raise


def test_minimum_opening_bet_is_the_big_blind__B6() -> None:
    hand = start([200, 200, 200])
    play(hand, "c", "c", "x")
    assert hand.legal.min_raise_to == 2
    refused(hand, "r 1", "B6")
    play(hand, "r 2")
    assert hand.bets == (2, 0, 0)


def test_raise_adds_at_least_the_last_full_increment__B6() -> None:
    hand = start([500, 500, 500])
    play(hand, "c", "c", "x", "r 10")  # flop: bet 10
    assert hand.legal.min_raise_to == 20
    play(hand, "r 30")  # a raise of 20
    assert hand.legal.min_raise_to == 50
    error = refused(hand, "r 45", "B6")
    assert "below the minimum raise to 50" in str(error)
    play(hand, "r 50")


def test_preflop_big_blind_counts_as_a_full_bet__B6() -> None:
    hand = start([200] * 4)
    assert hand.legal.min_raise_to == 4
    error = refused(hand, "r 3", "B6")
    assert "below the minimum raise to 4" in str(error)


def test_raise_above_the_stack_is_refused__B6() -> None:
    hand = start([200, 200, 50])
    error = refused(hand, "r 51", "B6")
    assert "at most 50" in str(error)
    assert hand.legal.max_raise_to == 50


def test_no_cap_on_the_number_of_raises__B6() -> None:
    hand = start([10_000, 10_000])
    to = 2
    for _ in range(20):
        to = hand.legal.min_raise_to or 0
        play(hand, f"r {to}")
    assert hand.current_bet == to == 2 + 2 * 20


def test_custom_minimum_bet__B6() -> None:
    config = HandConfig(stacks=(200, 200, 200), blinds=(1, 2, 0), big_blind=2, min_bet=5)
    hand = Hand.start(config, ORDERED)
    play(hand, "c", "c", "x")
    assert hand.legal.min_raise_to == 5


def test_negative_and_fractional_amounts_are_refused__B6() -> None:
    hand = start([200, 200, 200])
    refused(hand, Raise(-4), "B6")
    refused(hand, Raise(4.5), "B6")  # type: ignore[arg-type]
    refused(hand, Raise(True), "B6")
    assert hand.bets == (1, 2, 0)


# ---------------------------------------------------------------- B7: incomplete raises, calls


def test_incomplete_raise_only_all_in__B7() -> None:
    hand = start([200, 200, 200, 13])
    play(hand, "r 10")  # position 2 raises to 10
    legal = hand.legal
    assert (legal.min_raise_to, legal.max_raise_to) == (13, 13)  # all-in for less
    assert Raise(12) not in legal
    refused(hand, "r 12", "B6")
    play(hand, "r 13")
    assert hand.all_in[3]


def test_call_for_less_keeps_the_hand_alive_for_the_part_covered__B7() -> None:
    deck = Deck.for_deal(["2c3d", "4h5s", "6c7d", "AsAd"], "Ah Kd 9c 2s 8h")
    hand = Hand.start(HandConfig.standard([200, 200, 200, 30]), deck)
    play(hand, "r 100", "c", "c", "c")  # p4 calls all-in for 30
    assert hand.all_in[3]
    assert hand.committed == (100, 100, 100, 30)
    assert hand.to_act == 0  # p1, p2 and p3 play on
    play(hand, *["x"] * 9)
    result = hand.result()
    # p4 (aces) wins only what it covered: 30 from each of four.
    assert result.pots[0].amount == 120
    assert result.pots[0].winners == (3,)
    assert result.pots[1].amount == 210
    assert result.pots[1].eligible == (0, 1, 2)
    assert result.stacks[3] == 120


def test_unmatched_excess_is_returned__B7() -> None:
    hand = start([200, 200, 50])
    play(hand, "r 50", "r 120", "f")
    events = hand.events
    assert UncalledReturned(0, 70) in events  # 120 matched only up to 50
    assert hand.is_over  # nobody could bet any more: run out to the showdown
    assert hand.result().returned == (70, 0, 0)
    assert sum(p.amount for p in hand.result().pots) == 50 + 2 + 50


def test_raise_with_only_a_call_left_is_closed__B7() -> None:
    hand = start([200, 20, 200])
    play(hand, "f", "r 30")  # small blind raises to 30; the big blind has 20 in all
    legal = hand.legal
    assert legal.min_raise_to is None
    assert legal.call_amount == 18
    assert legal.refusals["raise"].startswith("B7: ")


# ---------------------------------------------------------------- B8: short all-ins


def test_short_all_in_does_not_reopen_for_those_who_acted__B8() -> None:
    hand = start([500, 500, 500, 500, 17])
    play(hand, "c", "c", "c", "c", "x")  # preflop limped by all five; p5 has 15 left
    play(hand, "r 10", "c", "c", "c", "r 15")  # p5 all-in for 15: 5 over 10 is short
    legal = hand.legal
    assert legal.position == 0
    assert legal.min_raise_to is None
    assert legal.call_amount == 5
    assert legal.refusals["raise"].startswith("B8: the short all-in to 15 does not reopen")
    error = refused(hand, "r 25", "B8")
    assert "p1" in str(error)


def test_player_yet_to_act_may_raise_after_a_short_all_in__B8() -> None:
    hand = start([500, 500, 500, 17, 500])
    play(hand, "c", "c", "c", "c", "x")  # flop; p4 has 15 left
    play(hand, "r 10", "c", "c", "r 15")  # p4 short all-in to 15; p5 has not acted
    legal = hand.legal
    assert legal.position == 4
    assert legal.min_raise_to == 25  # the increment stays the last full one, 10


def test_short_all_ins_add_up_to_reopen__B8() -> None:
    hand = start([500, 500, 17, 22, 500])
    play(hand, "c", "c", "c", "c", "x")  # preflop limped by all five
    # Flop: p1 bets 10, p2 calls, p3 all-in 15 (short), p4 all-in 20 (short), p5 calls 20.
    play(hand, "r 10", "c", "r 15", "r 20", "c")
    legal = hand.legal
    assert legal.position == 0
    # The raises since p1 bet add up to 10, the last full increment: raising reopens, and
    # the minimum stays one full increment over the current bet.
    assert legal.min_raise_to == 30


def test_player_not_reopened_after_partial_short_all_ins__B8() -> None:
    hand = start([500, 500, 15, 20, 500])
    play(hand, "c", "c", "c", "c", "x")
    play(hand, "r 10", "c", "r 13", "r 18", "c")
    legal = hand.legal
    assert legal.position == 0
    assert legal.min_raise_to is None  # raises since p1 acted: 8 < 10
    assert legal.call_amount == 8


def test_heads_up_short_all_in_reraise_leaves_only_call_or_fold__B8() -> None:
    hand = start([8, 200])  # the big blind (position 0) has 8 in all
    play(hand, "r 6", "r 8")  # button raises to 6 (a full 4); big blind all-in to 8 (short)
    legal = hand.legal
    assert legal.position == 1
    assert legal.min_raise_to is None
    assert legal.call_amount == 2


# ---------------------------------------------------------------- B9: announced totals


def test_raise_is_a_street_total_including_the_blind__B9() -> None:
    hand = start([200, 200, 200])
    play(hand, "c", "f")
    events = hand.apply("r 10")  # the big blind raises to 10: adds 8, not 10
    assert events[0] == ActionTaken(1, Raise(10), Street.PREFLOP, 8, False)
    assert hand.stacks[1] == 190


# ---------------------------------------------------------------- B11: antes


def test_antes_are_posted_before_the_blinds__B11() -> None:
    hand = start([200, 200, 200], ante=1)
    kinds = [type(e) for e in hand.events[:5]]
    assert kinds == [AntePosted] * 3 + [BlindPosted] * 2
    assert hand.pot == 3 + 1 + 2
    assert hand.stacks == (198, 197, 199)


def test_ante_all_in_player_contests_only_what_it_covered__B11() -> None:
    deck = Deck.for_deal(["AsAd", "2c3d", "4h5s"], "Ah Kd 9c 7s 8h")
    hand = Hand.start(HandConfig.standard([1, 200, 200], ante=1), deck)
    assert hand.all_in[0]
    assert hand.bets[0] == 0
    play(hand, "c", "x", "x", "x", "x", "x", "x", "x")
    result = hand.result()
    assert result.pots[0].amount == 3
    assert result.pots[0].winners == (0,)
    assert result.stacks[0] == 3
    assert sum(result.stacks) == 401


def test_big_blind_ante_is_dead_money_in_the_main_pot__B11() -> None:
    # PHH's big-blind ante (ante_trimming_status = false): dead money, not a contribution.
    config = HandConfig(stacks=(200, 200, 200), blinds=(1, 2, 0), big_blind=2,
                        antes=(0, 3, 0), ante_trimming=False)
    hand = Hand.start(config, Deck.for_deal(["AsAd", "2c3d", "4h5s"], "Ah Kd 9c 7s 8h"))
    play(hand, "f", "c", "x", "x", "x", "x", "x", "x", "x")
    result = hand.result()
    assert len(result.pots) == 1
    assert result.pots[0].amount == 7
    assert result.stacks == (205, 195, 200)


def test_trimmed_antes_are_contributions_and_the_unmatched_one_returns__B11() -> None:
    config = HandConfig(stacks=(200, 200, 200), blinds=(1, 2, 0), big_blind=2,
                        antes=(0, 3, 0), ante_trimming=True)
    hand = Hand.start(config, ORDERED)
    assert UncalledReturned(1, 3) in hand.events
    assert hand.stacks == (199, 198, 200)


# ---------------------------------------------------------------- configuration


@pytest.mark.parametrize(
    "kwargs",
    [
        {"stacks": (200,), "blinds": (1,), "big_blind": 2},
        {"stacks": (200,) * 11, "blinds": (1, 2) + (0,) * 9, "big_blind": 2},
        {"stacks": (200, 0, 200), "blinds": (1, 2, 0), "big_blind": 2},
        {"stacks": (200, 200), "blinds": (1, 2, 0), "big_blind": 2},
        {"stacks": (200, 200), "blinds": (2, 1), "big_blind": 0},
        {"stacks": (200, 200), "blinds": (2, -1), "big_blind": 2},
        {"stacks": (200, 2.5), "blinds": (2, 1), "big_blind": 2},
        {"stacks": (200, 200), "blinds": (2, 1), "big_blind": 2, "antes": (1,)},
        {"stacks": (200, 200), "blinds": (2, 1), "big_blind": 2, "structure": "spread"},
        {"stacks": (200, 200), "blinds": (2, 1), "big_blind": 2, "min_bet": 0},
    ],
)
def test_impossible_configurations_are_refused__G1(kwargs: dict[str, object]) -> None:
    with pytest.raises(ConfigError):
        HandConfig(**kwargs)  # type: ignore[arg-type]


def test_standard_config_is_heads_up_aware__D6() -> None:
    assert HandConfig.standard([5, 5]).blinds == (2, 1)
    assert HandConfig.standard([5] * 5).blinds == (1, 2, 0, 0, 0)
    assert HandConfig.standard([5] * 3, ante=1).antes == (1, 1, 1)


def test_refusals_as_data_match_the_sentences__B3_B8() -> None:
    # X3 in miniature: bet 10, call 10, all-in 15; the first bettor may only call or fold.
    config = HandConfig.standard([200, 200, 15, 200])
    hand = Hand.start(config, Deck.for_deal(["AsAh", "KsKh", "QsQh", "JsJh"], "2c 7d 9h 3s 4d"))
    play(hand, "c", "c", "c", "x")  # preflop limped round to the flop
    play(hand, "r 10", "c", "r 13")  # p1 bets 10, p2 calls, p3 all-in for 13 more (short)
    play(hand, "c")  # p4 calls 13
    legal = hand.legal
    assert legal.position == 0
    details = legal.refusal_details
    assert details["raise"].rule == "B8"
    assert details["raise"].reason == "not-reopened"
    assert details["raise"].params == {"current_bet": 13, "raised_since": 3,
                                       "full_increment": 10}
    assert details["check"].params == {"owed": 3}
    assert set(details) == set(legal.refusals)
    for kind, text in legal.refusals.items():
        assert text == f"{details[kind].rule}: {legal.refusal_message(kind)}"
