"""Issue 22, item 4: no fragment of a token in any log at any level (at ``--log-level debug``
the websocket library logs every frame cut to its head and tail, so a token split by the cut
slipped past the mask of whole tokens), and a request with both ``Content-Length`` and
``Transfer-Encoding`` gets its reply and then the connection is closed. Each test failed before
the fix."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from feltro.server.security import RedactingFilter, new_token


@pytest.fixture
def debug_server(tmp_path: Path) -> Iterator[Any]:
    from realserver import ServerProcess

    server = ServerProcess(tmp_path / "data", log_level="debug")
    server.start()
    try:
        yield server
    finally:
        server.stop()


def _fragments(token: str, size: int = 8) -> set[str]:
    return {token[i:i + size] for i in range(len(token) - size + 1)}


def test_no_fragment_of_a_token_reaches_a_debug_log(debug_server: Any) -> None:
    from websockets.sync.client import connect

    created = debug_server.post("/api/tables", {"name": "Logs"})
    host_token = created["host_token"]
    url = f"ws://127.0.0.1:{debug_server.port}/ws/{created['table_id']}"
    with connect(url, proxy=None, open_timeout=5) as ws:
        # padding moves the token into the tail the library keeps of a long frame
        ws.send(json.dumps({"type": "hello", "protocol": 1, "role": "host", "lang": "en",
                            "id": "x" * 40, "token": host_token}))
        ws.recv(timeout=5)
        ws.send(json.dumps({"type": "join", "name": "Ana", "id": "j"}))
        seat_token = None
        for _ in range(20):
            frame = json.loads(ws.recv(timeout=5))
            if frame.get("type") == "seat_request" and frame.get("token"):
                seat_token = frame["token"]
                break
    debug_server.stop()
    logs = debug_server.stderr()
    assert "TEXT" in logs  # the frames were logged (debug level)
    for token in filter(None, [host_token, seat_token]):
        leaked = [f for f in _fragments(token) if f in logs]
        assert not leaked, f"{len(leaked)} fragments of a token in the log"


def test_a_token_cut_by_the_frame_log_is_masked() -> None:
    token = new_token()
    cut = f'TEXT \'{{"type":"hello","token":"{token[:21]}...\' [90 bytes]'
    record = logging.LogRecord("uvicorn.error", logging.DEBUG, __file__, 1, "< %s", (cut,),
                               None)
    RedactingFilter().filter(record)
    assert not [f for f in _fragments(token, 6) if f in record.getMessage()]


def test_both_content_length_and_transfer_encoding_close_after_the_reply(
        debug_server: Any) -> None:
    import socket
    import time

    body = b'{"name": "x"}'
    request = (b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
               b"Content-Type: application/json\r\nContent-Length: 4\r\n"
               b"Transfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n0\r\n\r\n"
               % (debug_server.port, len(body), body))
    with socket.create_connection(("127.0.0.1", debug_server.port), timeout=3) as sock:
        sock.sendall(request)
        answer, started = b"", time.monotonic()
        while chunk := sock.recv(65536):  # ends when the server closes the connection
            answer += chunk
        waited = time.monotonic() - started
    head = answer.split(b"\r\n\r\n", 1)[0].lower()
    assert head.startswith(b"http/1.1 201")
    assert b"connection: close" in head
    assert waited < 2  # closed after the reply, not by the idle timeout
