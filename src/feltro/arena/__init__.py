"""Bots against bots, with duplicate deals and confidence intervals (``feltro arena``).

A match seats one bot per position (2-10 bots). Every **deal** (one shuffled deck) is played
once per seat rotation when the match is *duplicate* (the default): with ``k`` bots the same
cards are played ``k`` times, each bot taking each position once, so the luck of the cards
cancels. The deals of a match, and the random generators of the bots, come from seeds derived
from the match seed (:func:`~feltro.series.derive_seed`), and each deal is played from fresh
bots and fresh stacks, so a match gives the same numbers whatever the number of workers or the
backend that plays its deals (:mod:`feltro.arena.backends`).

Each hand starts every bot with the same stack (a cash-game hand); a bot's winnings are its
chips at the end minus its chips at the start. ``bb/100`` is the mean win per hand in big
blinds times 100; its 95% confidence interval treats the deals as independent samples (a
normal approximation, ``mean +- 1.96 sd / sqrt(deals)``).

>>> from feltro.arena import MatchConfig, play_deals, summarise
>>> match = MatchConfig(bots=("station", "tight"), hands=20, seed=3)
>>> rows = play_deals(match, 0, match.deals)
>>> summary = summarise(match, rows)
>>> summary.hands, [bot.name for bot in summary.bots], sum(sum(row) for row in rows)
(20, ['station', 'tight'], 0)
"""

from __future__ import annotations

import functools
import importlib
import inspect
import math
import random
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from feltro.bots import Bot, checked_action
from feltro.bots.levels import ALL_KINDS, make_level
from feltro.cards import Deck
from feltro.config import HandConfig, Structure
from feltro.errors import ConfigError
from feltro.hand import Hand
from feltro.series import derive_seed

__all__ = [
    "BotResult",
    "MatchConfig",
    "MatchSummary",
    "load_bot",
    "play_chunk",
    "play_deals",
    "summarise",
]


def load_bot(spec: str, rng: random.Random) -> Bot:
    """A bot from a level name (``rules``) or ``module:Class`` (the :class:`~feltro.bots.Bot`
    protocol: a ``name`` and ``act(view, legal)``; the class is called with *rng* when its
    constructor takes an argument, else with none).

    :raises ConfigError: for an unknown level, a module that does not import, a missing class,
        or an object that is not a bot.
    """
    make, takes_rng = _factory(spec)
    try:
        bot = make(rng) if takes_rng else make()
    except Exception as exc:  # the bot's own code: report it, whatever it raised
        raise ConfigError(f"bot {spec!r} could not be created: {exc!r}") from None
    if type(bot) not in _BOT_TYPES:  # checked once per class: the check is slow
        if not isinstance(bot, Bot):
            raise ConfigError(f"bot {spec!r} is not a bot: it needs a name and an act(view, "
                              f"legal) method (see docs/bots.md)")
        _BOT_TYPES.add(type(bot))
    return cast(Bot, bot)


_BOT_TYPES: set[type] = set()
"""Classes whose objects passed the :class:`~feltro.bots.Bot` check."""


@functools.lru_cache(maxsize=64)
def _factory(spec: str) -> tuple[Callable[..., Any], bool]:
    """What builds the bots of *spec*, and whether it takes the random generator.

    Looked up once per process (a worker builds the bots of every deal with it), since
    importing and inspecting a ``module:Class`` costs more than building the bot.
    """
    if ":" not in spec:
        if spec not in ALL_KINDS:
            raise ConfigError(f"unknown bot {spec!r}: use a level ({', '.join(ALL_KINDS)}) or "
                              f"module:Class")
        return functools.partial(make_level, spec), True
    module_name, _, class_name = spec.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ConfigError(f"bot {spec!r}: cannot import {module_name!r} ({exc})") from None
    factory = getattr(module, class_name, None)
    if factory is None:
        raise ConfigError(f"bot {spec!r}: {module_name} has no {class_name!r}")
    try:
        takes_rng = bool(inspect.signature(factory).parameters)
    except (TypeError, ValueError):
        takes_rng = True
    return factory, takes_rng


@dataclass(frozen=True, kw_only=True)
class MatchConfig:
    """What a match plays (validated).

    :raises ConfigError: for fewer than 2 or more than 10 bots, or impossible stakes.
    """

    bots: tuple[str, ...]
    """Bot specs, one per position: level names or ``module:Class``."""
    hands: int
    """Hands to play at least; rounded up to whole duplicate sets."""
    seed: int = 0
    stack: int = 200
    small_blind: int = 1
    big_blind: int = 2
    ante: int = 0
    structure: Structure = Structure.NO_LIMIT
    duplicate: bool = True
    hand_config: HandConfig = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not 2 <= len(self.bots) <= 10:
            raise ConfigError(f"a match needs 2 to 10 bots (G1), got {len(self.bots)}")
        if type(self.hands) is not int or self.hands < 1:
            raise ConfigError(f"hands must be a positive integer, not {self.hands!r}")
        object.__setattr__(self, "hand_config", HandConfig.standard(
            [self.stack] * len(self.bots), small_blind=self.small_blind,
            big_blind=self.big_blind, ante=self.ante, structure=Structure(self.structure)))

    @property
    def per_deal(self) -> int:
        """Hands played from each deal: one per seat rotation when duplicate, else one."""
        return len(self.bots) if self.duplicate else 1

    @property
    def deals(self) -> int:
        """How many deals the match plays."""
        return -(-self.hands // self.per_deal)

    @property
    def names(self) -> tuple[str, ...]:
        """Display names: the spec (its class name for ``module:Class``), numbered on repeats."""
        names: list[str] = []
        for spec in self.bots:
            base = spec.rpartition(":")[2]
            name = base
            count = 2
            while name in names:
                name = f"{base}#{count}"
                count += 1
            names.append(name)
        return tuple(names)


def play_deals(match: MatchConfig, first: int, count: int) -> list[list[int]]:
    """Play deals ``first .. first + count - 1``; one row per deal: each bot's winnings.

    Pure and deterministic: the result depends only on *match* and the deal numbers.
    """
    flat = play_chunk(match, first, count)
    k = len(match.bots)
    return [flat[i:i + k].tolist() for i in range(0, len(flat), k)]


def play_chunk(match: MatchConfig, first: int, count: int) -> array[int]:
    """:func:`play_deals` as one flat array (deal after deal, each bot's winnings): the compact
    form a worker sends back.

    Every deal is seeded from the match seed and its number alone, and played by bots built
    for it, so any cut of a match into chunks gives the same numbers.
    """
    k = len(match.bots)
    out = array("q")
    for deal in range(first, first + count):
        # Fresh bots for every deal (a few microseconds each: the bot classes are looked up
        # once per process), so no bot carries memory from one deal into the next.
        bots = [load_bot(spec, random.Random(derive_seed(match.seed, f"deal {deal} bot {i}")))
                for i, spec in enumerate(match.bots)]
        cards = Deck.shuffled(random.Random(derive_seed(match.seed, f"deal {deal}")))
        won = [0] * k
        for shift in (range(k) if match.duplicate else (deal % k,)):
            order = [(p + shift) % k for p in range(k)]  # order[p]: the bot at position p
            hand = Hand.start(match.hand_config, cards)
            while not hand.is_over:
                p = hand.to_act
                assert p is not None
                action, _ = checked_action(bots[order[p]], hand.view(p), hand.legal)
                hand.apply(action)
            final = hand.result().stacks
            for p, bot in enumerate(order):
                won[bot] += final[p] - match.stack
        out.extend(won)
    return out


@dataclass(frozen=True, slots=True)
class BotResult:
    """One bot's line of a match."""

    name: str
    spec: str
    chips: int
    bb_per_100: float
    ci95: tuple[float, float]

    def to_dict(self) -> dict[str, Any]:
        """The JSON form."""
        return {"name": self.name, "spec": self.spec, "chips": self.chips,
                "bb_per_100": round(self.bb_per_100, 4),
                "ci95": [round(self.ci95[0], 4), round(self.ci95[1], 4)]}


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """The result of a match: hands played and each bot's win rate."""

    hands: int
    deals: int
    bots: tuple[BotResult, ...]
    rows: tuple[tuple[int, ...], ...]
    """Each deal's winnings by bot (for charts)."""

    def to_dict(self, match: MatchConfig) -> dict[str, Any]:
        """``{"hands": N, "bots": [{"name", "bb_per_100", "ci95": [low, high], ...}], ...}``."""
        return {"hands": self.hands, "deals": self.deals, "seed": match.seed,
                "duplicate": match.duplicate, "big_blind": match.big_blind,
                "stack": match.stack, "bots": [bot.to_dict() for bot in self.bots]}


def summarise(match: MatchConfig, rows: Sequence[Sequence[int]]) -> MatchSummary:
    """Win rates and 95% intervals from the deals' rows (see the module docstring)."""
    deals = len(rows)
    per_deal = match.per_deal
    scale = 100 / (per_deal * match.big_blind)  # chips per deal -> bb per 100 hands
    results = []
    for i, (name, spec) in enumerate(zip(match.names, match.bots, strict=True)):
        values = [row[i] for row in rows]
        total = sum(values)
        mean = total / deals if deals else 0.0
        if deals > 1:
            variance = sum((v - mean) ** 2 for v in values) / (deals - 1)
            half = 1.96 * math.sqrt(variance / deals)
        else:
            half = math.inf
        results.append(BotResult(name, spec, total, mean * scale,
                                 ((mean - half) * scale, (mean + half) * scale)))
    return MatchSummary(deals * per_deal, deals, tuple(results),
                        tuple(tuple(row) for row in rows))
