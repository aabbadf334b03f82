"""The batched environment (feltro.env.vector over feltro.env.batch): the array engine must play
every decision exactly as the hand engine does.

The differential check (feltro.env.crosscheck) deals the same cards to a PokerGame twin of every
table and compares the player to act, the observation, the mask, refusals of illegal actions
and every hand's result; benchmarks/ records it on a million hands, here it runs on fewer.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("numpy")

from feltro.env import EnvConfig, vector_env
from feltro.env import batch as batch_module
from feltro.env.crosscheck import SETTINGS, CrossCheckError, crosscheck, main
from feltro.errors import ConfigError, IllegalActionError
from feltro.history import loads, replay
from feltro.legal import RAISE_NOT_REOPENED


@pytest.mark.parametrize("settings", SETTINGS, ids=lambda s: "-".join(f"{v}" for v in s.values()))
def test_batch_plays_as_the_hand_engine__B8_P1_P7(settings: dict[str, Any]) -> None:
    report = crosscheck(EnvConfig(**settings), tables=64, hands=1500, seed=11)
    assert report.hands >= 1500
    assert report.refusals > 0


def test_the_crosscheck_notices_a_reopened_raise__B8(monkeypatch: pytest.MonkeyPatch) -> None:
    real = batch_module.BatchTables._update_legal

    def reopened(self: batch_module.BatchTables, rows: Any) -> None:
        real(self, rows)
        shut = self.raise_code[rows] == RAISE_NOT_REOPENED
        low = self.to_match[rows] + self.full_inc[rows]
        self.min_raise_to[rows] = np.where(shut, low, self.min_raise_to[rows])
        self.max_raise_to[rows] = np.where(shut, low, self.max_raise_to[rows])

    monkeypatch.setattr(batch_module.BatchTables, "_update_legal", reopened)
    with pytest.raises(CrossCheckError, match=r"observation|mask"):
        crosscheck(EnvConfig(players=6, stacks=[30, 70, 200, 120, 50, 200]), tables=128,
                   hands=6000, seed=1)


def test_the_crosscheck_notices_a_wrong_odd_chip__P7(monkeypatch: pytest.MonkeyPatch) -> None:
    real = np.cumsum

    def from_the_right(a: Any, axis: Any = None, **kwargs: Any) -> Any:
        if getattr(a, "dtype", None) == np.bool_ and axis == 1:
            return real(a[:, ::-1], axis=1, **kwargs)[:, ::-1]
        return real(a, axis=axis, **kwargs)

    monkeypatch.setattr(batch_module.np, "cumsum", from_the_right)
    with pytest.raises(CrossCheckError, match="paid"):
        crosscheck(EnvConfig(players=6), tables=128, hands=6000, seed=2)


def test_crosscheck_command_reports_the_difference(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--hands", "90", "--tables", "8"]) == 0
    assert "no difference" in capsys.readouterr().out
    monkeypatch.setattr(batch_module, "BOARD_FROM", batch_module.BOARD_FROM + 1)
    monkeypatch.setattr("feltro.env.vector.BOARD_FROM", batch_module.BOARD_FROM)
    assert main(["--hands", "90", "--tables", "8"]) == 1
    assert "DIFFERENT" in capsys.readouterr().err


def test_every_finished_hand_replays_from_its_phh__G3() -> None:
    tables = vector_env(32, players=5, stacks=[40, 200, 90, 15, 200], ante=1, seed=5,
                        keep_phh=True)
    _, mask, _ = tables.reset()
    rng = np.random.default_rng(5)
    finished = 0
    for _ in range(200):
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in mask])
        _obs, mask, rewards, dones, _, infos = tables.step(actions)
        assert (rewards.sum(axis=1) == 0).all()  # G3
        for row in np.flatnonzero(dones):
            (text,) = infos[row]["phh"]
            record = loads(text)
            start = list(record.starting_stacks)
            final = list(replay(record).finishing_stacks)
            assert final == list(record.finishing_stacks)
            won = {seat - 1: f - s for seat, f, s in zip(record.seats, final, start,
                                                           strict=True)}
            assert [won[a] for a in range(5)] == rewards[row].astype(int).tolist()
            finished += 1
    assert finished > 200


def test_the_phh_is_written_when_read() -> None:
    tables = vector_env(8, players=3, seed=3)
    tables.reset()
    read = 0
    for _ in range(60):
        *_, dones, _, infos = tables.step(np.ones(8, dtype=np.int64))
        for row in np.flatnonzero(dones):
            record = loads(infos[row]["phh"][0])
            assert list(replay(record).finishing_stacks) == list(record.finishing_stacks)
            read += 1
        assert all(infos[row] == {} for row in np.flatnonzero(~dones))
    assert read >= 8


def test_an_illegal_action_is_refused_and_changes_nothing__B6() -> None:
    tables = vector_env(4, players=3, seed=1)
    obs, _mask, _to_act = tables.reset()
    actions = np.ones(4, dtype=np.int64)
    actions[2] = 3  # raise to 2: below the minimum raise to 4
    with pytest.raises(IllegalActionError, match="table 2") as info:
        tables.step(actions)
    assert info.value.refusal.rule == "B6"
    assert info.value.refusal.reason == "not-a-raise"
    again, _, _ = tables._observe()
    assert np.array_equal(again, obs)
    actions[2] = 1
    tables.step(actions)


def test_actions_outside_the_space_are_refused__B3() -> None:
    tables = vector_env(2, players=2, seed=1)
    tables.reset()
    for bad in ([1, 10_000], [1.5, 1], [-1, 1]):
        with pytest.raises(IllegalActionError) as info:
            tables.step(np.array(bad))
        assert info.value.refusal.reason == "not-in-space"
    with pytest.raises(ValueError, match="one action per table"):
        tables.step([1, 1, 1])


def test_same_seed_same_play() -> None:
    runs = []
    for _ in range(2):
        tables = vector_env(16, players=4, seed=9)
        obs, _, _ = tables.reset()
        total = np.zeros((16, 4))
        for _ in range(100):
            obs, _mask, rewards, *_ = tables.step(np.ones(16, dtype=np.int64))
            total += rewards
        runs.append((obs, total))
    assert np.array_equal(runs[0][0], runs[1][0])
    assert np.array_equal(runs[0][1], runs[1][1])


def test_stacks_that_never_need_a_decision_are_refused() -> None:
    tables = vector_env(4, players=2, stacks=[1, 1], seed=1)
    with pytest.raises(ConfigError, match="no hand needs a decision"):
        tables.reset()


@st.composite
def table_settings(draw: st.DrawFn) -> dict[str, Any]:
    players = draw(st.integers(2, 10))
    big = draw(st.integers(1, 6))
    settings: dict[str, Any] = {
        "players": players,
        "big_blind": big,
        "small_blind": draw(st.integers(0, big)),
        "ante": draw(st.sampled_from([0, 0, 1, 2])),
        "structure": draw(st.sampled_from(["no-limit", "pot-limit", "fixed-limit"])),
        "actions": draw(st.sampled_from(["exact", "discrete"])),
        "rotate": draw(st.booleans()),
        "stacks": draw(st.lists(st.integers(big + 3, 120), min_size=players,
                                max_size=players)),
    }
    return settings


@settings(max_examples=40, deadline=None)
@given(table_settings(), st.integers(0, 2**32 - 1))
def test_any_table_plays_as_the_hand_engine__G3_B7_P1(config: dict[str, Any],
                                                     seed: int) -> None:
    crosscheck(EnvConfig(**config), tables=8, hands=60, seed=seed)
