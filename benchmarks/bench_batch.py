"""The batched environment: decisions per second against OpenSpiel, and the million-hand check.

Usage::

    python benchmarks/bench_batch.py            # full run (the check plays 1,000,000 hands)
    python benchmarks/bench_batch.py --quick    # fewer decisions, 20,000 hands checked

Speed: ``feltro.env.vector_env(tables)`` driven by an always-call policy (action 1 at every
table), 6 players, stacks 200, blinds 1/2, one core; every step builds the observation array
and the exact mask of every table. The figure is decisions per second, the median of 3 runs,
by the wall clock and by this process's CPU time (the machine is shared). OpenSpiel's
``universal_poker`` (C++ behind Python bindings) is measured in the same run with the same
game when installed (``pip install open_spiel``): the same always-call policy, chance
outcomes drawn from its own list, once without and once with an observation tensor per
decision.

Check: :func:`feltro.env.crosscheck.crosscheck` over every configuration of
``feltro.env.crosscheck.SETTINGS`` (the hands shared among them): each table's twin
``PokerGame`` is dealt the same cards and must agree on every decision's player, observation,
mask and refusals, and on every result.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
import warnings
from collections.abc import Callable

import numpy as np

from feltro.env import EnvConfig, vector_env
from feltro.env.crosscheck import SETTINGS, crosscheck
from run import Section, machine_info, print_section, write_results

PLAYERS = 6
Rates = tuple[float, float]
"""(decisions per wall-clock second, decisions per CPU second of this process)."""


def _rates(done: int, wall: float, cpu: float) -> Rates:
    return done / (time.perf_counter() - wall), done / (time.process_time() - cpu)


def feltro_batch(decisions: int, tables: int) -> Rates:
    """Decisions/s of ``vector_env(tables)``: one decision per table per step."""
    batch = vector_env(tables, players=PLAYERS, seed=1)
    batch.reset()
    actions = np.ones(tables, dtype=np.int64)
    steps = max(20, decisions // tables)
    began, cpu = time.perf_counter(), time.process_time()
    for _ in range(steps):
        batch.step(actions)
    return _rates(steps * tables, began, cpu)


def openspiel(decisions: int, observe: bool) -> Rates:
    """Decisions/s of OpenSpiel's universal_poker, the same game, always check/call."""
    import pyspiel

    game = pyspiel.load_game(
        "universal_poker(betting=nolimit,numPlayers=6,numRounds=4,blind=1 2 0 0 0 0,"
        "firstPlayer=3 1 1 1,numSuits=4,numRanks=13,numHoleCards=2,numBoardCards=0 3 1 1,"
        "stack=200 200 200 200 200 200)")
    rng = random.Random(1)
    done = 0
    state = game.new_initial_state()
    began, cpu = time.perf_counter(), time.process_time()
    while done < decisions:
        if state.is_terminal():
            state.returns()
            state = game.new_initial_state()
        elif state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:
            if observe:
                state.observation_tensor(state.current_player())
                state.legal_actions_mask()
            state.apply_action(1)
            done += 1
    return _rates(done, began, cpu)


def median_of_3(run: Callable[[], Rates]) -> Rates:
    results = [run() for _ in range(3)]
    return (statistics.median(r[0] for r in results), statistics.median(r[1] for r in results))


def speed_section(decisions: int) -> Section:
    rows: list[tuple[object, ...]] = []
    load = os.getloadavg()[0]
    best = (0.0, 0.0)
    for tables in (256, 1024, 4096):
        rates = median_of_3(lambda tables=tables: feltro_batch(decisions, tables))  # type: ignore[misc]
        best = max(best, rates, key=lambda r: r[1])
        rows.append((f"feltro vector_env({tables}), observations and masks",
                     f"{rates[0]:,.0f}", f"{rates[1]:,.0f}", "≥ 320,000"))
    notes = [f"Load average when the run began: {load:.1f} on {os.cpu_count()} cores (a "
             f"shared machine): the CPU-time rates count only this process's own time."]
    try:
        plain = median_of_3(lambda: openspiel(max(20_000, decisions // 10), observe=False))
        seen = median_of_3(lambda: openspiel(max(20_000, decisions // 10), observe=True))
    except ImportError as exc:
        notes.append(f"OpenSpiel not measured: {exc}")
    else:
        rows.append(("OpenSpiel universal_poker (C++), no observation", f"{plain[0]:,.0f}",
                     f"{plain[1]:,.0f}", ""))
        rows.append(("OpenSpiel universal_poker (C++), observation tensor and mask",
                     f"{seen[0]:,.0f}", f"{seen[1]:,.0f}", ""))
        notes.append(f"Best feltro batch / OpenSpiel without observations: "
                     f"{best[1] / plain[1]:.1f}x by CPU time; with observations: "
                     f"{best[1] / seen[1]:.1f}x.")
    return Section(f"Always-call policy, {PLAYERS} players, one core, decisions/s (median of 3)",
                   ["environment", "decisions/s (wall)", "decisions/CPU-s", "goal"], rows, notes)


def check_section(hands: int) -> Section:
    each = -(-hands // len(SETTINGS))
    rows: list[tuple[object, ...]] = []
    total_hands = total_decisions = total_refusals = 0
    began = time.perf_counter()
    for index, settings in enumerate(SETTINGS):
        report = crosscheck(EnvConfig(**settings), tables=512, hands=each, seed=index)
        total_hands += report.hands
        total_decisions += report.decisions
        total_refusals += report.refusals
        label = ", ".join(f"{key}={value}" for key, value in settings.items())
        rows.append((label, f"{report.hands:,}", f"{report.decisions:,}",
                     f"{report.refusals:,}", "same"))
        print(f"  checked {label}: {report.hands:,} hands", flush=True)
    rows.append(("all", f"{total_hands:,}", f"{total_decisions:,}", f"{total_refusals:,}",
                 "same"))
    return Section(
        "Differential check against the hand engine (feltro.env.crosscheck)",
        ["configuration", "hands", "decisions", "illegal actions tried", "result"], rows,
        [f"Every decision compared: player to act, observation array, exact mask; every "
         f"hand's chips won by each agent; each illegal action refused with the same rule, "
         f"reason and numbers by both. {time.perf_counter() - began:,.0f} s in all.",
         "Policy: fold 15%, check/call 45%, raise 40% (the minimum mostly, any legal size, "
         "all-in), drawn from a seeded generator."])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer decisions and hands")
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    speed = speed_section(200_000 if args.quick else 2_000_000)
    print_section(speed)
    check = check_section(20_000 if args.quick else 1_000_000)
    print_section(check)
    command = "python benchmarks/bench_batch.py" + (" --quick" if args.quick else "")
    write_results("batch", "Batched environment benchmark", [speed, check],
                  machine_info(["numpy", "open_spiel"]), command)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
