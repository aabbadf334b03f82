"""The verifiable shuffle from the phones: each phone seals, then reveals, its randomness for
the next hand and checks its cards against the deal's commitments (no warning in a fair game);
the results page shows the night's fingerprint, and "Verify" checks the export in the
browser."""

from __future__ import annotations

import json
import random
from typing import Any

from browserkit import Server, check_secrecy, shot, wait_until
from flows import host_page, join, play_until, seat_players, start_game

from feltro.fairness import read_export, verify_hands


def test_a_short_series_verifies_in_the_browser(chromium: Any, server: Server) -> None:
    table = server.create_table(seats=3, stack=40, max_hands=4, between_hands_seconds=1.0)
    host, _frames, host_errors = host_page(chromium, server, table)
    host.select_option("#bot-kind", "station")
    host.click("#bot-form button[type=submit]")
    names = ["Ana", "Bruno"]
    phones = [join(chromium, server, table, name) for name in names]
    seat_players(host, names)
    start_game(host)
    rng = random.Random(3)

    def over() -> bool:
        return all(p.page.locator(".results").count() > 0 for p in phones)

    play_until(phones, over, rng, timeout=120, aggressive=0.0)
    for phone in phones:
        assert phone.page.locator("#fair-warning").count() == 0
        check_secrecy(phone.frames, may_hold_cards=True)
    # The phones' randomness went into the decks of the hands after the first.
    export = server.api("GET", f"/api/tables/{table['table_id']}/fairness")
    name, proofs, claimed = read_export(export)
    assert verify_hands(name, proofs, claimed).ok
    assert any(len(proof.contributions) == len(proof.sealed) == 2 for proof in proofs[1:])
    assert all(set(proof.contributions) == set(proof.sealed) for proof in proofs)  # D1

    page = phones[0].page
    code = page.locator("#fingerprint").inner_text()
    assert code == claimed
    assert phones[1].page.locator("#fingerprint").inner_text() == code  # friends compare
    page.click("#verify")
    wait_until(lambda: page.locator("#verify-status.ok").count() > 0, 20,
               what="the browser's verdict")
    verdict = page.locator("#verify-status").inner_text()
    assert code in verdict
    assert f"All {len(proofs)} hands verify" in verdict
    shot(page, "phone-results-verified-360x740")
    # The phone's own card check (fairclient.js) passes on what it saw and fails on a swap.
    seen = [f for f in phones[0].frames.states()
            if f["you"].get("fair") and f["table"].get("hand")
            and f["you"]["fair"]["hand"] == f["table"]["hand"]["number"]][-1]
    check = ("async (state) => (await import('/static/js/fairclient.js')).badCards(state)")
    assert page.evaluate(check, seen) == []
    swapped = json.loads(json.dumps(seen))
    mine = swapped["you"]["fair"]["cards"][0]
    mine["card"] = "2c" if mine["card"] != "2c" else "3c"
    assert page.evaluate(check, swapped) != []
    # Its own check of the deal (positions by the dealing rule, its value used, the chain it
    # computes) passes on what it saw, and flags a deal whose seats do not give it its cards.
    problems = ("async (state) => [...(await (await import('/static/js/fairclient.js'))"
                ".dealProblems(state))]")
    assert page.evaluate(problems, seen) == []
    moved = json.loads(json.dumps(seen))
    seats = moved["table"]["fair"]["hand"]["seats"]
    moved["table"]["fair"]["hand"]["seats"] = seats[1:] + seats[:1]
    assert page.evaluate(problems, moved) == ["position"]
    relinked = json.loads(json.dumps(seen))
    relinked["table"]["fair"]["hand"]["chain"] = "00" * 32
    assert "chain" in page.evaluate(problems, relinked)
    for phone in phones:
        assert phone.page.locator("#fair-alarms").count() == 0  # no alarm in a fair night
    banner = page.evaluate("async () => (await import('/static/js/fairclient.js')).alarmsView("
                           "{fair: {alarms: [{hand: 2, seat: 1, check: 'position'}]}})"
                           ".textContent")
    assert "Hand 2: seat 1's device found a card dealt from a deck position" in banner
    for phone in phones:
        assert not phone.errors, phone.errors
        phone.close()
    assert not host_errors, host_errors
