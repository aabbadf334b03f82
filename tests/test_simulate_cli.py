"""``feltro simulate``: the JSON Lines log to the letter, checked by an independent checker of
the button and blind rules; stop after K hands; bad input; resume from --db after kill -9."""



from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from feltro.cli import app
from feltro.errors import StoreError
from feltro.history import replay
from feltro.series_log import SeriesStore, read_records

runner = CliRunner()


@pytest.fixture(autouse=True)
def _english(monkeypatch: pytest.MonkeyPatch) -> None:
    """The summary speaks the locale's language: these tests read it in English."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANGUAGE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "en_US.UTF-8")

HAND_KEYS = ["hand", "button", "small_blind", "big_blind", "stacks_before", "stacks_after"]
END_KEYS = ["end", "winners", "stacks"]


def _next_alive(seat: int, alive: list[int]) -> int:
    later = [s for s in alive if s > seat]
    return later[0] if later else alive[0]


def check_log(lines: list[dict[str, Any]], players: int, stack: int = 200,
              stop_after: int | None = None) -> None:
    """An independent checker of a simulate log against G4, G6, D3, D6-D9."""
    seats = [str(s) for s in range(1, players + 1)]
    *hands, end = lines
    total = players * stack
    prev: dict[str, Any] | None = None
    prev_sb_place = 0
    out: set[str] = set()
    for number, hand in enumerate(hands, start=1):
        assert list(hand) == HAND_KEYS
        assert hand["hand"] == number
        before, after = hand["stacks_before"], hand["stacks_after"]
        assert list(before) == seats
        assert list(after) == seats
        assert sum(before.values()) == total
        assert sum(after.values()) == total
        assert all(before[s] == 0 and after[s] == 0 for s in out)       # G4: never return
        if prev is not None:
            assert before == prev["stacks_after"]
        alive = [int(s) for s in seats if before[s] > 0]
        button, small, big = hand["button"], hand["small_blind"], hand["big_blind"]
        assert big in alive
        if prev is None:  # D3, D6: the first hand, from the drawn button
            assert button in alive
            if len(alive) == 2:
                assert small == button
                assert big == _next_alive(button, alive)
            else:
                assert small == _next_alive(button, alive)
                assert big == _next_alive(small, alive)
            prev_sb_place = small
        else:
            # D8: the big blind is the next survivor after the previous big blind.
            assert big == _next_alive(prev["big_blind"], alive)
            if len(alive) == 2:  # D6, D9: heads-up the other player has button and small blind
                assert button == small == next(s for s in alive if s != big)
                prev_sb_place = button
            else:  # D8: the button goes where the small blind was due; that seat may be empty
                assert button == prev_sb_place
                sb_place = prev["big_blind"]
                assert small == (sb_place if sb_place in alive else None)
                prev_sb_place = sb_place
        out |= {s for s in seats if after[s] == 0}
        prev = hand
    assert list(end) == END_KEYS
    assert list(end["stacks"]) == seats
    assert prev is None or end["stacks"] == prev["stacks_after"]
    top = max(end["stacks"].values())
    assert end["winners"] == [int(s) for s in seats if end["stacks"][s] == top]
    if end["end"] == "last_player":                                     # G4
        assert len(end["winners"]) == 1
        assert top == total
    else:                                                               # G6
        assert end["end"] == "stopped"
        assert stop_after is not None
        assert len(hands) == stop_after


def _read(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def _simulate(*args: str) -> Any:
    return runner.invoke(app, ["simulate", *args])


def test_log_follows_the_format_and_the_rules__G4_D3_D6_D7_D8_D9(tmp_path: Path) -> None:
    log = tmp_path / "series.jsonl"
    result = _simulate("--players", "7", "--seed", "5", "--log", str(log))
    assert result.exit_code == 0, result.output
    assert "Winner" in result.output
    lines = _read(log)
    check_log(lines, 7)
    assert lines[-1]["end"] == "last_player"


@pytest.mark.parametrize("players", range(2, 11))
def test_every_table_size__G1_D8_D9(tmp_path: Path, players: int) -> None:
    for seed in (1, 2, 3):
        log = tmp_path / f"{players}-{seed}.jsonl"
        result = _simulate("--players", str(players), "--seed", str(seed), "--log", str(log),
                           "--stack", "40")
        assert result.exit_code == 0, result.output
        check_log(_read(log), players, stack=40)


def test_dead_buttons_and_dead_small_blinds_appear_in_logs__D8(tmp_path: Path) -> None:
    dead_button = dead_small = 0
    for seed in range(8):
        log = tmp_path / f"{seed}.jsonl"
        assert _simulate("--players", "9", "--seed", str(seed), "--log", str(log)).exit_code == 0
        for line in _read(log)[:-1]:
            dead_button += line["stacks_before"][str(line["button"])] == 0
            dead_small += line["small_blind"] is None
    assert dead_button > 0
    assert dead_small > 0


@pytest.mark.parametrize(
    ("field", "change"),
    [("button", 1), ("big_blind", 1), ("small_blind", None), ("stacks_after", "chip")],
)
def test_the_checker_catches_a_wrong_line(tmp_path: Path, field: str, change: Any) -> None:
    # Proves the checker above can fail.
    log = tmp_path / "series.jsonl"
    assert _simulate("--players", "6", "--seed", "2", "--log", str(log)).exit_code == 0
    lines = _read(log)
    line = lines[1]
    if change == "chip":
        line[field]["1"] += 1
    elif change is None:
        line[field] = None if line[field] is not None else line["button"]
    else:
        line[field] = line[field] % 6 + 1
    with pytest.raises(AssertionError):
        check_log(lines, 6)


def test_same_seed_same_log(tmp_path: Path) -> None:
    logs = []
    for name, seed in (("a", "9"), ("b", "9"), ("c", "10")):
        log = tmp_path / f"{name}.jsonl"
        assert _simulate("--players", "6", "--seed", seed, "--log", str(log)).exit_code == 0
        logs.append(log.read_text())
    assert logs[0] == logs[1]
    assert logs[0] != logs[2]


def test_stop_after_hands__G6(tmp_path: Path) -> None:
    log = tmp_path / "stop.jsonl"
    result = _simulate("--players", "5", "--seed", "3", "--stop-after-hands", "4",
                       "--bots", "station", "--log", str(log))
    assert result.exit_code == 0, result.output
    assert "Stopped" in result.output
    lines = _read(log)
    assert len(lines) == 5
    assert lines[-1]["end"] == "stopped"
    check_log(lines, 5, stop_after=4)


def test_without_a_seed_the_seed_is_printed() -> None:
    result = _simulate("--players", "3", "--stop-after-hands", "2")
    assert result.exit_code == 0, result.output
    assert result.output.startswith("seed ")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "1"], "players"),
        (["--players", "11"], "players"),
        (["--stop-after-hands", "0"], "stop-after-hands"),
        (["--bots", "genius"], "no bot “genius”: choose one of mix,"),
        (["--small-blind", "3", "--big-blind", "2"], "smaller than the small blind"),
        (["--stack", "0"], "stack"),
    ],
)
def test_bad_input_is_refused__G1_G2(args: list[str], message: str) -> None:
    result = _simulate("--seed", "1", *args)
    assert result.exit_code != 0
    assert message in result.output.replace("\n", " ")


def test_resume_from_the_durable_log(tmp_path: Path) -> None:
    db = tmp_path / "series.db"
    reference = tmp_path / "reference.jsonl"
    assert _simulate("--players", "5", "--seed", "4", "--log", str(reference)).exit_code == 0
    first = tmp_path / "first.jsonl"
    assert _simulate("--players", "5", "--seed", "4", "--db", str(db),
                     "--log", str(first)).exit_code == 0
    assert first.read_text() == reference.read_text()
    again = tmp_path / "again.jsonl"
    result = _simulate("--db", str(db), "--log", str(again), "--bots", "station")
    assert "resuming" in result.output
    assert again.read_text() == reference.read_text()  # the logged bots, not --bots


@pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL")
def test_kill_the_simulation_and_run_it_again(tmp_path: Path) -> None:
    """kill -9 in the middle of `feltro simulate --db`, run the same command again: the
    series resumes and the log is exactly the uninterrupted one."""
    args = ["--players", "8", "--seed", "77", "--bots", "tight"]
    reference = tmp_path / "reference.jsonl"
    assert _simulate(*args, "--log", str(reference)).exit_code == 0
    db = tmp_path / "series.db"
    log = tmp_path / "resumed.jsonl"
    command = [sys.executable, "-m", "feltro", "simulate", *args, "--db", str(db),
               "--log", str(log)]
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             env=dict(os.environ, COLUMNS="100"))
    deadline = time.monotonic() + 60
    while True:  # wait until the child is well into the series, then kill it
        assert time.monotonic() < deadline
        assert child.poll() is None, "the simulation ended before it could be killed"
        try:
            if len(read_records(db)) >= 150:
                break
        except StoreError:  # the file is not there or not set up yet
            pass
        time.sleep(0.01)
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=30)
    assert read_records(db)[-1].kind != "series_end"
    result = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    assert "resuming" in result.stdout
    assert log.read_text() == reference.read_text()


def test_heads_up_with_equal_blinds_the_button_acts_first__D6(tmp_path: Path) -> None:
    # D6 whatever the amounts: with blinds 2/2 the button (PHH p2) posts the small blind and
    # makes the first decision of every hand; the histories replay to the same stacks.
    db = tmp_path / "series.db"
    result = _simulate("--players", "2", "--small-blind", "2", "--big-blind", "2", "--seed",
                       "3", "--stop-after-hands", "6", "--db", str(db))
    assert result.exit_code == 0, result.output
    store = SeriesStore.open(db)
    try:
        for number in range(1, 7):
            record = store.export_phh(number)
            assert record.blinds_or_straddles == (2, 2)
            first = next(a for a in record.actions if a.startswith("p"))
            assert first.startswith("p2 "), (number, record.actions)
            assert replay(record).finishing_stacks == record.finishing_stacks
    finally:
        store.close()
