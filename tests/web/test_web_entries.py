"""Re-entries (G8) and late seats (G9) in the browser: the create form's fieldset (off by
default), and a late player who asks during the period, is accepted by the host and is told
which hand they are dealt in at and why (D8)."""

from __future__ import annotations

from typing import Any

from browserkit import Server, new_context, wait_until
from flows import host_page, join, seat_players, start_game, watch_errors


def test_the_create_form_sends_a_reentry_period_G8_G9(chromium: Any, server: Server) -> None:
    page = new_context(chromium, phone=False).new_page()
    errors: list[str] = []
    watch_errors(page, errors)
    page.goto(server.url)
    page.wait_for_selector("#create-form")
    assert not page.locator("#t-reentry").is_checked()  # a freezeout by default (G4)
    assert page.locator("#t-reentry-details").is_hidden()
    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.post_data or "") if r.method == "POST" else None)
    page.check("#t-reentry")
    page.fill("#t-reentries", "2")
    page.fill("#t-reentry-until", "45")
    page.check("#t-late-seats")
    page.click("#create")
    page.wait_for_url("**/host/**")
    assert any('"reentries":2' in body and '"reentry_minutes":45' in body
               and '"late_seats":true' in body for body in sent), sent
    assert errors == []


def test_a_late_player_is_seated_and_told_when_they_are_dealt_in_G9_D8(
        chromium: Any, server: Server) -> None:
    table = server.create_table(seats=5, stack=200, reentries=1, reentry_minutes=60,
                                late_seats=True, between_hands_seconds=2.5, bot_seconds=0.3)
    host, _, host_errors = host_page(chromium, server, table)
    ana = join(chromium, server, table, "Ana")
    seat_players(host, ["Ana"])
    for _ in range(2):
        host.click("#bot-form button[type=submit]")
    wait_until(lambda: host.locator(".admin-seats li[data-seat] strong").count() == 3,
               what="Ana and two bots")
    start_game(host)
    ana.page.wait_for_selector("#actions")
    screen = new_context(chromium, phone=False).new_page()
    screen.goto(f"{server.url}/table/{table['table_id']}")
    screen.wait_for_selector(".seat")
    late = join(chromium, server, table, "Zé")  # the join page takes a late request now
    seat_players(host, ["Zé"])
    wait_until(lambda: "Dealt in at hand" in late.page.locator("#main").inner_text()
               or late.page.locator(".me .cards .card").count() > 0, what="Zé's place")
    text = late.page.locator("#main").inner_text()
    if "Dealt in at hand" in text:
        assert "when the big blind reaches seat" in text or "fewer than two" in text
    tv = screen.locator("[data-waiting]")
    if tv.count():  # the TV too, while Zé waits
        assert "Zé: Dealt in at hand" in tv.first.inner_text()
    assert host_errors == []
    assert late.errors == []
