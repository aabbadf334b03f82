"""Monte Carlo equity against ranges, all trials at once with numpy.

The same estimate as :func:`feltro.bots.montecarlo.estimate_equity` (the plain loop, kept for
installs without numpy), about twenty times cheaper: every trial's opponent hands and run-out
are drawn as arrays, and hands are scored from summed card keys (the key of the board is
computed once per trial and shared by every player, see :mod:`feltro.evaluator_np`).

Opponents' hands are drawn uniformly from their range: the starting hands whose Chen score
reaches the range's threshold (:func:`~feltro.bots.reading.range_threshold`) and whose cards
are not already seen; when the opponent is read as having hit the board (with the range's
``hit`` probability), from those of them that connect with it (a pair with the board, an
overpair, a flush draw). A hand that collides with another opponent's in the same trial is
drawn again. Randomness comes from a numpy generator seeded from the ``random.Random`` given,
so an estimate is reproducible from that generator's state.

>>> import random
>>> round(estimate_equity_np([51, 50], [], [(1.0, 0.0)], 20000, random.Random(1)), 2)
0.85
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from typing import Final

import numpy as np
import numpy.typing as npt

from feltro.bots.reading import range_threshold, score_table
from feltro.evaluator_np import _tables, strengths_from_keys

__all__ = ["Deals", "deal", "equity_of_deals", "estimate_equity_np"]

Ints = npt.NDArray[np.int64]
Masks = npt.NDArray[np.uint64]

_RETRIES: Final = 40
"""Rounds of redrawing hands that collide before falling back to any unseen hand."""


def _bit(cards: Ints) -> Masks:
    """Each card's bit in a 52-bit set."""
    bits: Masks = np.left_shift(np.uint64(1), cards.astype(np.uint64))
    return bits


class _Combos:
    """The 1,326 two-card starting hands as parallel arrays."""

    def __init__(self) -> None:
        scores = score_table()
        pairs = [(a, b) for a in range(52) for b in range(a + 1, 52)]
        self.a: Ints = np.array([p[0] for p in pairs], dtype=np.int64)
        self.b: Ints = np.array([p[1] for p in pairs], dtype=np.int64)
        self.score: Ints = np.array([scores[a][b] for a, b in pairs], dtype=np.int64)
        self.mask: Masks = _bit(self.a) | _bit(self.b)
        self.rank_bits: Ints = (1 << (self.a >> 2)) | (1 << (self.b >> 2))
        self.pair: npt.NDArray[np.bool_] = (self.a >> 2) == (self.b >> 2)
        self.suited: npt.NDArray[np.bool_] = (self.a & 3) == (self.b & 3)


@cache
def _combos() -> _Combos:
    return _Combos()


@cache
def _in_range(threshold: int) -> npt.NDArray[np.bool_]:
    return _combos().score >= threshold


def _connects(board: Sequence[int]) -> npt.NDArray[np.bool_]:
    """Which starting hands pair *board*, are an overpair to it, or make a flush draw with it
    (the vector form of :func:`feltro.bots.montecarlo._connects`)."""
    c = _combos()
    ranks = [card >> 2 for card in board]
    board_bits = sum(1 << r for r in set(ranks))
    suit_counts = np.bincount(np.array([card & 3 for card in board], dtype=np.int64),
                              minlength=4)
    hits: npt.NDArray[np.bool_] = (c.rank_bits & board_bits) != 0
    hits |= c.pair & ((c.a >> 2) > max(ranks))
    hits |= c.suited & (suit_counts[c.a & 3] >= 2)
    return hits


class Deals:
    """Sampled deals: ``holes[j]`` the opponents' hands (two arrays of card ids, one entry per
    trial) and ``runout`` the board cards still to come, shape ``(trials, missing)``."""

    __slots__ = ("holes", "runout")

    def __init__(self, holes: list[tuple[Ints, Ints]], runout: Ints) -> None:
        self.holes = holes
        self.runout = runout


def _draw_hands(gen: np.random.Generator, pool: Ints, hit_pool: Ints, hit: float,
                used: Masks, alive: Ints) -> Ints:
    """One opponent's hand (a combo index) per trial, avoiding the cards in *used*."""
    masks = _combos().mask
    trials = len(used)
    must = (gen.random(trials) < hit) if hit > 0.0 and hit_pool.size else None

    def draw(rows: int, must_rows: npt.NDArray[np.bool_] | None) -> Ints:
        u = gen.random(rows)
        picked: Ints = pool[(u * pool.size).astype(np.int64)]
        if must_rows is not None:
            picked = np.where(must_rows, hit_pool[(u * hit_pool.size).astype(np.int64)], picked)
        return picked

    combos = draw(trials, must)
    for _ in range(_RETRIES):
        bad = np.flatnonzero(masks[combos] & used)
        if not bad.size:
            return combos
        combos[bad] = draw(bad.size, None if must is None else must[bad])
    bad = np.flatnonzero(masks[combos] & used)
    while bad.size:  # a crowded table: any unseen hand will do
        combos[bad] = alive[gen.integers(0, alive.size, bad.size)]
        bad = np.flatnonzero(masks[combos] & used)
    return combos


def deal(hole: Sequence[int], board: Sequence[int], ranges: Sequence[tuple[float, float]],
         trials: int, gen: np.random.Generator) -> Deals:
    """Draw *trials* deals: a hand from each range, then the rest of the board."""
    c = _combos()
    dead = np.uint64(sum(1 << card for card in (*hole, *board)))
    alive_rows = (c.mask & dead) == 0
    alive = np.flatnonzero(alive_rows)
    connects = _connects(board) if board else None
    used: Masks = np.full(trials, dead, dtype=np.uint64)
    holes: list[tuple[Ints, Ints]] = []
    for share, hit in ranges:
        pool = np.flatnonzero(alive_rows & _in_range(range_threshold(share)))
        if not pool.size:
            pool = alive
        hit_pool = (np.flatnonzero(alive_rows & _in_range(range_threshold(share)) & connects)
                    if connects is not None and hit > 0.0 else pool[:0])
        combos = _draw_hands(gen, pool, hit_pool, hit if connects is not None else 0.0,
                             used, alive)
        used |= c.mask[combos]
        holes.append((c.a[combos], c.b[combos]))
    missing = 5 - len(board)
    deck = np.array([card for card in range(52) if not (int(dead) >> card) & 1], dtype=np.int64)
    runout = np.empty((trials, missing), dtype=np.int64)
    for k in range(missing):
        cards = deck[gen.integers(0, deck.size, trials)]
        bad = np.flatnonzero(_bit(cards) & used)
        while bad.size:
            cards[bad] = deck[gen.integers(0, deck.size, bad.size)]
            bad = np.flatnonzero(_bit(cards) & used)
        used |= _bit(cards)
        runout[:, k] = cards
    return Deals(holes, runout)


def equity_of_deals(hole: Sequence[int], board: Sequence[int], deals: Deals) -> float:
    """The share of the pot *hole* wins on average over *deals* (ties split it)."""
    t = _tables()
    known = list(board)
    board_a = t.key_a[deals.runout].sum(axis=1) + int(t.key_a[known].sum())
    board_b = t.key_b[deals.runout].sum(axis=1) + int(t.key_b[known].sum())
    mine = strengths_from_keys(board_a + int(t.key_a[list(hole)].sum()),
                               board_b + int(t.key_b[list(hole)].sum()), 7)
    if not deals.holes:
        return 1.0
    theirs = np.stack([strengths_from_keys(board_a + t.key_a[a] + t.key_a[b],
                                           board_b + t.key_b[a] + t.key_b[b], 7)
                       for a, b in deals.holes])
    best = theirs.max(axis=0)
    sharing = (theirs == best).sum(axis=0)
    won = np.where(mine > best, 1.0, np.where(mine == best, 1.0 / (sharing + 1), 0.0))
    return float(won.mean())


def estimate_equity_np(hole: Sequence[int], board: Sequence[int],
                       ranges: Sequence[tuple[float, float]], trials: int,
                       rng: random.Random) -> float:
    """The share of the pot *hole* wins on average against opponents holding hands from
    *ranges* (``(share, hit)`` each, see :func:`~feltro.bots.montecarlo.opponent_range`),
    over *trials* random deals drawn from a generator seeded by *rng*."""
    if not ranges:
        return 1.0
    gen = np.random.default_rng(rng.getrandbits(64))
    return equity_of_deals(hole, board, deal(hole, board, ranges, trials, gen))
