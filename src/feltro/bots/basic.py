"""The simple built-in bots: :class:`RandomBot`, :class:`CallingStationBot`, :class:`TightBot`.

They exist to fill seats in simulations and tests, and as the easiest opponents; none of them
tries to play well. Each takes a :class:`random.Random` (the protocol of :mod:`feltro.bots`).
"""

from __future__ import annotations

import random
from typing import Final

from feltro.actions import CALL, CHECK, FOLD, Action, Raise
from feltro.bots import check_or_fold
from feltro.cards import Card
from feltro.evaluator import Category, evaluate
from feltro.hand import LegalActions, SeatView

__all__ = ["CallingStationBot", "RandomBot", "TightBot"]


class RandomBot:
    """Random over the legal actions, with the engine benchmark's weights (issue 3).

    Fold 10% (only offered when facing a bet: folding for free is pointless), check or call
    60%, the minimum bet or raise 20%, all-in 10%; renormalised over what is legal.
    """

    name = "random"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def act(self, view: SeatView, legal: LegalActions) -> Action:
        """A random legal action (see the class docstring)."""
        choices: list[Action] = [legal.passive]
        weights: list[float] = [0.6]
        if legal.call_amount > 0:
            choices.append(FOLD)
            weights.append(0.1)
        if legal.min_raise_to is not None and legal.max_raise_to is not None:
            choices += [Raise(legal.min_raise_to), Raise(legal.max_raise_to)]
            weights += [0.2, 0.1]
        return self.rng.choices(choices, weights)[0]


class CallingStationBot:
    """Checks when it can, calls any bet, never folds and never raises."""

    name = "station"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng  # unused: a calling station needs no chance, kept for the protocol

    def act(self, view: SeatView, legal: LegalActions) -> Action:
        """Check, else call."""
        return CHECK if legal.can_check else CALL


# Preflop classes: ranks are 0 (deuce) .. 12 (ace).
_TEN: Final = 8
_QUEEN: Final = 10
_KING: Final = 11
_ACE: Final = 12


class TightBot:
    """Plays few hands and bets them: a caricature of a careful beginner.

    Preflop it raises with big pairs and big aces (all-in against a big raise), calls a small
    price with other pairs, two broadway cards and suited aces, and otherwise checks or folds.
    After the flop it bets or raises about half the pot with two pair or better, calls up to
    half the pot with one pair, and checks or folds the rest, bluffing rarely when checked to.
    """

    name = "tight"

    bluff_rate: float = 0.05
    """How often it bets without a hand when nobody has bet."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def act(self, view: SeatView, legal: LegalActions) -> Action:
        """A tight decision (see the class docstring)."""
        hole = tuple(card for card in view.hole or () if card is not None)
        if len(hole) != 2 or view.position is None:
            return check_or_fold(legal)
        stack = view.stacks[view.position] + view.bets[view.position]
        if not view.board:
            return self._preflop(hole, view, legal, stack)
        return self._postflop(hole, view, legal)

    def _preflop(self, hole: tuple[Card, ...], view: SeatView, legal: LegalActions,
                 stack: int) -> Action:
        high, low = sorted((hole[0].rank, hole[1].rank), reverse=True)
        suited = hole[0].suit == hole[1].suit
        pair = high == low
        premium = (pair and high >= _TEN) or (high == _ACE and low >= _QUEEN)
        playable = pair or low >= _TEN or (suited and high == _ACE)
        if premium:
            if legal.call_amount * 5 > stack and legal.max_raise_to is not None:
                return Raise(legal.max_raise_to)  # facing a big raise: all in
            return _raise_to(legal, 3 * max(view.current_bet, 1))
        if playable and legal.call_amount * 20 <= stack:
            return legal.passive
        return check_or_fold(legal)

    def _postflop(self, hole: tuple[Card, ...], view: SeatView, legal: LegalActions) -> Action:
        category = evaluate(hole + view.board).category
        pot = view.pot
        if category >= Category.TWO_PAIR:
            return _raise_to(legal, view.current_bet + max(pot // 2, 1))
        if category == Category.ONE_PAIR:
            if legal.can_check or legal.call_amount * 2 <= pot:
                return legal.passive
            return FOLD
        if legal.can_check:
            if self.rng.random() < self.bluff_rate:
                return _raise_to(legal, max(pot // 2, 1))
            return CHECK
        return FOLD


def _raise_to(legal: LegalActions, target: int) -> Action:
    """Bet or raise to *target*, clipped to what is legal; check or call when raising is closed."""
    low, high = legal.min_raise_to, legal.max_raise_to
    if low is None or high is None:
        return legal.passive
    return Raise(min(max(target, low), high))
