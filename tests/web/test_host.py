"""The host page: invite (link and QR code), refuse and accept, bots, start, pause and resume,
mark away, end at the next hand; the stop-time countdown; no hidden cards on the host page."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

from browserkit import Server, check_secrecy, new_context, shot, wait_until
from flows import host_page, join, play_until, start_game
from playwright.sync_api import TimeoutError as PlaywrightTimeout


def banner_text(page: Any) -> str:
    """The status banner's text, or "" while the page is re-rendering it."""
    try:
        return str(page.locator("#banner").inner_text(timeout=1000))
    except PlaywrightTimeout:
        return ""


def test_host_controls_from_lobby_to_the_end(chromium: Any, server: Server) -> None:
    stop_at = (datetime.now(UTC) + timedelta(hours=2)).isoformat(timespec="seconds")
    # Deep stacks: the series must not end by itself before the host ends it.
    table = server.create_table(seats=4, stack=400, stop_at=stop_at, action_seconds=30)
    host, host_frames, host_errors = host_page(chromium, server, table)
    host.on("dialog", lambda dialog: dialog.accept())

    # Invite: the join link and a QR code that is a real image.
    assert host.locator("#join-link").input_value().endswith(f"/join/{table['table_id']}")
    wait_until(lambda: host.locator("img.qr").evaluate("img => img.naturalWidth") > 0,
               what="the QR code image")

    # Refuse one request, accept another; add two bots and remove one.
    lea = join(chromium, server, table, "Lea")
    max_ = join(chromium, server, table, "Max")
    host.get_by_role("button", name="Refuse Max").click()
    max_.page.get_by_text("The host refused your request").wait_for()
    host.get_by_role("button", name="Accept Lea").click()
    lea.page.wait_for_selector(".hand-info")
    # Calling stations never raise, so Lea (who calls) cannot be knocked out before the host
    # ends the series: the test is about the host's controls, not about who wins.
    host.select_option("#bot-kind", "station")
    for _ in range(2):
        host.click("#bot-form button[type=submit]")
    wait_until(lambda: host.locator(".admin-seats li[data-seat]").count() == 3, what="bots")
    host.locator(".admin-seats li[data-seat]").filter(has_text="bot").first.get_by_role(
        "button", name="Remove").click()
    wait_until(lambda: host.locator(".admin-seats li[data-seat]").count() == 2,
               what="a bot removed")
    shot(host, "host-lobby-requests-1280x800")

    start_game(host)
    lea.page.wait_for_selector(".hole .card[data-card]")
    # The stop time counts down on the player's page; the turn has a visible timer.
    assert "Stops in 1:5" in lea.page.locator("#banner").inner_text()
    lea.page.wait_for_selector("#actions.live")
    timer = lea.page.locator("#me [data-timer] .timer-text").inner_text()
    assert timer.endswith(" s")
    assert 20 <= int(timer.split()[0]) <= 30

    # Pause: the hand in progress finishes, then the table waits; resume deals again.
    host.click("#pause")
    wait_until(lambda: host_frames.states()[-1]["table"]["paused"], 15,
               what="the server to take the pause")
    rng = random.Random(3)
    play_until([lea], lambda: host_frames.states()[-1]["table"]["status"] == "paused", rng,
               timeout=60, aggressive=0.0)
    wait_until(lambda: "Paused by the host" in banner_text(lea.page), 15,
               what="the player's page to say the game is paused")
    assert host.locator("#resume").count() == 1
    hands = host_frames.states()[-1]["table"]["hands_played"]
    host.click("#resume")
    wait_until(lambda: host_frames.states()[-1]["table"]["hands_played"] > hands
               or lea.page.locator("#actions.live").count() > 0, 30, what="a new hand")

    # Mark Lea away: the table screen says so in words; she comes back by herself.
    screen = new_context(chromium, phone=False).new_page()
    screen.goto(f"{server.url}/table/{table['table_id']}")
    screen.wait_for_selector(".seat")
    host.locator(".admin-seats li", has_text="Lea").get_by_role("button", name="Mark away").click()
    screen.locator(".seat", has_text="Lea").get_by_text("Away").wait_for()
    lea.page.get_by_role("button", name="I'm back").click()
    wait_until(lambda: "Away" not in screen.locator(".seat", has_text="Lea").inner_text(), 15,
               what="Lea back")

    # End at the next hand: the series stops after the hand in progress (G6).
    host.click("#end")
    play_until([lea], lambda: lea.page.locator(".results").count() > 0, rng, timeout=60,
               aggressive=0.0)
    results = lea.page.locator(".results").inner_text()
    assert "Ended on request" in results or "One player has every chip" in results  # issue 23
    host.wait_for_selector(".results")
    shot(host, "host-results-1280x800")
    check_secrecy(host_frames, may_hold_cards=False)
    assert not host_errors
    assert not lea.errors, lea.errors
