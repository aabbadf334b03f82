"""The websocket connection itself, below the application: bounded like the HTTP one.

``feltro serve`` runs uvicorn with :class:`GuardedWebSocketProtocol` (uvicorn's sans-I/O
websockets protocol) instead of the default one, which answers every ping at once without
looking at what is still unsent, so a client that sends pings and never reads grew the server
without limit (its pongs piled up in the socket's buffer). Here:

* the bytes waiting to leave one connection are bounded (:data:`MAX_UNSENT_BYTES`, pongs
  included): past it the client is dropped (the application's own frames already wait for the
  buffer to drain, :mod:`feltro.server.connection`);
* control frames (ping, pong) spend the connection's message budget, the same
  :class:`~feltro.server.security.TokenBucket` its messages spend (the route hands it over
  through the ``feltro.frames`` scope extension): a ping over the budget gets no pong, and
  :data:`CONTROL_FLOOD_LIMIT` of them close the connection (1008);
* a text frame that is not UTF-8 closes the connection (1007) with one log line, no traceback.
"""

from __future__ import annotations

import logging
import time
from typing import Any, Final

from websockets.frames import Frame

from feltro.server.security import TokenBucket
from feltro.server.transport import WideWindowWebSockets

__all__ = ["CONTROL_FLOOD_LIMIT", "FRAMES_EXTENSION", "MAX_UNSENT_BYTES",
           "GuardedWebSocketProtocol"]

log = logging.getLogger("feltro.server")

MAX_UNSENT_BYTES: Final = 256 * 1024
"""Bytes that may wait to leave one websocket; a client further behind is dropped."""
CONTROL_FLOOD_LIMIT: Final = 50
"""Control frames over the budget after which the connection is closed."""
FRAMES_EXTENSION: Final = "feltro.frames"
"""The scope extension through which the route shares the connection's message budget."""
DEFAULT_RATE: Final = 20.0
"""Frames a second before the route shares its budget (the server's default message rate)."""
DEFAULT_BURST: Final = 40.0


class GuardedWebSocketProtocol(WideWindowWebSockets):
    """uvicorn's websockets protocol (with the wide compression window) with bounded unsent
    output, counted control frames and a quiet close on bad UTF-8."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._budget: dict[str, TokenBucket] = {
            "bucket": TokenBucket(DEFAULT_RATE, DEFAULT_BURST, time.monotonic)}
        self._control_refused = 0

    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        scope: Any = getattr(self, "scope", None)
        if scope is not None:
            scope["extensions"][FRAMES_EXTENSION] = self._budget

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._check_unsent()

    def handle_ping(self) -> None:
        if self.transport.is_closing():
            self.conn.data_to_send()  # nothing more leaves a closing connection
        elif self._spend_control():
            super().handle_ping()  # writes the pong the protocol queued
        else:
            self.conn.data_to_send()  # the pong is dropped, not queued
        self._check_unsent()

    def handle_pong(self, event: Frame) -> None:
        if self._spend_control():
            super().handle_pong(event)

    def send_receive_event_to_app(self) -> None:
        if self.curr_msg_data_type == "text" and not self.close_sent:
            try:
                b"".join(self.frames).decode()
            except UnicodeDecodeError:
                self.frames = []
                log.warning("websocket closed: a text frame that is not UTF-8 (from %s)",
                            self._peer())
                self._close_now(1007, "invalid UTF-8")
                return
        super().send_receive_event_to_app()

    async def send(self, message: Any) -> None:
        await super().send(message)
        self._check_unsent()

    def _spend_control(self) -> bool:
        """Whether one control frame fits the connection's budget; closes a flooder."""
        if self._budget["bucket"].take():
            return True
        self._control_refused += 1
        if self._control_refused >= CONTROL_FLOOD_LIMIT and not self.close_sent:
            log.warning("websocket closed: too many control frames (from %s)", self._peer())
            self._close_now(1008, "too many control frames")
        return False

    def _check_unsent(self) -> None:
        """Drop the client when more than :data:`MAX_UNSENT_BYTES` wait to leave."""
        transport = self.transport
        if transport is None or transport.is_closing():
            return
        if transport.get_write_buffer_size() > MAX_UNSENT_BYTES:
            log.warning("websocket dropped: the client stopped reading (from %s)", self._peer())
            transport.abort()

    def _close_now(self, code: int, reason: str) -> None:
        """Send a close frame and close the socket, telling the application."""
        if self.transport.is_closing():
            return
        self.queue.put_nowait({"type": "websocket.disconnect", "code": code, "reason": reason})
        try:
            self.conn.send_close(code, reason)
            self.transport.write(b"".join(self.conn.data_to_send()))
        except Exception as exc:  # the protocol already closing: nothing more to say
            log.debug("websocket close frame not sent: %r", exc)
        self.close_sent = True
        self.transport.close()

    def _peer(self) -> str:
        return self.client[0] if self.client else "?"
