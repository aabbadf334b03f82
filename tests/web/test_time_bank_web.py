"""The time bank on the create form, and timeouts named as timeouts (issue 23, item 5): the
host sees and sets the bank (0: none, so "5 s" means 5 s), and a decision the server played
when the time ran out reads "ran out of time" on the phone's log and on the table screen."""

from __future__ import annotations

from typing import Any

from browserkit import Server, new_context, record_frames, wait_until
from flows import add_bots, join, seat_players, start_game, table_screen


def test_time_bank_set_on_the_form_and_timeouts_named(chromium: Any, server: Server) -> None:
    laptop = new_context(chromium, phone=False).new_page()
    frames = record_frames(laptop, "host")
    laptop.goto(f"{server.url}/")
    laptop.wait_for_selector("#create-form")
    assert laptop.locator("#t-bank").input_value() == "60"  # the server's default, shown
    assert "0" in laptop.locator("label[for=t-bank]").inner_text()
    laptop.fill("#t-seats", "2")
    laptop.fill("#t-timer", "5")
    laptop.fill("#t-bank", "0")
    assert laptop.locator("#t-reactions").is_checked()
    laptop.click("#create")
    laptop.wait_for_url("**/host/**")
    laptop.wait_for_selector("#net[data-status='online']")
    settings = frames.states()[-1]["table"]["settings"]
    assert (settings["action_seconds"], settings["bank_seconds"], settings["bank_refill_seconds"],
            settings["bank_max_seconds"]) == (5, 0, 0, 0)
    assert settings["reactions"] is True  # the form's "quick reactions", on by default
    table = {"table_id": laptop.url.split("/host/")[1].split("#")[0]}

    add_bots(laptop, ["Robo"])
    bruno = join(chromium, server, table, "Bruno")
    seat_players(laptop, ["Bruno"])
    tv = table_screen(chromium, server, table)
    start_game(laptop)

    # Bruno never acts: 5 s and no bank later the server checks or folds for him.
    timer = tv.locator(".seat [data-timer]")
    timer.wait_for(timeout=20_000)
    state = [s for s in frames.states() if s["table"]["timer"]][-1]["table"]["timer"]
    assert state["ends_at"] == state["action_ends_at"]  # no bank after the action time
    log = bruno.page.locator(".log")
    wait_until(lambda: "Bruno ran out of time" in (log.text_content() or ""), 20,
               what="the timeout in the phone's log")
    wait_until(lambda: "Bruno ran out of time" in tv.locator(".oval").inner_text(), 20,
               what="the timeout on the table screen")
    bruno.close()
