"""``feltro join`` treats every server as a stranger (issue 22, item 3): terminal escapes and
bidi characters never reach the screen, a malformed frame becomes one line and a reconnection,
a bad row of the LAN list is skipped, and the list shows each server's address and scheme and
flags look-alike names and plain HTTP. Each test failed before :mod:`feltro.remote.untrusted`."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from feltro.remote.client import RemoteSeat
from feltro.remote.lan import NearbyServer, listing, row_text, server_from_info, warnings_of
from feltro.remote.link import parse_link
from feltro.remote.untrusted import clean

OSC52 = "\x1b]52;c;cm0gLXJmIH4K\x07"
"""Writes the terminal's clipboard."""
OSC0 = "\x1b]0;pwned\x07"
"""Sets the window title."""
CSI2J = "\x1b[2J"
"""Clears the screen."""
RLO = "\u202e"
"""Right-to-left override: shows the rest reversed."""


@pytest.mark.parametrize("attack", [OSC52, OSC0, CSI2J, RLO, "\u2066", "\x9b2J", "\u200b"])
def test_no_escape_or_bidi_character_survives(attack: str) -> None:
    text = clean(f"Ana{attack}Rui")
    assert "\x1b" not in text
    assert "\x07" not in text
    assert "\x9b" not in text
    assert all(ch not in text for ch in "\u202e\u2066\u200b")
    assert text.startswith("Ana")
    assert text.endswith("Rui")


def _state(name: str, version: int) -> dict[str, Any]:
    return {"type": "state", "version": version, "boot": "b1", "server_time": 0,
            "table": {"status": "lobby", "name": name, "seats": [], "hand": None},
            "you": {"role": "spectator"}}


def test_malformed_frames_become_a_line_and_a_reconnection() -> None:
    from websockets.asyncio.server import ServerConnection, serve

    bad = [json.dumps([1, 2, 3]), "[" * 5000 + "]" * 5000,
           json.dumps({"type": "state", "version": 1, "boot": "b1", "table": {}}),
           "not json at all"]
    served: list[int] = []

    async def handler(ws: ServerConnection) -> None:
        await ws.recv()  # hello
        number = len(served)
        served.append(number)
        if number < len(bad):
            await ws.send(bad[number])
        else:
            await ws.send(json.dumps(_state(f"Mesa{OSC52}{CSI2J}{RLO}", number)))
        await ws.wait_closed()

    async def scenario() -> RemoteSeat:
        async with serve(handler, "127.0.0.1", 0) as server:
            port = server.sockets[0].getsockname()[1]
            seat = RemoteSeat(parse_link(f"http://127.0.0.1:{port}/join/T1"), None,
                              backoff=(0.01,))
            task = asyncio.create_task(seat.run())
            problems: list[str | None] = []
            seat.on_change = lambda: problems.append(seat.problem.key if seat.problem else None)
            await seat.changed(lambda s: s.state is not None, timeout=10)
            seat.stop()
            await asyncio.wait_for(task, 5)
            assert problems.count("join.bad_frame") >= len(bad)
            return seat

    seat = asyncio.run(scenario())
    assert seat.connections == len(bad) + 1  # one reconnection after each bad frame
    assert seat.state is not None
    assert seat.state["table"]["name"] == "Mesa]52;c;cm0gLXJmIH4K[2J"


def test_bad_rows_are_skipped_and_names_cleaned() -> None:
    server = NearbyServer("s", "http://10.0.0.2:8000/")
    answer = [
        {"table_id": "Good1", "name": f"Sexta{OSC0}", "status": "lobby", "seats": 6,
         "occupied": 2},
        {"table_id": "Bad1", "name": "x", "status": "lobby", "seats": "six", "occupied": 1},
        {"name": "no id", "status": "lobby"},
        {"table_id": "../../evil", "status": "lobby", "seats": 6, "occupied": 1},
        {"table_id": "Bad2", "status": "lobby", "seats": 6, "occupied": {"a": 1}},
    ]
    rows = listing([server], lambda url: answer)
    assert [(r.table_id, r.name) for r in rows] == [("Good1", "Sexta]0;pwned")]


def test_each_row_shows_the_address_and_scheme() -> None:
    server = NearbyServer("feltro on ana-laptop", "https://192.168.1.20:8443/")
    rows = listing([server], lambda url: [{"table_id": "T1", "name": "Sexta",
                                           "status": "lobby", "seats": 6, "occupied": 1}])
    assert "https://192.168.1.20:8443" in row_text(1, rows[0], "en")
    assert "https://192.168.1.20:8443" in row_text(1, rows[0], "pt-PT")


def test_look_alike_mixed_script_and_plain_http_are_flagged() -> None:
    real = NearbyServer("feltro ana-laptop", "https://192.168.1.20:8443/")
    fake = NearbyServer("feltro \u0430na-laptop", "http://192.168.1.66:8000/")  # Cyrillic а
    table = [{"table_id": "T1", "name": "Sexta", "status": "lobby", "seats": 6, "occupied": 1}]
    rows = listing([real, fake], lambda url: table)
    assert warnings_of(rows[0], rows) == ["look_alike"]
    assert warnings_of(rows[1], rows) == ["look_alike", "mixed_script", "plain_http"]
    local = NearbyServer("feltro", "http://127.0.0.1:8000/")
    assert warnings_of(listing([local], lambda url: table)[0], []) == []


def test_an_announced_name_is_cleaned() -> None:
    from feltro.remote.lan import service_info

    info = service_info("feltro", "192.168.1.20", 8000)
    info.name = f"feltro{OSC52}ana._feltro._tcp.local."
    server = server_from_info(info)
    assert server is not None
    assert "\x1b" not in server.name


def test_a_server_that_answers_too_much_is_left_out_of_the_list(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    from feltro.remote.lan import pick_table

    good = json.dumps([{"table_id": "T1", "name": "Sexta", "status": "lobby", "seats": 6,
                        "occupied": 1}]).encode()
    huge = b"[" + b'{"table_id": "T2", "status": "lobby"},' * 200_000 + b"{}]"

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = huge if self.server is big else good
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None: ...

    small, big = ThreadingHTTPServer(("127.0.0.1", 0), Handler), \
        ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    for server in (small, big):
        threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        servers = [NearbyServer("big", f"http://127.0.0.1:{big.server_address[1]}/"),
                   NearbyServer("small", f"http://127.0.0.1:{small.server_address[1]}/")]
        monkeypatch.setattr("feltro.remote.lan.browse", lambda seconds: servers)
        assert pick_table("en", 0.1, ask=lambda prompt: "1") == \
            f"http://127.0.0.1:{small.server_address[1]}/join/T1"
    finally:
        small.shutdown()
        big.shutdown()
    assert "big" not in capsys.readouterr().out
