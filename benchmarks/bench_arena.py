"""Arena scaling: one match on 1 worker, on every local core, and on Ray with as many CPUs.

Usage::

    python benchmarks/bench_arena.py                # the measurement (about a minute or two)
    python benchmarks/bench_arena.py --quick        # a smoke run: 6,000 hands, rough figures
    python benchmarks/bench_arena.py --hands 60000 --workers 4 --no-ray

Run it on a quiet machine: the figures are wall-clock times, and other jobs on the cores make
any speed-up meaningless (the load average at the start and at the end is written beside
them). The goals (issue 13): a speed-up of at least 0.8 x linear from 1 worker to all local
cores, and the Ray backend within 20% of the local one on one machine.

One 6-bot duplicate match (rules, tight, random, station, rules, tight; stacks 200, blinds
1/2, seed 1), long enough (120,000 hands, about half a minute on one core) that starting
workers is small beside playing. It is played:

- by 1 worker: in this process, no pool;
- by all local cores (``os.cpu_count()``, or ``--workers``): a pool of that many processes,
  its start included;
- by Ray with as many CPUs (a local instance, or ``--ray ADDRESS``): Ray's start-up
  (``ray.init`` and one empty task per CPU, so every Ray worker has started and imported
  feltro) is timed apart from the match, as the issue compares the backends on the match; the
  total is reported too.

Speed-up is the 1-worker time over the backend's time; efficiency is speed-up / workers.
Before the 1-worker run and after the local processes' run, a CPU-only loop (no feltro) is
timed on one process and on as many as the workers: its speed-up is what the machine allowed
at the time, the ceiling for the arena's.
Every backend's rows (each deal's winnings by bot) must equal the 1-worker rows: the run stops
otherwise. The results go to ``benchmarks/results/arena.md``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

from feltro.arena import MatchConfig
from feltro.arena.backends import run_match, start_ray, stop_ray
from run import Section, machine_info, print_section, write_results

BOTS = ("rules", "tight", "random", "station", "rules", "tight")
FULL_HANDS = 120_000
QUICK_HANDS = 6_000
EFFICIENCY_GOAL = 0.8
RAY_GOAL = 1.2
"""Ray's match time over the local processes' time, at most."""

Rows = list[list[int]]


def timed(play: Callable[[], Rows]) -> tuple[Rows, float, float]:
    """The rows, the wall-clock seconds, and the CPU seconds of this process and its finished
    children (the pool's workers; not Ray's, which are not our children)."""
    before, wall = os.times(), time.perf_counter()
    rows = play()
    elapsed = time.perf_counter() - wall
    after = os.times()
    cpu = sum(after[:4]) - sum(before[:4])  # user + system, self + children
    return rows, elapsed, cpu


def spin(n: int) -> int:
    """Pure CPU work, no feltro: what the machine's cores give at the moment."""
    total = 0
    for i in range(n):
        total += i
    return total


def machine_speedup(workers: int, n: int = 20_000_000) -> float:
    """The speed-up of *workers* processes each spinning *n* times over one doing it once: the
    best any parallel code can get on this machine now (other jobs take the rest)."""
    began = time.perf_counter()
    spin(n)
    one = time.perf_counter() - began
    with ProcessPoolExecutor(workers) as pool:
        list(pool.map(spin, [1] * workers))  # the pool's start is not what is measured
        began = time.perf_counter()
        list(pool.map(spin, [n] * workers))
        many = time.perf_counter() - began
    return workers * one / many


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} / {five:.2f} / {fifteen:.2f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help=f"{QUICK_HANDS:,} hands")
    parser.add_argument("--hands", type=int, help=f"hands to play (default {FULL_HANDS:,})")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                        help="local processes and Ray CPUs (default: os.cpu_count())")
    parser.add_argument("--ray", metavar="ADDRESS", default=None,
                        help="time Ray on this cluster instead of a new local instance")
    parser.add_argument("--no-ray", action="store_true", help="skip Ray")
    args = parser.parse_args()
    hands = args.hands or (QUICK_HANDS if args.quick else FULL_HANDS)
    workers = max(1, args.workers)
    match = MatchConfig(bots=BOTS, hands=hands, seed=1)
    load_start = load()
    print(f"{match.deals * match.per_deal:,} hands ({match.deals:,} deals), {workers} workers; "
          f"load average at start {load_start}", flush=True)

    machine_before = machine_speedup(workers)
    print(f"a CPU-only loop on {workers} processes: {machine_before:.2f}x", flush=True)
    reference, base, base_cpu = timed(lambda: run_match(match, workers=1))
    print(f"1 worker: {base:.2f} s", flush=True)
    rows: list[tuple[object, ...]] = [
        ("one worker (this process)", 1, f"{base:.2f} s", f"{base_cpu:.2f} s", "1.00x", "1.00",
         "")]

    local, local_s, local_cpu = timed(lambda: run_match(match, workers=workers))
    assert local == reference, f"{workers} processes: results differ from 1 worker"
    print(f"{workers} processes: {local_s:.2f} s", flush=True)
    speed = base / local_s
    rows.append(("local processes (pool start included)", workers, f"{local_s:.2f} s",
                 f"{local_cpu:.2f} s", f"{speed:.2f}x", f"{speed / workers:.2f}", "1.00"))
    machine_after = machine_speedup(workers)
    notes = [f"What the machine allowed: a CPU-only loop (no feltro) ran {machine_before:.2f}x "
             f"faster on {workers} processes than on one just before the 1-worker run, "
             f"{machine_after:.2f}x just after the local processes' run (ideal: "
             f"{workers}.00x); where it is below the ideal, other jobs hold the cores and the "
             f"arena's speed-up says more about them than about the arena.",
             f"Work added by the parallel path (CPU time of the local processes over the "
             f"1-worker CPU time): {local_cpu / base_cpu - 1:+.1%}."]
    if not args.no_ray:
        notes += ray_rows(match, workers, args.ray, base, local_s, reference, rows)
    load_end = load()
    verdict = "met" if speed / workers >= EFFICIENCY_GOAL else "NOT met"
    notes = [
        f"Goal: efficiency >= {EFFICIENCY_GOAL} from 1 to {workers} local cores: {verdict} "
        f"({speed / workers:.2f}; the arena's speed-up over the CPU-only loop's, the mean of "
        f"before and after: {2 * speed / (machine_before + machine_after):.2f}).",
        *notes,
        "The rows (each deal's winnings by bot) of every backend equal the 1-worker rows "
        "(checked in the run).",
        "CPU time: this process and its finished child processes (user + system); a CPU time "
        "well below the wall time times the workers means the cores were busy with other "
        "jobs.",
        f"Load average (1 / 5 / 15 min) at the start: {load_start}; at the end: {load_end}; "
        f"on {os.cpu_count()} cores.",
    ]
    section = Section(
        f"One 6-bot duplicate match, {match.deals * match.per_deal:,} hands "
        f"({', '.join(BOTS)})",
        ["backend", "workers", "time", "CPU time", "speed-up", "efficiency", "vs local"],
        rows, notes)
    print_section(section)
    command = "python benchmarks/bench_arena.py" + (" --quick" if args.quick else "")
    if args.hands:
        command += f" --hands {args.hands}"
    if args.workers != (os.cpu_count() or 1):
        command += f" --workers {args.workers}"
    command += f" --ray {args.ray}" if args.ray else (" --no-ray" if args.no_ray else "")
    path = write_results("arena", "Bot arena scaling benchmark", [section],
                         machine_info(["ray"]), command)
    print(f"\nwritten to {path}")
    return 0


def ray_rows(match: MatchConfig, workers: int, address: str | None, base: float,
             local_s: float, reference: Rows, rows: list[tuple[object, ...]]) -> list[str]:
    """Time Ray's start-up, the match on Ray, and its shut-down; add the rows, return notes."""
    try:
        import ray  # noqa: F401
    except ImportError:
        return ["Ray is not installed (pip install 'feltro[arena]'): not measured."]
    where = f"cluster {address}" if address else f"local instance, {workers} CPUs"
    began = time.perf_counter()
    start_ray(workers, address)
    startup = time.perf_counter() - began
    print(f"Ray start-up: {startup:.2f} s", flush=True)
    try:
        on_ray, ray_s, _ = timed(lambda: run_match(match, workers=workers, use_ray=True))
    finally:
        began = time.perf_counter()
        stop_ray()
        shutdown = time.perf_counter() - began
    assert on_ray == reference, "Ray: results differ from 1 worker"
    print(f"Ray match: {ray_s:.2f} s", flush=True)
    speed, total = base / ray_s, startup + ray_s
    rows.append((f"Ray ({where}): the match", workers, f"{ray_s:.2f} s", "—", f"{speed:.2f}x",
                 f"{speed / workers:.2f}", f"{ray_s / local_s:.2f}"))
    rows.append(("Ray: start-up (ray.init, workers warmed)", "", f"{startup:.2f} s", "—", "", "",
                 ""))
    rows.append(("Ray: start-up + match", workers, f"{total:.2f} s", "—", f"{base / total:.2f}x",
                 f"{base / total / workers:.2f}", f"{total / local_s:.2f}"))
    verdict = "met" if ray_s / local_s <= RAY_GOAL else "NOT met"
    return [f"Goal: Ray's match within {RAY_GOAL - 1:.0%} of the local processes' on one "
            f"machine: {verdict} ({ray_s / local_s:.2f}x the local time; with start-up "
            f"{total / local_s:.2f}x).",
            f"Ray shut-down (not counted): {shutdown:.2f} s. Ray's CPU time is not shown: its "
            f"workers are not this process's children."]


if __name__ == "__main__":
    sys.exit(main())
