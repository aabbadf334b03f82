"""The re-entry period (G8) and late seats (G9): who may come (back) in and when, the wait for
the big blind (D8), the standings, the log and PHH replay, and Hypothesis over random series."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from feltro.bots import Bot, make_bot
from feltro.entries import ReentryRule
from feltro.errors import ConfigError, EntryError
from feltro.history import replay
from feltro.levels import BlindSchedule
from feltro.series import HandSummary, Series, SeriesConfig
from feltro.series_log import SeriesStore, series_hand_record
from playkit import bots_play_hand

T0 = datetime(2026, 5, 1, 21, 0, tzinfo=UTC)

Hook = Callable[[Series | SeriesStore, Series, datetime], None]


def clock(hands_played: int) -> datetime:
    return T0 + timedelta(seconds=60 * hands_played)


def play(driver: Series | SeriesStore, between: Hook | None = None, *, seed: int = 1,
         kind: str = "station") -> Series:
    """Play to the end with bots; *between* runs before every deal (re-entries, late seats)."""
    series = driver if isinstance(driver, Series) else driver.series
    bots: dict[int, Bot] = {}
    while True:
        now = clock(series.hand_number)
        if between is not None and not series.is_over:
            between(driver, series, now)
        hand = driver.next_hand(now)
        if hand is None:
            return series
        seating = series.seating
        assert seating is not None
        bots_play_hand(hand, seating, lambda seat: bots.setdefault(
            seat, make_bot(kind, random.Random(seed * 100 + seat))), driver.act)

def reenter_all(driver: Series | SeriesStore, series: Series, now: datetime) -> None:
    """The host approves every re-entry asked: every busted player asks while they may."""
    rule = series.config.reentry
    assert rule is not None
    for standing in series.standings():
        if (standing.out_in_hand is not None and series.entries_open(now)
                and series.reentries(standing.seat) < rule.times):
            driver.reenter(standing.seat, now)


def _clockwise_between(start: int, seat: int, end: int) -> bool:
    if start < end:
        return start < seat < end
    return seat > start or seat < end


def check_big_blind(summaries: Sequence[HandSummary]) -> None:
    """D8: the big blind never skips a player dealt in, never goes twice in a row."""
    for before, after in itertools.pairwise(summaries):
        b0, b1 = before.seating.big_blind, after.seating.big_blind
        assert b0 != b1, f"seat {b1} posts the big blind twice in a row (hand {after.number})"
        skipped = [s for s in after.seating.order if _clockwise_between(b0, s, b1)]
        assert skipped == [], f"hand {after.number}: seats {skipped} skipped the big blind"


def _config(**options: object) -> SeriesConfig:
    options.setdefault("reentry", ReentryRule(times=1, until_minutes=30))
    return SeriesConfig.with_players(5, starting_stack=20, seat_count=8, **options)


def test_a_freezeout_refuses_reentries_and_late_seats_G4_G8_G9() -> None:
    series = Series(SeriesConfig.with_players(3, starting_stack=10), 1)
    with pytest.raises(EntryError) as refused:
        series.reenter(1)
    assert refused.value.refusal[:2] == ("G8", "not-offered")
    with pytest.raises(EntryError) as late:
        Series(_config(), 1).seat_late(7, "Zé")  # a re-entry period, but no late seats
    assert late.value.refusal[:2] == ("G9", "not-offered")


def test_a_busted_player_reenters_with_a_starting_stack_and_waits_for_the_big_blind_G8_D8(
) -> None:
    series = Series(_config(), 3)
    seen: list[tuple[int, int | None]] = []

    def hook(driver: Series | SeriesStore, s: Series, now: datetime) -> None:
        before = set(s.waiting)
        reenter_all(driver, s, now)
        seen.extend((seat, s.joins_in(seat)) for seat in set(s.waiting) - before)

    play(series, hook)
    assert seen, "somebody re-entered"
    chips = 20 * (5 + sum(series.reentries(seat) for seat in series.players))
    assert sum(series.stacks.values()) == chips  # G3: exactly one starting stack each
    check_big_blind(series.summaries)
    for seat, expected in seen:  # dealt in first as the big blind (D8), when predicted
        first = next(s for s in series.summaries
                     if s.number >= (expected or 0) and seat in s.seating.order)
        if len(first.seating.order) > 2:
            assert first.seating.big_blind == seat
    assert {r.seat: r.reentries for r in series.standings()} == {
        seat: series.reentries(seat) for seat in series.players}
    assert max(series.reentries(seat) for seat in series.players) == 1  # times=1


def test_refusals_say_which_rule_and_why_G8() -> None:
    rule = ReentryRule(times=1, until_level=2)
    config = _config(reentry=rule, levels=BlindSchedule.ready("turbo", length=3))
    series = Series(config, 5)
    series.next_hand(T0)
    while series.in_hand:
        series.act(series.hand.legal.passive)  # type: ignore[union-attr]
    with pytest.raises(EntryError) as not_out:
        series.reenter(series.alive[0], T0)
    assert not_out.value.refusal == ("G8", "not-out", {"seat": series.alive[0]})
    stacks = dict(series.stacks)
    while series.level <= 2 and not series.is_over:  # play past level 2: the period closes
        series.next_hand(T0)
        while series.in_hand:
            series.act(series.hand.legal.passive)
    assert not series.entries_open(T0)
    assert series.standings()  # the refusal below changes nothing
    stacks = dict(series.stacks)
    with pytest.raises(EntryError) as closed:
        series.reenter(1, T0)
    assert closed.value.refusal[:2] == ("G8", "closed")
    assert dict(series.stacks) == stacks


def test_a_late_player_sits_at_a_free_seat_and_joins_at_the_big_blind_G9_D8() -> None:
    config = _config(reentry=ReentryRule(until_minutes=30, late_seats=True))
    series = Series(config, 9)
    series.next_hand(clock(0))
    while series.in_hand:
        series.act(series.hand.legal.passive)  # type: ignore[union-attr]
    for seat, reason in ((3, "seat-taken"), (9, "no-such-seat")):
        with pytest.raises(EntryError) as refused:
            series.seat_late(seat, "Zé", clock(1))
        assert refused.value.refusal[:2] == ("G9", reason)
    with pytest.raises(ConfigError):
        series.seat_late(7, " ", clock(1))
    series.seat_late(7, "Zé", clock(1))
    assert series.players[7] == "Zé"
    assert series.stacks[7] == 20
    joins = series.joins_in(7)
    assert joins is not None
    while 7 in series.waiting:
        series.next_hand(clock(series.hand_number))
        assert series.seating is not None
        assert (7 in series.seating.order) == (series.hand_number == joins)
        while series.in_hand:
            series.act(series.hand.legal.passive)
    last = series.summaries[-1]
    assert last.seating.big_blind == 7  # posts the big blind first (D8)
    assert last.number == joins  # nobody busted on the way (passive play): as predicted
    with pytest.raises(EntryError) as late:
        series.seat_late(8, "Lia", clock(31))
    assert late.value.refusal[:2] == ("G9", "closed")


def test_entries_replay_from_the_log_and_the_phh_to_the_same_stacks_G7_G8_G9(
        tmp_path: Path) -> None:
    rule = ReentryRule(times=2, until_level=3, late_seats=True)
    config = _config(reentry=rule, levels=BlindSchedule.ready("turbo", length=4))
    arrivals = {4: 6, 9: 8}  # hand played -> seat of a late arrival

    def hook(driver: Series | SeriesStore, series: Series, now: datetime) -> None:
        reenter_all(driver, series, now)
        seat = arrivals.get(series.hand_number)
        if seat is not None and series.entries_open(now):
            driver.seat_late(seat, f"Late {seat}", now)

    path = tmp_path / "entries.db"
    with SeriesStore.create(path, config, series_seed=21) as store:
        live = play(store, hook)
        expected = [(s.seating, s.stacks_after) for s in live.summaries]
        standings = live.standings()
        phh = [series_hand_record(live, n) for n in range(1, live.hand_number + 1)]
    assert sum(live.reentries(seat) for seat in live.players) >= 2
    assert {6, 8} <= set(live.players)
    with SeriesStore.open(path) as resumed:
        assert [(s.seating, s.stacks_after) for s in resumed.series.summaries] == expected
        assert resumed.series.standings() == standings
    for record, summary in zip(phh, live.summaries, strict=True):
        replayed = replay(record)
        assert replayed.complete
        seats = summary.seating.order
        assert tuple(replayed.hand.result().stacks) == tuple(summary.stacks_after[s]
                                                             for s in seats)
        assert record.players == tuple(live.players[s] for s in seats)
    memory = play(Series(config, 21), hook)
    assert [(s.seating, s.stacks_after) for s in memory.summaries] == expected


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 6), times=st.integers(1, 3),
       until=st.integers(1, 4), stack=st.sampled_from([6, 10, 30]),
       length=st.integers(1, 5), late=st.lists(st.integers(1, 10), max_size=4),
       kind=st.sampled_from(["station", "random", "tight"]))
def test_random_entries_conserve_chips_and_never_skip_the_big_blind_G8_G9_D8(
        seed: int, players: int, times: int, until: int, stack: int, length: int,
        late: list[int], kind: str) -> None:
    schedule = BlindSchedule.ready("turbo", length=length)
    rule = ReentryRule(times=times, until_level=until, late_seats=True)
    config = SeriesConfig.with_players(players, seat_count=10, starting_stack=stack,
                                       reentry=rule, levels=schedule, max_hands=80)
    rng = random.Random(seed)
    entered = [0]

    def hook(driver: Series | SeriesStore, series: Series, now: datetime) -> None:
        for standing in series.standings():
            if (standing.out_in_hand is not None and series.entries_open(now)
                    and series.reentries(standing.seat) < times and rng.random() < 0.7):
                driver.reenter(standing.seat, now)
                entered[0] += 1
        if late and series.entries_open(now) and rng.random() < 0.3:
            seat = late.pop()
            if seat not in series.players:
                driver.seat_late(seat, f"Late {seat}", now)
                entered[0] += 1

    series = play(Series(config, seed), hook, seed=seed, kind=kind)
    total = stack * len(series.players) + stack * sum(series.reentries(s)
                                                       for s in series.players)
    assert stack * (players + entered[0]) == total
    for summary in series.summaries:
        assert sum(summary.stacks_after.values()) == sum(summary.stacks_before.values())
        assert all(summary.stacks_before[s] > 0 for s in summary.seating.order)
    assert sum(series.stacks.values()) == total  # G3: only re-entries add, each one stack
    check_big_blind(series.summaries)
    levels = [s.level for s in series.summaries]
    assert levels == sorted(levels)  # G7: never back
    places = [r.place for r in series.standings()]
    assert places == sorted(places)
    assert places[0] == 1


def test_a_season_night_counts_reentries_and_late_players_G8_G9() -> None:
    from feltro.season.night import night_of

    rule = ReentryRule(times=2, until_level=3, late_seats=True)
    config = _config(reentry=rule, levels=BlindSchedule.ready("turbo", length=4))

    def hook(driver: Series | SeriesStore, series: Series, now: datetime) -> None:
        reenter_all(driver, series, now)
        if series.hand_number == 2 and 6 not in series.players:
            driver.seat_late(6, "Zé", now)

    series = play(Series(config, 21), hook)
    night = night_of(series, key="terminal:x", label="x", date="2026-05-01")
    by_name = {player.name: player for player in night.players}
    assert "Zé" in by_name
    assert by_name["Zé"].hands > 0
    assert {p.name: p.reentries for p in night.players} == {
        name: series.reentries(seat) for seat, name in series.players.items()}
    assert sum(p.reentries or 0 for p in night.players) >= 2
    freezeout = play(Series(SeriesConfig.with_players(3, starting_stack=10), 2))
    assert all(p.reentries is None for p in night_of(
        freezeout, key="terminal:y", label="y", date="2026-05-01").players)


def test_an_entry_during_a_hand_stays_out_of_that_hand_G3_G8_G9() -> None:
    config = _config(reentry=ReentryRule(until_minutes=30, late_seats=True))
    series = Series(config, 4)
    hand = series.next_hand(clock(0))
    assert hand is not None
    series.seat_late(7, "Zé", clock(0))  # the host accepts while the hand is played
    assert series.seating is not None
    assert 7 not in series.seating.order
    while not hand.is_over:
        series.act(hand.legal.passive)
    summary = series.summaries[-1]
    assert sum(summary.stacks_after[s] for s in summary.seating.order) == 5 * 20  # G3
    assert sum(series.stacks.values()) == 6 * 20
    assert series.waiting == (7,)
