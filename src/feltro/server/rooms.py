"""Rooms: a table's connections around its :class:`~feltro.server.game.TableGame`.

One :class:`asyncio.Lock` per room guards one synchronous core step (a message, a tick, a bot's
decision). Inside it nothing awaits: the step runs, its records are committed, and the new views
are *queued* for every connection. Sending happens afterwards, in each connection's own writer
task (:class:`Connection`), so a slow phone never holds up the table: when a receiver falls
behind, its queued ``state`` messages collapse into the newest one (each ``state`` is complete).

The :class:`RoomManager` loads every table at start (resuming them exactly where their logs end),
runs the ticker that deals hands, plays timeouts and away seats, and runs bots in a worker thread
(a strong bot may think for a while; the table stays responsive meanwhile).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import json
import logging
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel

from feltro.actions import Action
from feltro.bots import checked_action
from feltro.errors import StoreError, StoreUnavailableError
from feltro.paths import private_folder
from feltro.seal import SeedSeal
from feltro.server import protocol as p
from feltro.server.archive import MAX_ARCHIVED, ArchivedTable, Lifecycle
from feltro.server.clock import Clock, epoch_ms
from feltro.server.game import MAX_PENDING_REQUESTS, TableGame, problem_text
from feltro.server.journal import Journal, JournalRecord
from feltro.server.model import BotTurn, Identity, TableSettings, parse_action
from feltro.server.protocol import ErrorCode, ProtocolError, error_frame
from feltro.server.security import TokenBucket, hash_token, new_id
from feltro.server.snapshot import TableSnapshot
from feltro.server.views import (
    chips_view,
    dump,
    state_frame,
    summary_view,
    table_view,
    you_view,
)

__all__ = ["Connection", "Room", "RoomManager"]

log = logging.getLogger("feltro.server")

MAX_QUEUED = 256
"""A connection this far behind (not counting collapsed states) is closed."""
SEND_TIMEOUT = 10.0
"""Seconds one frame may take to leave: a client that stops reading is dropped after this."""
HELLO_SECONDS = 10.0
"""A connection that has not said ``hello`` this long after opening is closed."""
MAX_UNIDENTIFIED = 512
"""Connections of one table that have not said ``hello`` yet; past it the oldest is dropped.
Large on purpose: a newcomer survives as long as a flood takes to open this many sockets after
it, and says hello long before (a real client sends it the moment the socket opens), so
strangers cannot keep a player from reaching their seat even from the player's own address."""
MAX_UNIDENTIFIED_TOTAL = 4096
"""Connections of the whole server that have not said ``hello`` yet (memory stays bounded
however many tables a flood aims at)."""
MAX_UNIDENTIFIED_PER_ADDRESS = 4
"""Connections of one table, from one address, that have not said ``hello`` yet."""
MAX_REQUESTS_PER_ADDRESS = 4
"""Seat requests waiting for the host that came from one address."""
MAX_SPECTATORS_PER_ADDRESS = 8
"""Spectators of one table from one address (a tunnel's loopback excepted)."""
MAX_CONNECTIONS_PER_SEAT = 4
"""Devices one seat (or the host) may have open at once; the oldest goes first."""
_LOOPBACK = frozenset({"127.0.0.1", "::1", "localhost"})
_SERIALS = itertools.count()
EXPIRY_INTERVAL = 5.0
"""Seconds between two looks at which tables should leave memory."""
_ENDINGS = frozenset({"archived", "expired"})
SNAPSHOT_REUSE_SECONDS = 1.0
"""A state asked for between two changes of the table reuses the last snapshot this young
(its countdowns are still right to the second)."""
ORPHAN_SECONDS = 30.0
"""A seat request whose every connection closed is withdrawn after this long."""
FLOOD_LIMIT = 200
"""A connection whose messages were refused this many times is closed."""
RETRY_FIRST = 0.2
"""Seconds before a table whose logs could not be written first tries again."""
RETRY_MAX = 2.0
"""The longest wait between two tries (the wait doubles from :data:`RETRY_FIRST`)."""

FrameObserver = Callable[["Connection", str, TableGame], None]
_T = TypeVar("_T")
WRITERS = 4
"""Worker threads that run the tables' steps (each commits to disk before it returns)."""


def _dumps(body: dict[str, Any]) -> str:
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
                self._queue.append((False, _dumps({"type": "bye", "reason": "too far behind",
                                                   "code": "behind"})))
                self.closing = True
        self._wake.set()

    def finish(self, code: str, reason: str) -> None:
        """Queue a ``bye`` (*code*, which the client words; *reason*, English for logs)
        and close once sent."""
        self.push(_dumps({"type": "bye", "reason": reason, "code": code}))
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


class Room:
    """A table and its connections (see the module docstring)."""

    def __init__(self, game: TableGame, manager: RoomManager) -> None:
        self.game = game
        self.manager = manager
        self.lock = asyncio.Lock()
        self.connections: set[Connection] = set()
        self.version = 0
        self._last_hand_flag = False
        self._bot_task: asyncio.Task[None] | None = None
        now = manager.clock.monotonic()
        self.idle_since: float | None = now
        """When its last connection closed (``None`` while someone is connected)."""
        self.over_since: float | None = None
        """When its series was first seen over."""
        self.creator = "?"
        """The address that created it (unknown after a restart)."""
        self._latest: tuple[int, TableSnapshot, dict[str, str]] | None = None
        """The snapshot and public texts (per language) of the current version."""
        self._orphans: dict[str, float] = {}
        """Pending request id -> when its last connection was seen gone."""
        self._request_addresses: dict[str, str] = {}
        """Request id -> the address it came from (per-address request budget)."""
        self._storage = _StorageRetry()
        self._tick_task: asyncio.Task[None] | None = None

    # --- connections --------------------------------------------------------------------------

    def admit(self, address: str) -> str | None:
        """Whether one more websocket from *address* may open: ``None``, or why not.

        Budgets bound what strangers can hold (connections that have not said ``hello``, per
        table and per address); when the table's budget is full the oldest of them makes room,
        so a player with a seat token always gets through.
        """
        waiting = [c for c in self.connections if not c.hello and not c.closing]
        # Behind a tunnel or a proxy every client has the proxy's (loopback) address, so the
        # per-address budget would lock friends out: there, only the table's budget holds.
        if address not in _LOOPBACK and sum(
                1 for c in waiting if c.address == address) >= MAX_UNIDENTIFIED_PER_ADDRESS:
            return "too many connections from your address are waiting; say hello first"
        if len(waiting) >= MAX_UNIDENTIFIED:
            _crowdiest(waiting).finish("crowded", "making room for a newer connection; say "
                                                  "hello sooner")
        everywhere = self.manager.unidentified  # counted as they come, not by a walk
        if len(everywhere) >= MAX_UNIDENTIFIED_TOTAL:
            oldest = _crowdiest([c for c in everywhere if not c.closing] or list(everywhere))
            everywhere.discard(oldest)
            oldest.finish("crowded", "making room for a newer connection; say hello sooner")
        return None

    def attach(self, conn: Connection) -> None:
        """A new websocket (not identified yet: it sees nothing before ``hello``)."""
        observer = self.manager.frame_observer
        if observer is not None:
            conn.observe = lambda text: observer(conn, text, self.game)
        self.connections.add(conn)
        self.manager.unidentified.add(conn)
        self.idle_since = None

    async def detach(self, conn: Connection) -> None:
        """A websocket closed."""
        self.connections.discard(conn)
        self.manager.unidentified.discard(conn)
        conn.closing = True
        conn._wake.set()
        if not self.connections:
            self.idle_since = self.manager.clock.monotonic()
        if conn.seat is not None:
            async with self.lock:
                self._count_connections(conn.seat)
                self._changed()

    def _count_connections(self, seat: int) -> None:
        count = sum(1 for c in self.connections if c.seat == seat and not c.closing)
        self.game.note_connections(seat, count)

    # --- messages -----------------------------------------------------------------------------

    async def receive(self, conn: Connection, text: str | bytes) -> None:
        """Handle one frame from *conn*; every outcome is queued for it (``ack``, ``error``...)."""
        if not conn.bucket.take():
            conn.push(error_frame(ErrorCode.RATE_LIMITED, "too many messages; slow down",
                                  ref=_guess_ref(text)))
            if conn.bucket.refused >= FLOOD_LIMIT:
                conn.finish("flooding", "flooding")
            return
        try:
            message = p.parse_client_message(text)
        except ProtocolError as exc:
            conn.push(error_frame(exc.code, exc.reason, ref=_guess_ref(text)))
            return
        ref = getattr(message, "id", None)
        if isinstance(message, p.Ping):
            conn.push(_dumps({"type": "pong", "t": message.t,
                              "server_time": epoch_ms(self.manager.clock.wall())}))
            return
        if not conn.hello and not isinstance(message, p.Hello):
            conn.push(error_frame(ErrorCode.HELLO_FIRST, "send hello first", ref=ref))
            return
        async with self.lock:
            try:
                changed = await self._dispatch(conn, message)
            except ProtocolError as exc:
                conn.push(error_frame(exc.code, exc.reason, ref=ref, refusal=exc.refusal))
                return
            except StoreError as exc:
                self._fault(exc)
                conn.push(error_frame(ErrorCode.STALLED, problem_text("stalled"), ref=ref))
                return
            except Exception:
                log.exception("table %s: unexpected error on %s", self.game.table_id,
                              type(message).__name__)
                conn.push(error_frame(ErrorCode.INTERNAL, "unexpected server error", ref=ref))
                return
            if changed:
                self._changed()
        self.schedule_bot()

    async def _write(self, step: Callable[..., _T], *args: Any) -> _T:
        """Run one step of the game that may write its logs in a writer thread
        (:attr:`RoomManager.writers`), so that the event loop never waits for the disk. Called
        with :attr:`lock` held: no other step, tick, bot or reader of the table's hand touches
        the game meanwhile (the ticker and :meth:`schedule_bot` skip a locked room, the HTTP
        routes that read a hand take the lock), and the views are built only after the step
        has returned, i.e. after its commit."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.manager.writers, functools.partial(step, *args))

    async def _dispatch(self, conn: Connection, message: BaseModel) -> bool:
        """Run one message against the game. Returns whether the table changed."""
        game = self.game
        now = self.manager.clock.monotonic()
        ref = getattr(message, "id", None)
        ack = _dumps({"type": "ack", "ref": ref})
        match message:
            case p.Hello():
                return self._hello(conn, message)
            case p.SetLang():
                conn.push(ack)
                if message.lang != conn.lang:
                    conn.lang = message.lang
                    self._send_state(conn)
                return False
            case p.Join():
                refused = (conn.identity is not None and conn.identity.role == "pending"
                           and conn.seen_status == "refused")
                if conn.identity is not None and conn.identity.role != "host" and not refused:
                    raise ProtocolError(ErrorCode.TOO_MANY_REQUESTS, "this connection already "
                                        "has a seat or a request")
                by_host = game.is_host(conn.identity)
                if (not by_host and conn.address not in _LOOPBACK
                        and self.requests_from(conn.address) >= MAX_REQUESTS_PER_ADDRESS):
                    raise ProtocolError(ErrorCode.TOO_MANY_REQUESTS, "too many seat requests "
                                        "from your address are waiting for the host")
                if not by_host:
                    await self._write(functools.partial(self._make_room_to_ask, conn))
                request, token = await self._write(functools.partial(
                    game.join, message.name, message.seat, by_host=by_host))
                self._request_addresses[request.request_id] = conn.address
                if not by_host:
                    conn.identity = game.identify_hash(hash_token(token))
                    conn.token_hash = hash_token(token)
                    conn.seen_status = request.status
                conn.push(_dumps({"type": "seat_request", "request_id": request.request_id,
                                  "status": request.status, "seat": request.seat,
                                  "token": token, "ref": ref}))
                return True
            case p.Act():
                seat = self._own_seat(conn, message.seat)
                applied = await self._write(game.act, seat, message.id, message.hand,
                                            message.turn,
                                            parse_action(message.action, message.to), now)
                conn.push(_dumps({"type": "ack", "ref": ref, "duplicate": not applied}))
                return applied
            case p.Contribute():
                game.contribute(self._own_seat(conn, None), message.hand,
                                bytes.fromhex(message.value) if message.value else None,
                                bytes.fromhex(message.seal) if message.seal else None)
                conn.push(ack)
                return False  # nothing to show anyone yet: the deal publishes it
            case p.StepAway():
                await self._write(game.mark_away, self._own_seat(conn, None), "stepped_away")
            case p.ComeBack():
                await self._write(game.come_back, self._own_seat(conn, None))
            case _:
                await self._write(self._host_command(conn, message, now))
        conn.push(ack)
        return True

    def _hello(self, conn: Connection, message: p.Hello) -> bool:
        if conn.hello:
            raise ProtocolError(ErrorCode.ALREADY_IDENTIFIED, "this connection already said "
                                "hello")
        if message.protocol != p.PROTOCOL_VERSION:
            raise ProtocolError(ErrorCode.UNSUPPORTED_PROTOCOL, f"this server speaks protocol "
                                f"{p.PROTOCOL_VERSION}, not {message.protocol}")
        identity: Identity | None = None
        if message.token is not None:
            identity = self.game.identify(message.token)
            wanted = {"host": ("host",), "player": ("player", "pending")}[message.role]
            if identity is None or identity.role not in wanted:
                raise ProtocolError(ErrorCode.BAD_TOKEN, f"that is not a {message.role} token "
                                    f"of this table")
            conn.token_hash = hash_token(message.token)
        if identity is None:
            self._make_room_to_watch(conn)
        else:
            same = sorted((c for c in self.connections if c.hello and not c.closing
                           and c.token_hash == hash_token(message.token or "")),
                          key=lambda c: (c.opened, c.serial))
            for old in same[:max(0, len(same) - MAX_CONNECTIONS_PER_SEAT + 1)]:
                old.finish("replaced", "this seat was opened on another device")
        conn.identity, conn.lang, conn.hello = identity, message.lang, True
        self.manager.unidentified.discard(conn)
        if identity is not None and identity.role == "pending" and identity.request_id:
            conn.seen_status = self.game.requests[identity.request_id].status
        role = identity.role if identity is not None else "spectator"
        conn.push(_dumps({"type": "welcome", "protocol": p.PROTOCOL_VERSION,
                          "table_id": self.game.table_id, "role": role,
                          "seat": conn.seat, "host": self.game.is_host(identity),
                          "boot": self.manager.boot, "ref": message.id}))
        if conn.seat is not None:
            self._count_connections(conn.seat)
            return True
        self._send_state(conn)
        return False

    def _own_seat(self, conn: Connection, claimed: int | None) -> int:
        seat = conn.seat
        if seat is None or conn.identity is None or conn.identity.role != "player":
            raise ProtocolError(ErrorCode.NOT_SEATED, "this connection holds no seat")
        if claimed is not None and claimed != seat:
            raise ProtocolError(ErrorCode.WRONG_SEAT, f"this connection plays seat {seat}, "
                                f"not seat {claimed}")
        return seat

    def _host_command(self, conn: Connection, message: BaseModel,
                      now: float) -> Callable[[], object]:
        """The game step a host command asks for (run by :meth:`_write`)."""
        game = self.game
        if not game.is_host(conn.identity):
            raise ProtocolError(ErrorCode.NOT_HOST, "only the host may do that")
        call = functools.partial
        match message:
            case p.Accept():
                return call(game.accept, message.request_id, message.seat)
            case p.Refuse():
                return call(game.refuse, message.request_id)
            case p.AddBot():
                return call(game.add_bot, message.kind, message.seat, message.name)
            case p.RemoveBot():
                return call(game.remove, message.seat, bot=True)
            case p.RemovePlayer():
                return call(game.remove, message.seat, bot=False)
            case p.MarkAway():
                return call(game.mark_away, message.seat, "host")
            case p.PassHost():
                return call(game.pass_host, message.seat)
            case p.Start():
                return call(game.start, now)
            case p.Pause():
                return call(game.pause)
            case p.Resume():
                return call(game.resume, now)
            case p.EndSeries():
                return call(game.end, now)
            case _:  # pragma: no cover - parse_client_message knows only these types
                raise ProtocolError(ErrorCode.UNKNOWN_TYPE, "unknown message")

    # --- time ---------------------------------------------------------------------------------

    def sweep(self) -> None:
        """Close connections that never said ``hello``; withdraw seat requests whose every
        connection is gone (after :data:`ORPHAN_SECONDS`, so a phone that blinks keeps it)."""
        now = self.manager.clock.monotonic()
        for conn in list(self.connections):
            if not conn.hello and not conn.closing and now - conn.opened > HELLO_SECONDS:
                conn.finish("hello_timeout", "say hello within 10 seconds of connecting")
        live = {c.identity.request_id for c in self.connections
                if c.identity is not None and c.identity.request_id and not c.closing}
        for request in self.game.pending_requests():
            if request.request_id in live:
                self._orphans.pop(request.request_id, None)
                continue
            since = self._orphans.setdefault(request.request_id, now)
            if now - since > ORPHAN_SECONDS and self.game.problem is None:
                self._orphans.pop(request.request_id, None)
                with contextlib.suppress(ProtocolError, StoreError):
                    self.game.refuse(request.request_id)
                    self._changed()

    def archived(self) -> ArchivedTable:
        """What remains of this table once it leaves memory."""
        game = self.game
        snap = game.snapshot()
        summary = summary_view(snap, game.created_at)
        summary["status"] = "archived"
        seats = {s.token_hash: s.seat for s in game.seats.values() if s.token_hash is not None}
        return ArchivedTable(game.table_id, summary, chips_view(snap), seats, game.series_file,
                             game.fairplay.reveal if game.fairplay is not None else None)

    def _make_room_to_watch(self, conn: Connection) -> None:
        """Let *conn* watch: one address holds few spectators (a tunnel's loopback excepted),
        and when the table has its fill the address watching most gives up its oldest one, so
        a newcomer can always watch and then ask for a seat.

        :raises ProtocolError: ``rate_limited`` when *conn*'s own address is over its budget.
        """
        watching = [c for c in self.connections
                    if c.hello and c.identity is None and not c.closing]
        mine = sum(1 for c in watching if c.address == conn.address)
        if conn.address not in _LOOPBACK and mine >= MAX_SPECTATORS_PER_ADDRESS:
            raise ProtocolError(ErrorCode.RATE_LIMITED, "too many people are watching this "
                                "table from your address")
        if len(watching) >= self.manager.max_spectators:
            crowdiest = _crowdiest(watching)
            if crowdiest.address == conn.address and mine <= 1:
                raise ProtocolError(ErrorCode.RATE_LIMITED, "too many people are watching "
                                    "this table")
            crowdiest.finish("crowded", "making room for another spectator; reconnect to "
                                        "watch again")

    def _make_room_to_ask(self, conn: Connection) -> None:
        """Past the table's budget of seat requests, the address asking most gives up its
        oldest request, so a few addresses cannot keep a newcomer from asking."""
        game = self.game
        pending = game.pending_requests()
        if len(pending) < MAX_PENDING_REQUESTS:
            return
        counts: dict[str, int] = {}
        for request in pending:
            origin = self._request_addresses.get(request.request_id, "?")
            counts[origin] = counts.get(origin, 0) + 1
        busiest = max(counts, key=lambda a: counts[a])
        if counts[busiest] < 2 and busiest == conn.address:
            return  # nothing fairer to give up: the table's own refusal stands
        victim = next(r for r in pending
                      if self._request_addresses.get(r.request_id, "?") == busiest)
        game.refuse(victim.request_id)

    def requests_from(self, address: str) -> int:
        """Seat requests waiting for the host that were made from *address*."""
        pending = {r.request_id for r in self.game.pending_requests()}
        return sum(1 for request_id, origin in self._request_addresses.items()
                   if origin == address and request_id in pending)

    async def tick(self) -> None:
        """Deal, time out and auto-play what is due (in a task of its own, so that the ticker
        never waits for a disk); push views when something changed."""
        if self.lock.locked():  # a step is running (it sends its views); next tick
            return
        game = self.game
        self.sweep()
        if game.stalled and game.problem is None:
            self._storage.start(self)
            return
        if game.problem is not None or game.store is None:
            return
        if self.over_since is None and game.is_over:
            self.over_since = self.manager.clock.monotonic()
        if game.tick_due(self.manager.clock.monotonic()):
            if self._tick_task is None or self._tick_task.done():
                self._tick_task = asyncio.get_running_loop().create_task(self._tick_step())
            return
        flag = self._last_hand()
        if flag != self._last_hand_flag:
            self._last_hand_flag = flag
            self._changed()
        self.schedule_bot()

    async def _tick_step(self) -> None:
        async with self.lock:
            game = self.game
            if game.stalled or game.problem is not None:
                return
            try:
                changed = await self._write(game.tick, self.manager.clock.monotonic())
            except StoreError as exc:
                self._fault(exc)
                return
            flag = self._last_hand()
            if changed or flag != self._last_hand_flag:
                self._last_hand_flag = flag
                self._changed()
        self.schedule_bot()

    def _last_hand(self) -> bool:
        return self.game.is_last_hand(self.manager.clock.wall())

    def schedule_bot(self) -> None:
        """Start the due bot decision, if any, in a worker thread."""
        if self._bot_task is not None and not self._bot_task.done():
            return
        if self.lock.locked():  # a step is running; it calls this again when it is done
            return
        turn = self.game.bot_turn(self.manager.clock.monotonic())
        if turn is not None:
            self._bot_task = asyncio.get_running_loop().create_task(self._run_bot(turn))

    async def _run_bot(self, turn: BotTurn) -> None:
        action: Action | None
        try:
            action, note = await asyncio.to_thread(checked_action, turn.bot, turn.view,
                                                   turn.legal)
            if note:
                log.warning("table %s seat %d: %s", self.game.table_id, turn.seat, note)
        except Exception:
            log.exception("table %s: bot in seat %d failed", self.game.table_id, turn.seat)
            action = None
        async with self.lock:
            try:
                changed = await self._write(self.game.bot_act, turn, action,
                                            self.manager.clock.monotonic())
            except StoreError as exc:
                self._bot_task = None
                self._fault(exc)
                return
            if changed:
                self._changed()
        self._bot_task = None
        self.schedule_bot()

    # --- fan-out ------------------------------------------------------------------------------

    # --- storage faults ---------------------------------------------------------------------

    def _fault(self, exc: StoreError) -> None:
        """A write failed: the table in memory may be ahead of its logs (a played action whose
        record was not committed). It stops at once: nobody is shown that state, nothing more is
        written; the ticker reloads it from its logs and resumes it when they can be written
        (:class:`_StorageRetry`), or quarantines it when they are gone or damaged. The details
        (with paths) go to the server's log; players read plain words."""
        game = self.game
        log.error("table %s cannot save (%s): %s", game.table_id, type(exc).__name__, exc)
        game.stalled = True
        store, game.store = game.store, None  # never shown nor written again
        game._hand_log = None
        if store is not None:
            store.close()  # releases its lock, so that the reload can open it
        self.manager.forget_journal(game.table_id)
        task, current = self._bot_task, asyncio.current_task()
        if task is not None and task is not current:
            task.cancel()
        self._bot_task = None
        self._storage.reset(self.manager.clock.monotonic())

    def _swap(self, game: TableGame) -> None:
        """Put *game* (reloaded from the logs) in place of the stopped one."""
        self.game = game
        for seat in {c.seat for c in self.connections if c.seat is not None}:
            self._count_connections(seat)

    def _changed(self) -> None:
        """The table changed: re-check every connection's identity, queue every view."""
        self.version += 1
        game = self.game
        for conn in list(self.connections):
            if conn.token_hash is None or conn.closing:
                continue
            identity = game.identify_hash(conn.token_hash)
            if identity is None:
                conn.finish("revoked", "your seat or host role is no longer valid at this table")
                continue
            if identity != conn.identity:
                old_seat = conn.seat
                conn.identity = identity
                if old_seat is None and identity.seat is not None:
                    self._count_connections(identity.seat)
            if identity.request_id is not None and identity.role == "pending":
                status = game.requests[identity.request_id].status
                if status != conn.seen_status:
                    conn.seen_status = status
                    self._push_request(conn, identity.request_id)
            elif conn.seen_status == "pending" and identity.role == "player":
                conn.seen_status = "accepted"
                for request in game.requests.values():
                    if request.token_hash == conn.token_hash:
                        self._push_request(conn, request.request_id)
        texts: dict[str, str] = {}
        clock = self.manager.clock
        snap = game.snapshot(clock.monotonic(), clock.wall())
        self._latest = (self.version, snap, texts)
        for conn in self.connections:
            if conn.hello and not conn.closing:
                self._send_state(conn, snap, texts)

    def _send_state(self, conn: Connection, snap: TableSnapshot | None = None,
                    texts: dict[str, str] | None = None) -> None:
        """Queue *conn*'s ``state``; *texts* caches the public part per language."""
        if snap is None:
            # A late joiner or a language change between two changes of the table gets the
            # snapshot (and the public texts) everyone else got: cheap however often asked.
            clock = self.manager.clock
            latest = self._latest
            if (latest is not None and latest[0] == self.version
                    and clock.monotonic() - latest[1].mono_now < SNAPSHOT_REUSE_SECONDS):
                _, snap, texts = latest
            else:
                snap = self.game.snapshot(clock.monotonic(), clock.wall())
                texts = {}
                self._latest = (self.version, snap, texts)
        texts = {} if texts is None else texts
        if conn.lang not in texts:
            texts[conn.lang] = dump(table_view(snap, conn.lang))
        self._deliver(conn, state_frame(self.version, self.manager.boot,
                                        epoch_ms(snap.wall_now), texts[conn.lang],
                                        you_view(snap, conn.identity, conn.lang)),
                      state=True)

    def _push_request(self, conn: Connection, request_id: str) -> None:
        request = self.game.requests[request_id]
        self._deliver(conn, _dumps({"type": "seat_request", "request_id": request_id,
                                    "status": request.status, "seat": request.seat}))

    def _deliver(self, conn: Connection, text: str, *, state: bool = False) -> None:
        conn.push(text, state=state)

    async def close_all(self) -> None:
        """Say goodbye to every connection (server shutting down)."""
        for conn in list(self.connections):
            conn.finish("stopping", "the server is stopping; reconnect in a moment")


def _crowdiest(connections: list[Connection]) -> Connection:
    """The oldest connection of the address that holds most of *connections*."""
    counts: dict[str, int] = {}
    for conn in connections:
        counts[conn.address] = counts.get(conn.address, 0) + 1
    busiest = max(counts.values())
    return min((c for c in connections if counts[c.address] == busiest),
               key=lambda c: (c.opened, c.serial))


def _guess_ref(text: str | bytes) -> str | None:
    """The ``id`` of a refused message, when one can be read, to echo as ``ref``."""
    if p.frame_bytes(text) > p.MAX_MESSAGE_BYTES or p.json_depth(text) > p.MAX_JSON_DEPTH:
        return None
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None
    ref = data.get("id") if isinstance(data, dict) else None
    if isinstance(ref, str) and 0 < len(ref) <= 64 and ref.isprintable():
        return ref
    return None


class RoomManager:
    """Every table of this server, its journal and its ticker."""

    def __init__(self, folder: str | Path, clock: Clock, *, tick_interval: float = 0.05,
                 max_tables: int = 500, rate: float = 20.0, burst: float = 40.0,
                 max_spectators: int = 64, lifecycle: Lifecycle | None = None,
                 seal: SeedSeal | None = None) -> None:
        self.folder = Path(folder)
        self.max_spectators = max_spectators
        """Connections of one table that watch without a seat."""
        self.clock = clock
        self.tick_interval = tick_interval
        self.max_tables = max_tables
        self.rate, self.burst = rate, burst
        self.boot = new_id(6)
        self.rooms: dict[str, Room] = {}
        self.unidentified: set[Connection] = set()
        """Every connection of the server that has not said hello yet."""
        self.archive: OrderedDict[str, ArchivedTable] = OrderedDict()
        """Tables that left memory, oldest first (:mod:`feltro.server.archive`)."""
        self.lifecycle = lifecycle or Lifecycle()
        self.seal = seal
        """The key every table's series seed is sealed with (:mod:`feltro.seal`)."""
        self._next_expiry = 0.0
        self.journal: Journal | None = None
        self.frame_observer: FrameObserver | None = None
        """Tests: called with every frame queued for a connection, with the game it came from."""
        self._ticker: asyncio.Task[None] | None = None
        self.writers = ThreadPoolExecutor(WRITERS, thread_name_prefix="feltro-write")
        """Where the tables' steps run (:meth:`Room._write`), apart from the bots' threads."""

    async def start(self) -> None:
        """Open the journal, resume every table, start the ticker."""
        self.journal = Journal(self.folder)
        private_folder(self.folder / "tables")
        loaded = [self._load(table_id) for table_id in self.journal.table_ids()]
        games = sorted((g for g in loaded if g is not None),
                       key=lambda g: (g.created_at, g.table_id))  # in the order they were made
        for game in games:
            table_id = game.table_id
            if game.problem:
                log.error("table %s is quarantined (%s)", table_id, game.problem)
            room = Room(game, self)
            if game.stalled:
                room._storage.reset(self.clock.monotonic())
            self.rooms[table_id] = room
        self._ticker = asyncio.get_running_loop().create_task(self._tick_forever())

    def _load(self, table_id: str) -> TableGame | None:
        """A table as its logs have it; quarantined (``problem``) when they cannot be read, or
        ``None`` when not even its settings can."""
        journal = self._journal()
        try:
            records = journal.table_records(table_id)
            ending = next((r for r in reversed(records) if r.kind in _ENDINGS), None)
            if ending is not None:
                self._restore_ending(table_id, ending)
                return None
            return TableGame.restore(table_id, records, journal, self.folder / "tables",
                                     self.clock, seal=self.seal)
        except StoreUnavailableError as exc:
            log.warning("table %s cannot be read now (%s); it will be retried", table_id, exc)
            problem = "stalled"
        except Exception as exc:  # a damaged table never stops the server
            log.error("table %s cannot be restored: %s", table_id, exc)
            problem = "damaged" if journal.path_of(table_id).is_file() else "missing"
        created = journal.created_record(table_id)
        if created is None:
            log.error("table %s: not even its settings can be read; it is left out", table_id)
            return None
        try:
            game = TableGame.quarantined(table_id, created, journal, self.folder / "tables",
                                         self.clock, "damaged")
        except (KeyError, TypeError, ValueError) as exc:
            log.error("table %s: its settings cannot be read (%s); it is left out", table_id,
                      exc)
            return None
        if problem == "stalled":
            game.problem, game.stalled = None, True
        else:
            game.problem = problem
        return game

    def reload_table(self, table_id: str) -> TableGame:
        """Rebuild *table_id* from its logs (thread-safe: it touches no live table).

        :raises StoreUnavailableError: if a file cannot be read now.
        :raises StoreError, KeyError, TypeError, ValueError: if its journal cannot be read.
        """
        journal = self._journal()
        records = journal.table_records(table_id)
        return TableGame.restore(table_id, records, journal, self.folder / "tables", self.clock,
                                 seal=self.seal)

    def forget_journal(self, table_id: str) -> None:
        """Close *table_id*'s journal file (it is opened again by its next use)."""
        if self.journal is not None:
            self.journal.forget(table_id)

    def _journal(self) -> Journal:
        if self.journal is None:
            raise RuntimeError("the room manager is not started")
        return self.journal

    def _restore_ending(self, table_id: str, record: JournalRecord) -> None:
        if record.kind != "archived":
            return  # an expired lobby: nothing to keep
        try:
            self._remember(ArchivedTable.from_record(table_id, record.body))
        except (KeyError, TypeError, ValueError) as exc:
            log.error("archived table %s cannot be read: %s", table_id, exc)

    def _remember(self, table: ArchivedTable) -> None:
        self.archive[table.table_id] = table
        self.archive.move_to_end(table.table_id)
        while len(self.archive) > MAX_ARCHIVED:
            self.archive.popitem(last=False)

    def live_tables(self) -> int:
        """Tables in their lobby or being played (what the table limit counts)."""
        return sum(1 for room in self.rooms.values() if room.game.status not in ("over",))

    async def expire(self) -> None:
        """Archive tables that are over or abandoned, drop lobbies nobody uses
        (:class:`~feltro.server.archive.Lifecycle`)."""
        now = self.clock.monotonic()
        for table_id, room in list(self.rooms.items()):
            game = room.game
            status = game.status
            fate = self.lifecycle.fate(
                status=status,
                over_for=None if room.over_since is None else now - room.over_since,
                idle_for=None if room.idle_since is None else now - room.idle_since)
            if fate == "keep" or self.journal is None:
                continue
            if room.lock.locked() or game.stalled:  # a step in a writer thread, or a stall
                continue
            at = self.clock.wall().isoformat()
            try:
                if fate == "archive":
                    table = room.archived()
                    self.journal.append(table_id, "archived", table.to_record(), at)
                    self._remember(table)
                else:
                    self.journal.append(table_id, "expired", {}, at)
            except StoreError as exc:
                log.error("table %s cannot be archived yet: %s", table_id, exc)
                continue
            del self.rooms[table_id]  # first: nothing reaches it while it closes
            await room.close_all()
            for task in (room._bot_task, room._tick_task):
                if task is not None:
                    task.cancel()
            await room._storage.stop()
            game.close()
            log.info("table %s %s", table_id, "archived" if fate == "archive" else "expired")

    async def stop(self) -> None:
        """Stop the ticker, say goodbye, close every log."""
        if self._ticker is not None:
            self._ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._ticker
        for room in self.rooms.values():
            await room.close_all()
            for task in (room._bot_task, room._tick_task):
                if task is not None:
                    task.cancel()
            await room._storage.stop()
        self.writers.shutdown(wait=True)  # the steps in progress finish their commits
        for room in self.rooms.values():
            room.game.close()
        if self.journal is not None:
            self.journal.close()

    def new_connection(self, send: Callable[[str], Awaitable[None]],
                       close: Callable[[int], Awaitable[None]],
                       address: str = "?") -> Connection:
        """A connection with this server's rate limits."""
        return Connection(send, close, TokenBucket(self.rate, self.burst, self.clock.monotonic),
                          address=address, opened=self.clock.monotonic())

    def lobbies_of(self, address: str) -> int:
        """Tables created from *address* that are still in their lobby."""
        return sum(1 for room in self.rooms.values()
                   if room.creator == address and room.game.status == "lobby")

    def create_table(self, settings: TableSettings, *,
                     creator: str = "?") -> tuple[Room, str]:
        """A new table in its lobby; returns its room and the host token.

        :raises ProtocolError: ``not_now`` when the server holds too many tables.
        """
        if self.journal is None:
            raise RuntimeError("the room manager is not started")
        if self.live_tables() >= self.max_tables:
            raise ProtocolError(ErrorCode.NOT_NOW, "this server holds too many tables")
        game, token = TableGame.create(settings, self.journal, self.folder / "tables",
                                       self.clock, seal=self.seal)
        room = Room(game, self)
        room.creator = creator
        self.rooms[game.table_id] = room
        return room, token

    async def tick_all(self) -> None:
        """One tick of every room; now and then, the tables' lifecycle."""
        for room in list(self.rooms.values()):
            await room.tick()
        now = self.clock.monotonic()
        if now >= self._next_expiry:
            self._next_expiry = now + EXPIRY_INTERVAL
            await self.expire()

    async def _tick_forever(self) -> None:
        while True:
            await asyncio.sleep(self.tick_interval)
            try:
                await self.tick_all()
            except Exception:  # never let one bad table stop the clock of the others
                log.exception("ticker error")


class _StorageRetry:
    """Brings a stalled table back (see :meth:`Room._fault`): reload it from its logs in a
    worker thread, then check in a worker thread that its files can be written; when they can,
    it resumes. A file locked or a disk full waits (:data:`RETRY_FIRST`, doubling up to
    :data:`RETRY_MAX`); a file gone or damaged quarantines the table. The event loop never
    waits for the disk here."""

    def __init__(self) -> None:
        self.due = 0.0
        self.wait = RETRY_FIRST
        self.reload = False
        self.task: asyncio.Task[None] | None = None

    def reset(self, now: float) -> None:
        """A fault just happened: reload at the next tick."""
        self.due, self.wait, self.reload = now, RETRY_FIRST, True

    def start(self, room: Room) -> None:
        """Try again if it is time and no try is running."""
        if self.task is not None and not self.task.done():
            return
        if room.manager.clock.monotonic() < self.due:
            return
        self.task = asyncio.get_running_loop().create_task(self._attempt(room))

    async def stop(self) -> None:
        if self.task is not None and not self.task.done():
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task

    async def _attempt(self, room: Room) -> None:
        async with room.lock:
            table_id = room.game.table_id
            try:
                if self.reload:
                    fresh = await asyncio.to_thread(room.manager.reload_table, table_id)
                    fresh.stalled = True
                    if fresh.problem is None and (fresh.store is not None
                                                  or fresh.series_file is None):
                        self.reload = False
                    room._swap(fresh)
                    if fresh.problem is not None:
                        room._changed()  # quarantined: restore found the logs damaged
                        return
                    if self.reload:
                        raise StoreUnavailableError(f"table {table_id}: series log unreadable")
                await asyncio.to_thread(room.game.probe)
            except StoreUnavailableError as exc:
                now = room.manager.clock.monotonic()
                log.warning("table %s still cannot save (%s); next try in %.1f s", table_id,
                            exc, self.wait)
                self.due, self.wait = now + self.wait, min(self.wait * 2, RETRY_MAX)
                room._changed()
                return
            except Exception as exc:  # gone or damaged: it stops for good
                log.error("table %s is quarantined: %s", table_id, exc)
                game = room.game
                game.problem = ("damaged" if room.manager._journal().path_of(table_id).is_file()
                                and (game.series_file is None
                                     or (room.manager.folder / "tables" /
                                         game.series_file).is_file()) else "missing")
                room._changed()
                return
            room.game.stalled = False
            log.warning("table %s saves again; it resumes", table_id)
            room._changed()
        room.schedule_bot()
