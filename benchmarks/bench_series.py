"""How long a whole bots-only freezeout takes: 10 players, 200 chips, blinds 1/2, to the end.

Usage::

    python benchmarks/bench_series.py            # 41 seeds per bot line-up
    python benchmarks/bench_series.py --quick    # 9 seeds

Each series is played exactly as ``feltro simulate`` plays it (:func:`feltro.cli.simulate.
play_bots`: every decision asks a built-in bot for its seat's view, the bot RNG reseeded per
decision), once in memory and, for the default line-up, once through the durable SQLite log
(every record committed with ``synchronous=FULL`` before the next move). The figure is the
median over seeds; each seed is a different series, so the spread is the game's, not the
machine's. Goal (issue 4): the in-memory 10-player freezeout well under a second.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from feltro.cli.simulate import bot_kinds, play_bots
from feltro.series import Series, SeriesConfig
from feltro.series_log import SeriesStore
from run import Section, machine_info, print_section, write_results

PLAYERS = 10
SEATS = tuple(range(1, PLAYERS + 1))


def _in_memory(kinds: str, seed: int) -> tuple[int, int]:
    series = Series.start(SeriesConfig.with_players(PLAYERS), random.Random(seed))
    play_bots(series, bot_kinds(kinds, SEATS))
    return series.hand_number, sum(len(s.hand.events) for s in series.summaries)


def _stored(kinds: str, seed: int, *, folder: Path) -> tuple[int, int]:
    path = folder / f"series-{kinds}-{seed}.db"
    with SeriesStore.create(path, SeriesConfig.with_players(PLAYERS),
                            random.Random(seed)) as store:
        play_bots(store, bot_kinds(kinds, SEATS))
        series = store.series
        return series.hand_number, sum(len(s.hand.events) for s in series.summaries)


def _measure(run: Callable[[int], tuple[int, int]], seeds: range) -> tuple[str, ...]:
    walls: list[float] = []
    cpus: list[float] = []
    hands: list[int] = []
    for seed in seeds:
        gc.collect()
        gc.disable()
        try:
            wall, cpu = time.perf_counter(), time.process_time()
            played, _ = run(seed)
            walls.append(time.perf_counter() - wall)
            cpus.append(time.process_time() - cpu)
        finally:
            gc.enable()
        hands.append(played)
    walls.sort()
    return (
        f"{statistics.median(walls) * 1000:.1f} ms",
        f"{statistics.median(cpus) * 1000:.1f} ms",
        f"{walls[int(0.9 * (len(walls) - 1))] * 1000:.1f} ms",
        f"{walls[-1] * 1000:.1f} ms",
        f"{statistics.median(hands):.0f}",
        f"{sum(hands) / sum(walls):,.0f}",
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer seeds (rougher figures)")
    args = parser.parse_args(argv)
    seeds = range(9 if args.quick else 41)
    headers = ("bots", "log", "median wall", "median CPU", "p90 wall", "max wall",
               "median hands", "hands/s")
    rows: list[tuple[str, ...]] = []
    for kinds in ("mix", "random", "tight"):
        rows.append((kinds, "memory", *_measure(partial(_in_memory, kinds), seeds)))
    with tempfile.TemporaryDirectory() as folder:
        stored_seeds = seeds[: max(3, len(seeds) // 4)]
        rows.append(("mix", "SQLite", *_measure(
            partial(_stored, "mix", folder=Path(folder)), stored_seeds)))
    section = Section(
        f"A {PLAYERS}-player freezeout from 200 chips to the end ({len(seeds)} seeds)",
        headers,
        rows,
        [
            "mix = tight, random, calling station in turn (the `feltro simulate` default); "
            "random = fold 10% / check-call 60% / min raise 20% / all-in 10%; "
            "tight = TightBot everywhere",
            "memory: feltro.series only; SQLite: every record committed (fsync) through "
            f"feltro.series_log, {len(stored_seeds)} seeds",
            "goal (issue 4): the in-memory median well under 1 s",
        ],
    )
    print_section(section)
    command = "python benchmarks/bench_series.py" + (" --quick" if args.quick else "")
    write_results("series", "Series benchmark", [section], machine_info(), command)
    return 0


if __name__ == "__main__":
    sys.exit(main())
