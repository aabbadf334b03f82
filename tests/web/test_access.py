"""Accessibility (axe-core: no serious or critical violations), keyboard play on a laptop,
the settings (four-colour deck, high contrast), and the pages at laptop and landscape sizes."""

from __future__ import annotations

from typing import Any

from browserkit import (
    Server,
    new_context,
    record_frames,
    serious_violations,
    shot,
    wait_until,
)
from flows import Phone, host_page, join, seat_players, start_game


def assert_accessible(page: Any, where: str) -> None:
    violations = serious_violations(page)
    assert not violations, f"{where}: {violations}"


def test_pages_pass_axe_and_play_by_keyboard(chromium: Any, server: Server) -> None:
    # The start page, the host page and the join page, before the game.
    context = new_context(chromium, phone=False)
    start = context.new_page()
    start.goto(server.url)
    start.wait_for_selector("#create-form")
    assert_accessible(start, "start page")
    shot(start, "start-1280x800")

    table = server.create_table(seats=3, stack=100)
    host, _, _ = host_page(chromium, server, table)
    host.click("#bot-form button[type=submit]")
    assert_accessible(host, "host page, lobby")

    # A laptop player who plays with the keyboard only.
    laptop_context = new_context(chromium, phone=False)
    page = laptop_context.new_page()
    frames = record_frames(page, "Dora")
    page.goto(f"{server.url}/join/{table['table_id']}")
    page.wait_for_selector("#name")
    assert_accessible(page, "join page")
    page.keyboard.type("Dora")
    page.keyboard.press("Enter")
    page.wait_for_url("**/play/**")
    phone = join(chromium, server, table, "Eva")
    seat_players(host, ["Dora", "Eva"])
    start_game(host)

    screen_context = new_context(chromium, phone=False)
    screen = screen_context.new_page()
    screen.goto(f"{server.url}/table/{table['table_id']}")
    screen.wait_for_selector(".seat")

    def dora_turn() -> bool:
        if page.locator("#actions.live").count():
            return True
        if phone.page.locator("#actions.live button.act:not([disabled])").count():
            phone.page.locator("#actions.live button.act.check, #actions.live button.act.call"
                               ).first.click()
        return False

    wait_until(dora_turn, 30, what="Dora's turn")
    assert_accessible(page, "player page, own turn")
    assert_accessible(screen, "table screen")
    assert_accessible(host, "host page, playing")
    shot(page, "player-turn-1280x800")
    # A phone on its side, in the middle of the hand.
    phone.page.set_viewport_size({"width": 740, "height": 360})
    shot(phone.page, "player-landscape-740x360")
    assert_accessible(phone.page, "player page, landscape")
    phone.page.set_viewport_size({"width": 360, "height": 740})

    # Keyboard: R goes to the amount, arrows size it, Enter raises; the raise lands.
    page.keyboard.press("r")
    focused = page.evaluate("document.activeElement && document.activeElement.id")
    if focused == "amount-range":
        page.keyboard.press("ArrowRight")
        expected = int(page.locator("#amount-range").input_value())
        page.keyboard.press("Enter")
        wait_until(lambda: any(
            entry.get("action") == "raise" and entry.get("to") == expected
            for state in frames.states() if state["table"]["hand"]
            for entry in state["table"]["hand"]["log"]), 10, what="the keyboard raise")
    else:  # only an all-in is open: the raise button has the focus
        page.keyboard.press("c")
    wait_until(lambda: page.locator("#actions.live").count() == 0, 10, what="the turn to pass")

    # Next turn: C calls or checks.
    wait_until(lambda: dora_turn() or page.locator(".results").count() > 0, 60,
               what="Dora's next turn")
    if page.locator("#actions.live").count():
        turns = len([s for s in frames.states() if s["you"]["legal"]])
        page.keyboard.press("c")
        wait_until(lambda: page.locator("#actions.live").count() == 0
                   or len([s for s in frames.states() if s["you"]["legal"]]) > turns + 1, 10,
                   what="the keyboard call")

    # Settings: four-colour deck and high contrast, by keyboard too; still accessible.
    page.locator("#settings-button").focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("dialog#settings[open]")
    page.locator("#pref-four-colour").check()
    page.locator("#pref-high-contrast").check()
    page.keyboard.press("Escape")
    assert page.evaluate("document.documentElement.classList.contains('four-colour')")
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(0, 0, 0)"
    assert_accessible(page, "player page, high contrast")
    shot(page, "player-high-contrast-1280x800")
    if page.locator(".card.suit-d").count():
        colour = page.locator(".card.suit-d").first.evaluate("c => getComputedStyle(c).color")
        assert colour == "rgb(11, 79, 191)"  # diamonds are blue in the four-colour deck


def test_cards_are_never_told_by_colour_alone(chromium: Any, server: Server) -> None:
    """Every card face has its rank and suit as text and a spoken name."""
    table = server.create_table(seats=2, stack=50)
    host, _, _ = host_page(chromium, server, table)
    host.click("#bot-form button[type=submit]")
    phone: Phone = join(chromium, server, table, "Iris")
    seat_players(host, ["Iris"])
    start_game(host)
    phone.page.wait_for_selector(".hole .card[data-card]")
    for card in phone.page.locator(".hole .card[data-card]").all():
        code = card.get_attribute("data-card") or ""
        label = card.get_attribute("aria-label") or ""
        text = card.inner_text().replace("\n", "")
        assert text[-1] in "♠♥♦♣"
        assert " of " in label
        assert code
