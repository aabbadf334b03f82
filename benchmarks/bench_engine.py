"""Hand engine speed: feltro against PokerKit 0.7.7 under the same random policy, in one run.

Usage::

    python benchmarks/bench_engine.py            # 20,000 feltro hands, 1,000 PokerKit hands
    python benchmarks/bench_engine.py --quick    # 5,000 and 200

Both engines play six-handed hands from 200-chip stacks, blinds 1/2, to the end (showdown and
pots), with the policy of ``feltro bench engine`` (fold 10% only facing a bet, check/call 60%,
minimum bet or raise 20%, all-in 10%, renormalised over what is legal), drawn from the same
seeded ``random.Random``. PokerKit is set up fairly: its own automations post the blinds, deal
and burn, show, kill hands and push/pull chips, so only the players' decisions run in Python
on our side, as they do for feltro. Its deck is shuffled by the global ``random`` (seeded here).

Prints a table with both rates and the ratio, and writes ``benchmarks/results/engine.md``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from typing import Any

from feltro.cli.bench import bench_record, choose, run_engine
from run import Section, machine_info, print_section, write_results

PLAYERS = 6
SEED = 1


def run_pokerkit(players: int, hands: int, seed: int) -> dict[str, Any]:
    """PokerKit 0.7.7 under the same policy; the measured loop mirrors ``run_engine``."""
    from pokerkit import Automation, NoLimitTexasHoldem

    automations = (
        Automation.ANTE_POSTING,
        Automation.BET_COLLECTION,
        Automation.BLIND_OR_STRADDLE_POSTING,
        Automation.CARD_BURNING,
        Automation.HOLE_DEALING,
        Automation.BOARD_DEALING,
        Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
        Automation.HAND_KILLING,
        Automation.CHIPS_PUSHING,
        Automation.CHIPS_PULLING,
    )
    random.seed(seed)  # PokerKit shuffles with the global generator
    rng = random.Random(seed)
    draw = rng.random
    create = NoLimitTexasHoldem.create_state
    stacks = (200,) * players
    actions = 0
    showdowns = 0
    began = time.perf_counter()
    for _ in range(hands):
        state = create(automations, True, 0, (1, 2), 2, stacks, players)
        folds = 0
        while state.status:
            facing = bool(state.checking_or_calling_amount)
            can_raise = state.can_complete_bet_or_raise_to()
            pick = choose(draw, facing, can_raise)
            if pick == 1:
                state.check_or_call()
            elif pick == 0:
                state.fold()
                folds += 1
            elif pick == 2:
                state.complete_bet_or_raise_to(state.min_completion_betting_or_raising_to_amount)
            else:
                state.complete_bet_or_raise_to(state.max_completion_betting_or_raising_to_amount)
            actions += 1
        if folds < players - 1:
            showdowns += 1
    return bench_record("pokerkit", players, hands, seed, time.perf_counter() - began, actions,
                        showdowns)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="smaller samples")
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args(argv)
    feltro_hands, pokerkit_hands = (5_000, 200) if args.quick else (20_000, 1_000)

    ours = run_engine(PLAYERS, feltro_hands, args.seed)
    theirs = run_pokerkit(PLAYERS, pokerkit_hands, args.seed)
    ratio = ours["hands_per_second"] / theirs["hands_per_second"]
    rows = [
        (r["engine"], f"{r['hands']:,}", f"{r['seconds']:.2f} s", f"{r['hands_per_second']:,.0f}",
         f"{r['actions_per_hand']:.2f}", f"{r['showdown_fraction']:.3f}")
        for r in (ours, theirs)
    ]
    section = Section(
        title=f"Random-policy hands, {PLAYERS} players, 200 chips, blinds 1/2 (one core)",
        headers=("engine", "hands", "time", "hands/s", "actions/hand", "showdown fraction"),
        rows=rows,
        notes=(f"feltro is {ratio:,.1f}x PokerKit in this run (goal: >= 10,000 hands/s).",
               "Both engines are driven by the same policy and the same seeded draws; "
               "PokerKit deals, shows and pays through its automations."),
    )
    print_section(section)
    info = machine_info(("pokerkit",))
    command = "python benchmarks/bench_engine.py" + (" --quick" if args.quick else "")
    path = write_results("engine", "Hand engine benchmark", [section], info, command)
    print(f"\nwrote {path}")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
