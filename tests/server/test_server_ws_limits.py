"""The websocket layer bounded like the HTTP one (issue 22, item 1), against a real server:
a client that floods pings and never reads, control frames against the message budget, a text
frame that is not UTF-8. Each test failed against the server before
:mod:`feltro.server.ws_transport` (uvicorn's default protocol)."""

from __future__ import annotations

import base64
import contextlib
import os
import socket
import struct
import time
from pathlib import Path
from typing import Any

TABLE: dict[str, Any] = {"between_hands_seconds": 0, "bot_seconds": 0, "action_seconds": None}




def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def _frame(opcode: int, payload: bytes) -> bytes:
    """One masked client frame (FIN set), payload under 126 bytes."""
    mask = os.urandom(4)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return bytes([0x80 | opcode, 0x80 | len(payload)]) + mask + masked


def _open(port: int, table_id: str, *, rcvbuf: int | None = None) -> socket.socket:
    """A websocket opened by hand (nothing read after the handshake unless asked)."""
    sock = socket.socket()
    if rcvbuf is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.settimeout(10)
    sock.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET /ws/{table_id} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                  "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                  f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += sock.recv(1)
    assert head.startswith(b"HTTP/1.1 101"), head
    return sock


def _close_code(sock: socket.socket, within: float) -> int | None:
    """Read frames until the server's close frame (its code) or the socket ends (``None``)."""
    sock.settimeout(within)
    data = b""
    with contextlib.suppress(OSError):
        while chunk := sock.recv(65536):
            data += chunk
    while len(data) >= 2:
        opcode, length = data[0] & 0x0F, data[1] & 0x7F
        start = 2
        if length == 126:
            length, start = struct.unpack("!H", data[2:4])[0], 4
        elif length == 127:
            length, start = struct.unpack("!Q", data[2:10])[0], 10
        if opcode == 0x8:
            return int(struct.unpack("!H", data[start:start + 2])[0])
        data = data[start + length:]
    return None


def test_a_client_that_floods_pings_and_never_reads_is_dropped(live: Any) -> None:
    table_id = live.post("/api/tables", TABLE)["table_id"]
    pid = live.process.pid
    before = _rss_kib(pid)
    sock = _open(live.port, table_id, rcvbuf=4096)
    ping = _frame(0x9, b"p" * 125)
    sent = 0
    dropped = False
    deadline = time.monotonic() + 8.0
    sock.settimeout(0.5)
    while time.monotonic() < deadline:
        try:
            sock.sendall(ping * 64)
        except OSError:  # closed or reset by the server, or our send buffer full for 0.5 s
            dropped = True
            break
        sent += 64
    grown_mib = (_rss_kib(pid) - before) / 1024
    sock.close()
    assert grown_mib < 20, f"server grew {grown_mib:.1f} MiB after {sent} pings"
    assert dropped, f"{sent} pings in 8 s and the server still reads"


def test_pings_spend_the_connections_message_budget(live: Any) -> None:
    table_id = live.post("/api/tables", TABLE)["table_id"]
    sock = _open(live.port, table_id)
    with contextlib.suppress(OSError):
        sock.sendall(_frame(0x9, b"x") * 400)  # 20 a second is the budget, bursts of 40
    assert _close_code(sock, within=5) == 1008
    sock.close()


def test_a_text_frame_that_is_not_utf8_closes_with_one_line(live: Any) -> None:
    table_id = live.post("/api/tables", TABLE)["table_id"]
    sock = _open(live.port, table_id)
    sock.sendall(_frame(0x1, b'{"type": "\xff\xfe"}'))
    assert _close_code(sock, within=5) == 1007
    sock.close()
    live.stop()
    errors = live.stderr()
    assert "Traceback" not in errors
    assert errors.count("not UTF-8") == 1


class _StuckTransport:
    """A transport whose peer never reads: everything written stays in its buffer."""

    def __init__(self, backlog: int) -> None:
        self.unsent = backlog
        self.aborted = False
        self.closing = False

    def write(self, data: bytes) -> None:
        self.unsent += len(data)

    def get_write_buffer_size(self) -> int:
        return self.unsent

    def is_closing(self) -> bool:
        return self.closing or self.aborted

    def abort(self) -> None:
        self.aborted = True

    def close(self) -> None:
        self.closing = True

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("10.0.0.9", 5000), "sockname": ("10.0.0.1", 8000)}.get(name, default)

    def pause_reading(self) -> None: ...

    def resume_reading(self) -> None: ...


def test_a_pong_past_the_unsent_bound_drops_the_client() -> None:
    import asyncio

    from uvicorn.config import Config
    from uvicorn.server import ServerState

    from feltro.server.ws_transport import MAX_UNSENT_BYTES, GuardedWebSocketProtocol

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await receive()
        await send({"type": "websocket.accept"})
        await asyncio.sleep(1)

    async def scenario() -> _StuckTransport:
        config = Config(app=app, lifespan="off")
        config.load()
        proto = GuardedWebSocketProtocol(config, ServerState(), {})
        transport = _StuckTransport(backlog=MAX_UNSENT_BYTES - 100)
        proto.connection_made(transport)  # type: ignore[arg-type]
        key = base64.b64encode(os.urandom(16)).decode()
        proto.data_received((f"GET /ws/t HTTP/1.1\r\nHost: 10.0.0.1:8000\r\n"
                             "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                             f"Sec-WebSocket-Key: {key}\r\n"
                             "Sec-WebSocket-Version: 13\r\n\r\n").encode())
        await asyncio.sleep(0.05)  # the application accepts
        for _ in range(3):
            proto.data_received(_frame(0x9, b"p" * 100))
        return transport

    transport = asyncio.run(scenario())
    assert transport.aborted
