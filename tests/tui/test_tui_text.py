"""What the game says, without running it: sizes, typed amounts, refusals citing the rule,
pots as shown, the hand log, hand names."""

from __future__ import annotations

import pytest
from tuikit import make_session, plain

from feltro.actions import CALL, Raise
from feltro.cards import Deck, parse_cards
from feltro.hand import Hand, HandConfig
from feltro.history import loads
from feltro.i18n import LANGUAGES, t
from feltro.session import Session
from feltro.tui.historyview import hand_steps, step_view
from feltro.tui.render import board_line, hand_log, showdown
from feltro.tui.text import (
    AmountError,
    LogContext,
    hand_name,
    log_lines,
    parse_amount,
    raise_sizes,
    refusal,
)
from playkit import play


def _hand(stacks: list[int]) -> Hand:
    return Hand.start(HandConfig.standard(stacks),
                      Deck.for_deal(["AsAh", "KdKc", "7c2d", "9s9d"][:len(stacks)],
                                    "Ad Kh 2c 9c 3h"))


def _x3() -> Hand:
    """X3: a raise to 10, a call, then a short all-in to 15: the first two may not raise."""
    hand = _hand([15, 200, 200, 200])
    play(hand, "r 10", "c", "r 15", "f")
    return hand


def test_short_all_in_refusal_cites_the_rule_in_every_language__B8() -> None:
    hand = _x3()
    view, legal = hand.view(hand.to_act or 0), hand.legal
    assert refusal("raise", legal, "en") == (
        "You can't raise: the short all-in to 15 does not reopen the betting (B8).")
    assert "(B8)" in (refusal("raise", legal, "pt-PT") or "")
    assert "Você não pode aumentar" in (refusal("raise", legal, "pt-BR") or "")
    assert refusal("check", legal, "en") == (
        "You can't check: there is a bet to you, 5 to call (B3).")
    assert raise_sizes(view, legal) == []
    assert parse_amount("30", legal) == AmountError("input.closed", {})


def test_a_stack_that_only_covers_the_call_cannot_raise__B7() -> None:
    hand = _hand([200, 200, 200, 10])
    hand.apply("r 20")  # p3 raises; p4 has 10 in all
    legal = hand.legal
    text = refusal("raise", legal, "en") or ""
    assert "(B7)" in text
    assert "your 10 chips" in text


def test_open_raise_has_no_refusal_and_four_sizes__B6() -> None:
    hand = _hand([200, 200, 200])
    view, legal = hand.view(hand.to_act or 0), hand.legal
    assert refusal("raise", legal, "en") is None
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


def test_a_folded_blind_makes_no_pot_of_its_own_in_the_log__P1_P7() -> None:
    # The small blind folds its 1; Rui and Eva play the board: one pot of 5 (P1), its odd
    # chip to Rui, the first winner left of the button (P7). No side pot is named.
    hand = Hand.start(HandConfig.standard([200, 200, 200]),
                      Deck.for_deal(["7c4s", "2h3d", "2s3c"], "Ac Kd Qh Js Tc"))
    for action in ["c", "f", "x", *["x"] * 6]:
        hand.apply(action)
    context = LogContext(["Ana", "Rui", "Eva"], 0, 1)
    text = "\n".join(plain(line) for line in log_lines(hand.public_view().events, context, "en"))
    assert "Main pot 5: Rui +3, Eva +2" in text
    assert "Side pot" not in text


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


def _all_in_session(names: tuple[str, ...], stacks_seed: int = 4) -> Session:
    """People only, 200 chips each, the hand started: nobody has acted yet."""
    session = make_session(humans=names, bots=(), seed=stacks_seed)
    assert session.next_hand()
    return session


def test_an_uncalled_all_in_is_not_a_side_pot__P1_B7() -> None:
    # Heads-up, the button shoves 200: until somebody calls, the 198 nobody has matched is a
    # bet in front of the player, not a side pot ("Side pot 1 198").
    session = _all_in_session(("Ana", "Rui"))
    seat = session.human_to_act
    assert seat is not None
    session.act(seat, Raise(200))
    for lang in LANGUAGES:
        line = plain(board_line(session, lang))
        assert "202" in line  # the chips on the table
        assert "198" not in line
        assert t("pot.side", lang, number=1) not in line


def test_all_in_hands_are_listed_from_the_first_all_in_clockwise__P8() -> None:
    # Three players all-in before the flop: the showdown lists the hands from the first to go
    # all-in (the first to act), then clockwise (seed 004), in the terminal and in the log.
    session = _all_in_session(("Ana", "Rui", "Eva"))
    seating = session.series.seating
    assert seating is not None
    first = session.human_to_act
    assert first is not None
    session.act(first, Raise(200))
    while session.series.in_hand:
        seat = session.human_to_act
        assert seat is not None
        session.act(seat, CALL)
    start = seating.order.index(first)
    clockwise = [seating.order[(start + k) % 3] for k in range(3)]
    expected = [session.players[s].name for s in clockwise]
    assert seating.order.index(first) != 0  # not the first left of the button
    text = plain(showdown(session, "en"))
    assert [text.index(name) for name in expected] == sorted(text.index(n) for n in expected)
    log = "\n".join(plain(line) for line in hand_log(session, "en"))
    shows = [line for line in log.splitlines() if " shows " in line]
    assert [line.split(" shows ")[0] for line in shows] == expected


@pytest.mark.parametrize(("blinds", "small", "big"), [
    ("[2, 2]", "p2", "p1"),            # heads-up: the button posts the small blind (D6)
    ("[2, 2, 0]", "p1", "p2"),         # equal blinds: the later one is the big blind (D3)
    ("[1, 2, 4]", "p1", "p2"),         # a straddle is no small blind
])
def test_history_view_names_the_blinds_by_position_not_size__D3_D6(
        blinds: str, small: str, big: str) -> None:
    n = blinds.count(",") + 1
    deal = ", ".join(f"'d dh p{p} ????'" for p in range(1, n + 1))
    record = loads(f"variant = 'NT'\nantes = [{', '.join(['0'] * n)}]\n"
                   f"blinds_or_straddles = {blinds}\nmin_bet = 2\n"
                   f"starting_stacks = [{', '.join(['200'] * n)}]\nactions = [{deal}]\n")
    text = plain(step_view(record, hand_steps(record), 0, "en", "hand"))
    assert f"{small}: small blind" in text
    assert f"{big}: big blind" in text
    assert f"{big}: small blind" not in text
