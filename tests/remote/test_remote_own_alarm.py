"""A failed deal check ``feltro join`` computed itself is on its own screen at once, whether or
not the server passes it on (issue 21): against a patched server that deals a hole card off the
position the dealing rule gives (RULES D4) AND drops every ``fair_alarm``, the victim's terminal
still shows the alarm, while the server's state (every other screen) says nothing."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))
from patchedfair import deal_off_positions, drop_alarms
from srvkit import harness_at, legal_of, passive, seat_table
from test_join_screen import _panel_words

from feltro.remote.app import JoinApp
from feltro.remote.client import RemoteSeat
from feltro.remote.link import parse_link
from feltro.remote.words import fair_alarm_line

WORDS = "Hand 2: seat {seat}'s device found a card dealt from a deck position"


async def _cheated_night(data: Path) -> tuple[RemoteSeat, dict[str, Any], list[dict[str, Any]]]:
    """Three terminals play hand 1 passively on the patched server until one of them flags
    hand 2; returns that terminal, the host's last state and every alarm message sent."""
    sent: list[dict[str, Any]] = []
    with harness_at(data) as harness:
        created, host, phones = seat_table(harness, ["Ana", "Bruno", "Carla"],
                                           between_hands_seconds=0.5)
        terminals: dict[int, RemoteSeat] = {}
        for number, phone in phones.items():
            seat = RemoteSeat(parse_link(f"http://127.0.0.1:9/join/{created['table_id']}"),
                              None, "en")

            async def send(message: dict[str, Any], phone: Any = phone,
                           number: int = number) -> None:
                if message["type"] == "fair_alarm":
                    sent.append({**message, "seat": number})
                phone.send(**message)

            seat._send = send  # type: ignore[method-assign]
            seat._ws = object()  # type: ignore[assignment]  # connected: it sends
            terminals[number] = seat
        for _ in range(300):
            for number, phone in phones.items():
                for frame in phone.drain(0.01):
                    terminals[number]._receive(frame)
                await asyncio.sleep(0)  # the messages the terminal queued go out
                legal = legal_of(phone.state or {})
                if legal is not None and legal["hand"] == 1:
                    phone.send(**passive(legal))
            host.drain(0.01)
            victims = [terminals[m["seat"]] for m in sent
                       if (m["hand"], m["check"]) == (2, "position")]
            if victims:
                for phone in phones.values():
                    phone.drain(0.05)
                host.drain(0.05)
                assert host.state is not None
                return victims[0], host.state, sent
            harness.clock.advance(0.1)
    raise AssertionError("no terminal flagged hand 2")


async def _message(seat: RemoteSeat) -> str:
    seat._ws = None  # the screen alone, with what the terminal saw
    app = JoinApp(seat, "en", connect=False)
    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(3):
            await pilot.pause()
        return " ".join(_panel_words(app))


def test_the_victims_terminal_shows_its_own_alarm_when_the_server_drops_it_D4(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    deal_off_positions(monkeypatch.setattr)
    drop_alarms(monkeypatch.setattr)
    victim, host_state, sent = asyncio.run(_cheated_night(tmp_path / "data"))
    assert {"hand": 2, "seat": victim.seat, "check": "position"} in [  # it did tell
        {"hand": m["hand"], "seat": m["seat"], "check": m["check"]} for m in sent]
    assert host_state["table"]["fair"]["alarms"] == []  # and the server kept it quiet
    assert victim.state is not None
    assert victim.state["table"]["fair"]["alarms"] == []
    assert victim.state["table"]["hand"]["number"] == 2  # still the cheated hand
    screen = asyncio.run(_message(victim))
    assert WORDS.format(seat=victim.seat) in screen
    assert "not in the night's record" in screen  # the others were not told


def test_an_alarm_the_server_echoes_is_shown_once() -> None:
    own = [{"hand": 2, "seat": 1, "check": "position"}]
    echoed = {"table": {"fair": {"alarms": [{"hand": 2, "seat": 1, "check": "position"},
                                            {"hand": 2, "seat": 3, "check": "chain"}]}}}
    line = fair_alarm_line(echoed, "pt-BR", own)
    assert line is not None
    assert line.plain.count("Mão 2: o aparelho do lugar 1") == 1
    assert "registro da noite" not in line.plain  # the table recorded it
    assert "2 verificação(ões)" in line.plain
    alone = fair_alarm_line({"table": {"fair": {"alarms": []}}}, "pt-PT", own)
    assert alone is not None
    assert "Mão 2: o aparelho do lugar 1" in alone.plain
    assert "não consta do registo da noite" in alone.plain
    assert fair_alarm_line({"table": {"fair": {"alarms": []}}}, "en") is None
