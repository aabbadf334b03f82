"""A tight-aggressive rule bot: :class:`TagBot`, the textbook "TAG" regular.

It plays few hands and plays them with bets and raises, never limping:

* **Preflop** it ranks its two cards by Chen's score
  (:func:`~feltro.bots.reading.chen_score`). Nobody has raised: it raises to three big blinds
  (one more per limper) with the top ~11% of hands, widening to the top ~25% on the button,
  in the small blind and heads-up, and otherwise checks or folds. Facing one raise it
  re-raises to three times the raise with the top ~2% and calls with the top ~7% when the
  price is at most a tenth of its stack; facing a re-raise it moves all in with the top ~1.5%
  and folds the rest.
* **After the flop** it sorts its hand into a tier (:class:`~feltro.bots.reading.Made`).
  Strong hands and better bet three quarters of the pot and raise bets; top pair bets two
  thirds and calls bets up to the pot; a weak pair checks and calls a third of the pot; a
  draw bets half the pot half the time and calls by pot odds; with nothing, the preflop
  raiser still bets two thirds of the pot on six flops in ten (a continuation bet), and
  otherwise it checks or folds.

Randomness (the continuation bets and semi-bluffs) comes only from the ``random.Random`` it is
given.
"""

from __future__ import annotations

from typing import Final

from feltro.actions import CHECK, FOLD, Action, Raise
from feltro.bots import check_or_fold
from feltro.bots.reading import big_blind, chen_score, raise_to
from feltro.bots.rules import RulesBot
from feltro.events import ActionTaken, Street
from feltro.hand import LegalActions, SeatView

__all__ = ["TagBot"]

# Chen scores (see reading.chen_score) and the share of starting hands that reach them.
_OPEN: Final = 8          # top ~11%
_OPEN_LATE: Final = 6     # top ~25%
_CALL_RAISE: Final = 9    # top ~7%
_THREE_BET: Final = 12    # top ~2%
_ALL_IN: Final = 14       # top ~1.4%

_CONTINUATION: Final = 0.6
"""How often the preflop raiser bets a flop it missed."""


class TagBot(RulesBot):
    """The tight-aggressive rule bot (see the module docstring): the rules bot's play after
    the flop with bigger bets, a continuation bet for a bluff, and its own preflop."""

    name = "tag"
    semi_bluff_rate = 0.5

    def _preflop(self, hole: tuple[int, int], view: SeatView, legal: LegalActions) -> Action:
        score = chen_score(*hole)
        me = view.position
        assert me is not None
        bb = big_blind(view)
        stack = view.stacks[me] + view.bets[me]
        raises = _preflop_raises(view)
        if raises == 0:
            late = view.players == 2 or me in (0, view.players - 1)
            if score >= (_OPEN_LATE if late else _OPEN):
                limpers = sum(1 for e in view.events if isinstance(e, ActionTaken)
                              and e.street is Street.PREFLOP and e.chips > 0)
                return raise_to(legal, 3 * bb + limpers * bb)
            return check_or_fold(legal)
        if raises == 1:
            if score >= _THREE_BET:
                return raise_to(legal, 3 * view.current_bet)
            if score >= _CALL_RAISE and legal.call_amount * 10 <= stack:
                return legal.passive
            return FOLD
        if score >= _ALL_IN and legal.max_raise_to is not None:
            return Raise(legal.max_raise_to)
        return legal.passive if score >= _ALL_IN else FOLD

    def _value_bet(self, view: SeatView, pot: int, call: int) -> int:
        return view.current_bet + 3 * pot // 4 if call == 0 else 3 * view.current_bet

    def _top_pair_bet(self, view: SeatView, pot: int) -> int:
        return view.current_bet + 2 * pot // 3

    def _draw_bet(self, view: SeatView, pot: int) -> int:
        return view.current_bet + pot // 2

    def _with_nothing(self, view: SeatView, legal: LegalActions, pot: int) -> Action:
        """The preflop raiser bets a flop it missed (a continuation bet) now and then."""
        if _raised_last_preflop(view) and view.street is Street.FLOP and \
                self.rng.random() < _CONTINUATION:
            return raise_to(legal, view.current_bet + 2 * pot // 3)
        return CHECK


def _preflop_raises(view: SeatView) -> int:
    return sum(1 for e in view.events if isinstance(e, ActionTaken)
               and e.street is Street.PREFLOP and isinstance(e.action, Raise))


def _raised_last_preflop(view: SeatView) -> bool:
    last = None
    for e in view.events:
        if isinstance(e, ActionTaken) and e.street is Street.PREFLOP and \
                isinstance(e.action, Raise):
            last = e.position
    return last is not None and last == view.position
