"""Show my cards at the showdown even when I lose (P8, D11): the player page's settings offer
the choice once the player has a hand; ticking it reaches the server (``you.show_losers`` comes
back) and it stays ticked after a reload, in the phone's language."""

from __future__ import annotations

from typing import Any

from browserkit import Server, wait_until
from flows import host_page, join, seat_players, start_game

WORDS = {"en": "Show my cards at the showdown even when I lose",
         "pt-BR": "Mostrar minhas cartas no showdown mesmo quando eu perder"}


def _chose(phone: Any) -> bool:
    return any(s["you"].get("show_losers") for s in phone.frames.states())


def test_the_player_ticks_show_losers_and_the_server_keeps_it_P8_D11(chromium: Any,
                                                                     server: Server) -> None:
    table = server.create_table(seats=2, stack=200, between_hands_seconds=30)
    host, _frames, _errors = host_page(chromium, server, table)
    phones = [join(chromium, server, table, "Bruno"),
              join(chromium, server, table, "Carla", lang="pt-BR")]
    seat_players(host, ["Bruno", "Carla"])
    start_game(host)
    for phone, lang in zip(phones, WORDS, strict=True):
        page = phone.page
        page.wait_for_selector("#pref-show-losers-row:not([hidden])", state="attached",
                               timeout=20000)
        page.click("#settings-button")
        assert page.locator("label[for='pref-show-losers']").inner_text() == WORDS[lang]
        assert not page.locator("#pref-show-losers").is_checked()
    bruno = phones[0]
    bruno.page.click("#pref-show-losers")
    wait_until(lambda: _chose(bruno), 10, what="you.show_losers")
    assert not _chose(phones[1])
    bruno.page.reload()
    bruno.page.wait_for_selector("#pref-show-losers-row:not([hidden])", state="attached",
                                 timeout=20000)
    wait_until(lambda: bruno.page.locator("#pref-show-losers").is_checked(), 10,
               what="the box ticked after a reload")
    for phone in phones:
        phone.close()
    host.context.close()
