"""kill -9 right after a level change (G7) was committed, then resume: the same level, blinds,
cards and stacks, and the same series to the end (levels by time: the replay reads the clock
from the log, never a clock of its own)."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest

from feltro.series import Series
from feltro.series_log import SeriesStore, read_records

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL")

SEED = 4242

# Shared by the child and the parent: the series, a fake clock (80 seconds a hand) and the bots.
SETUP = """
import random
from datetime import UTC, datetime, timedelta
from feltro.bots import checked_action, make_bot
from feltro.levels import BlindSchedule
from feltro.series import SeriesConfig

SCHEDULE = BlindSchedule.ready("turbo", unit="minutes", length=3, ante_from=3)
CONFIG = SeriesConfig.with_players(6, levels=SCHEDULE, max_hands=60)
T0 = datetime(2026, 5, 1, 21, 0, tzinfo=UTC)

def play(driver, series, on_deal=lambda: None):
    bots = {seat: make_bot("tight", random.Random(seat)) for seat in CONFIG.players}
    while True:
        hand = series.hand
        if hand is None or hand.is_over:
            hand = driver.next_hand(T0 + timedelta(seconds=80 * series.hand_number))
            if hand is None:
                return
            on_deal()
        seating = series.seating
        while not hand.is_over:
            seat = seating.order[hand.to_act]
            bot = bots[seat]
            action, _ = checked_action(bot, hand.view(hand.to_act), hand.legal)
            driver.act(action, seat)
"""

CHILD = SETUP + """
import sys, time
from feltro.series_log import SeriesStore
store = SeriesStore.create(sys.argv[1], CONFIG, series_seed=int(sys.argv[2]))
changes = 0
last = [1]
def on_deal():
    global changes
    if store.series.level != last[0]:
        last[0] = store.series.level
        changes += 1
        if changes == int(sys.argv[3]):
            print("PAUSED", store.series.hand_number, store.series.level, flush=True)
            time.sleep(600)
print("STARTED", flush=True)
play(store, store.series, on_deal)
print("DONE", flush=True)
time.sleep(600)
"""


def _setup() -> dict[str, object]:
    scope: dict[str, object] = {}
    exec(SETUP, scope)  # the test's own text, shared with the child
    return scope


@pytest.mark.parametrize("change", [1, 3])
def test_kill_right_after_a_level_change_resumes_exactly_G7(tmp_path: Path,
                                                            change: int) -> None:
    scope = _setup()
    reference = Series(scope["CONFIG"], SEED)  # type: ignore[arg-type]
    scope["play"](reference, reference)  # type: ignore[operator]
    script, path = tmp_path / "child.py", tmp_path / "series.db"
    script.write_text(CHILD)
    child = subprocess.Popen([sys.executable, str(script), str(path), str(SEED), str(change)],
                             stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    assert child.stdout.readline().startswith("STARTED")
    words = child.stdout.readline().split()
    assert words[0] == "PAUSED", words
    hand_number, level = int(words[1]), int(words[2])
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=30)
    assert read_records(path)[-1].kind == "hand"  # killed with the new level's hand just dealt
    with SeriesStore.open(path) as store:
        series = store.series
        assert (series.hand_number, series.level) == (hand_number, level)
        full = reference.summaries[hand_number - 1]
        assert full.level == level
        assert series.hand is not None
        assert series.hand.config == full.hand.config  # same blinds, antes and stacks
        assert series.hand.events == full.hand.events[:len(series.hand.events)]
        scope["play"](store, series)  # type: ignore[operator]
        assert [(s.level, s.stacks_after) for s in series.summaries] == \
            [(s.level, s.stacks_after) for s in reference.summaries]
        assert series.outcome == reference.outcome
