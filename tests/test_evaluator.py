"""The hand evaluator: seed examples, categories, best five, descriptions, input forms, bad input.

The exhaustive counts live in test_evaluator_exhaustive.py, the comparison with phevaluator in
test_evaluator_differential.py.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import feltro
from feltro.cards import Card, parse_cards
from feltro.errors import CardError, FeltroError, ParseError
from feltro.evaluator import Category, HandValue, hand_strength

evaluate = feltro.evaluate
evaluate_many = feltro.evaluate_many

RANKS = "23456789TJQKA"


def ranks_of(cards: tuple[Card, ...]) -> str:
    return "".join(RANKS[c.rank] for c in cards)


# --- seed examples -------------------------------------------------------------------------


def test_board_straight_splits__X1() -> None:
    board = "A♣ K♦ Q♥ J♠ 10♣"
    deuces = evaluate(f"2♥ 2♠ {board}")
    nines = evaluate(f"9♦ 9♣ {board}")
    assert deuces == nines
    assert deuces.category == Category.STRAIGHT
    assert set(deuces.best_five) == set(parse_cards(board))
    assert set(nines.best_five) == set(parse_cards(board))


def test_kicker_decides_then_board_kickers_split__X6() -> None:
    board = "6c 7d 8h Qs Kc"
    j8 = evaluate(f"Jd 8s {board}")
    n8 = evaluate(f"9h 8c {board}")
    assert j8 > n8
    assert j8.category == n8.category == Category.ONE_PAIR
    assert sorted(ranks_of(j8.best_five)) == sorted("88KQJ")
    assert sorted(ranks_of(n8.best_five)) == sorted("88KQ9")

    board = "7c 8d Kh Qs Ac"
    j8 = evaluate(f"Jd 8s {board}")
    n8 = evaluate(f"9h 8c {board}")
    assert j8 == n8
    assert sorted(ranks_of(j8.best_five)) == sorted("88AKQ")


def test_two_pair_loses_to_trips__X7() -> None:
    board = "7♣ 2♦ Q♠ 8♥ A♠"
    two_pair = evaluate(f"A♣ 7♠ {board}")
    trips = evaluate(f"8♣ 8♦ {board}")
    assert two_pair.category == Category.TWO_PAIR
    assert trips.category == Category.THREE_OF_A_KIND
    assert trips > two_pair
    assert two_pair < trips


# "vence" pairs of the seed's ranking lesson: (winner, loser, category of both).
VENCE = [
    ("Jh Th 9h 8h 7h", "Ts 9s 8s 7s 6s", "STRAIGHT_FLUSH"),
    ("4c 4d 4h 4s Qc", "4c 4d 4h 4s 9d", "FOUR_OF_A_KIND"),
    ("Kc Kd Kh 3s 3c", "Jc Jd Jh Qs Qc", "FULL_HOUSE"),
    ("7c 7d 7h 9s 9c", "7c 7d 7h 4s 4c", "FULL_HOUSE"),
    ("Ad Jd 8d 5d 3d", "Ac Tc 8c 6c 3c", "FLUSH"),
    ("Qh 9h 7h 4h 3h", "Ts 9s 7s 3s 2s", "FLUSH"),
    ("6c 5d 4h 3s 2c", "5c 4d 3h 2s Ac", "STRAIGHT"),
    ("6c 6d 6h As 8c", "6c 6d 6h Ks Jc", "THREE_OF_A_KIND"),
    ("Jc Jd Jh 9s 7c", "Jc Jd Jh 9s 3c", "THREE_OF_A_KIND"),
    ("Tc Td 7h 7s Jc", "9c 9d 8h 8s Ac", "TWO_PAIR"),
    ("8c 8d 4h 4s Kc", "8c 8d 4h 4s Jc", "TWO_PAIR"),
    ("Tc Td Jh 9s 3c", "Tc Td 9h 7s 5c", "ONE_PAIR"),
    ("Ac 7d 5h 4s 3c", "Kc Jd 7h 5s 4c", "HIGH_CARD"),
    ("Jc Td 8h 6s 3c", "Jc Td 8h 4s 3c", "HIGH_CARD"),
]


@pytest.mark.parametrize(("winner", "loser", "category"), VENCE, ids=[w for w, _, _ in VENCE])
def test_vence_pairs__X8(winner: str, loser: str, category: str) -> None:
    win, lose = evaluate(winner), evaluate(loser)
    assert win.category == lose.category == Category[category]
    assert win > lose
    assert lose < win
    assert win != lose
    assert hand_strength(parse_cards(winner)) > hand_strength(parse_cards(loser))


def test_nuts_on_a_dry_board_is_trips__X11() -> None:
    board = "2c 3d 7h 8s Qc"
    value, holes = feltro.nuts(board)
    assert isinstance(value, HandValue)
    assert value.category == Category.THREE_OF_A_KIND
    assert sorted(ranks_of(value.best_five)) == sorted("QQQ87")
    # the three pairs of queens left, and nothing else
    assert {frozenset(h) for h in holes} == {
        frozenset(parse_cards(h)) for h in ("Qs Qh", "Qs Qd", "Qh Qd")
    }
    # Brute force with the single-call evaluator: no two hole cards do better.
    board_cards = parse_cards(board)
    rest = [c for c in range(52) if c not in board_cards]
    best = max(int(evaluate([*board_cards, a, b])) for a, b in combinations(rest, 2))
    assert int(value) == best


@pytest.mark.parametrize(
    ("board", "category", "example_hole"),
    [
        ("As Ks Qs 2d 3c", "STRAIGHT_FLUSH", "Js Ts"),  # the royal draw is there
        ("7c 7d 2h 9s Kc", "FOUR_OF_A_KIND", "7h 7s"),
        ("2c 5c 9c Jd Kh", "FLUSH", "Ac Kc"),  # unpaired, no straight flush: the ace flush
        ("4d 9h Td", "THREE_OF_A_KIND", "Tc Ts"),  # a flop: no straight or flush possible
    ],
)
def test_nuts_other_boards__X11(
    board: str, category: str, example_hole: str
) -> None:
    value, holes = feltro.nuts(board)
    assert value.category == Category[category]
    assert frozenset(parse_cards(example_hole)) in {frozenset(h) for h in holes}
    board_cards = parse_cards(board)
    rest = [c for c in range(52) if c not in board_cards]
    best = max(hand_strength([*board_cards, a, b]) for a, b in combinations(rest, 2))
    assert int(value) == best


# --- categories, best five, descriptions ---------------------------------------------------

EXAMPLES = [
    # cards, category, best five (as a set)
    ("9c 8d 7h 6s 5c 2d 2h", "STRAIGHT", "9c 8d 7h 6s 5c"),
    ("As 2s 3s 4s 5s Kd Kh", "STRAIGHT_FLUSH", "As 2s 3s 4s 5s"),
    ("Qd Qc Qh Qs 2c 3d 4h", "FOUR_OF_A_KIND", "Qd Qc Qh Qs 4h"),
    ("Jc Jd Jh 4s 4c 9d Ah", "FULL_HOUSE", "Jc Jd Jh 4s 4c"),
    ("Ah Kh 9h 5h 2h 3h Qd", "FLUSH", "Ah Kh 9h 5h 3h"),
    ("5c 4d 3h 2s Ac Kd Kh", "STRAIGHT", "5c 4d 3h 2s Ac"),
    ("7c 7d 7h As Kd 2c 3c", "THREE_OF_A_KIND", "7c 7d 7h As Kd"),
    ("Tc Td 5h 5s 3c 3d Ah", "TWO_PAIR", "Tc Td 5h 5s Ah"),
    ("6c 6d Ah Ks 9c 3d 2h", "ONE_PAIR", "6c 6d Ah Ks 9c"),
    ("Ac Qd Th 8s 6c 4d 2h", "HIGH_CARD", "Ac Qd Th 8s 6c"),
]


@pytest.mark.parametrize(("cards", "category", "best"), EXAMPLES, ids=[e[1] for e in EXAMPLES])
def test_category_and_best_five__P4(cards: str, category: str, best: str) -> None:
    value = evaluate(cards)
    assert value.category == Category[category]
    assert set(value.best_five) == set(parse_cards(best))
    assert len(value.best_five) == 5
    assert all(type(c) is Card for c in value.best_five)
    assert evaluate(value.best_five) == value


def test_categories_are_ordered_ints__P4() -> None:
    assert [c.name for c in sorted(Category)] == [
        "HIGH_CARD", "ONE_PAIR", "TWO_PAIR", "THREE_OF_A_KIND", "STRAIGHT", "FLUSH",
        "FULL_HOUSE", "FOUR_OF_A_KIND", "STRAIGHT_FLUSH",
    ]
    assert int(Category.HIGH_CARD) == 1
    assert int(Category.STRAIGHT_FLUSH) == 9


def test_value_order_follows_category_order__P4() -> None:
    values = [evaluate(cards) for cards, _, _ in EXAMPLES]
    for a in values:
        for b in values:
            if a.category > b.category:
                assert a > b


def test_wheel_is_the_lowest_straight_and_no_wrap__P5() -> None:
    wheel = evaluate("Ac 2d 3h 4s 5c")
    six_high = evaluate("2d 3h 4s 5c 6h")
    assert wheel.category == Category.STRAIGHT
    assert wheel < six_high
    assert evaluate("Qc Kd Ah 2s 3c").category == Category.HIGH_CARD  # K-A-2 does not wrap
    assert evaluate("Jc Qd Kh As 2c 3d 4h").category == Category.HIGH_CARD
    assert evaluate("Ts Js Qs Ks As") > evaluate("9s Ts Js Qs Ks")


def test_suits_never_break_ties__P6() -> None:
    assert evaluate("Ac Kc Qc Jc 9c") == evaluate("Ah Kh Qh Jh 9h")
    assert evaluate("As Ad 7c 5h 2s") == evaluate("Ah Ac 7d 5s 2h")
    assert evaluate("Ts Js Qs Ks As") == evaluate("Tc Jc Qc Kc Ac")


def test_royal_flush_is_the_top_straight_flush__P4() -> None:
    royal = evaluate("As Ks Qs Js Ts")
    assert royal.category == Category.STRAIGHT_FLUSH
    king_high = evaluate("Ks Qs Js Ts 9s")
    assert royal > king_high
    assert royal > evaluate("Ac Ad Ah As Kc")
    assert "royal" in royal.describe("en").lower()
    assert "royal" not in king_high.describe("en").lower()
    for lang in ("pt-PT", "pt-BR"):
        assert royal.describe(lang) != king_high.describe(lang)
    assert evaluate("Ah Kh Qh Jh Th 9h 8h") == royal


def test_straight_description_in_three_languages() -> None:
    value = evaluate("9c 8d 7h 6s 5c 2d 2h")
    assert value.describe("en") == "Straight, nine high"
    assert value.describe("pt-PT") == "Sequência ao 9"
    assert value.describe() == value.describe("en")


@pytest.mark.parametrize("lang", ["en", "pt-PT", "pt-BR"])
def test_descriptions_distinguish_categories(lang: str) -> None:
    texts = [evaluate(cards).describe(lang) for cards, _, _ in EXAMPLES]
    assert all(isinstance(t, str) and t for t in texts)
    # ten examples, ten different descriptions (two straights of different heights)
    assert len(set(texts)) == len(texts)


def test_unknown_language_is_refused() -> None:
    with pytest.raises(ValueError, match="xx"):
        evaluate("9c 8d 7h 6s 5c").describe("xx")


# --- the value type ------------------------------------------------------------------------


def test_hand_value_compares_like_its_strength() -> None:
    a = evaluate("Ac Ad 7c 5h 2s")
    b = evaluate("Ah As 7d 5s 2h")
    c = evaluate("Kc Kd Qh Js 9c")
    assert a == b
    assert hash(a) == hash(b)
    assert a > c
    assert a >= b
    assert c <= a
    assert int(a) == a.strength
    assert int(a) > int(c)
    assert sorted([a, c, b]) == [c, a, b]
    assert max([c, a]) is a


def test_hand_strength_matches_evaluate() -> None:
    for cards in ("As Kd Qh Js Ts 2c 3d", "2c 3d 4h 5s 7c", "Ah Kh 9h 5h 2h 3h"):
        assert hand_strength(parse_cards(cards)) == int(evaluate(cards))
        assert hand_strength([int(c) for c in parse_cards(cards)]) == int(evaluate(cards))


# --- input forms ---------------------------------------------------------------------------


def test_input_forms_agree() -> None:
    text = "As Kd Qh Js Ts 2c 3d"
    ids = [51, 45, 42, 39, 35, 0, 5]
    expected = evaluate(text)
    assert evaluate("AsKdQhJsTs2c3d") == expected
    assert evaluate("as kd qh js 10s 2C 3D") == expected
    assert evaluate("A♠ K♦ Q♥ J♠ 10♠ 2♣ 3♦") == expected
    assert evaluate(ids) == expected
    assert evaluate(tuple(ids)) == expected
    assert evaluate(iter(ids)) == expected
    assert evaluate(Card.from_id(i) for i in ids) == expected
    assert evaluate(parse_cards(text)) == expected
    assert evaluate(["As", "Kd", 42, Card.from_id(39), "Ts", "2c", "3d"]) == expected
    assert evaluate(reversed(ids)) == expected
    assert evaluate([np.int64(i) for i in ids]) == expected  # type: ignore[misc]


def test_a_numpy_row_of_ids_is_an_iterable_of_ids() -> None:
    hands = np.array([[51, 45, 42, 39, 35, 0, 5]])
    assert int(evaluate(hands[0])) == int(evaluate_many(hands)[0])


@pytest.mark.parametrize("size", [5, 6, 7])
def test_five_six_and_seven_cards(size: int) -> None:
    cards = parse_cards("Ah Kh 9h 5h 2h 3h Qd")[:size]
    assert evaluate(cards).category == Category.FLUSH


def test_evaluate_many_matches_evaluate() -> None:
    hands = [
        [51, 45, 42, 39, 35, 0, 5],
        [0, 4, 8, 12, 17, 22, 26],
        [48, 49, 50, 51, 44, 45, 46],
    ]
    out = evaluate_many(np.array(hands, dtype=np.int64))
    assert out.shape == (3,)
    assert [int(x) for x in out] == [int(evaluate(h)) for h in hands]
    for dtype in (np.uint8, np.int8, np.int16, np.int32, np.uint16):
        assert (evaluate_many(np.array(hands, dtype=dtype)) == out).all()
    for size in (5, 6):
        short = np.array([h[:size] for h in hands], dtype=np.uint8)
        assert [int(x) for x in evaluate_many(short)] == [int(evaluate(h[:size])) for h in hands]


def test_evaluate_many_empty() -> None:
    assert evaluate_many(np.empty((0, 7), dtype=np.uint8)).shape == (0,)


def test_a_bool_is_not_a_card_id() -> None:
    with pytest.raises(CardError):
        evaluate([51, 45, 42, 39, True])


# --- properties (P3: best 5 of 7; P6: suits never rank) ------------------------------------

hands7 = st.lists(st.integers(0, 51), min_size=7, max_size=7, unique=True)


@settings(max_examples=300, deadline=None)
@given(hands7)
def test_seven_cards_play_their_best_five__P3(cards: list[int]) -> None:
    best = max(hand_strength(five) for five in combinations(cards, 5))
    value = evaluate(cards)
    assert int(value) == best
    assert set(value.best_five) <= set(cards)
    assert hand_strength(value.best_five) == best
    six_best = max(hand_strength(five) for five in combinations(cards[:6], 5))
    assert hand_strength(cards[:6]) == six_best


@settings(max_examples=200, deadline=None)
@given(hands7, st.permutations(range(4)))
def test_relabelling_suits_keeps_the_value__P6(
    cards: list[int], suits: list[int]
) -> None:
    relabelled = [c // 4 * 4 + suits[c % 4] for c in cards]
    assert hand_strength(relabelled) == hand_strength(cards)


# --- bad input -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "error", "offending"),
    [
        ("1x As Kd Qh Js", ParseError, "1x"),
        ("As Kd Qh Js Ax", ParseError, "Ax"),
        ("As Kd Qh Js As", CardError, "As"),
        ([51, 45, 42, 39, 51], CardError, "As"),
        ("As Kd Qh Js", CardError, "4"),
        ("As Kd Qh Js Ts 9s 8s 7s", CardError, "8"),
        ([], CardError, "0"),
        ([51, 45, 42, 39, 52], CardError, "52"),
        ([51, 45, 42, 39, -1], CardError, "-1"),
        ([51, 45, 42, 39, None], CardError, "None"),
        ([51, 45, 42, 39, 3.0], CardError, "3.0"),
        ("", CardError, "0"),
    ],
)
def test_bad_input_is_a_named_value_error(
    cards: object, error: type[FeltroError], offending: str
) -> None:
    with pytest.raises(error) as info:
        evaluate(cards)  # type: ignore[arg-type]
    assert isinstance(info.value, ValueError)
    assert offending in str(info.value)


@pytest.mark.parametrize(
    ("array", "offending"),
    [
        (np.zeros((3, 4), dtype=np.uint8) + np.arange(4, dtype=np.uint8), "4"),
        (np.zeros((3, 8), dtype=np.uint8) + np.arange(8, dtype=np.uint8), "8"),
        (np.arange(7, dtype=np.uint8), "(7,)"),
        (np.zeros((2, 3, 7), dtype=np.uint8) + np.arange(7, dtype=np.uint8), "(2, 3, 7)"),
        (np.array([[0, 1, 2, 3, 52, 5, 6]]), "52"),
        (np.array([[0, 1, 2, 3, -1, 5, 6]]), "-1"),
        (np.array([[0, 1, 2, 3, 4, 5, 5]]), "3d"),
        (np.array([[0.0, 1, 2, 3, 4, 5, 6]]), "float"),
    ],
)
def test_evaluate_many_bad_arrays(array: np.ndarray, offending: str) -> None:
    with pytest.raises(FeltroError) as info:
        evaluate_many(array)
    assert isinstance(info.value, ValueError)
    assert offending in str(info.value)
