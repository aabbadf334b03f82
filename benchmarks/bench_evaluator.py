"""Hand evaluator speed: feltro against phevaluator, eval7, treys and pokerkit, in one run.

Usage::

    python benchmarks/bench_evaluator.py            # full run (about a minute on 2 cores)
    python benchmarks/bench_evaluator.py --quick    # smaller samples, reference loops extrapolated

Measures (issue 2, part 6):

1. single-call 7-card evaluation rate, every library on the same random hands, each given its
   own natural input format prepared outside the timed loop (best of 3 runs);
2. ``evaluate_many`` over all 133,784,560 seven-card hands (combination chunks are generated
   outside the timer; both times are reported, with process CPU time to show it is one core);
3. exact As Ah vs Ks Kh preflop equity over all 1,712,304 boards;
4. ``import`` time in a fresh interpreter (median of several runs).

Prints readable tables and writes ``benchmarks/results/evaluator.md``.
"""

from __future__ import annotations

import argparse
import gc
import itertools
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from math import comb
from typing import Any

import numpy as np

from run import Section, machine_info, print_section, write_results

SEED = 20240601
ALL_SEVEN = comb(52, 7)  # 133,784,560
AA_KK_BOARDS = comb(48, 5)  # 1,712,304
AA_KK_EXPECTED = (1_410_336, 9_308, 292_660)
GOALS = {
    "evaluate": 1_000_000.0,  # single calls per second, 7 cards
    "evaluate_many": 5.0,  # seconds for all seven-card hands
    "equity": 0.2,  # seconds for exact AA vs KK preflop
    "import": 0.060,  # seconds for `import feltro`
}


# --- helpers -------------------------------------------------------------------------------


def fmt_rate(per_second: float) -> str:
    if per_second >= 1e6:
        return f"{per_second / 1e6:.2f} M/s"
    if per_second >= 1e3:
        return f"{per_second / 1e3:.1f} k/s"
    return f"{per_second:.0f} /s"


def fmt_ratio(ratio: float) -> str:
    return f"{ratio:.2f}×" if ratio >= 0.1 else f"{ratio:.4f}×"


def fmt_seconds(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def best_time(loop: Callable[[], object], repeat: int) -> float:
    """Best wall time of *repeat* runs of *loop*, with the garbage collector off (as timeit)."""
    best = float("inf")
    for _ in range(repeat):
        gc.collect()
        gc.disable()
        try:
            start = time.perf_counter()
            loop()
            best = min(best, time.perf_counter() - start)
        finally:
            gc.enable()
    return best


def random_hands(count: int, size: int, seed: int = SEED) -> list[list[int]]:
    rng = random.Random(seed)
    deck = list(range(52))
    return [rng.sample(deck, size) for _ in range(count)]


def combos(m: int, k: int) -> np.ndarray:
    """All k-subsets of range(m) in lexicographic order, shape (C(m, k), k), uint8.

    Built column-block by column-block: the (j-1)-subsets whose smallest element is at least
    s are exactly the last C(m - s, j - 1) rows of the lexicographic table.
    """
    table = np.arange(m, dtype=np.uint8).reshape(m, 1)
    for j in range(2, k + 1):
        blocks = []
        for first in range(m - j + 1):
            tail = table[len(table) - comb(m - first - 1, j - 1):]
            block = np.empty((len(tail), j), dtype=np.uint8)
            block[:, 0] = first
            block[:, 1:] = tail
            blocks.append(block)
        table = np.concatenate(blocks)
    return table


def seven_card_chunks(target_rows: int = 2_000_000) -> Iterator[np.ndarray]:
    """Every 7-card hand exactly once, as uint8 arrays of about *target_rows* rows."""
    five = combos(52, 5)
    pending: list[tuple[int, int, int]] = []
    size = 0

    def build() -> np.ndarray:
        out = np.empty((size, 7), dtype=np.uint8)
        pos = 0
        for a, b, n in pending:
            out[pos:pos + n, 0] = a
            out[pos:pos + n, 1] = b
            out[pos:pos + n, 2:] = five[len(five) - n:]  # the 5-subsets above b
            pos += n
        return out

    for a in range(52):
        for b in range(a + 1, 47):
            n = comb(51 - b, 5)
            pending.append((a, b, n))
            size += n
            if size >= target_rows:
                yield build()
                pending, size = [], 0
    if pending:
        yield build()


# --- 1. single calls -----------------------------------------------------------------------


def bench_single(quick: bool) -> Section:
    import eval7
    import phevaluator.evaluator as phe
    import pokerkit
    import treys

    import feltro
    from feltro.evaluator import hand_strength

    n_fast = 50_000 if quick else 300_000
    repeat = 5
    hands = random_hands(n_fast, 7)
    counts = {"fast": n_fast, "treys": n_fast // 10, "pokerkit": max(200, n_fast // 300)}

    feltro_eval = feltro.evaluate
    ph_eval = phe.evaluate_cards
    e7_eval = eval7.evaluate
    treys_eval = treys.Evaluator().evaluate
    pk_from_game = pokerkit.StandardHighHand.from_game

    # Each library's own input format, prepared outside the timed loops.
    ids_lists = hands
    ids_tuples = [tuple(h) for h in hands]
    e7_cards = [[eval7.Card(str(feltro.Card(c))) for c in h] for h in hands[: counts["fast"]]]
    treys_cards = [
        ([treys.Card.new(str(feltro.Card(c))) for c in h[:2]],
         [treys.Card.new(str(feltro.Card(c))) for c in h[2:]])
        for h in hands[: counts["treys"]]
    ]
    pk_cards = [
        (tuple(pokerkit.Card.parse("".join(str(feltro.Card(c)) for c in h[:2]))),
         tuple(pokerkit.Card.parse("".join(str(feltro.Card(c)) for c in h[2:]))))
        for h in hands[: counts["pokerkit"]]
    ]

    def run_feltro_evaluate() -> None:
        for h in ids_lists:
            feltro_eval(h)

    def run_hand_strength() -> None:
        for h in ids_tuples:
            hand_strength(h)

    def run_phevaluator() -> None:
        for h in ids_lists:
            ph_eval(*h)

    def run_eval7() -> None:
        for h in e7_cards:
            e7_eval(h)

    def run_treys() -> None:
        for hole, board in treys_cards:
            treys_eval(hole, board)

    def run_pokerkit() -> None:
        for hole, board in pk_cards:
            pk_from_game(hole, board)

    cases: list[tuple[str, str, str, int, Callable[[], None]]] = [
        ("feltro", "evaluate(ids)", "list of 7 ids", counts["fast"], run_feltro_evaluate),
        ("feltro", "hand_strength(ids)", "tuple of 7 ids", counts["fast"], run_hand_strength),
        ("phevaluator", "evaluate_cards(*ids)", "7 int ids", counts["fast"], run_phevaluator),
        ("eval7", "evaluate(cards)", "list of 7 eval7.Card", counts["fast"], run_eval7),
        ("treys", "Evaluator().evaluate(hole, board)", "2 + 5 treys ints", counts["treys"],
         run_treys),
        ("pokerkit", "StandardHighHand.from_game(hole, board)", "2 + 5 pokerkit.Card",
         counts["pokerkit"], run_pokerkit),
    ]
    # Round-robin: every library once per round, best round kept, so a burst of load from
    # elsewhere on the machine hits all of them alike instead of one.
    best = [float("inf")] * len(cases)
    for _ in range(repeat):
        for i, (_, _, _, _, loop) in enumerate(cases):
            best[i] = min(best[i], best_time(loop, 1))
    rates = {f"{library} {call}": n / seconds
             for (library, call, _, n, _), seconds in zip(cases, best, strict=True)}
    rows: list[tuple[object, ...]] = []
    reference = rates["phevaluator evaluate_cards(*ids)"]
    for library, call, form, n, _ in cases:
        rate = rates[f"{library} {call}"]
        rows.append((library, call, form, f"{n:,}", fmt_rate(rate), fmt_ratio(rate / reference)))
    SINGLE_RESULTS.update(rates)
    return Section(
        "Single-call 7-card evaluation",
        ("library", "call", "input", "hands", "rate", "vs phevaluator"),
        rows,
        [
            f"same random 7-card hands for every library (random.Random({SEED})); "
            f"best of {repeat} rounds, each round running every library once; the slow "
            "libraries time a prefix of the same list",
            "rate = calls per second including the Python loop around each call",
        ],
    )


SINGLE_RESULTS: dict[str, float] = {}


# --- 2. every 7-card hand ------------------------------------------------------------------


def bench_all_seven(quick: bool) -> Section:
    from feltro import evaluate_many

    evaluate_many(np.array([[0, 4, 8, 12, 17, 22, 51]], dtype=np.uint8))  # load tables

    eval_wall = eval_cpu = gen_wall = 0.0
    rows_done = rows_generated = 0
    chunks = seven_card_chunks()
    gc.collect()
    for n in itertools.count():
        start = time.perf_counter()
        chunk = next(chunks, None)
        gen_wall += time.perf_counter() - start
        if chunk is None:
            break
        rows_generated += len(chunk)
        if quick and n % 8:
            continue  # quick: every 8th chunk, spread over the whole walk
        start, cpu = time.perf_counter(), time.process_time()
        evaluate_many(chunk)
        eval_wall += time.perf_counter() - start
        eval_cpu += time.process_time() - cpu
        rows_done += len(chunk)
    assert rows_generated == ALL_SEVEN
    scale = ALL_SEVEN / rows_done
    extrapolated = "" if rows_done == ALL_SEVEN else f" (extrapolated from {rows_done:,})"

    # Sample rate on random hands (not lexicographic, so no locality help).
    sample = np.array(random_hands(1_000_000 if not quick else 200_000, 7, SEED + 1),
                      dtype=np.uint8)
    sample_s = best_time(lambda: evaluate_many(sample), 3)

    ph_rate = SINGLE_RESULTS.get("phevaluator evaluate_cards(*ids)", 0.0)
    rows: list[tuple[object, ...]] = [
        ("feltro evaluate_many, evaluation only", f"{rows_done:,}",
         fmt_seconds(eval_wall * scale) + extrapolated, fmt_seconds(eval_cpu * scale),
         fmt_rate(rows_done / eval_wall)),
        ("generating the uint8 chunks (numpy)", f"{ALL_SEVEN:,}",
         fmt_seconds(gen_wall), "—", "—"),
        ("feltro, generation + evaluation", f"{ALL_SEVEN:,}",
         fmt_seconds(gen_wall + eval_wall * scale) + extrapolated, "—",
         fmt_rate(ALL_SEVEN / (gen_wall + eval_wall * scale))),
        ("feltro evaluate_many, random hands", f"{len(sample):,}",
         fmt_seconds(sample_s), "—", fmt_rate(len(sample) / sample_s)),
    ]
    if ph_rate:
        rows.append(("phevaluator evaluate_cards, Python loop (extrapolated)", f"{ALL_SEVEN:,}",
                     fmt_seconds(ALL_SEVEN / ph_rate), "—", fmt_rate(ph_rate)))
    ALL_SEVEN_RESULT["seconds"] = eval_cpu * scale
    ALL_SEVEN_RESULT["wall"] = eval_wall * scale
    return Section(
        "All 133,784,560 seven-card hands",
        ("what", "hands", "wall time", "CPU time", "rate"),
        rows,
        [
            "chunks of about 2,000,000 rows (uint8 ids), every hand once, generated with "
            "vectorised numpy outside the evaluation timer",
            "one cold pass (tables already loaded): the first call on each new array size "
            "is several times slower than later ones, and that is included",
            "process CPU time is the goal's measure (work on one core); wall time above it "
            "means the process waited for the CPU (other jobs on the machine)",
            "phevaluator's Python binding has no batch call: its row extrapolates the "
            "single-call rate measured above to all hands",
        ],
    )


ALL_SEVEN_RESULT: dict[str, float] = {}


# --- 3. exact AA vs KK ---------------------------------------------------------------------


def _count_loop(
    evaluate: Callable[[Sequence[Any]], int],
    hole_a: Sequence[Any],
    hole_b: Sequence[Any],
    rest: Sequence[Any],
    limit: int | None,
    *,
    lower_is_better: bool,
) -> tuple[tuple[int, int, int], int]:
    win = tie = lose = n = 0
    for board in itertools.combinations(rest, 5):
        a = evaluate([*hole_a, *board])
        b = evaluate([*hole_b, *board])
        if a == b:
            tie += 1
        elif (a < b) == lower_is_better:
            win += 1
        else:
            lose += 1
        n += 1
        if limit is not None and n >= limit:
            break
    return (win, tie, lose), n


def bench_equity(quick: bool) -> Section:
    import eval7
    import phevaluator.evaluator as phe

    import feltro.equity

    exact_equity = feltro.equity.exact_equity
    holes = ["As Ah", "Ks Kh"]

    start = time.perf_counter()
    result = exact_equity(holes)
    cold = time.perf_counter() - start
    warm = best_time(lambda: exact_equity(holes), 3)

    rows: list[tuple[object, ...]] = [
        ("feltro", "exact_equity(['As Ah', 'Ks Kh']), first call here", fmt_seconds(cold),
         _describe_counts(result)),
        ("feltro", "exact_equity(...), best of 3 later calls", fmt_seconds(warm), ""),
        ("feltro", "fresh interpreter: import feltro + first exact_equity (median of 5)",
         fmt_seconds(import_time(
             "import feltro; feltro.exact_equity(['As Ah', 'Ks Kh'])", 5)), ""),
    ]
    limit = AA_KK_BOARDS // 10 if quick else None
    hole_a, hole_b = [51, 50], [47, 46]
    rest = [c for c in range(52) if c not in (51, 50, 47, 46)]

    def ph(cards: Sequence[int]) -> int:
        return int(phe.evaluate_cards(*cards))

    start = time.perf_counter()
    counts, n = _count_loop(ph, hole_a, hole_b, rest, limit, lower_is_better=True)
    ph_s = (time.perf_counter() - start) * AA_KK_BOARDS / n
    rows.append(("phevaluator", "Python loop of evaluate_cards over the boards",
                 fmt_seconds(ph_s) + ("" if limit is None else " (extrapolated)"),
                 _describe_counts(counts) if limit is None else f"{n:,} boards timed"))

    e7 = {c: eval7.Card(str(_card(c))) for c in range(52)}
    start = time.perf_counter()
    counts, n = _count_loop(
        eval7.evaluate, [e7[c] for c in hole_a], [e7[c] for c in hole_b],
        [e7[c] for c in rest], limit, lower_is_better=False,
    )
    e7_s = (time.perf_counter() - start) * AA_KK_BOARDS / n
    rows.append(("eval7", "Python loop of evaluate over the boards",
                 fmt_seconds(e7_s) + ("" if limit is None else " (extrapolated)"),
                 _describe_counts(counts) if limit is None else f"{n:,} boards timed"))
    EQUITY_RESULT["seconds"] = warm
    EQUITY_RESULT["cold"] = cold
    return Section(
        "Exact As Ah vs Ks Kh preflop equity (1,712,304 boards)",
        ("library", "how", "time", "As Ah win / tie / lose"),
        rows,
        [
            f"expected counts: {AA_KK_EXPECTED[0]:,} / {AA_KK_EXPECTED[1]:,} / "
            f"{AA_KK_EXPECTED[2]:,}",
            "neither phevaluator nor eval7 enumerates boards itself (eval7's "
            "py_hand_vs_range_exact needs a complete board), so they run a Python loop",
        ],
    )


EQUITY_RESULT: dict[str, float] = {}


def _card(card_id: int) -> object:
    from feltro.cards import Card

    return Card.from_id(card_id)


def _describe_counts(result: object) -> str:
    """Win/tie/lose of the first player: an EquityResult or a (win, tie, lose) tuple."""
    if isinstance(result, tuple):
        win, tie, lose = result
    else:
        win, tie, lose = (getattr(result, name)[0] for name in ("wins", "ties", "losses"))
    mark = "" if (win, tie, lose) == AA_KK_EXPECTED else " (WRONG)"
    return f"{win:,} / {tie:,} / {lose:,}{mark}"


# --- 4. import time ------------------------------------------------------------------------


def import_time(statement: str, runs: int) -> float:
    code = (
        "import time\n"
        "start = time.perf_counter()\n"
        f"{statement}\n"
        "print(time.perf_counter() - start)\n"
    )
    times = []
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)  # warm .pyc
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                             text=True).stdout
        times.append(float(out.strip().splitlines()[-1]))
    return statistics.median(times)


def bench_import(quick: bool) -> Section:
    runs = 5 if quick else 11
    cases = [
        ("feltro", "import feltro"),
        ("feltro, then one evaluate", "import feltro; feltro.evaluate('AsKdQhJsTs2c3d')"),
        ("feltro, then one hand_strength",
         "import feltro.evaluator as e; e.hand_strength([51, 45, 42, 39, 35, 0, 5])"),
        ("pokerkit", "import pokerkit"),
        ("phevaluator", "import phevaluator.evaluator"),
        ("eval7", "import eval7"),
        ("treys", "import treys"),
        ("numpy", "import numpy"),
    ]
    rows: list[tuple[object, ...]] = []
    for name, statement in cases:
        seconds = import_time(statement, runs)
        if name == "feltro":
            IMPORT_RESULT["seconds"] = seconds
        rows.append((name, statement, fmt_seconds(seconds)))
    return Section(
        "Import time in a fresh interpreter",
        ("package", "statement", "median"),
        rows,
        [f"median of {runs} fresh interpreters, timed inside the process (interpreter start "
         "excluded), .pyc files already written"],
    )


IMPORT_RESULT: dict[str, float] = {}


# --- goals ---------------------------------------------------------------------------------


def goals_section() -> Section:
    rows: list[tuple[object, ...]] = []

    def add(what: str, measured: float | None, goal: float, text: str, goal_text: str,
            higher_is_better: bool) -> None:
        if measured is None:
            rows.append((what, "not measured", goal_text, "—"))
            return
        ok = measured >= goal if higher_is_better else measured <= goal
        rows.append((what, text, goal_text, "met" if ok else "MISSED"))

    ev = SINGLE_RESULTS.get("feltro evaluate(ids)")
    add("evaluate, single 7-card calls", ev, GOALS["evaluate"], fmt_rate(ev or 0), ">= 1.00 M/s",
        True)
    ph = SINGLE_RESULTS.get("phevaluator evaluate_cards(*ids)")
    ratio = ev / ph if ev and ph else None
    add("evaluate vs phevaluator evaluate_cards, same run", ratio, 1.0, f"{ratio or 0:.3f}×",
        ">= 1.00×", True)
    many = ALL_SEVEN_RESULT.get("seconds")
    wall = ALL_SEVEN_RESULT.get("wall", 0.0)
    add("evaluate_many, all 7-card hands (CPU time of the one core)", many,
        GOALS["evaluate_many"], f"{fmt_seconds(many or 0)} (wall {fmt_seconds(wall)})", "<= 5 s",
        False)
    eq = EQUITY_RESULT.get("seconds")
    add("exact AA vs KK preflop", eq, GOALS["equity"], fmt_seconds(eq or 0), "<= 200 ms", False)
    imp = IMPORT_RESULT.get("seconds")
    add("import feltro", imp, GOALS["import"], fmt_seconds(imp or 0), "<= 60 ms", False)
    notes = ["phevaluator 0.6's evaluate_cards hands the cards to a C extension (_pheval); "
             "feltro's evaluate is pure Python and validates its input (range, duplicates, "
             "bools) and returns a HandValue object. The issue's 1.0 M/s for phevaluator was "
             "measured on another machine."]
    return Section("Goals (issue 2)", ("measure", "measured", "goal", "status"), rows, notes)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="smaller samples")
    parser.add_argument("--only", nargs="*", default=None,
                        choices=["single", "all7", "equity", "import"],
                        help="run only these parts")
    args = parser.parse_args(argv)
    parts = {
        "single": bench_single,
        "all7": bench_all_seven,
        "equity": bench_equity,
        "import": bench_import,
    }
    chosen = args.only or list(parts)
    sections = []
    for key in chosen:
        section = parts[key](args.quick)
        print_section(section)
        sections.append(section)
    goals = goals_section()
    print_section(goals)
    sections.append(goals)
    info = machine_info(["numpy", "phevaluator", "eval7", "treys", "pokerkit"])
    command = "python benchmarks/run.py evaluator" + (" --quick" if args.quick else "")
    if args.only:
        command = "python benchmarks/bench_evaluator.py --only " + " ".join(args.only)
    path = write_results("evaluator", "Evaluator benchmarks", sections, info, command)
    print(f"\nwrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
