"""The batched engine checked against the hand engine, decision by decision: :func:`crosscheck`.

Every table of a :class:`~feltro.env.vector.VectorEnv` gets a twin :class:`PokerGame` (over
:class:`~feltro.hand.Hand`) dealt the same cards. At every step the two must agree on the agent
to act, the whole observation array and the exact mask; both play the same action; a hand
must end at the same step in both with the same chips won by every agent. Now and then an
illegal action is tried at one table: both must refuse it with the same rule, reason and
numbers, and nothing may change. The first difference raises :class:`CrossCheckError`.

    python -m feltro.env.crosscheck --hands 1000000      # what benchmarks/ records
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from feltro.env.env_config import EnvConfig
from feltro.env.game import PokerGame
from feltro.env.vector import VectorEnv
from feltro.errors import IllegalActionError

__all__ = ["SETTINGS", "CrossCheckError", "Report", "crosscheck"]

SETTINGS: tuple[dict[str, Any], ...] = (
    {"players": 6},
    {"players": 2},
    {"players": 6, "stacks": [30, 70, 200, 120, 50, 200]},
    {"players": 10, "stacks": [12, 200, 45, 3, 150, 80, 200, 9, 60, 400], "ante": 1},
    {"players": 3, "structure": "fixed-limit"},
    {"players": 6, "structure": "fixed-limit", "stacks": [20, 9, 40, 200, 13, 60]},
    {"players": 4, "structure": "pot-limit", "ante": 1},
    {"players": 5, "actions": "discrete", "stacks": [5, 10, 40, 3, 200], "ante": 2},
    {"players": 2, "stacks": [3, 200], "small_blind": 2, "big_blind": 2},
)
"""The configurations checked by default: blinds, antes, short and uneven stacks, every
structure, both action encodings, 2 to 10 players."""


class CrossCheckError(AssertionError):
    """The batched engine and the hand engine disagreed."""


@dataclass(frozen=True)
class Report:
    """What a check covered."""

    hands: int
    decisions: int
    refusals: int
    seconds: float


class _GivenDecks:
    """Stands in for a :class:`PokerGame`'s random source: it deals the batch's decks."""

    def __init__(self) -> None:
        self.decks: list[list[int]] = []

    def sample(self, population: Sequence[int], k: int) -> list[int]:
        return self.decks.pop(0)


def _policy(rng: np.random.Generator, obs: npt.NDArray[np.float32],
            mask: npt.NDArray[np.int8], exact: bool) -> npt.NDArray[np.int64]:
    """Fold 15%, check/call 45%, and raises: the minimum, any legal size, all-in."""
    t = len(mask)
    draw = rng.random(t)
    actions = np.where(draw < 0.15, 0, 1).astype(np.int64)
    low = obs[:, -4].astype(np.int64)
    high = obs[:, -3].astype(np.int64)
    can_raise = mask[:, 2:].any(axis=1)
    raising = can_raise & (draw >= 0.6)
    if exact:
        size = low + (rng.random(t) * (high - low + 1)).astype(np.int64)
        size = np.where(draw < 0.8, low, np.where(draw < 0.93, size, high))
        actions = np.where(raising, size + 1, actions)
    else:
        choice = 2 + (rng.random(t) * (mask.shape[1] - 2)).astype(np.int64)
        actions = np.where(raising, choice, actions)
    return actions


def _deal_twins(batch: VectorEnv, games: list[PokerGame], sources: list[_GivenDecks],
                rows: Sequence[int]) -> None:
    log = batch.tables.deck_log
    assert log is not None
    for dealt, decks in log:
        for row, deck in zip(dealt.tolist(), decks.tolist(), strict=True):
            sources[row].decks.append(deck)
    log.clear()
    for row in rows:
        game = games[row]
        game.reset()
        while game.over:
            game.reset()
        game.take_rewards()


def _compare(step: int, batch_obs: npt.NDArray[np.float32], batch_mask: npt.NDArray[np.int8],
             to_act: npt.NDArray[np.int64], games: list[PokerGame]) -> None:
    agents = to_act.tolist()
    for row, (game, agent) in enumerate(zip(games, agents, strict=True)):
        if game.to_act != agent:
            raise CrossCheckError(f"step {step}, table {row}: the batch has agent {agent} to "
                                  f"act, the hand engine {game.to_act}")
    expected = np.stack([g.observation(a) for g, a in zip(games, agents, strict=True)])
    if not np.array_equal(expected, batch_obs):
        row, column = (int(x[0]) for x in np.nonzero(expected != batch_obs))
        raise CrossCheckError(f"step {step}, table {row}: observation[{column}] is "
                              f"{batch_obs[row, column]} in the batch, "
                              f"{expected[row, column]} in the hand engine")
    masks = np.stack([g.action_mask(a) for g, a in zip(games, agents, strict=True)])
    if not np.array_equal(masks, batch_mask):
        row = int(np.nonzero((masks != batch_mask).any(axis=1))[0][0])
        raise CrossCheckError(f"step {step}, table {row}: masks differ at action numbers "
                              f"{np.flatnonzero(masks[row] != batch_mask[row]).tolist()[:8]}")


def _try_illegal(step: int, rng: np.random.Generator, batch: VectorEnv,
                 games: list[PokerGame], mask: npt.NDArray[np.int8],
                 actions: npt.NDArray[np.int64]) -> bool:
    """Try one action the mask forbids at one table; both engines must refuse it alike."""
    row = int(rng.integers(len(games)))
    illegal = np.flatnonzero(mask[row] == 0)
    if not len(illegal):
        return False
    bad = actions.copy()
    bad[row] = int(rng.choice(illegal))
    try:
        batch.step(bad)
    except IllegalActionError as exc:
        got = exc.refusal
    else:
        raise CrossCheckError(f"step {step}, table {row}: the batch took illegal action "
                              f"{bad[row]}")
    try:
        games[row].step(int(bad[row]))
    except IllegalActionError as exc:
        want = exc.refusal
    else:
        raise CrossCheckError(f"step {step}, table {row}: the hand engine took action "
                              f"{bad[row]} the mask forbids")
    if got != want:
        raise CrossCheckError(f"step {step}, table {row}: action {bad[row]} refused as "
                              f"{got} by the batch, {want} by the hand engine")
    return True


def crosscheck(config: EnvConfig, *, tables: int = 256, hands: int = 10_000,
               seed: int = 0) -> Report:
    """Play at least *hands* hands on *tables* tables in both engines and compare them.

    :raises CrossCheckError: at the first difference (step, table and what differs).
    """
    begin = time.perf_counter()
    batch = VectorEnv(tables, config, seed)
    batch.tables.deck_log = []
    sources = [_GivenDecks() for _ in range(tables)]
    games = []
    for source in sources:
        game = PokerGame(config, keep_phh=False)
        game._rng = source  # type: ignore[assignment]
        games.append(game)
    obs, mask, to_act = batch.reset()
    _deal_twins(batch, games, sources, range(tables))
    rng = np.random.default_rng(seed)
    exact = config.actions == "exact"
    finished = decisions = refusals = step = 0
    while finished < hands:
        step += 1
        _compare(step, obs, mask, to_act, games)
        actions = _policy(rng, obs, mask, exact)
        if step % 4 == 0:
            refusals += _try_illegal(step, rng, batch, games, mask, actions)
        obs, mask, rewards, dones, to_act, _ = batch.step(actions)
        decisions += tables
        ended_rows = []
        for row, (game, action) in enumerate(zip(games, actions.tolist(), strict=True)):
            ended = game.step(action)
            if ended != bool(dones[row]):
                raise CrossCheckError(f"step {step}, table {row}: the hand ended in "
                                      f"{'the batch' if dones[row] else 'the hand engine'} "
                                      f"only")
            if ended:
                chips, _ = game.take_rewards()
                if chips != rewards[row].astype(np.int64).tolist():
                    raise CrossCheckError(f"step {step}, table {row}: the batch paid "
                                          f"{rewards[row].tolist()}, the hand engine {chips}")
                ended_rows.append(row)
        finished += len(ended_rows)
        _deal_twins(batch, games, sources, ended_rows)
    return Report(finished, decisions, refusals, time.perf_counter() - begin)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m feltro.env.crosscheck``: every configuration of :data:`SETTINGS`."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=90_000,
                        help="hands in all, shared among the configurations")
    parser.add_argument("--tables", type=int, default=512, help="tables stepped together")
    parser.add_argument("--seed", type=int, default=0, help="the first configuration's seed")
    args = parser.parse_args(argv)
    each = -(-args.hands // len(SETTINGS))
    total = Report(0, 0, 0, 0.0)
    for index, settings in enumerate(SETTINGS):
        try:
            report = crosscheck(EnvConfig(**settings), tables=args.tables, hands=each,
                                seed=args.seed + index)
        except CrossCheckError as exc:
            print(f"{settings}: DIFFERENT: {exc}", file=sys.stderr)
            return 1
        total = Report(total.hands + report.hands, total.decisions + report.decisions,
                       total.refusals + report.refusals, total.seconds + report.seconds)
        print(f"{settings}: {report.hands:,} hands, {report.decisions:,} decisions, "
              f"{report.refusals:,} refusals compared, {report.seconds:.0f} s: same",
              flush=True)
    print(f"all: {total.hands:,} hands, {total.decisions:,} decisions, "
          f"{total.refusals:,} refusals, {total.seconds:.0f} s: no difference")
    return 0


if __name__ == "__main__":
    sys.exit(main())
