"""Pots, showdown, mucking, views and dealing by hand (P1-P8, D11)."""


from __future__ import annotations

import pytest

from feltro.cards import Deck, parse_cards
from feltro.errors import CardError, IllegalActionError
from feltro.events import (
    ActionTaken,
    BoardDealt,
    CardsMucked,
    CardsShown,
    HandEnded,
    HoleCardDealt,
    Street,
)
from feltro.hand import Hand, HandConfig
from playkit import play, refused_by


def dealt(holes: list[str], board: str, stacks: list[int] | None = None, **kwargs: object
          ) -> Hand:
    config = HandConfig.standard(stacks or [200] * len(holes))
    return Hand.start(config, Deck.for_deal(holes, board), **kwargs)  # type: ignore[arg-type]


def shows(hand: Hand) -> list[int]:
    return [e.position for e in hand.events if isinstance(e, CardsShown)]


def mucks(hand: Hand) -> list[int]:
    return [e.position for e in hand.events if isinstance(e, CardsMucked)]


CHECK_DOWN_3 = ["c", "c", "x"] + ["x"] * 9  # three players limp and check to the river


# ---------------------------------------------------------------- P1: pots by level


def test_each_pot_goes_to_the_best_hand_eligible_for_it__P1() -> None:
    # p1 all-in for 50 with the best hand; p2 beats p3 for the side pot.
    hand = dealt(["AsAd", "KsKd", "QsQd"], "2c 7h 9d Jc 3h", [50, 200, 200])
    play(hand, "r 100", "c", "c")  # p3 raises, p1 calls all-in for 50, p2 calls
    play(hand, *["x"] * 6)
    result = hand.result()
    assert [(p.amount, p.eligible, p.winners) for p in result.pots] == [
        (150, (0, 1, 2), (0,)), (100, (1, 2), (1,))]
    assert result.stacks == (150, 200, 100)


def test_folded_chips_play_in_the_pots__P1() -> None:
    # p4 calls 100 preflop, then folds two pair on the flop: its chips stay, it cannot win.
    # Its level (100) starts no pot: p2 and p3 contest everything above 50 (P1).
    hand = dealt(["AsAd", "KsKd", "QsQd", "7c2d"], "2c 7h 9d Jc 3h", [50, 200, 200, 200])
    play(hand, "r 100", "c", "c", "c")  # p3 raises, p4 calls, p1 all-in for 50, p2 calls
    play(hand, "r 50", "c", "f")  # flop: p2 bets, p3 calls, p4 folds
    play(hand, *["x"] * 4)
    result = hand.result()
    assert [(p.amount, p.eligible, p.winners) for p in result.pots] == [
        (200, (0, 1, 2), (0,)), (250, (1, 2), (1,))]
    assert result.stacks == (200, 300, 50, 100)


# ---------------------------------------------------------------- P2: run-out when nobody can bet


def test_all_in_hands_are_shown_before_the_board_is_completed__P2() -> None:
    hand = dealt(["AsAd", "KsKd"], "2c 7h 9d Jc 3h", [100, 100])
    play(hand, "r 100", "c")
    kinds = [type(e) for e in hand.events]
    first_board = kinds.index(BoardDealt)
    assert kinds[first_board - 2:first_board] == [CardsShown, CardsShown]
    assert kinds.count(BoardDealt) == 3  # flop, turn, river: completed with the usual burns
    assert hand.is_over
    assert hand.result().stacks == (200, 0)


def test_folded_hand_never_wins__P2() -> None:
    # p3 holds four aces but folds preflop: the pot goes to the best hand still in.
    hand = dealt(["7c2d", "8h3s", "AsAd"], "Ah Ac 9d Jc 3h")
    play(hand, "f", "c", "x", *["x"] * 6)
    result = hand.result()
    assert result.winners == (1,)  # p2's A A J 9 8 beats p1's A A J 9 7
    assert 2 not in result.shown


def test_no_betting_rounds_after_everyone_is_all_in__P2() -> None:
    hand = dealt(["AsAd", "KsKd", "QsQd"], "2c 7h 9d Jc 3h", [30, 60, 200])
    play(hand, "r 200", "c", "c")
    assert hand.is_over
    acted = [e.street for e in hand.events if isinstance(e, ActionTaken)]
    assert set(acted) == {Street.PREFLOP}
    assert [e.street for e in hand.events if isinstance(e, BoardDealt)] == [
        Street.FLOP, Street.TURN, Street.RIVER]
    assert sorted(shows(hand)) == [0, 1, 2]


# ---------------------------------------------------------------- P3-P6 at the table


def test_playing_the_board_splits__P3() -> None:
    # X1 at the table: both play the board's ace-high straight.
    hand = dealt(["2h2s", "9d9c"], "Ac Kd Qh Js Tc")
    play(hand, "c", "x", *["x"] * 6)
    result = hand.result()
    assert result.pots[0].winners == (0, 1)
    assert result.stacks == (200, 200)


def test_kicker_decides_within_a_category__P6() -> None:
    # X6 at the table: J-8 beats 9-8 on 6-7-8-Q-K (8 8 K Q J over 8 8 K Q 9).
    hand = dealt(["Js8d", "9c8h"], "6s 7d 8c Qh Kd")
    play(hand, "c", "x", *["x"] * 6)
    assert hand.result().pots[0].winners == (0,)


def test_higher_category_wins__P4() -> None:
    hand = dealt(["Ah7h", "8c8d"], "7c 2h Qh 8s Kh")  # heart flush over trips
    play(hand, "c", "x", *["x"] * 6)
    assert hand.result().pots[0].winners == (0,)


def test_wheel_is_the_lowest_straight__P5() -> None:
    hand = dealt(["As2c", "6h7c"], "3d 4h 5s Kc Kd")  # A-5 loses to 3-7
    play(hand, "c", "x", *["x"] * 6)
    assert hand.result().pots[0].winners == (1,)


# ---------------------------------------------------------------- P7: odd chips


def test_odd_chip_to_first_winner_left_of_button__P7() -> None:
    # Three limpers and a dead ante of 1: a pot of 7 split three ways, the odd chip to p1.
    config = HandConfig(stacks=(200, 200, 200), blinds=(1, 2, 0), big_blind=2,
                        antes=(0, 0, 1), ante_trimming=False)
    hand = Hand.start(config, Deck.for_deal(["2h3d", "2s3c", "2d3h"], "Ac Kd Qh Js Tc"))
    play(hand, *CHECK_DOWN_3)
    pot = hand.result().pots[0]
    assert (pot.amount, pot.winners, pot.shares) == (7, (0, 1, 2), (3, 2, 2))


def test_odd_chips_counted_on_the_pot_a_dealer_forms__P7_P1() -> None:
    # The small blind folds its 1: its level adds a chip to the pot p2 and p3 contest, it
    # does not start a pot (P1). One pot of 5, its odd chip to p2, the first winner left of
    # the button.
    hand = dealt(["7c4s", "2h3d", "2s3c"], "Ac Kd Qh Js Tc")
    play(hand, "c", "f", "x", *["x"] * 6)
    result = hand.result()
    assert [(p.amount, p.winners, p.shares) for p in result.pots] == [(5, (1, 2), (3, 2))]
    assert result.stacks == (199, 201, 200)


def test_tied_players_split_folded_levels_evenly__P1_P7() -> None:
    # Issue example, no all-in: p3 raises to 5, p4 re-raises to 8, p5 calls; the blinds and
    # p3 fold; p4 and p5 play the board. The 24 chips are one pot (the same two contenders
    # at every level): 12 / 12. Pots by level (5 / 4 / 9 / 6) would give p4 13 and p5 11.
    hand = dealt(["6h7d", "8h9d", "2h3d", "2s3c", "4h5d"], "Ac Kd Qh Js Tc")
    play(hand, "r 5", "r 8", "c", "f", "f", "f", *["x"] * 6)
    result = hand.result()
    assert [(p.amount, p.eligible, p.winners, p.shares) for p in result.pots] == [
        (24, (3, 4), (3, 4), (12, 12))]
    assert result.stacks == (199, 198, 195, 204, 204)


def test_heads_up_odd_chip_goes_to_the_big_blind__P7() -> None:
    # Heads-up the button is position 1, so position 0 is the first left of it.
    config = HandConfig(stacks=(200, 200), blinds=(2, 1), big_blind=2, antes=(0, 1),
                        ante_trimming=False)
    hand = Hand.start(config, Deck.for_deal(["2h3d", "2s3c"], "Ac Kd Qh Js Tc"))
    play(hand, "c", "x", *["x"] * 6)
    pot = hand.result().pots[0]
    assert pot.amount == 5
    assert pot.shares == (3, 2)
    assert pot.winners == (0, 1)


# ---------------------------------------------------------------- P8: show order and mucking


def test_last_river_aggressor_shows_first__P8() -> None:
    hand = dealt(["AsAd", "KsKd", "QsQd"], "2c 7h 9d Jc 3h", muck_losers=False)
    play(hand, "c", "c", "x", *["x"] * 6)
    play(hand, "x", "r 10", "c", "c")  # river: p2 bets, p3 and p1 call
    assert shows(hand) == [1, 2, 0]


def test_without_river_bet_first_left_of_button_shows_first__P8() -> None:
    hand = dealt(["7c2d", "KsKd", "QsQd"], "2c 7h 9d Jc 3h", muck_losers=False)
    play(hand, *CHECK_DOWN_3)
    assert shows(hand) == [0, 1, 2]


def test_a_hand_that_cannot_win_is_mucked__P8() -> None:
    # p1 shows kings; p2 (queens) cannot win and mucks; p3 (aces) shows.
    hand = dealt(["KsKd", "QsQd", "AsAd"], "2c 7h 9d Jc 3h")
    play(hand, *CHECK_DOWN_3)
    assert shows(hand) == [0, 2]
    assert mucks(hand) == [1]
    assert hand.result().pots[0].winners == (2,)
    assert 1 not in hand.result().shown


def test_a_position_that_chose_to_show_shows_its_losing_hand__P8_D11() -> None:
    # Same deal: p2 (queens) chose to show even a losing hand; it is shown, still loses.
    hand = dealt(["KsKd", "QsQd", "AsAd"], "2c 7h 9d Jc 3h", show_losers={1})
    play(hand, *CHECK_DOWN_3)
    assert shows(hand) == [0, 1, 2]
    assert mucks(hand) == []
    assert hand.result().pots[0].winners == (2,)
    assert 1 in hand.result().shown


def test_only_the_positions_that_chose_show_their_losing_hands__P8_D11() -> None:
    # p1 (kings) did not choose: it cannot win once aces are shown, and is mucked.
    hand = dealt(["AsAd", "KsKd", "QsQd"], "2c 7h 9d Jc 3h", show_losers={2})
    play(hand, *CHECK_DOWN_3)
    assert shows(hand) == [0, 2]
    assert mucks(hand) == [1]


def test_a_tying_hand_is_shown_not_mucked__P8() -> None:
    hand = dealt(["2h3d", "2s3c", "7c4s"], "Ac Kd Qh Js Tc")
    play(hand, *CHECK_DOWN_3)
    assert shows(hand) == [0, 1, 2]  # everybody plays the board: all can share


def test_a_hand_that_can_win_a_side_pot_is_shown__P8() -> None:
    # p1 (all-in, aces) shows first; p2 cannot beat aces but can win the side pot vs p3.
    hand = dealt(["AsAd", "KsKd", "QsQd"], "2c 7h 9d Jc 3h", [20, 200, 200])
    play(hand, "r 20", "c", "c")  # p3 raises to 20, p1 calls all-in, p2 calls
    play(hand, *["x"] * 4, "r 10", "c")  # river: p2 bets 10, p3 calls
    assert shows(hand)[0] == 1  # the river bettor first
    assert sorted(shows(hand)) == [0, 1]
    assert mucks(hand) == [2]


def test_all_in_showdown_shows_every_live_hand__P8() -> None:
    hand = dealt(["7c2d", "AsAd", "KsKd"], "2c 7h 9d Jc 3h", [100, 100, 100])
    play(hand, "r 100", "c", "c")
    # Tabled together from the first player to go all-in (the button, p3), clockwise.
    assert shows(hand) == [2, 0, 1]
    assert mucks(hand) == []


def test_all_in_hands_are_listed_from_the_first_all_in_clockwise__P8() -> None:
    # Four players, 100 each: p3 limps, p4 (the button) goes all-in first, then p1, p2 and
    # p3 call all-in. Seed 004: p4's hand first, then clockwise (not from the button's left).
    hand = dealt(["7c2d", "AsAd", "KsKd", "QsQd"], "2c 7h 9d Jc 3h", [100] * 4)
    play(hand, "c", "r 100", "c", "c", "c")
    assert shows(hand) == [3, 0, 1, 2]
    assert list(hand.result().shown) == [3, 0, 1, 2]  # the hand log keeps that order
    manual = Hand.start(HandConfig.standard([100] * 4))
    for p, cards in enumerate(["7c2d", "AsAd", "KsKd", "QsQd"]):
        manual.deal_hole(p, cards)
    play(manual, "c", "r 100", "c", "c", "c")
    assert manual.to_show == 3  # a history's settle and the replay follow the same order


def test_all_in_by_the_ante_is_the_first_all_in__P8_B11() -> None:
    # p2 antes its last 3 chips (ante 5): all-in before anybody acts. p3 shoves, p1 calls.
    config = HandConfig(stacks=(200, 3, 200), blinds=(1, 2, 0), big_blind=2, antes=(5, 5, 5))
    hand = Hand.start(config, Deck.for_deal(["7c2d", "AsAd", "KsKd"], "2c 7h 9d Jc 3h"))
    play(hand, "r 195", "c")
    assert shows(hand) == [1, 2, 0]


def test_all_in_by_the_blind_is_the_first_all_in__P8_D10() -> None:
    # p2 posts its last 2 chips as the big blind (D10): the first to go all-in. p3 then
    # shoves and p1 calls all-in: the hands are listed p2, p3, p1.
    hand = dealt(["7c2d", "AsAd", "KsKd"], "2c 7h 9d Jc 3h", [100, 2, 100])
    play(hand, "r 100", "c")
    assert shows(hand) == [1, 2, 0]


def test_everybody_all_in_on_the_river_shows_every_hand__P8() -> None:
    # p1 holds kings, p2 aces; both all-in on the river: the loser shows too.
    hand = dealt(["KsKd", "AsAd"], "2c 7h 9d Jc 3h", [100, 100])
    play(hand, "c", "x", *["x"] * 4, "x", "r 98", "c")  # river: p2 bets all-in, p1 calls
    assert shows(hand) == [1, 0]  # the bettor p2 shows first, then p1
    assert mucks(hand) == []
    manual = dealt(["KsKd", "AsAd"], "2c 7h 9d Jc 3h", [100, 100], auto_showdown=False)
    play(manual, "c", "x", *["x"] * 4, "x", "r 98", "c")
    manual.show(1)
    refused_by("P8", manual.muck, 0)


def test_to_show_names_the_next_in_p8_order__P8() -> None:
    hand = dealt(["7c2d", "KsKd", "QsQd"], "2c 7h 9d Jc 3h", auto_showdown=False)
    play(hand, "c", "c", "x", *["x"] * 6, "x", "r 4", "c", "c")
    assert hand.street is Street.SHOWDOWN
    assert hand.to_show == 1
    hand.show(1)
    assert hand.to_show == 2


# ---------------------------------------------------------------- D11: show both cards to win


def test_mucked_best_hand_cannot_win__D11() -> None:
    hand = dealt(["AsAd", "KsKd"], "2c 7h 9d Jc 3h", auto_showdown=False)
    play(hand, "c", "x", *["x"] * 6)
    hand.show(1)
    hand.muck(0)
    assert hand.is_over
    assert hand.result().pots[0].winners == (1,)


def test_last_hand_standing_after_mucks_wins_without_showing__D11() -> None:
    hand = dealt(["AsAd", "KsKd", "QsQd"], "2c 7h 9d Jc 3h", auto_showdown=False)
    play(hand, *CHECK_DOWN_3)
    hand.muck(0)
    hand.muck(1)
    assert hand.is_over
    assert hand.result().pots[0].winners == (2,)
    assert hand.result().shown == {}


def test_showing_one_card_is_a_muck__P8_D11() -> None:
    # Seed 004: showing one card only is giving the hand up. p1's aces cannot win.
    hand = dealt(["AsAd", "KsKd"], "2c 7h 9d Jc 3h", auto_showdown=False)
    play(hand, "c", "x", *["x"] * 6)
    events = hand.show(0, "As")
    assert isinstance(events[0], CardsMucked)
    assert mucks(hand) == [0]
    assert hand.is_over  # the other hand is the last one standing
    assert hand.result().pots[0].winners == (1,)
    assert 0 not in hand.result().shown


def test_one_card_shown_in_an_all_in_is_a_muck_not_a_refusal__P8_D11() -> None:
    # Every live hand is tabled in an all-in (P2), but a player who shows one card has still
    # mucked (seed 004): the history is accepted and the aces lose to the kings shown.
    hand = Hand.start(HandConfig.standard([100, 100]))
    hand.deal_hole(0, "????")
    hand.deal_hole(1, "KsKd")
    play(hand, "r 100", "c")
    hand.show(0, "As")
    with pytest.raises(CardError):
        hand.deal_board("As2c7h")  # the card shown is known: it cannot come again (D1)
    hand.show(1)
    for board in ("2c7h9d", "Jc", "3h"):
        hand.deal_board(board)
    assert hand.is_over
    assert mucks(hand) == [0]
    assert hand.result().stacks == (0, 200)


def test_showing_one_card_that_was_not_dealt_is_refused__D11() -> None:
    hand = dealt(["AsAd", "KsKd"], "2c 7h 9d Jc 3h", auto_showdown=False)
    play(hand, "c", "x", *["x"] * 6)
    with pytest.raises(CardError):
        hand.show(0, "Qs")
    assert not hand.is_over
    assert mucks(hand) == []


def test_show_refused_before_the_betting_is_over__D11() -> None:
    hand = dealt(["AsAd", "KsKd"], "2c 7h 9d Jc 3h", auto_showdown=False)
    refused_by("P8", hand.show, 0)


def test_show_refused_for_a_folded_hand__D11() -> None:
    hand = dealt(["AsAd", "KsKd", "QsQd"], "2c 7h 9d Jc 3h", auto_showdown=False)
    play(hand, "f", "c", "x", *["x"] * 6)
    with pytest.raises(IllegalActionError):
        hand.show(2)


def test_muck_refused_in_an_all_in_run_out__P2() -> None:
    hand = Hand.start(HandConfig.standard([100, 100]))
    hand.deal_hole(0, "AsAd")
    hand.deal_hole(1, "KsKd")
    play(hand, "r 100", "c")
    refused_by("P2", hand.muck, 0)


# ---------------------------------------------------------------- dealing by hand (replay)


def test_manual_deal_with_shows_before_the_board__P2() -> None:
    hand = Hand.start(HandConfig.standard([100, 100, 100]))
    for p, cards in enumerate(["AsAd", "KsKd", "QsQd"]):
        hand.deal_hole(p, cards)
    play(hand, "r 100", "c", "c")
    assert hand.to_act is None
    assert not hand.is_over
    hand.show(2)  # any order, before the flop
    hand.show(0)
    hand.deal_board("2c7h9d")
    hand.show(1)
    hand.deal_board("Jc")
    assert not hand.is_over
    hand.deal_board("3h")
    assert hand.is_over
    assert hand.result().stacks == (300, 0, 0)


def test_manual_deal_one_card_at_a_time_and_unknown_cards__D4() -> None:
    hand = Hand.start(HandConfig.standard([200, 200]))
    hand.deal_hole(0, "As")
    hand.deal_hole(1, "??")
    refused_by("D4", hand.apply, "c")
    hand.deal_hole(0, "Ad")
    hand.deal_hole(1, [None])
    assert hand.hole(1) == (None, None)
    play(hand, "f")
    assert hand.result().stacks == (201, 199)


def test_unknown_cards_are_named_when_shown__D11() -> None:
    hand = Hand.start(HandConfig.standard([200, 200]))
    hand.deal_hole(0, "AsAd")
    hand.deal_hole(1, None)
    play(hand, "c", "x")
    for board in ("2c7h9d", "Jc", "3h"):
        hand.deal_board(board)
        play(hand, "x", "x")
    with pytest.raises(CardError):
        hand.show(1)  # unknown cards must be named
    with pytest.raises(CardError):
        hand.show(1, "AsKd")  # the ace of spades is p1's
    hand.show(1, "KsKd")
    hand.show(0)
    assert hand.result().pots[0].winners == (0,)


def test_show_must_match_the_cards_dealt__D11() -> None:
    hand = dealt(["AsAd", "KsKd"], "2c 7h 9d Jc 3h", auto_showdown=False)
    play(hand, "c", "x", *["x"] * 6)
    with pytest.raises(CardError):
        hand.show(0, "QsQd")
    hand.show(0, "AdAs")


def test_card_dealt_twice_is_refused__D4() -> None:
    hand = Hand.start(HandConfig.standard([200, 200]))
    hand.deal_hole(0, "AsAd")
    with pytest.raises(CardError, match="already dealt"):
        hand.deal_hole(1, "AsKd")
    assert hand.hole(1) == ()
    with pytest.raises(CardError):
        hand.deal_hole(0, "Kd")  # a third card


def test_board_needs_the_right_count_at_the_right_time__D5() -> None:
    hand = Hand.start(HandConfig.standard([200, 200]))
    hand.deal_hole(0, "AsAd")
    hand.deal_hole(1, "KsKd")
    refused_by("D5", hand.deal_board, "2c7h9d")
    play(hand, "c", "x")
    refused_by("D5", hand.apply, "x")
    with pytest.raises(CardError):
        hand.deal_board("2c7h")
    with pytest.raises(CardError):
        hand.deal_board("2c7hAs")
    hand.deal_board("2c7h9d")
    assert hand.to_act == 0


def test_deck_hand_refuses_manual_dealing__D4() -> None:
    hand = dealt(["AsAd", "KsKd"], "2c 7h 9d Jc 3h")
    with pytest.raises(IllegalActionError):
        hand.deal_hole(0, "2c")
    with pytest.raises(IllegalActionError):
        hand.deal_board("2c7h9d")


def test_settle_shows_what_the_history_left_out__P8() -> None:
    hand = Hand.start(HandConfig.standard([200, 200]))
    hand.deal_hole(0, "AsAd")
    hand.deal_hole(1, "KsKd")
    play(hand, "c", "x")
    for board in ("2c7h9d", "Jc", "3h"):
        hand.deal_board(board)
        play(hand, "x", "x")
    hand.settle()
    assert hand.is_over
    assert hand.result().stacks == (202, 198)
    assert shows(hand) == [0]  # p2 could not win: mucked
    assert isinstance(hand.events[-1], HandEnded)


# ---------------------------------------------------------------- views


def test_view_holds_only_what_the_position_may_see__D11() -> None:
    hand = dealt(["AsAd", "KsKd", "QsQd"], "2c 7h 9d Jc 3h")
    view = hand.view(1)
    assert view.hole == parse_cards("KsKd")
    cards = [e.card for e in view.events if isinstance(e, HoleCardDealt)]
    assert [c for c in cards if c is not None] == list(parse_cards("KsKd"))
    assert view.legal is None  # p3 is to act, not p2
    assert hand.view(2).legal == hand.legal
    public = hand.public_view()
    assert public.hole is None
    assert all(e.card is None for e in public.events if isinstance(e, HoleCardDealt))


def test_views_show_shown_cards_but_not_mucked_ones__P8() -> None:
    hand = dealt(["KsKd", "QsQd", "AsAd"], "2c 7h 9d Jc 3h")
    play(hand, *CHECK_DOWN_3)
    public = hand.public_view()
    assert set(public.shown) == {0, 2}
    assert public.mucked == (1,)
    assert public.is_over
    assert public.result is not None
    assert all(e.card is None for e in public.events if isinstance(e, HoleCardDealt))


def test_the_winner_may_show_after_everybody_folded_and_nothing_changes__B5() -> None:
    hand = dealt(["AsAh", "KdKc", "7c2d"], "Ad Kh 2c 9s 3h")
    play(hand, "f", "f")
    assert hand.is_over
    before = hand.result()
    events = hand.show(1)
    assert events == (CardsShown(1, tuple(parse_cards("KdKc"))),)
    assert hand.result() is before
    assert hand.stacks == before.stacks
    assert hand.shown == {1: tuple(parse_cards("KdKc"))}


def test_a_courtesy_show_names_unknown_cards_and_checks_them__B5_D11() -> None:
    hand = Hand.start(HandConfig.standard([200, 200, 200]))
    for p in range(3):
        hand.deal_hole(p, [None, None])
    play(hand, "f", "f")
    hand.show(1, "JsJh")
    assert hand.hole(1) == tuple(parse_cards("JsJh"))
    with pytest.raises(IllegalActionError, match="P8: p2 has already shown"):
        hand.show(1, "JsJh")


def test_only_the_winner_may_show_after_the_folds__B5_P2() -> None:
    hand = dealt(["AsAh", "KdKc", "7c2d"], "Ad Kh 2c 9s 3h")
    play(hand, "f", "f")
    with pytest.raises(IllegalActionError, match="P2: p3 folded"):
        hand.show(2)
    with pytest.raises(IllegalActionError, match="P2: p1 folded"):
        hand.show(0)


def test_no_show_after_a_hand_that_ended_at_showdown__B5() -> None:
    hand = dealt(["AsAh", "KdKc"], "Ad Kh 2c 9s 3h")
    play(hand, "c", "x", "x", "x", "x", "x", "x", "x")
    assert hand.is_over
    with pytest.raises(IllegalActionError, match="B5: the hand is over"):
        hand.show(0)
