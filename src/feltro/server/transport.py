"""The HTTP connection itself, below the application: bounded before any request exists.

``feltro serve`` runs uvicorn with :class:`GuardedH11Protocol` (h11, with a 16 KiB limit on a
request's head) instead of the default parser, which reads headers of any size into memory. The
protocol also bounds what a stranger can hold without ever finishing a request (slowloris):

* one address keeps at most :data:`MAX_OPEN_PER_ADDRESS` HTTP connections open at once
  (loopback excepted: behind a tunnel every friend comes from there);
* a connection must finish its request's head within :data:`HEAD_SECONDS` of opening, or of
  its previous response, else it is closed;
* a request with both ``Content-Length`` and ``Transfer-Encoding`` gets its reply, then the
  connection is closed (RFC 9112: a front proxy may have framed it the other way).

A websocket leaves this protocol when it is upgraded; from then on the rooms bound it (hello
deadline, per-address budgets, :mod:`feltro.server.admission`).
"""

from __future__ import annotations

import asyncio
from typing import Any, ClassVar, Final, cast

from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory

__all__ = ["HEAD_SECONDS", "MAX_HEAD_BYTES", "MAX_OPEN_PER_ADDRESS", "GuardedH11Protocol",
           "WideWindowWebSockets"]

MAX_HEAD_BYTES: Final = 16 * 1024
"""The largest request line and headers read (uvicorn's ``h11_max_incomplete_event_size``)."""
MAX_OPEN_PER_ADDRESS: Final = 64
"""HTTP connections one address may hold open at once."""
HEAD_SECONDS: Final = 10.0
"""Seconds a connection has to send a whole request head."""
_LOOPBACK: Final = frozenset({"127.0.0.1", "::1"})
_CLOSE: Final = (b"connection", b"close")


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with per-address connection counts and a head deadline."""

    open_by_address: ClassVar[dict[str, int]] = {}
    """Open (not upgraded) HTTP connections per client address, in this process."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._address = self.client[0] if self.client else "?"
        self._counted = False
        self._deadline: asyncio.TimerHandle | None = None
        held = self.open_by_address.get(self._address, 0)
        if self._address not in _LOOPBACK and held >= MAX_OPEN_PER_ADDRESS:
            transport.close()
            return
        self.open_by_address[self._address] = held + 1
        self._counted = True
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._release()
        super().connection_lost(exc)

    def handle_websocket_upgrade(self, event: Any) -> None:
        self._release()  # the room bounds it from now on
        super().handle_websocket_upgrade(event)

    def handle_events(self) -> None:
        super().handle_events()
        cycle = self.cycle
        if cycle is not None and not cycle.response_started:
            headers = cast(list[tuple[bytes, bytes]], cycle.scope["headers"])  # uvicorn's list
            names = {name for name, _ in headers}
            if {b"content-length", b"transfer-encoding"} <= names and _CLOSE not in headers:
                # Both framings in one request (RFC 9112, 6.3): the body was read as chunked;
                # the reply says "connection: close" and the connection closes after it.
                headers.append(_CLOSE)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._arm()  # the next request's head is bounded in time too

    def _arm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
        self._deadline = self.loop.call_later(HEAD_SECONDS, self._head_late)

    def _head_late(self) -> None:
        self._deadline = None
        waiting = self.cycle is None or self.cycle.response_complete
        if waiting and not self.transport.is_closing():
            self.transport.close()

    def _release(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        if self._counted:
            self._counted = False
            left = self.open_by_address.get(self._address, 1) - 1
            if left > 0:
                self.open_by_address[self._address] = left
            else:
                self.open_by_address.pop(self._address, None)


COMPRESS_SETTINGS: Final = {"level": 4, "memLevel": 5}
"""zlib's settings for the frames the server sends. The state frames repeat each other, so the
32 KiB window does most of the work: level 4 sends 4.8% of the raw bytes against 3.9% at zlib's
default 6 (``benchmarks/phone_bytes.py``) for two thirds of its CPU; under the attacked load
(``benchmarks/load_server.py --attackers 60 --deaf 5 --pin``) p99 fell from 50 to 33 ms.
Memory level 5: 16 KiB of hash table a connection instead of 128 KiB."""


class WideWindowWebSockets(WebSocketsSansIOProtocol):
    """uvicorn's websocket protocol, with permessage-deflate over a 32 KiB window when
    compression is on (issue 23). uvicorn offers a 4 KiB window: shorter than one ``state``
    frame, so each frame compresses alone (about 40% of its size); with the previous frames in
    the window a phone downloads about 4% (``benchmarks/phone_bytes.py``), for about 150 KiB
    of zlib memory per connection."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.config.ws_per_message_deflate:
            self.conn.available_extensions = [ServerPerMessageDeflateFactory(
                client_max_window_bits=12, compress_settings=dict(COMPRESS_SETTINGS))]
