"""A failed deal check the phone computed itself is on its own screen at once (issue 21),
whether or not the server passes it on: against a patched server that deals a hole card off
the position the dealing rule gives (RULES D4; its proofs are off from hand 1) AND drops every
``fair_alarm``, the victim's
phone still shows the alarm, while the night's record and the other phones say nothing. And a
seal the server refuses is shown on the phone with its reason (``refusal.D1.*``)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browserkit import Server
from flows import host_page, join, play_until, seat_players, start_game


def _patched(data: Path, *patches: str) -> Iterator[Server]:
    srv = Server(data, patches=patches)
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture
def cheating(tmp_path: Path) -> Iterator[Server]:
    """A server that deals off the committed positions and drops every alarm."""
    yield from _patched(tmp_path / "data", "off-positions", "drop-alarms")


@pytest.fixture
def refusing(tmp_path: Path) -> Iterator[Server]:
    """A server that refuses every seal (``refusal.D1.seals-closed``)."""
    yield from _patched(tmp_path / "data", "refuse-seals")


def test_the_victims_phone_shows_its_own_alarm_when_the_server_drops_it_D4(
        chromium: Any, cheating: Server) -> None:
    table = cheating.create_table(seats=3, stack=200, between_hands_seconds=1.0)
    host, _frames, host_errors = host_page(chromium, cheating, table)
    names = ["Ana", "Bruno", "Carla"]
    phones = [join(chromium, cheating, table, name) for name in names]
    seat_players(host, names)
    start_game(host)
    alarms = [phone.page.locator("#fair-alarms") for phone in phones]
    play_until(phones, lambda: any(a.count() for a in alarms), random.Random(5),
               timeout=60, aggressive=0.0)
    victims = [phone for phone, alarm in zip(phones, alarms, strict=True) if alarm.count()]
    assert len(victims) == 1, [phone.name for phone in victims]
    page = victims[0].page
    seat = [f["you"]["seat"] for f in victims[0].frames.states()
            if f["you"].get("seat") is not None][-1]
    banner = page.locator("#fair-alarms").inner_text()
    found = rf"Hand \d+: seat {seat}'s device found a card dealt from a deck position .*"
    unrecorded = re.escape("(seen by this device; not in the night's record)")
    assert re.search(found + unrecorded, banner), banner
    # The server kept quiet: nothing in the night's record, nothing on the others' screens.
    export = cheating.api("GET", f"/api/tables/{table['table_id']}/fairness")
    assert export["alarms"] == []
    assert all(not f["table"]["fair"]["alarms"] for f in victims[0].frames.states()
               if f["table"].get("fair"))
    for phone in phones:
        assert not phone.errors, phone.errors
        phone.close()
    assert not host_errors, host_errors


def test_a_refused_seal_is_shown_on_the_phone_with_its_reason_D1(
        chromium: Any, refusing: Server) -> None:
    table = refusing.create_table(seats=2, between_hands_seconds=30)
    host, _frames, host_errors = host_page(chromium, refusing, table)
    ana = join(chromium, refusing, table, "Ana", lang="pt-PT")
    bruno = join(chromium, refusing, table, "Bruno")
    seat_players(host, ["Ana", "Bruno"])
    start_game(host)
    ana.page.locator("#toast", has_text=re.compile(
        r"Os selos da mão \d+ fecharam .*\(D1\)")).wait_for(timeout=15_000)
    bruno.page.locator("#toast", has_text=re.compile(
        r"The seals for hand \d+ closed before this device's arrived.*\(D1\)")).wait_for(
            timeout=15_000)
    for phone in (ana, bruno):
        assert not phone.errors, phone.errors
        phone.close()
    assert not host_errors, host_errors
