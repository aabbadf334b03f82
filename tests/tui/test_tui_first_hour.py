"""The terminal game as a new player found it (issue 10, part 5): the log panel scrolls at
80x24, the showdown says when a kicker decides and is shown when the person mucked, heads-up
the small blind is logged first, and hot seat asks to pass the keyboard only to someone else."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from rich.console import Group
from rich.text import Text
from textual.containers import VerticalScroll
from textual.pilot import Pilot
from tuikit import make_app, make_session, plain, screen_text, settle

from feltro.evaluator import evaluate
from feltro.events import CardsMucked, CardsShown
from feltro.session import Session
from feltro.tui import render
from feltro.tui.app import PlayApp
from feltro.tui.screens import LogScreen, PrivacyScreen, ShowdownScreen
from playkit import play_to


@pytest.mark.asyncio
async def test_the_log_panel_scrolls_at_80x24() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        lines = [Text(f"line {i}") for i in range(40)]
        app.show(LogScreen(Group(*lines), "Esc"))
        await pilot.pause()
        await pilot.pause()
        body = app.screen.query_one(VerticalScroll)
        assert body.max_scroll_y > 0
        assert body.scroll_y == body.max_scroll_y  # opens on the latest lines
        hint = app.screen.query_one(".panel-hint")
        panel = app.screen.query_one(".panel")
        assert hint.region.height == 1  # the keys to scroll stay in view
        assert hint.region.bottom < panel.region.bottom <= 24
        await pilot.press("home")
        assert body.scroll_y == 0
        await pilot.press("down")
        await pilot.press("pagedown")
        assert body.scroll_y > 1
        await pilot.press("end")
        assert body.scroll_y == body.max_scroll_y


@pytest.mark.asyncio
async def test_l_opens_the_whole_log_with_its_last_line_in_view() -> None:
    session = make_session(seed=3)
    play_to(session, 22)  # a hand to the river with a showdown
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("escape")
        await pilot.press("l")
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, LogScreen)
        body = app.screen.query_one(VerticalScroll)
        assert body.scroll_y == body.max_scroll_y
        assert "PgDn" in screen_text(app)


def test_the_showdown_says_when_a_kicker_decides__P3() -> None:
    session = make_session(seed=3)
    play_to(session, 22)
    text = plain(render.showdown(session, "en"))
    assert "High card, ace" in text
    assert "Rui (bot) wins with J kicker" in text
    assert "ganha com o kicker J" in plain(render.showdown(session, "pt-PT"))
    assert "vence com o kicker J" in plain(render.showdown(session, "pt-BR"))


def test_kicker_over__P3() -> None:
    assert evaluate("Ah Kd Ac 7s 5h 3c 2d").kicker_over(evaluate("As Qd Ac 7s 5h 3c 2d")) == 11
    assert evaluate("Ah Ad Kh 7c 5s").kicker_over(evaluate("Kc Kd Ah 7d 5c")) is None
    assert evaluate("Ah Ad Kh 7c 5s").kicker_over(evaluate("Ac As Kd 7d 5c")) is None  # a tie
    assert evaluate("9h 9d 5h 5c Ks").kicker_over(evaluate("9s 9c 5d 5s Qs")) == 11
    assert evaluate("2h 3d 4h 5c 6s").kicker_over(evaluate("As 2c 3d 4s 5s")) is None


@pytest.mark.asyncio
async def test_the_showdown_is_shown_when_the_person_mucks() -> None:
    session = make_session(seed=1)
    app = make_app(session)
    async with app.run_test() as pilot:
        for _ in range(50):
            mode = await settle(pilot, app)
            if mode == "hand_over" or isinstance(app.screen, ShowdownScreen):
                break
            await pilot.press("c")
        events = session.public_view().events
        mine = session.position_of(1)
        assert any(isinstance(e, CardsMucked) and e.position == mine for e in events)
        assert sum(isinstance(e, CardsShown) for e in events) == 1
        assert isinstance(app.screen, ShowdownScreen)
        assert "mucked" in screen_text(app)


def test_heads_up_logs_the_small_blind_first__D6() -> None:
    session = make_session(bots=("rules",), seed=4)
    session.next_hand()
    lines = [plain(line).strip() for line in render.hand_log(session, "en", 1)]
    assert lines[1:3] == ["Rui (bot): small blind 1", "Ana: big blind 2"]


async def _hot_seat_turns(pilot: Pilot[Any], app: PlayApp, session: Session,
                          turns: int) -> list[tuple[int, bool]]:
    """(seat, asked to pass the keyboard) for each of the people's next *turns*."""
    seen: list[tuple[int, bool]] = []
    while len(seen) < turns:
        mode = await settle(pilot, app)
        if mode == "hand_over":
            await pilot.press("enter")
            continue
        seat = session.human_to_act
        assert seat is not None
        asked = isinstance(app.screen, PrivacyScreen)
        seen.append((seat, asked))
        if asked:
            await pilot.press("enter")
            await settle(pilot, app)
        assert app.table.viewer == seat
        await pilot.press("c")
    return seen


@pytest.mark.asyncio
async def test_hot_seat_passes_the_keyboard_only_to_someone_else() -> None:
    session = make_session(humans=("Ana", "Rui"), bots=("rules",), seed=3)
    app = make_app(session)
    async with app.run_test() as pilot:
        seen = await _hot_seat_turns(pilot, app, session, 12)
    assert seen[0][1]
    for (before, _), (seat, asked) in itertools.pairwise(seen):
        assert asked == (seat != before), seen
    assert any(seat == before for (before, _), (seat, _) in itertools.pairwise(seen))
