"""Exact hand evaluation for 5, 6 and 7 cards (P3-P6).

>>> v = evaluate("As Ks Qs Js Ts 2d 3c")
>>> v.category, str(v)
(<Category.STRAIGHT_FLUSH: 9>, 'Royal flush')
>>> v.best_five
(Card('As'), Card('Ks'), Card('Qs'), Card('Js'), Card('Ts'))
>>> evaluate("9s 8d 7h 6c 5s Kd 2c").describe("pt-PT")
'Sequência ao 9'
>>> evaluate("2h 2s AcKdQhJsTc") == evaluate("9d 9c AcKdQhJsTc")  # X1: both play the board
True

Strength is one integer per hand class, 1 (7-5-4-3-2) to 7462 (royal flush); see
:mod:`feltro._evaltables` for how it is looked up. :func:`hand_strength` is the engine's
unvalidated fast path; :func:`evaluate` validates and returns a :class:`HandValue`.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from collections.abc import Iterable, Sequence
from enum import IntEnum
from functools import cache
from itertools import combinations
from typing import Any, Final, cast

from feltro import _evaltables
from feltro.cards import Card, CardsLike, parse_cards
from feltro.errors import CardError
from feltro.names import CATEGORY_NAMES, check_language, describe_class

__all__ = ["Category", "HandValue", "evaluate", "evaluate_many", "hand_strength", "nuts"]


class Category(IntEnum):
    """The nine hand categories of P4, weakest first. The royal flush is the top straight flush."""

    HIGH_CARD = 1
    ONE_PAIR = 2
    TWO_PAIR = 3
    THREE_OF_A_KIND = 4
    STRAIGHT = 5
    FLUSH = 6
    FULL_HOUSE = 7
    FOUR_OF_A_KIND = 8
    STRAIGHT_FLUSH = 9

    def describe(self, lang: str = "en") -> str:
        """The category's name, e.g. ``'Full house'``."""
        return CATEGORY_NAMES[check_language(lang)][self - 1]


# Strength of the weakest hand of each category (a category's classes are contiguous).
_CATEGORY_FLOORS: Final = tuple(
    1 + sum(_evaltables.CATEGORY_SIZES[:i]) for i in range(len(_evaltables.CATEGORY_SIZES))
)

# Card id -> additive key A plus the card's own bit above it, which catches duplicates: the
# bits of n distinct cards add up to n set bits, a repeated card to fewer. A list (fast to
# index) padded with 52 zero keys, so that ids -52..-1 and 52..103 add no bit and fail that
# check instead of wrapping around; anything else raises IndexError or TypeError.
_ID_SHIFT: Final = 44
_KEY: Final[list[int]] = [_evaltables.key_a(c) | 1 << (_ID_SHIFT + c) for c in range(52)] + [0] * 52
_FALSE_BIT: Final = 1 << _ID_SHIFT  # the bits of ids 0 and 1
_TRUE_BIT: Final = 2 << _ID_SHIFT
_SUIT_COUNTS: Final = (1 << _evaltables.SUIT_FIELD_BITS) - 1
_SHIFT: Final = _evaltables.SUIT_FIELD_BITS
_RANK_FIELD: Final = (1 << (_ID_SHIFT - _SHIFT)) - 1
# Packed suit counts -> the suit holding five or more cards, or -1.
_FLUSH_SUIT: Final = [_evaltables.flush_suit_of_counts(s) for s in range(1 << _SHIFT)]

# Rank field -> strength of every non-flush 5-, 6- and 7-card rank multiset, and flush rank
# mask -> strength. Filled from the shipped tables on first use (a KeyError on the empty dict),
# so that ``import feltro`` stays fast.
_RANK_STRENGTH: Final[dict[int, int]] = {}
_FLUSH_STRENGTH: Final[list[int]] = []


def _load_tables() -> None:
    tables = _evaltables.load()
    for n in (5, 6, 7):
        _RANK_STRENGTH.update(zip(tables.rank_keys[n], tables.rank_values[n], strict=True))
    _FLUSH_STRENGTH[:] = tables.flush_values


def _rank_strength(field: int) -> int:
    """Slow path of the rank lookup: load the tables on first use."""
    if not _RANK_STRENGTH:
        _load_tables()
    return _RANK_STRENGTH[field]


def hand_strength(cards: Sequence[int]) -> int:
    """Strength of 5 to 7 distinct card ids; greater is stronger, equal is a tie.

    No validation: this is the engine's hot path. Use :func:`evaluate` for untrusted input.
    """
    key = 0
    for card in cards:
        key += _KEY[card]
    suit = _FLUSH_SUIT[key & _SUIT_COUNTS]
    if suit < 0:
        try:
            return _RANK_STRENGTH[key >> _SHIFT & _RANK_FIELD]
        except KeyError:
            return _rank_strength(key >> _SHIFT & _RANK_FIELD)
    return _flush_strength(cards, suit)


def _flush_strength(cards: Iterable[int], suit: int) -> int:
    mask = 0
    for card in cards:
        if card & 3 == suit:
            mask |= 1 << (card >> 2)
    if not _FLUSH_STRENGTH:
        _load_tables()
    return _FLUSH_STRENGTH[mask]


class HandValue:
    """The value of a hand: compares like hand strength (greater is stronger, equal ties).

    ``int(value)`` is the strength 1..7462. Category, best five cards and description are
    derived on demand.
    """

    __slots__ = ("_cards", "strength")

    strength: int
    _cards: Sequence[int]

    def __init__(self, strength: int, cards: Sequence[int]) -> None:
        self.strength = strength
        self._cards = cards

    @property
    def category(self) -> Category:
        """The hand's category (P4)."""
        return Category(bisect_right(_CATEGORY_FLOORS, self.strength))

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards that were evaluated."""
        return tuple(Card(c) for c in self._cards)

    @property
    def best_five(self) -> tuple[Card, ...]:
        """The five cards that make the hand, most significant first (P3)."""
        return _best_five(tuple(self._cards), self.strength)

    def describe(self, lang: str = "en") -> str:
        """The hand in words: ``'Straight, nine high'``, ``'Sequência ao 9'`` (pt-PT)."""
        category, ranks = _class_of(self.strength)
        return describe_class(category, ranks, lang)

    def kicker_over(self, other: HandValue) -> int | None:
        """The rank (0..12 for 2..A) of the kicker by which this hand beats *other*: both have
        the same named hand (``'Pair of aces'``) and only a side card decides; else ``None``.

        >>> evaluate("Ah Kd Ac 7s 5h 3c 2d").kicker_over(evaluate("As Qd Ac 7s 5h 3c 2d"))
        11
        >>> evaluate("Ah Ad 7s 5h 3c").kicker_over(evaluate("Kh Kd 7c 5s 3d")) is None
        True
        """
        mine, theirs = _class_of(self.strength), _class_of(other.strength)
        if self.strength <= other.strength or mine[0] != theirs[0]:
            return None
        named = _NAMED_RANKS.get(mine[0])
        if named is None or mine[1][:named] != theirs[1][:named]:
            return None
        return next((a for a, b in zip(mine[1][named:], theirs[1][named:], strict=False)
                     if a != b), None)

    def __int__(self) -> int:
        return self.strength

    def __index__(self) -> int:
        return self.strength

    def __eq__(self, other: object) -> bool:
        if isinstance(other, HandValue):
            return self.strength == other.strength
        return NotImplemented

    def __lt__(self, other: HandValue) -> bool:
        if isinstance(other, HandValue):
            return self.strength < other.strength
        return NotImplemented

    def __le__(self, other: HandValue) -> bool:
        if isinstance(other, HandValue):
            return self.strength <= other.strength
        return NotImplemented

    def __gt__(self, other: HandValue) -> bool:
        if isinstance(other, HandValue):
            return self.strength > other.strength
        return NotImplemented

    def __ge__(self, other: HandValue) -> bool:
        if isinstance(other, HandValue):
            return self.strength >= other.strength
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.strength)

    def __str__(self) -> str:
        return self.describe()

    def __repr__(self) -> str:
        return f"<HandValue {self.strength}: {self.describe()}>"


_new_value = object.__new__

# How many of a class's ranks its name gives, by category 0..8 (high card .. straight flush):
# the rest are kickers. Straights and full houses have none.
_NAMED_RANKS: dict[int, int] = {0: 1, 1: 1, 2: 2, 3: 1, 5: 1, 7: 1}


def evaluate(cards: CardsLike) -> HandValue:
    """Evaluate 5, 6 or 7 distinct cards: a string, cards, or card ids.

    :raises ParseError: for text that is not cards.
    :raises CardError: for a duplicate card, ids outside 0..51, or fewer than 5 / more than 7
        cards.
    """
    # Fast path: a list or tuple of ids (or Cards, which are ids); anything odd goes the slow,
    # validating way, which raises the precise error.
    kind = type(cards)
    if kind is not list and kind is not tuple:
        return _evaluate_slow(cards)
    ids = cast("Sequence[int]", cards)  # items are checked below: anything but an id raises
    count = len(ids)
    try:
        if count == 7:
            a, b, c, d, e, f, g = ids
            key = _KEY[a] + _KEY[b] + _KEY[c] + _KEY[d] + _KEY[e] + _KEY[f] + _KEY[g]
        else:
            key = 0
            for card in ids:
                key += _KEY[card]
    except (IndexError, TypeError):
        return _evaluate_slow(cards)
    if (key >> _ID_SHIFT).bit_count() != count or not 5 <= count <= 7:
        return _evaluate_slow(cards)
    # False and True index like ids 0 and 1 but are no cards (the ids are distinct here, so
    # index() finds the one item equal to 0 or 1).
    if key & _FALSE_BIT and type(ids[ids.index(0)]) is bool:
        return _evaluate_slow(cards)
    if key & _TRUE_BIT and type(ids[ids.index(1)]) is bool:
        return _evaluate_slow(cards)
    suit = _FLUSH_SUIT[key & _SUIT_COUNTS]
    value: HandValue = _new_value(HandValue)
    if suit < 0:
        try:
            value.strength = _RANK_STRENGTH[key >> _SHIFT & _RANK_FIELD]
        except KeyError:
            value.strength = _rank_strength(key >> _SHIFT & _RANK_FIELD)
    else:
        value.strength = _flush_strength(ids, suit)
    value._cards = ids
    return value


def _evaluate_slow(cards: CardsLike) -> HandValue:
    parsed = parse_cards(cards)  # raises ParseError / CardError naming the bad input
    if not 5 <= len(parsed) <= 7:
        raise CardError(
            f"a hand has 5 to 7 cards, got {len(parsed)}: {' '.join(map(str, parsed))}",
            reason="hand-size", params={"count": len(parsed)})
    return HandValue(hand_strength(parsed), parsed)


@cache
def _classes() -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Every hand class (category 0..8, tie-break ranks), weakest first: index + 1 = strength."""
    keys = {
        _evaltables.class_key(sorted(combo, reverse=True), flush)
        for flush in (False, True)
        for combo in (
            combinations(range(13), 5) if flush else _evaltables._multisets(5)
        )
    }
    return tuple(sorted(keys))


def _class_of(strength: int) -> tuple[int, tuple[int, ...]]:
    if not 1 <= strength <= len(_classes()):
        raise ValueError(f"hand strength must be 1..7462, got {strength}")
    return _classes()[strength - 1]


def _best_five(cards: tuple[int, ...], strength: int) -> tuple[Card, ...]:
    best = next(
        five for five in combinations(cards, 5) if hand_strength(five) == strength
    )
    counts = Counter(c >> 2 for c in best)
    category, ranks = _class_of(strength)
    if category in (4, 8) and ranks[0] == 3:  # the wheel: the ace plays low
        return tuple(Card(c) for c in sorted(best, key=lambda c: ((c >> 2) + 1) % 13, reverse=True))
    return tuple(
        Card(c) for c in sorted(best, key=lambda c: (counts[c >> 2], c >> 2, c & 3), reverse=True)
    )


def nuts(board: CardsLike) -> tuple[HandValue, tuple[tuple[Card, Card], ...]]:
    """The best possible hand on a board of 3 to 5 cards (X11) and every pair of hole cards
    that makes it.

    >>> value, holes = nuts("2c 3d 7h 8s Qc")
    >>> value.describe(), holes
    ('Three of a kind, queens', ((Card('Qs'), Card('Qh')), (Card('Qs'), Card('Qd')), \
(Card('Qh'), Card('Qd'))))

    :raises CardError: for a board that is not 3 to 5 distinct cards.
    """
    cards = parse_cards(board)
    if not 3 <= len(cards) <= 5:
        raise CardError(f"a board has 3 to 5 cards, got {len(cards)}")
    used = set(cards)
    rest = [c for c in range(51, -1, -1) if c not in used]
    best = 0
    holders: list[tuple[Card, Card]] = []
    for first, second in combinations(rest, 2):
        strength = hand_strength((*cards, first, second))
        if strength > best:
            best, holders = strength, []
        if strength == best:
            holders.append((Card(first), Card(second)))
    return HandValue(best, (*cards, *holders[0])), tuple(holders)


def evaluate_many(ids: Any) -> Any:
    """Strengths of an (N, 5..7) integer array of card ids, as an int32 numpy array.

    Same order and ties as :func:`evaluate`; needs numpy (the ``fast`` extra). See
    :func:`feltro.evaluator_np.evaluate_many`.
    """
    from feltro.evaluator_np import evaluate_many as vector_evaluate

    return vector_evaluate(ids)
