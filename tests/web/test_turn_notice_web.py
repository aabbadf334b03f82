"""The your-turn notice vibrates the phone (issue 23, item 3): with ``navigator.vibrate``
stubbed in the page, a player's turn calls it when "Vibrate on my turn" is on (the default)
and never when the player turned it off in the settings."""

from __future__ import annotations

import contextlib
from typing import Any

from browserkit import Server, shot, wait_until
from flows import Phone, add_bots, host_page, join, seat_players, start_game

# A stub that records each call (headless Chromium has no vibrator to notice).
VIBRATE = """window.__vibrations = [];
Object.defineProperty(Navigator.prototype, "vibrate", {
  configurable: true,
  value(pattern) { window.__vibrations.push(pattern); return true; },
});"""


def _settings(phone: Phone, *, vibrate: bool) -> None:
    """The player opens the settings (a touch: the browser now allows vibration), finds
    "Vibrate on my turn" on by default and leaves it on or turns it off."""
    page = phone.page
    page.click("#settings-button")
    box = page.locator("#pref-turn-vibrate")
    assert box.is_checked(), "vibration is on unless the player turns it off"
    if not vibrate:
        box.uncheck()
    page.click("#settings-close")


def test_turn_vibrates_when_the_preference_is_on_never_when_off(chromium: Any,
                                                                  server: Server) -> None:
    table = server.create_table(seats=3, stack=200, bot_seconds=0.1, max_hands=2)
    host, _frames, _errors = host_page(chromium, server, table)
    add_bots(host, ["Robo"])
    on = join(chromium, server, table, "Bruno")
    off = join(chromium, server, table, "Carla", lang="pt-BR")
    seat_players(host, ["Bruno", "Carla"])
    for phone in (on, off):
        phone.context.add_init_script(VIBRATE)
        phone.page.reload()
        phone.page.wait_for_selector("#net[data-status='online']")
    _settings(on, vibrate=True)
    _settings(off, vibrate=False)
    start_game(host)
    turns = {"Bruno": 0, "Carla": 0}

    def both_had_turns() -> bool:
        for phone in (on, off):
            button = phone.page.locator("#actions.live button.act.check, "
                                        "#actions.live button.act.call")
            if button.count():
                if phone.name == "Bruno" and turns["Bruno"] == 0:
                    shot(phone.page, "turn-notice-vibrate-on-360x740")
                with contextlib.suppress(Exception):  # the turn moved on while clicking
                    button.first.click(timeout=1000)
                    turns[phone.name] += 1
        return min(turns.values()) >= 2

    wait_until(both_had_turns, 60, what="two turns for each phone")
    calls_on = on.page.evaluate("window.__vibrations")
    calls_off = off.page.evaluate("window.__vibrations")
    assert len(calls_on) >= 1, calls_on
    assert all(pattern == [80, 60, 80] for pattern in calls_on), calls_on
    assert calls_off == [], calls_off
    # The choice is remembered on the phone (reloads keep it).
    assert off.page.evaluate("localStorage.getItem('feltro.turn-vibrate')") == "0"
    on.close()
    off.close()
