"""Fixed-limit (B10) and pot-limit structures."""


from __future__ import annotations

from feltro.cards import Deck
from feltro.config import Structure
from feltro.events import Street
from feltro.hand import Hand, HandConfig
from playkit import play, refused_by

FL = Structure.FIXED_LIMIT
PL = Structure.POT_LIMIT


def start(stacks: list[int], structure: Structure, **kwargs: int) -> Hand:
    config = HandConfig.standard(stacks, structure=structure, **kwargs)  # type: ignore[arg-type]
    return Hand.start(config, Deck.standard())


def bounds(hand: Hand) -> tuple[int | None, int | None]:
    legal = hand.legal
    return legal.min_raise_to, legal.max_raise_to


# ---------------------------------------------------------------- fixed-limit


def test_fixed_limit_small_bet_preflop_and_flop__B10() -> None:
    hand = start([200] * 3, FL)
    assert bounds(hand) == (4, 4)
    play(hand, "c", "c", "x")
    assert hand.street is Street.FLOP
    assert bounds(hand) == (2, 2)
    play(hand, "r 2")
    assert bounds(hand) == (4, 4)


def test_fixed_limit_big_bet_turn_and_river__B10() -> None:
    hand = start([200] * 3, FL)
    play(hand, "c", "c", "x", "x", "x", "x")
    assert hand.street is Street.TURN
    assert bounds(hand) == (4, 4)
    play(hand, "r 4")
    assert bounds(hand) == (8, 8)
    play(hand, "c", "c")
    assert hand.street is Street.RIVER
    assert bounds(hand) == (4, 4)


def test_fixed_limit_other_sizes_are_refused__B10() -> None:
    hand = start([200] * 3, FL)
    for amount in (3, 5, 200):
        refused_by("B10", hand.apply, f"r {amount}")
    assert hand.bets == (1, 2, 0)


def test_fixed_limit_big_blind_is_the_first_of_four_bets__B10() -> None:
    # 2 (big blind), 4, 6, 8: capped.
    hand = start([200] * 4, FL)
    play(hand, "r 4", "r 6", "r 8")
    legal = hand.legal
    assert legal.position == 1
    assert legal.min_raise_to is None
    assert legal.refusals["raise"].startswith("B10: ")
    refused_by("B10", hand.apply, "r 10")


def test_fixed_limit_cap_counts_the_opening_bet_after_the_flop__B10() -> None:
    hand = start([200] * 3, FL)
    play(hand, "c", "c", "x")
    play(hand, "r 2", "r 4", "r 6", "r 8")  # bet, raise, raise, raise: four bets
    assert hand.legal.min_raise_to is None
    play(hand, "c", "c")
    assert hand.street is Street.TURN


def test_fixed_limit_cap_holds_heads_up__B10() -> None:
    hand = start([200, 200], FL)
    play(hand, "r 4", "r 6", "r 8")
    assert hand.to_act == 0
    assert hand.legal.min_raise_to is None
    play(hand, "c")
    play(hand, "r 2", "r 4", "r 6", "r 8")
    assert hand.legal.min_raise_to is None


def test_fixed_limit_all_in_for_less_and_short_all_in_does_not_reopen__B10() -> None:
    hand = start([200, 200, 200, 5], FL)
    play(hand, "r 4")  # p3 raises to 4
    assert bounds(hand) == (5, 5)  # p4 has 5: all-in for less than a full raise to 6
    play(hand, "r 5")
    play(hand, "c", "c")  # p1 and p2 call 5; both had not acted: may raise
    assert hand.to_act == 2
    assert hand.legal.min_raise_to is None  # 1 over p3's 4 does not reopen it (B8)
    assert hand.legal.refusals["raise"].startswith("B8: ")


def test_fixed_limit_custom_big_bet__B10() -> None:
    config = HandConfig(stacks=(200, 200), blinds=(2, 1), big_blind=2,
                        structure=Structure.FIXED_LIMIT, big_bet=6)
    hand = Hand.start(config, Deck.standard())
    play(hand, "c", "x", "x", "x")
    assert hand.street is Street.TURN
    assert bounds(hand) == (6, 6)


# ---------------------------------------------------------------- pot-limit


def test_pot_limit_preflop_maximum_counts_the_call__B6() -> None:
    hand = start([200] * 4, PL)
    # Pot 3 (blinds); calling 2 makes it 5; the raise may add 5 on top of the 2.
    assert bounds(hand) == (4, 7)
    play(hand, "c")
    assert bounds(hand) == (4, 9)  # pot 5, call 2 -> 7, raise to 2 + 7


def test_pot_limit_opening_bet_is_at_most_the_pot__B6() -> None:
    hand = start([200] * 3, PL)
    play(hand, "c", "c", "x")
    assert hand.pot == 6
    assert bounds(hand) == (2, 6)
    play(hand, "r 6")
    # Pot 12 after the bet; calling 6 makes 18; raise to 6 + 18.
    assert bounds(hand) == (12, 24)


def test_pot_limit_above_the_pot_is_refused__B6() -> None:
    hand = start([200] * 3, PL)
    assert "pot-limit" in str(refused_by("B6", hand.apply, "r 8"))


def test_pot_limit_capped_by_the_stack__B7() -> None:
    assert bounds(start([200, 200, 5], PL)) == (4, 5)  # the pot allows 7, the stack 5
    assert bounds(start([200, 200, 3], PL)) == (3, 3)  # all-in for less than a raise (B7)
