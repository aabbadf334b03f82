"""A failed deal check reported by any device (``fair_alarm``, issue 21) is shown on every
phone and on the TV at once, and stays there: a player's terminal reports one, and the web
phone and the table screen announce it."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from browserkit import Server, new_context
from flows import host_page, join, seat_players, start_game

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))
from realserver import LivePhone


def test_an_alarm_reaches_every_phone_and_the_tv(chromium: Any, server: Server) -> None:
    table = server.create_table(seats=2, between_hands_seconds=30)
    host, _frames, host_errors = host_page(chromium, server, table)
    ana = join(chromium, server, table, "Ana")
    bruno = LivePhone(server, table["table_id"])  # type: ignore[arg-type]  # a terminal
    bruno.connect()
    bruno.send(type="join", name="Bruno", id="join")
    bruno.until(lambda f: f["type"] == "seat_request")
    seat_players(host, ["Ana", "Bruno"])
    accepted = bruno.until(lambda f: f["type"] == "seat_request" and f["status"] == "accepted")
    tv = new_context(chromium, phone=False).new_page()
    tv.goto(f"{server.url}/table/{table['table_id']}")
    start_game(host)
    bruno.until(lambda f: f["type"] == "state" and f["table"]["hand"] is not None)
    bruno.send(type="fair_alarm", hand=1, check="position", id="alarm")
    assert bruno.until(lambda f: f.get("ref") == "alarm")["type"] == "ack"
    words = f"Hand 1: seat {accepted['seat']}'s device found a card dealt from a deck position"
    for page in (ana.page, tv, host):  # the phones, the TV, the host's page
        page.locator("#fair-alarms", has_text=words).wait_for(timeout=10_000)
    assert not ana.errors, ana.errors
    assert not host_errors, host_errors
    bruno.close()
    ana.close()
