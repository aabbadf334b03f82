"""Learning-environment speed: feltro.env against PettingZoo's no-limit hold'em.

Usage::

    python benchmarks/bench_env.py            # full run
    python benchmarks/bench_env.py --quick    # fewer decisions

Environments are driven by an always-call policy (check or call every decision), 6 players,
stacks 200, blinds 1/2, on one core; the figure is decisions per second, the median of 3 runs.
Both AEC environments run the same loop, PettingZoo's usual one::

    if not table.agents:
        table.reset()
    observation, reward, terminated, truncated, info = table.last()
    table.step(None if terminated or truncated else 1)

so every decision's observation array and mask are built (by ``last()``), and the time includes
resets, the steps that retire the agents at the end of each episode and the end-of-hand
bookkeeping (the PHH text of every hand in the infos). Only the steps with an action count as
decisions. The batched environment is measured in ``bench_batch.py``.

PettingZoo's ``texas_holdem_no_limit_v6`` (RLCard) is measured in the same run when
installed. The arena's scaling is measured in ``bench_arena.py``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import warnings
from collections.abc import Callable
from typing import Any

from feltro.env import env
from feltro.env.env_config import EnvConfig
from feltro.env.game import PokerGame
from run import Section, machine_info, print_section, write_results

PLAYERS = 6


Rates = tuple[float, float]
"""(decisions per wall-clock second, decisions per CPU second of this process)."""


def _rates(done: int, wall: float, cpu: float) -> Rates:
    return done / (time.perf_counter() - wall), done / (time.process_time() - cpu)


def aec_loop(table: Any, decisions: int) -> Rates:
    """Decisions/s of a PettingZoo AEC environment: ``last()`` then ``step(1)`` (check or
    call), ``step(None)`` for the agents whose episode ended, ``reset()`` when none is left."""
    table.reset(seed=1)
    done = 0
    began, cpu = time.perf_counter(), time.process_time()
    while done < decisions:
        if not table.agents:
            table.reset()
        _, _, terminated, truncated, _ = table.last()
        if terminated or truncated:
            table.step(None)
        else:
            table.step(1)
            done += 1
    return _rates(done, began, cpu)


def feltro_aec(decisions: int) -> Rates:
    """Decisions/s of feltro's AEC environment (see :func:`aec_loop`)."""
    return aec_loop(env(players=PLAYERS, stacks=200, small_blind=1, big_blind=2, seed=1),
                    decisions)


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


def pettingzoo_nl(decisions: int) -> Rates:
    """Decisions/s of PettingZoo's texas_holdem_no_limit_v6 (action 1 is check/call), the
    same loop (:func:`aec_loop`)."""
    from pettingzoo.classic import texas_holdem_no_limit_v6

    return aec_loop(texas_holdem_no_limit_v6.env(num_players=PLAYERS), decisions)


def median_of_3(run: Callable[[], Rates]) -> Rates:
    results = [run() for _ in range(3)]
    return (statistics.median(r[0] for r in results), statistics.median(r[1] for r in results))


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

    command = "python benchmarks/bench_env.py" + (" --quick" if args.quick else "")
    write_results("env", "Learning environment benchmark", [env_section],
                  machine_info(["gymnasium", "pettingzoo", "rlcard"]), command)
    return 0


if __name__ == "__main__":
    sys.exit(main())
