"""A single-agent Gymnasium environment: :class:`SingleAgentEnv` (the other seats are bots).

The learner is agent ``agent`` (default 0); every other agent is played by a bot of
:mod:`feltro.bots` (a level name such as ``"rules"``, or any object with the bot protocol:
``name`` and ``act(view, legal)``). ``step`` plays the learner's action, then the bots until
it is the learner's turn again or the episode ends. Observations, masks and infos are those of
:class:`~feltro.env.aec.PokerAEC` for the learner; the reward is the learner's chips won or
lost in the hands that ended during the step. A hand in which the learner has no decision (the
bots folded to its big blind) is skipped at reset.

Gymnasium's checker steps with unmasked samples, so by default (``illegal="fold"``) an action
the rules refuse is played as check, else fold — what a table does with a bot's illegal
answer — and ``info["illegal"]`` says why, as data (``{"rule", "reason", "params"}``, see
:class:`~feltro.errors.Refusal`). ``illegal="raise"`` raises the
engine's :class:`~feltro.errors.IllegalActionError` instead (nothing changes).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, SupportsFloat

import gymnasium
from gymnasium import spaces

from feltro.bots import Bot, check_or_fold, checked_action
from feltro.bots.levels import make_level
from feltro.env.aec import observation_space
from feltro.env.env_config import EnvConfig
from feltro.env.game import PokerGame
from feltro.errors import ConfigError, IllegalActionError
from feltro.series import derive_seed

__all__ = ["SingleAgentEnv"]

Obs = dict[str, Any]


class SingleAgentEnv(gymnasium.Env[Obs, int]):
    """One learner against bots (see the module docstring)."""

    # gymnasium declares metadata as an instance variable
    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"]}  # noqa: RUF012

    def __init__(self, config: EnvConfig, opponents: Sequence[str | Bot] | str = "rules",
                 agent: int = 0, seed: int | None = None,
                 render_mode: str | None = None, illegal: str = "fold") -> None:
        if illegal not in ("fold", "raise"):
            raise ConfigError(f"illegal must be 'fold' or 'raise', not {illegal!r}")
        self.illegal = illegal
        if not 0 <= agent < config.players:
            raise ConfigError(f"agent must be 0..{config.players - 1}, not {agent}")
        others = config.players - 1
        if isinstance(opponents, str):
            opponents = [opponents] * others
        if len(opponents) != others:
            raise ConfigError(f"{others} opponents are needed, got {len(opponents)}")
        self.config = config
        self.agent = agent
        self.game = PokerGame(config, seed)
        self.render_mode = render_mode
        self._specs = list(opponents)
        self._bots: dict[int, Bot] = {}
        self._make_bots(seed if seed is not None else 0)
        self.observation_space = observation_space(self.game)
        self.action_space = spaces.Discrete(self.game.codec.size)  # type: ignore[assignment]

    def _make_bots(self, seed: int) -> None:
        seats = [a for a in range(self.config.players) if a != self.agent]
        for i, (seat, spec) in enumerate(zip(seats, self._specs, strict=True)):
            if isinstance(spec, str):
                self._bots[seat] = make_level(spec, random.Random(derive_seed(seed, f"bot {i}")))
            else:
                self._bots[seat] = spec

    def _observe(self) -> Obs:
        return {"observation": self.game.observation(self.agent),
                "action_mask": self.game.action_mask(self.agent)}

    def _info(self, phh: list[str]) -> dict[str, Any]:
        info: dict[str, Any] = {"legal": self.game.legal_info(self.agent)}
        if phh:
            info["phh"] = phh[-1]
            info["hands"] = list(phh)
        return info

    def _play_bots(self) -> None:
        game = self.game
        while not game.over:
            to_act = game.to_act
            if to_act is None or to_act == self.agent:
                return
            hand = game.hand
            position = hand.to_act
            assert position is not None
            action, _ = checked_action(self._bots[to_act], hand.view(position), hand.legal)
            game.play(action)

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Obs, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._make_bots(seed)
        self.game.reset(seed)
        self._play_bots()
        while self.game.over:  # the learner had no decision (everybody folded to it): next one
            self.game.reset()
            self._play_bots()
        self.game.take_rewards()
        return self._observe(), self._info([])

    def step(self, action: int) -> tuple[Obs, SupportsFloat, bool, bool, dict[str, Any]]:
        refused = None
        try:
            self.game.step(action)
        except IllegalActionError as exc:
            if self.illegal == "raise" or self.game.over:
                raise
            refused = exc.refusal
            self.game.play(check_or_fold(self.game.legal))
        self._play_bots()
        chips, phh = self.game.take_rewards()
        reward = float(chips[self.agent])
        if self.render_mode == "human":
            self.render()
        info = self._info(phh)
        if refused is not None:
            info["illegal"] = {"rule": refused.rule, "reason": refused.reason,
                               "params": dict(refused.params)}
        return self._observe(), reward, self.game.over, False, info

    def render(self) -> str | None:
        return self.game.render(self.render_mode)
