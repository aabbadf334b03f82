"""The PettingZoo AEC environment: :class:`PokerAEC` (one agent acts per step).

Agents are ``player_0``..``player_{n-1}``. ``observe(agent)`` gives ``{"observation": array,
"action_mask": int8 array}`` (layout in :mod:`feltro.env.game`; the mask is exact and all zeros
when it is not the agent's turn; once the episode is over the observation shows how the hand
ended). Every agent's ``infos[agent]["legal"]`` holds its exact legal actions with their
amounts (empty-handed off its turn); when a hand ends every agent's info gets ``"phh"`` (that
hand's PHH text, one ``str`` for all, replayable by ``feltro replay``), ``"hands"`` (the PHH of
every hand that ended in the step, in order: a series deals on through hands in which nobody
has a decision) and ``"hand_over": True``. Rewards are chips won or lost in the hands that
ended. An illegal action raises :class:`~feltro.errors.IllegalActionError`
naming the rule, and changes nothing.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from feltro.actions import CALL
from feltro.env.actions import legal_info
from feltro.env.env_config import EnvConfig
from feltro.env.game import _NOBODY, PokerGame

__all__ = ["PokerAEC"]


def observation_space(game: PokerGame) -> spaces.Dict:
    """The observation space of one agent."""
    return spaces.Dict({
        "observation": spaces.Box(low=0.0, high=np.float32(max(game.config.total_chips, 1) * 2),
                                  shape=(game.obs_size,), dtype=np.float32),
        "action_mask": spaces.Box(low=0, high=1, shape=(game.codec.size,), dtype=np.int8),
    })


class PokerAEC(AECEnv[str, dict[str, Any], int]):  # type: ignore[misc]
    """Hold'em as a PettingZoo AEC environment (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"], "name": "feltro_holdem_v0", "is_parallelizable": False}

    def __init__(self, config: EnvConfig, seed: int | None = None,
                 render_mode: str | None = None) -> None:
        super().__init__()
        self.config = config
        self.game = PokerGame(config, seed)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(config.players)]
        self._index = {name: i for i, name in enumerate(self.possible_agents)}
        obs_space = observation_space(self.game)
        act_space = spaces.Discrete(self.game.codec.size)
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, act_space)
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.game.reset(seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {
            agent: {"legal": dict(_NOBODY)} for agent in self.agents}
        self._skip_agent_selection: str | None = None
        self._rewarded = True
        if self.game.over:
            self._end_of_hand()
        else:
            self._rewarded = False  # the rewards are the zeros just made
            self._select()

    def _select(self) -> None:
        """Select the agent to act and give it its legal actions."""
        game = self.game
        p = game.state.to_act
        assert p is not None
        selected = self.agent_selection = self.possible_agents[game.order[p]]
        legal = game._legal
        if legal is None:
            legal = game._legal = game.hand.legal
        self.infos[selected] = {"legal": legal_info(legal)}

    def _zero_rewards(self) -> None:
        """Rewards are zero between the ends of hands (cleared once after each end)."""
        if self._rewarded:
            rewards = self.rewards
            for agent in self.possible_agents:
                rewards[agent] = 0.0
            self._rewarded = False

    def _end_of_hand(self) -> None:
        """A hand ended: rewards, every agent's info with the hand's PHH, maybe termination."""
        game = self.game
        infos = self.infos
        rewards = self.rewards
        chips, phh = game.take_rewards()
        last = phh[-1] if phh else None
        over = game.over
        for i, agent in enumerate(self.possible_agents):
            rewards[agent] = float(chips[i])
            info: dict[str, Any] = {"legal": dict(_NOBODY) if over else game.legal_info(i),
                                    "hand_over": True}
            if last is not None:
                info["phh"] = last
                info["hands"] = phh  # every hand that ended in the step (a series deals on)
            infos[agent] = info
        self._rewarded = True
        if game.over:
            terminations = self.terminations
            for agent in self.agents:
                terminations[agent] = True
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[game.to_act]  # type: ignore[index]
        cumulative = self._cumulative_rewards
        for agent, reward in rewards.items():
            cumulative[agent] += reward

    def observe(self, agent: str) -> dict[str, Any]:
        i = self._index[agent]
        return {"observation": self.game.observation(i), "action_mask": self.game.action_mask(i)}

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The observation, cumulative reward, termination, truncation and info of the
        selected agent (PettingZoo's ``last``, without the extra calls)."""
        agent = self.agent_selection
        if observe:
            i = self._index[agent]
            game = self.game
            observation: dict[str, Any] | None = {"observation": game.observation(i),
                                                  "action_mask": game.action_mask(i)}
        else:
            observation = None
        return (observation, self._cumulative_rewards[agent], self.terminations[agent],
                self.truncations[agent], self.infos[agent])

    def observe_dict(self, agent: str) -> dict[str, Any]:
        """The readable form of :meth:`observe`, with the PHH of the hand so far."""
        return self.game.observation_dict(self._index[agent])

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act: None is only for agents whose episode is over")
        game = self.game
        hand_ended = game.play(CALL) if action == 1 else game.step(action)
        self._cumulative_rewards[agent] = 0.0
        if hand_ended or game.over:
            self._end_of_hand()
        else:
            # The agent who acted has nothing to do until its turn comes round (B2); set
            # before selecting, as heads-up the big blind closes a street and opens the next.
            infos = self.infos
            infos[agent] = {"legal": dict(_NOBODY)}
            if self._rewarded:
                self._zero_rewards()
            # The next agent to act, with its legal actions (:meth:`_select`, inlined: this
            # is the path of nearly every step).
            p = game.state.to_act
            assert p is not None  # the hand goes on
            selected = self.agent_selection = self.possible_agents[game.order[p]]
            legal = game._legal
            if legal is None:
                legal = game._legal = game.hand.legal
            infos[selected] = {"legal": legal_info(legal)}
        if self.render_mode == "human":
            self.render()

    def _was_dead_step(self, action: int | None) -> None:
        """PettingZoo's dead step, shortened: agents only end all together here (the episode
        is over), so every agent left is dead and the next one is the first of them."""
        if action is not None:
            raise ValueError("when an agent is dead, the only valid action is None")
        agent = self.agent_selection
        del self.terminations[agent]
        del self.truncations[agent]
        del self.rewards[agent]
        del self._cumulative_rewards[agent]
        del self.infos[agent]
        agents = self.agents
        agents.remove(agent)
        if agents:
            if self._skip_agent_selection is None:
                self._skip_agent_selection = agent
            self.agent_selection = agents[0]
            rewards = self.rewards
            for other in agents:
                rewards[other] = 0
        else:
            if self._skip_agent_selection is not None:
                self.agent_selection = self._skip_agent_selection
            self._skip_agent_selection = None

    def render(self) -> str | None:
        return self.game.render(self.render_mode)

    def close(self) -> None:
        pass
