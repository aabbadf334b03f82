"""A stronger bot: :class:`ExpertBot`, Monte Carlo equity played with position,
stack depth, sizings and a mixed strategy.

It keeps the equity estimate of :class:`~feltro.bots.montecarlo.MonteCarloBot` (opponents'
ranges narrowed by what they did this hand, Monte Carlo run-outs) and changes how that equity
becomes an action:

* **Preflop by position.** An unopened pot is opened with the top share of starting hands for
  the seat: about 15% with many players behind, widening to about 45% on the button and 40%
  in the small blind against the big blind alone; the open is 2.5 big blinds plus one per
  limper. Facing a raise it re-raises the top ~4% (and, mixed in, a few hands just below as
  bluffs), calls with the next band when the stack is deep enough, and folds the rest.
  Facing a re-raise it moves in or calls only with the top ~2.5-5%. With 12 big blinds or
  less it plays push-or-fold from the same bands.
* **After the flop by equity and position.** It bets for value when ahead (two-thirds of the
  pot, three-quarters with a very strong hand, all in when the stack is small against the
  pot), bets a third of the pot half the time with a thin edge, semi-bluffs draws and bluffs
  when checked to in position at set frequencies, check-raises strong hands sometimes, and
  calls by pot odds with a margin that grows street by street (implied odds early, none on
  the river).
* **Mixed.** Every threshold decision near its edge is drawn at random from the
  ``random.Random`` it is given, so it cannot be beaten by one trick, and it stays
  reproducible from its seed.
"""

from __future__ import annotations

import random
from typing import Final

from feltro.actions import CHECK, FOLD, Action, Raise
from feltro.bots.montecarlo import _MAX_TRIALS, _MIN_TRIALS, MonteCarloBot, equity
from feltro.bots.reading import (
    acted,
    big_blind,
    own_hole,
    raise_to,
    range_threshold,
    score_table,
)
from feltro.events import ActionTaken, Street
from feltro.hand import LegalActions, SeatView

__all__ = ["ExpertBot"]

_SCORES: Final = score_table()
_EVALUATIONS: Final = 4000
_THREE_BET: Final = range_threshold(0.04)
_THREE_BET_BLUFF: Final = range_threshold(0.07)
_CALL_RAISE: Final = range_threshold(0.14)
_FOUR_BET: Final = range_threshold(0.025)
_CALL_THREE_BET: Final = range_threshold(0.05)
_SHORT_STACK_BB: Final = 12


class ExpertBot(MonteCarloBot):
    """The expert bot (see the module docstring)."""

    name = "expert"

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)

    def act(self, view: SeatView, legal: LegalActions) -> Action:
        """A decision; always one of *legal*."""
        hole = own_hole(view)
        if hole is None or view.position is None:
            return CHECK if legal.can_check else FOLD
        if view.street is Street.PREFLOP:
            decided = self._preflop(view, legal, _SCORES[hole[0]][hole[1]])
            if decided is not None:
                return decided
        ranges = self._ranges(view)
        trials = max(_MIN_TRIALS, min(_MAX_TRIALS, _EVALUATIONS // (len(ranges) + 1)))
        estimate = equity(hole, view.board, ranges, trials, self.rng)
        if view.street is Street.PREFLOP:
            return self.decide(view, legal, estimate)
        return self._postflop(view, legal, estimate)

    def _ranges(self, view: SeatView) -> list[tuple[float, float]]:
        """The Monte Carlo bot's reads, loosened: a call says less about a hand than it
        assumes (many players call with draws or nothing), and ranges are a little wider."""
        return [(min(1.0, share * 1.4), hit if hit >= 0.8 else hit * 0.6)
                for share, hit in super()._ranges(view)]

    # ------------------------------------------------------------------ preflop

    def _preflop(self, view: SeatView, legal: LegalActions, score: int) -> Action | None:
        """The preflop decision from the hand's rank, or ``None`` to use equity instead."""
        me = view.position
        assert me is not None
        bb = big_blind(view)
        stack = view.stacks[me] + view.bets[me]
        raises = sum(1 for e in view.events if isinstance(e, ActionTaken)
                     and e.street is Street.PREFLOP and isinstance(e.action, Raise))
        if stack <= _SHORT_STACK_BB * bb:
            return self._push_or_fold(view, legal, score, raises)
        if raises == 0:
            return self._open(view, legal, score, bb)
        if raises == 1:
            return self._against_a_raise(view, legal, score, stack)
        call = legal.call_amount
        if score >= _FOUR_BET and legal.max_raise_to is not None:
            return Raise(legal.max_raise_to)
        if score >= _CALL_THREE_BET and call * 5 <= stack:
            return legal.passive
        return None if score >= _CALL_RAISE else FOLD

    def _push_or_fold(self, view: SeatView, legal: LegalActions, score: int,
                      raises: int) -> Action:
        """Short-stacked: all in with the top of the range, else check or fold."""
        band = (self._open_share(view) if raises == 0 else 0.12 if raises == 1 else 0.05)
        if score >= range_threshold(band) and legal.max_raise_to is not None:
            return Raise(legal.max_raise_to)
        if score >= range_threshold(band) or legal.can_check:
            return legal.passive
        return FOLD

    def _open(self, view: SeatView, legal: LegalActions, score: int, bb: int) -> Action:
        """Nobody raised yet: open to 2.5 big blinds (one more per limper), or get out."""
        if score >= range_threshold(self._open_share(view)):
            limpers = sum(1 for e in view.events if isinstance(e, ActionTaken)
                          and e.street is Street.PREFLOP and e.chips > 0)
            return raise_to(legal, int(2.5 * bb) + limpers * bb)
        return CHECK if legal.can_check else FOLD

    def _against_a_raise(self, view: SeatView, legal: LegalActions, score: int,
                         stack: int) -> Action:
        """One raise before us: three-bet (sometimes as a bluff), call cheap, or fold."""
        if score >= _THREE_BET or (score >= _THREE_BET_BLUFF and self.rng.random() < 0.3):
            in_position = self._acts_last(view)
            return self._sized(legal, int(view.current_bet * (3 if in_position else 3.5)),
                               stack, 0.7)
        if score >= _CALL_RAISE and legal.call_amount * 12 <= stack:
            return legal.passive
        return FOLD

    def _open_share(self, view: SeatView) -> float:
        """The share of hands to open from this seat: wider with fewer players behind."""
        me = view.position
        assert me is not None
        behind = [p for p in range(view.players) if p != me and not view.folded[p]
                  and not acted(view, p, Street.PREFLOP) and p > me]
        # Positions after the button's are the blinds (0 and 1): they act after us preflop.
        blinds_behind = [p for p in range(view.players) if p < me and not view.folded[p]
                         and view.committed[p] > 0 and not acted(view, p, Street.PREFLOP)]
        waiting = len(behind) + len(blinds_behind)
        if waiting <= 1:
            return 0.45 if me == view.players - 1 else 0.40
        return max(0.12, 0.45 - 0.06 * (waiting - 1))

    def _acts_last(self, view: SeatView) -> bool:
        me = view.position
        assert me is not None
        live = [p for p in range(view.players) if not view.folded[p]]
        if view.street is Street.PREFLOP:
            return me == view.players - 1
        return me == max(live)

    # ------------------------------------------------------------------ after the flop

    def _postflop(self, view: SeatView, legal: LegalActions, equity: float) -> Action:
        me = view.position
        assert me is not None
        pot = max(view.pot, 1)
        bb = big_blind(view)
        stack = view.stacks[me] + view.bets[me]
        rand = self.rng.random
        river = view.street is Street.RIVER
        if legal.call_amount == 0:
            if equity > 0.8:
                return self._sized(legal, view.current_bet + max(pot, bb), stack, equity)
            if equity > 0.62:
                if not self._acts_last(view) and rand() < 0.2:
                    return CHECK  # a check to raise later
                return raise_to(legal, view.current_bet + max(2 * pot // 3, bb))
            if equity > 0.5 and rand() < 0.5:
                return raise_to(legal, view.current_bet + max(pot // 3, bb))
            if not river and 0.33 < equity <= 0.5 and rand() < 0.35:
                return raise_to(legal, view.current_bet + max(pot // 2, bb))  # semi-bluff
            if self._acts_last(view) and equity < 0.3 and rand() < (0.12 if river else 0.25):
                return raise_to(legal, view.current_bet + max(pot // 2, bb))  # bluff
            return CHECK
        call = legal.call_amount
        odds = call / (pot + call)
        margin = {Street.FLOP: -0.03, Street.TURN: 0.0}.get(view.street, 0.03)
        if legal.can_raise and equity > max(0.72, odds + 0.3):
            return self._sized(legal, view.current_bet * 3, stack, equity)
        if legal.can_raise and not river and 0.35 < equity < 0.45 and rand() < 0.08:
            return raise_to(legal, view.current_bet * 3)  # a semi-bluff raise
        if equity >= odds + margin:
            return legal.passive
        return FOLD
