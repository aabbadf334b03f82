"""The strongest built-in bot: :class:`ExpertBot`, Monte Carlo equity played with position,
stack depth, sizings and a mixed strategy (the ``expert`` level).

It keeps the equity estimate of :class:`~feltro.bots.montecarlo.MonteCarloBot` (opponents'
ranges narrowed by what they did this hand, Monte Carlo run-outs) and changes how that equity
becomes an action:

* **Preflop by position.** An unopened pot is opened with the top share of starting hands for
  the seat: about 15% with many players behind, widening to 45% on the button, 50% in the
  small blind against the big blind alone and 80% on the button heads-up; the open is 2.5 big
  blinds plus one per limper. An opening raise is read the same way: the fewer players were
  behind the opener, the wider its range. Facing a raise it re-raises the top quarter of the
  opener's range (and, mixed in, a few hands just below as bluffs), calls when its equity
  against the ranges pays the price (a little less asked in position, a little more out of
  it), and folds the rest. Facing a re-raise it moves in or calls only with the top
  ~2.5-5%. With 12 big blinds or less it plays push-or-fold.
* **After the flop by equity and position.** It bets for value when ahead (two-thirds of the
  pot, three-quarters with a very strong hand, all in when the stack is small against the
  pot), bets a third of the pot half the time with a thin edge, semi-bluffs draws with two
  thirds of the pot, bluffs at set frequencies when checked to (two thirds of the pot against
  one opponent in any position, falling street by street; half the pot in position against
  more), continuation-bets two thirds of the pot on most heads-up flops after raising
  preflop, check-raises strong hands sometimes, and calls by
  pot odds with a margin that grows street by street (implied odds early, none on the
  river) and with every earlier street the bettor bet (few players fire three barrels
  without a hand).
* **Mixed.** Every threshold decision near its edge is drawn at random from the
  ``random.Random`` it is given, so it cannot be beaten by one trick, and it stays
  reproducible from its seed.
"""

from __future__ import annotations

from typing import Final

from feltro.actions import CHECK, FOLD, Action, Raise
from feltro.bots import check_or_fold
from feltro.bots.montecarlo import (
    _MAX_TRIALS,
    _MIN_TRIALS,
    MonteCarloBot,
    equity,
    opponent_range,
)
from feltro.bots.reading import (
    acted,
    big_blind,
    opponents,
    own_hole,
    raise_to,
    raises_by,
    range_threshold,
    score_table,
)
from feltro.events import ActionTaken, Street
from feltro.hand import LegalActions, SeatView

__all__ = ["ExpertBot"]

_SCORES: Final = score_table()
_EVALUATIONS: Final = 4000
_CALL_RAISE: Final = range_threshold(0.14)
_HEADS_UP_OPEN: Final = 0.8
"""The share of hands the button opens heads-up."""
_OPENER_SHARE: Final = (0.5, 0.5, 0.45, 0.36, 0.28, 0.22, 0.18, 0.15)
"""The share of hands opened (and read in an opener) by the players still to act behind."""
_FOUR_BET: Final = range_threshold(0.025)
_CALL_THREE_BET: Final = range_threshold(0.05)
_SHORT_STACK_BB: Final = 12


class ExpertBot(MonteCarloBot):
    """The expert bot (see the module docstring)."""

    name = "expert"

    def play(self, hole: tuple[int, int], view: SeatView, legal: LegalActions) -> Action:
        """A decision; always one of *legal*."""
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
        """The Monte Carlo bot's reads, loosened (a call says less about a hand than it
        assumes: many players call with draws or nothing), except for an opening raise,
        read by the seat it came from: the fewer players left behind it, the wider."""
        others = opponents(view)
        if view.street is Street.PREFLOP:
            waiting = [p for p in others if not acted(view, p, Street.PREFLOP)
                       and view.committed[p] == 0]
            others = [p for p in others if p not in waiting] + waiting[:(len(waiting) + 2) // 3]
        return [self._read(view, p) for p in others]

    def _read(self, view: SeatView, position: int) -> tuple[float, float]:
        share, hit = opponent_range(view, position)
        behind = _opened_with_behind(view, position)
        if behind is not None and share == 0.15:
            share = _OPENER_SHARE[min(behind, len(_OPENER_SHARE) - 1)]
        else:
            share = min(1.0, share * 1.4)
        return share, hit if hit >= 0.8 else hit * 0.6

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
        return check_or_fold(legal)

    def _against_a_raise(self, view: SeatView, legal: LegalActions, score: int,
                         stack: int) -> Action:
        """One raise before us: three-bet the top of what beats the raiser's range (and,
        mixed in, a few hands just below as bluffs), call when the equity against the
        raiser's range pays the price, or fold."""
        hole = own_hole(view)
        assert hole is not None
        raiser = [self._read(view, p) for p in opponents(view) if raises_by(view, p)]
        opener = raiser[0][0] if raiser else 0.15
        if score >= range_threshold(opener * 0.25) or (
                score >= range_threshold(opener * 0.4) and self.rng.random() < 0.3):
            factor = 3 if self._in_position(view) else 3.5
            return self._sized(legal, int(view.current_bet * factor), stack, 0.7)
        call = legal.call_amount
        if call * 8 > stack and score < range_threshold(opener * 0.5):
            return FOLD  # a large share of the stack: only the top of the range goes on
        ranges = self._ranges(view)
        trials = max(_MIN_TRIALS, min(_MAX_TRIALS, _EVALUATIONS // (len(ranges) + 1)))
        estimate = equity(hole, view.board, ranges, trials, self.rng)
        odds = call / (view.pot + call)
        # Position and deep stacks pay later streets (implied odds); out of position less.
        need = odds - (0.03 if self._in_position(view) else -0.02) * (len(ranges) == 1)
        return legal.passive if estimate >= need else FOLD

    def _in_position(self, view: SeatView) -> bool:
        """Whether the viewer acts after every live opponent after the flop."""
        me = view.position
        assert me is not None
        live = [p for p in range(view.players) if not view.folded[p]]
        return me == max(live) if view.players > 2 else me == 1

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
        if view.players == 2:
            return _HEADS_UP_OPEN if waiting else 0.5
        return _OPENER_SHARE[min(waiting, len(_OPENER_SHARE) - 1)]

    # ------------------------------------------------------------------ after the flop

    def _postflop(self, view: SeatView, legal: LegalActions, equity: float) -> Action:
        if legal.call_amount == 0:
            return self._bet_or_check(view, legal, equity)
        return self._against_a_bet(view, legal, equity)

    def _bet_or_check(self, view: SeatView, legal: LegalActions, equity: float) -> Action:
        """Nobody bet yet: value bets, thin bets, continuation bets, semi-bluffs, bluffs."""
        me = view.position
        assert me is not None
        pot = max(view.pot, 1)
        bb = big_blind(view)
        stack = view.stacks[me] + view.bets[me]
        rand = self.rng.random
        river = view.street is Street.RIVER
        if equity > 0.8:
            return self._sized(legal, view.current_bet + max(pot, bb), stack, equity)
        if equity > 0.62:
            if not self._in_position(view) and rand() < 0.2:
                return CHECK  # a check to raise later
            return raise_to(legal, view.current_bet + max(2 * pot // 3, bb))
        if equity > 0.5 and rand() < 0.5:
            return raise_to(legal, view.current_bet + max(pot // 3, bb))
        if self._continues(view) and rand() < _CONTINUATION_BET:
            return raise_to(legal, view.current_bet + max(2 * pot // 3, bb))
        if not river and 0.33 < equity <= 0.5 and rand() < 0.35:
            return raise_to(legal, view.current_bet + max(2 * pot // 3, bb))  # semi-bluff
        if len(opponents(view)) == 1:
            # One opponent who checked (or has not acted): a bet of two thirds of the pot
            # makes the hands that would call a smaller one fold; bluff at a rate that falls
            # street by street, whatever the position.
            if equity < 0.33 and rand() < _HEADS_UP_BLUFF.get(view.street, 0.12):
                return raise_to(legal, view.current_bet + max(2 * pot // 3, bb))  # bluff
        elif self._in_position(view) and equity < 0.3 and rand() < (0.12 if river else 0.25):
            return raise_to(legal, view.current_bet + max(pot // 2, bb))  # bluff
        return CHECK

    def _continues(self, view: SeatView) -> bool:
        """Whether a continuation bet makes sense: on the flop of a heads-up pot, after
        raising last before it."""
        me = view.position
        if view.street is not Street.FLOP or len(opponents(view)) != 1:
            return False
        last = None
        for e in view.events:
            if isinstance(e, ActionTaken) and e.street is Street.PREFLOP and \
                    isinstance(e.action, Raise):
                last = e.position
        return last == me

    def _against_a_bet(self, view: SeatView, legal: LegalActions, equity: float) -> Action:
        """Facing a bet: raise for value (or as a rare semi-bluff), call by pot odds with
        a margin that grows street by street and with every earlier bet of the bettor's
        (few players bet three streets without a hand), or fold."""
        me = view.position
        assert me is not None
        pot = max(view.pot, 1)
        stack = view.stacks[me] + view.bets[me]
        river = view.street is Street.RIVER
        call = legal.call_amount
        odds = call / (pot + call)
        margin = {Street.FLOP: -0.03, Street.TURN: 0.0}.get(view.street, 0.03)
        barrels = max((sum(raises_by(view, p, street) for street in _EARLIER[view.street])
                       for p in opponents(view)), default=0)
        margin += _BARREL_MARGIN * barrels
        if legal.can_raise and equity > max(0.72, odds + 0.3):
            return self._sized(legal, view.current_bet * 3, stack, equity)
        if legal.can_raise and not river and 0.35 < equity < 0.45 and self.rng.random() < 0.08:
            return raise_to(legal, view.current_bet * 3)  # a semi-bluff raise
        if equity >= odds + margin:
            return legal.passive
        return FOLD


_EARLIER: Final = {Street.FLOP: (), Street.TURN: (Street.FLOP,),
                   Street.RIVER: (Street.FLOP, Street.TURN)}
_BARREL_MARGIN: Final = 0.04
"""Extra equity asked for a call for each earlier street the bettor bet or raised."""
_CONTINUATION_BET: Final = 0.6
"""How often the preflop raiser bets two thirds of the pot on a heads-up flop without a
hand."""
_HEADS_UP_BLUFF: Final = {Street.FLOP: 0.3, Street.TURN: 0.2}
"""How often it bluffs a pot with one opponent when checked to (0.12 on the river)."""


def _opened_with_behind(view: SeatView, position: int) -> int | None:
    """How many players were still to act behind *position* when it made the first raise
    of the hand, or ``None`` when it did not."""
    for e in view.events:
        if isinstance(e, ActionTaken) and e.street is Street.PREFLOP and \
                isinstance(e.action, Raise):
            if e.position != position:
                return None
            order = _preflop_order(view.players)
            return len(order) - 1 - order.index(position)
    return None


def _preflop_order(players: int) -> list[int]:
    """Positions in preflop acting order: after the big blind, then the blinds."""
    if players == 2:
        return [1, 0]
    return [*range(2, players), 0, 1]
