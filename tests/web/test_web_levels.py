"""Blind levels (G7) in the browser: chosen on the create form (in their own fieldset, off by
default), the level, the next and the countdown on the phones, the host page and the TV, and
each hand's level at the start of its log."""

from __future__ import annotations

from typing import Any

from browserkit import Server, new_context, wait_until
from flows import add_bots, host_page, join, seat_players, start_game, table_screen, watch_errors


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


def test_phones_show_the_level_its_countdown_and_each_hands_level_en_pt_br_G7(
        chromium: Any, server: Server) -> None:
    """Levels by time: each phone, in its own language, shows the level now, the next (with its
    ante) and a countdown that runs between states; the hand log opens with the hand's level."""
    table = server.create_table(seats=2, levels="turbo", level_unit="minutes", level_length=5,
                                antes_from=2)
    host, _, host_errors = host_page(chromium, server, table)
    kate = join(chromium, server, table, "Kate")
    thiago = join(chromium, server, table, "Thiago", lang="pt-BR")
    seat_players(host, ["Kate", "Thiago"])
    start_game(host)
    words = [(kate, "Level 1: 1/2 · next 2/4 ante 1 in 4:", "Hand 1 is at level 1: 1/2"),
             (thiago, "Nível 1: 1/2 · próximo 2/4 ante 1 em 4:", "A mão 1 é do nível 1: 1/2")]
    for phone, level, hand_level in words:
        page = phone.page
        page.wait_for_selector("#hand-info [data-level]")
        wait_until(lambda: level in page.locator("#hand-info [data-level]").inner_text(),  # noqa: B023
                   what=f"the level on {phone.name}'s phone")
        page.click("#log-box summary")
        first = page.locator("#log li").first
        wait_until(lambda: first.inner_text() == hand_level, what="the hand's level")  # noqa: B023
        assert "hand-level" in (first.get_attribute("class") or "")
    # Nobody acts, so no state arrives: the countdown still runs on the phone (the tick).
    countdown = kate.page.locator("#hand-info [data-level]")
    before = countdown.inner_text()
    wait_until(lambda: countdown.inner_text() != before, timeout=5, what="the countdown to run")
    assert countdown.inner_text().startswith("Level 1: 1/2 · next 2/4 ante 1 in 4:")
    # The TV names the hand's level until its first action, with the level's countdown.
    tv = table_screen(chromium, server, table)
    wait_until(lambda: tv.locator(".last-action").inner_text() == "Hand 1 is at level 1: 1/2",
               what="the hand's level on the TV")
    assert "Level 1: 1/2 · next 2/4 ante 1 in 4:" in tv.locator(".hand-info").inner_text()
    # The host's log names the level too; the phones raised no error.
    wait_until(lambda: "Hand 1 is at level 1: 1/2" in host.locator("#host-log").inner_text(),
               what="the host's log")
    assert host_errors + kate.errors + thiago.errors == []


def test_the_replayer_names_each_hands_level_G7(chromium: Any, server: Server) -> None:
    """The night's hands to review (issue 23): hand 2 of a table whose level changes every
    hand is replayed with its own level, in the reader's language."""
    table = server.create_table(seats=2, levels="1/2, 2/4/1, 3/6", level_length=1,
                                max_hands=3)
    host, _, errors = host_page(chromium, server, table)
    add_bots(host, ["Robo", "Rita"])
    start_game(host)
    wait_until(lambda: server.api("GET", f"/api/tables/{table['table_id']}")["status"]
               == "over", timeout=60, what="the night over")
    for lang, line in (("en", "Hand 2 is at level 2: 2/4 ante 1"),
                       ("pt-BR", "A mão 2 é do nível 2: 2/4 ante 1")):
        screen = table_screen(chromium, server, table, lang=lang)  # the night's results
        screen.wait_for_selector("#see-results, #review")
        if screen.locator("#see-results").count():
            screen.click("#see-results")
        screen.click("#review button[data-hand='2']")
        screen.wait_for_selector("#replayer[data-hand='2']")
        assert screen.locator("#replayer .review-log li").first.inner_text() == line
    assert errors == []
