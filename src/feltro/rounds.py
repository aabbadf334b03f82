"""Who acts next, and the end of each betting round and street (B2, B5, B7, D5, P2).

Plain functions over a :class:`~feltro.handstate.HandState`, called by :mod:`feltro.betting`
after each action and by :class:`~feltro.hand.Hand` when cards are dealt by hand: the next
player who must act (B5: nobody when nobody could bet against them), the return of a bet
nobody matched (B7), the next street's cards (D5), the run-out when nobody can bet any more
(P2) and the showdown (:mod:`feltro.showdown`). They never call back into the hand.
"""

from __future__ import annotations

from feltro.config import FIXED_LIMIT_CODE
from feltro.events import STREETS, BoardDealt, UncalledReturned
from feltro.handstate import BETTING, BOARD, BOARD_SIZES, SHOWDOWN, HandState
from feltro.pots import uncalled
from feltro.showdown import auto_show, maybe_settle, settle_pots

__all__ = ["after_board", "begin_preflop", "end_round", "next_actor"]


def begin_preflop(s: HandState) -> None:
    """Every hole card is dealt: the first player to act preflop is asked (B2)."""
    s.phase = BETTING
    s.to_act = to_act = next_actor(s, s.config._plan.first_preflop)
    if to_act is None:
        end_round(s)


def next_actor(s: HandState, start: int) -> int | None:
    """The first position from *start* clockwise who must still act (B5), or None."""
    if s.active < 2:
        return _lone_actor(s)
    n = s.n
    folded = s.folded
    stacks = s.stacks
    bets = s.bets
    acted_at = s.acted_at
    to_match = s.to_match
    q = start
    for _ in range(n):
        # B5: everyone not folded and not all-in acts at least once and matches the bet.
        if not folded[q] and stacks[q] and (acted_at[q] < 0 or bets[q] < to_match):
            return q
        q += 1
        if q == n:
            q = 0
    return None


def _lone_actor(s: HandState) -> int | None:
    """B5 when at most one player left has chips: that player acts only to answer a bet it has
    not matched (a call or a fold), never for an option nobody could bet against. A short
    big blind (D10) does not make it owe the full big blind: only bets put in count."""
    folded = s.folded
    stacks = s.stacks
    bets = s.bets
    lone = -1
    top = 0
    for q in range(s.n):
        if folded[q]:
            continue
        if stacks[q]:
            lone = q
        elif bets[q] > top:
            top = bets[q]
    return None if lone < 0 or bets[lone] >= top else lone


def end_round(s: HandState) -> None:
    s.to_act = None
    bets = s.bets
    excess = uncalled(bets)
    if excess is not None:
        p, amount = excess
        if s.stacks[p] == 0 and not s.folded[p]:
            s.active += 1
        s.stacks[p] += amount
        s.committed[p] -= amount
        s.returned[p] += amount
        s.events.append(UncalledReturned(p, amount))
    for i in range(s.n):
        bets[i] = 0
    if s.live == 1:
        settle_pots(s)
        return
    if s.street == 3:
        _begin_showdown(s)
        return
    if s.active < 2 and not s.runout:
        # Nobody can bet any more: every live hand is shown, then the board is completed
        # with the usual burns (P2).
        s.runout = True
        if s.auto_showdown:
            auto_show(s)
    s.street += 1
    _next_board(s)


def _next_board(s: HandState) -> None:
    deck = s.deck
    if deck is None:
        s.phase = BOARD
        return
    k = s.next_card
    size = BOARD_SIZES[s.street]
    s.burned.append(deck[k])
    cards = tuple(deck[k + 1:k + 1 + size])
    s.next_card = k + 1 + size
    s.board.extend(cards)
    s.events.append(BoardDealt(STREETS[s.street], cards))
    after_board(s)


def after_board(s: HandState) -> None:
    """The street's board cards are dealt: its betting begins, or the run-out goes on."""
    if not s.runout:
        _begin_street(s)
    elif s.street == 3:
        _begin_showdown(s)
    else:
        s.street += 1
        _next_board(s)


def _begin_street(s: HandState) -> None:
    s.phase = BETTING
    s.to_match = 0
    s.full_inc = (s.min_bet if s.structure != FIXED_LIMIT_CODE or s.street < 2
                  else s.config._plan.big_bet)
    s.n_bets = 0
    s.aggressor = -1
    acted_at = s.acted_at
    for i in range(s.n):
        acted_at[i] = -1
    s.to_act = to_act = next_actor(s, 0)
    if to_act is None:  # pragma: no cover - two players can act whenever a street begins
        end_round(s)


def _begin_showdown(s: HandState) -> None:
    s.phase = SHOWDOWN
    s.street = 4
    s.to_act = None
    if s.auto_showdown:
        auto_show(s)
    maybe_settle(s)
