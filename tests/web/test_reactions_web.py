"""Quick reactions (issue 23, item 8): a player taps an emoji, the table screen and the other
phones show who reacted for a few seconds; the buttons rest meanwhile; a table created with
reactions off shows no buttons."""

from __future__ import annotations

from typing import Any

from browserkit import Server, new_context
from flows import host_page, join, seat_players, start_game


def _table(chromium: Any, server: Server, **choices: Any) -> tuple[Any, Any, dict[str, Any]]:
    table = server.create_table(seats=3, stack=200, **choices)
    host, _frames, _errors = host_page(chromium, server, table)
    phones = [join(chromium, server, table, name) for name in ("Bruno", "Carla")]
    seat_players(host, ["Bruno", "Carla"])
    start_game(host)
    return host, phones, table


def test_a_reaction_shows_on_the_tv_and_the_phones(chromium: Any, server: Server) -> None:
    host, phones, table = _table(chromium, server)
    tv = new_context(chromium, phone=False).new_page()
    tv.goto(f"{server.url}/table/{table['table_id']}")
    tv.wait_for_selector(".oval .seat")
    bruno, carla = phones[0].page, phones[1].page
    bruno.wait_for_selector("#reactions-bar button[data-react='thumbs']")
    bruno.click("#reactions-bar button[data-react='thumbs']")
    assert bruno.locator("#reactions-bar button[data-react='fire']").is_disabled()
    for page in (tv, carla, bruno):
        page.locator("#reactions .reaction", has_text="Bruno 👍").wait_for(timeout=5000)
    tv.locator("#reactions .reaction").wait_for(state="detached", timeout=8000)
    for phone in phones:
        phone.close()
    host.context.close()


def test_no_reaction_buttons_when_the_table_turns_them_off(chromium: Any,
                                                           server: Server) -> None:
    host, phones, _table_made = _table(chromium, server, reactions=False)
    bruno = phones[0].page
    bruno.wait_for_selector(".hole .card[data-card]")
    assert not bruno.locator("#reactions-bar").is_visible()
    for phone in phones:
        phone.close()
    host.context.close()
