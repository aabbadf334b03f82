"""Many tables stepped at once, returning stacked numpy arrays: :class:`VectorEnv`.

Each call of :meth:`VectorEnv.step` takes one action number per table (for that table's agent
to act) and returns arrays with one row per table:

* ``obs``: ``float32 [tables, obs_size]``, the observation of the agent now to act (layout in
  :mod:`feltro.env.game`, the same numbers as :meth:`PokerGame.observation`);
* ``mask``: ``int8 [tables, actions]``, its exact action mask;
* ``rewards``: ``float32 [tables, players]``, chips won or lost by every agent in hands that
  ended during this step;
* ``dones``: ``bool [tables]``, the episode of that table ended during this step (it has been
  reset already: ``obs`` and ``mask`` are those of the next episode's first decision);
* ``to_act``: ``int64 [tables]``, the agent whose observation is in ``obs``.

One-hand episodes are played by the array engine :class:`~feltro.env.batch.BatchTables`
(every table in one pass of numpy operations, checked hand by hand against
:class:`~feltro.hand.Hand` by :mod:`feltro.env.crosscheck`); series episodes by
:class:`SeriesVectorEnv`, one :class:`PokerGame` per table. A run is deterministic from its
seed. ``infos[i]`` holds ``"phh"``, a list with the PHH text of each hand table *i* finished
in the step; the batched engine writes it when it is read (by replaying the hand through
:class:`~feltro.hand.Hand`, which also checks the result), at once with ``keep_phh=True``.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import numpy as np
import numpy.typing as npt

from feltro.env.batch import BOARD_FROM, BatchTables
from feltro.env.env_config import EnvConfig
from feltro.env.finished_hands import ActionLog, FinishedHand
from feltro.env.game import PokerGame, observation_size
from feltro.errors import ConfigError
from feltro.history.record import HandTextWriter
from feltro.series import derive_seed

__all__ = ["SeriesVectorEnv", "VectorEnv", "make_vector_env"]

_NO_INFO: Mapping[str, Any] = MappingProxyType({})
Obs = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]
Agents = npt.NDArray[np.int64]


def make_vector_env(num_tables: int, config: EnvConfig, seed: int | None = None, *,
                    keep_phh: bool = False) -> VectorEnv | SeriesVectorEnv:
    """The batched environment for *config*: the array engine for one-hand episodes."""
    if config.episode == "hand":
        return VectorEnv(num_tables, config, seed, keep_phh=keep_phh)
    return SeriesVectorEnv(num_tables, config, seed, keep_phh=keep_phh)


class VectorEnv:
    """*num_tables* tables of one-hand episodes in one array engine (see the module docstring)."""

    def __init__(self, num_tables: int, config: EnvConfig, seed: int | None = None, *,
                 keep_phh: bool = False) -> None:
        self.tables = BatchTables(num_tables, config, seed)
        self.num_tables = num_tables
        self.config = config
        self.keep_phh = keep_phh
        self.players = n = config.players
        self.obs_size = observation_size(n)
        self.num_actions = self.tables.codec.size
        self._rows = np.arange(num_tables, dtype=np.int64)
        self._exact = config.actions == "exact"
        self._columns = np.arange(self.num_actions, dtype=np.int32)
        self._log = ActionLog(num_tables)
        self._writer = HandTextWriter()

    def reset(self, seed: int | None = None) -> tuple[Obs, Mask, Agents]:
        """Start an episode at every table; returns ``(obs, mask, to_act)``."""
        self.tables.reset(seed)
        self._log.clear(self._rows)
        self._redeal_idle(self.tables.to_act < 0)
        return self._observe()

    def step(self, actions: npt.ArrayLike) -> tuple[
            Obs, Mask, npt.NDArray[np.float32], npt.NDArray[np.bool_], Agents,
            list[Mapping[str, Any]]]:
        """Play one action at every table; returns ``(obs, mask, rewards, dones, to_act, infos)``.

        ``infos[i]`` is an empty read-only mapping unless table *i* has something to say.

        :raises IllegalActionError: for an action a table's rules refuse (the first such table
            is named in the message); no table changes.
        """
        tables = self.tables
        ended = tables.step(actions)
        self._log.record(tables.last_actions)
        rewards = np.zeros((self.num_tables, self.players), dtype=np.float32)
        infos: list[Mapping[str, Any]] = [_NO_INFO] * self.num_tables
        if ended.any():
            rows = np.flatnonzero(ended)
            won = tables.final_stacks[rows] - tables.start_stacks[rows]
            rewards[rows[:, None], tables.agents[rows]] = won
            for row in rows.tolist():
                infos[row] = self._finished(row)
            self._redeal_idle(ended)
        obs, mask, to_act = self._observe()
        return obs, mask, rewards, ended, to_act, infos

    def _redeal_idle(self, idle: npt.NDArray[np.bool_]) -> None:
        """Deal again at the tables flagged *idle* until each has a decision."""
        rows = np.flatnonzero(idle)
        for _ in range(self.players + 2):
            if not len(rows):
                return
            self._log.clear(rows)
            rows = rows[self.tables.deal(rows)]
        raise ConfigError("with these stacks and blinds no hand needs a decision: "
                          "give the players more chips than the blinds")

    def _observe(self) -> tuple[Obs, Mask, Agents]:
        """The observation and mask of the agent to act at every table (see the module
        docstring of :mod:`feltro.env.game` for the layout)."""
        t = self.tables
        n = self.players
        rows = self._rows
        p = t.to_act
        obs = np.zeros((self.num_tables, self.obs_size), dtype=np.float32)
        cards = t.cards
        obs[rows, cards[rows, p]] = 1
        obs[rows, cards[rows, n + p]] = 1
        board = cards[:, t.board_columns]
        seen = t.street[:, None] >= BOARD_FROM
        obs[np.nonzero(seen)[0], 52 + board[seen]] = 1
        obs[rows, 104 + t.street] = 1
        obs[rows, 109 + p] = 1
        base = 109 + n
        obs[:, base:base + n] = t.stacks
        obs[:, base + n:base + 2 * n] = t.bets
        obs[:, base + 2 * n:base + 3 * n] = t.committed
        obs[:, base + 3 * n:base + 4 * n] = t.folded
        obs[:, base + 4 * n:base + 5 * n] = 1
        obs[:, base + 5 * n:base + 9 * n] = t.street_in.reshape(self.num_tables, 4 * n)
        obs[:, -7] = t.committed.sum(axis=1)
        obs[:, -6] = t.to_match
        obs[:, -5] = t.call_amount
        obs[:, -4] = t.min_raise_to
        obs[:, -3] = t.max_raise_to
        obs[:, -2] = self.config.big_blind
        obs[:, -1] = 1
        return obs, self._masks(), t.agents[rows, p]

    def _masks(self) -> Mask:
        t = self.tables
        if not self._exact:
            mask = np.zeros((self.num_tables, self.num_actions), dtype=np.int8)
            mask[:, :2] = 1
            mask[t.min_raise_to > 0, 2:] = 1
            return mask
        # Tables share few raise ranges: build one row per distinct range, then gather.
        ranges, rows = np.unique(t.min_raise_to * (self.num_actions + 1) + t.max_raise_to,
                                 return_inverse=True)
        low, high = np.divmod(ranges, self.num_actions + 1)
        columns = self._columns
        # Raise to k is action k + 1: the legal block is min+1..max+1 (none when closed).
        distinct = (columns >= low[:, None] + 1) & (columns <= high[:, None] + 1)
        distinct &= (low > 0)[:, None]
        distinct[:, :2] = True
        gathered: Mask = distinct.view(np.int8)[rows]
        return gathered

    # ------------------------------------------------------------------ histories

    def _finished(self, row: int) -> FinishedHand:
        t = self.tables
        hand = FinishedHand(self.config, t.agents[row].copy(), t.cards[row].copy(),
                            self._log.of(row), t.final_stacks[row].copy(), self._writer)
        if self.keep_phh:
            _ = hand["phh"]  # written, and checked against the hand engine, now
        return hand


class SeriesVectorEnv:
    """:class:`VectorEnv` for series episodes: one :class:`PokerGame` per table, stepped in turn
    (a series changes its seating every hand, which the array engine does not model)."""

    def __init__(self, num_tables: int, config: EnvConfig, seed: int | None = None, *,
                 keep_phh: bool = False) -> None:
        if type(num_tables) is not int or num_tables < 1:
            raise ValueError(f"num_tables must be a positive integer, not {num_tables!r}")
        self.num_tables = num_tables
        self.config = config
        self.seed = 0 if seed is None else seed
        self.games = [PokerGame(config, derive_seed(self.seed, f"table {i}"), keep_phh=keep_phh)
                      for i in range(num_tables)]
        self.obs_size = self.games[0].obs_size
        self.num_actions = self.games[0].codec.size
        self.players = config.players

    def reset(self, seed: int | None = None) -> tuple[
            npt.NDArray[np.float32], npt.NDArray[np.int8], npt.NDArray[np.int64]]:
        """Start an episode at every table; returns ``(obs, mask, to_act)``."""
        if seed is not None:
            self.seed = seed
        for i, game in enumerate(self.games):
            game.reset(derive_seed(self.seed, f"table {i} reset"))
            while game.over:  # no decision in that episode: deal the next
                game.reset()
            game.take_rewards()
        obs, mask, to_act = self._gather()
        return obs, mask, to_act

    def _gather(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8],
                               npt.NDArray[np.int64]]:
        obs = np.empty((self.num_tables, self.obs_size), dtype=np.float32)
        agents = []
        mask = np.zeros((self.num_tables, self.num_actions), dtype=np.int8)
        exact = self.config.actions == "exact"
        for i, game in enumerate(self.games):
            agent = game.to_act
            assert agent is not None
            agents.append(agent)
            obs[i] = game.observation(agent)
            legal = game.legal
            if exact:
                mask[i, 0:2] = 1
                low = legal.min_raise_to
                if low is not None:
                    mask[i, low + 1:legal.max_raise_to + 2] = 1  # type: ignore[operator]
            else:
                mask[i] = game.codec.mask(legal)
        return obs, mask, np.array(agents, dtype=np.int64)

    def step(self, actions: npt.ArrayLike) -> tuple[
            npt.NDArray[np.float32], npt.NDArray[np.int8], npt.NDArray[np.float32],
            npt.NDArray[np.bool_], npt.NDArray[np.int64], list[Mapping[str, Any]]]:
        """Play one action at every table; returns ``(obs, mask, rewards, dones, to_act, infos)``.

        ``dones[i]``: table *i*'s series ended (and a new one began); ``rewards`` count every
        hand that ended.

        :raises IllegalActionError: for an action a table's rules refuse (that table and the
            tables after it are unchanged; the ones before have stepped).
        """
        numbers = np.asarray(actions).tolist()
        if len(numbers) != self.num_tables:
            raise ValueError(f"one action per table is needed ({self.num_tables}), "
                             f"got {len(numbers)}")
        rewards = np.zeros((self.num_tables, self.players), dtype=np.float32)
        dones = np.zeros(self.num_tables, dtype=np.bool_)
        infos: list[Mapping[str, Any]] = [_NO_INFO] * self.num_tables
        for i, game in enumerate(self.games):
            if game.step(numbers[i]):
                chips, phh = game.take_rewards()
                rewards[i] = chips
                if phh:
                    infos[i] = {"phh": phh}
                if game.over:
                    dones[i] = True
                    game.reset()
                    while game.over:
                        game.reset()
                    game.take_rewards()
        obs, mask, to_act = self._gather()
        return obs, mask, rewards, dones, to_act, infos
