"""In the middle of a hand: a refresh, the network going away and back, and ``kill -9`` of
the server followed by a restart. Each time the page comes back by itself, to the same hand,
the same cards and the same turn, and the game goes on."""

from __future__ import annotations

from typing import Any

from browserkit import Server, check_secrecy, shot, wait_until
from flows import (
    Phone,
    host_page,
    join,
    recorded_table_screen,
    seat_players,
    start_game,
    wait_online,
)


def setup_game(chromium: Any, server: Server) -> tuple[list[Phone], Any]:
    table = server.create_table(seats=3, stack=200, between_hands_seconds=0.5)
    host, _, _ = host_page(chromium, server, table)
    host.click("#bot-form button[type=submit]")
    phones = [join(chromium, server, table, name) for name in ("Ana", "Bruno")]
    seat_players(host, ["Ana", "Bruno"])
    start_game(host)
    return phones, table


def whose_turn(phones: list[Phone]) -> Phone:
    """The phone whose action buttons are live (waits for one)."""
    found: list[Phone] = []

    def check() -> bool:
        found[:] = [p for p in phones if p.page.locator("#actions.live").count()]
        return bool(found)

    wait_until(check, 20, what="a player's turn")
    return found[0]


def snapshot(phone: Phone) -> dict[str, Any]:
    """Hand number, own cards and turn as the page shows them (read from the page itself)."""
    page = phone.page
    passive = page.locator("#actions.live button.act.call, #actions.live button.act.check")
    return {
        "hand": page.locator("#hand-info").inner_text().split(" · ")[0],
        "cards": page.locator(".hole .card").evaluate_all(
            "cards => cards.map(c => c.dataset.card)"),
        "live": page.locator("#actions.live").count() > 0,
        "passive": passive.first.inner_text() if passive.count() else None,
    }


def goes_on(phone: Phone, phones: list[Phone], what: str) -> None:
    """*phone* checks or calls and its turn moves on (*what* names the wait); no page had an
    error and no phone was sent cards other than its own."""
    phone.page.locator("button.act.call, button.act.check").first.click()
    wait_until(lambda: phone.page.locator("#actions.live").count() == 0, 15, what=what)
    for p in phones:
        assert not p.errors, p.errors
        check_secrecy(p.frames, may_hold_cards=True)


def test_refresh_and_network_loss_mid_hand(chromium: Any, server: Server) -> None:
    phones, _ = setup_game(chromium, server)
    phone = whose_turn(phones)
    before = snapshot(phone)
    assert before["live"]
    assert len(before["cards"]) == 2

    # Refresh: the token is kept on the device; the page is back at the same decision.
    phone.page.reload()
    wait_online(phone.page)
    phone.page.wait_for_selector("#actions.live")
    assert snapshot(phone) == before

    # The network goes away: the page says so (in words) and the buttons cannot be used.
    phone.context.set_offline(True)
    phone.page.wait_for_selector("#net[data-status='offline']", timeout=25_000)
    assert "Offline" in phone.page.locator("#net").inner_text()
    shot(phone.page, "phone-offline-360x740")
    phone.context.set_offline(False)
    wait_online(phone.page, timeout=30)
    phone.page.wait_for_selector("#actions.live button.act:not([disabled])")
    assert snapshot(phone) == before

    # The game goes on from there.
    goes_on(phone, phones, "the turn to move on")


def test_server_restart_mid_hand(chromium: Any, server: Server) -> None:
    phones, table = setup_game(chromium, server)
    screen, screen_frames = recorded_table_screen(chromium, server, table)
    phone = whose_turn(phones)
    before = {p.name: snapshot(p) for p in phones}

    server.kill()  # kill -9 in the middle of the hand
    for p in phones:
        p.page.wait_for_selector("#net[data-status='offline']", timeout=25_000)
    screen.wait_for_selector("#net[data-status='offline']", timeout=25_000)
    server.start()  # same port, same data folder

    for p in phones:
        wait_online(p.page, timeout=30)
    wait_online(screen, timeout=30)
    phone.page.wait_for_selector("#actions.live button.act:not([disabled])")
    after = {p.name: snapshot(p) for p in phones}
    assert after == before  # same hand, same cards, same player to act
    assert "Hand 1" in screen.locator(".hand-info").inner_text()

    goes_on(phone, phones, "the turn to move on after the restart")
    check_secrecy(screen_frames, may_hold_cards=False)
