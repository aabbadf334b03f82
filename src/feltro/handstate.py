"""The state of one hand, as the engine's modules share it: :class:`HandState`.

:class:`~feltro.hand.Hand` is the public face of a hand; what it knows lives in one
``HandState`` (plain lists of ints in slots), the explicit object that the engine's plain
functions work on: :mod:`feltro.betting` (forced bets, legal actions, acting, rounds and
streets), :mod:`feltro.dealing` (dealing by hand) and :mod:`feltro.showdown` (shows, mucks,
pots). Calls go one way: ``Hand`` calls those functions, they change the state and never call
back into the hand.

Code outside the engine reads a hand through :class:`~feltro.hand.Hand`'s properties, or,
where a copy per read costs too much (the learning environments), through
:attr:`Hand.state <feltro.hand.Hand.state>` typed as :class:`HandReading`: the live state,
read-only.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Final, Protocol

from feltro.cards import Card, parse_cards
from feltro.config import HandConfig
from feltro.errors import CardError, IllegalActionError, ParseError, Refusal
from feltro.events import Event
from feltro.pots import Pot, build_pots

if TYPE_CHECKING:
    from feltro.showdown import HandResult

__all__ = ["BETTING", "BOARD", "BOARD_SIZES", "DEALING", "OVER", "SHOWDOWN", "HandReading",
           "HandState", "read_cards"]

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


class HandReading(Protocol):
    """The live state of a hand, read-only: what the learning environments read on every
    decision without a copy (positions 0-based; lists indexed by position)."""

    @property
    def n(self) -> int:
        """The number of positions."""

    @property
    def phase(self) -> int:
        """``DEALING``, ``BETTING``, ``BOARD``, ``SHOWDOWN`` or ``OVER``."""

    @property
    def street(self) -> int:
        """0 preflop .. 3 river, 4 showdown (an index into :data:`feltro.events.STREETS`)."""

    @property
    def to_act(self) -> int | None:
        """The position to act, if any."""

    @property
    def to_match(self) -> int:
        """The total to match in this street (preflop at least the big blind, D10)."""

    @property
    def stacks(self) -> Sequence[int]:
        """Chips behind."""

    @property
    def bets(self) -> Sequence[int]:
        """Chips bet in this street."""

    @property
    def committed(self) -> Sequence[int]:
        """Chips put in during the whole hand."""

    @property
    def folded(self) -> Sequence[bool]:
        """Whether each position has folded."""

    @property
    def holes(self) -> Sequence[Sequence[Card | None]]:
        """The private cards dealt (``None`` for an unknown card): the whole truth."""

    @property
    def board(self) -> Sequence[Card]:
        """The community cards dealt so far."""

    @property
    def events(self) -> Sequence[Event]:
        """Everything that happened, in order."""


class HandState:
    """Everything one hand knows (see the module docstring); every field is the engine's."""

    __slots__ = (
        "acted_at",
        "active",
        "aggressor",
        "antes",
        "auto_showdown",
        "bets",
        "board",
        "burned",
        "committed",
        "config",
        "deck",
        "events",
        "folded",
        "full_inc",
        "holes",
        "live",
        "min_bet",
        "muck_order",
        "mucked",
        "n",
        "n_bets",
        "next_card",
        "phase",
        "pots_cache",
        "result",
        "returned",
        "river_aggressor",
        "runout",
        "show_losers",
        "shown",
        "stacks",
        "street",
        "strength_cache",
        "structure",
        "to_act",
        "to_match",
    )

    acted_at: list[int]
    """The bet each position last acted at in this street (-1: not yet), for B8."""
    active: int
    """Positions not folded with chips behind."""
    aggressor: int
    """The last position to bet or raise in this street (-1: none)."""
    antes: list[int]
    auto_showdown: bool
    bets: list[int]
    board: list[Card]
    burned: list[Card]
    committed: list[int]
    config: HandConfig
    deck: Sequence[Card] | None
    """The hand's own deck, or ``None`` when the caller deals."""
    events: list[Event]
    folded: list[bool]
    full_inc: int
    """The last full bet or raise increment of this street (B6, B8)."""
    holes: list[list[Card | None]]
    live: int
    """Positions not folded."""
    min_bet: int
    muck_order: list[int]
    mucked: list[bool]
    n: int
    n_bets: int
    """Bets and full raises this street (the fixed-limit cap, B10)."""
    next_card: int
    pots_cache: list[Pot] | None
    phase: int
    result: HandResult | None
    returned: list[int]
    river_aggressor: int
    runout: bool
    """Nobody can bet any more: the hands are tabled and the board completed (P2)."""
    show_losers: frozenset[int]
    """Positions that show at the showdown even a hand that cannot win (P8, D11)."""
    shown: list[tuple[Card, ...] | None]
    stacks: list[int]
    strength_cache: list[int | None] | None
    street: int
    structure: int
    to_act: int | None
    to_match: int

    def copy(self) -> HandState:
        """An independent copy (events and cards are shared: they are immutable)."""
        other = HandState.__new__(HandState)
        for name in HandState.__slots__:
            value = getattr(self, name)
            if type(value) is list:
                value = [list(v) if type(v) is list else v for v in value]
            setattr(other, name, value)
        return other

    def check_position(self, position: object) -> int:
        """*position* if it is one of this hand's, else the G1 refusal."""
        if isinstance(position, bool) or not isinstance(position, int) or not (
                0 <= position < self.n):
            params = {"players": self.n}
            if isinstance(position, int) and not isinstance(position, bool):
                params["position"] = position
            raise IllegalActionError(Refusal("G1", "no-such-position", params),
                                     f"there is no position {position!r} in this hand: "
                                     f"positions are 0..{self.n - 1}")
        return position

    def all_in(self) -> tuple[bool, ...]:
        """Whether each position still in the hand has no chips behind."""
        return tuple(not f and s == 0 for f, s in zip(self.folded, self.stacks, strict=True))

    def shown_cards(self) -> dict[int, tuple[Card, ...]]:
        """The cards shown so far, by position."""
        return {p: c for p, c in enumerate(self.shown) if c is not None}

    def build_pots(self) -> list[Pot]:
        """The pots as the contributions stand now (P1; antes dead money without trimming)."""
        if self.config.ante_trimming:
            return build_pots(self.committed, self.folded)
        antes = self.antes
        contributions = [c - a for c, a in zip(self.committed, antes, strict=True)]
        return build_pots(contributions, self.folded, sum(antes))

    def check_unseen(self, cards: Iterable[Card]) -> None:
        """Refuse (D1) any of *cards* already dealt or repeated."""
        seen = {c for h in self.holes for c in h if c is not None}
        seen.update(self.board)
        for c in cards:
            if c in seen:
                raise CardError(f"{c} is already dealt (a deck has each card once)",
                                rule="D1")
            seen.add(c)
