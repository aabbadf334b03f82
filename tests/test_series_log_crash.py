"""kill -9 in the middle of a hand, then resume: same hand, same cards, same stacks, same player
to act, and (because the bots' choices are seeded per decision) the same series to the end."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from feltro.cli.simulate import bot_kinds, play_bots
from feltro.events import ActionTaken
from feltro.series import Series, SeriesConfig
from feltro.series_log import SeriesStore, read_records

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL")

CONFIG = SeriesConfig.with_players(8, starting_stack=200)
SEED = 20250101

BOTS = "tight"

# The child plays the series through the store and reports each committed move on stdout.
# With a pause point it stops after that many actions (a hand is then in progress), says so and
# waits to be killed; without, it plays on as fast as it can and the parent kills it once it
# has seen a random number of moves (the kill lands wherever the child has got to by then).
CHILD = """
import sys, time
from feltro.cli.simulate import bot_kinds, play_bots
from feltro.events import ActionTaken
from feltro.series import SeriesConfig
from feltro.series_log import SeriesStore

path, seed, pause, bots = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
store = SeriesStore.create(path, SeriesConfig.with_players(8, starting_stack=200),
                           series_seed=seed)
acted = 0
real_act, real_next_hand = store.act, store.next_hand

def act(action, seat=None):
    global acted
    events = real_act(action, seat)
    acted += 1
    if acted == pause and store.series.in_hand:
        print("PAUSED", store.series.hand_number, store.series.to_act, flush=True)
        time.sleep(600)
    print("MOVE", flush=True)
    return events

def next_hand(now=None):
    hand = real_next_hand(now)
    print("MOVE", flush=True)
    return hand

store.act, store.next_hand = act, next_hand
print("STARTED", flush=True)
play_bots(store, bot_kinds(bots, tuple(range(1, 9))))
print("DONE", flush=True)
time.sleep(600)
"""


@pytest.fixture(scope="module")
def reference() -> Series:
    """The same series played in memory, never interrupted."""
    series = Series(CONFIG, SEED)
    play_bots(series, bot_kinds(BOTS, tuple(range(1, 9))))
    return series


def _spawn(tmp_path: Path, pause: int) -> tuple[subprocess.Popen[str], Path]:
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    path = tmp_path / "series.db"
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    child = subprocess.Popen([sys.executable, str(script), str(path), str(SEED), str(pause), BOTS],
                             stdout=subprocess.PIPE, text=True, env=env)
    assert child.stdout is not None
    assert child.stdout.readline().startswith("STARTED")
    return child, path


def _kill(child: subprocess.Popen[str]) -> None:
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=30)
    assert child.returncode == -signal.SIGKILL


def _check_resume_matches(path: Path, reference: Series) -> SeriesStore:
    """Open the killed series and compare it with the uninterrupted one at the same point."""
    store = SeriesStore.open(path)
    series = store.series
    done = len(series.summaries)
    for mine, theirs in zip(series.summaries, reference.summaries[:done], strict=True):
        assert (mine.seed, mine.seating, mine.stacks_after) == \
            (theirs.seed, theirs.seating, theirs.stacks_after)
        assert mine.hand.events == theirs.hand.events
    if series.in_hand:
        hand = series.hand
        assert hand is not None
        full = reference.summaries[series.hand_number - 1]
        assert series.seating == full.seating
        assert dict(series.stacks_before) == {s: full.stacks_before[s]
                                              for s in full.seating.order}
        assert hand.events == full.hand.events[:len(hand.events)]  # same cards, same play
        # The player to act is the one who acted next in the uninterrupted hand.
        assert series.to_act == full.seating.order[
            next(e.position for e in full.hand.events[len(hand.events):]
                 if isinstance(e, ActionTaken))]
    return store


def test_kill_mid_hand_and_resume_exactly(tmp_path: Path, reference: Series) -> None:
    child, path = _spawn(tmp_path, pause=57)
    assert child.stdout is not None
    lines = iter(child.stdout.readline, "")
    words = next(line for line in lines if not line.startswith("MOVE")).split()
    assert words[0] == "PAUSED"
    hand_number, to_act = int(words[1]), int(words[2])
    _kill(child)
    store = _check_resume_matches(path, reference)
    with store:
        assert store.series.in_hand
        assert store.series.hand_number == hand_number
        assert store.series.to_act == to_act
        play_bots(store, bot_kinds(BOTS, tuple(range(1, 9))))
        assert store.series.outcome == reference.outcome
    assert read_records(path)[-1].kind == "series_end"


@pytest.mark.parametrize("delay_seed", [1, 2, 3])
def test_kill_at_a_random_moment_and_resume(tmp_path: Path, reference: Series,
                                            delay_seed: int) -> None:
    """The kill lands wherever the child is, possibly inside a commit: the resumed series is
    the uninterrupted one up to the last committed record."""
    child, path = _spawn(tmp_path, pause=-1)
    assert child.stdout is not None
    moves = random.Random(delay_seed).randrange(30, 600)
    for _ in range(moves):
        assert child.stdout.readline().startswith("MOVE")
    _kill(child)
    assert read_records(path)[-1].kind != "series_end"  # killed in the middle of the series
    store = _check_resume_matches(path, reference)
    with store:
        play_bots(store, bot_kinds(BOTS, tuple(range(1, 9))))
        final = store.series
        assert final.outcome == reference.outcome
        assert [s.hand.events for s in final.summaries] == \
            [s.hand.events for s in reference.summaries]
    # The lock died with the killed process: the series opens again.
    SeriesStore.open(path).close()
