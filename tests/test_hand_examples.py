"""The worked examples of RULES.md that the engine plays: X2, X3, X4, X5, X9, X10.

(X1, X6, X7, X8 and X11 are hand-ranking examples; they belong to the evaluator's tests.)
"""


from __future__ import annotations

from feltro.cards import Deck
from feltro.events import Street, UncalledReturned
from feltro.hand import Hand, HandConfig
from playkit import play


def no_blinds(stacks: list[int], holes: list[str], board: str) -> Hand:
    """A hand without forced bets, so contributions are exactly the examples' amounts."""
    n = len(stacks)
    config = HandConfig(stacks=tuple(stacks), blinds=(0,) * n, big_blind=2)
    return Hand.start(config, Deck.for_deal(holes, board))


# ---------------------------------------------------------------- X2


def test_x2_excess_returned_and_each_pot_to_its_best_hand__X2() -> None:
    # C (kings) bets 80, A (aces) calls all-in for 20, B (queens) all-in for 50: A best, C
    # second. (C bets first: after B's all-in nobody could call a raise to 80, B5.)
    hand = no_blinds([200, 20, 50], ["KsKd", "AsAd", "QsQd"], "2c 7h 9d Jc 3h")
    play(hand, "r 80", "c", "c")
    assert UncalledReturned(0, 30) in hand.events
    result = hand.result()
    assert result.returned == (30, 0, 0)
    assert [(p.amount, p.eligible, p.winners) for p in result.pots] == [
        (60, (0, 1, 2), (1,)), (60, (0, 2), (0,))]
    assert result.stacks == (200 - 50 + 60, 60, 0)


def test_x2_ties_split_each_pot_separately__X2() -> None:
    # Everybody plays the board's straight: main pot three ways, side pot two ways.
    hand = no_blinds([200, 20, 50], ["4h5s", "2h3d", "2s3c"], "Ac Kd Qh Js Tc")
    play(hand, "r 80", "c", "c")
    result = hand.result()
    assert [p.shares for p in result.pots] == [(20, 20, 20), (30, 30)]
    assert result.stacks == (200, 20, 50)


# ---------------------------------------------------------------- X3


def x3_hand() -> Hand:
    """Five limp preflop; p3 keeps 15 and p4 keeps 20 for the flop."""
    config = HandConfig.standard([500, 500, 17, 22, 500])
    hand = Hand.start(config, Deck.standard())
    play(hand, "c", "c", "c", "c", "x")
    assert hand.street is Street.FLOP
    play(hand, "r 10", "c", "r 15")  # bet 10, call 10, all-in 15
    return hand


def test_x3_bettor_and_caller_may_only_call_or_fold__X3() -> None:
    hand = x3_hand()
    play(hand, "c", "c")  # p4 and p5 just call 15
    for position in (0, 1):  # the bettor, then the caller
        legal = hand.legal
        assert legal.position == position
        assert legal.min_raise_to is None
        assert legal.call_amount == 5
        assert legal.refusals["raise"].startswith("B8: ")
        play(hand, "c")
    assert hand.street is Street.TURN


def test_x3_player_yet_to_act_may_raise_to_25__X3() -> None:
    config = HandConfig.standard([500, 500, 17, 500, 500])
    hand = Hand.start(config, Deck.standard())
    play(hand, "c", "c", "c", "c", "x", "r 10", "c", "r 15")
    legal = hand.legal
    assert legal.position == 3  # has not acted on the flop yet
    assert legal.min_raise_to == 25  # 15 plus the last full increment, 10
    play(hand, "r 25")
    assert hand.current_bet == 25


def test_x3_second_short_all_in_to_20_reopens_for_the_caller_at_30__X3() -> None:
    hand = x3_hand()
    play(hand, "r 20", "c")  # p4 all-in to 20 (short too); p5 calls 20
    legal = hand.legal
    assert legal.position == 0  # the bettor: 10 + 10 of short raises since it acted
    assert legal.min_raise_to == 30
    play(hand, "c")
    legal = hand.legal
    assert legal.position == 1  # the earlier caller
    assert legal.min_raise_to == 30
    play(hand, "r 30")
    assert hand.current_bet == 30


# ---------------------------------------------------------------- X4


def test_x4_side_pots_with_a_folded_contribution__X4() -> None:
    # A..F are positions 0..5; strengths F > A > B > D > E > C.
    holes = ["JhJd", "9c9d", "3c4d", "AsAh", "QsQh", "KhKd"]
    hand = no_blinds([50, 250, 350, 800, 800, 1000], holes, "2c 5d 9h Jc Ks")
    play(hand, "r 50", "r 250", "r 350", "c", "c", "c")  # A, B, C all-in; D, E, F call 350
    play(hand, "r 150", "c", "c")  # flop: D bets 150, E and F call (F is in for 500)
    play(hand, "r 300", "c", "f")  # turn: D all-in 800, E calls all-in, F folds
    result = hand.result()
    # Levels 300 / 1000 / 400 / 450 / 600; the last two are contested by D and E alone: one
    # pot of 1050 (P1).
    assert [p.amount for p in result.pots] == [300, 1000, 400, 1050]
    assert sum(p.amount for p in result.pots) == 2750
    assert [p.winners for p in result.pots] == [(0,), (1,), (3,), (3,)]
    assert result.stacks == (300, 1000, 0, 1450, 0, 500)


# ---------------------------------------------------------------- X5


def test_x5_odd_chips_from_the_first_winner_left_of_the_button__X5() -> None:
    # A B C D E clockwise, A on the button: positions B=0, C=1, D=2, E=3, A=4. One chip
    # here stands for $10. B opens 10 and folds; C, D and E put in 30 each and tie: 1000
    # (100 chips) is split 340 / 330 / 330.
    holes = ["8c8d", "2h3d", "2s3c", "4h5s", "6c7d"]
    hand = no_blinds([200] * 5, holes, "Ac Kd Qh Js Tc")
    play(hand, "r 10", "r 30", "c", "c", "f", "f")
    play(hand, *["x"] * 9)
    result = hand.result()
    assert sum(p.amount for p in result.pots) == 100
    won = [result.stacks[p] - (200 - 30) for p in (1, 2, 3)]
    assert [10 * w for w in won] == [340, 330, 330]

def test_x5_in_chips_of_ten_as_the_seed_counts_them__X5_P7() -> None:
    # The same case in the seed's own amounts: the pot is 1000 and the smallest chip is 10
    # (HandConfig.chip): the odd chip is a whole chip of 10, to C, the first winner.
    holes = ["8c8d", "2h3d", "2s3c", "4h5s", "6c7d"]
    config = HandConfig(stacks=(2000,) * 5, blinds=(0,) * 5, big_blind=20, chip=10)
    hand = Hand.start(config, Deck.for_deal(holes, "Ac Kd Qh Js Tc"))
    play(hand, "r 100", "r 300", "c", "c", "f", "f")
    play(hand, *["x"] * 9)
    [pot] = hand.result().pots
    assert (pot.amount, pot.winners, pot.shares) == (1000, (1, 2, 3), (340, 330, 330))


# ---------------------------------------------------------------- X9, X10


def test_x9_round_ends_after_the_big_blinds_check__X9() -> None:
    # P1 button, P2 small blind, P3 big blind: positions P2=0, P3=1, P4=2, P5=3, P1=4.
    hand = Hand.start(HandConfig.standard([200] * 5), Deck.standard())
    play(hand, "c", "f", "c", "c")  # P4 calls, P5 folds, P1 calls, P2 completes
    assert hand.street is Street.PREFLOP
    assert hand.to_act == 1  # P3, the big blind, has the option
    play(hand, "x")
    assert hand.street is Street.FLOP
    assert hand.bets == (0,) * 5
    assert hand.pot == 8


def test_x10_round_ends_after_p5_calls_the_reraise__X10() -> None:
    hand = Hand.start(HandConfig.standard([200] * 5), Deck.standard())
    play(hand, "c", "r 4", "f", "f")  # P4 calls, P5 raises to 2 BB, P1 and P2 fold
    play(hand, "r 8", "f")  # P3 re-raises to 4 BB, P4 folds
    assert hand.street is Street.PREFLOP
    assert hand.to_act == 3  # P5
    play(hand, "c")
    assert hand.street is Street.FLOP
    assert hand.pot == 1 + 8 + 2 + 8
    assert hand.to_act == 1  # P3 acts first after the flop
