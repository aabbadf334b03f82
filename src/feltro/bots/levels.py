"""The bot levels a player chooses from, by name: :data:`LEVELS` and :func:`make_level`.

Four levels, weakest first: ``random`` (random legal actions,
:class:`~feltro.bots.basic.RandomBot`), ``rules`` (a short list of sensible rules,
:class:`~feltro.bots.rules.RulesBot`), ``montecarlo`` (equity against plausible ranges and
pot odds, :class:`~feltro.bots.montecarlo.MonteCarloBot`) and ``expert`` (the same equity
played with position, stack depth, sizings and a mixed strategy,
:class:`~feltro.bots.expert.ExpertBot`; in the arena it beats every other bot heads-up and
all but the rule bot, which it only matches, at 6-max: ``benchmarks/results/expert.md``).
The other bots of :mod:`feltro.bots` (``station``, ``tight``, ``tag``) are accepted too.

>>> import random
>>> LEVELS
('random', 'rules', 'montecarlo', 'expert')
>>> make_level("montecarlo", random.Random(1)).name
'montecarlo'
"""

from __future__ import annotations

import random
from typing import Final

from feltro.bots import BOT_KINDS, Bot, make_bot

__all__ = ["ALL_KINDS", "DEFAULT_LEVEL", "LEVELS", "make_level"]

LEVELS: Final = ("random", "rules", "montecarlo", "expert")
"""The levels offered to players, weakest first."""

DEFAULT_LEVEL: Final = "rules"
"""The level a new game gets unless told: beatable by a beginner who plays carefully."""

ALL_KINDS: Final = LEVELS + tuple(k for k in BOT_KINDS if k not in LEVELS)
"""Every bot name :func:`make_level` accepts."""


def make_level(name: str, rng: random.Random) -> Bot:
    """A bot of level *name* (see :data:`ALL_KINDS`) drawing its choices from *rng*.

    :raises ValueError: for an unknown *name*.
    """
    if name in BOT_KINDS:
        return make_bot(name, rng)
    raise ValueError(f"unknown bot level {name!r}: choose one of {', '.join(ALL_KINDS)}")
