"""The end of a hand: show order (P8), shows and mucks (D11), who wins each pot (P1, P2,
P7), and the result.

Plain functions over a :class:`~feltro.handstate.HandState` that
:class:`~feltro.hand.Hand` calls (:func:`show`, :func:`muck`, :func:`settle` behind its
methods of the same names), and :mod:`feltro.betting` when the betting ends
(:func:`auto_show`, :func:`maybe_settle`, :func:`settle_pots`). They read and change the
state and never call back; the pure helpers (:func:`show_order`, :func:`first_all_in`,
:func:`pot_winners`) do the deciding.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from feltro.cards import Card, CardsLike, format_cards
from feltro.errors import CardError, IllegalActionError, Refusal
from feltro.evaluator import hand_strength
from feltro.events import (
    ActionTaken,
    AntePosted,
    BlindPosted,
    CardsMucked,
    CardsShown,
    Event,
    HandEnded,
    PotAwarded,
    UncalledReturned,
)
from feltro.handstate import OVER, SHOWDOWN, HandState, read_cards
from feltro.legal import seat_name
from feltro.pots import Pot, split_pot

__all__ = [
    "HandResult",
    "PotResult",
    "auto_show",
    "first_all_in",
    "first_to_show",
    "maybe_settle",
    "muck",
    "pot_winners",
    "settle",
    "settle_pots",
    "show",
    "show_order",
]


@dataclass(frozen=True, slots=True)
class PotResult:
    """One pot as paid: ``shares[i]`` went to ``winners[i]`` (positions, P7 order)."""

    amount: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...]
    shares: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class HandResult:
    """How a hand ended.

    ``stacks`` are the final stacks by position; ``pots`` main pot first; ``returned`` the
    unmatched chips each position got back (B7) before pots were formed; ``shown`` the cards
    each position showed, in the order shown (P8; mucked and folded hands are absent).
    """

    stacks: tuple[int, ...]
    pots: tuple[PotResult, ...]
    returned: tuple[int, ...]
    shown: Mapping[int, tuple[Card, ...]] = field(hash=False)
    starting_stacks: tuple[int, ...] = field(default=())

    @property
    def net(self) -> tuple[int, ...]:
        """Chips won (positive) or lost (negative) by position."""
        return tuple(s - t for s, t in zip(self.stacks, self.starting_stacks, strict=True))

    @property
    def winners(self) -> tuple[int, ...]:
        """Positions that won at least one chip from a pot, ascending."""
        return tuple(sorted({w for pot in self.pots for w in pot.winners}))


def show_order(n: int, folded: Sequence[bool], first: int) -> list[int]:
    """P8: the players who have not folded, clockwise from *first* (``-1``: the first left of
    the button).

    *first* is the last river bettor or raiser, or, when the hands are tabled together
    because everybody is all-in, the first player to go all-in (see :func:`first_all_in`).
    """
    start = first if first >= 0 else 0
    order: list[int] = []
    for k in range(n):
        p = start + k
        if p >= n:
            p -= n
        if not folded[p]:
            order.append(p)
    return order


def first_all_in(events: Sequence[Event], stacks: Sequence[int]) -> int:
    """The first position to put all its chips in (P8), or ``-1`` if none did.

    *stacks* are the stacks before antes and blinds. A blind that takes a player's last chip
    is an all-in like any other; so is an ante, once the unmatched part of the antes is back
    (several players all-in on their antes: the first of them in deal order).
    """
    left = list(stacks)
    count = len(events)
    k = 0
    # The forced bets come first: antes (and the return of the part nobody matched), blinds.
    while k < count:
        event = events[k]
        if type(event) is AntePosted:
            left[event.position] -= event.amount
        elif type(event) is UncalledReturned:
            left[event.position] += event.amount
        else:
            break
        k += 1
    if 0 in left:
        return left.index(0)
    while k < count:
        event = events[k]
        if type(event) is not BlindPosted:
            break
        left[event.position] -= event.amount
        if not left[event.position]:
            return event.position
        k += 1
    for index in range(k, count):
        event = events[index]
        if type(event) is ActionTaken and event.all_in:
            return event.position
    return -1


def pot_winners(
    pot: Pot,
    strengths: Sequence[int | None],
    mucked: Sequence[bool],
    muck_order: Sequence[int],
) -> tuple[int, ...]:
    """Who takes *pot*: the best shown hands among its eligible players (P1, D11).

    ``strengths[p]`` is ``None`` for a hand not shown. A pot that no eligible player showed
    for goes to the one eligible player who did not muck (everybody else gave up, B5); if all
    of them mucked, to the last of them to muck (the others had conceded it to that player).
    """
    best = -1
    winners: list[int] = []
    standing: list[int] = []
    for p in pot.eligible:
        if mucked[p]:
            continue
        s = strengths[p]
        if s is None:
            standing.append(p)
        elif s > best:
            best = s
            winners = [p]
        elif s == best:
            winners.append(p)
    if winners:
        return tuple(winners)
    if standing:
        return tuple(standing)
    for p in reversed(muck_order):
        if p in pot.eligible:
            return (p,)
    return pot.eligible[:1]


def show(state: HandState, position: int, cards: CardsLike | None = None) -> tuple[Event, ...]:
    """*position* shows its private cards (D11, P8); *cards* fill in unknown ones.

    Allowed once betting is over, in any order, also before the rest of the board in an
    all-in (P2); and, as a courtesy that changes nothing, by the winner of a hand that
    everybody else folded (B5). Showing one card only is a muck (P8): the hand cannot win, even
    in an all-in where every hand is tabled.

    :raises IllegalActionError: before the betting is over, or for a folded/settled hand.
    :raises CardError: if *cards* differ from the cards dealt, or are already dealt.
    """
    if state.phase == OVER and state.live == 1:
        return _courtesy_show(state, position, cards)
    p = _check_showdown_turn(state, position)
    if cards is not None:
        offered = read_cards(cards)
        if len(offered) == 1:
            return _show_one_card(state, p, offered[0])
    shown = _cards_to_show(state, p, cards)
    mark = len(state.events)
    state.shown[p] = shown
    state.events.append(CardsShown(p, shown))
    maybe_settle(state)
    return tuple(state.events[mark:])


def _courtesy_show(state: HandState, position: int,
                   cards: CardsLike | None) -> tuple[Event, ...]:
    """B5: the hand was won by folds; its winner may still show, which changes nothing."""
    p = state.check_position(position)
    if state.folded[p]:
        raise IllegalActionError(Refusal("P2", "folded", {"position": p}),
                                 f"{seat_name(p)} folded and has no hand", position=p)
    if state.shown[p] is not None:
        raise IllegalActionError(Refusal("P8", "already-shown", {"position": p}),
                                 f"{seat_name(p)} has already shown", position=p)
    shown = _cards_to_show(state, p, cards)
    state.shown[p] = shown
    event = CardsShown(p, shown)
    state.events.append(event)
    return (event,)


def _cards_to_show(state: HandState, p: int, cards: CardsLike | None) -> tuple[Card, ...]:
    """The cards *p* shows: those dealt, with *cards* filling in unknown ones (D11)."""
    held = state.holes[p]
    if cards is None:
        if len(held) != 2 or None in held:
            raise CardError(f"{seat_name(p)}'s cards are unknown: say which they are",
                            rule="D11")
        return tuple(c for c in held if c is not None)
    shown = read_cards(cards)
    if len(shown) != 2:
        raise CardError(f"a player shows both private cards, got {len(shown)}",
                        rule="D11")
    known = [c for c in held if c is not None]
    if any(c not in shown for c in known):
        raise CardError(f"{seat_name(p)} was dealt {format_cards(known)}, which "
                        f"is not {format_cards(shown)}", rule="D11")
    state.check_unseen([c for c in shown if c not in known])
    held[:] = list(shown)
    return shown


def _show_one_card(state: HandState, p: int, card: Card) -> tuple[Event, ...]:
    """P8: one card shown is a muck; the card must be one of *p*'s (D11)."""
    held = state.holes[p]
    if card not in held:
        if None not in held:
            raise CardError(f"{seat_name(p)} was dealt "
                            f"{format_cards([c for c in held if c is not None])}, which "
                            f"does not hold {format_cards([card])}", rule="D11")
        state.check_unseen([card])
        held[held.index(None)] = card
    return _muck(state, p)


def muck(state: HandState, position: int) -> tuple[Event, ...]:
    """*position* gives up without showing; a mucked hand cannot win (D11, P8).

    :raises IllegalActionError: before the betting is over, during an all-in run-out
        (every live hand is shown, P2), or for a folded/settled hand.
    """
    p = _check_showdown_turn(state, position)
    if state.runout:
        raise IllegalActionError(Refusal("P2", "runout-shows", {"position": p}),
                                 f"nobody can bet any more, so every live hand is shown: "
                                 f"{seat_name(p)} cannot muck", position=p)
    if _all_live_all_in(state):
        raise IllegalActionError(Refusal("P8", "all-in-shows", {"position": p}),
                                 f"everybody is all-in, so every live hand is shown: "
                                 f"{seat_name(p)} cannot muck", position=p)
    return _muck(state, p)


def _muck(state: HandState, p: int) -> tuple[Event, ...]:
    mark = len(state.events)
    state.mucked[p] = True
    state.muck_order.append(p)
    state.events.append(CardsMucked(p))
    maybe_settle(state)
    return tuple(state.events[mark:])


def settle(state: HandState) -> tuple[Event, ...]:
    """Show (or, outside ``show_losers``, muck) every hand not yet shown, in P8 order.

    For a hand without automatic showdown whose history stops before the shows.

    :raises IllegalActionError: if the betting is not over.
    :raises CardError: if a hand to show has unknown cards.
    """
    if not (state.phase == SHOWDOWN or state.runout) or state.phase == OVER:
        raise IllegalActionError(Refusal("P8", "no-showdown", {}),
                                 "there is no showdown now")
    mark = len(state.events)
    auto_show(state, strict=True)
    maybe_settle(state)
    return tuple(state.events[mark:])


def _check_showdown_turn(state: HandState, position: int) -> int:
    p = state.check_position(position)
    if state.phase == OVER:
        raise IllegalActionError(Refusal("B5", "hand-over", {}), "the hand is over",
                                 position=p)
    if not (state.phase == SHOWDOWN or state.runout):
        raise IllegalActionError(Refusal("P8", "betting-not-over", {"position": p}),
                                 f"{seat_name(p)} cannot show or muck before the betting "
                                 f"is over", position=p)
    if state.folded[p]:
        raise IllegalActionError(Refusal("P2", "folded", {"position": p}),
                                 f"{seat_name(p)} folded and has no hand", position=p)
    if state.shown[p] is not None or state.mucked[p]:
        done = "shown" if state.shown[p] else "mucked"
        raise IllegalActionError(Refusal("P8", f"already-{done}", {"position": p}),
                                 f"{seat_name(p)} has already {done}", position=p)
    return p


def auto_show(state: HandState, *, strict: bool = False) -> None:
    """Show every hand not yet shown in P8 order, mucking those that cannot win
    outside ``show_losers``; stop at a hand with unknown cards (raise with *strict*)."""
    shown = state.shown
    mucked = state.mucked
    folded = state.folded
    if all(folded[p] or mucked[p] or shown[p] is not None for p in range(state.n)):
        return  # every hand already shown or mucked (an all-in run-out showed them)
    pots: list[Pot] | None = None
    strengths: list[int | None] = []
    # Whether losers may muck does not change while hands are shown (P8): decided once.
    show_losers = state.show_losers
    may_muck = (len(show_losers) < state.n and not state.runout and len(state.board) == 5
                and not _all_live_all_in(state))
    for p in show_order(state.n, folded, first_to_show(state)):
        if shown[p] is not None or mucked[p]:
            continue
        held = state.holes[p]
        if None in held:
            if strict:
                raise CardError(f"{seat_name(p)}'s cards are unknown", rule="D11")
            return  # the caller must show these
        if may_muck and p not in show_losers:
            if pots is None:
                pots = _final_pots(state)
                strengths = _strengths(state)
            if not _can_win(p, pots, strengths, state.shown, state.mucked):
                state.mucked[p] = True
                state.muck_order.append(p)
                state.events.append(CardsMucked(p))
                continue
        cards = (held[0], held[1])
        state.shown[p] = cards  # type: ignore[assignment]
        state.events.append(CardsShown(p, cards))  # type: ignore[arg-type]


def first_to_show(state: HandState) -> int:
    """Where P8's show order starts: the last river bettor or raiser; when the hands are
    tabled together (nobody can bet, everybody all-in), the first player to go all-in."""
    if state.runout:
        return first_all_in(state.events, state.config.stacks)
    # Without a run-out, everybody can be all-in only through a river bet: its maker has
    # no chips behind (a bettor with chips back or behind is not all-in).
    bettor = state.river_aggressor
    if bettor >= 0 and not state.stacks[bettor] and _all_live_all_in(state):
        return first_all_in(state.events, state.config.stacks)
    return bettor


def _all_live_all_in(state: HandState) -> bool:
    """P8: when every live player is all-in, every live hand is shown."""
    stacks = state.stacks
    folded = state.folded
    return not any(stacks[p] for p in range(state.n) if not folded[p])


def _strengths(state: HandState) -> list[int | None]:
    """Hand strengths of every live hand whose cards are known (board complete).

    Computed once per hand (the cards cannot change once known); a hand whose cards
    were unknown is evaluated when they become known.
    """
    cached = state.strength_cache
    board = state.board
    out: list[int | None] = []
    for p in range(state.n):
        s = cached[p] if cached else None
        if s is None:
            held = state.holes[p]
            if not state.folded[p] and len(held) == 2 and None not in held:
                s = hand_strength(held + board)  # type: ignore[operator, arg-type]
        out.append(s)
    state.strength_cache = out
    return out


def _final_pots(state: HandState) -> list[Pot]:
    """The pots once betting is over for good (contributions no longer change)."""
    pots = state.pots_cache
    if pots is None:
        pots = state.pots_cache = state.build_pots()
    return pots


def maybe_settle(state: HandState) -> None:
    """Pay the pots once the board is complete and every hand still standing is shown."""
    if state.phase == OVER or len(state.board) < 5:
        return
    if state.phase != SHOWDOWN:
        return
    pending = 0
    standing = 0
    for p in range(state.n):
        if state.folded[p] or state.mucked[p]:
            continue
        standing += 1
        if state.shown[p] is None:
            pending += 1
    if pending == 0 or standing <= 1:
        settle_pots(state)


def settle_pots(state: HandState) -> None:
    """Pay every pot (P1, P7: odd chips are whole chips of the configuration's ``chip``) and
    end the hand."""
    pots = _final_pots(state)
    n = state.n
    shown = state.shown
    if shown.count(None) != n:
        strengths = _strengths(state)
        ranked: list[int | None] = [
            s if shown[p] is not None else None for p, s in enumerate(strengths)]
    else:
        ranked = [None] * n
    stacks = state.stacks
    mucked = state.mucked
    muck_order = state.muck_order
    results: list[PotResult] = []
    events = state.events
    chip = state.config.chip
    for index, pot in enumerate(pots):
        amount = pot.amount
        winners = (pot.eligible if len(pot.eligible) == 1 else
                   pot_winners(pot, ranked, mucked, muck_order))
        if len(winners) == 1:
            shares: tuple[int, ...] = (amount,)
            stacks[winners[0]] += amount
        else:
            shares = split_pot(amount, winners, chip=chip)
            for w, share in zip(winners, shares, strict=True):
                stacks[w] += share
        results.append(PotResult(amount, pot.eligible, winners, shares))
        events.append(PotAwarded(index, amount, pot.eligible, winners, shares))
    final = tuple(stacks)
    events.append(HandEnded(final))
    state.phase = OVER
    state.to_act = None
    zeros = [0] * n
    state.committed[:] = zeros
    state.antes[:] = zeros
    state.result = HandResult(final, tuple(results), tuple(state.returned),
                              _in_show_order(shown, events), state.config.stacks)


def _in_show_order(shown: list[tuple[Card, ...] | None], events: list[Event],
                   ) -> dict[int, tuple[Card, ...]]:
    """The shown hands by position, in the order they were shown (P8)."""
    count = len(shown) - shown.count(None)
    if count < 2:
        return {p: c for p, c in enumerate(shown) if c is not None}
    order: list[int] = []
    for index in range(len(events) - 1, -1, -1):
        event = events[index]
        if type(event) is CardsShown:
            order.append(event.position)
            if len(order) == count:
                break
    return {p: shown[p] for p in reversed(order)}  # type: ignore[misc]


def _can_win(
    p: int,
    pots: list[Pot],
    strengths: list[int | None],
    shown: list[tuple[Card, ...] | None],
    mucked: list[bool],
) -> bool:
    """Whether *p* could win or share some pot against the hands shown so far (P8 muck)."""
    mine = strengths[p]
    if mine is None:
        return True
    for pot in pots:
        if p not in pot.eligible:
            continue
        best = -1
        for q in pot.eligible:
            if q != p and shown[q] is not None and not mucked[q]:
                s = strengths[q]
                if s is not None and s > best:
                    best = s
        if mine >= best:
            return True
    return False
