"""``feltro bench engine``: how many hands a second the engine plays under a random policy.

The policy (issue 3) picks among what is legal: fold 10% (offered only when facing a bet),
check or call 60%, the minimum bet or raise 20%, all-in 10%, renormalised over what is legal.
Each hand starts from 200-chip stacks with blinds 1/2 and is played to the end, showdown and
pots included, through the public API (``Hand.start``, ``hand.legal``, ``hand.apply``).
``benchmarks/bench_engine.py`` runs the same policy on PokerKit for a side-by-side figure.
"""

from __future__ import annotations

import json
import random
import time
from typing import Annotated, Any

import typer

from feltro.cli.apps import command_group

__all__ = ["WEIGHTS", "bench_record", "choose", "register", "run_engine"]

WEIGHTS = (10, 60, 20, 10)
"""Policy weights: fold, check/call, minimum bet or raise, all-in."""


def choose(rng_random: Any, facing_bet: bool, can_raise: bool) -> int:
    """The policy's pick: 0 fold, 1 check/call, 2 minimum raise, 3 all-in.

    *rng_random* is a ``random.Random().random`` bound method, so both engines draw the same
    numbers in the same order.
    """
    fold, passive, minimum, all_in = WEIGHTS
    total = passive + (fold if facing_bet else 0) + ((minimum + all_in) if can_raise else 0)
    r = rng_random() * total
    if facing_bet:
        if r < fold:
            return 0
        r -= fold
    if r < passive or not can_raise:
        return 1
    return 2 if r - passive < minimum else 3


def run_engine(players: int, hands: int, seed: int) -> dict[str, Any]:
    """Play *hands* hands of *players* players and measure them.

    :raises ValueError: for fewer than 2 or more than 10 players, or no hands.
    """
    from feltro.actions import CALL, CHECK, FOLD, Raise
    from feltro.hand import Hand, HandConfig

    if not 2 <= players <= 10:
        raise ValueError(f"players must be 2..10, not {players}")
    if hands < 1:
        raise ValueError(f"hands must be at least 1, not {hands}")
    rng = random.Random(seed)
    config = HandConfig.standard([200] * players)
    ids = list(range(52))
    needed = 2 * players + 8  # holes, three burns and five board cards
    sample = rng.sample
    draw = rng.random
    start = Hand.start
    actions = 0
    showdowns = 0
    began = time.perf_counter()
    for _ in range(hands):
        # A random deal of the cards the hand can use: a shuffled deck's top, drawn cheaply.
        hand = start(config, sample(ids, needed))
        while hand.to_act is not None:
            legal = hand.legal
            facing = not legal.can_check
            low = legal.min_raise_to
            pick = choose(draw, facing, low is not None)
            if pick == 1:
                hand.apply(CALL if facing else CHECK)
            elif pick == 0:
                hand.apply(FOLD)
            else:
                hand.apply(Raise(low if pick == 2 else legal.max_raise_to))  # type: ignore[arg-type]
            actions += 1
        result = hand.result()
        if len(result.pots[0].eligible) > 1:
            showdowns += 1
    return bench_record("feltro", players, hands, seed, time.perf_counter() - began, actions,
                        showdowns)


def bench_record(engine: str, players: int, hands: int, seed: int, seconds: float, actions: int,
                 showdowns: int) -> dict[str, Any]:
    """The JSON line of a random-policy run (the same fields for every engine measured)."""
    return {
        "engine": engine,
        "players": players,
        "hands": hands,
        "seed": seed,
        "seconds": round(seconds, 4),
        "hands_per_second": round(hands / seconds, 1),
        "actions_per_hand": round(actions / hands, 3),
        "showdown_fraction": round(showdowns / hands, 4),
    }


def engine(
    *,
    players: Annotated[int, typer.Option(min=2, max=10, help="Players per hand.")] = 6,
    hands: Annotated[int, typer.Option(min=1, help="Hands to play.")] = 20_000,
    seed: Annotated[int, typer.Option(help="Seed of the deals and the policy.")] = 1,
) -> None:
    """Play random hands and print one JSON line: hands_per_second, actions_per_hand, ..."""
    typer.echo(json.dumps(run_engine(players, hands, seed)))


def register(app: typer.Typer) -> None:
    """Add the ``bench`` command group to the ``feltro`` app."""
    bench_app = command_group("bench", "Measure feltro's speed.")
    bench_app.command("engine")(engine)
    app.add_typer(bench_app, name="bench")
