"""How often each hand wins: exact enumeration of every remaining board, or Monte Carlo.

>>> r = exact_equity(["As Ah", "Ks Kh"])
>>> r.wins, r.ties, r.losses
((1410336, 292660), (9308, 9308), (292660, 1410336))
>>> round(r.equity[0], 4)
0.8264

With numpy installed (the ``fast`` extra) boards are evaluated as vectors; without it the same
counts come from a plain loop, only slower.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from math import comb
from typing import TYPE_CHECKING, Any

from feltro.cards import CardsLike, parse_cards
from feltro.errors import CardError
from feltro.evaluator import hand_strength

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["EquityResult", "exact_equity", "monte_carlo_equity"]


@dataclass(frozen=True, slots=True)
class EquityResult:
    """Win, tie and loss counts per player over :attr:`boards` boards (or trials).

    A win is a board where the player alone holds the best hand; a tie, one where the best hand
    is shared. :attr:`equity` is the share of the pot won on average (ties split it evenly).
    """

    wins: tuple[int, ...]
    ties: tuple[int, ...]
    losses: tuple[int, ...]
    equity: tuple[float, ...]
    boards: int


def _deal(
    holes: Sequence[CardsLike | None], board: CardsLike
) -> tuple[list[tuple[int, ...] | None], tuple[int, ...]]:
    """Parse and check the hands (``None`` = unknown) and the board."""
    if len(holes) < 2:
        raise CardError("equity needs at least two hands", reason="two-hands")
    hands = [None if h is None else tuple(int(c) for c in parse_cards(h)) for h in holes]
    table = tuple(int(c) for c in parse_cards(board))
    if any(h is not None and len(h) != 2 for h in hands):
        raise CardError("every hand needs exactly two hole cards", reason="two-cards")
    if len(table) > 5 or len(table) in (1, 2):
        raise CardError(f"a partial board has 0, 3, 4 or 5 cards, got {len(table)}",
                        reason="board-size", params={"count": len(table)})
    used = [c for h in hands if h is not None for c in h] + list(table)
    if len(set(used)) != len(used):
        raise CardError("a card appears twice among the hands and the board",
                        reason="card-twice")
    return hands, table


def exact_equity(holes: Sequence[CardsLike], board: CardsLike = ()) -> EquityResult:
    """Exact win/tie/loss counts for known hole cards over every completion of *board*.

    :raises CardError: for hands that are not two cards, repeated cards or a bad board.
    """
    dealt, table = _deal(holes, board)
    if any(h is None for h in dealt):
        raise CardError("exact equity needs every hand; use monte_carlo_equity for unknown hands")
    hands = [h for h in dealt if h is not None]
    used = {c for h in hands for c in h} | set(table)
    rest = [c for c in range(52) if c not in used]
    missing = 5 - len(table)
    try:
        import numpy  # noqa: F401  (optional: the fast extra)
    except ImportError:
        return _exact_python(hands, table, rest, missing)
    return _exact_numpy(hands, table, rest, missing)


def _tally(strengths: Any, players: int) -> tuple[list[int], list[int], list[int], list[float]]:
    """Count wins/ties/losses from a (players, boards) strength array (numpy)."""
    import numpy as np

    best = strengths.max(axis=0)
    is_best = strengths == best
    sharing = is_best.sum(axis=0)
    alone = sharing == 1
    wins = [int((is_best[p] & alone).sum()) for p in range(players)]
    ties = [int((is_best[p] & ~alone).sum()) for p in range(players)]
    boards = strengths.shape[1]
    losses = [boards - wins[p] - ties[p] for p in range(players)]
    shares = np.where(is_best, 1.0 / sharing, 0.0).sum(axis=1)
    return wins, ties, losses, [float(s) / boards for s in shares]


def _exact_numpy(
    hands: list[tuple[int, ...]], table: tuple[int, ...], rest: list[int], missing: int
) -> EquityResult:
    import numpy as np

    from feltro.evaluator_np import _tables, strengths_from_keys

    t = _tables()
    rest_ids = np.array(rest, dtype=np.intp)
    board_a, board_b = _subset_sums(t.key_a[rest_ids], t.key_b[rest_ids], missing)
    board_a += t.key_a[list(table)].sum()
    board_b += t.key_b[list(table)].sum()
    strengths = np.stack([
        strengths_from_keys(
            board_a + t.key_a[list(hand)].sum(), board_b + t.key_b[list(hand)].sum(), 7
        )
        for hand in hands
    ])
    wins, ties, losses, equity = _tally(strengths, len(hands))
    return EquityResult(tuple(wins), tuple(ties), tuple(losses), tuple(equity), len(board_a))


def _subset_sums(
    keys_a: npt.NDArray[Any], keys_b: npt.NDArray[Any], k: int
) -> tuple[npt.NDArray[Any], npt.NDArray[Any]]:
    """Summed keys of every k-subset of the given cards, built one card at a time.

    Each partial subset remembers its largest index and is extended by every larger one, so
    no (subsets, k) index array is ever materialised.
    """
    import numpy as np

    pool = len(keys_a)
    sums_a = np.zeros(1, dtype=np.int64)
    sums_b = np.zeros(1, dtype=np.int64)
    last = np.full(1, -1, dtype=np.intp)
    for _ in range(k):
        extend = pool - 1 - last  # how many larger indices can follow each partial subset
        group_start = np.repeat(np.cumsum(extend) - extend, extend)
        nxt = np.repeat(last + 1, extend) + (np.arange(int(extend.sum())) - group_start)
        sums_a = np.repeat(sums_a, extend) + keys_a[nxt]
        sums_b = np.repeat(sums_b, extend) + keys_b[nxt]
        last = nxt
    assert len(sums_a) == comb(pool, k)
    return sums_a, sums_b


def _exact_python(
    hands: list[tuple[int, ...]], table: tuple[int, ...], rest: list[int], missing: int
) -> EquityResult:
    players = len(hands)
    wins, ties, shares = [0] * players, [0] * players, [0.0] * players
    boards = 0
    for extra in combinations(rest, missing):
        full = table + extra
        strengths = [hand_strength(full + hand) for hand in hands]
        best = max(strengths)
        winners = [p for p, s in enumerate(strengths) if s == best]
        for p in winners:
            if len(winners) == 1:
                wins[p] += 1
            else:
                ties[p] += 1
            shares[p] += 1 / len(winners)
        boards += 1
    losses = [boards - wins[p] - ties[p] for p in range(players)]
    return EquityResult(
        tuple(wins), tuple(ties), tuple(losses), tuple(s / boards for s in shares), boards
    )


def monte_carlo_equity(
    holes: Sequence[CardsLike | None],
    board: CardsLike = (),
    *,
    trials: int = 100_000,
    rng: random.Random,
) -> EquityResult:
    """Estimated win/tie/loss counts over *trials* random deals, for any number of players.

    A hand given as ``None`` is unknown: it is dealt at random in each trial. *rng* is required
    (never the global random), so a seeded ``random.Random`` reproduces the estimate.

    :raises CardError: for hands that are not two cards, repeated cards or a bad board.
    :raises ValueError: if *trials* is not positive.
    """
    if trials <= 0:
        raise ValueError(f"trials must be positive, got {trials}")
    hands, table = _deal(holes, board)
    used = {c for h in hands if h is not None for c in h} | set(table)
    rest = [c for c in range(52) if c not in used]
    draw = 5 - len(table) + 2 * sum(h is None for h in hands)
    import numpy as np

    from feltro.evaluator_np import evaluate_many

    generator = np.random.default_rng(rng.getrandbits(64))
    rest_ids = np.array(rest, dtype=np.intp)
    picks = rest_ids[np.argsort(generator.random((trials, len(rest))), axis=1)[:, :draw]]
    boards = np.concatenate(
        [np.broadcast_to(np.array(table, dtype=np.intp), (trials, len(table))),
         picks[:, : 5 - len(table)]], axis=1,
    )
    next_unknown = 5 - len(table)
    strengths = []
    for hand in hands:
        if hand is None:
            cards = picks[:, next_unknown:next_unknown + 2]
            next_unknown += 2
        else:
            cards = np.broadcast_to(np.array(hand, dtype=np.intp), (trials, 2))
        strengths.append(evaluate_many(np.concatenate([boards, cards], axis=1)))
    wins, ties, losses, equity = _tally(np.stack(strengths), len(holes))
    return EquityResult(tuple(wins), tuple(ties), tuple(losses), tuple(equity), trials)
