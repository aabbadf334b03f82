"""Blind levels (G7) in the browser: chosen on the create form (in their own fieldset, off by
default), and the level, the next and the countdown on the host page and the TV."""

from __future__ import annotations

from typing import Any

from browserkit import Server, new_context, wait_until
from flows import start_game, watch_errors


def test_levels_from_the_create_form_to_the_tv_G7(chromium: Any, server: Server) -> None:
    context = new_context(chromium, phone=False)
    page = context.new_page()
    errors: list[str] = []
    watch_errors(page, errors)
    page.goto(server.url)
    page.wait_for_selector("#create-form")
    assert page.locator("#t-levels").input_value() == ""  # fixed blinds by default (G5)
    assert page.locator("#t-levels-details").is_hidden()
    page.fill("#t-seats", "3")
    page.select_option("#t-levels", "turbo")
    page.fill("#t-level-length", "2")
    page.fill("#t-antes-from", "2")
    page.click("#create")
    page.wait_for_url("**/host/**")
    table_id = page.url.split("/host/")[1].split("#")[0]
    page.wait_for_selector("#net[data-status='online']")
    for _ in range(3):
        page.click("#bot-form button[type=submit]")
    wait_until(lambda: page.locator(".admin-seats li[data-seat]").count() == 3,
               what="three bots")
    start_game(page)
    screen = new_context(chromium, phone=False).new_page()
    screen.goto(f"{server.url}/table/{table_id}")
    # Hand 1 of 2 at level 1; the next level has antes (antes from level 2).
    wait_until(lambda: "Level 1: 1/2 · next 2/4 ante 1 after 1 more hand"
               in screen.locator("#main").inner_text(), what="the level on the TV")
    wait_until(lambda: "Level" in page.locator("[data-level]").inner_text(), what="host level")
    assert errors == []
