"""The expert level in the arena: duplicate matches against every other built-in bot, heads-up
and 6-max, and its decision time. Writes ``results/expert.md`` (and one small JSON per match
under ``results/expert/``, the arena's ``--json`` form plus the time taken).

Each row is one ``feltro arena`` match (same seed, same numbers whatever the workers); this
script plays them through the arena's API so that it can resume: a row whose JSON already
holds at least the hands asked is not played again (``--fresh`` plays everything).

    python benchmarks/bench_expert.py                  # every row at the hands of the table
    python benchmarks/bench_expert.py --workers 1      # one core
    python benchmarks/bench_expert.py --only heads-up-station   # some rows, by JSON name
    python benchmarks/bench_expert.py --table          # rebuild expert.md from the JSONs
    python benchmarks/bench_expert.py --quick          # 1/50 of the hands, nothing written
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from feltro.arena import MatchConfig, load_bot, summarise
from feltro.arena.backends import default_workers, run_match
from feltro.bots import checked_action, montecarlo
from feltro.cards import Deck
from feltro.config import HandConfig
from feltro.hand import Hand
from run import RESULTS, Section, machine_info, print_section, write_results

SEED = 1
ROWS: tuple[tuple[str, str, tuple[str, ...], int], ...] = (
    # label, format, bots (expert first), hands
    ("random", "heads-up", ("expert", "random"), 200_000),
    ("rules", "heads-up", ("expert", "rules"), 200_000),
    ("montecarlo", "heads-up", ("expert", "montecarlo"), 200_000),
    ("station", "heads-up", ("expert", "station"), 200_000),
    ("tight", "heads-up", ("expert", "tight"), 200_000),
    ("tag", "heads-up", ("expert", "tag"), 200_000),
    ("5 x montecarlo", "6-max", ("expert",) + ("montecarlo",) * 5, 200_000),
    ("random, rules, montecarlo, station, tag", "6-max",
     ("expert", "random", "rules", "montecarlo", "station", "tag"), 200_000),
    ("5 x rules", "6-max", ("expert",) + ("rules",) * 5, 200_000),
    ("5 x tag", "6-max", ("expert",) + ("tag",) * 5, 200_000),
    ("5 x station", "6-max", ("expert",) + ("station",) * 5, 200_000),
    ("5 x tight", "6-max", ("expert",) + ("tight",) * 5, 200_000),
    ("5 x random", "6-max", ("expert",) + ("random",) * 5, 200_000),
)
JSON_DIR = RESULTS / "expert"


def _slug(label: str, fmt: str) -> str:
    return f"{fmt}-{label}".replace(", ", "-").replace(" x ", "x").replace(" ", "-")


def _command(bots: tuple[str, ...], hands: int) -> str:
    return f"feltro arena {' '.join(bots)} --hands {hands} --seed {SEED} --workers 1"


def play_row(bots: tuple[str, ...], hands: int, workers: int,
             path: Path | None) -> dict[str, object]:
    """Play one match; write its JSON to *path* (when given) and return it."""
    match = MatchConfig(bots=bots, hands=hands, seed=SEED)
    began = time.perf_counter()
    rows = run_match(match, workers=workers)
    data = summarise(match, rows).to_dict(match)
    data["seconds"] = round(time.perf_counter() - began, 1)
    data["workers"] = workers
    if path is not None:
        path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    return data


def match_section(results: dict[str, dict[str, object]]) -> Section:
    rows = []
    notes = []
    for label, fmt, bots, hands in ROWS:
        data = results.get(_slug(label, fmt))
        if data is None:
            rows.append((label, fmt, "not played", "", "", _command(bots, hands)))
            continue
        expert = data["bots"][0]  # type: ignore[index]
        if fmt == "6-max":
            others = ", ".join(f"{bot['name']} {bot['bb_per_100']:+.1f}"
                               for bot in data["bots"][1:])  # type: ignore[index]
            notes.append(f"6-max {label}: the others' bb/100: {others}")
        low, high = expert["ci95"]
        rows.append((label, fmt, f"{data['hands']:,}", f"{expert['bb_per_100']:+.1f}",
                     f"[{low:+.1f}, {high:+.1f}]", _command(bots, int(data["hands"]))))  # type: ignore[call-overload]
    return Section(
        "Expert against each bot, duplicate deals (bb/100 of the expert, 95% interval)",
        ("opponent", "format", "hands", "expert bb/100", "95% CI", "command"),
        rows,
        ["stacks 200 (100 big blinds), blinds 1/2, every hand from fresh stacks; duplicate: "
         "each deal replayed with the seats rotated (a heads-up deal is 2 hands, a 6-max "
         "deal 6)",
         "6-max rows seat the expert with the five bots listed; its interval is over deals",
         "tight is a tight but passive rule bot (it raises only big pairs and big aces, calls "
         "the rest); tag is the tight-aggressive one (raises the ~11-25% of hands it plays, "
         "never limps, continuation-bets): feltro.bots.tag",
         "the arena's interval treats deals as independent samples (normal approximation); "
         "an interval above zero is the issue's bar for 'beats'",
         f"seed {SEED}; the numbers do not depend on --workers (the arena's guarantee)",
         "an earlier expert only broke even against five rules bots (+2.6 [-0.9, +6.1] over "
         "600,000 hands, seed 1); its heads-up bluffs and two-thirds-pot continuation bets "
         "were then tuned on other deals (seeds 7 and 8, 60,000 hands each), and every row "
         "here was played afresh with seed 1 after that change",
         *notes],
    )


@contextmanager
def _plain_loop() -> Iterator[None]:
    """Equity from the plain Python loop (the bots before numpy), for the 'before' figures."""
    saved = montecarlo._vector_equity
    montecarlo._vector_equity = lambda: None  # type: ignore[assignment]
    try:
        yield
    finally:
        montecarlo._vector_equity = saved


def decision_times(kind: str, players: int, hands: int) -> list[float]:
    """CPU seconds (this thread) of each decision of *kind* against montecarlo bots."""
    config = HandConfig.standard([200] * players)
    times: list[float] = []
    for deal in range(hands):
        seat = deal % players
        bots = [load_bot(kind if i == seat else "montecarlo", random.Random(deal * 16 + i))
                for i in range(players)]
        hand = Hand.start(config, Deck.shuffled(random.Random(deal)))
        while not hand.is_over:
            p = hand.to_act
            assert p is not None
            began = time.thread_time()
            action, _ = checked_action(bots[p], hand.view(p), hand.legal)
            if p == seat:
                times.append(time.thread_time() - began)
            hand.apply(action)
    return times


def timing_section(hands: int) -> Section:
    rows = []
    for label, plain in (("numpy equity (now)", False), ("plain loop (before)", True)):
        for players in (2, 6, 10):
            with _plain_loop() if plain else _nothing():
                times = sorted(decision_times("expert", players, hands))
            p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
            rows.append((label, str(players), f"{len(times):,}",
                         f"{statistics.mean(times) * 1000:.2f} ms", f"{p99 * 1000:.2f} ms",
                         f"{times[-1] * 1000:.1f} ms"))
    return Section(
        "Expert decision time on one core (thread CPU time)",
        ("equity", "players", "decisions", "mean", "p99", "slowest"),
        rows,
        [f"{hands} hands per table size, the expert in one seat (rotating), montecarlo bots in "
         "the others; time.thread_time() around each decision, so other processes on a "
         "shared machine do not count; the goal is p99 <= 200 ms",
         "'plain loop' is the same bot with the numpy path switched off (what an install "
         "without numpy runs, and what every install ran before)"],
    )


@contextmanager
def _nothing() -> Iterator[None]:
    yield


def _load_results() -> dict[str, dict[str, object]]:
    found = {}
    for path in sorted(JSON_DIR.glob("*.json")):
        found[path.stem] = json.loads(path.read_text(encoding="utf-8"))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="1/50 of the hands, no files")
    parser.add_argument("--workers", type=int, default=None, help="default: all cores")
    parser.add_argument("--only", nargs="*", default=None,
                        help="rows to play by JSON name (heads-up-rules, 6-max-5xmontecarlo..)")
    parser.add_argument("--table", action="store_true", help="only rebuild expert.md")
    parser.add_argument("--fresh", action="store_true", help="replay rows already played")
    args = parser.parse_args()
    workers = args.workers or default_workers()
    JSON_DIR.mkdir(parents=True, exist_ok=True)
    results = {} if args.quick else _load_results()
    if not args.table:
        for label, fmt, bots, hands in ROWS:
            slug = _slug(label, fmt)
            if args.only is not None and slug not in args.only:
                continue
            hands = hands // 50 if args.quick else hands
            known = results.get(slug)
            if known is not None and not args.fresh and int(known["hands"]) >= hands:  # type: ignore[call-overload]
                continue
            print(f"playing {fmt} {label}: {hands:,} hands", flush=True)
            path = None if args.quick else JSON_DIR / f"{slug}.json"
            results[slug] = play_row(bots, hands, workers, path)
    sections = [match_section(results), timing_section(20 if args.quick else 300)]
    for section in sections:
        print_section(section)
    if not args.quick:
        write_results("expert", "The expert bot in the arena", sections,
                      machine_info(["numpy"]),
                      "python benchmarks/bench_expert.py --fresh --workers 2 (rows in "
                      "results/expert/; the numbers do not depend on --workers)")


if __name__ == "__main__":
    main()
