"""What a person does on the pages, as functions the browser tests share."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from browserkit import Frames, Server, new_context, pump, record_frames, wait_until

if TYPE_CHECKING:  # imported only for types: collecting this module needs no Playwright
    from playwright.sync_api import Browser, BrowserContext, Page

__all__ = ["Phone", "host_page", "join", "play_turn", "recorded_table_screen", "seat_players",
           "start_game", "table_screen"]


@dataclass
class Phone:
    """One player's phone: its own browser context (storage), page and recorded frames."""

    name: str
    context: BrowserContext
    page: Page
    frames: Frames
    errors: list[str] = field(default_factory=list)

    def close(self) -> None:
        self.context.close()


def watch_errors(page: Page, errors: list[str]) -> None:
    page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
    page.on("console", lambda msg: errors.append(f"console: {msg.text}")
            if msg.type == "error" and "WebSocket" not in msg.text else None)


def host_page(browser: Browser, server: Server, table: dict[str, Any], *, phone: bool = False,
              lang: str = "en") -> tuple[Page, Frames, list[str]]:
    """The host page opened from the host link (the host's own laptop, by default)."""
    context = new_context(browser, phone=phone, lang=lang)
    page = context.new_page()
    frames = record_frames(page, "host")
    errors: list[str] = []
    watch_errors(page, errors)
    page.goto(f"{server.url}/host/{table['table_id']}#{table['host_token']}")
    page.wait_for_selector("#net[data-status='online']")
    return page, frames, errors


def table_screen(browser: Browser, server: Server, table: dict[str, Any],
                 **options: Any) -> Page:
    """The table's screen (the TV) on a laptop of its own, once online; *options* for its
    browser context (a ``viewport``...)."""
    page = new_context(browser, phone=False, **options).new_page()
    _open_table(page, server, table)
    return page


def recorded_table_screen(browser: Browser, server: Server,
                          table: dict[str, Any]) -> tuple[Page, Frames]:
    """:func:`table_screen` with every frame it receives recorded (to check its secrecy)."""
    page = new_context(browser, phone=False).new_page()
    frames = record_frames(page, "table screen")
    _open_table(page, server, table)
    return page, frames


def _open_table(page: Page, server: Server, table: dict[str, Any]) -> None:
    page.goto(f"{server.url}/table/{table['table_id']}")
    page.wait_for_selector("#net[data-status='online']")


def join(browser: Browser, server: Server, table: dict[str, Any], name: str, *,
         lang: str = "en") -> Phone:
    """A phone opens the join link, types a name and asks for a seat."""
    context = new_context(browser, lang=lang)
    page = context.new_page()
    frames = record_frames(page, name)
    phone = Phone(name, context, page, frames)
    watch_errors(page, phone.errors)
    page.goto(f"{server.url}/join/{table['table_id']}")
    page.fill("#name", name)
    page.click("#ask")
    page.wait_for_url(f"**/play/{table['table_id']}#*")
    page.wait_for_selector("#net[data-status='online']")
    return phone


def add_bots(host: Page, names: list[str], kind: str = "station") -> None:
    """The host seats a bot of *kind* under each of *names*, waiting for each to appear."""
    for name in names:
        host.select_option("#bot-kind", kind)
        host.fill("#bot-name", name)
        host.click("#bot-form button[type=submit]")
        host.locator(".admin-seats strong", has_text=name).wait_for()


def seat_players(host: Page, names: list[str]) -> None:
    """The host accepts every pending request (waits for each to arrive)."""
    for name in names:
        button = host.get_by_role("button", name=f"Accept {name}")
        button.wait_for()
        button.click()
        host.locator(".admin-seats strong", has_text=name).wait_for()


def start_game(host: Page) -> None:
    host.click("#start")
    host.wait_for_selector("#pause, #resume, .results")


def play_turn(phone: Phone, rng: random.Random, *, aggressive: float = 0.35) -> bool:
    """If it is this phone's turn, press a button the way a player would; returns whether it
    acted. Aggressive players shove (quick size "all-in") to make series short."""
    page = phone.page
    panel = page.locator("#actions.live")
    if panel.count() == 0:
        return False
    buttons = panel.locator("button.act:not([disabled])")
    if buttons.count() == 0:
        return False
    roll = rng.random()
    try:
        if roll < aggressive and panel.locator("button.quick[data-size='max']").count():
            panel.locator("button.quick[data-size='max']").click(timeout=2000)
            panel.locator("button.act.raise").click(timeout=2000)
        elif roll < aggressive + 0.1 and panel.locator("button.act.raise").count():
            panel.locator("button.act.raise").click(timeout=2000)
        elif roll < 0.9 or panel.locator("button.act.check").count():
            panel.locator("button.act.check, button.act.call").first.click(timeout=2000)
        else:
            panel.locator("button.act.fold").click(timeout=2000)
    except Exception:  # the turn moved on while clicking (a timeout, a refresh): try again
        return False
    return True


def play_until(phones: list[Phone], done: Any, rng: random.Random, *, timeout: float = 180.0,
               aggressive: float = 0.35, hold: Any = None) -> int:
    """Every phone plays its turns until ``done()``; returns the number of actions taken.
    A phone for which ``hold(phone)`` is true waits instead of acting."""
    actions = 0
    deadline = time.monotonic() + timeout
    while not done():
        if time.monotonic() > deadline:
            raise AssertionError("the game did not reach the expected point in time")
        acted = False
        for phone in phones:
            if hold is not None and hold(phone):
                continue
            if play_turn(phone, rng, aggressive=aggressive):
                actions += 1
                acted = True
        if not acted:
            pump(0.05)
    return actions


def wait_online(page: Page, timeout: float = 20.0) -> None:
    wait_until(lambda: page.locator("#net[data-status='online']").count() > 0, timeout,
               what="the page to be back online")
