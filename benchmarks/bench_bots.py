"""Bot decision latency: how long each built-in level takes to answer, wall clock.

Plays bots-only series at several table sizes and times every decision of the level measured
(issue 5 asks for every decision under 200 ms here). Writes ``results/bots.md``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from feltro.bots import checked_action
from feltro.bots.levels import LEVELS, make_level
from feltro.series import Series, SeriesConfig
from run import Section, machine_info, print_section, write_results


def decision_times(level: str, players: int, seed: int, hands: int) -> list[float]:
    """Seconds per decision of *level* bots over *hands* hands of a *players*-seat series."""
    rng = random.Random(seed)
    config = SeriesConfig(players={s: f"bot{s}" for s in range(1, players + 1)})
    series = Series.start(config, random.Random(seed))
    bots = {seat: make_level(level, random.Random(rng.getrandbits(32))) for seat in config.players}
    times: list[float] = []
    for _ in range(hands):
        if series.outcome is not None:
            break
        series.next_hand()
        while (hand := series.hand) is not None and hand.to_act is not None:
            seating = series.seating
            assert seating is not None
            seat = seating.order[hand.to_act]
            start = time.perf_counter()
            action, _ = checked_action(bots[seat], hand.view(hand.to_act), hand.legal)
            times.append(time.perf_counter() - start)
            series.act(action)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer hands")
    args = parser.parse_args()
    hands = 15 if args.quick else 60
    rows = []
    for level in LEVELS:
        for players in (2, 6, 10):
            times: list[float] = []
            seed = 0
            while len(times) < 10 * hands and seed < 50:  # short series: play several
                times += decision_times(level, players, seed=seed, hands=hands)
                seed += 1
            times.sort()
            p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
            rows.append((level, str(players), f"{len(times):,}",
                         f"{statistics.median(times) * 1000:.2f} ms", f"{p99 * 1000:.1f} ms",
                         f"{times[-1] * 1000:.1f} ms"))
    section = Section(
        "Decision latency per bot level (wall clock)",
        ("level", "players", "decisions", "median", "p99", "slowest"),
        rows,
        ["every seat is a bot of the level measured; goal: every decision under 200 ms"],
    )
    print_section(section)
    write_results("bots", "Bot decision latency", [section], machine_info(["numpy"]),
                  "python benchmarks/run.py bots")


if __name__ == "__main__":
    main()
