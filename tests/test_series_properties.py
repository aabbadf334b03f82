"""Properties of whole simulated series (Hypothesis plus a plain sweep over many seeds):
chips are constant, the big blind goes round without skipping anyone or repeating, eliminated
players never return, and a freezeout ends with one player holding every chip."""



from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from feltro.bots import Bot, make_bot
from feltro.hand import Structure
from feltro.series import End, HandSummary, Series, SeriesConfig
from playkit import bots_play_hand


def play(config: SeriesConfig, seed: int, kinds: Sequence[str]) -> Series:
    """Play a series to its end with bots of *kinds* (one per seat, in seat order)."""
    rng = random.Random(seed)
    series = Series.start(config, rng)
    bots: dict[int, Bot] = {seat: make_bot(kind, random.Random(rng.random()))
                            for seat, kind in zip(config.players, kinds, strict=True)}
    while (hand := series.next_hand()) is not None:
        seating = series.seating
        assert seating is not None
        replaced = bots_play_hand(hand, seating, bots.__getitem__, series.act)
        assert replaced == [], replaced
    return series


def _clockwise_between(start: int, seat: int, end: int) -> bool:
    """Whether *seat* is strictly between *start* and *end* going clockwise (up the seats)."""
    if start < end:
        return start < seat < end
    return seat > start or seat < end


def check_series(series: Series) -> None:
    """Every invariant of a finished series."""
    config = series.config
    total = config.starting_stack * len(config.players)
    summaries: Sequence[HandSummary] = series.summaries
    out: set[int] = set()
    for summary in summaries:
        # G3/G4: chips never appear or vanish; busted players stay out.
        assert sum(summary.stacks_before.values()) == total
        assert sum(summary.stacks_after.values()) == total
        assert out.isdisjoint(summary.seating.order), (summary.number, out)
        assert all(summary.stacks_after[s] == 0 for s in out)
        assert all(summary.stacks_before[s] > 0 for s in summary.seating.order)
        out |= set(summary.eliminated)
        assert set(summary.eliminated) == {s for s in summary.seating.order
                                           if summary.stacks_after[s] == 0}
        seating = summary.seating
        if seating.heads_up:  # D6: the button posts the small blind, the other the big blind
            assert seating.button == seating.small_blind
            assert seating.order == (seating.big_blind, seating.button)
    _check_big_blind_rotation(summaries)
    outcome = series.outcome
    assert outcome is not None
    if outcome.end is End.LAST_PLAYER:
        (winner,) = outcome.winners
        assert outcome.stacks[winner] == total                 # G4: one player has it all
        assert len(out) == len(config.players) - 1
    else:
        assert config.max_hands is not None
        assert len(summaries) == config.max_hands
        top = max(outcome.stacks.values())
        assert outcome.winners == tuple(s for s, c in outcome.stacks.items() if c == top)


def _check_big_blind_rotation(summaries: Sequence[HandSummary]) -> None:
    """D8/D9: never the same big blind twice in a row, nobody skipped, once per orbit."""
    bigs = [s.seating.big_blind for s in summaries]
    for before, after in itertools.pairwise(summaries):
        b0, b1 = before.seating.big_blind, after.seating.big_blind
        assert b0 != b1, f"seat {b1} posts the big blind twice in a row (hand {after.number})"
        skipped = [s for s in after.seating.order if _clockwise_between(b0, s, b1)]
        assert skipped == [], f"hand {after.number}: seats {skipped} skipped the big blind"
    # Between two big blinds of one player, every player still in posts it exactly once.
    last_post: dict[int, int] = {}
    for index, big in enumerate(bigs):
        if big in last_post:
            between = bigs[last_post[big] + 1:index]
            for seat in summaries[index].seating.order:
                if seat != big:
                    assert between.count(seat) == 1, (summaries[index].number, seat, between)
        last_post[big] = index


@st.composite
def series_setups(draw: st.DrawFn) -> tuple[SeriesConfig, int, list[str]]:
    count = draw(st.integers(2, 10))
    seats = sorted(draw(st.sets(st.integers(1, 10), min_size=count, max_size=count)))
    config = SeriesConfig(
        players={seat: f"bot {seat}" for seat in seats},
        starting_stack=draw(st.sampled_from([3, 10, 25, 60, 200])),
        small_blind=draw(st.sampled_from([1, 2])),
        big_blind=draw(st.sampled_from([2, 4])),
        ante=draw(st.sampled_from([0, 0, 1])),
        max_hands=300,
        structure=draw(st.sampled_from([Structure.NO_LIMIT, Structure.NO_LIMIT,
                                        Structure.POT_LIMIT, Structure.FIXED_LIMIT])),
    )
    kinds = draw(st.lists(st.sampled_from(["random", "tight", "station"]),
                          min_size=count, max_size=count))
    return config, draw(st.integers(0, 2**32)), kinds


@settings(max_examples=300, deadline=None)
@given(series_setups())
def test_series_invariants__G3_G4_D6_D8_D9(setup: tuple[SeriesConfig, int, list[str]]) -> None:
    config, seed, kinds = setup
    check_series(play(config, seed, kinds))


def test_thousands_of_freezeouts__G4_D8_D9() -> None:
    """A plain sweep (fast random bots, every table size) that must all reach the end."""
    for seed in range(1500):
        count = 2 + seed % 9
        config = SeriesConfig.with_players(count, starting_stack=20 + seed % 50)
        series = play(config, seed, ["random"] * count)
        assert series.outcome is not None
        assert series.outcome.end is End.LAST_PLAYER
        check_series(series)


def test_the_rotation_checker_catches_a_skipped_big_blind__D8() -> None:
    # Proves the check can fail: drop one hand from a real series, so that the big blind
    # jumps over a player.
    series = play(SeriesConfig.with_players(6, starting_stack=200, max_hands=12), 1,
                  ["station"] * 6)
    summaries = list(series.summaries)
    try:
        _check_big_blind_rotation(summaries[:3] + summaries[4:])
    except AssertionError:
        return
    raise AssertionError("a skipped big blind went unnoticed")
