"""Blind levels (G7): the schedule, the series dealing each hand at its level, the log and the
PHH keeping it, and Hypothesis over random schedules."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from feltro.bots import Bot, make_bot
from feltro.errors import ConfigError
from feltro.levels import READY, BlindSchedule, Level, LevelUnit
from feltro.series import Series, SeriesConfig
from feltro.series_log import SeriesStore, series_hand_record
from playkit import bots_play_hand

T0 = datetime(2026, 5, 1, 21, 0, tzinfo=UTC)


def clock(hands_played: int) -> datetime:
    """A fake clock: 50 seconds a hand."""
    return T0 + timedelta(seconds=50 * hands_played)


def play(driver: Series | SeriesStore, *, timed: bool, seed: int = 3,
         hands: int | None = None) -> None:
    """Play with rules bots, the clock passed at each deal when *timed*."""
    series = driver if isinstance(driver, Series) else driver.series
    bots: dict[int, Bot] = {seat: make_bot("rules", random.Random(seed + seat))
                            for seat in series.config.players}
    while hands is None or series.hand_number < hands:
        hand = driver.next_hand(clock(series.hand_number) if timed else None)
        if hand is None:
            return
        seating = series.seating
        assert seating is not None
        bots_play_hand(hand, seating, bots.__getitem__, driver.act)



def test_a_ready_schedule_by_hands_G7() -> None:
    schedule = BlindSchedule.ready("standard", length=3, ante_from=2)
    assert [schedule.due(n, None, 1) for n in range(0, 8)] == [1, 1, 1, 2, 2, 2, 3, 3]
    assert schedule.level(1) == Level(1, 2, 0)  # no ante before ante_from
    assert schedule.level(2) == Level(2, 4, 1)
    assert schedule.due(10_000, None, 1) == schedule.last  # the last level stays
    assert schedule.due(0, None, 4) == 4  # levels never go back


def test_a_schedule_by_time_needs_the_callers_clock_G7() -> None:
    schedule = BlindSchedule.parse("1/2, 2/4, 5/10/1", unit="minutes", length=15)
    assert schedule.ante_from == 3
    assert schedule.due(99, None, 1) == 1  # no clock passed: no change
    assert schedule.due(0, timedelta(minutes=14, seconds=59), 1) == 1
    assert schedule.due(0, timedelta(minutes=15), 1) == 2
    countdown = schedule.countdown(1, 4, T0, T0 + timedelta(minutes=10))
    assert (countdown.level, countdown.seconds_left, countdown.next_blinds) == \
        (1, 300, Level(2, 4, 0))


@pytest.mark.parametrize("text", ["", "1/2, x", "2/1", "1/2/3/4", "banana"])
def test_bad_levels_are_refused_with_the_way_to_write_them_G7(text: str) -> None:
    with pytest.raises(ConfigError):
        BlindSchedule.parse(text)


def test_bounds_on_a_schedule_G7() -> None:
    with pytest.raises(ConfigError, match=r"1\.\.40"):
        BlindSchedule.parse(", ".join(["1/2"] * 41))
    with pytest.raises(ConfigError, match="antes must start"):
        BlindSchedule.ready("turbo", ante_from=9)
    with pytest.raises(ConfigError, match="hands' or 'minutes'"):
        BlindSchedule.ready("turbo", unit="days")


def test_each_hand_is_dealt_at_its_level_and_levels_change_only_between_hands_G7() -> None:
    schedule = BlindSchedule.ready("turbo", length=4, ante_from=3)
    series = Series(SeriesConfig.with_players(4, levels=schedule), 11)
    assert (series.config.small_blind, series.config.big_blind) == (1, 2)
    play(series, timed=False)
    assert series.summaries
    for summary in series.summaries:
        level = schedule.due(summary.number - 1, None, 1)
        assert summary.level == level
        bets = schedule.level(level)
        config = summary.hand.config
        assert config.big_blind == bets.big_blind
        assert max(config.blinds) == bets.big_blind
        assert config.antes == ((bets.ante,) * len(summary.seating.order) if bets.ante else ())


def test_a_hand_keeps_its_level_when_the_time_runs_out_during_it_G7() -> None:
    schedule = BlindSchedule.ready("standard", unit="minutes", length=10)
    series = Series(SeriesConfig.with_players(3, levels=schedule), 5)
    series.next_hand(T0)
    hand = series.hand
    assert hand is not None
    assert series.level == 1
    countdown = series.countdown(T0 + timedelta(minutes=11))  # the level is due mid-hand
    assert countdown is not None
    assert countdown.seconds_left == 0
    while not hand.is_over:
        series.act(hand.legal.passive)
        assert series.level == 1
        assert hand.config.big_blind == 2
    series.next_hand(T0 + timedelta(minutes=11))
    assert series.level == 2
    assert series.hand is not None
    assert series.hand.config.big_blind == 4


def test_fixed_blinds_stay_the_house_rule_G5() -> None:
    series = Series(SeriesConfig.with_players(3, max_hands=30), 2)
    play(series, timed=True)
    assert {s.hand.config.big_blind for s in series.summaries} == {2}
    assert series.countdown(T0) is None
    assert "levels" not in series.config.to_dict()


def test_the_log_and_phh_keep_each_hands_level_and_replay_it_G7(tmp_path: Path) -> None:
    schedule = BlindSchedule.ready("turbo", unit="minutes", length=2, ante_from=2)
    config = SeriesConfig.with_players(5, levels=schedule, max_hands=40)
    path = tmp_path / "levels.db"
    with SeriesStore.create(path, config, series_seed=77) as store:
        play(store, timed=True)
        live = [(s.level, s.stacks_after) for s in store.series.summaries]
        phh_levels = [series_hand_record(store.series, n).level
                      for n in range(1, store.series.hand_number + 1)]
    assert len({level for level, _ in live}) > 2  # the levels did go up
    assert phh_levels == [level for level, _ in live]
    with SeriesStore.open(path) as resumed:  # the replay reads no clock: the log's "at"
        assert [(s.level, s.stacks_after) for s in resumed.series.summaries] == live
        assert resumed.series.clock_start == T0
    memory = Series(config, 77)
    play(memory, timed=True)
    assert [(s.level, s.stacks_after) for s in memory.summaries] == live


def test_a_schedule_survives_the_config_round_trip_G7() -> None:
    schedule = BlindSchedule.parse("1/2, 3/6/1, 10/20/2", unit="minutes", length=20)
    config = SeriesConfig.with_players(2, levels=schedule)
    assert SeriesConfig.from_dict(config.to_dict()) == config
    for name in READY:
        for ante_from in (None, 2):  # no antes stays no antes
            ready = BlindSchedule.ready(name, unit=LevelUnit.HANDS, length=7,
                                        ante_from=ante_from)
            assert BlindSchedule.from_dict(ready.to_dict()) == ready


_LEVEL = st.tuples(st.integers(1, 50), st.integers(0, 50), st.integers(0, 10)).map(
    lambda t: Level(t[0], t[0] + t[1], t[2]))


@settings(max_examples=25, deadline=None)
@given(levels=st.lists(_LEVEL, min_size=1, max_size=6), length=st.integers(1, 6),
       minutes=st.booleans(), players=st.integers(2, 6), seed=st.integers(0, 10**6),
       stack=st.integers(20, 300))
def test_random_schedules_conserve_chips_and_change_only_between_hands_G7(
        levels: list[Level], length: int, minutes: bool, players: int, seed: int,
        stack: int) -> None:
    schedule = BlindSchedule(levels=tuple(levels), length=length, ante_from=1,
                             unit=LevelUnit.MINUTES if minutes else LevelUnit.HANDS)
    config = SeriesConfig.with_players(players, levels=schedule, max_hands=60,
                                       starting_stack=stack)
    series = Series(config, seed)
    play(series, timed=True, seed=seed)
    previous = 1
    for summary in series.summaries:
        assert sum(summary.stacks_after.values()) == stack * players  # G3
        elapsed = clock(summary.number - 1) - T0
        assert summary.level == schedule.due(summary.number - 1, elapsed, previous)
        assert summary.level >= previous
        assert summary.hand.config.big_blind == schedule.level(summary.level).big_blind
        previous = summary.level
