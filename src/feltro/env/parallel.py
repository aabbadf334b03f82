"""The PettingZoo parallel environment: :class:`PokerParallel`.

Poker is turn-based, so "parallel" here means: every step returns every agent's observation,
reward and info, but **exactly one agent acts per step** — the one whose ``action_mask`` is not
all zeros (also ``infos[agent]["legal"]["to_act"]``). ``step(actions)`` plays that agent's entry
of *actions* and ignores the others (they may be anything, e.g. a masked sample). Everything
else is as in :class:`~feltro.env.aec.PokerAEC`: the same observations, exact masks, rewards in
chips and ``"phh"`` in every info when a hand ends.
"""

from __future__ import annotations

from typing import Any, ClassVar

from gymnasium import spaces
from pettingzoo import ParallelEnv

from feltro.env.aec import observation_space
from feltro.env.env_config import EnvConfig
from feltro.env.game import PokerGame
from feltro.errors import IllegalActionError, Refusal

__all__ = ["PokerParallel"]

Obs = dict[str, Any]


class PokerParallel(ParallelEnv[str, Obs, int]):  # type: ignore[misc]
    """Hold'em as a PettingZoo parallel environment (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"], "name": "feltro_holdem_parallel_v0"}

    def __init__(self, config: EnvConfig, seed: int | None = None,
                 render_mode: str | None = None) -> None:
        self.config = config
        self.game = PokerGame(config, seed)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(config.players)]
        self.agents: list[str] = []
        self._obs_space = observation_space(self.game)
        self._act_space = spaces.Discrete(self.game.codec.size)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_space

    def _observations(self) -> dict[str, Obs]:
        game = self.game
        return {agent: {"observation": game.observation(i), "action_mask": game.action_mask(i)}
                for i, agent in enumerate(self.possible_agents)}

    def _infos(self, phh: list[str]) -> dict[str, dict[str, Any]]:
        infos: dict[str, dict[str, Any]] = {}
        for i, agent in enumerate(self.possible_agents):
            info: dict[str, Any] = {"legal": self.game.legal_info(i)}
            if phh:
                info["phh"] = phh[-1]
                info["hands"] = phh  # every hand that ended in the step (a series deals on)
                info["hand_over"] = True
            infos[agent] = info
        return infos

    def reset(self, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Obs], dict[str, Any]]:
        self.game.reset(seed)
        self.agents = list(self.possible_agents)
        _, phh = self.game.take_rewards()
        observations = self._observations()
        infos = self._infos(phh)
        if self.game.over:
            self.agents = []
        return observations, infos

    def step(self, actions: dict[str, int]) -> tuple[
            dict[str, Obs], dict[str, float], dict[str, bool], dict[str, bool],
            dict[str, dict[str, Any]]]:
        to_act = self.game.to_act
        if to_act is None:
            raise IllegalActionError(Refusal("B5", "hand-over", {}),
                                     "the episode is over: call reset()")
        agent = self.possible_agents[to_act]
        if agent not in actions:
            raise IllegalActionError(Refusal("B2", "not-your-turn", {"to_act": to_act}),
                                     f"{agent} is to act and has no action in this step")
        self.game.step(actions[agent])
        chips, phh = self.game.take_rewards()
        live = self.agents
        observations = self._observations()
        rewards = {a: float(chips[i]) for i, a in enumerate(self.possible_agents) if a in live}
        over = self.game.over
        terminations = dict.fromkeys(live, over)
        truncations = dict.fromkeys(live, False)
        infos = self._infos(phh)
        observations = {a: observations[a] for a in live}
        infos = {a: infos[a] for a in live}
        if over:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        return self.game.render(self.render_mode)

    def close(self) -> None:
        pass

    def state(self) -> Any:
        """Not offered: the full state holds hidden cards; use ``game.hand`` for audits."""
        raise NotImplementedError("feltro's parallel env has no global state array")
