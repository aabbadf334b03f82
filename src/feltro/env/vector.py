"""Many tables stepped at once, returning stacked numpy arrays: :class:`VectorEnv`.

Each call of :meth:`VectorEnv.step` takes one action number per table (for that table's agent
to act) and returns arrays with one row per table:

* ``obs``: ``float32 [tables, obs_size]``, the observation of the agent now to act (layout in
  :mod:`feltro.env.game`);
* ``mask``: ``int8 [tables, actions]``, its exact action mask;
* ``rewards``: ``float32 [tables, players]``, chips won or lost by every agent in hands that
  ended during this step;
* ``dones``: ``bool [tables]``, the episode of that table ended during this step (it has been
  reset already: ``obs`` and ``mask`` are those of the next episode's first decision);
* ``to_act``: ``int64 [tables]``, the agent whose observation is in ``obs``.

Tables are seeded from one seed (table *i* from ``derive_seed(seed, "table i")``), so a run
is deterministic. With ``keep_phh=True`` the ``infos`` list holds, for each table, the PHH
texts of the hands that ended in the step.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from feltro.env.config import EnvConfig
from feltro.env.game import PokerGame
from feltro.series import derive_seed

__all__ = ["VectorEnv"]


class VectorEnv:
    """*num_tables* independent tables of the same configuration (see the module docstring)."""

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
            npt.NDArray[np.bool_], npt.NDArray[np.int64], list[dict[str, Any]]]:
        """Play one action at every table; returns ``(obs, mask, rewards, dones, to_act, infos)``.

        :raises IllegalActionError: for an action a table's rules refuse (that table and the
            tables after it are unchanged; the ones before have stepped).
        """
        numbers = np.asarray(actions).tolist()
        if len(numbers) != self.num_tables:
            raise ValueError(f"one action per table is needed ({self.num_tables}), "
                             f"got {len(numbers)}")
        rewards = np.zeros((self.num_tables, self.players), dtype=np.float32)
        dones = np.zeros(self.num_tables, dtype=np.bool_)
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_tables)]
        for i, game in enumerate(self.games):
            if game.step(numbers[i]):
                chips, phh = game.take_rewards()
                rewards[i] = chips
                if phh:
                    infos[i]["phh"] = phh
                if game.over:
                    dones[i] = True
                    game.reset()
                    while game.over:
                        game.reset()
                    game.take_rewards()
        obs, mask, to_act = self._gather()
        return obs, mask, rewards, dones, to_act, infos
