"""Show my cards (P8): after everybody else folded, the winner's phone offers "Show my cards"
before the next deal; one tap shows both cards on the other phone and the table screen, and
the button goes away. Every frame stays within what the rules let each receiver see."""

from __future__ import annotations

from typing import Any

from browserkit import Server, check_secrecy, new_context, wait_until
from flows import host_page, join, seat_players, start_game


def test_the_winner_taps_show_my_cards_and_the_table_sees_them_P8(chromium: Any,
                                                                  server: Server) -> None:
    table = server.create_table(seats=2, stack=200, between_hands_seconds=30)
    host, _frames, _errors = host_page(chromium, server, table)
    phones = [join(chromium, server, table, name) for name in ("Bruno", "Carla")]
    seat_players(host, ["Bruno", "Carla"])
    start_game(host)
    tv = new_context(chromium, phone=False).new_page()
    tv.goto(f"{server.url}/table/{table['table_id']}")
    wait_until(lambda: any(p.page.locator("#actions.live button.act.fold").count()
                           for p in phones), 20, what="a turn")
    folder = next(p for p in phones if p.page.locator("#actions.live button.act.fold").count())
    winner = next(p for p in phones if p is not folder)
    assert folder.page.locator("#show-cards").count() == 0
    folder.page.click("#actions.live button.act.fold")
    winner.page.wait_for_selector("#show-cards", timeout=10000)
    assert winner.page.locator("#show-cards").inner_text() == "Show my cards"
    hole = [c.get_attribute("data-card")
            for c in winner.page.locator(".hole .card[data-card]").all()]
    assert len(hole) == 2
    assert folder.page.locator("#show-cards").count() == 0
    winner.page.click("#show-cards")
    for page in (folder.page, tv):
        for card in hole:
            page.locator(f"[data-card='{card}']").first.wait_for(timeout=5000)
    winner.page.locator("#show-cards").wait_for(state="detached", timeout=5000)
    for phone in phones:
        assert check_secrecy(phone.frames, may_hold_cards=True) > 0
        phone.close()
    tv.context.close()
    host.context.close()
