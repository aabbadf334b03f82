"""The series: configuration and bad input, the button draw, hands built from the seating,
short blinds, eliminations and finishing order, stop time, standings, determinism."""



from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from feltro.actions import Call, Fold, Raise
from feltro.cards import Deck
from feltro.errors import ConfigError, IllegalActionError
from feltro.events import BlindPosted, HoleCardDealt
from feltro.hand import Structure
from feltro.series import End, Series, SeriesConfig, SeriesError, rank_by_stack

T0 = datetime(2025, 1, 1, 21, 0, tzinfo=UTC)


def _finish_hand(series: Series, action: Any = None) -> None:
    """Play the current hand to its end: everyone checks/calls (or *action* when legal)."""
    hand = series.hand
    assert hand is not None
    while not hand.is_over:
        legal = hand.legal
        series.act(action if action is not None and action in legal else legal.passive)


def _play_out(series: Series, *, all_in: bool = True, now: datetime | None = None) -> None:
    """Play every hand with shoves and calls until the series ends."""
    while series.next_hand(now) is not None:
        hand = series.hand
        assert hand is not None
        while not hand.is_over:
            legal = hand.legal
            if all_in and legal.max_raise_to is not None:
                series.act(Raise(legal.max_raise_to))
            else:
                series.act(legal.passive)


# --- configuration ---------------------------------------------------------------------------


def test_defaults_are_the_house_rules__G2() -> None:
    config = SeriesConfig.with_players(6)
    assert (config.starting_stack, config.small_blind, config.big_blind, config.ante) == \
        (200, 1, 2, 0)
    assert list(config.players) == [1, 2, 3, 4, 5, 6]
    assert config.stop_at is None
    assert config.max_hands is None


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"starting_stack": 0}, "starting_stack"),
        ({"starting_stack": -5}, "starting_stack"),
        ({"starting_stack": 1.5}, "starting_stack"),
        ({"starting_stack": True}, "starting_stack"),
        ({"starting_stack": "200"}, "starting_stack"),
        ({"small_blind": 0}, "small_blind"),
        ({"big_blind": -2}, "big_blind"),
        ({"big_blind": 2.0}, "big_blind"),
        ({"small_blind": 5, "big_blind": 2}, "smaller than the small blind"),
        ({"ante": -1}, "ante"),
        ({"max_hands": 0}, "max_hands"),
        ({"stop_at": "23:30"}, "stop_at"),
        ({"structure": "spread-limit"}, "unknown structure"),
    ],
)
def test_bad_amounts_are_refused__G2(options: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        SeriesConfig.with_players(4, **options)


@pytest.mark.parametrize("count", [0, 1, 11, -3])
def test_player_count_must_be_2_to_10__G1(count: int) -> None:
    with pytest.raises(ConfigError, match=r"2\.\.10 players"):
        SeriesConfig.with_players(count)


@pytest.mark.parametrize(
    ("players", "seat_count", "message"),
    [
        ({1: "Ana"}, 10, "2..10 players"),
        ({i: f"P{i}" for i in range(1, 12)}, 10, "seat 11"),
        ({1: "Ana", 7: "Rui"}, 6, "seat 7"),
        ({0: "Ana", 1: "Rui"}, 10, "seat 0"),
        ({1: "Ana", 2: ""}, 10, "needs a name"),
        ({1: "Ana", 2: "Rui"}, 12, "seat_count"),
    ],
)
def test_bad_seats_are_refused__G1(players: dict[int, str], seat_count: int,
                                   message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        SeriesConfig(players=players, seat_count=seat_count)


def test_config_round_trips_through_its_dict() -> None:
    config = SeriesConfig(players={2: "Ana", 5: "Rui", 9: "Zé"}, seat_count=9,
                          starting_stack=500, small_blind=5, big_blind=10, ante=1,
                          stop_at=T0, max_hands=40, structure=Structure.POT_LIMIT)
    assert SeriesConfig.from_dict(config.to_dict()) == config


def test_a_bad_config_dict_is_a_config_error() -> None:
    with pytest.raises(ConfigError):
        SeriesConfig.from_dict({"players": {"1": "Ana"}})


# --- the button draw and the first hand -------------------------------------------------------


def test_button_is_drawn_and_the_first_hand_uses_it__D2_D3() -> None:
    buttons = set()
    for seed in range(60):
        series = Series.start(SeriesConfig.with_players(5), random.Random(seed))
        hand = series.next_hand()
        assert hand is not None
        assert series.seating is not None
        assert series.seating.button == series.draw.button
        buttons.add(series.draw.button)
        # Small blind left of the button, big blind next; blinds by position (D3).
        assert hand.config.blinds == (1, 2, 0, 0, 0)
        assert series.seating.order[-1] == series.draw.button
    assert buttons == {1, 2, 3, 4, 5}


def test_heads_up_series_button_posts_small_blind__D6() -> None:
    series = Series.start(SeriesConfig.with_players(2), random.Random(4))
    hand = series.next_hand()
    assert hand is not None
    seating = series.seating
    assert seating is not None
    assert hand.config.blinds == (2, 1)
    assert seating.order == (seating.big_blind, seating.button)
    posted = {e.position: e.amount for e in hand.events if isinstance(e, BlindPosted)}
    assert posted == {0: 2, 1: 1}
    assert series.to_act == seating.button  # the button acts first preflop


def test_each_hand_is_shuffled_from_its_stored_seed__D1() -> None:
    series = Series.start(SeriesConfig.with_players(4), random.Random(11))
    seeds = []
    for _ in range(5):
        hand = series.next_hand()
        assert hand is not None
        assert series.hand_seed is not None
        seeds.append(series.hand_seed)
        deck = Deck.shuffled(random.Random(series.hand_seed))
        dealt = [e.card for e in hand.events if isinstance(e, HoleCardDealt)]
        assert dealt == list(deck[:8])  # D4: the deck's first cards, one at a time
        _finish_hand(series)
    assert len(set(seeds)) == 5


def test_same_seed_same_series() -> None:
    def run(seed: int) -> list[tuple[int, dict[int, int]]]:
        series = Series.start(SeriesConfig.with_players(5), random.Random(seed))
        _play_out(series)
        return [(s.seed, dict(s.stacks_after)) for s in series.summaries]

    assert run(3) == run(3)
    assert run(3) != run(4)


# --- hands, short blinds, eliminations ---------------------------------------------------------


def test_short_big_blind_posts_all_and_others_face_the_full_blind__D10() -> None:
    found = 0
    for seed in range(200):
        series = Series.start(SeriesConfig.with_players(3, starting_stack=20),
                              random.Random(seed))
        while (hand := series.next_hand()) is not None:
            seating = series.seating
            assert seating is not None
            big = seating.big_blind
            if 0 < series.stacks[big] < 2 and not hand.is_over:
                found += 1
                position = seating.position_of(big)
                assert hand.config.blinds[position] == 2        # nominal blind, not trimmed
                posted = [e.amount for e in hand.events
                          if isinstance(e, BlindPosted) and e.position == position]
                assert posted == [series.stacks[big]]           # all-in for less
                assert hand.current_bet == 2                    # others still face 2
            _finish_hand(series, Raise(10_000))
        if found >= 3:
            break
    assert found >= 3


def test_bust_ends_in_elimination_and_last_player_wins__G4() -> None:
    series = Series.start(SeriesConfig.with_players(2, starting_stack=30), random.Random(2))
    _play_out(series)
    outcome = series.outcome
    assert outcome is not None
    assert outcome.end is End.LAST_PLAYER
    (winner,) = outcome.winners
    assert outcome.stacks[winner] == 60
    loser = 1 if winner == 2 else 2
    standings = {row.seat: row for row in series.standings()}
    assert standings[winner].place == 1
    assert standings[loser].place == 2
    assert standings[loser].out_in_hand == outcome.hands
    assert series.next_hand() is None


def test_eliminated_player_never_deals_in_again__G4() -> None:
    series = Series.start(SeriesConfig.with_players(6, starting_stack=40), random.Random(8))
    _play_out(series)
    out_since: dict[int, int] = {}
    for summary in series.summaries:
        for seat in summary.seating.order:
            assert seat not in out_since, f"seat {seat} came back in hand {summary.number}"
        for seat in summary.eliminated:
            out_since[seat] = summary.number
    assert len(out_since) == 5


def test_same_hand_busts_rank_by_starting_stack__G4() -> None:
    """Players out in the same hand: the bigger starting stack finishes higher; equal stacks
    share the better place."""
    checked = 0
    for seed in range(40):
        series = Series.start(SeriesConfig.with_players(8, starting_stack=50),
                              random.Random(seed))
        _play_out(series)
        places = {row.seat: row.place for row in series.standings()}
        for summary in series.summaries:
            out = summary.eliminated
            left = len(summary.seating.order) - len(out)
            for a in out:
                better = sum(summary.stacks_before[b] > summary.stacks_before[a] for b in out)
                assert places[a] == left + 1 + better
            checked += len(out) > 1
    assert checked > 10


def test_rank_by_stack_shares_places_on_ties__G4_G6() -> None:
    assert rank_by_stack({1: 10, 2: 30, 3: 30, 4: 5}) == {2: 1, 3: 1, 1: 3, 4: 4}
    assert rank_by_stack({7: 0, 8: 0}, first_place=9) == {7: 9, 8: 9}
    assert rank_by_stack({}) == {}


def test_act_and_next_hand_out_of_turn_are_refused() -> None:
    series = Series.start(SeriesConfig.with_players(3), random.Random(1))
    with pytest.raises(SeriesError, match="no hand"):
        series.act(Call())
    assert series.next_hand() is not None
    with pytest.raises(SeriesError, match="not over"):
        series.next_hand()
    wrong_seat = next(s for s in series.alive if s != series.to_act)
    with pytest.raises(IllegalActionError):
        series.act(Call(), wrong_seat)
    with pytest.raises(ValueError, match="seat 9"):
        series.act(Call(), 9)


# --- stopping: G6 ------------------------------------------------------------------------------


def test_stop_time_finishes_the_hand_in_progress__G6() -> None:
    config = SeriesConfig.with_players(4, stop_at=T0 + timedelta(hours=2))
    series = Series.start(config, random.Random(5))
    assert series.next_hand(T0) is not None
    # The stop time passes in the middle of the hand: the hand goes on to its end.
    late = T0 + timedelta(hours=3)
    assert series.should_stop(late)
    _finish_hand(series)
    assert series.next_hand(late) is None
    outcome = series.outcome
    assert outcome is not None
    assert outcome.end is End.STOPPED
    assert outcome.hands == 1
    top = max(series.stacks.values())
    assert outcome.winners == tuple(s for s, c in series.stacks.items() if c == top)


def test_stop_before_the_first_hand_makes_everyone_co_winner__G6() -> None:
    config = SeriesConfig.with_players(5, stop_at=T0)
    series = Series.start(config, random.Random(5))
    assert series.next_hand(T0) is None
    assert series.outcome is not None
    assert series.outcome.winners == (1, 2, 3, 4, 5)     # equal stacks tie
    assert {row.place for row in series.standings()} == {1}


def test_stop_co_winners_on_equal_biggest_stacks__G6() -> None:
    found = False
    for seed in range(300):
        series = Series.start(SeriesConfig.with_players(4, max_hands=3), random.Random(seed))
        while series.next_hand() is not None:
            _finish_hand(series)
        stacks = series.stacks
        top = max(stacks.values())
        outcome = series.outcome
        assert outcome is not None
        assert outcome.end is End.STOPPED
        assert outcome.winners == tuple(s for s in stacks if stacks[s] == top)
        if len(outcome.winners) > 1 and len(set(stacks.values())) > 1:
            found = True
            places = {row.seat: row.place for row in series.standings()}
            assert {places[s] for s in outcome.winners} == {1}
            break
    assert found


def test_max_hands_and_request_stop__G6() -> None:
    series = Series.start(SeriesConfig.with_players(3, max_hands=2), random.Random(9))
    for _ in range(2):
        assert series.next_hand() is not None
        _finish_hand(series)
    assert series.next_hand() is None
    assert series.outcome is not None
    assert series.outcome.hands == 2

    series = Series.start(SeriesConfig.with_players(3), random.Random(9))
    assert series.next_hand() is not None
    series.request_stop()                       # "end at the next hand"
    assert series.in_hand
    _finish_hand(series)
    assert series.next_hand() is None
    assert series.outcome is not None
    assert series.outcome.end is End.STOPPED


def test_stop_time_and_now_must_agree_on_time_zones__G6() -> None:
    series = Series.start(SeriesConfig.with_players(3, stop_at=T0), random.Random(1))
    with pytest.raises(ConfigError, match="time zone"):
        series.next_hand(datetime(2025, 1, 1, 22, 0))  # naive on purpose


# --- standings -------------------------------------------------------------------------------


def test_standings_at_any_moment__G4() -> None:
    series = Series.start(SeriesConfig.with_players(5, starting_stack=30), random.Random(21))
    assert [row.place for row in series.standings()] == [1] * 5
    while series.next_hand() is not None:
        rows = series.standings()
        assert sorted(row.seat for row in rows) == [1, 2, 3, 4, 5]
        alive = [row for row in rows if row.out_in_hand is None]
        out = [row for row in rows if row.out_in_hand is not None]
        assert rows[:len(alive)] == tuple(alive)            # players still in come first
        assert [r.stack for r in alive] == sorted((r.stack for r in alive), reverse=True)
        assert all(r.place > len(alive) for r in out)
        assert sum(r.stack for r in rows) == 150
        hand = series.hand
        assert hand is not None
        while not hand.is_over:
            legal = hand.legal
            series.act(Raise(legal.max_raise_to) if legal.max_raise_to else legal.passive)
    assert series.standings()[0].place == 1
    assert series.standings()[0].stack == 150


def test_blinds_stay_the_same_for_the_whole_series__G5() -> None:
    # Mixed play (shoves in some hands, calls in others) until the series ends: every hand
    # posts from the same 1/2 blinds, however many players are left (short blinds may post less,
    # D10, but the nominal blinds never move).
    series = Series(SeriesConfig.with_players(6), 11)
    rng = random.Random(11)
    seen: set[tuple[int, ...]] = set()
    hands = 0
    while series.next_hand() is not None:
        hand = series.hand
        assert hand is not None
        hands += 1
        # Nominal blinds of the hand (a dead small blind leaves only the 2), and the big blind.
        seen.add((*sorted({b for b in hand.config.blinds if b}), hand.config.big_blind))
        while not hand.is_over:
            legal = hand.legal
            roll = rng.random()
            if legal.max_raise_to is not None and roll < 0.05:
                series.act(Raise(legal.max_raise_to))
            elif not legal.can_check and roll < 0.6:
                series.act(Fold())
            else:
                series.act(legal.passive)
    assert hands > 20
    assert len(series.standings()) == 6
    assert seen <= {(1, 2, 2), (2, 2)}
    assert (1, 2, 2) in seen
