"""The settings of a learning environment: :class:`EnvConfig` (validated, immutable)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from feltro.config import HandConfig, Structure
from feltro.errors import ConfigError

__all__ = ["DEFAULT_FRACTIONS", "EnvConfig"]

DEFAULT_FRACTIONS: tuple[float, ...] = (0.5, 0.75, 1.0, 1.5, 2.0)
"""Pot fractions of the discrete action abstraction (bet or raise by that part of the pot)."""


@dataclass(frozen=True, kw_only=True)
class EnvConfig:
    """What every table of an environment plays.

    ``stacks`` is one number for everybody or one per agent (``player_0`` first). With
    ``episode="hand"`` an episode is one hand, and the button moves one agent to the left at
    every reset when ``rotate`` is set (so agent *i* sits at hand position ``(i - k) mod n`` in
    the *k*-th hand); with ``episode="series"`` an episode is a whole freezeout played by
    :class:`~feltro.series.Series` (button draw, dead button, eliminations, at most
    ``max_hands`` hands), which needs equal stacks.

    :raises ConfigError: for settings the engine cannot play.
    """

    players: int = 6
    stacks: int | Sequence[int] = 200
    small_blind: int = 1
    big_blind: int = 2
    ante: int = 0
    structure: Structure | str = Structure.NO_LIMIT
    episode: Literal["hand", "series"] = "hand"
    max_hands: int | None = None
    rotate: bool = True
    actions: Literal["exact", "discrete"] = "exact"
    fractions: tuple[float, ...] = DEFAULT_FRACTIONS
    agent_stacks: tuple[int, ...] = field(init=False)

    def __post_init__(self) -> None:
        n = self.players
        if type(n) is not int or not 2 <= n <= 10:
            raise ConfigError(f"a table needs 2 to 10 players (G1), got {n!r}")
        stacks = self.stacks
        if isinstance(stacks, int):
            per_agent: tuple[int, ...] = (stacks,) * n
        else:
            per_agent = tuple(stacks)
        if len(per_agent) != n:
            raise ConfigError(f"stacks needs one entry per player ({n}), got {len(per_agent)}")
        try:
            structure = Structure(self.structure)
        except ValueError:
            raise ConfigError(f"unknown structure {self.structure!r}: use one of "
                              f"{', '.join(s.value for s in Structure)}") from None
        object.__setattr__(self, "structure", structure)
        object.__setattr__(self, "agent_stacks", per_agent)
        if self.episode not in ("hand", "series"):
            raise ConfigError(f"episode must be 'hand' or 'series', not {self.episode!r}")
        if self.actions not in ("exact", "discrete"):
            raise ConfigError(f"actions must be 'exact' or 'discrete', not {self.actions!r}")
        if not self.fractions or any(not f > 0 for f in self.fractions):
            raise ConfigError(f"pot fractions must be positive, got {self.fractions!r}")
        if self.big_blind < self.small_blind:
            raise ConfigError(f"the big blind ({self.big_blind}) cannot be smaller than the "
                              f"small blind ({self.small_blind})")
        if self.episode == "series" and len(set(per_agent)) != 1:
            raise ConfigError("a series starts everybody with the same stack (G2): give one "
                              "number for stacks")
        self.hand_config(tuple(range(n)))  # validates chips, blinds, antes (ConfigError)

    def hand_config(self, order: Sequence[int]) -> HandConfig:
        """The hand configuration when ``order[p]`` is the agent at position *p* (hand episodes)."""
        stacks = [self.agent_stacks[a] for a in order]
        return HandConfig.standard(stacks, small_blind=self.small_blind,
                                   big_blind=self.big_blind, ante=self.ante,
                                   structure=Structure(self.structure))

    @property
    def total_chips(self) -> int:
        """All chips at the table: no bet can be larger."""
        return sum(self.agent_stacks)
