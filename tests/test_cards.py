"""Cards and decks: parsing, printing, the id convention, decks as values, deal order, bad input."""

from __future__ import annotations

import pickle
import random
from itertools import product

import pytest

from feltro.cards import (
    CARD_TEXT,
    Card,
    Deck,
    Rank,
    Suit,
    card_ids,
    exact_card,
    format_cards,
    parse_cards,
)
from feltro.errors import CardError, FeltroError, ParseError

RANKS = "23456789TJQKA"
SUITS = "cdhs"
SYMBOLS = "♣♦♥♠"


# --- the id convention ---------------------------------------------------------------------


@pytest.mark.parametrize(("rank", "suit"), list(product(range(13), range(4))))
def test_card_id_is_rank_times_four_plus_suit(rank: int, suit: int) -> None:
    card = Card.parse(RANKS[rank] + SUITS[suit])
    assert int(card) == rank * 4 + suit
    assert card.id == rank * 4 + suit
    assert card.rank == Rank(rank)
    assert card.suit == Suit(suit)


def test_id_convention_landmarks() -> None:
    # The convention shared with phevaluator and the batch API: 2c = 0, Td = 33, As = 51.
    assert int(Card.parse("2c")) == 0
    assert int(Card.parse("2s")) == 3
    assert int(Card.parse("Td")) == 33
    assert int(Card.parse("Ah")) == 50
    assert int(Card.parse("As")) == 51
    assert int(Rank.ACE) == 12
    assert int(Rank.TWO) == 0
    assert (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES) == (0, 1, 2, 3)


def test_card_is_a_shared_int() -> None:
    card = Card.parse("Kh")
    assert isinstance(card, int)
    assert card == 46
    assert Card(46) is card
    assert Card.from_id(46) is card
    assert list(range(100, 152))[card] == 146  # indexes like an int
    by_id: dict[int, int] = {card: 1}
    assert by_id[46] == 1  # hashes like its id


def test_card_pickles_to_the_same_card() -> None:
    card = Card.parse("Qd")
    assert pickle.loads(pickle.dumps(card)) is card


# --- parsing -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected_id"),
    [
        ("As", 51),
        ("Td", 33),
        ("10d", 33),
        ("td", 33),
        ("TD", 33),
        ("aS", 51),
        ("as", 51),
        ("2c", 0),
        ("A♠", 51),
        ("a♠", 51),
        ("10♣", 32),
        ("K♥", 46),
        ("Q♦", 41),
        ("A♤", 51),  # outlined symbols too
        ("3♧", 4),
        ("  Js  ", 39),
    ],
)
def test_card_parse_forms(text: str, expected_id: int) -> None:
    assert int(Card.parse(text)) == expected_id


def test_every_card_parses_back_from_its_text_and_symbol() -> None:
    for card_id in range(52):
        card = Card.from_id(card_id)
        assert Card.parse(str(card)) is card
        assert Card.parse(card.symbol) is card
        assert Card.parse(str(card).lower()) is card


@pytest.mark.parametrize(
    "text",
    ["As Kd 7c", "AsKd7c", "as kd 7C", "A♠ K♦ 7♣", "A♠K♦7♣", "As, Kd; 7c", "AsKd 7c"],
)
def test_parse_cards_string_forms(text: str) -> None:
    assert card_ids(text) == (51, 45, 20)


def test_parse_cards_ten_spellings() -> None:
    assert parse_cards("10c 10♦ Th") == parse_cards("Tc Td Th")
    assert card_ids("10s10h") == (35, 34)


def test_parse_cards_iterables_of_cards_ids_and_strings() -> None:
    expected = (Card.parse("As"), Card.parse("Kd"), Card.parse("7c"))
    assert parse_cards([51, 45, 20]) == expected
    assert parse_cards(expected) == expected
    assert parse_cards(["As", 45, Card.parse("7c")]) == expected
    assert parse_cards(["AsKd", "7c"]) == expected
    assert parse_cards(c for c in (51, 45, 20)) == expected
    assert parse_cards(51) == (expected[0],)
    assert parse_cards("") == ()
    assert all(type(c) is Card for c in parse_cards([51, 45, 20]))


def test_parse_cards_keeps_order() -> None:
    assert card_ids("2c As 2d") == (0, 51, 1)


# --- printing ------------------------------------------------------------------------------


def test_card_prints_ascii_and_symbols() -> None:
    card = Card.parse("10d")
    assert str(card) == "Td"
    assert card.symbol == "T♦"
    assert repr(card) == "Card('Td')"
    assert f"{card}" == "Td"
    assert f"{card:>4}" == "  Td"
    assert Card.parse("As").symbol == "A♠"
    assert Card.parse("2c").symbol == "2♣"
    assert Card.parse("Kh").symbol == "K♥"


def test_repr_round_trips() -> None:
    for card_id in range(52):
        card = Card.from_id(card_id)
        assert eval(repr(card), {"Card": Card}) is card


def test_format_cards() -> None:
    ids = card_ids("As Kd 10c")
    assert format_cards(ids) == "As Kd Tc"
    assert format_cards(ids, symbols=True) == "A♠ K♦ T♣"


def test_rank_and_suit_chars() -> None:
    assert "".join(r.char for r in Rank) == RANKS
    assert "".join(s.char for s in Suit) == SUITS
    assert "".join(s.symbol for s in Suit) == SYMBOLS


# --- decks ---------------------------------------------------------------------------------


def test_standard_deck_is_ordered_by_id() -> None:
    deck = Deck.standard()
    assert len(deck) == 52
    assert [int(c) for c in deck] == list(range(52))
    assert deck[0] == Card.parse("2c")
    assert deck[-1] == Card.parse("As")
    assert deck[:2] == (Card.parse("2c"), Card.parse("2d"))


def test_deck_is_a_value() -> None:
    a = Deck.stacked("As Kd")
    b = Deck.stacked("As Kd")
    assert a == b
    assert hash(a) == hash(b)
    assert a != Deck.stacked("Kd As")
    assert a != list(a)
    with pytest.raises(TypeError):
        a[0] = Card.parse("2c")  # type: ignore[index]
    assert len({a, b}) == 1


def test_shuffled_same_seed_same_deck() -> None:
    assert Deck.shuffled(random.Random(7)) == Deck.shuffled(random.Random(7))
    assert Deck.shuffled(random.Random(7)) != Deck.shuffled(random.Random(8))


def test_shuffled_is_a_permutation_of_the_deck() -> None:
    for seed in range(20):
        deck = Deck.shuffled(random.Random(seed))
        assert sorted(int(c) for c in deck) == list(range(52))
    assert Deck.shuffled(random.Random(1)) != Deck.standard()


def test_shuffled_follows_the_given_rng_state() -> None:
    rng = random.Random(3)
    first = Deck.shuffled(rng)
    second = Deck.shuffled(rng)
    assert first != second  # the rng advanced
    replay = random.Random(3)
    assert [Deck.shuffled(replay), Deck.shuffled(replay)] == [first, second]


def test_shuffled_never_uses_the_global_rng(global_random_forbidden: None) -> None:
    deck = Deck.shuffled(random.Random(11))
    assert deck == Deck.shuffled(random.Random(11))


def test_shuffled_refuses_the_global_module() -> None:
    with pytest.raises(TypeError):
        Deck.shuffled(random)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Deck.shuffled(None)  # type: ignore[arg-type]


def test_shuffled_accepts_system_random() -> None:
    deck = Deck.shuffled(random.SystemRandom())
    assert sorted(int(c) for c in deck) == list(range(52))


def test_stacked_puts_given_cards_on_top_and_fills_in_id_order() -> None:
    deck = Deck.stacked("As Kd 2c")
    assert len(deck) == 52
    assert deck[:3] == parse_cards("As Kd 2c")
    rest = [int(c) for c in deck[3:]]
    assert rest == sorted(set(range(52)) - {51, 45, 0})


def test_stacked_without_fill() -> None:
    deck = Deck.stacked("As Kd", fill=False)
    assert deck.cards == parse_cards("As Kd")
    assert len(deck) == 2


def _deal(deck: Deck, players: int) -> tuple[list[list[Card]], list[Card], list[Card]]:
    """Deal from the top as D4/D5 say: one card each from position 0, twice; then
    burn + 3, burn + 1, burn + 1. Returns holes, board, burns."""
    cards = iter(deck)
    holes: list[list[Card]] = [[] for _ in range(players)]
    for _ in range(2):
        for hole in holes:
            hole.append(next(cards))
    board: list[Card] = []
    burns: list[Card] = []
    for size in (3, 1, 1):
        burns.append(next(cards))
        board.extend(next(cards) for _ in range(size))
    return holes, board, burns


def test_for_deal_order__D4_D5() -> None:
    holes = ["AsKs", "QdQh", "7c 2d"]
    deck = Deck.for_deal(holes=holes, board="Td8s3c Jh 2s")
    dealt_holes, board, burns = _deal(deck, 3)
    assert [tuple(h) for h in dealt_holes] == [parse_cards(h) for h in holes]
    assert tuple(board) == parse_cards("Td 8s 3c Jh 2s")
    given = {c for h in holes for c in parse_cards(h)} | set(parse_cards("Td8s3c Jh 2s"))
    assert not set(burns) & given
    assert len(set(burns)) == 3
    assert sorted(int(c) for c in deck) == list(range(52))


def test_for_deal_first_cards_go_round_before_second_cards__D4() -> None:
    deck = Deck.for_deal(holes=["AsKs", "QdQh"])
    # heads-up: position 0 gets the 1st and 3rd card, position 1 (the button) the 2nd and 4th
    assert deck[:4] == parse_cards("As Qd Ks Qh")


def test_for_deal_partial_board_leaves_the_rest_to_chance_but_keeps_the_order__D5() -> None:
    deck = Deck.for_deal(holes=["AsKs", "QdQh"], board="Td 8s 3c")
    _, board, burns = _deal(deck, 2)
    assert tuple(board[:3]) == parse_cards("Td 8s 3c")
    used = set(parse_cards("AsKs QdQh Td8s3c"))
    assert not (set(board[3:]) | set(burns)) & used
    assert sorted(int(c) for c in deck) == list(range(52))


@pytest.mark.parametrize(
    ("holes", "board"),
    [
        (["AsKs", "AsQh"], ""),  # a card twice across holes
        (["AsKs", "QdQh"], "As 8s 3c"),  # hole card on the board
        (["AsKs", "QdQh"], "Td Td 3c"),  # duplicate on the board
        (["AsKs", "Qd"], ""),  # one hole card only
        (["AsKsQc", "QdQh"], ""),  # three hole cards
        (["AsKs", "QdQh"], "2c 3c 4c 5c 6c 7c"),  # six board cards
    ],
)
def test_for_deal_bad_input(holes: list[str], board: str) -> None:
    with pytest.raises(CardError):
        Deck.for_deal(holes=holes, board=board)


# --- bad input -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "offending"),
    [
        ("1x", "1x"),
        ("Ax", "Ax"),
        ("As Ax", "Ax"),
        ("As Kd 1c", "1c"),
        ("Zs", "Zs"),
        ("A", "A"),
        ("11c", "11c"),
    ],
)
def test_malformed_card_text_names_it(text: str, offending: str) -> None:
    with pytest.raises(ParseError) as info:
        parse_cards(text)
    assert isinstance(info.value, ValueError)
    assert isinstance(info.value, FeltroError)
    assert offending in str(info.value)


@pytest.mark.parametrize("text", ["1x", "Ax", "As Kd", "", "Asx"])
def test_card_parse_wants_exactly_one_card(text: str) -> None:
    with pytest.raises(ParseError) as info:
        Card.parse(text)
    assert repr(text) in str(info.value)


@pytest.mark.parametrize(
    "cards",
    ["As As", "As Kd as", "A♠ As", ["As", 51], [51, 51], [Card.parse("As"), "A♠"]],
)
def test_duplicate_card_is_refused_and_named(cards: str | list[object]) -> None:
    with pytest.raises(CardError) as info:
        parse_cards(cards)  # type: ignore[arg-type]
    assert isinstance(info.value, ValueError)
    assert "As" in str(info.value)
    assert "duplicate" in str(info.value)


def test_duplicates_allowed_on_request() -> None:
    assert [int(c) for c in parse_cards("As As", allow_duplicates=True)] == [51, 51]


@pytest.mark.parametrize("bad_id", [52, -1, 100, 2**40])
def test_id_outside_range_is_refused_and_named(bad_id: int) -> None:
    for call in (lambda: parse_cards([bad_id]), lambda: parse_cards(bad_id),
                 lambda: Card.from_id(bad_id), lambda: Card(bad_id),
                 lambda: Deck([bad_id])):
        with pytest.raises(CardError) as info:
            call()
        assert isinstance(info.value, ValueError)
        assert str(bad_id) in str(info.value)


@pytest.mark.parametrize("item", [1.5, None, True, b"As", object()])
def test_non_card_items_are_refused(item: object) -> None:
    with pytest.raises(CardError) as info:
        parse_cards([item])  # type: ignore[list-item]
    assert isinstance(info.value, ValueError)
    assert repr(item) in str(info.value)


def test_bad_decks_are_refused() -> None:
    with pytest.raises(CardError):
        Deck.stacked("As As")
    with pytest.raises(ParseError):
        Deck.stacked("As 1x")
    with pytest.raises(CardError):
        Deck(["As", 51])


# --- one codec -----------------------------------------------------------------------------

_SPELLING_TABLES = ("23456789TJQKA", "cdhs", "♣♦♥♠")


def _card_tables(source: str) -> list[str]:
    """String constants (or tuples of strings) that spell ranks or suits: a card codec."""
    import ast

    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Constant) and node.value in _SPELLING_TABLES:
            found.append(f"line {node.lineno}: {node.value!r}")
        elif isinstance(node, ast.Tuple | ast.List) and node.elts and all(
                isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts):
            text = "".join(e.value for e in node.elts)  # type: ignore[attr-defined]
            if any(table in text for table in (*_SPELLING_TABLES, "10JQKA")):
                found.append(f"line {node.lineno}: {text!r}")
    return found


def test_cards_are_spelled_by_feltro_cards_only() -> None:
    from pathlib import Path

    src = Path(__file__).resolve().parents[1] / "src" / "feltro"
    found = {str(path.relative_to(src)): _card_tables(path.read_text(encoding="utf-8"))
             for path in src.rglob("*.py") if path.name != "cards.py"}
    assert {name: tables for name, tables in found.items() if tables} == {}
    assert _card_tables((src / "cards.py").read_text(encoding="utf-8"))  # it is seen there


def test_the_codec_check_sees_a_second_codec() -> None:
    # The codecs this replaced: the fairness module's and the terminal's own tables.
    assert _card_tables('_RANKS = "23456789TJQKA"\n_SUITS = "cdhs"\n') != []
    assert _card_tables('_RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", '
                        '"K", "A")\n_SUITS = ("♣", "♦", "♥", "♠")\n') != []


def test_exact_card_reads_only_the_two_character_spelling() -> None:
    for card_id in range(52):
        assert exact_card(CARD_TEXT[card_id]) is Card.from_id(card_id)
    assert [exact_card(t) for t in ("as", "10s", "A♠", "As ", "", "??")] == [None] * 6
