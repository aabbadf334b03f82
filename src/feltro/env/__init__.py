"""Learning environments over the exact engine: PettingZoo, Gymnasium and batched tables.

* :func:`env` — the PettingZoo AEC environment (:class:`~feltro.env.aec.PokerAEC`);
* :func:`parallel_env` — the PettingZoo parallel one (one agent acts per step, see
  :mod:`feltro.env.parallel`);
* :func:`single_agent_env` — a Gymnasium environment, the other seats played by bots;
* :func:`vector_env` — many tables stepped at once with stacked numpy arrays.

All take the settings of :class:`~feltro.env.env_config.EnvConfig` as keywords (``players``,
``stacks``, ``small_blind``, ``big_blind``, ``ante``, ``structure``, ``episode``,
``max_hands``, ``rotate``, ``actions``, ``fractions``) and a ``seed``. Observations, masks and
action numbers are described in :mod:`feltro.env.game` and :mod:`feltro.env.actions`.
Needs the ``env`` extra (``pip install 'feltro[env]'``: gymnasium, pettingzoo, numpy).

>>> from feltro.env import env
>>> table = env(players=3, seed=7)
>>> table.reset(seed=7)
>>> observation, reward, terminated, truncated, info = table.last()
>>> table.agent_selection, info["legal"]["call"], info["legal"]["min_raise_to"]
('player_2', 2, 4)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from feltro.env.actions import ExactActions, PotActions, legal_info
from feltro.env.env_config import DEFAULT_FRACTIONS, EnvConfig
from feltro.env.game import PokerGame, observation_size

if TYPE_CHECKING:
    from feltro.bots import Bot
    from feltro.env.aec import PokerAEC
    from feltro.env.parallel import PokerParallel
    from feltro.env.single import SingleAgentEnv
    from feltro.env.vector import SeriesVectorEnv, VectorEnv

__all__ = [
    "DEFAULT_FRACTIONS",
    "EnvConfig",
    "ExactActions",
    "PokerGame",
    "PotActions",
    "env",
    "legal_info",
    "observation_size",
    "parallel_env",
    "single_agent_env",
    "vector_env",
]


def env(*, seed: int | None = None, render_mode: str | None = None,
        **settings: Any) -> PokerAEC:
    """The PettingZoo AEC environment (``settings``: see :class:`EnvConfig`)."""
    from feltro.env.aec import PokerAEC

    return PokerAEC(EnvConfig(**settings), seed, render_mode)


def parallel_env(*, seed: int | None = None, render_mode: str | None = None,
                 **settings: Any) -> PokerParallel:
    """The PettingZoo parallel environment (one agent acts per step)."""
    from feltro.env.parallel import PokerParallel

    return PokerParallel(EnvConfig(**settings), seed, render_mode)


def single_agent_env(*, opponents: Sequence[str | Bot] | str = "rules", agent: int = 0,
                     seed: int | None = None, render_mode: str | None = None,
                     illegal: str = "fold", **settings: Any) -> SingleAgentEnv:
    """A Gymnasium environment for agent *agent*; *opponents* are bot levels or bots."""
    from feltro.env.single import SingleAgentEnv

    return SingleAgentEnv(EnvConfig(**settings), opponents, agent, seed, render_mode, illegal)


def vector_env(num_tables: int, *, seed: int | None = None, keep_phh: bool = False,
               **settings: Any) -> VectorEnv | SeriesVectorEnv:
    """*num_tables* tables stepped together (see :mod:`feltro.env.vector`): the array engine
    for one-hand episodes, a loop over :class:`PokerGame` tables for series."""
    from feltro.env.vector import make_vector_env

    return make_vector_env(num_tables, EnvConfig(**settings), seed, keep_phh=keep_phh)
