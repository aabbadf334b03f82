"""Dealing: a hand's own deck checked, or dealing by hand for a hand started without a deck
(PHH replay, a physical table).

:func:`deal_hole` and :func:`deal_board` are plain functions over a
:class:`~feltro.handstate.HandState` behind :class:`~feltro.hand.Hand`'s methods of the same
names: they check and record the cards and never call back into the hand, which then goes on
(starts the betting, or the next street). Unknown cards (PHH ``??``) are ``None``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from feltro.cards import Card, CardsLike, Deck
from feltro.errors import CardError, IllegalActionError, Refusal
from feltro.events import STREETS, BoardDealt, HoleCardDealt
from feltro.handstate import BOARD, BOARD_SIZES, DEALING, OVER, HandState, read_cards
from feltro.legal import seat_name

__all__ = ["checked_deck", "deal_board", "deal_hole"]

_CARD: Final = tuple(Card.from_id(i) for i in range(52))


def checked_deck(deck: Deck | Sequence[int], needed: int) -> Sequence[Card]:
    """The cards of a hand's own *deck*, which must hold *needed* distinct card ids (D1).

    :raises CardError: for too few cards, an id outside 0..51 or a repeated card.
    """
    if len(deck) < needed:
        raise CardError(f"the deck has {len(deck)} cards; this hand may need {needed}")
    if isinstance(deck, Deck):
        cards: Sequence[Card] = deck.cards
    else:
        try:
            if min(deck) < 0:
                raise IndexError
            cards = [_CARD[c] for c in deck]
        except (IndexError, TypeError):
            bad = next(c for c in deck if type(c) is not int or not 0 <= c <= 51)
            raise CardError(f"not a card id (0..51): {bad!r}") from None
        if len(set(cards)) != len(cards):
            raise CardError("the deck has a repeated card", rule="D1")
    return cards


def deal_hole(state: HandState, position: int,
              cards: CardsLike | Sequence[Card | int | str | None] | None = None) -> bool:
    """Deal private cards to *position* (a hand started without a deck).

    *cards* may be one or two cards; ``None`` (or ``None`` items) are unknown cards, as
    PHH ``????``: ``None`` alone deals all the cards *position* still lacks.

    Returns whether every hole card is now dealt (the caller then starts the betting).

    :raises IllegalActionError: if the hand deals itself or hole cards are done.
    :raises CardError: for a card already dealt, or more than two cards.
    """
    state.check_position(position)
    if state.deck is not None:
        raise IllegalActionError(Refusal("D4", "deals-itself", {}),
                                 "this hand deals from its own deck")
    if state.phase != DEALING:
        raise IllegalActionError(Refusal("D4", "hole-dealt", {}),
                                 "the hole cards are already dealt")
    held = state.holes[position]
    if cards is None:
        new: list[Card | None] = [None] * (2 - len(held))
    else:
        new = _parse_maybe_cards(cards)
    if len(held) + len(new) > 2:
        raise CardError(f"{seat_name(position)} would hold {len(held) + len(new)} "
                        f"private cards; each player gets two", rule="D4")
    state.check_unseen([c for c in new if c is not None])
    for card in new:
        held.append(card)
        state.events.append(HoleCardDealt(position, card))
    return all(len(h) == 2 for h in state.holes)


def deal_board(state: HandState, cards: CardsLike) -> None:
    """Deal the next community cards (a hand started without a deck): 3, then 1, then 1.

    The caller goes on from the new street (betting, or the next cards of a run-out).

    :raises IllegalActionError: if a betting round is still going or the hand deals itself.
    :raises CardError: for a wrong number of cards or a card already dealt.
    """
    if state.deck is not None:
        raise IllegalActionError(Refusal("D5", "deals-itself", {}),
                                 "this hand deals from its own deck")
    if state.phase != BOARD:
        reason, what = (("hand-over", "the hand is over") if state.phase == OVER else
                        ("board-complete", "the board is complete") if len(state.board) == 5
                        else ("betting-not-over", "the betting round is not over"))
        raise IllegalActionError(Refusal("D5", reason, {}), f"no board cards now: {what}")
    new = read_cards(cards)
    size = BOARD_SIZES[state.street]
    if len(new) != size:
        raise CardError(f"the {STREETS[state.street].value} is {size} card"
                        f"{'s' if size > 1 else ''}, got {len(new)}", rule="D5")
    state.check_unseen(new)
    state.board.extend(new)
    state.events.append(BoardDealt(STREETS[state.street], new))


def _parse_maybe_cards(cards: object) -> list[Card | None]:
    if isinstance(cards, str):
        text = cards.strip()
        if text and set(text) <= {"?"}:
            if len(text) % 2:
                raise CardError(f"unknown cards are written '??' each, not {cards!r}")
            return [None] * (len(text) // 2)
        return list(read_cards(text))
    if isinstance(cards, int):
        return list(read_cards(cards))
    out: list[Card | None] = []
    for item in cards:  # type: ignore[attr-defined]
        if item is None:
            out.append(None)
        else:
            out.extend(read_cards(item))
    return out
