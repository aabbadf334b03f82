"""``kill -9`` right after a voluntary show (P8): the restarted server still shows the cards
of the hand won uncontested, to every phone, before the next deal."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from realserver import LivePhone, ServerProcess
from remotekit import host_of, seat_phone
from srvkit import cards_in

pytestmark = pytest.mark.skipif(not hasattr(__import__("os"), "fork"),
                                reason="POSIX signals")


def test_kill9_after_a_show_keeps_it_P8(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "data")
    server.start()
    phones: list[LivePhone] = []
    try:
        created, host = host_of(server, seats=2, action_seconds=600,
                                between_hands_seconds=60)
        table_id = created["table_id"]
        players = dict(seat_phone(server, table_id, host, name) for name in ("Ana", "Bruno"))
        phones = [host, *players.values()]
        host.send(type="start", id="start")
        state = host.until(lambda f: f["type"] == "state" and f["table"]["hand"] is not None
                           and f["table"]["hand"]["to_act"] is not None, timeout=20)
        hand = state["table"]["hand"]
        folder = players[hand["to_act"]]
        mine = folder.current(lambda f: f["type"] == "state" and f["you"]["legal"] is not None)
        legal = mine["you"]["legal"]
        folder.send(type="act", id="f", hand=legal["hand"], turn=legal["turn"], action="fold")
        winner_seat = next(seat for seat, p in players.items() if p is not folder)
        winner = players[winner_seat]
        won = winner.until(lambda f: f["type"] == "state" and f["you"].get("may_show") is True)
        hole = set(won["you"]["hole"])
        winner.send(type="show", id="s")
        assert winner.until(lambda f: f.get("ref") == "s")["type"] == "ack"

        server.kill9()
        time.sleep(0.3)
        server.start()

        folder.until(lambda f: f["type"] == "welcome", timeout=30)
        again = folder.until(lambda f: f["type"] == "state")
        assert again["table"]["hand"]["number"] == 1
        assert hole <= cards_in(again["table"]["hand"])
        assert not again["you"].get("may_show")
    finally:
        for phone in phones:
            phone.close()
        server.stop()
