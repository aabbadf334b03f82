"""What the game says, without running it: sizes, typed amounts, refusals citing the rule,
pots as shown, the hand log, hand names."""

from __future__ import annotations

import pytest
from tuikit import plain

from feltro.cards import Deck, parse_cards
from feltro.events import PotAwarded
from feltro.hand import Hand, HandConfig
from feltro.i18n import LANGUAGES
from feltro.tui.text import (
    AmountError,
    LogContext,
    ShownPot,
    hand_name,
    log_lines,
    merge_pots,
    parse_amount,
    raise_sizes,
    refusal,
)


def _hand(stacks: list[int]) -> Hand:
    return Hand.start(HandConfig.standard(stacks),
                      Deck.for_deal(["AsAh", "KdKc", "7c2d", "9s9d"][:len(stacks)],
                                    "Ad Kh 2c 9c 3h"))


def _x3() -> Hand:
    """X3: a raise to 10, a call, then a short all-in to 15: the first two may not raise."""
    hand = _hand([15, 200, 200, 200])
    hand.apply("r 10")
    hand.apply("c")
    hand.apply("r 15")
    hand.apply("f")
    return hand


def test_short_all_in_refusal_cites_the_rule_in_every_language__B8() -> None:
    hand = _x3()
    view, legal = hand.view(hand.to_act or 0), hand.legal
    assert refusal("raise", view, legal, "en") == (
        "You can't raise: the short all-in to 15 does not reopen the betting (B8).")
    assert "(B8)" in (refusal("raise", view, legal, "pt-PT") or "")
    assert "Você não pode aumentar" in (refusal("raise", view, legal, "pt-BR") or "")
    assert refusal("check", view, legal, "en") == (
        "You can't check: there is a bet to you, 5 to call (B3).")
    assert raise_sizes(view, legal) == []
    assert parse_amount("30", legal) == AmountError("input.closed", {})


def test_a_stack_that_only_covers_the_call_cannot_raise__B7() -> None:
    hand = _hand([200, 200, 200, 10])
    hand.apply("r 20")  # p3 raises; p4 has 10 in all
    view, legal = hand.view(hand.to_act or 0), hand.legal
    text = refusal("raise", view, legal, "en") or ""
    assert "(B7)" in text
    assert "your 10 chips" in text


def test_open_raise_has_no_refusal_and_four_sizes__B6() -> None:
    hand = _hand([200, 200, 200])
    view, legal = hand.view(hand.to_act or 0), hand.legal
    assert refusal("raise", view, legal, "en") is None
    # Pot 3, 2 to call: half pot = 2 + 5 // 2 = 4 (the minimum), pot = 2 + 5 = 7.
    assert raise_sizes(view, legal) == [("min", 4), ("half_pot", 4), ("pot", 7),
                                        ("all_in", 200)]


def test_all_in_for_less_is_the_only_size__B7() -> None:
    hand = _hand([200, 200, 3])  # 3 chips: above the call of 2, short of a raise to 4
    view, legal = hand.view(hand.to_act or 0), hand.legal
    assert raise_sizes(view, legal) == [("all_in", 3)]


@pytest.mark.parametrize(("typed", "expected"), [
    ("25", 25), (" 25 ", 25), ("4", 4), ("200", 200),
    ("3", AmountError("input.below_min", {"amount": 3, "min": 4})),
    ("201", AmountError("input.above_stack", {"amount": 201, "max": 200})),
    ("abc", AmountError("input.not_a_number", {"text": "abc"})),
    ("-5", AmountError("input.below_zero", {"text": "-5", "min": 4})),
    ("2.5", AmountError("input.not_a_number", {"text": "2.5"})),
    ("", AmountError("input.empty", {"min": 4, "max": 200})),
])
def test_typed_amounts(typed: str, expected: int | AmountError) -> None:
    legal = _hand([200, 200, 200]).legal
    assert parse_amount(typed, legal) == expected
    if isinstance(expected, AmountError):
        for lang in LANGUAGES:
            assert expected.text(lang)


def test_pots_with_the_same_players_show_as_one__P1() -> None:
    pots = [PotAwarded(0, 4, (1,), (1,), (4,)), PotAwarded(1, 3, (1,), (1,), (3,))]
    assert merge_pots(pots) == [ShownPot(7, (1,), (1,), (7,))]
    side = [PotAwarded(0, 60, (0, 1, 2), (0,), (60,)), PotAwarded(1, 60, (1, 2), (2,), (60,))]
    assert len(merge_pots(side)) == 2  # X2: a real side pot stays


def test_log_says_bet_or_raise_and_names_pots() -> None:
    hand = _hand([200, 200, 200])
    hand.apply("c")
    hand.apply("c")
    hand.apply("x")  # flop
    hand.apply("r 6")
    hand.apply("r 20")
    hand.apply("f")
    hand.apply("f")
    context = LogContext(["Ana", "Rui", "Eva"], 0, 1)
    text = "\n".join(plain(line) for line in log_lines(hand.public_view().events, context, "en"))
    assert "Ana: small blind 1" in text
    assert "Rui: big blind 2" in text
    assert "Flop A♦ K♥ 2♣" in text
    assert "Ana bets 6" in text
    assert "Rui raises to 20" in text
    assert "14 back to Rui (not called)" in text
    assert "Main pot 18: Rui +18" in text
    pt = "\n".join(plain(line) for line in log_lines(hand.public_view().events, context,
                                                       "pt-PT"))
    assert "Ana aposta 6" in pt
    assert "Rui aumenta para 20" in pt


def test_hand_names_before_and_after_the_flop() -> None:
    assert hand_name(parse_cards("AsAh"), (), "en") == "Pair of aces"
    assert hand_name(parse_cards("AsAh"), (), "pt-PT") == "Par de ases"
    assert hand_name(parse_cards("Ks7d"), (), "en") == "High card, king"
    assert hand_name(parse_cards("AsAh"), parse_cards("Ad 7c 2h"), "en") == (
        "Three of a kind, aces")
    assert hand_name((None, None), (), "en") is None
