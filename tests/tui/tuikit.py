"""Helpers for the terminal game's tests: build an app on a fixed seed and clock, read the
screen as text, wait for the game to settle and play it by keys."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from rich.console import Console, RenderableType
from textual.pilot import Pilot
from textual.widgets import RichLog, Static

from feltro.series import Series, SeriesConfig
from feltro.session import MemoryDriver, Player, Session
from feltro.tui.app import PlayApp

NOW = datetime(2030, 5, 17, 21, 0, 0)
"""The tests' fixed clock (a Friday evening)."""

STABLE = ("act", "hand_over", "series_over", "privacy")


def make_session(
    humans: Sequence[str] = ("Ana",),
    bots: Sequence[str] = ("rules", "rules", "rules"),
    seed: int = 4,
    **options: Any,
) -> Session:
    """People first (seats 1..), then bots named Rui, Eva, Tomé, ..."""
    names = ["Rui", "Eva", "Tomé", "Bia", "Caio", "Inês", "Zeca", "Lia", "Duda"]
    players = [Player(i + 1, name) for i, name in enumerate(humans)]
    players += [Player(len(humans) + i + 1, names[i], bot=level)
                for i, level in enumerate(bots)]
    config = SeriesConfig(players={p.seat: p.name for p in players}, **options)
    return Session(MemoryDriver(Series(config, seed)), players)


def make_app(session: Session | None = None, lang: str = "en", **options: Any) -> PlayApp:
    """The game with bots acting at once and the clock stopped at :data:`NOW`."""
    return PlayApp(session or make_session(), lang=lang, bot_delay=0, clock=lambda: NOW,
                   **options)


def plain(renderable: RenderableType, width: int = 80) -> str:
    """A renderable as plain text."""
    console = Console(width=width, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(renderable)
    return console.export_text()


def screen_text(app: PlayApp) -> str:
    """Everything the current screen shows, as plain text (panels, statics, the log)."""
    parts = []
    for widget in app.screen.query(Static):
        parts.append(plain(widget.content))  # type: ignore[arg-type]
    for log in app.screen.query(RichLog):
        parts.append("\n".join(strip.text for strip in log.lines))
    return "\n".join(parts)


def on_screen(app: PlayApp, *phrases: str) -> str:
    """The current screen's text, which must show every one of *phrases*."""
    text = screen_text(app)
    missing = [phrase for phrase in phrases if phrase not in text]
    assert not missing, f"not on the screen: {missing}\n{text}"
    return text


async def settle(pilot: Pilot[Any], app: PlayApp) -> str:
    """Let the game run until it waits for a person (or has ended); returns the mode."""
    for _ in range(100):
        await pilot.pause()
        if app.table.mode in STABLE and not app.table._bot_timer_pending:
            break
    return app.table.mode


async def play_to_the_end(pilot: Pilot[Any], app: PlayApp, presses: int) -> None:
    """Play the series out through the keyboard: raise the pot (key 4) when raising is open,
    else call; Enter past every pause. At most *presses* keys."""
    for _ in range(presses):
        mode = await settle(pilot, app)
        if mode == "series_over":
            return
        if mode == "act":
            await pilot.press("4" if app.session.legal().can_raise else "c")
        else:
            await pilot.press("enter")


async def call_until(pilot: Pilot[Any], app: PlayApp, presses: int,
                     done: Callable[[str], bool] = lambda mode: False) -> str:
    """Check or call at every turn and Enter past every pause until ``done(mode)`` holds or
    the series is over, at most *presses* keys: the mode then."""
    for _ in range(presses):
        mode = await settle(pilot, app)
        if mode == "series_over" or done(mode):
            return mode
        await pilot.press("c" if mode == "act" else "enter")
    return await settle(pilot, app)
