"""Dealing by hand, for a hand started without a deck (PHH replay, a physical table).

:class:`DealingMixin` gives :class:`~feltro.hand.Hand` its :meth:`~DealingMixin.deal_hole`
and :meth:`~DealingMixin.deal_board`; unknown cards (PHH ``??``) are ``None``.
"""

from __future__ import annotations

from collections.abc import Sequence

from feltro.cards import Card, CardsLike
from feltro.errors import CardError, IllegalActionError, Refusal
from feltro.events import STREETS, BoardDealt, Event, HoleCardDealt
from feltro.handstate import BOARD, BOARD_SIZES, DEALING, OVER, HandState, read_cards
from feltro.legal import seat_name

__all__ = ["DealingMixin"]


class DealingMixin(HandState):
    """The dealing part of :class:`~feltro.hand.Hand`."""

    __slots__ = ()


    def deal_hole(self, position: int, cards: CardsLike | Sequence[Card | int | str | None] | None
                  = None) -> tuple[Event, ...]:
        """Deal private cards to *position* (a hand started without a deck).

        *cards* may be one or two cards; ``None`` (or ``None`` items) are unknown cards, as
        PHH ``????``: ``None`` alone deals all the cards *position* still lacks.

        :raises IllegalActionError: if the hand deals itself or hole cards are done.
        :raises CardError: for a card already dealt, or more than two cards.
        """
        self._check_position(position)
        if self._deck is not None:
            raise IllegalActionError(Refusal("D4", "deals-itself", {}),
                                     "this hand deals from its own deck")
        if self._phase != DEALING:
            raise IllegalActionError(Refusal("D4", "hole-dealt", {}),
                                     "the hole cards are already dealt")
        held = self._holes[position]
        if cards is None:
            new: list[Card | None] = [None] * (2 - len(held))
        else:
            new = _parse_maybe_cards(cards)
        if len(held) + len(new) > 2:
            raise CardError(f"{seat_name(position)} would hold {len(held) + len(new)} "
                            f"private cards; each player gets two", rule="D4")
        self._check_unseen([c for c in new if c is not None])
        mark = len(self._events)
        for card in new:
            held.append(card)
            self._events.append(HoleCardDealt(position, card))
        if all(len(h) == 2 for h in self._holes):
            self._begin_preflop(self._config._plan.first_preflop)
        return tuple(self._events[mark:])

    def deal_board(self, cards: CardsLike) -> tuple[Event, ...]:
        """Deal the next community cards (a hand started without a deck): 3, then 1, then 1.

        :raises IllegalActionError: if a betting round is still going or the hand deals itself.
        :raises CardError: for a wrong number of cards or a card already dealt.
        """
        if self._deck is not None:
            raise IllegalActionError(Refusal("D5", "deals-itself", {}),
                                     "this hand deals from its own deck")
        if self._phase != BOARD:
            reason, what = (("hand-over", "the hand is over") if self._phase == OVER else
                            ("board-complete", "the board is complete") if len(self._board) == 5
                            else ("betting-not-over", "the betting round is not over"))
            raise IllegalActionError(Refusal("D5", reason, {}), f"no board cards now: {what}")
        new = read_cards(cards)
        size = BOARD_SIZES[self._street]
        if len(new) != size:
            raise CardError(f"the {STREETS[self._street].value} is {size} card"
                            f"{'s' if size > 1 else ''}, got {len(new)}", rule="D5")
        self._check_unseen(new)
        mark = len(self._events)
        self._board.extend(new)
        self._events.append(BoardDealt(STREETS[self._street], new))
        self._after_board()
        return tuple(self._events[mark:])



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
