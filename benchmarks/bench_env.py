"""Learning-environment and arena speed: feltro.env against PettingZoo's no-limit hold'em.

Usage::

    python benchmarks/bench_env.py            # full run
    python benchmarks/bench_env.py --quick    # fewer decisions

Environments are driven by an always-call policy (check or call every decision), 6 players,
stacks 200, blinds 1/2, on one core; the figure is decisions per second, the median of 3 runs.
"Observations built" means every decision's observation array and mask are made (by
``env.last()`` for the AEC environments, by ``step`` for the batched one). The time includes
resets and the end-of-hand bookkeeping (the PHH text of every hand for the AEC environment).

PettingZoo's ``texas_holdem_no_limit_v6`` (RLCard) is measured in the same run when
installed. The arena is timed on one match with 1 worker and with 2 processes (and Ray when
installed; its time includes starting the local Ray instance).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import warnings
from collections.abc import Callable

import numpy as np

from feltro.arena import MatchConfig
from feltro.arena.backends import run_match
from feltro.env import env, vector_env
from feltro.env.config import EnvConfig
from feltro.env.game import PokerGame
from run import Section, machine_info, print_section, write_results

PLAYERS = 6


Rates = tuple[float, float]
"""(decisions per wall-clock second, decisions per CPU second of this process)."""


def _rates(done: int, wall: float, cpu: float) -> Rates:
    return done / (time.perf_counter() - wall), done / (time.process_time() - cpu)


def feltro_aec(decisions: int) -> Rates:
    """Decisions/s of the AEC environment, ``last()`` then ``step(check/call)``."""
    table = env(players=PLAYERS, seed=1)
    table.reset(seed=1)
    done = 0
    began, cpu = time.perf_counter(), time.process_time()
    while done < decisions:
        _, _, terminated, truncated, _ = table.last()
        if terminated or truncated:
            table.reset()
            continue
        table.step(1)
        done += 1
    return _rates(done, began, cpu)


def feltro_table(decisions: int) -> Rates:
    """Decisions/s of one :class:`PokerGame` (observation and mask built, no PettingZoo)."""
    game = PokerGame(EnvConfig(players=PLAYERS), 1, keep_phh=False)
    game.reset(1)
    done = 0
    began, cpu = time.perf_counter(), time.process_time()
    while done < decisions:
        agent = game.to_act
        if agent is None:
            game.reset()
            continue
        game.observation(agent)
        game.action_mask(agent)
        game.step(1)
        done += 1
    return _rates(done, began, cpu)


def feltro_vector(decisions: int, tables: int) -> Rates:
    """Decisions/s of ``vector_env(tables)`` (one decision per table per step)."""
    batch = vector_env(tables, players=PLAYERS, seed=1)
    batch.reset()
    actions = np.ones(tables, dtype=np.int64)
    steps = max(1, decisions // tables)
    began, cpu = time.perf_counter(), time.process_time()
    for _ in range(steps):
        batch.step(actions)
    return _rates(steps * tables, began, cpu)


def pettingzoo_nl(decisions: int) -> Rates:
    """Decisions/s of PettingZoo's texas_holdem_no_limit_v6, always check/call (action 1)."""
    from pettingzoo.classic import texas_holdem_no_limit_v6

    table = texas_holdem_no_limit_v6.env(num_players=PLAYERS)
    table.reset(seed=1)
    done = 0
    began, cpu = time.perf_counter(), time.process_time()
    while done < decisions:
        _, _, terminated, truncated, _ = table.last()
        if terminated or truncated:
            if not table.agents or all(table.terminations.values()):
                table.reset()
            else:
                table.step(None)
            continue
        table.step(1)
        done += 1
    return _rates(done, began, cpu)


def median_of_3(run: Callable[[], Rates]) -> Rates:
    results = [run() for _ in range(3)]
    return (statistics.median(r[0] for r in results), statistics.median(r[1] for r in results))


def arena_times(hands: int) -> list[tuple[str, float]]:
    match = MatchConfig(bots=("rules", "tight", "random", "station", "rules", "tight"),
                        hands=hands, seed=1)
    rows = []
    reference = None
    for label, kwargs in (("1 worker", {"workers": 1}), ("2 processes", {"workers": 2}),
                          ("Ray, 2 CPUs", {"workers": 2, "use_ray": True})):
        if kwargs.get("use_ray"):
            try:
                import ray  # noqa: F401
            except ImportError:
                continue
        began = time.perf_counter()
        result = run_match(match, **kwargs)  # type: ignore[arg-type]
        elapsed = time.perf_counter() - began
        if reference is None:
            reference = result
        assert result == reference, f"{label}: different results"
        rows.append((label, elapsed))
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    n = 20_000 if args.quick else 100_000
    warnings.simplefilter("ignore")

    rows: list[tuple[object, ...]] = []

    def row(label: str, rates: Rates, goal: str = "") -> None:
        rows.append((label, f"{rates[0]:,.0f}", f"{rates[1]:,.0f}", goal))

    load = os.getloadavg()[0]
    aec = median_of_3(lambda: feltro_aec(n))
    row("feltro.env AEC (env.last + step)", aec, "≥ 88,000")
    row("feltro PokerGame (one table, no PettingZoo layer)",
        median_of_3(lambda: feltro_table(n)))
    for tables in (64, 1024):
        row(f"feltro vector_env({tables})",
            median_of_3(lambda tables=tables: feltro_vector(n, tables)),  # type: ignore[misc]
            "≥ 320,000")
    notes = [f"Load average when the run began: {load:.1f} on {os.cpu_count()} cores (a shared "
             f"machine): wall-clock rates suffer from the other jobs; the CPU-time rates count "
             f"only this process's own time."]
    try:
        pz = median_of_3(lambda: pettingzoo_nl(max(2_000, n // 10)))
        row("PettingZoo texas_holdem_no_limit_v6 (RLCard)", pz)
        notes.append(f"feltro AEC / PettingZoo: {aec[0] / pz[0]:.1f}x wall-clock, "
                     f"{aec[1] / pz[1]:.1f}x CPU time (goal 10x)")
    except ImportError as exc:
        notes.append(f"PettingZoo texas_holdem_no_limit_v6 not measured: {exc}")
    headers = ["environment", "decisions/s (wall)", "decisions/CPU-s", "goal"]
    env_section = Section(f"Always-call policy, {PLAYERS} players, one core, decisions/s "
                          f"(median of 3)", headers, rows, notes)
    print_section(env_section)

    hands = 1_200 if args.quick else 6_000
    timings = arena_times(hands)
    base = timings[0][1]
    arena_rows = [(label, f"{elapsed:.2f} s", f"{base / elapsed:.2f}x") for label, elapsed
                  in timings]
    arena_section = Section(
        f"Arena: one 6-bot duplicate match, {hands:,} hands (rules, tight, random, station, "
        f"rules, tight)", ["backend", "time", "speed-up"], arena_rows,
        ["The results of every backend are identical (checked in the run).",
         "Ray's time includes starting a local Ray instance.",
         f"Load average before the match: {os.getloadavg()[0]:.1f} on {os.cpu_count()} "
         f"cores: with the cores busy with other jobs the speed-up says little about "
         f"scaling."])
    print_section(arena_section)
    command = "python benchmarks/bench_env.py" + (" --quick" if args.quick else "")
    write_results("env", "Learning environment and arena benchmark",
                  [env_section, arena_section],
                  machine_info(["gymnasium", "pettingzoo", "rlcard", "ray"]), command)
    return 0


if __name__ == "__main__":
    sys.exit(main())
