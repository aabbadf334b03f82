"""The Monte Carlo level: :class:`MonteCarloBot`, equity against plausible ranges.

For every decision it

1. guesses a **range** for each opponent from what that opponent did this hand (the public log):
   a preflop raiser holds about the top 15% of starting hands (8% after re-raising), a caller
   of a raise the top 30%, a limper the top 50%, a player who has not acted yet the top 40%
   (they will play only a decent hand), a blind who has only checked anything; a bet or raise
   after the flop narrows a range further. Ranges are cut by Chen's score
   (:mod:`feltro.bots.reading`);
2. estimates its **equity** by Monte Carlo: it deals each opponent a hand from their range
   (rejection sampling), completes the board, and counts how often it wins, ties shares;
3. compares the equity with the **pot odds** (the call's share of the pot after calling):
   it folds when the price is too high, calls when the price is right, and bets or raises for
   value when its equity is well ahead, sizing between half the pot and the pot, and moves all
   in when the raise would commit most of its stack anyway.

Preflop it counts as opponents those who already put chips in plus a third of those yet to
act: most of them will fold. The number of trials is fixed (no clock in the core): about
4,000 hand evaluations a decision. With numpy installed the trials are drawn and scored as
arrays (:mod:`feltro.bots.vectorequity`, well under a millisecond a decision); without it a
plain loop gives the same estimate in a few milliseconds. Randomness comes only from the
``random.Random`` it is given.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import cache
from typing import Final

from feltro.actions import CHECK, FOLD, Action, Raise
from feltro.bots.base import HoleCardBot
from feltro.bots.reading import (
    acted,
    big_blind,
    raise_to,
    raises_by,
    range_threshold,
    score_table,
)
from feltro.evaluator import hand_strength
from feltro.events import ActionTaken, Street
from feltro.hand import LegalActions, SeatView

__all__ = ["MonteCarloBot", "equity", "estimate_equity", "opponent_range"]

_SCORES: Final = score_table()
_EVALUATIONS: Final = 4000
"""Hand evaluations per decision (trials x hands): a few ms per 1,000 here."""
_MIN_TRIALS: Final = 300
_MAX_TRIALS: Final = 1500


def opponent_range(view: SeatView, position: int) -> tuple[float, float]:
    """``(share, hit)``: the share of starting hands *position* plausibly holds, from its
    preflop actions, and how likely its hand connects with the board (a pair with it, an
    overpair or a flush draw), from its actions after the flop: a bet or raise says "I hit"
    most of the time, a call some of the time."""
    preflop_raises = raises_by(view, position, Street.PREFLOP)
    if preflop_raises >= 2 or (preflop_raises == 1 and _raised_over_raise(view, position)):
        share = 0.08
    elif preflop_raises == 1:
        share = 0.15
    elif _called_raise_preflop(view, position):
        share = 0.30
    elif _limped(view, position):
        share = 0.50
    elif not acted(view, position, Street.PREFLOP) and view.street is Street.PREFLOP:
        share = 0.40 if view.committed[position] == 0 else 1.0
    else:
        share = 1.0  # a blind who checked: anything
    later = sum(raises_by(view, position, street) for street in _POSTFLOP)
    if later:
        return share, 0.85
    called = any(isinstance(e, ActionTaken) and e.position == position and e.chips > 0
                 and e.street in _POSTFLOP for e in view.events)
    return share, 0.6 if called else 0.0


_POSTFLOP: Final = (Street.FLOP, Street.TURN, Street.RIVER)


def _connects(a: int, b: int, board: Sequence[int]) -> bool:
    """Whether hole cards *a*, *b* pair the board, are an overpair, or make a flush draw."""
    ra, rb = a >> 2, b >> 2
    ranks = [c >> 2 for c in board]
    if ra in ranks or rb in ranks:
        return True
    if ra == rb and ra > max(ranks):
        return True
    if (a & 3) == (b & 3):
        return sum(1 for c in board if (c & 3) == (a & 3)) >= 2
    return False


def _raised_over_raise(view: SeatView, position: int) -> bool:
    seen_raise = False
    for e in view.events:
        if isinstance(e, ActionTaken) and e.street is Street.PREFLOP and \
                isinstance(e.action, Raise):
            if e.position == position and seen_raise:
                return True
            seen_raise = True
    return False


def _called_raise_preflop(view: SeatView, position: int) -> bool:
    raised = False
    for e in view.events:
        if isinstance(e, ActionTaken) and e.street is Street.PREFLOP:
            if isinstance(e.action, Raise):
                raised = True
            elif e.position == position and raised and e.chips > 0:
                return True
    return False


def _limped(view: SeatView, position: int) -> bool:
    return any(isinstance(e, ActionTaken) and e.street is Street.PREFLOP and
               e.position == position and e.chips > 0 for e in view.events)


def estimate_equity(
    hole: Sequence[int],
    board: Sequence[int],
    ranges: Sequence[tuple[float, float]],
    trials: int,
    rng: random.Random,
) -> float:
    """The share of the pot *hole* wins on average against opponents holding hands from
    *ranges* (``(share, hit)`` each, see :func:`opponent_range`), over *trials* random
    run-outs."""
    if not ranges:
        return 1.0
    dead = set(hole) | set(board)
    deck = [c for c in range(52) if c not in dead]
    models = [(range_threshold(share), hit) for share, hit in ranges]
    mine_cards = list(hole) + list(board)
    rand = rng.random
    won = 0.0
    for _ in range(trials):
        holes, runout = _deal(models, board, deck, rand)
        won += _share(hand_strength(mine_cards + runout), holes, [*board, *runout])
    return won / trials


def _deal(models: Sequence[tuple[float, float]], board: Sequence[int], deck: list[int],
          rand: Callable[[], float]) -> tuple[list[tuple[int, int]], list[int]]:
    """One trial's deal from *deck*: two cards for each opponent's range (``(threshold,
    hit)``: a hand scoring at least *threshold*, connecting with *board* with probability
    *hit*; rejection sampling, the last free draw kept after 60 misses), then the rest of the
    board."""
    size = len(deck)
    scores = _SCORES
    used: set[int] = set()
    holes: list[tuple[int, int]] = []
    for threshold, hit in models:
        must_hit = board and hit > 0.0 and rand() < hit
        for _attempt in range(60):
            a = deck[int(rand() * size)]
            b = deck[int(rand() * size)]
            if a == b or a in used or b in used:
                continue
            if scores[a][b] >= threshold and (not must_hit or _connects(a, b, board)):
                break
        while a == b or a in used or b in used:
            a = deck[int(rand() * size)]
            b = deck[int(rand() * size)]
        used.add(a)
        used.add(b)
        holes.append((a, b))
    runout: list[int] = []
    while len(runout) < 5 - len(board):
        c = deck[int(rand() * size)]
        if c not in used:
            used.add(c)
            runout.append(c)
    return holes, runout


def _share(mine: int, holes: Sequence[tuple[int, int]], board: Sequence[int]) -> float:
    """The share of the pot a hand of strength *mine* takes against *holes* on *board*: all of
    it, an equal part of a tie, or nothing."""
    best = 0
    ties = 0
    for a, b in holes:
        s = hand_strength([a, b, *board])
        if s > best:
            best, ties = s, 1
        elif s == best:
            ties += 1
    if mine > best:
        return 1.0
    if mine == best:
        return 1.0 / (ties + 1)
    return 0.0


@cache
def _vector_equity() -> Callable[[Sequence[int], Sequence[int], Sequence[tuple[float, float]],
                                  int, random.Random], float] | None:
    try:
        from feltro.bots.vectorequity import estimate_equity_np
    except ImportError:  # numpy is optional (the fast extra): the plain loop then
        return None
    return estimate_equity_np


def equity(
    hole: Sequence[int],
    board: Sequence[int],
    ranges: Sequence[tuple[float, float]],
    trials: int,
    rng: random.Random,
) -> float:
    """:func:`estimate_equity`, drawn with numpy when it is installed
    (:func:`feltro.bots.vectorequity.estimate_equity_np`, the same estimate much faster)."""
    fast = _vector_equity()
    if fast is None:
        return estimate_equity(hole, board, ranges, trials, rng)
    return fast(hole, board, ranges, trials, rng)


class MonteCarloBot(HoleCardBot):
    """The Monte Carlo equity bot (see the module docstring)."""

    name = "montecarlo"

    bluff_rate: float = 0.05

    def play(self, hole: tuple[int, int], view: SeatView, legal: LegalActions) -> Action:
        """A decision from equity against ranges and pot odds; always one of *legal*."""
        ranges = self._ranges(view)
        trials = max(_MIN_TRIALS, min(_MAX_TRIALS, _EVALUATIONS // (len(ranges) + 1)))
        return self.decide(view, legal, equity(hole, view.board, ranges, trials, self.rng))

    def _ranges(self, view: SeatView) -> list[tuple[float, float]]:
        others = [p for p in range(view.players) if p != view.position and not view.folded[p]]
        if view.street is not Street.PREFLOP:
            return [opponent_range(view, p) for p in others]
        # Preflop, those yet to act mostly fold: count a third of them (rounded up).
        waiting = [p for p in others if not acted(view, p, Street.PREFLOP)
                   and view.committed[p] == 0]
        involved = [p for p in others if p not in waiting]
        kept = waiting[:(len(waiting) + 2) // 3]
        return [opponent_range(view, p) for p in involved + kept]

    def decide(self, view: SeatView, legal: LegalActions, equity: float) -> Action:
        """Turn an *equity* estimate into an action by pot odds (public for tests)."""
        assert view.position is not None
        pot = max(view.pot, 1)
        call = legal.call_amount
        stack = view.stacks[view.position] + view.bets[view.position]
        bb = big_blind(view)
        if call == 0:
            if equity > 0.62:
                size = pot * (3 if equity > 0.8 else 2) // 4
                return self._sized(legal, view.current_bet + max(size, bb), stack, equity)
            if equity > 0.5 and self.rng.random() < 0.5:
                return raise_to(legal, view.current_bet + max(pot // 2, bb))
            if self.rng.random() < self.bluff_rate:
                return raise_to(legal, view.current_bet + max(pot // 2, bb))
            return CHECK
        odds = call / (pot + call)
        if equity > max(0.68, odds + 0.25) and legal.can_raise:
            return self._sized(legal, view.current_bet + pot + call, stack, equity)
        if equity >= odds + 0.02:
            return legal.passive
        return FOLD

    @staticmethod
    def _sized(legal: LegalActions, target: int, stack: int, equity: float) -> Action:
        """Raise to *target*, or all in when that would commit most of the stack anyway."""
        if target * 5 >= stack * 2 and equity > 0.6 and legal.max_raise_to is not None:
            return Raise(legal.max_raise_to)
        return raise_to(legal, target)
