"""What the stronger bots read from a seat view: hand scores, ranges, made hands, sizes.

Shared by :mod:`feltro.bots.rules`, :mod:`feltro.bots.tag` and :mod:`feltro.bots.montecarlo`.
Everything here looks only at a :class:`~feltro.hand.SeatView` (its own hole cards, the public
state and the public log) and the :class:`~feltro.hand.LegalActions`; nothing here is random or
does I/O.

>>> chen_score(Card.parse("As"), Card.parse("Ah")), chen_score(Card.parse("7c"), Card.parse("2d"))
(20, -1)
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections import Counter
from collections.abc import Sequence
from typing import Final

from feltro.actions import FOLD, Action, Raise
from feltro.cards import Card
from feltro.evaluator import evaluate
from feltro.events import ActionTaken, BlindPosted, Street
from feltro.hand import LegalActions, SeatView

__all__ = [
    "DRAW_ODDS",
    "RANGE_SCORES",
    "Made",
    "answer_bet",
    "big_blind",
    "board_category",
    "chen_score",
    "has_draw",
    "made_hand",
    "opponents",
    "own_hole",
    "raise_to",
    "range_threshold",
    "score_table",
]


def chen_score(a: int, b: int) -> int:
    """Bill Chen's quick preflop score of two cards (-1 for 7-2 offsuit .. 20 for aces).

    A cheap, well-known ordering of starting hands: the stronger bots use it to rank hands and
    to model "the top 15% of hands" as a range.
    """
    ra, rb = a >> 2, b >> 2
    high, low = (ra, rb) if ra >= rb else (rb, ra)
    base = (10.0, 8.0, 7.0, 6.0)[12 - high] if high >= 9 else (high + 2) / 2
    if high == low:
        return math.ceil(max(base * 2, 5))
    score = base
    if (a & 3) == (b & 3):
        score += 2
    gap = high - low - 1
    score -= (0, 1, 2, 4)[gap] if gap < 4 else 5
    if gap <= 1 and high < 10:  # straight potential of two cards below a queen
        score += 1
    return math.ceil(score)


def score_table() -> tuple[tuple[int, ...], ...]:
    """``table[a][b]``: the Chen score of cards *a* and *b* (ids 0..51); the diagonal is 0."""
    return tuple(tuple(chen_score(a, b) if a != b else 0 for b in range(52)) for a in range(52))


_SCORES: Final = score_table()
# Every two-card combination's score, ascending: the basis of "top x% of hands".
RANGE_SCORES: Final = tuple(sorted(_SCORES[a][b] for a in range(52) for b in range(a + 1, 52)))


def range_threshold(fraction: float) -> int:
    """The smallest Chen score inside the top *fraction* (0..1] of the 1,326 starting hands."""
    if fraction >= 1.0:
        return -100
    count = len(RANGE_SCORES)
    keep = max(1, round(fraction * count))
    return RANGE_SCORES[count - keep]


def share_at_least(score: int) -> float:
    """The share of starting hands scoring *score* or more (the inverse of the above)."""
    return 1.0 - bisect_left(RANGE_SCORES, score) / len(RANGE_SCORES)


def own_hole(view: SeatView) -> tuple[Card, Card] | None:
    """The viewer's two hole cards, or ``None`` when they are unknown."""
    hole = view.hole or ()
    if len(hole) != 2 or hole[0] is None or hole[1] is None:
        return None
    return hole[0], hole[1]


def big_blind(view: SeatView) -> int:
    """The big blind of the hand: the largest blind posted (at least 1)."""
    posted = [e.amount for e in view.events if isinstance(e, BlindPosted)]
    return max([1, *posted])


def opponents(view: SeatView) -> list[int]:
    """Positions still in the hand (not folded) other than the viewer."""
    return [p for p in range(view.players) if p != view.position and not view.folded[p]]


def raises_by(view: SeatView, position: int, street: Street | None = None) -> int:
    """How many bets or raises *position* made (in *street*, or the whole hand)."""
    return sum(1 for e in view.events if isinstance(e, ActionTaken) and e.position == position
               and isinstance(e.action, Raise) and (street is None or e.street == street))


def acted(view: SeatView, position: int, street: Street) -> bool:
    """Whether *position* has acted in *street* (blinds are not actions)."""
    return any(isinstance(e, ActionTaken) and e.position == position and e.street == street
               for e in view.events)


def raise_to(legal: LegalActions, target: int) -> Action:
    """Bet or raise to *target*, clipped into the legal range; check or call when closed."""
    low, high = legal.min_raise_to, legal.max_raise_to
    if low is None or high is None:
        return legal.passive
    return Raise(min(max(target, low), high))


def board_category(board: Sequence[int]) -> int:
    """The category (``Category`` value, 1..9) the board makes alone.

    With fewer than five cards only pairs, trips and quads count.
    """
    if len(board) == 5:
        return int(evaluate(board).category)
    counts = sorted(Counter(c >> 2 for c in board).values(), reverse=True)
    if not counts:
        return 1
    if counts[0] == 4:
        return 8
    if counts[0] == 3:
        return 4
    if counts[0] == 2:
        return 3 if len(counts) > 1 and counts[1] == 2 else 2
    return 1


class Made:
    """Tiers of a made hand after the flop, from the viewer's point of view."""

    NOTHING: Final = 0
    WEAK_PAIR: Final = 1
    """A pair using a hole card below the top of the board."""
    TOP_PAIR: Final = 2
    """Top pair or an overpair."""
    STRONG: Final = 3
    """Two pair or better that the hole cards make (not just the board)."""
    MONSTER: Final = 4
    """A straight or better that the hole cards make."""


def made_hand(hole: Sequence[int], board: Sequence[int]) -> int:
    """The :class:`Made` tier of *hole* on a *board* of 3 to 5 cards."""
    mine = int(evaluate(list(hole) + list(board)).category)
    on_board = board_category(board)
    if mine <= on_board:
        return Made.NOTHING  # the board plays: nothing of ours
    if mine >= 5:
        return Made.MONSTER
    if mine >= 3 and mine - on_board >= 1 and not (mine == 3 and on_board == 2):
        return Made.STRONG
    ranks = [c >> 2 for c in hole]
    top = max(c >> 2 for c in board)
    board_ranks = {c >> 2 for c in board}
    if ranks[0] == ranks[1] and ranks[0] > top:
        return Made.TOP_PAIR  # an overpair
    if top in ranks and top in board_ranks:
        return Made.TOP_PAIR
    return Made.WEAK_PAIR


def has_draw(hole: Sequence[int], board: Sequence[int]) -> bool:
    """A flush draw or an open-ended straight draw that uses a hole card (board not complete)."""
    if len(board) >= 5:
        return False
    cards = list(hole) + list(board)
    suits = Counter(c & 3 for c in cards)
    if any(n == 4 and any((h & 3) == s for h in hole) for s, n in suits.items()):
        return True
    ranks = {c >> 2 for c in cards}
    hole_ranks = {c >> 2 for c in hole}
    # Four in a row open at both ends: 2-3-4-5 (ace or six) up to T-J-Q-K (nine or ace).
    for low in range(9):
        window = set(range(low, low + 4))
        if window <= ranks and window & hole_ranks:
            return True
    return False


DRAW_ODDS: Final = {3: 0.33, 4: 0.19}
"""Chances of completing a draw with the cards to come (about 1 in 3 on the flop, 1 in 5 on
the turn), by board size: what a call must be paid for."""


def answer_bet(tier: int, hole: Sequence[int], view: SeatView, legal: LegalActions) -> Action:
    """Call or fold, facing a bet after the flop with less than a :attr:`Made.STRONG` hand
    *tier*: top pair calls up to the pot, a weak pair up to a third of it, a draw when the
    price is below its :data:`DRAW_ODDS`; anything else folds."""
    pot = max(view.pot, 1)
    call = legal.call_amount
    if tier == Made.TOP_PAIR:
        return legal.passive if call <= pot else FOLD
    if tier == Made.WEAK_PAIR:
        return legal.passive if call * 3 <= pot else FOLD
    if has_draw(hole, view.board):
        odds = call / (pot + call)
        return legal.passive if odds <= DRAW_ODDS.get(len(view.board), 0.0) else FOLD
    return FOLD
