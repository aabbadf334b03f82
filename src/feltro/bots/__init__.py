"""Bots: programs that play a seat, seeing only what that seat may see.

A bot is anything with a ``name`` and an ``act(view, legal)`` method (:class:`Bot`). It is given
the :class:`~feltro.hand.SeatView` of its own position (its hole cards, the public state, never
another player's unshown cards) and the :class:`~feltro.hand.LegalActions` of the moment, and
returns an :class:`~feltro.actions.Action`. Amounts are totals for the street, as everywhere in
feltro (``Raise(25)`` is "raise to 25").

Bots get their randomness from a :class:`random.Random` they are given, never from the global
one, so a simulation is reproducible from its seed.

>>> import random
>>> from feltro.bots import BOT_KINDS, make_bot
>>> sorted(BOT_KINDS)
['expert', 'montecarlo', 'random', 'rules', 'station', 'tag', 'tight']
>>> make_bot("tight", random.Random(1)).name
'tight'

The simple bots live in :mod:`feltro.bots.basic`, the rule-based ones in
:mod:`feltro.bots.rules` and :mod:`feltro.bots.tag` (tight-aggressive), the Monte Carlo one in
:mod:`feltro.bots.montecarlo` and the strongest in :mod:`feltro.bots.expert`; the levels
offered to players are in :mod:`feltro.bots.levels`. :func:`checked_action` is what a table
uses to ask a bot: an answer the rules refuse is replaced by :func:`check_or_fold`, so a broken
bot cannot cheat or stall the game. The same fallback plays a seat whose time ran out or whose
player is away (:meth:`feltro.session.Session.play_default`).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol, runtime_checkable

from feltro.actions import CHECK, FOLD, Action
from feltro.hand import LegalActions, SeatView

__all__ = ["BOT_KINDS", "Bot", "check_or_fold", "checked_action", "make_bot"]


@runtime_checkable
class Bot(Protocol):
    """What a bot is: a name for the table, and a decision for its seat."""

    name: str
    """Shown at the table, always marked as a bot by user interfaces."""

    def act(self, view: SeatView, legal: LegalActions) -> Action:
        """The action for the position of *view*; *legal* says what is allowed now."""
        ...


def check_or_fold(legal: LegalActions) -> Action:
    """What a seat plays when nobody decides for it: check if that is free, else fold.

    The one place of this rule: a bot's refused answer (:func:`checked_action`), a timeout and
    an away seat (:meth:`feltro.session.Session.play_default`) all play it.
    """
    return CHECK if legal.can_check else FOLD


def checked_action(bot: Bot, view: SeatView, legal: LegalActions) -> tuple[Action, str | None]:
    """Ask *bot* for an action; an illegal answer becomes :func:`check_or_fold`.

    Returns the action to apply and, when the answer was replaced, why (for a log line).
    """
    answer = bot.act(view, legal)
    if answer in legal:
        return answer, None
    fallback = check_or_fold(legal)
    return fallback, f"bot {bot.name!r} answered {answer!r}, not legal now; played {fallback}"


def _factories() -> dict[str, Callable[[random.Random], Bot]]:
    from feltro.bots.basic import CallingStationBot, RandomBot, TightBot
    from feltro.bots.expert import ExpertBot
    from feltro.bots.montecarlo import MonteCarloBot
    from feltro.bots.rules import RulesBot
    from feltro.bots.tag import TagBot

    return {"random": RandomBot, "station": CallingStationBot, "tight": TightBot,
            "rules": RulesBot, "montecarlo": MonteCarloBot, "expert": ExpertBot, "tag": TagBot}


BOT_KINDS: tuple[str, ...] = ("random", "rules", "montecarlo", "expert", "station", "tight",
                              "tag")
"""The names :func:`make_bot` knows."""


def make_bot(kind: str, rng: random.Random) -> Bot:
    """A built-in bot by name (see :data:`BOT_KINDS`) using *rng* for its choices.

    :raises ValueError: for an unknown *kind*.
    """
    factories = _factories()
    if kind not in factories:
        raise ValueError(f"unknown bot {kind!r}: choose one of {', '.join(BOT_KINDS)}")
    return factories[kind](rng)
