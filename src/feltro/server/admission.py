"""Who may come in, and how many: the budgets a table keeps against strangers.

:class:`Admission` (one per room) bounds what strangers can hold: connections that have not said
``hello`` (per table, per address, and across the server), spectators per address, seat requests
per address. When a budget is full the *crowdiest* address gives up its oldest place, so a
player with a seat token always gets through and a newcomer can always watch and then ask for a
seat. It also sweeps: connections that never said ``hello`` are closed, and seat requests whose
every connection is gone are withdrawn.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Final

from feltro.errors import StoreError
from feltro.server.connection import Connection, crowdiest
from feltro.server.lobby import MAX_PENDING_REQUESTS
from feltro.server.protocol import ErrorCode, ProtocolError

if TYPE_CHECKING:
    from feltro.server.room import Room

__all__ = [
    "HELLO_SECONDS",
    "LOOPBACK",
    "MAX_CONNECTIONS_PER_SEAT",
    "MAX_REQUESTS_PER_ADDRESS",
    "MAX_SPECTATORS_PER_ADDRESS",
    "MAX_UNIDENTIFIED",
    "MAX_UNIDENTIFIED_PER_ADDRESS",
    "MAX_UNIDENTIFIED_TOTAL",
    "ORPHAN_SECONDS",
    "Admission",
]

HELLO_SECONDS: Final = 10.0
"""A connection that has not said ``hello`` this long after opening is closed."""
MAX_UNIDENTIFIED: Final = 512
"""Connections of one table that have not said ``hello`` yet; past it the oldest is dropped.
Large on purpose: a newcomer survives as long as a flood takes to open this many sockets after
it, and says hello long before (a real client sends it the moment the socket opens), so
strangers cannot keep a player from reaching their seat even from the player's own address."""
MAX_UNIDENTIFIED_TOTAL: Final = 4096
"""Connections of the whole server that have not said ``hello`` yet (memory stays bounded
however many tables a flood aims at)."""
MAX_UNIDENTIFIED_PER_ADDRESS: Final = 4
"""Connections of one table, from one address, that have not said ``hello`` yet."""
MAX_REQUESTS_PER_ADDRESS: Final = 4
"""Seat requests waiting for the host that came from one address."""
MAX_SPECTATORS_PER_ADDRESS: Final = 8
"""Spectators of one table from one address (a tunnel's loopback excepted)."""
MAX_CONNECTIONS_PER_SEAT: Final = 4
"""Devices one seat (or the host) may have open at once; the oldest goes first."""
ORPHAN_SECONDS: Final = 30.0
"""A seat request whose every connection closed is withdrawn after this long."""
LOOPBACK: Final = frozenset({"127.0.0.1", "::1", "localhost"})
"""Behind a tunnel or a proxy every client has the proxy's (loopback) address, so per-address
budgets would lock friends out: there, only the table's budgets hold."""


class Admission:
    """A room's budgets against strangers (see the module docstring)."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.orphans: dict[str, float] = {}
        """Pending request id -> when its last connection was seen gone."""
        self.request_addresses: dict[str, str] = {}
        """Request id -> the address it came from (per-address request budget)."""

    def admit(self, address: str) -> str | None:
        """Whether one more websocket from *address* may open: ``None``, or why not."""
        waiting = [c for c in self.room.connections if not c.hello and not c.closing]
        if address not in LOOPBACK and sum(
                1 for c in waiting if c.address == address) >= MAX_UNIDENTIFIED_PER_ADDRESS:
            return "too many connections from your address are waiting; say hello first"
        if len(waiting) >= MAX_UNIDENTIFIED:
            crowdiest(waiting).finish("crowded", "making room for a newer connection; say "
                                                 "hello sooner")
        everywhere = self.room.manager.unidentified  # counted as they come, not by a walk
        if len(everywhere) >= MAX_UNIDENTIFIED_TOTAL:
            oldest = crowdiest([c for c in everywhere if not c.closing] or list(everywhere))
            everywhere.discard(oldest)
            oldest.finish("crowded", "making room for a newer connection; say hello sooner")
        return None

    def watch(self, conn: Connection) -> None:
        """Let *conn* watch: one address holds few spectators (a tunnel's loopback excepted),
        and when the table has its fill the address watching most gives up its oldest one.

        :raises ProtocolError: ``rate_limited`` when *conn*'s own address is over its budget.
        """
        watching = [c for c in self.room.connections
                    if c.hello and c.identity is None and not c.closing]
        mine = sum(1 for c in watching if c.address == conn.address)
        if conn.address not in LOOPBACK and mine >= MAX_SPECTATORS_PER_ADDRESS:
            raise ProtocolError(ErrorCode.RATE_LIMITED, "too many people are watching this "
                                "table from your address")
        if len(watching) >= self.room.manager.max_spectators:
            busiest = crowdiest(watching)
            if busiest.address == conn.address and mine <= 1:
                raise ProtocolError(ErrorCode.RATE_LIMITED, "too many people are watching "
                                    "this table")
            busiest.finish("crowded", "making room for another spectator; reconnect to "
                                      "watch again")

    def make_room_for_device(self, conn: Connection) -> None:
        """*conn* opens a seat (or the host role) with its token: past
        :data:`MAX_CONNECTIONS_PER_SEAT` devices the oldest one goes."""
        same = sorted((c for c in self.room.connections if c.hello and not c.closing
                       and c.token_hash == conn.token_hash),
                      key=lambda c: (c.opened, c.serial))
        for old in same[:max(0, len(same) - MAX_CONNECTIONS_PER_SEAT + 1)]:
            old.finish("replaced", "this seat was opened on another device")

    def check_ask(self, address: str) -> None:
        """:raises ProtocolError: ``too_many_requests`` when *address* has its fill of seat
        requests waiting for the host."""
        if address not in LOOPBACK and self.requests_from(address) >= MAX_REQUESTS_PER_ADDRESS:
            raise ProtocolError(ErrorCode.TOO_MANY_REQUESTS, "too many seat requests from your "
                                "address are waiting for the host")

    def make_room_to_ask(self, address: str) -> None:
        """Past the table's budget of seat requests, the address asking most gives up its
        oldest request, so a few addresses cannot keep a newcomer from asking (may write: run
        in a writer thread)."""
        table = self.room.table
        pending = table.lobby.pending_requests()
        if len(pending) < MAX_PENDING_REQUESTS:
            return
        counts: dict[str, int] = {}
        for request in pending:
            origin = self.request_addresses.get(request.request_id, "?")
            counts[origin] = counts.get(origin, 0) + 1
        busiest = max(counts, key=lambda a: counts[a])
        if counts[busiest] < 2 and busiest == address:
            return  # nothing fairer to give up: the table's own refusal stands
        victim = next(r for r in pending
                      if self.request_addresses.get(r.request_id, "?") == busiest)
        table.refuse(victim.request_id)

    def requests_from(self, address: str) -> int:
        """Seat requests waiting for the host that were made from *address*."""
        pending = {r.request_id for r in self.room.table.lobby.pending_requests()}
        return sum(1 for request_id, origin in self.request_addresses.items()
                   if origin == address and request_id in pending)

    def sweep(self, now: float) -> bool:
        """Close connections that never said ``hello``; withdraw seat requests whose every
        connection is gone (after :data:`ORPHAN_SECONDS`, so a phone that blinks keeps it).
        Returns whether the table changed."""
        room, changed = self.room, False
        for conn in list(room.connections):
            if not conn.hello and not conn.closing and now - conn.opened > HELLO_SECONDS:
                conn.finish("hello_timeout", "say hello within 10 seconds of connecting")
        live = {c.identity.request_id for c in room.connections
                if c.identity is not None and c.identity.request_id and not c.closing}
        for request in room.table.lobby.pending_requests():
            if request.request_id in live:
                self.orphans.pop(request.request_id, None)
                continue
            since = self.orphans.setdefault(request.request_id, now)
            if now - since > ORPHAN_SECONDS and room.table.problem is None:
                self.orphans.pop(request.request_id, None)
                with contextlib.suppress(ProtocolError, StoreError):
                    room.table.refuse(request.request_id)
                    changed = True
        return changed
