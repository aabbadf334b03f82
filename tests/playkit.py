"""Shared by the tests that play hands, the terminal game or run the ``feltro`` command:
typed actions one after the other, a session's hands played as a patient person would, the CLI
run as the console script does, the full-screen game patched out, and a server process kept up
for the length of a test."""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol, TypeVar

import pytest

from feltro.actions import Action
from feltro.bots import Bot, checked_action, make_bot
from feltro.cli import main
from feltro.errors import IllegalActionError
from feltro.hand import Hand
from feltro.seating import Seating
from feltro.series import Series, SeriesConfig
from feltro.session import Session


def play(hand: Hand, *actions: str | Action) -> None:
    """Apply *actions* (typed as "c", "x", "r 10", "f"... or as actions) one after the other."""
    for action in actions:
        hand.apply(action)


def refused_by(rule: str, attempt: Callable[..., object], *args: object) -> IllegalActionError:
    """``attempt(*args)`` (an action, a deal, a show...) is refused citing *rule*: the error."""
    with pytest.raises(IllegalActionError) as info:
        attempt(*args)
    assert info.value.rule == rule, str(info.value)
    return info.value


class Process(Protocol):
    """Something started and stopped: a ``feltro serve`` process of the server or web tests."""

    def start(self) -> None: ...

    def stop(self) -> None: ...


P = TypeVar("P", bound=Process)


@contextlib.contextmanager
def running(process: P) -> Iterator[P]:
    """*process* started, and stopped again however the block ends."""
    process.start()
    try:
        yield process
    finally:
        process.stop()


def finish_hand(session: Session) -> None:
    """Play the current hand out: bots decide, people check or call."""
    while session.series.in_hand:
        if session.bot_to_act:
            session.bot_act()
        else:
            seat = session.human_to_act
            assert seat is not None
            session.act(seat, session.legal().passive)


def play_to(session: Session, number: int) -> None:
    """Play the session to the end of hand *number*, people checking or calling."""
    while session.series.hand_number < number or session.series.in_hand:
        if not session.series.in_hand:
            assert session.next_hand()
        finish_hand(session)


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """``feltro ARGS`` through :func:`feltro.cli.main` (what the console script runs):
    the exit status, stdout and stderr."""
    with pytest.raises(SystemExit) as exit_:
        main(list(args))
    out, err = capsys.readouterr()
    code = exit_.value.code
    return (code if isinstance(code, int) else 1), out, err


def english_data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh data folder in *tmp_path* (``FELTRO_DATA_DIR``), and English messages."""
    folder = tmp_path / "data"
    monkeypatch.setenv("FELTRO_DATA_DIR", str(folder))
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    return folder


def patch_full_screen(monkeypatch: pytest.MonkeyPatch, *, start_another: bool,
                      hands: int = 2) -> list[Any]:
    """Replace the full-screen game: each run plays *hands* hands (the person checks or calls)
    and leaves, as a player quitting would; with *start_another*, after dealing one more.
    Returns the list the apps run are appended to."""
    from feltro.tui.app import PlayApp

    apps: list[PlayApp] = []

    def run(self: PlayApp, *args: Any, **kwargs: Any) -> None:
        apps.append(self)
        session: Session = self.session
        for _ in range(hands):
            if not session.series.in_hand and not session.next_hand():
                return
            finish_hand(session)
            self.hand_ended(session)
        if start_another:
            session.next_hand()

    monkeypatch.setattr(PlayApp, "run", run)
    return apps


def play_bot_series(series: Series, bots: Mapping[int, Bot],
                    checked: Collection[str]) -> tuple[int, float]:
    """Play *series* to its end, each seat's decision by ``bots[seat]``; every answer of a bot
    named in *checked* must be legal (an assertion otherwise). Returns how many answers were
    checked and the slowest of them, in this thread's CPU seconds (other jobs on a shared
    machine do not count)."""
    decisions = 0
    slowest = 0.0
    while not series.is_over:
        hand = series.hand
        if hand is None or hand.is_over:
            series.next_hand()
            continue
        seating = series.seating
        assert seating is not None
        assert hand.to_act is not None
        bot = bots[seating.order[hand.to_act]]
        began = time.thread_time()
        answer = bot.act(hand.view(hand.to_act), hand.legal)
        if bot.name in checked:
            slowest = max(slowest, time.thread_time() - began)
            decisions += 1
            assert isinstance(answer, Action)
            assert answer in hand.legal, (bot.name, answer, hand.legal)
        series.act(answer)
    return decisions, slowest


def bot_series(kinds: Sequence[str], seed: int, checked: Collection[str],
               make: Callable[[str, random.Random], Bot] = make_bot,
               **config: Any) -> tuple[int, float, Series]:
    """A series of bots of *kinds* (``make(kind, rng)``, one ``Random(seed)`` for all) with
    *config* (``max_hands``, ``starting_stack``...) played out by :func:`play_bot_series`: the
    answers checked, the slowest of them (s) and the series."""
    series = Series(SeriesConfig.with_players(len(kinds), **config), seed)
    rng = random.Random(seed)
    bots = {seat: make(kinds[i], rng) for i, seat in enumerate(series.config.players)}
    decisions, slowest = play_bot_series(series, bots, checked)
    return decisions, slowest, series


def assert_legal_and_quick(mixes: Sequence[Sequence[str]], checked: Collection[str],
                           least: int, **options: Any) -> None:
    """A :func:`bot_series` of each of *mixes* (seeded 0, 1...): at least *least* answers of
    the *checked* kinds, every one legal, none slower than 200 ms of this thread's CPU."""
    total = 0
    slowest = 0.0
    for seed, kinds in enumerate(mixes):
        decisions, worst, _series = bot_series(kinds, seed, checked, **options)
        total += decisions
        slowest = max(slowest, worst)
    assert total >= least
    assert slowest < 0.2, f"slowest decision {slowest * 1000:.0f} ms"


def bots_play_hand(hand: Hand, seating: Seating, bot_of: Callable[[int], Bot],
                   act: Callable[[Action, int], object]) -> list[str]:
    """Play *hand* out, each decision by ``bot_of(seat)`` (an illegal answer replaced by check
    or fold, as the game does) and applied with ``act(action, seat)`` (a series, or its log).
    Returns why each replaced answer was replaced."""
    replaced: list[str] = []
    while not hand.is_over:
        position = hand.to_act
        assert position is not None
        seat = seating.order[position]
        action, why = checked_action(bot_of(seat), hand.view(position), hand.legal)
        if why is not None:
            replaced.append(why)
        act(action, seat)
    return replaced
