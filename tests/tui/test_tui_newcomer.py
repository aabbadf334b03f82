"""The terminal game as a newcomer found it again (issue 24): bots' names whole at 100 columns,
nothing of the table showing around a panel, one panel at a time when a hand ends while the
standings are open, and the standings of the hand just played."""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot
from tuikit import NOW, make_app, make_session, screen_text, settle

from feltro.tui.app import PlayApp
from feltro.tui.screens import ShowdownScreen, StandingsScreen, _Panel


def screen_lines(app: PlayApp) -> list[str]:
    """What the terminal shows, row by row (every layer composited, as a person sees it)."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


@pytest.mark.asyncio
@pytest.mark.parametrize("lang", ["en", "pt-PT", "pt-BR"])
async def test_bot_names_are_whole_at_100_columns(lang: str) -> None:
    app = make_app(make_session(bots=("rules",) * 5, seed=3), lang=lang)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        seats = "\n".join(screen_lines(app)[1:8])
    for name in ("Rui", "Eva", "Tomé", "Bia", "Caio"):
        assert f"{name} (bot)" in seats, seats
    assert "…" not in seats


@pytest.mark.asyncio
@pytest.mark.parametrize("size", [(80, 24), (100, 30)])
async def test_nothing_of_the_table_shows_around_a_panel(size: tuple[int, int]) -> None:
    app = make_app(make_session(bots=("rules",) * 5, seed=3))
    async with app.run_test(size=size) as pilot:
        await settle(pilot, app)
        await pilot.press("s")
        await pilot.pause()
        panel = app.screen.query_one(".panel").region
        lines = screen_lines(app)
    outside = [line[:panel.x] + line[panel.right:] for line in lines[panel.y:panel.bottom]]
    outside += lines[:panel.y] + lines[panel.bottom:]
    assert all(not part.strip() for part in outside), outside


async def _standings_open_when_the_hand_ends(pilot: Pilot[Any], app: PlayApp) -> None:
    """The person folds, opens the standings, and the bots play the hand out meanwhile."""
    for _ in range(200):
        await pilot.pause(0.02)
        if app.table.mode == "act":
            break
    await pilot.press("f")
    if app.table.mode == "confirm_fold":
        await pilot.press("f")
    await pilot.press("s")
    assert isinstance(app.screen, StandingsScreen)
    for _ in range(200):
        await pilot.pause(0.02)
        if app.table.mode == "hand_over":
            break
    await pilot.pause(0.1)


@pytest.mark.asyncio
async def test_a_showdown_does_not_stack_on_the_standings() -> None:
    session = make_session(seed=2)  # the hand goes to a showdown among the bots
    app = PlayApp(session, lang="en", bot_delay=0.3, clock=lambda: NOW)
    async with app.run_test(size=(80, 24)) as pilot:
        await _standings_open_when_the_hand_ends(pilot, app)
        panels = [type(s).__name__ for s in app.screen_stack if isinstance(s, _Panel)]
        assert panels == ["ShowdownScreen"]
        assert isinstance(app.screen, ShowdownScreen)


@pytest.mark.asyncio
async def test_standings_open_at_the_end_of_a_hand_are_of_that_hand() -> None:
    session = make_session(seed=1)  # the hand ends without a showdown
    app = PlayApp(session, lang="en", bot_delay=0.3, clock=lambda: NOW)
    async with app.run_test(size=(80, 24)) as pilot:
        await _standings_open_when_the_hand_ends(pilot, app)
        assert session.series.stacks != dict.fromkeys(session.players, 200)
        panels = [s for s in app.screen_stack if isinstance(s, _Panel)]
        assert len(panels) <= 1
        if panels:  # still open: showing the stacks after the hand
            assert isinstance(app.screen, StandingsScreen)
            rows = [line.split() for line in screen_text(app).splitlines()]
            shown = {row[1]: int(row[-2]) for row in rows if len(row) > 3 and row[0].isdigit()}
            assert shown == {session.players[r.seat].name: r.stack
                             for r in session.standings()}, screen_text(app)
