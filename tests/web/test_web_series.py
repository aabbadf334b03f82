"""A whole series to the end, played from phone-sized browsers, with the host page and the
table screen watching; no page ever receives a card it may not see."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from browserkit import (
    Server,
    check_secrecy,
    shot,
    stray_values,
    wait_until,
)
from flows import (
    add_bots,
    host_page,
    join,
    play_until,
    recorded_table_screen,
    seat_players,
    start_game,
)


def test_whole_series_from_three_phones(chromium: Any, server: Server) -> None:
    table = server.create_table(seats=4, stack=20)
    host, host_frames, host_errors = host_page(chromium, server, table)
    add_bots(host, ["Robo"])

    names = ["Ana", "Bruno", "Carla"]
    phones = [join(chromium, server, table, name) for name in names]
    for phone in phones:
        phone.page.get_by_text("Waiting for the host to accept you").wait_for()
    shot(phones[0].page, "phone-waiting-360x740")
    seat_players(host, names)
    shot(host, "host-lobby-1280x800")

    screen, screen_frames = recorded_table_screen(chromium, server, table)

    start_game(host)
    for phone in phones:
        phone.page.wait_for_selector(".hole .card[data-card]")
    rng = random.Random(7)

    # Play until someone faces a decision with a raise available: the main screen.
    first = phones[0].page

    def facing_raise_choice() -> bool:
        return first.locator("#actions.live .sizer").count() > 0

    play_until(phones, facing_raise_choice, rng, timeout=60, aggressive=0.0,
               hold=lambda phone: phone is phones[0] and facing_raise_choice())
    shot(first, "phone-turn-360x740")
    shot(screen, "table-screen-1280x800")
    shot(host, "host-playing-1280x800")
    for page in (first, screen, host):  # words only: no "null" a script printed by mistake
        assert stray_values(page) == [], page.url

    # A few quiet hands (calls and checks, the odd raise), then shoves until the end.
    def hands_played() -> int:
        states = phones[0].frames.states()
        return int(states[-1]["table"]["hands_played"]) if states else 0

    def over() -> bool:
        return all(p.page.locator(".results").count() for p in phones)

    play_until(phones, lambda: hands_played() >= 3 or over(), rng, timeout=120,
               aggressive=0.03)
    shot(phones[1].page, "phone-between-hands-360x740")
    play_until(phones, over, rng, timeout=150, aggressive=0.5)
    assert hands_played() >= 3
    for phone in phones:
        phone.page.wait_for_selector(".results svg.chart")
    screen.wait_for_selector(".results svg.chart")
    host.wait_for_selector(".results svg.chart")
    shot(phones[0].page, "phone-results-360x740")
    shot(screen, "table-screen-results-1280x800")
    for page in (phones[0].page, screen, host):
        assert stray_values(page) == [], page.url

    # The results name the winner and every player; the chart marks eliminations.
    outcome = phones[0].frames.states()[-1]["table"]["outcome"]
    assert outcome is not None
    results = phones[0].page.locator(".results").inner_text()
    for name in outcome["names"]:
        assert name in results
    eliminated = phones[0].frames.states()[-1]["table"]["eliminations"]
    assert eliminated, "a freezeout to the end eliminates players"
    assert phones[0].page.locator("svg.chart .out-mark").count() == len(eliminated)
    # Why it ended, in plain words, with the rule as a link to it in the reader's language (G4).
    assert "(G4)" not in results
    assert phones[0].page.locator(".results a.rule-link[href='/rules/en#G4']").count() == 1

    # Each player downloads their own hand histories: PHH text with their cards, others hidden.
    with phones[0].page.expect_download() as download_info:
        phones[0].page.click("#download")
    phh_text = Path(download_info.value.path()).read_text(encoding="utf-8")
    assert "variant = " in phh_text
    assert "??" in phh_text  # the other players' hole cards are hidden

    # Secrecy: every frame every page received, checked card by card.
    checked = sum(check_secrecy(p.frames, may_hold_cards=True) for p in phones)
    checked += check_secrecy(host_frames, may_hold_cards=False)
    checked += check_secrecy(screen_frames, may_hold_cards=False)
    assert checked > 50
    # Each phone saw its own cards in some frames, and never two different hands' worth at once.
    for phone in phones:
        assert any(s["you"]["hole"] for s in phone.frames.states())
    assert not host_errors
    for phone in phones:
        assert not phone.errors, phone.errors
    wait_until(lambda: True)
