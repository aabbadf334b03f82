"""kill -9 right after a re-entry (G8) or a late seat (G9) was committed, then resume: the same
waiting seats, stacks and standings, and the same series to the end."""

from __future__ import annotations

import signal
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest

from feltro.entries import ReentryRule
from feltro.levels import BlindSchedule
from feltro.series import Series, SeriesConfig
from feltro.series_log import SeriesStore, read_records
from test_entries import play, reenter_all

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL")

SEED = 31
CONFIG = SeriesConfig.with_players(
    5, seat_count=8, starting_stack=20, levels=BlindSchedule.ready("turbo", length=4),
    reentry=ReentryRule(times=2, until_level=3, late_seats=True))


def enter(driver: Series | SeriesStore, series: Series, now: datetime) -> None:
    """Every re-entry asked is approved; a late player arrives before hand 4."""
    reenter_all(driver, series, now)
    if series.hand_number == 3 and series.entries_open(now) and 7 not in series.players:
        driver.seat_late(7, "Zé", now)


CHILD = """
import sys, time
sys.path.insert(0, sys.argv[4])
from test_entries_crash import CONFIG, enter
from test_entries import play
from feltro.series_log import SeriesStore

store = SeriesStore.create(sys.argv[1], CONFIG, series_seed=int(sys.argv[2]))
entries = [0]
def counted(name):
    real = getattr(store, name)
    def call(*args):
        real(*args)
        entries[0] += 1
        if entries[0] == int(sys.argv[3]):
            print("PAUSED", name, store.series.hand_number, flush=True)
            time.sleep(600)
    setattr(store, name, call)
counted("reenter")
counted("seat_late")
print("STARTED", flush=True)
play(store, enter)
print("DONE", flush=True)
time.sleep(600)
"""


@pytest.mark.parametrize("entry", [1, 2, 3, 4])
def test_kill_right_after_an_entry_resumes_exactly_G8_G9(tmp_path: Path, entry: int) -> None:
    reference = play(Series(CONFIG, SEED), enter)
    script, path = tmp_path / "child.py", tmp_path / "series.db"
    script.write_text(CHILD)
    tests = str(Path(__file__).parent)
    child = subprocess.Popen([sys.executable, str(script), str(path), str(SEED), str(entry),
                              tests], stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    assert child.stdout.readline().startswith("STARTED")
    words = child.stdout.readline().split()
    assert words[0] == "PAUSED", words
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=30)
    last = read_records(path)[-1]
    assert last.kind == ("reentry" if words[1] == "reenter" else "late_seat")
    with SeriesStore.open(path) as store:
        series = store.series
        assert series.hand_number == int(words[2])
        assert not series.in_hand
        assert series.waiting  # the entry is there, waiting for the big blind
        done = len(series.summaries)
        assert [s.stacks_after for s in series.summaries] == \
            [s.stacks_after for s in reference.summaries[:done]]
        play(store, enter)
        assert [(s.seating, s.stacks_after) for s in series.summaries] == \
            [(s.seating, s.stacks_after) for s in reference.summaries]
        assert series.standings() == reference.standings()
        assert series.outcome == reference.outcome
