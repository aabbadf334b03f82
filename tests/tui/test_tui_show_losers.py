"""``feltro play``'s V key: show my cards at the showdown even when I lose (P8, D11), the
seated series' own choice (``Session.set_show_losers``), in the footer and the help, and kept in
the series log so that a series resumed after ``kill -9`` keeps it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from tuikit import make_app, make_session, screen_text, settle

from feltro.events import CardsMucked, CardsShown, PotAwarded
from feltro.i18n import LANGUAGES, t
from feltro.series_log import SeriesStore, read_records
from feltro.session import Player, Session
from feltro.tui.screens import RulesScreen

pytestmark = pytest.mark.asyncio


async def _showdowns(session: Session, press_v: bool, hands: int) -> list[tuple[bool, bool]]:
    """Call every bet for *hands* hands (pressing V at the first turn when *press_v*); at each
    hand the person played to a showdown without winning a pot: (their cards shown, mucked)."""
    app = make_app(session)
    seen: list[tuple[bool, bool]] = []
    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(400):
            mode = await settle(pilot, app)
            if mode == "act" and press_v:
                press_v = False
                await pilot.press("v")
                await pilot.pause()
                assert session.series.show_losers == {1}
            if mode == "hand_over":
                events = session.public_view().events
                me = session.position_of(1)
                won = any(isinstance(e, PotAwarded) and me in e.winners for e in events)
                shown = any(isinstance(e, CardsShown) and e.position == me for e in events)
                mucked = any(isinstance(e, CardsMucked) and e.position == me for e in events)
                if (shown or mucked) and not won:
                    seen.append((shown, mucked))
                if session.series.hand_number >= hands or session.series.is_over:
                    break
            await pilot.press("c" if mode == "act" else "enter")
    return seen


async def test_v_shows_my_losing_hands_at_the_showdown_P8() -> None:
    # The same seed and the same keys: without V a losing hand of the person is mucked at a
    # showdown; after V every losing hand they take to a showdown is shown (P8, D11).
    mucking = await _showdowns(make_session(seed=11), press_v=False, hands=12)
    assert any(mucked and not shown for shown, mucked in mucking), mucking
    showing = await _showdowns(make_session(seed=11), press_v=True, hands=12)
    assert showing, "the person never lost a showdown"
    assert all(shown and not mucked for shown, mucked in showing), showing


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_v_toggles_in_the_footer_and_says_so_P8(lang: str) -> None:
    session = make_session(seed=4)
    app = make_app(session, lang=lang)
    async with app.run_test(size=(100, 30)) as pilot:
        assert await settle(pilot, app) == "act"
        text = screen_text(app)
        assert t("tui.show_losers.key_off", lang) in text
        await pilot.press("v")
        await pilot.pause()
        assert session.series.show_losers == {1}
        text = " ".join(screen_text(app).split())  # the message may wrap
        assert t("tui.show_losers.key_on", lang) in text
        assert t("tui.show_losers.now_on", lang) in text
        assert app.table.mode == "act"  # a choice, not an action: still the person's turn
        await pilot.press("v")
        await pilot.pause()
        assert session.series.show_losers == frozenset()
        text = " ".join(screen_text(app).split())
        assert t("tui.show_losers.key_off", lang) in text
        assert t("tui.show_losers.now_off", lang) in text
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, RulesScreen)
        help_text = " ".join(screen_text(app).split())
        for key in ("help.show", "help.show_losers"):
            assert " ".join(t(key, lang).split()) in help_text, key


async def test_v_does_nothing_behind_the_hot_seat_privacy_screen_P8() -> None:
    # Hot seat: only the person whose cards are on screen chooses, never someone else's seat.
    session = make_session(humans=("Ana", "Rui"), bots=("rules",), seed=4)
    app = make_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        assert await settle(pilot, app) == "privacy"
        await pilot.press("v")
        await pilot.pause()
        assert session.series.show_losers == frozenset()


# The child plays ``feltro play``'s screen over a durable series log, presses V at its first
# turn, says so and waits to be killed (-9): nothing is closed or flushed by hand.
CHILD = """
import asyncio, sys, time
from feltro.series import SeriesConfig
from feltro.series_log import SeriesStore
from feltro.session import Player, Session
from feltro.tui.app import PlayApp

players = [Player(1, "Ana"), Player(2, "Rui", bot="rules"), Player(3, "Eva", bot="rules")]
store = SeriesStore.create(sys.argv[1], SeriesConfig(players={p.seat: p.name for p in players}),
                           series_seed=7)
session = Session(store, players)

async def main():
    app = PlayApp(session, lang="en", bot_delay=0)
    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(100):
            await pilot.pause()
            if app.table.mode == "act":
                break
        await pilot.press("v")
        await pilot.pause()
        print("TOGGLED", sorted(store.series.show_losers), flush=True)
        time.sleep(600)

asyncio.run(main())
"""


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
async def test_v_survives_kill9_and_resume_P8(tmp_path: Path) -> None:
    path = tmp_path / "series.sqlite"
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(path)], stdout=subprocess.PIPE,
                             text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        assert child.stdout is not None
        line = child.stdout.readline()
        assert line.strip() == "TOGGLED [1]", line
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
    assert [r.body for r in read_records(path) if r.kind == "show_losers"] == [
        {"seat": 1, "on": True}]
    store = SeriesStore.open(path)
    try:
        assert store.series.show_losers == {1}
        players = [Player(1, "Ana"), Player(2, "Rui", bot="rules"),
                   Player(3, "Eva", bot="rules")]
        app = make_app(Session(store, players))
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, app)
            assert t("tui.show_losers.key_on", "en") in screen_text(app)
    finally:
        store.close()

