"""The betting of one hand: forced bets, legal actions, acting.

Plain functions over a :class:`~feltro.handstate.HandState` that :class:`~feltro.hand.Hand`
calls: :func:`start` posts antes and blinds (B11, D3, D10) and deals from the hand's deck
(D4), :func:`raise_bounds` says how far the player to act may raise (B6-B10; B5: no raise
nobody can call) and :func:`act` plays an action; who acts next and the end of each round and
street are :mod:`feltro.rounds`. They never call back into the hand.

The hot path of the whole engine is here: state lives in plain lists of ints, the common
events are made once and shared, and legal actions are computed from a few integers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

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
from feltro.cards import Card
from feltro.config import FIXED_LIMIT_CODE, POT_LIMIT_CODE, HandConfig
from feltro.errors import IllegalActionError, Refusal
from feltro.events import (
    STREETS,
    ActionTaken,
    AntePosted,
    BlindPosted,
    Event,
    HoleCardDealt,
    UncalledReturned,
)
from feltro.handstate import BOARD, DEALING, SHOWDOWN, HandState
from feltro.legal import (
    RAISE_CAPPED,
    RAISE_NO_CHIPS,
    RAISE_NOT_REOPENED,
    RAISE_OPEN,
    RAISE_UNANSWERABLE,
    check_refusal,
    raise_refusal,
    raise_size_refusal,
    seat_name,
)
from feltro.pots import uncalled
from feltro.rounds import begin_preflop, end_round, next_actor

__all__ = ["act", "raise_bounds", "start", "turn_error"]

_CARD: Final = tuple(Card.from_id(i) for i in range(52))

# Events are immutable values, so the common ones are made once and shared (measured: the
# engine spends a large part of each hand creating events otherwise).
_HOLE_EVENTS: Final = tuple(tuple(HoleCardDealt(p, c) for c in _CARD) for p in range(10))
_CHECK_EVENTS: Final = tuple(tuple(ActionTaken(p, CHECK, street, 0, False) for p in range(10))
                             for street in STREETS)
_FOLD_EVENTS: Final = tuple(tuple(ActionTaken(p, FOLD, street, 0, False) for p in range(10))
                            for street in STREETS)


# ---------------------------------------------------------------------- the start of a hand


def start(config: HandConfig, deck: Sequence[Card] | None, auto_showdown: bool,
          show_losers: frozenset[int]) -> HandState:
    """A new hand's state: antes (B11) and blinds (D3, D10) posted and, with a *deck*, the
    hole cards dealt (D4) and the first player to act found (B2)."""
    plan = config._plan
    n = plan.n
    s = HandState.__new__(HandState)
    s.config = config
    s.n = n
    s.stacks = stacks = list(config.stacks)
    s.bets = bets = [0] * n
    s.committed = committed = [0] * n
    s.antes = antes = [0] * n
    s.folded = [False] * n
    s.holes = [[] for _ in range(n)] if deck is None else []
    s.board = []
    s.burned = []
    s.shown = [None] * n
    s.mucked = [False] * n
    s.muck_order = []
    s.returned = [0] * n
    s.acted_at = [-1] * n
    events: list[Event] = []
    s.events = events
    s.live = n
    s.street = 0
    s.aggressor = -1
    s.river_aggressor = -1
    s.runout = False
    s.result = None
    s.pots_cache = None
    s.strength_cache = None
    s.structure = plan.structure
    s.min_bet = plan.min_bet
    s.auto_showdown = auto_showdown
    s.show_losers = show_losers
    s.deck = deck
    s.next_card = 0

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
            _trim_antes(s)
    for p, blind in enumerate(config.blinds):
        if blind and stacks[p]:
            amount = blind if blind < stacks[p] else stacks[p]
            stacks[p] -= amount
            bets[p] = amount
            committed[p] += amount
            events.append(BlindPosted(p, amount))
    s.active = n - stacks.count(0)
    s.to_match = plan.preflop_bet
    s.full_inc = plan.preflop_increment
    s.n_bets = plan.preflop_bets
    s.to_act = None
    if deck is None:
        s.phase = DEALING
        return s
    s.holes = [[deck[p], deck[n + p]] for p in range(n)]
    # D4: one card at a time from the button's left, the button last.
    events.extend([_HOLE_EVENTS[p][deck[p]] for p in range(n)])
    events.extend([_HOLE_EVENTS[p][deck[n + p]] for p in range(n)])
    s.next_card = 2 * n
    begin_preflop(s)
    return s


def _trim_antes(s: HandState) -> None:
    # Antes as contributions (PHH ante trimming): the part of the largest ante that no
    # other ante matched goes back, like an uncalled bet (B7).
    excess = uncalled(s.antes)
    if excess is not None:
        p, amount = excess
        s.antes[p] -= amount
        s.committed[p] -= amount
        s.stacks[p] += amount
        s.returned[p] += amount
        s.events.append(UncalledReturned(p, amount))


# ---------------------------------------------------------------------- legal actions


def raise_bounds(s: HandState, p: int) -> tuple[int, int | None, int | None]:
    """``(refusal code, min raise-to, max raise-to)`` for position *p*."""
    to_match = s.to_match
    bets = s.bets
    stacks = s.stacks
    reach = bets[p] + stacks[p]
    if reach <= to_match:
        return RAISE_NO_CHIPS, None, None
    # B5: a raise is offered only when someone else left could put in more than the bet.
    # Without a look round when nobody has bet yet, or the bettor (preflop without a raise:
    # the big blind) could.
    if s.active < 2:
        return RAISE_UNANSWERABLE, None, None
    folded = s.folded
    bettor = s.aggressor
    if bettor < 0 and not s.street:
        bettor = s.config._plan.big_blind_position
    if to_match and (bettor < 0 or bettor == p or folded[bettor]
                     or bets[bettor] + stacks[bettor] <= to_match):
        for q in range(s.n):
            if q != p and stacks[q] and not folded[q] and bets[q] + stacks[q] > to_match:
                break
        else:
            return RAISE_UNANSWERABLE, None, None
    acted_at = s.acted_at[p]
    # B8: after acting, raising reopens only when the raises since add up to a full one.
    if acted_at >= 0 and to_match - acted_at < s.full_inc:
        return RAISE_NOT_REOPENED, None, None
    structure = s.structure
    if structure == FIXED_LIMIT_CODE:
        if s.n_bets >= 4:
            return RAISE_CAPPED, None, None
        low = to_match + s.full_inc
        return RAISE_OPEN, (low if low < reach else reach), (low if low < reach else reach)
    low = to_match + s.full_inc
    high = reach
    if structure == POT_LIMIT_CODE:
        # The pot after calling, on top of the call (bets of this street included).
        limit = to_match + sum(s.committed) + (to_match - bets[p])
        if limit < low:
            limit = low
        if limit < high:
            high = limit
    if high < low:
        low = high  # all-in for less than a full raise (B7)
    return RAISE_OPEN, low, high


# ---------------------------------------------------------------------- acting


def act(s: HandState, action: Action | str, position: int | None) -> tuple[Event, ...]:
    """Play *action* for the position to act (see :meth:`feltro.hand.Hand.apply`)."""
    p = s.to_act
    if p is None or (position is not None and position != p):
        raise turn_error(s, position)
    if isinstance(action, str):
        action = parse_action(action)
    events = s.events
    mark = len(events)
    kind = action.kind
    stacks = s.stacks
    bets = s.bets
    if kind in (KIND_CALL, KIND_CHECK):
        owed = s.to_match - bets[p]
        if owed <= 0:
            events.append(_CHECK_EVENTS[s.street][p])
        else:
            if kind == KIND_CHECK:
                refusal, message = check_refusal(p, owed)
                raise IllegalActionError(refusal, message, position=p)
            stack = stacks[p]
            chips = owed if owed < stack else stack
            stacks[p] = stack - chips
            bets[p] += chips
            s.committed[p] += chips
            if stack == chips:
                s.active -= 1
            events.append(ActionTaken(p, CALL, STREETS[s.street], chips, stack == chips))
        s.acted_at[p] = s.to_match
    elif kind == KIND_RAISE:
        _raise(s, p, action)  # type: ignore[arg-type]
    elif kind == KIND_FOLD:
        s.folded[p] = True
        s.live -= 1
        s.active -= 1
        events.append(_FOLD_EVENTS[s.street][p])
        if s.live == 1:
            end_round(s)
            return tuple(events[mark:])
    else:  # pragma: no cover - Action has exactly four kinds
        raise TypeError(f"not an action: {action!r}")
    nxt = p + 1
    s.to_act = to_act = next_actor(s, nxt if nxt < s.n else 0)
    if to_act is None:
        end_round(s)
    return tuple(events[mark:])


def _raise(s: HandState, p: int, action: Raise) -> None:
    to = action.to
    if isinstance(to, bool) or not isinstance(to, int):
        raise IllegalActionError(Refusal("B6", "whole-chips", {}),
                                 f"raise to {to!r}: amounts are whole chips", position=p)
    code, low, high = raise_bounds(s, p)
    if code != RAISE_OPEN or low is None or high is None:
        refusal, message = raise_refusal(code, p, s.to_match, s.acted_at[p], s.full_inc,
                                         s.bets[p] + s.stacks[p])
        raise IllegalActionError(refusal, message, position=p)
    if to < low or to > high:
        refusal, message = raise_size_refusal(
            s.structure == FIXED_LIMIT_CODE, p, to, low, high, s.to_match,
            s.bets[p] + s.stacks[p])
        raise IllegalActionError(refusal, message, position=p)
    stacks = s.stacks
    chips = to - s.bets[p]
    stacks[p] -= chips
    s.bets[p] = to
    s.committed[p] += chips
    increment = to - s.to_match
    if increment >= s.full_inc:
        if s.structure != FIXED_LIMIT_CODE:
            s.full_inc = increment
        s.n_bets += 1
    # else: a short all-in (B7); the minimum increment stays the last full one (B8).
    s.to_match = to
    s.aggressor = p
    if s.street == 3:
        s.river_aggressor = p
    s.acted_at[p] = to
    all_in = stacks[p] == 0
    if all_in:
        s.active -= 1
    s.events.append(ActionTaken(p, action if type(to) is int else Raise(to),
                                STREETS[s.street], chips, all_in))


def turn_error(s: HandState, position: int | None) -> IllegalActionError:
    """The refusal of an action by *position* (``None``: whoever) when it is not its turn."""
    if position is not None:
        s.check_position(position)
    p = s.to_act
    phase = s.phase
    if p is not None and position is not None:
        return IllegalActionError(
            Refusal("B2", "not-your-turn", {"position": position, "to_act": p}),
            f"it is {seat_name(p)}'s turn, not {seat_name(position)}'s", position=position)
    if phase == DEALING:
        return IllegalActionError(Refusal("D4", "hole-not-dealt", {}),
                                  "the hole cards are not all dealt yet", position=position)
    if phase == BOARD:
        street = STREETS[s.street].value
        return IllegalActionError(Refusal("D5", "board-not-dealt", {"street": s.street}),
                                  f"the betting round is over: deal the {street} first",
                                  position=position)
    if phase == SHOWDOWN:
        return IllegalActionError(Refusal("B5", "betting-over", {}),
                                  "the betting is over: show or muck", position=position)
    return IllegalActionError(Refusal("B5", "hand-over", {}), "the hand is over",
                              position=position)
