"""One hand of Hold'em, played exactly by RULES.md: :class:`Hand`.

>>> from feltro.cards import Deck
>>> hand = Hand.start(HandConfig.standard([200, 200, 200]),
...                   Deck.for_deal(["AsAh", "KdKc", "7c2d"], "Ad Kh 2c 9s 3h"))
>>> hand.legal
<LegalActions p3: fold, call 2, raise to 4..200>
>>> _ = hand.apply("r 6"); _ = hand.apply("c"); _ = hand.apply("f")
>>> hand.street, hand.board
(<Street.FLOP: 'flop'>, (Card('Ad'), Card('Kh'), Card('2c')))

The hand is **mutable** (a measured choice: the engine must play >= 10,000 hands a second,
and a new immutable object per action costs too much); :meth:`Hand.copy` branches. Chance is
an input: the deck is given, or the caller deals (:meth:`Hand.deal_hole`,
:meth:`Hand.deal_board`, for replays). Every change is also recorded as a frozen event
(:mod:`feltro.events`).

``Hand`` is the public face; its state is one :class:`~feltro.handstate.HandState` that the
engine's plain functions work on, split by concern: :mod:`feltro.betting` (forced bets, legal
actions, acting), :mod:`feltro.rounds` (who acts next, the end of rounds and streets),
:mod:`feltro.dealing` (the deck, dealing by hand) and :mod:`feltro.showdown` (shows, mucks,
pots).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from feltro import betting, dealing, rounds, showdown
from feltro.actions import Action
from feltro.betting import raise_bounds
from feltro.cards import Card, CardsLike, Deck
from feltro.config import HandConfig, Structure
from feltro.errors import HandNotOverError
from feltro.events import STREETS, Event, Street
from feltro.handstate import BOARD, DEALING, OVER, SHOWDOWN, HandReading, HandState
from feltro.legal import RAISE_OPEN, LegalActions, seat_name
from feltro.pots import Pot
from feltro.showdown import HandResult, PotResult, first_to_show, show_order
from feltro.view import SeatView, seat_view

__all__ = [
    "Hand",
    "HandConfig",
    "HandResult",
    "LegalActions",
    "PotResult",
    "SeatView",
    "Street",
    "Structure",
]


class Hand:
    """One hand of Hold'em (see the module docstring).

    Create it with :meth:`start`. Positions are 0-based in deal order (0 = first left of the
    button, ``n - 1`` = the button); messages name them ``p1``.. as PHH does.
    """

    __slots__ = ("_state",)

    def __init__(self, state: HandState) -> None:
        self._state = state

    # ------------------------------------------------------------------ creation

    @classmethod
    def start(
        cls,
        config: HandConfig,
        deck: Deck | Sequence[int] | None = None,
        *,
        auto_showdown: bool | None = None,
        muck_losers: bool = True,
        show_losers: Collection[int] = (),
    ) -> Hand:
        """Post antes (B11) and blinds (D3, D10), and deal the hole cards from *deck* (D4).

        With a *deck* the hand deals itself in the documented order (first cards to
        positions 0..n-1, then second cards; burn, flop, burn, turn, burn, river) and, with
        *auto_showdown* (default True with a deck), shows in P8 order, mucking hands that
        cannot win any pot unless *muck_losers* is False; the positions in *show_losers*
        show even a hand that cannot win (P8: each player's choice). Without a deck the
        caller deals with :meth:`deal_hole` / :meth:`deal_board` and settles with
        :meth:`show` /
        :meth:`muck` (or :meth:`settle`).

        :raises CardError: if *deck* has repeated cards, ids outside 0..51 or too few cards.
        """
        cards = None if deck is None else dealing.checked_deck(deck, 2 * config.players + 8)
        automatic = (deck is not None) if auto_showdown is None else auto_showdown
        showing = frozenset(range(config.players)) if not muck_losers else frozenset(show_losers)
        return cls(betting.start(config, cards, automatic, showing))

    def copy(self) -> Hand:
        """An independent copy, for branching (events are shared: they are immutable)."""
        return Hand(self._state.copy())

    # ------------------------------------------------------------------ reading

    @property
    def state(self) -> HandReading:
        """The live state, read-only, for readers that cannot afford a copy per read (the
        learning environments); everybody else reads the properties below."""
        return self._state

    @property
    def config(self) -> HandConfig:
        """The configuration the hand started from."""
        return self._state.config

    @property
    def players(self) -> int:
        """The number of positions."""
        return self._state.n

    @property
    def button(self) -> int:
        """The button's position (the last one)."""
        return self._state.n - 1

    @property
    def to_act(self) -> int | None:
        """The position to act, or ``None`` when nobody is (dealing, showdown, over)."""
        return self._state.to_act

    @property
    def street(self) -> Street:
        """The current street (``SHOWDOWN`` once the board is complete and betting is over)."""
        return STREETS[self._state.street]

    @property
    def is_over(self) -> bool:
        """Whether the pots have been paid."""
        return self._state.phase == OVER

    @property
    def stacks(self) -> tuple[int, ...]:
        """Chips behind, by position."""
        return tuple(self._state.stacks)

    @property
    def starting_stacks(self) -> tuple[int, ...]:
        """Stacks before antes and blinds."""
        return self._state.config.stacks

    @property
    def bets(self) -> tuple[int, ...]:
        """Chips bet in this street (blinds included preflop), by position."""
        return tuple(self._state.bets)

    @property
    def committed(self) -> tuple[int, ...]:
        """Chips put in during the whole hand (antes, blinds, bets), by position."""
        return tuple(self._state.committed)

    @property
    def pot(self) -> int:
        """All chips in the middle, this street's bets included."""
        return sum(self._state.committed)

    @property
    def current_bet(self) -> int:
        """The total to match in this street (preflop at least the big blind, D10)."""
        return self._state.to_match

    @property
    def folded(self) -> tuple[bool, ...]:
        """Whether each position has folded."""
        return tuple(self._state.folded)

    @property
    def all_in(self) -> tuple[bool, ...]:
        """Whether each position still in the hand has no chips behind."""
        return self._state.all_in()

    @property
    def board(self) -> tuple[Card, ...]:
        """The community cards dealt so far."""
        return tuple(self._state.board)

    @property
    def last_aggressor(self) -> int | None:
        """The last position to bet or raise in this street, if any."""
        aggressor = self._state.aggressor
        return None if aggressor < 0 else aggressor

    @property
    def burned(self) -> tuple[Card, ...]:
        """The burn cards taken so far (D5): for audits, never part of a view."""
        return tuple(self._state.burned)

    @property
    def events(self) -> tuple[Event, ...]:
        """Everything that happened, in order."""
        return tuple(self._state.events)

    @property
    def shown(self) -> dict[int, tuple[Card, ...]]:
        """The cards shown so far, by position."""
        return self._state.shown_cards()

    @property
    def mucked(self) -> tuple[int, ...]:
        """Positions that mucked, in order."""
        return tuple(self._state.muck_order)

    def hole(self, position: int) -> tuple[Card | None, ...]:
        """The private cards dealt to *position* (``None`` for an unknown card).

        This is the whole truth; use :meth:`view` for what a player may see.
        """
        state = self._state
        state.check_position(position)
        return tuple(state.holes[position])

    def pots(self) -> list[Pot]:
        """The pots as they stand now (P1), main pot first, this street's bets included."""
        return self._state.build_pots()

    @property
    def to_show(self) -> int | None:
        """At the showdown, the next position that should show or muck by P8, else ``None``."""
        state = self._state
        if state.phase == OVER or not (state.phase == SHOWDOWN or state.runout):
            return None
        for p in show_order(state.n, state.folded, first_to_show(state)):
            if state.shown[p] is None and not state.mucked[p]:
                return p
        return None

    def result(self) -> HandResult:
        """How the hand ended.

        :raises HandNotOverError: if the hand is not over.
        """
        result = self._state.result
        if result is None:
            raise HandNotOverError("the hand is not over yet: no result")
        return result

    # ------------------------------------------------------------------ acting

    @property
    def legal(self) -> LegalActions:
        """What the player to act may do (empty when nobody is to act)."""
        s = self._state
        p = s.to_act
        if p is None:
            return LegalActions.none()
        owed = s.to_match - s.bets[p]
        stack = s.stacks[p]
        code, low, high = raise_bounds(s, p)
        return LegalActions(
            p,
            owed <= 0,
            0 if owed <= 0 else (owed if owed < stack else stack),
            low,
            high,
            None if code == RAISE_OPEN else
            (code, s.to_match, s.acted_at[p], s.full_inc, s.bets[p] + stack),
        )

    def apply(self, action: Action | str, position: int | None = None) -> tuple[Event, ...]:
        """Play *action* for the position to act; return the events it caused.

        Text is parsed first (``"f"``, ``"x"``, ``"c"``, ``"r 25"``, PHH ``"cbr 25"``).
        Pass *position* to assert who is acting. Raises are totals for the street.

        :raises ParseError: if *action* is text that names no action.
        :raises IllegalActionError: if the rules forbid it now (the error names the rule);
            the hand does not change.
        """
        return betting.act(self._state, action, position)

    # ------------------------------------------------------------------ dealing by hand

    def deal_hole(self, position: int, cards: CardsLike | Sequence[Card | int | str | None]
                  | None = None) -> tuple[Event, ...]:
        """Deal private cards to *position* (a hand started without a deck).

        *cards* may be one or two cards; ``None`` (or ``None`` items) are unknown cards, as
        PHH ``????``: ``None`` alone deals all the cards *position* still lacks.

        :raises IllegalActionError: if the hand deals itself or hole cards are done.
        :raises CardError: for a card already dealt, or more than two cards.
        """
        state = self._state
        mark = len(state.events)
        if dealing.deal_hole(state, position, cards):
            rounds.begin_preflop(state)
        return tuple(state.events[mark:])

    def deal_board(self, cards: CardsLike) -> tuple[Event, ...]:
        """Deal the next community cards (a hand started without a deck): 3, then 1, then 1.

        :raises IllegalActionError: if a betting round is still going or the hand deals itself.
        :raises CardError: for a wrong number of cards or a card already dealt.
        """
        state = self._state
        mark = len(state.events)
        dealing.deal_board(state, cards)
        rounds.after_board(state)
        return tuple(state.events[mark:])

    # ------------------------------------------------------------------ showdown

    def show(self, position: int, cards: CardsLike | None = None) -> tuple[Event, ...]:
        """*position* shows its private cards (D11, P8); *cards* fill in unknown ones.

        Allowed once betting is over, in any order, also before the rest of the board in an
        all-in (P2).

        :raises IllegalActionError: before the betting is over, or for a folded/settled hand.
        :raises CardError: if *cards* differ from the cards dealt, or are already dealt.
        """
        return showdown.show(self._state, position, cards)

    def muck(self, position: int) -> tuple[Event, ...]:
        """*position* gives up without showing; a mucked hand cannot win (D11, P8).

        :raises IllegalActionError: before the betting is over, during an all-in run-out
            (every live hand is shown, P2), or for a folded/settled hand.
        """
        return showdown.muck(self._state, position)

    def settle(self) -> tuple[Event, ...]:
        """Show (or, outside ``show_losers``, muck) every hand not yet shown, in P8 order.

        For a hand without automatic showdown whose history stops before the shows.

        :raises IllegalActionError: if the betting is not over.
        :raises CardError: if a hand to show has unknown cards.
        """
        return showdown.settle(self._state)

    # ------------------------------------------------------------------ views

    def view(self, position: int) -> SeatView:
        """What *position* may see: own cards, shown cards and public information."""
        state = self._state
        state.check_position(position)
        return seat_view(state, position, self.legal if position == state.to_act else None)

    def public_view(self) -> SeatView:
        """What a spectator may see: no private cards except those shown."""
        return seat_view(self._state, None, None)

    def __repr__(self) -> str:
        state = self._state
        if state.phase == OVER:
            what = "over"
        elif state.to_act is not None:
            what = f"{seat_name(state.to_act)} to act"
        elif state.phase == DEALING:
            what = "dealing"
        else:
            what = "waiting for cards" if state.phase == BOARD else "showdown"
        return (f"<Hand {state.n} players, {STREETS[state.street].value}, {what}, "
                f"pot {sum(state.committed)}>")
