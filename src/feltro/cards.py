"""Ranks, suits, cards and decks.

A card *is* its id: :class:`Card` subclasses :class:`int` with ``id = rank * 4 + suit``
(ranks 2..A = 0..12, suits c, d, h, s = 0..3), so card objects index lookup tables, hash
and compare at C speed, and the 52 instances are shared.

>>> Card.parse("As"), Card.parse("10d"), Card.parse("k♥")
(Card('As'), Card('Td'), Card('Kh'))
>>> int(Card.parse("As")), Card.parse("As").symbol
(51, 'A♠')
>>> parse_cards("AsKd 7c")
(Card('As'), Card('Kd'), Card('7c'))
"""

from __future__ import annotations

import operator
import re
from collections.abc import Iterable, Iterator, Sequence
from enum import IntEnum
from typing import TYPE_CHECKING, TypeAlias, overload

from feltro.errors import CardError, ParseError

if TYPE_CHECKING:
    import random

__all__ = [
    "CARD_TEXT",
    "RANK_CHARS",
    "RANK_LABELS",
    "SUIT_CHARS",
    "SUIT_SYMBOLS",
    "Card",
    "CardsLike",
    "Deck",
    "Rank",
    "Suit",
    "card_ids",
    "exact_card",
    "format_cards",
    "parse_cards",
]


class Rank(IntEnum):
    """Card ranks, deuce low. The value is the rank index used in card ids."""

    TWO = 0
    THREE = 1
    FOUR = 2
    FIVE = 3
    SIX = 4
    SEVEN = 5
    EIGHT = 6
    NINE = 7
    TEN = 8
    JACK = 9
    QUEEN = 10
    KING = 11
    ACE = 12

    @property
    def char(self) -> str:
        """The one-character spelling (``'T'`` for ten)."""
        return RANK_CHARS[self]


class Suit(IntEnum):
    """Card suits in id order: clubs, diamonds, hearts, spades. Suits never rank hands (P6)."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def char(self) -> str:
        """The ASCII letter (``'s'``)."""
        return SUIT_CHARS[self]

    @property
    def symbol(self) -> str:
        """The suit symbol (``'♠'``)."""
        return SUIT_SYMBOLS[self]


# The one card codec of feltro: every file format, log and screen spells cards from these.
RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "cdhs"
SUIT_SYMBOLS = "♣♦♥♠"
RANK_LABELS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
"""Ranks as people read them on a screen: tens are ``"10"`` (``"T"`` is the typed notation)."""
CARD_TEXT: tuple[str, ...] = tuple(r + s for r in RANK_CHARS for s in SUIT_CHARS)
"""The two-character spelling of each card id, ``CARD_TEXT[51] == "As"``."""

_RANK_OF = {ch: i for i, ch in enumerate(RANK_CHARS)} | {"10": 8}
_SUIT_OF = {ch: i for i, ch in enumerate(SUIT_CHARS)} | {
    sym: i for i, sym in enumerate(SUIT_SYMBOLS)
} | {sym: i for i, sym in enumerate("♧♢♡♤")}

# One card: a rank (10 or one character), then a suit letter or symbol.
_CARD_RE = re.compile(r"(10|[2-9TJQKA])([cdhs♣♦♥♠♧♢♡♤])", re.IGNORECASE)
_SEPARATORS = re.compile(r"[\s,;]*")


class Card(int):
    """A playing card; its integer value is its id (``rank * 4 + suit``)."""

    __slots__ = ()

    def __new__(cls, card: int | str) -> Card:
        """``Card(51)`` or ``Card('As')``: the shared instance (so ``repr`` round-trips).

        :raises CardError: for an id outside 0..51; :raises ParseError: for bad text.
        """
        if isinstance(card, str):
            return Card.parse(card)
        return _to_card(card)

    @classmethod
    def _make(cls, card_id: int) -> Card:
        return int.__new__(cls, card_id)

    @classmethod
    def from_id(cls, card_id: int) -> Card:
        """The card with this id.

        :raises CardError: if *card_id* is not an integer in 0..51.
        """
        return _to_card(card_id)

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse exactly one card: ``"As"``, ``"td"``, ``"10d"``, ``"A♠"``.

        :raises ParseError: if *text* is not exactly one card.
        """
        match = _CARD_RE.fullmatch(text.strip())
        if match is None:
            raise ParseError(f"not a card: {text!r} (write a rank 2-9, T/10, J, Q, K, A "
                             f"and a suit c, d, h, s or ♣ ♦ ♥ ♠, e.g. 'As')",
                             reason="not-a-card", params={"text": text})
        return _card_from_match(match)

    @property
    def id(self) -> int:
        """The card id, ``rank * 4 + suit``."""
        return int(self)

    @property
    def rank(self) -> Rank:
        """The card's rank."""
        return Rank(self >> 2)

    @property
    def suit(self) -> Suit:
        """The card's suit."""
        return Suit(self & 3)

    @property
    def symbol(self) -> str:
        """The card with its suit symbol, e.g. ``'T♦'``."""
        return RANK_CHARS[self >> 2] + SUIT_SYMBOLS[self & 3]

    def __str__(self) -> str:
        return CARD_TEXT[self]

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    def __format__(self, spec: str) -> str:
        return str(self) if not spec else format(str(self), spec)

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:
        return (Card, (int(self),))


_CARDS: tuple[Card, ...] = tuple(Card._make(i) for i in range(52))
_EXACT: dict[str, Card] = {text: _CARDS[i] for i, text in enumerate(CARD_TEXT)}


def exact_card(text: str) -> Card | None:
    """The card spelled exactly *text* (``"As"``: rank character, then suit letter), or
    ``None``. File formats (PHH, the fairness export) read cards this strictly; typed input
    goes through the lenient :meth:`Card.parse`.

    >>> exact_card("Td"), exact_card("10d"), exact_card("as")
    (Card('Td'), None, None)
    """
    return _EXACT.get(text)


def _card_from_match(match: re.Match[str]) -> Card:
    rank_text, suit_text = match.group(1), match.group(2)
    return _CARDS[_RANK_OF[rank_text.upper()] * 4 + _SUIT_OF[suit_text.lower()]]


CardsLike: TypeAlias = "str | Card | int | Iterable[Card | int | str]"
"""What functions taking cards accept: a string of cards, one card or id, or an iterable."""


def _parse_card_text(text: str) -> list[Card]:
    cards: list[Card] = []
    pos = 0
    end = len(text)
    while True:
        sep = _SEPARATORS.match(text, pos)
        pos = sep.end() if sep else pos
        if pos >= end:
            return cards
        match = _CARD_RE.match(text, pos)
        if match is None:
            bad = text[pos:].split()[0] if text[pos:].split() else text[pos:]
            raise ParseError(f"not a card: {bad[:12]!r} in {text!r}", reason="not-a-card",
                             params={"text": bad[:12]})
        cards.append(_card_from_match(match))
        pos = match.end()


def parse_cards(cards: CardsLike, *, allow_duplicates: bool = False) -> tuple[Card, ...]:
    """Turn anything card-like into a tuple of :class:`Card`.

    Accepts ``"As Kd"``, ``"AsKd"``, ``"A♠ 10♣"``, a :class:`Card`, an id, or an iterable of
    cards, ids or card strings.

    :raises ParseError: for text that is not cards.
    :raises CardError: for ids outside 0..51 or (unless *allow_duplicates*) a repeated card.
    """
    result: list[Card]
    if isinstance(cards, str):
        result = _parse_card_text(cards)
    elif isinstance(cards, int):
        result = [_to_card(cards)]
    else:
        result = []
        for item in cards:
            if isinstance(item, str):
                result.extend(_parse_card_text(item))
            else:
                result.append(_to_card(item))
    if not allow_duplicates and len(set(result)) != len(result):
        seen: set[Card] = set()
        dupes = [c for c in result if c in seen or seen.add(c)]  # type: ignore[func-returns-value]
        raise CardError(f"duplicate card {dupes[0]} in {' '.join(map(str, result))}",
                        reason="duplicate", params={"card": str(dupes[0])})
    return tuple(result)


def _to_card(item: object) -> Card:
    if type(item) is Card:
        return item
    if isinstance(item, bool) or not hasattr(item, "__index__"):
        raise CardError(f"not a card or card id: {item!r}", reason="not-a-card",
                        params={"text": repr(item)})
    card_id = operator.index(item)  # ints, and integer types such as numpy's
    if not 0 <= card_id <= 51:
        raise CardError(f"card id {item!r} is outside 0..51")
    return _CARDS[card_id]


def card_ids(cards: CardsLike) -> tuple[int, ...]:
    """The ids of card-like input, validated (see :func:`parse_cards`)."""
    return tuple(int(c) for c in parse_cards(cards))


def format_cards(cards: Iterable[int], *, symbols: bool = False) -> str:
    """Cards as text, ``'As Kd'`` (or ``'A♠ K♦'`` with *symbols*)."""
    if symbols:
        return " ".join(_CARDS[c].symbol for c in cards)
    return " ".join(str(_CARDS[c]) for c in cards)


class Deck(Sequence[Card]):
    """An ordered deck: a value, not a source of randomness.

    Dealing takes cards from the front. :meth:`shuffled` needs an explicit
    :class:`random.Random` (never the global one); :meth:`stacked` builds a deck whose first
    cards are given, for tests and replays.
    """

    __slots__ = ("_cards",)

    def __init__(self, cards: Iterable[Card | int | str] = ()) -> None:
        parsed = parse_cards(list(cards))
        self._cards: tuple[Card, ...] = parsed

    @classmethod
    def standard(cls) -> Deck:
        """The 52 cards in id order (2c 2d 2h 2s 3c ... As)."""
        return cls(_CARDS)

    @classmethod
    def shuffled(cls, rng: random.Random) -> Deck:
        """A full deck shuffled by *rng* (D1: a fresh full deck each hand).

        Use ``random.Random(seed)`` for reproducible deals and ``random.SystemRandom()`` for
        real play.
        """
        import random  # here, not at import time: `import feltro` stays fast

        if not isinstance(rng, random.Random):
            raise TypeError("Deck.shuffled needs a random.Random instance, not the global RNG")
        cards = list(_CARDS)
        rng.shuffle(cards)
        return cls(cards)

    @classmethod
    def stacked(cls, cards: CardsLike, *, fill: bool = True) -> Deck:
        """A deck that starts with *cards* in order; the rest follow in id order if *fill*."""
        top = parse_cards(cards)
        if not fill:
            return cls(top)
        used = set(top)
        return cls(top + tuple(c for c in _CARDS if c not in used))

    @classmethod
    def for_deal(
        cls,
        holes: Sequence[CardsLike],
        board: CardsLike = (),
    ) -> Deck:
        """A deck that deals *holes* (one entry per player, in deal order) and *board*.

        The order follows D4 and D5: first cards to each player from the first position, then
        second cards, then burn, flop (3), burn, turn, burn, river. Burns and any cards not given
        come from the unused cards in id order.
        """
        hole_cards = [parse_cards(h) for h in holes]
        board_cards = parse_cards(board)
        given = [c for h in hole_cards for c in h] + list(board_cards)
        if len(set(given)) != len(given):
            raise CardError(f"a card is dealt twice: {format_cards(given)}")
        if any(len(h) != 2 for h in hole_cards):
            raise CardError("each player needs exactly two hole cards")
        if len(board_cards) > 5:
            raise CardError(f"a board has at most 5 cards, got {len(board_cards)}")
        spare = iter([c for c in _CARDS if c not in set(given)])
        order: list[Card] = [h[0] for h in hole_cards] + [h[1] for h in hole_cards]
        for street, size in ((0, 3), (3, 1), (4, 1)):
            order.append(next(spare))  # burn
            chunk = board_cards[street:street + size]
            order.extend(chunk)
            order.extend(next(spare) for _ in range(size - len(chunk)))
        order.extend(spare)
        return cls(order)

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards, top first."""
        return self._cards

    @overload
    def __getitem__(self, index: int) -> Card: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[Card, ...]: ...
    def __getitem__(self, index: int | slice) -> Card | tuple[Card, ...]:
        return self._cards[index]

    def __len__(self) -> int:
        return len(self._cards)

    def __iter__(self) -> Iterator[Card]:
        return iter(self._cards)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Deck) and self._cards == other._cards

    def __hash__(self) -> int:
        return hash(self._cards)

    def __repr__(self) -> str:
        if len(self._cards) > 8:
            head = " ".join(map(str, self._cards[:8]))
            return f"<Deck {len(self._cards)} cards: {head} ...>"
        return f"Deck({' '.join(map(str, self._cards))!r})"
