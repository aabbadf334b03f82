"""Snapshots of the main screens at 80x24, in English and Portuguese (pytest-textual-snapshot).

Seeds, bots and the clock are fixed, so each screen is the same every run. After a deliberate
change to the look, review the new pictures and accept them with ``--snapshot-update``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

import pytest
from textual.pilot import Pilot
from tuikit import NOW, make_app, make_session, settle

from feltro.tui.app import PlayApp
from feltro.tui.screens import ShowdownScreen

Compare = Callable[..., bool]


def _app(lang: str, **session: Any) -> PlayApp:
    return make_app(make_session(**session), lang=lang)


async def _to_decision(pilot: Pilot[Any]) -> None:
    app: PlayApp = pilot.app  # type: ignore[assignment]
    await settle(pilot, app)


def _press_until(done: Callable[[PlayApp], bool], key_for: Callable[[PlayApp], str],
                 ) -> Callable[[Pilot[Any]], Awaitable[None]]:
    async def run(pilot: Pilot[Any]) -> None:
        app: PlayApp = pilot.app  # type: ignore[assignment]
        for _ in range(300):
            await settle(pilot, app)
            if done(app):
                return
            await pilot.press(key_for(app))
        raise AssertionError("the screen never came")
    return run


def _call_or_next(app: PlayApp) -> str:
    return "c" if app.table.mode == "act" else "enter"


@pytest.mark.parametrize("lang", ["en", "pt-PT", "pt-BR"])
def test_table_at_a_decision(snap_compare: Compare, lang: str) -> None:
    app = _app(lang, seed=9, stop_at=NOW + timedelta(hours=2, minutes=30))
    assert snap_compare(app, run_before=_to_decision)


@pytest.mark.parametrize("lang", ["en", "pt-PT"])
def test_typing_an_amount_below_the_minimum(snap_compare: Compare, lang: str) -> None:
    app = _app(lang, seed=9)
    assert snap_compare(app, press=["r", "1", "enter"], run_before=_to_decision)


@pytest.mark.parametrize("lang", ["en", "pt-PT"])
def test_showdown(snap_compare: Compare, lang: str) -> None:
    app = _app(lang, bots=("random", "random"), seed=1)
    assert snap_compare(app, run_before=_press_until(
        lambda a: isinstance(a.screen, ShowdownScreen), _call_or_next))


@pytest.mark.parametrize("lang", ["en", "pt-PT"])
def test_series_over(snap_compare: Compare, lang: str) -> None:
    app = _app(lang, bots=("montecarlo", "random"), seed=6, starting_stack=20)
    assert snap_compare(app, run_before=_press_until(
        lambda a: a.table.mode == "series_over",
        lambda a: ("4" if a.session.legal().can_raise else "c") if a.table.mode == "act"
        else "enter"))


@pytest.mark.parametrize("lang", ["en", "pt-BR"])
def test_hot_seat_privacy_screen(snap_compare: Compare, lang: str) -> None:
    app = _app(lang, humans=("Ana", "Rui"), bots=("rules",), seed=3)
    assert snap_compare(app, run_before=_to_decision)


@pytest.mark.parametrize("lang", ["en", "pt-PT"])
def test_terminal_too_small(snap_compare: Compare, lang: str) -> None:
    assert snap_compare(_app(lang, seed=9), terminal_size=(60, 20), run_before=_to_decision)
