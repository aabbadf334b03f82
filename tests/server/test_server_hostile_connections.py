"""Strangers on the Wi-Fi holding connections open: idle sockets, seat-request spam, clients
that never read. Seats stay reachable by their holders; memory and requests stay bounded."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest
from srvkit import Harness, Phone, from_address, harness_at, seat_table

from feltro.server.admission import (
    HELLO_SECONDS,
    MAX_CONNECTIONS_PER_SEAT,
    MAX_REQUESTS_PER_ADDRESS,
    MAX_UNIDENTIFIED,
    MAX_UNIDENTIFIED_PER_ADDRESS,
    ORPHAN_SECONDS,
)


def _closed(phone: Phone, timeout: float = 3.0) -> bool:
    try:
        phone.until(lambda f: False, timeout=timeout)
    except (ConnectionError, TimeoutError):
        return True
    return False


def _wait_closed(phone: Phone) -> str:
    """Read until the server closes *phone*; the last ``bye`` reason."""
    reason = ""
    with contextlib.suppress(ConnectionError):
        for _ in range(1000):
            frame = phone.recv(timeout=3)
            if frame["type"] == "bye":
                reason = frame["reason"]
    return reason


def test_idle_strangers_cannot_lock_a_seated_player_out(harness: Harness) -> None:
    created, _host, players = seat_table(harness, ["Ana"], bots=("station",),
                                          start=False)
    table_id = created["table_id"]
    token = players[1].token
    assert token is not None
    strangers = []
    for i in range(70):  # more sockets than the old 64-connection limit, never saying hello
        with from_address(harness, f"10.0.0.{i % 20 + 2}"):
            strangers.append(harness.phone(table_id))
    room = harness.manager.rooms[table_id]
    waiting = [c for c in room.connections if not c.hello and not c.closing]
    assert len(waiting) <= MAX_UNIDENTIFIED
    with from_address(harness, "10.0.0.99"):
        ana = harness.phone(table_id)
        assert ana.hello("player", token)["type"] == "welcome"


def test_one_address_holds_few_unidentified_connections(harness: Harness) -> None:
    table_id = harness.create_table()["table_id"]
    with from_address(harness, "10.0.0.7"):
        idle = [harness.phone(table_id) for _ in range(MAX_UNIDENTIFIED_PER_ADDRESS)]
        refused = harness.phone(table_id)
        frame = refused.until_type("error")
        assert frame["code"] == "rate_limited"
        assert "your address" in frame["reason"]
        assert _closed(refused)
    assert all(not p.closed for p in idle)


def test_a_connection_that_never_says_hello_is_closed(harness: Harness) -> None:
    table_id = harness.create_table()["table_id"]
    idle = harness.phone(table_id)
    talker = harness.phone(table_id)
    talker.hello()
    harness.clock.advance(HELLO_SECONDS + 1)
    assert "hello" in _wait_closed(idle)
    talker.send(type="ping", t=1)
    assert talker.until_type("pong")["t"] == 1


def test_seat_request_spam_from_one_address_is_bounded(harness: Harness) -> None:
    created = harness.create_table(seats=10)
    table_id = created["table_id"]
    host = harness.phone(table_id)
    host.hello("host", created["host_token"])
    with from_address(harness, "10.0.0.66"):
        answers = []
        for i in range(MAX_REQUESTS_PER_ADDRESS + 3):
            spam = harness.phone(table_id)
            spam.hello()
            spam.send(type="join", name=f"Ana{i}", id="j")
            answers.append(spam.until(lambda f: f["type"] in ("seat_request", "error")))
    assert [a["type"] for a in answers].count("seat_request") == MAX_REQUESTS_PER_ADDRESS
    assert answers[-1]["code"] == "too_many_requests"
    with from_address(harness, "10.0.0.20"):
        ana = harness.phone(table_id)
        ana.hello()
        ana.send(type="join", name="Ana", id="j")
        assert ana.until(lambda f: f["type"] in ("seat_request", "error"))["type"] == \
            "seat_request"


def test_duplicate_and_invisible_names_are_refused(harness: Harness) -> None:
    created, _host, _players = seat_table(harness, ["Ana"], start=False, seats=4)
    table_id = created["table_id"]
    for name in ["ana", " ANA ", "\u202eAna", "   ", "A\u200bna", "Ana\x00"]:
        phone = harness.phone(table_id)
        phone.hello()
        phone.send(type="join", name=name, id="j")
        frame = phone.until(lambda f: f["type"] in ("seat_request", "error"))
        assert frame["type"] == "error", name
        # The same name, folded ("ana", " ANA "): name_taken; unreadable names: invalid.
        assert frame["code"] in ("name_taken", "invalid")
        phone.close()


def test_requests_of_closed_connections_are_withdrawn(harness: Harness) -> None:
    created = harness.create_table()
    table_id = created["table_id"]
    host = harness.phone(table_id)
    host.hello("host", created["host_token"])
    gone = harness.phone(table_id)
    gone.hello()
    gone.send(type="join", name="Gone", id="j")
    gone.until_type("seat_request")
    gone.close()
    game = harness.game(table_id)
    assert [r.name for r in game.lobby.pending_requests()] == ["Gone"]
    harness.clock.advance(ORPHAN_SECONDS / 2)
    host.drain(0.1)
    assert [r.name for r in game.lobby.pending_requests()] == ["Gone"]  # a blink keeps it
    harness.clock.advance(ORPHAN_SECONDS + 1)
    host.drain(0.2)
    assert game.lobby.pending_requests() == []


def test_a_seat_opened_on_many_devices_keeps_the_newest(harness: Harness) -> None:
    created, _host, players = seat_table(harness, ["Ana"], bots=("station",), start=False)
    token = players[1].token
    devices = []
    for _ in range(MAX_CONNECTIONS_PER_SEAT + 2):
        phone = harness.phone(created["table_id"])
        assert phone.hello("player", token)["type"] == "welcome"
        devices.append(phone)
    room = harness.manager.rooms[created["table_id"]]
    live = [c for c in room.connections if c.seat == 1 and not c.closing]
    assert len(live) <= MAX_CONNECTIONS_PER_SEAT


def test_spectators_are_bounded_but_players_always_get_in(tmp_path: Path) -> None:
    with harness_at(tmp_path / "data", max_connections_per_table=3) as h:
        created, _host, players = seat_table(h, ["Ana"], bots=("station",), start=False)
        table_id = created["table_id"]
        watchers = [h.phone(table_id) for _ in range(3)]
        for w in watchers:
            assert w.hello()["type"] == "welcome"
        extra = h.phone(table_id)  # a full table: the oldest watcher of the busiest address
        assert extra.hello()["type"] == "welcome"  # makes room, so newcomers can still ask
        assert "room" in _wait_closed(watchers[0])
        room = h.manager.rooms[table_id]
        assert sum(1 for c in room.connections
                   if c.hello and c.identity is None and not c.closing) <= 3
        ana = h.phone(table_id)
        assert ana.hello("player", players[1].token)["type"] == "welcome"


def test_one_address_watches_with_few_connections(harness: Harness) -> None:
    from feltro.server.admission import MAX_SPECTATORS_PER_ADDRESS

    table_id = harness.create_table()["table_id"]
    with from_address(harness, "10.0.0.44"):
        for _ in range(MAX_SPECTATORS_PER_ADDRESS):
            assert harness.phone(table_id).hello()["type"] == "welcome"
        refused = harness.phone(table_id).hello()
    assert refused["code"] == "rate_limited"
    assert "your address" in refused["reason"]
    with from_address(harness, "10.0.0.45"):
        assert harness.phone(table_id).hello()["type"] == "welcome"


def test_a_client_that_never_reads_is_dropped() -> None:
    import asyncio

    from feltro.server import connection
    from feltro.server.security import TokenBucket

    async def stuck_send(text: str) -> None:
        await asyncio.sleep(3600)  # the client's window is full: nothing leaves

    closed: list[int] = []

    async def close(code: int) -> None:
        closed.append(code)

    async def run() -> bool:
        conn = connection.Connection(stuck_send, close, TokenBucket(1, 1, lambda: 0.0))
        writer = asyncio.get_running_loop().create_task(conn.writer())
        conn.push('{"type":"x"}')
        before = connection.SEND_TIMEOUT
        connection.SEND_TIMEOUT = 0.05
        try:
            await asyncio.wait_for(writer, 2)
        finally:
            connection.SEND_TIMEOUT = before
        for _ in range(1000):
            conn.push('{"type":"y"}')
        return conn.closing and len(conn._queue) <= 1

    assert asyncio.run(run())


def test_language_changes_reuse_the_tables_snapshot(harness: Harness,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    created, _host, _players = seat_table(harness, [], bots=("station", "station"),
                                          start=False)
    table_id = created["table_id"]
    watchers = []
    for _ in range(8):
        watchers.append(harness.phone(table_id))
        watchers[-1].hello()
    game = harness.game(table_id)
    calls = []
    real = game.snapshot
    monkeypatch.setattr(game, "snapshot", lambda *a, **k: calls.append(1) or real(*a, **k))
    for round_ in range(3):
        for w in watchers:
            w.send(type="set_lang", lang=["pt-PT", "pt-BR", "en"][round_], id="l")
            w.reply("l")
            w.until_type("state")
    assert len(calls) <= 3  # 24 language changes, at most one snapshot per second of clock
    for w in watchers:
        w.send(type="set_lang", lang="en", id="same")
        assert w.reply("same")["type"] == "ack"
    assert all(not any(f["type"] == "state" for f in w.drain(0.05)) for w in watchers)
