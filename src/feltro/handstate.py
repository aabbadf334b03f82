"""The state a :class:`~feltro.hand.Hand` keeps: plain lists of ints, in slots.

Split from :mod:`feltro.hand` so that dealing (:mod:`feltro.dealing`) and the showdown
(:mod:`feltro.showdown`) can live in their own modules as mixins over the same state.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Final

from feltro.cards import Card, parse_cards
from feltro.config import HandConfig
from feltro.errors import CardError, IllegalActionError, ParseError, Refusal
from feltro.events import Event
from feltro.pots import Pot, build_pots

if TYPE_CHECKING:
    from feltro.showdown import HandResult

__all__ = ["HandState"]

# Phases of a hand.
DEALING: Final = 0   # manual deal: waiting for hole cards
BETTING: Final = 1   # somebody is to act
BOARD: Final = 2     # manual deal: waiting for the next board cards
SHOWDOWN: Final = 3  # board complete, betting over: waiting for shows / mucks
OVER: Final = 4

BOARD_SIZES: Final = (0, 3, 1, 1)  # cards dealt when each street begins (D5)


def read_cards(cards: object) -> tuple[Card, ...]:
    """Cards from text, cards or ids, with D1 named when they are not 52-card-deck cards.

    :raises ParseError: for text that names no card.
    :raises CardError: for an id outside 0..51 or a card repeated within *cards*.
    """
    try:
        return parse_cards(cards)  # type: ignore[arg-type]
    except ParseError as exc:
        raise ParseError(f"D1: {exc}") from None
    except CardError as exc:
        raise CardError(str(exc), rule="D1") from None


class HandState:
    """The slots of a hand and the helpers every part of the engine shares."""

    __slots__ = (
        "_acted_at",
        "_active",
        "_aggressor",
        "_antes",
        "_auto_showdown",
        "_bets",
        "_board",
        "_burned",
        "_committed",
        "_config",
        "_deck",
        "_events",
        "_folded",
        "_full_inc",
        "_holes",
        "_live",
        "_muck_losers",
        "_muck_order",
        "_mucked",
        "_n",
        "_n_bets",
        "_next_card",
        "_phase",
        "_plan_min_bet",
        "_pots_cache",
        "_result",
        "_returned",
        "_river_aggressor",
        "_runout",
        "_shown",
        "_stacks",
        "_street",
        "_strength_cache",
        "_structure",
        "_to_act",
        "_to_match",
    )

    _acted_at: list[int]
    _active: int
    _aggressor: int
    _antes: list[int]
    _auto_showdown: bool
    _bets: list[int]
    _board: list[Card]
    _burned: list[Card]
    _committed: list[int]
    _config: HandConfig
    _deck: Sequence[Card] | None
    _events: list[Event]
    _folded: list[bool]
    _full_inc: int
    _holes: list[list[Card | None]]
    _live: int
    _muck_losers: bool
    _muck_order: list[int]
    _mucked: list[bool]
    _n: int
    _n_bets: int
    _next_card: int
    _pots_cache: list[Pot] | None
    _phase: int
    _plan_min_bet: int
    _result: HandResult | None
    _returned: list[int]
    _river_aggressor: int
    _runout: bool
    _shown: list[tuple[Card, ...] | None]
    _stacks: list[int]
    _strength_cache: list[int | None] | None
    _street: int
    _structure: int
    _to_act: int | None
    _to_match: int


    def _check_position(self, position: object) -> int:
        if isinstance(position, bool) or not isinstance(position, int) or not (
                0 <= position < self._n):
            params = {"players": self._n}
            if isinstance(position, int) and not isinstance(position, bool):
                params["position"] = position
            raise IllegalActionError(Refusal("G1", "no-such-position", params),
                                     f"there is no position {position!r} in this hand: "
                                     f"positions are 0..{self._n - 1}")
        return position

    def _build_pots(self) -> list[Pot]:
        if self._config.ante_trimming:
            return build_pots(self._committed, self._folded)
        antes = self._antes
        contributions = [c - a for c, a in zip(self._committed, antes, strict=True)]
        return build_pots(contributions, self._folded, sum(antes))

    def _check_unseen(self, cards: Iterable[Card]) -> None:
        seen = {c for h in self._holes for c in h if c is not None}
        seen.update(self._board)
        for c in cards:
            if c in seen:
                raise CardError(f"{c} is already dealt (a deck has each card once)",
                                rule="D1")
            seen.add(c)

    if TYPE_CHECKING:
        # Implemented by Hand; declared here only so that the mixins type-check their calls.

        def _begin_preflop(self, first: int) -> None: ...

        def _after_board(self) -> None: ...
