"""Seat logic: blinds per position, the button draw, bad input, and seat-level properties of the
dead-button rule over random elimination sequences."""

# Test names end in the rule ids they pin (``__D8``), so N802 (lowercase names) is off here.

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from feltro.errors import ConfigError
from feltro.seating import (
    Seating,
    draw_button,
    first_seating,
    next_seating,
    validate_seats,
)


def test_blinds_per_position_normal__D3() -> None:
    seating = first_seating([1, 2, 3, 4], button=4)
    assert seating.order == (1, 2, 3, 4)
    assert seating.blinds(1, 2) == (1, 2, 0, 0)


def test_blinds_heads_up_button_posts_small_blind__D6() -> None:
    seating = first_seating([3, 8], button=3)
    assert seating.heads_up
    assert seating.order == (8, 3)              # the button is dealt last
    assert seating.blinds(1, 2) == (2, 1)       # position 0 (non-button) posts the big blind
    assert seating.small_blind == 3 == seating.button


def test_blinds_with_dead_small_blind__D8() -> None:
    seating = next_seating(first_seating([1, 2, 3, 4], button=1), alive=[1, 2, 4])
    assert seating.small_blind is None
    assert seating.order == (4, 1, 2)
    assert seating.blinds(5, 10) == (10, 0, 0)


def test_position_and_seat_lookup() -> None:
    seating = first_seating([2, 5, 9], button=9)
    assert [seating.position_of(s) for s in (2, 5, 9)] == [0, 1, 2]
    assert seating.seat_of(1) == 5
    with pytest.raises(ValueError, match="seat 4"):
        seating.position_of(4)


def test_button_draw_highest_card_wins__D2() -> None:
    for seed in range(50):
        draw = draw_button([1, 4, 6, 10], random.Random(seed))
        assert set(draw.cards) == {1, 4, 6, 10}
        assert len(set(draw.cards.values())) == 4
        assert int(draw.cards[draw.button]) == max(int(c) for c in draw.cards.values())


def test_button_draw_is_reproducible_and_varies__D2() -> None:
    first = draw_button(range(1, 11), random.Random(7))
    assert draw_button(range(1, 11), random.Random(7)) == first
    winners = {draw_button(range(1, 11), random.Random(s)).button for s in range(200)}
    assert winners == set(range(1, 11))


@pytest.mark.parametrize(
    ("seats", "seat_count", "message"),
    [
        ([1], 10, "2..10 players"),
        ([], 10, "2..10 players"),
        ([0, 1], 10, "seat 0"),
        ([1, 11], 10, "seat 11"),
        ([1, 7], 6, "seat 7"),
        ([2, 2, 3], 10, "twice"),
        ([1, True], 10, "seat True"),
        ([1, 2.0], 10, "seat 2.0"),
        ([1, 2], 11, "seat_count"),
        ([1, 2], 1, "seat_count"),
    ],
)
def test_bad_seats_are_refused__G1(seats: list[int], seat_count: int, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        validate_seats(seats, seat_count)


def test_button_must_start_on_an_occupied_seat__D2() -> None:
    with pytest.raises(ConfigError, match="seat 3"):
        first_seating([1, 2, 4], button=3)


def test_eliminated_players_never_return__G4() -> None:
    seating = next_seating(first_seating([1, 2, 3, 4], button=1), alive=[1, 2, 3])
    with pytest.raises(ConfigError, match=r"\[4\]"):
        next_seating(seating, alive=[1, 2, 3, 4])


# --- seat-level properties over random elimination sequences --------------------------------


@st.composite
def bust_sequences(draw: st.DrawFn) -> tuple[list[int], int, list[set[int]]]:
    """Occupied seats, the drawn button, and the seats busting after each hand (to one left)."""
    seats = sorted(draw(st.sets(st.integers(1, 10), min_size=2, max_size=10)))
    button = draw(st.sampled_from(seats))
    alive = set(seats)
    busts: list[set[int]] = []
    while len(alive) > 1:
        # Some quiet hands, then a hand where at least one player busts (never all of them).
        busts.extend(set() for _ in range(draw(st.integers(0, 2))))
        out = draw(st.sets(st.sampled_from(sorted(alive)), min_size=1,
                           max_size=len(alive) - 1))
        busts.append(out)
        alive -= out
    return seats, button, busts


def _play(seats: list[int], button: int, busts: list[set[int]]) -> list[tuple[Seating, set[int]]]:
    alive = set(seats)
    played: list[tuple[Seating, set[int]]] = []
    seating = first_seating(seats, button)
    for out in busts:
        played.append((seating, set(alive)))
        alive -= out
        if len(alive) < 2:
            break
        seating = next_seating(seating, alive)
    return played


@settings(max_examples=300, deadline=None)
@given(bust_sequences())
def test_big_blind_never_skips_a_survivor_nor_repeats__D8_D9(
    case: tuple[list[int], int, list[set[int]]],
) -> None:
    seats, button, busts = case
    played = _play(seats, button, busts)
    for (before, _), (after, alive) in itertools.pairwise(played):
        assert after.big_blind != before.big_blind
        # No live player sits strictly between the two big blinds, clockwise.
        gap = [s for s in alive if _strictly_between(before.big_blind, s, after.big_blind)]
        assert gap == [], (before, after, alive)


@settings(max_examples=300, deadline=None)
@given(bust_sequences())
def test_positions_follow_the_button__D3_D6_D8(
    case: tuple[list[int], int, list[set[int]]],
) -> None:
    seats, button, busts = case
    for seating, alive in _play(seats, button, busts):
        assert sorted(seating.order) == sorted(alive)
        blinds = seating.blinds(1, 2)
        assert blinds.count(2) == 1
        if seating.heads_up:
            assert blinds == (2, 1)
            assert seating.button == seating.order[1]
        else:
            assert blinds[0] in (1, 2)            # the first blind is left of the button
            assert blinds[seating.order.index(seating.big_blind)] == 2
            # Deal order is clockwise from the button's seat (which may be empty).
            rotated = sorted(alive, key=lambda s: (s <= seating.button, s))
            assert list(seating.order) == rotated


def _strictly_between(start: int, seat: int, end: int) -> bool:
    """Whether *seat* lies strictly between *start* and *end* going clockwise."""
    if start < end:
        return start < seat < end
    return seat > start or seat < end
