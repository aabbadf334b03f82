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
:meth:`Hand.deal_board`, for replays). State lives in plain lists of ints; every change is
also recorded as a frozen event (:mod:`feltro.events`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from feltro import dealing, showdown
from feltro.actions import (
    CALL,
    CHECK,
    FOLD,
    KIND_CALL,
    KIND_CHECK,
    KIND_FOLD,
    KIND_RAISE,
    Action,
    Raise,
    parse_action,
)
from feltro.cards import Card, CardsLike, Deck
from feltro.config import FIXED_LIMIT_CODE, POT_LIMIT_CODE, HandConfig, Structure
from feltro.errors import CardError, HandNotOverError, IllegalActionError, Refusal
from feltro.events import (
    STREETS,
    ActionTaken,
    AntePosted,
    BlindPosted,
    BoardDealt,
    Event,
    HoleCardDealt,
    Street,
    UncalledReturned,
)
from feltro.handstate import BETTING, BOARD, BOARD_SIZES, DEALING, OVER, SHOWDOWN, HandState
from feltro.legal import (
    RAISE_CAPPED,
    RAISE_NO_CHIPS,
    RAISE_NOT_REOPENED,
    RAISE_OPEN,
    LegalActions,
    check_refusal,
    raise_refusal,
    raise_size_refusal,
    seat_name,
)
from feltro.pots import Pot, uncalled
from feltro.showdown import (
    HandResult,
    PotResult,
    auto_show,
    first_to_show,
    maybe_settle,
    settle_pots,
    show_order,
)
from feltro.view import SeatView

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

_CARD: Final = tuple(Card.from_id(i) for i in range(52))

# Events are immutable values, so the common ones are made once and shared (measured: the
# engine spends a large part of each hand creating events otherwise).
_HOLE_EVENTS: Final = tuple(tuple(HoleCardDealt(p, c) for c in _CARD) for p in range(10))
_CHECK_EVENTS: Final = tuple(tuple(ActionTaken(p, CHECK, street, 0, False) for p in range(10))
                             for street in STREETS)
_FOLD_EVENTS: Final = tuple(tuple(ActionTaken(p, FOLD, street, 0, False) for p in range(10))
                            for street in STREETS)



class Hand(HandState):
    """One hand of Hold'em (see the module docstring).

    Create it with :meth:`start`. Positions are 0-based in deal order (0 = first left of the
    button, ``n - 1`` = the button); messages name them ``p1``.. as PHH does.
    """

    __slots__ = ()

    # ------------------------------------------------------------------ creation

    @classmethod
    def start(
        cls,
        config: HandConfig,
        deck: Deck | Sequence[int] | None = None,
        *,
        auto_showdown: bool | None = None,
        muck_losers: bool = True,
    ) -> Hand:
        """Post antes (B11) and blinds (D3, D10), and deal the hole cards from *deck* (D4).

        With a *deck* the hand deals itself in the documented order (first cards to
        positions 0..n-1, then second cards; burn, flop, burn, turn, burn, river) and, with
        *auto_showdown* (default True with a deck), shows in P8 order, mucking hands that
        cannot win any pot unless *muck_losers* is False. Without a deck the caller deals
        with :meth:`deal_hole` / :meth:`deal_board` and settles with :meth:`show` /
        :meth:`muck` (or :meth:`settle`).

        :raises CardError: if *deck* has repeated cards, ids outside 0..51 or too few cards.
        """
        plan = config._plan
        n = plan.n
        self = cls.__new__(cls)
        self._config = config
        self._n = n
        stacks = list(config.stacks)
        self._stacks = stacks
        self._bets = bets = [0] * n
        self._committed = committed = [0] * n
        self._antes = antes = [0] * n
        self._folded = [False] * n
        self._holes = [[] for _ in range(n)] if deck is None else []
        self._board = []
        self._burned = []
        self._shown = [None] * n
        self._mucked = [False] * n
        self._muck_order = []
        self._returned = [0] * n
        self._acted_at = [-1] * n
        events: list[Event] = []
        self._events = events
        self._live = n
        self._street = 0
        self._aggressor = -1
        self._river_aggressor = -1
        self._runout = False
        self._result = None
        self._pots_cache = None
        self._strength_cache = None
        self._structure = plan.structure
        self._plan_min_bet = plan.min_bet
        self._auto_showdown = (deck is not None) if auto_showdown is None else auto_showdown
        self._muck_losers = muck_losers
        self._deck = None if deck is None else _checked_deck(deck, 2 * n + 8)
        self._next_card = 0

        if any(plan.antes):
            for p in range(n):
                ante = plan.antes[p]
                if ante:
                    amount = ante if ante < stacks[p] else stacks[p]
                    stacks[p] -= amount
                    antes[p] = amount
                    committed[p] = amount
                    events.append(AntePosted(p, amount))
            if config.ante_trimming:
                self._trim_antes()
        for p, blind in enumerate(config.blinds):
            if blind and stacks[p]:
                amount = blind if blind < stacks[p] else stacks[p]
                stacks[p] -= amount
                bets[p] = amount
                committed[p] += amount
                events.append(BlindPosted(p, amount))
        self._active = n - stacks.count(0)
        self._to_match = plan.preflop_bet
        self._full_inc = plan.preflop_increment
        self._n_bets = plan.preflop_bets
        self._to_act = None
        if self._deck is None:
            self._phase = DEALING
            return self
        cards = self._deck
        self._holes = [[cards[p], cards[n + p]] for p in range(n)]
        # D4: one card at a time from the button's left, the button last.
        events.extend([_HOLE_EVENTS[p][cards[p]] for p in range(n)])
        events.extend([_HOLE_EVENTS[p][cards[n + p]] for p in range(n)])
        self._next_card = 2 * n
        self._begin_preflop(plan.first_preflop)
        return self

    def _trim_antes(self) -> None:
        # Antes as contributions (PHH ante trimming): the part of the largest ante that no
        # other ante matched goes back, like an uncalled bet (B7).
        excess = uncalled(self._antes)
        if excess is not None:
            p, amount = excess
            self._antes[p] -= amount
            self._committed[p] -= amount
            self._stacks[p] += amount
            self._returned[p] += amount
            self._events.append(UncalledReturned(p, amount))

    def _begin_preflop(self, first: int) -> None:
        self._phase = BETTING
        self._to_act = to_act = self._next_actor(first)
        if to_act is None:
            self._end_round()

    def copy(self) -> Hand:
        """An independent copy, for branching (events are shared: they are immutable)."""
        other = Hand.__new__(Hand)
        for name in HandState.__slots__:
            value = getattr(self, name)
            if type(value) is list:
                value = [list(v) if type(v) is list else v for v in value]
            setattr(other, name, value)
        return other

    # ------------------------------------------------------------------ reading

    @property
    def config(self) -> HandConfig:
        """The configuration the hand started from."""
        return self._config

    @property
    def players(self) -> int:
        """The number of positions."""
        return self._n

    @property
    def button(self) -> int:
        """The button's position (the last one)."""
        return self._n - 1

    @property
    def to_act(self) -> int | None:
        """The position to act, or ``None`` when nobody is (dealing, showdown, over)."""
        return self._to_act

    @property
    def street(self) -> Street:
        """The current street (``SHOWDOWN`` once the board is complete and betting is over)."""
        return STREETS[self._street]

    @property
    def is_over(self) -> bool:
        """Whether the pots have been paid."""
        return self._phase == OVER

    @property
    def stacks(self) -> tuple[int, ...]:
        """Chips behind, by position."""
        return tuple(self._stacks)

    @property
    def starting_stacks(self) -> tuple[int, ...]:
        """Stacks before antes and blinds."""
        return self._config.stacks

    @property
    def bets(self) -> tuple[int, ...]:
        """Chips bet in this street (blinds included preflop), by position."""
        return tuple(self._bets)

    @property
    def committed(self) -> tuple[int, ...]:
        """Chips put in during the whole hand (antes, blinds, bets), by position."""
        return tuple(self._committed)

    @property
    def pot(self) -> int:
        """All chips in the middle, this street's bets included."""
        return sum(self._committed)

    @property
    def current_bet(self) -> int:
        """The total to match in this street (preflop at least the big blind, D10)."""
        return self._to_match

    @property
    def folded(self) -> tuple[bool, ...]:
        """Whether each position has folded."""
        return tuple(self._folded)

    @property
    def all_in(self) -> tuple[bool, ...]:
        """Whether each position still in the hand has no chips behind."""
        return tuple(not f and s == 0 for f, s in zip(self._folded, self._stacks, strict=True))

    @property
    def board(self) -> tuple[Card, ...]:
        """The community cards dealt so far."""
        return tuple(self._board)

    @property
    def last_aggressor(self) -> int | None:
        """The last position to bet or raise in this street, if any."""
        return None if self._aggressor < 0 else self._aggressor

    @property
    def burned(self) -> tuple[Card, ...]:
        """The burn cards taken so far (D5): for audits, never part of a view."""
        return tuple(self._burned)

    @property
    def events(self) -> tuple[Event, ...]:
        """Everything that happened, in order."""
        return tuple(self._events)

    @property
    def shown(self) -> dict[int, tuple[Card, ...]]:
        """The cards shown so far, by position."""
        return {p: c for p, c in enumerate(self._shown) if c is not None}

    @property
    def mucked(self) -> tuple[int, ...]:
        """Positions that mucked, in order."""
        return tuple(self._muck_order)

    def hole(self, position: int) -> tuple[Card | None, ...]:
        """The private cards dealt to *position* (``None`` for an unknown card).

        This is the whole truth; use :meth:`view` for what a player may see.
        """
        self._check_position(position)
        return tuple(self._holes[position])

    def pots(self) -> list[Pot]:
        """The pots as they stand now (P1), main pot first, this street's bets included."""
        return self._build_pots()

    @property
    def to_show(self) -> int | None:
        """At the showdown, the next position that should show or muck by P8, else ``None``."""
        if self._phase == OVER or not (self._phase == SHOWDOWN or self._runout):
            return None
        for p in show_order(self._n, self._folded, first_to_show(self)):
            if self._shown[p] is None and not self._mucked[p]:
                return p
        return None

    def result(self) -> HandResult:
        """How the hand ended.

        :raises HandNotOverError: if the hand is not over.
        """
        if self._result is None:
            raise HandNotOverError("the hand is not over yet: no result")
        return self._result

    # ------------------------------------------------------------------ legal actions

    @property
    def legal(self) -> LegalActions:
        """What the player to act may do (empty when nobody is to act)."""
        p = self._to_act
        if p is None:
            return LegalActions.none()
        owed = self._to_match - self._bets[p]
        stack = self._stacks[p]
        code, low, high = self._raise_bounds(p)
        return LegalActions(
            p,
            owed <= 0,
            0 if owed <= 0 else (owed if owed < stack else stack),
            low,
            high,
            None if code == RAISE_OPEN else
            (code, self._to_match, self._acted_at[p], self._full_inc, self._bets[p] + stack),
        )

    def _raise_bounds(self, p: int) -> tuple[int, int | None, int | None]:
        """``(refusal code, min raise-to, max raise-to)`` for position *p*."""
        to_match = self._to_match
        reach = self._bets[p] + self._stacks[p]
        if reach <= to_match:
            return RAISE_NO_CHIPS, None, None
        acted_at = self._acted_at[p]
        # B8: after acting, raising reopens only when the raises since add up to a full one.
        if acted_at >= 0 and to_match - acted_at < self._full_inc:
            return RAISE_NOT_REOPENED, None, None
        structure = self._structure
        if structure == FIXED_LIMIT_CODE:
            if self._n_bets >= 4:
                return RAISE_CAPPED, None, None
            low = to_match + self._full_inc
            return RAISE_OPEN, (low if low < reach else reach), (low if low < reach else reach)
        low = to_match + self._full_inc
        high = reach
        if structure == POT_LIMIT_CODE:
            # The pot after calling, on top of the call (bets of this street included).
            limit = to_match + sum(self._committed) + (to_match - self._bets[p])
            if limit < low:
                limit = low
            if limit < high:
                high = limit
        if high < low:
            low = high  # all-in for less than a full raise (B7)
        return RAISE_OPEN, low, high

    # ------------------------------------------------------------------ acting

    def apply(self, action: Action | str, position: int | None = None) -> tuple[Event, ...]:
        """Play *action* for the position to act; return the events it caused.

        Text is parsed first (``"f"``, ``"x"``, ``"c"``, ``"r 25"``, PHH ``"cbr 25"``).
        Pass *position* to assert who is acting. Raises are totals for the street.

        :raises ParseError: if *action* is text that names no action.
        :raises IllegalActionError: if the rules forbid it now (the error names the rule);
            the hand does not change.
        """
        p = self._to_act
        if p is None or (position is not None and position != p):
            raise self._turn_error(position)
        if isinstance(action, str):
            action = parse_action(action)
        events = self._events
        mark = len(events)
        kind = action.kind
        stacks = self._stacks
        bets = self._bets
        if kind in (KIND_CALL, KIND_CHECK):
            owed = self._to_match - bets[p]
            if owed <= 0:
                events.append(_CHECK_EVENTS[self._street][p])
            else:
                if kind == KIND_CHECK:
                    refusal, message = check_refusal(p, owed)
                    raise IllegalActionError(refusal, message, position=p)
                stack = stacks[p]
                chips = owed if owed < stack else stack
                stacks[p] = stack - chips
                bets[p] += chips
                self._committed[p] += chips
                if stack == chips:
                    self._active -= 1
                events.append(ActionTaken(p, CALL, STREETS[self._street], chips, stack == chips))
            self._acted_at[p] = self._to_match
        elif kind == KIND_RAISE:
            self._apply_raise(p, action)  # type: ignore[arg-type]
        elif kind == KIND_FOLD:
            self._folded[p] = True
            self._live -= 1
            self._active -= 1
            events.append(_FOLD_EVENTS[self._street][p])
            if self._live == 1:
                self._end_round()
                return tuple(events[mark:])
        else:  # pragma: no cover - Action has exactly four kinds
            raise TypeError(f"not an action: {action!r}")
        nxt = p + 1
        self._to_act = to_act = self._next_actor(nxt if nxt < self._n else 0)
        if to_act is None:
            self._end_round()
        return tuple(events[mark:])

    def _apply_raise(self, p: int, action: Raise) -> None:
        to = action.to
        if isinstance(to, bool) or not isinstance(to, int):
            raise IllegalActionError(Refusal("B6", "whole-chips", {}),
                                     f"raise to {to!r}: amounts are whole chips", position=p)
        code, low, high = self._raise_bounds(p)
        if code != RAISE_OPEN or low is None or high is None:
            refusal, message = raise_refusal(code, p, self._to_match, self._acted_at[p],
                                             self._full_inc, self._bets[p] + self._stacks[p])
            raise IllegalActionError(refusal, message, position=p)
        if to < low or to > high:
            refusal, message = raise_size_refusal(
                self._structure == FIXED_LIMIT_CODE, p, to, low, high, self._to_match,
                self._bets[p] + self._stacks[p])
            raise IllegalActionError(refusal, message, position=p)
        stacks = self._stacks
        chips = to - self._bets[p]
        stacks[p] -= chips
        self._bets[p] = to
        self._committed[p] += chips
        increment = to - self._to_match
        if increment >= self._full_inc:
            if self._structure != FIXED_LIMIT_CODE:
                self._full_inc = increment
            self._n_bets += 1
        # else: a short all-in (B7); the minimum increment stays the last full one (B8).
        self._to_match = to
        self._aggressor = p
        if self._street == 3:
            self._river_aggressor = p
        self._acted_at[p] = to
        all_in = stacks[p] == 0
        if all_in:
            self._active -= 1
        self._events.append(ActionTaken(p, action if type(to) is int else Raise(to),
                                        STREETS[self._street], chips, all_in))

    def _turn_error(self, position: int | None) -> IllegalActionError:
        if position is not None:
            self._check_position(position)
        p = self._to_act
        phase = self._phase
        if p is not None and position is not None:
            return IllegalActionError(
                Refusal("B2", "not-your-turn", {"position": position, "to_act": p}),
                f"it is {seat_name(p)}'s turn, not {seat_name(position)}'s", position=position)
        if phase == DEALING:
            return IllegalActionError(Refusal("D4", "hole-not-dealt", {}),
                                      "the hole cards are not all dealt yet", position=position)
        if phase == BOARD:
            street = STREETS[self._street].value
            return IllegalActionError(Refusal("D5", "board-not-dealt", {"street": self._street}),
                                      f"the betting round is over: deal the {street} first",
                                      position=position)
        if phase == SHOWDOWN:
            return IllegalActionError(Refusal("B5", "betting-over", {}),
                                      "the betting is over: show or muck", position=position)
        return IllegalActionError(Refusal("B5", "hand-over", {}), "the hand is over",
                                  position=position)

    def _next_actor(self, start: int) -> int | None:
        """The first position from *start* clockwise who must still act (B5), or None."""
        n = self._n
        folded = self._folded
        stacks = self._stacks
        bets = self._bets
        acted_at = self._acted_at
        to_match = self._to_match
        q = start
        for _ in range(n):
            # B5: everyone not folded and not all-in acts at least once and matches the bet;
            # that includes the big blind's option when everybody else is all-in (B4).
            if not folded[q] and stacks[q] and (acted_at[q] < 0 or bets[q] < to_match):
                return q
            q += 1
            if q == n:
                q = 0
        return None

    # ------------------------------------------------------------------ dealing by hand

    def deal_hole(self, position: int, cards: CardsLike | Sequence[Card | int | str | None]
                  | None = None) -> tuple[Event, ...]:
        """Deal private cards to *position* (a hand started without a deck).

        *cards* may be one or two cards; ``None`` (or ``None`` items) are unknown cards, as
        PHH ``????``: ``None`` alone deals all the cards *position* still lacks.

        :raises IllegalActionError: if the hand deals itself or hole cards are done.
        :raises CardError: for a card already dealt, or more than two cards.
        """
        mark = len(self._events)
        if dealing.deal_hole(self, position, cards):
            self._begin_preflop(self._config._plan.first_preflop)
        return tuple(self._events[mark:])

    def deal_board(self, cards: CardsLike) -> tuple[Event, ...]:
        """Deal the next community cards (a hand started without a deck): 3, then 1, then 1.

        :raises IllegalActionError: if a betting round is still going or the hand deals itself.
        :raises CardError: for a wrong number of cards or a card already dealt.
        """
        mark = len(self._events)
        dealing.deal_board(self, cards)
        self._after_board()
        return tuple(self._events[mark:])

    # ------------------------------------------------------------------ showdown

    def show(self, position: int, cards: CardsLike | None = None) -> tuple[Event, ...]:
        """*position* shows its private cards (D11, P8); *cards* fill in unknown ones.

        Allowed once betting is over, in any order, also before the rest of the board in an
        all-in (P2).

        :raises IllegalActionError: before the betting is over, or for a folded/settled hand.
        :raises CardError: if *cards* differ from the cards dealt, or are already dealt.
        """
        return showdown.show(self, position, cards)

    def muck(self, position: int) -> tuple[Event, ...]:
        """*position* gives up without showing; a mucked hand cannot win (D11, P8).

        :raises IllegalActionError: before the betting is over, during an all-in run-out
            (every live hand is shown, P2), or for a folded/settled hand.
        """
        return showdown.muck(self, position)

    def settle(self) -> tuple[Event, ...]:
        """Show (or, with ``muck_losers``, muck) every hand not yet shown, in P8 order.

        For a hand without automatic showdown whose history stops before the shows.

        :raises IllegalActionError: if the betting is not over.
        :raises CardError: if a hand to show has unknown cards.
        """
        return showdown.settle(self)

    # ------------------------------------------------------------------ rounds and streets

    def _end_round(self) -> None:
        self._to_act = None
        bets = self._bets
        excess = uncalled(bets)
        if excess is not None:
            p, amount = excess
            if self._stacks[p] == 0 and not self._folded[p]:
                self._active += 1
            self._stacks[p] += amount
            self._committed[p] -= amount
            self._returned[p] += amount
            self._events.append(UncalledReturned(p, amount))
        for i in range(self._n):
            bets[i] = 0
        if self._live == 1:
            settle_pots(self)
            return
        if self._street == 3:
            self._begin_showdown()
            return
        if self._active < 2 and not self._runout:
            # Nobody can bet any more: every live hand is shown, then the board is completed
            # with the usual burns (P2).
            self._runout = True
            if self._auto_showdown:
                auto_show(self)
        self._street += 1
        self._next_board()

    def _next_board(self) -> None:
        deck = self._deck
        if deck is None:
            self._phase = BOARD
            return
        k = self._next_card
        size = BOARD_SIZES[self._street]
        self._burned.append(deck[k])
        cards = tuple(deck[k + 1:k + 1 + size])
        self._next_card = k + 1 + size
        self._board.extend(cards)
        self._events.append(BoardDealt(STREETS[self._street], cards))
        self._after_board()

    def _after_board(self) -> None:
        if not self._runout:
            self._begin_street()
        elif self._street == 3:
            self._begin_showdown()
        else:
            self._street += 1
            self._next_board()

    def _begin_street(self) -> None:
        self._phase = BETTING
        self._to_match = 0
        self._full_inc = (self._plan_min_bet if self._structure != FIXED_LIMIT_CODE or
                          self._street < 2 else self._config._plan.big_bet)
        self._n_bets = 0
        self._aggressor = -1
        acted_at = self._acted_at
        for i in range(self._n):
            acted_at[i] = -1
        self._to_act = to_act = self._next_actor(0)
        if to_act is None:  # pragma: no cover - two players can act whenever a street begins
            self._end_round()

    def _begin_showdown(self) -> None:
        self._phase = SHOWDOWN
        self._street = 4
        self._to_act = None
        if self._auto_showdown:
            auto_show(self)
        maybe_settle(self)

    # ------------------------------------------------------------------ views

    def view(self, position: int) -> SeatView:
        """What *position* may see: own cards, shown cards and public information."""
        self._check_position(position)
        return self._view(position)

    def public_view(self) -> SeatView:
        """What a spectator may see: no private cards except those shown."""
        return self._view(None)

    def _view(self, position: int | None) -> SeatView:
        events: list[Event] = []
        for event in self._events:
            if type(event) is HoleCardDealt and event.position != position:
                event = HoleCardDealt(event.position, None)
            events.append(event)
        result = self._result
        return SeatView(
            position=position,
            players=self._n,
            button=self._n - 1,
            street=STREETS[self._street],
            to_act=self._to_act,
            board=tuple(self._board),
            stacks=tuple(self._stacks),
            bets=tuple(self._bets),
            committed=tuple(self._committed),
            folded=tuple(self._folded),
            all_in=self.all_in,
            pot=sum(self._committed),
            current_bet=self._to_match,
            hole=None if position is None else tuple(self._holes[position]),
            shown=self.shown,
            mucked=tuple(self._muck_order),
            legal=self.legal if position is not None and position == self._to_act else None,
            events=tuple(events),
            result=result,
        )

    def __repr__(self) -> str:
        if self._phase == OVER:
            state = "over"
        elif self._to_act is not None:
            state = f"{seat_name(self._to_act)} to act"
        elif self._phase == DEALING:
            state = "dealing"
        else:
            state = "waiting for cards" if self._phase == BOARD else "showdown"
        return (f"<Hand {self._n} players, {STREETS[self._street].value}, {state}, "
                f"pot {sum(self._committed)}>")


def _checked_deck(deck: Deck | Sequence[int], needed: int) -> Sequence[Card]:
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
