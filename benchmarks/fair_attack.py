"""The host-player's grinding attack on a server table (issue 21): the figure of the closing
note, pocket aces in at most 2 of 200 attacked hands (chance is about 1 in 221 a hand; the one
visible bit of a withheld value makes it about 2 in 221).

Usage::

    python benchmarks/fair_attack.py               # 200 attacked hands
    python benchmarks/fair_attack.py --hands 50

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
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder, harness_at(Path(folder) / "data") as harness:
        started = time.perf_counter()
        outcome = attacked_night(harness, args.hands)
        seconds = time.perf_counter() - started
    print(f"attacked hands: {outcome.attacked}")
    print(f"pocket aces for the attacker: {outcome.aces} (goal: at most 2 in 200)")
    print(f"values withheld (each named in its hand's record): {outcome.withheld}, "
          f"named: {outcome.named}")
    print(f"hands whose deck took both honest values: {outcome.honest_used}")
    print(f"refusals the honest devices got: {len(outcome.honest_refused)}")
    print(f"night played in {seconds:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
