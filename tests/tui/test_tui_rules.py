"""The Rules screen of the terminal game: ``?`` opens the keys and the whole house rules,
scrollable at 80x24 in the player's language; after a refusal that cites a rule, ``?`` opens
that rule; at the end of a series, ``?`` opens the rule that ended it."""

from __future__ import annotations

from typing import Any

import pytest
from textual.containers import VerticalScroll
from textual.pilot import Pilot
from textual.widgets import Static
from tuikit import make_app, make_session, play_to_the_end, screen_text, settle

from feltro.tui.app import PlayApp
from feltro.tui.screens import RulesScreen, SeriesOverScreen

pytestmark = pytest.mark.asyncio


async def _open_rules(pilot: Pilot[Any], app: PlayApp) -> RulesScreen:
    """Press ? and wait for the rules to open."""
    await pilot.press("question_mark")
    await pilot.pause()
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, RulesScreen)
    return screen


async def _my_turn(pilot: Pilot[Any], app: PlayApp) -> None:
    for _ in range(50):
        mode = await settle(pilot, app)
        if mode == "act" and app.screen is app.table:
            return
        await pilot.press("enter")
    raise AssertionError("no turn came")


def _top_rule(screen: RulesScreen) -> str | None:
    """The id of the first rule whose top is in view."""
    body = screen.query_one("#rules-body", VerticalScroll)
    for widget in screen.query(".rule").results(Static):
        if widget.virtual_region.y >= body.scroll_y:
            return (widget.id or "").removeprefix("rule-")
    return None


@pytest.mark.parametrize(("lang", "title", "rule"), [
    ("en", "The house rules of feltro", "Freezeout"),
    ("pt-PT", "As regras da casa do feltro", "ecrã"),
    ("pt-BR", "As regras da casa do feltro", "tela"),
])
async def test_question_mark_opens_keys_and_rules_in_the_language(lang: str, title: str,
                                                                  rule: str) -> None:
    app = make_app(make_session(seed=8), lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await _my_turn(pilot, app)
        screen = await _open_rules(pilot, app)
        text = screen_text(app)
        assert title in text
        assert rule in text
        body = screen.query_one("#rules-body", VerticalScroll)
        assert body.scroll_y == 0
        assert body.region.bottom <= 24
        await pilot.press("question_mark")
        assert app.screen is app.table


async def test_the_rules_scroll_at_80x24_to_the_last_example__X11() -> None:
    app = make_app(make_session(seed=8))
    async with app.run_test(size=(80, 24)) as pilot:
        await _my_turn(pilot, app)
        screen = await _open_rules(pilot, app)
        body = screen.query_one("#rules-body", VerticalScroll)
        assert body.max_scroll_y > 100  # far more than one screen
        await pilot.press("pagedown")
        await pilot.pause()
        assert body.scroll_y > 0
        await pilot.press("down")
        moved = body.scroll_y
        await pilot.press("up")
        await pilot.pause()
        assert body.scroll_y < moved
        await pilot.press("end")
        await pilot.pause()
        assert body.scroll_y == body.max_scroll_y
        last = screen.query_one("#rule-X11", Static)
        assert body.scroll_y <= last.virtual_region.y < body.scroll_y + body.size.height


async def test_a_refused_check_offers_its_rule_and_question_mark_opens_it__B3() -> None:
    session = make_session(seed=8)
    app = make_app(session, lang="pt-PT")
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(30):
            await _my_turn(pilot, app)
            if not session.legal().can_check:
                break
            await pilot.press("c")
        else:
            pytest.skip("never faced a bet")
        await pilot.press("x")  # check, with a bet to call: refused (B3)
        text = screen_text(app)
        assert "(B3)" in text
        assert "? lê a regra B3" in text
        screen = await _open_rules(pilot, app)
        assert screen.focus_rule == "B3"
        assert _top_rule(screen) == "B3"
        assert "B3 · As jogadas" in screen_text(app)
        await pilot.press("escape")
        assert app.screen is app.table


async def test_the_end_of_a_series_opens_the_rule_that_ended_it__G4() -> None:
    session = make_session(bots=("montecarlo",), seed=5, starting_stack=20)
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await play_to_the_end(pilot, app, 400)
        assert isinstance(app.screen, SeriesOverScreen)
        assert "? reads rule G4" in screen_text(app)
        screen = await _open_rules(pilot, app)
        assert _top_rule(screen) == "G4"
        await pilot.press("escape")
        assert isinstance(app.screen, SeriesOverScreen)
