"""One websocket as a room sees it: :class:`Connection` (who it is, and its outgoing queue).

A room never awaits a send: it *queues* frames (:meth:`Connection.push`) and each connection's
own writer task (:meth:`Connection.writer`) sends them, so a slow phone never holds up the table.
When a receiver falls behind, its queued ``state`` messages collapse into the newest one (each
``state`` is complete); one too far behind is closed.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from feltro.server.lobby import Identity
from feltro.server.security import TokenBucket

__all__ = ["MAX_QUEUED", "SEND_TIMEOUT", "Connection", "crowdiest", "dumps"]

log = logging.getLogger("feltro.server")

MAX_QUEUED = 256
"""A connection this far behind (not counting collapsed states) is closed."""
SEND_TIMEOUT = 10.0
"""Seconds one frame may take to leave: a client that stops reading is dropped after this."""
_SERIALS = itertools.count()


def dumps(body: dict[str, Any]) -> str:
    """A short frame as compact JSON text."""
    return json.dumps(body, separators=(",", ":"))


@dataclass(eq=False)
class Connection:
    """One websocket, as the room sees it: who it is, and its outgoing queue."""

    send: Callable[[str], Awaitable[None]]
    close: Callable[[int], Awaitable[None]]
    bucket: TokenBucket
    identity: Identity | None = None
    token_hash: str | None = field(default=None, repr=False)
    lang: str = "en"
    hello: bool = False
    seen_status: str | None = None
    closing: bool = False
    address: str = "?"
    """The client's address (per-address budgets)."""
    opened: float = 0.0
    """When it opened (monotonic seconds): the ``hello`` deadline counts from here."""
    serial: int = field(default_factory=lambda: next(_SERIALS))
    """Order of opening, for connections opened in the same instant."""
    observe: Callable[[str], None] | None = None
    """Tests: sees every frame queued for this connection."""
    _queue: deque[tuple[bool, str]] = field(default_factory=deque)
    _wake: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def seat(self) -> int | None:
        """The seat this connection plays, if any."""
        return self.identity.seat if self.identity is not None else None

    def push(self, text: str, *, state: bool = False) -> None:
        """Queue a frame (never blocks). A ``state`` replaces a ``state`` still queued last."""
        if self.closing:
            return
        if self.observe is not None:
            self.observe(text)
        if state and self._queue and self._queue[-1][0]:
            self._queue[-1] = (True, text)
        else:
            self._queue.append((state, text))
            if len(self._queue) > MAX_QUEUED:
                self._queue.clear()
                self._queue.append((False, dumps({"type": "bye", "reason": "too far behind",
                                                  "code": "behind"})))
                self.closing = True
        self._wake.set()

    def finish(self, code: str, reason: str) -> None:
        """Queue a ``bye`` (*code*, which the client words; *reason*, English for logs)
        and close once sent."""
        self.push(dumps({"type": "bye", "reason": reason, "code": code}))
        self.closing = True
        self._wake.set()

    def stop(self) -> None:
        """The socket closed: send nothing more, let the writer end."""
        self.closing = True
        self._wake.set()

    async def writer(self) -> None:
        """Send queued frames in order until the connection closes."""
        try:
            while True:
                await self._wake.wait()
                self._wake.clear()
                while self._queue:
                    _, text = self._queue.popleft()
                    await asyncio.wait_for(self.send(text), SEND_TIMEOUT)
                if self.closing:
                    await self.close(1000)
                    return
        except Exception as exc:  # the socket went away, or the client stopped reading
            log.debug("connection writer stopped: %r", exc)
            self.closing = True
            self._queue.clear()


def crowdiest(connections: list[Connection]) -> Connection:
    """The oldest connection of the address that holds most of *connections*."""
    counts: dict[str, int] = {}
    for conn in connections:
        counts[conn.address] = counts.get(conn.address, 0) + 1
    busiest = max(counts.values())
    return min((c for c in connections if counts[c.address] == busiest),
               key=lambda c: (c.opened, c.serial))
