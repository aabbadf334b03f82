"""The host-player's grinding attack on a server table (issue 21): the figure of the closing
note, pocket aces in at most 2 of 200 attacked hands (chance is about 1 in 221 a hand). A
withheld value would give him the better of two decks (about 2 in 221), so a hand whose value
its seat withheld is dead: folded at its first turn. Aces he was dealt in such a hand are
counted apart (he could not play them).

Usage::

    python benchmarks/fair_attack.py               # 200 attacked hands
    python benchmarks/fair_attack.py --hands 50
    python benchmarks/fair_attack.py --nights 10   # ten nights of 200, and their total

It plays one night in process (the same app and scripted phones as ``tests/server``) with the
attacker of ``tests/server/fairattack.py``: seat 1 derives every hand's server secret from the
data folder and the key in the config folder, grinds its value for pocket aces, commits first,
reveals last or withholds. It prints what the attack got and how long the night took.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "server"), str(ROOT / "tests")]

from fairattack import attacked_night  # noqa: E402
from srvkit import harness_at  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200, help="attacked hands (default 200)")
    parser.add_argument("--nights", type=int, default=1, help="nights played (default 1)")
    args = parser.parse_args()
    aces: list[int] = []
    for night in range(1, args.nights + 1):
        with (tempfile.TemporaryDirectory() as folder,
              harness_at(Path(folder) / "data") as harness):
            started = time.perf_counter()
            outcome = attacked_night(harness, args.hands)
            seconds = time.perf_counter() - started
        aces.append(outcome.aces)
        print(f"night {night}: {outcome.attacked} attacked hands, {seconds:.1f} s")
        print(f"  pocket aces he could play: {outcome.aces} (goal: at most 2 in 200)")
        print(f"  values withheld: {outcome.withheld} (named in the record: {outcome.named}); "
              f"aces in those dead hands: {outcome.dead_aces}; dead hands he played on: "
              f"{outcome.played_dead}")
        print(f"  hands whose deck took both honest values: {outcome.honest_used}; "
              f"refusals the honest devices got: {len(outcome.honest_refused)}")
    if args.nights > 1:
        hands = args.nights * args.hands
        print(f"aces he could play, night by night: {aces}; {sum(aces)} in {hands} attacked "
              f"hands (chance: {hands / 221:.1f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
