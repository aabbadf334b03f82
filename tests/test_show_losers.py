"""A seat's choice to show even a losing hand at the showdown (P8, D11): kept in the series log,
passed into every hand the series deals, the same after the log is reopened."""

from __future__ import annotations

import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from feltro.errors import SeriesError, StoreError
from feltro.events import CardsMucked, CardsShown
from feltro.series import SeriesConfig
from feltro.series_log import SeriesStore, read_records

CONFIG = SeriesConfig(players={1: "Ana", 3: "Rui", 4: "Zé"}, seat_count=6, starting_stack=400)
CHOOSER = 3


def _new(path: Path) -> SeriesStore:
    return SeriesStore.create(path, CONFIG, random.Random(5))


def _call_down(store: SeriesStore) -> None:
    """Deal one hand and check or call to its end."""
    hand = store.next_hand()
    assert hand is not None
    while not hand.is_over:
        store.act(hand.legal.passive)


def _mucked_seats(store: SeriesStore) -> list[int]:
    hand, seating = store.series.hand, store.series.seating
    assert hand is not None
    assert seating is not None
    return [seating.order[e.position] for e in hand.events if isinstance(e, CardsMucked)]


def _shown_seats(store: SeriesStore) -> dict[int, str]:
    hand, seating = store.series.hand, store.series.seating
    assert hand is not None
    assert seating is not None
    return {seating.order[e.position]: "".join(str(c) for c in e.cards)
            for e in hand.events if isinstance(e, CardsShown)}


def _first_muck_of_chooser(tmp_path: Path) -> int:
    """The first hand (calling every hand down) in which CHOOSER mucks by default."""
    with _new(tmp_path / "default.db") as store:
        for _ in range(40):
            _call_down(store)
            if CHOOSER in _mucked_seats(store):
                return store.series.hand_number
    raise AssertionError("the chooser never mucked in 40 hands")


def test_a_seat_that_chose_to_show_shows_its_losing_hand_P8_D11(tmp_path: Path) -> None:
    number = _first_muck_of_chooser(tmp_path)
    with _new(tmp_path / "chosen.db") as store:
        store.set_show_losers(CHOOSER, True)
        for _ in range(number):
            _call_down(store)
        assert CHOOSER not in _mucked_seats(store)
        cards = _shown_seats(store)[CHOOSER]  # the same deal: shown, and it still loses
        hand, seating = store.series.hand, store.series.seating
        assert hand is not None
        assert seating is not None
        position = seating.position_of(CHOOSER)
        assert all(position not in pot.winners for pot in hand.result().pots)
        public = " ".join(store.export_phh(number, visible_to=()).actions)
        assert cards in public


def test_a_seat_that_did_not_choose_is_mucked_and_its_cards_are_not_public_P8_D11(
        tmp_path: Path) -> None:
    number = _first_muck_of_chooser(tmp_path)
    with _new(tmp_path / "other.db") as store:
        store.set_show_losers(CHOOSER, True)
        store.set_show_losers(CHOOSER, False)  # changed its mind: mucks again (the default)
        for _ in range(number):
            _call_down(store)
        assert CHOOSER in _mucked_seats(store)
        hand, seating = store.series.hand, store.series.seating
        assert hand is not None
        assert seating is not None
        hole = hand.hole(seating.position_of(CHOOSER))
        public = " ".join(store.export_phh(number, visible_to=()).actions)
        assert not any(str(card) in public for card in hole)


def test_the_choice_survives_reopening_the_log_P8(tmp_path: Path) -> None:
    number = _first_muck_of_chooser(tmp_path)
    path = tmp_path / "series.db"
    with _new(path) as store:
        store.set_show_losers(CHOOSER, True)
        for _ in range(number - 1):
            _call_down(store)
    assert [r.body for r in read_records(path) if r.kind == "show_losers"] == [
        {"seat": CHOOSER, "on": True}]
    with SeriesStore.open(path) as store:  # replayed: the same choice, the same showdowns
        assert store.series.show_losers == {CHOOSER}
        _call_down(store)
        assert CHOOSER in _shown_seats(store)
        events = store.series.hand.events if store.series.hand else ()
    with SeriesStore.open(path) as store:
        assert store.series.hand is not None
        assert store.series.hand.events == events


# The child creates the series, chooses, then waits to be killed (the choice is committed).
CHILD = """
import random, sys, time
from feltro.series import SeriesConfig
from feltro.series_log import SeriesStore
store = SeriesStore.create(sys.argv[1], SeriesConfig(players={1: "Ana", 3: "Rui", 4: "Zé"},
                           seat_count=6, starting_stack=400), random.Random(5))
store.set_show_losers(3, True)
print("CHOSEN", flush=True)
time.sleep(600)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL")
def test_the_choice_survives_kill_9_P8_D11(tmp_path: Path) -> None:
    number = _first_muck_of_chooser(tmp_path)
    path = tmp_path / "killed.db"
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(path)], stdout=subprocess.PIPE,
                             text=True)
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "CHOSEN"
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(10)
    with SeriesStore.open(path) as store:
        assert store.series.show_losers == {CHOOSER}
        for _ in range(number):
            _call_down(store)
        assert CHOOSER in _shown_seats(store)
        assert CHOOSER not in _mucked_seats(store)


def test_a_seat_outside_the_series_is_refused_and_nothing_is_logged(tmp_path: Path) -> None:
    path = tmp_path / "series.db"
    with _new(path) as store, pytest.raises(SeriesError, match="seat 2"):
        store.set_show_losers(2, True)
    assert not [r for r in read_records(path) if r.kind == "show_losers"]
    with SeriesStore.open(path) as store:
        store.close()
        with pytest.raises(StoreError):
            store.set_show_losers(CHOOSER, True)
