"""A simple rule-based bot: :class:`RulesBot`, the middle level.

It plays like a sensible beginner who follows a short list of rules:

* **Preflop** it scores its two cards (Chen's formula, :func:`~feltro.bots.reading.chen_score`).
  Good hands raise to three big blinds (plus one for each caller), very good hands re-raise a
  raise to three times its size; playable hands call a price up to a share of the stack;
  the rest check or fold.
* **After the flop** it sorts its hand into a tier (:class:`~feltro.bots.reading.Made`):
  monsters and strong hands bet about two thirds of the pot and raise bets; top pair bets half
  the pot and calls up to a pot-sized bet; a weak pair checks and calls small bets; a draw
  calls when the price is right (pot odds against roughly one chance in three on the flop and
  one in five on the turn); nothing checks, folds to a bet, and now and then bluffs.

Randomness (the occasional bluff, mixing bet sizes) comes only from the ``random.Random`` it
is given.
"""

from __future__ import annotations

from typing import Final

from feltro.actions import CHECK, Action
from feltro.bots import check_or_fold
from feltro.bots.base import HoleCardBot
from feltro.bots.reading import (
    Made,
    answer_bet,
    big_blind,
    chen_score,
    has_draw,
    made_hand,
    raise_to,
)
from feltro.hand import LegalActions, SeatView

__all__ = ["RulesBot"]

# Chen scores (see reading.chen_score): 20 = aces, 12 = A-K suited, 9 = J-T suited.
_RERAISE: Final = 12
_OPEN: Final = 9
_PLAY: Final = 6



class RulesBot(HoleCardBot):
    """The rule-based bot (see the module docstring)."""

    name = "rules"

    bluff_rate: float = 0.08
    """How often it bets with nothing when checked to."""
    semi_bluff_rate: float = 0.3
    """How often it bets a draw when checked to."""

    def play(self, hole: tuple[int, int], view: SeatView, legal: LegalActions) -> Action:
        """A decision by the rules above; always one of *legal*."""
        if not view.board:
            return self._preflop(hole, view, legal)
        return self._postflop(hole, view, legal)

    def _preflop(self, hole: tuple[int, int], view: SeatView, legal: LegalActions) -> Action:
        assert view.position is not None
        # Fewer players, weaker hands are worth playing: lower the bar short-handed.
        live = sum(1 for folded in view.folded if not folded)
        score = chen_score(*hole) + {2: 3, 3: 2, 4: 1}.get(live, 0)
        bb = big_blind(view)
        stack = view.stacks[view.position] + view.bets[view.position]
        facing_raise = view.current_bet > bb
        if facing_raise:
            if score >= _RERAISE:
                if view.current_bet * 3 >= stack // 3:
                    return raise_to(legal, stack)  # committed anyway: all in
                return raise_to(legal, view.current_bet * 3)
            if score >= _OPEN and legal.call_amount * 8 <= stack:
                return legal.passive
            if score >= _PLAY + 2 and legal.call_amount * 20 <= stack:
                return legal.passive
            return check_or_fold(legal)
        callers = sum(1 for p in range(view.players)
                      if p != view.position and view.bets[p] >= bb and not view.folded[p]) - 1
        if score >= _OPEN:
            return raise_to(legal, bb * (3 + max(callers, 0)))
        if score >= _PLAY and legal.call_amount * 25 <= stack:
            return legal.passive
        return check_or_fold(legal)

    def _postflop(self, hole: tuple[int, int], view: SeatView, legal: LegalActions) -> Action:
        """By the tier of the made hand (the module docstring); the sizes and the play with
        nothing are the hooks below, which :class:`~feltro.bots.tag.TagBot` sets its own way."""
        tier = made_hand(hole, view.board)
        pot = max(view.pot, 1)
        if tier >= Made.STRONG:
            return raise_to(legal, self._value_bet(view, pot, legal.call_amount))
        if legal.call_amount > 0:
            return answer_bet(tier, hole, view, legal)
        if tier == Made.TOP_PAIR:
            return raise_to(legal, self._top_pair_bet(view, pot))
        if tier == Made.WEAK_PAIR:
            return CHECK
        if has_draw(hole, view.board):
            if self.rng.random() < self.semi_bluff_rate:
                return raise_to(legal, self._draw_bet(view, pot))
            return CHECK
        return self._with_nothing(view, legal, pot)

    def _value_bet(self, view: SeatView, pot: int, call: int) -> int:
        """The total a strong hand bets (*call* is 0) or raises to."""
        size = pot * 2 // 3 if call == 0 else view.current_bet * 2 + pot // 2
        return view.current_bet + size if call == 0 else size

    def _top_pair_bet(self, view: SeatView, pot: int) -> int:
        return pot // 2

    def _draw_bet(self, view: SeatView, pot: int) -> int:
        return pot // 2

    def _with_nothing(self, view: SeatView, legal: LegalActions, pot: int) -> Action:
        """Checked to with nothing: a bluff now and then."""
        if self.rng.random() < self.bluff_rate:
            return raise_to(legal, pot // 2)
        return CHECK
