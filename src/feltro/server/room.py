"""A room: one table's connections around its :class:`~feltro.server.live_table.LiveTable`.

One :class:`asyncio.Lock` per room guards one synchronous table step (a message, something due
on the clock, a bot's decision). Inside it nothing awaits but the step itself, which runs in a
writer thread (:meth:`Room.write`) so that the event loop never waits for the disk: the step
runs, its records are committed, and the new views are *queued* for every connection
(:meth:`Room.changed`). Sending happens afterwards, in each connection's own writer task
(:mod:`feltro.server.connection`).

Messages go to their handler by type (:data:`_HANDLERS`; the host's commands by
:data:`_HOST_STEPS`); every outcome is queued for the sender (``ack``, ``error``...). A rule's
refusal is the engine's, passed through as data.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Final, TypeVar

from pydantic import BaseModel

from feltro.errors import StoreError
from feltro.server import entries, seat_messages
from feltro.server import protocol as p
from feltro.server.admission import Admission
from feltro.server.clock import epoch_ms
from feltro.server.connection import Connection, dumps
from feltro.server.decision_ids import DecisionIds
from feltro.server.live_table import LiveTable
from feltro.server.problems import problem_text
from feltro.server.protocol import ErrorCode, ProtocolError, error_frame, guess_ref
from feltro.server.recovery import StorageRetry
from feltro.server.seat_links import restore_seat
from feltro.server.security import hash_token
from feltro.server.snapshot import TableSnapshot
from feltro.server.views import state_text
from feltro.session import BotTurn, Session

if TYPE_CHECKING:
    from feltro.server.rooms import RoomManager

__all__ = ["FLOOD_LIMIT", "SNAPSHOT_REUSE_SECONDS", "Room"]

log = logging.getLogger("feltro.server")

SNAPSHOT_REUSE_SECONDS: Final = 1.0
"""A state asked for between two changes of the table reuses the last snapshot this young
(its countdowns are still right to the second)."""
FLOOD_LIMIT: Final = 200
"""A connection whose messages were refused this many times is closed."""
_T = TypeVar("_T")
Handler = Callable[["Room", Connection, Any, float], Awaitable[bool]]


class Room:
    """A table and its connections (see the module docstring)."""

    def __init__(self, table: LiveTable, manager: RoomManager) -> None:
        self.table = table
        self.manager = manager
        self.lock = asyncio.Lock()
        self.connections: set[Connection] = set()
        self.admission = Admission(self)
        self.decisions = DecisionIds()
        self.version = 0
        self._last_hand_flag = False
        self.bot_task: asyncio.Task[None] | None = None
        self.step_task: asyncio.Task[None] | None = None
        self.idle_since: float | None = manager.clock.monotonic()
        """When its last connection closed (``None`` while someone is connected)."""
        self.over_since: float | None = None
        self.reacted: dict[int, float] = {}
        """Seat -> when it last sent a reaction (monotonic)."""
        """When its series was first seen over."""
        self.latest: tuple[int, TableSnapshot, dict[str, str]] | None = None
        """The snapshot and public texts (per language) of the current version."""
        self.storage = StorageRetry()

    # --- connections --------------------------------------------------------------------------

    def admit(self, address: str) -> str | None:
        """Whether one more websocket from *address* may open: ``None``, or why not."""
        return self.admission.admit(address)

    def attach(self, conn: Connection) -> None:
        """A new websocket (not identified yet: it sees nothing before ``hello``)."""
        observer = self.manager.frame_observer
        if observer is not None:
            conn.observe = lambda text: observer(conn, text, self.table)
        self.connections.add(conn)
        self.manager.unidentified.add(conn)
        self.idle_since = None

    async def detach(self, conn: Connection) -> None:
        """A websocket closed."""
        self.connections.discard(conn)
        self.manager.unidentified.discard(conn)
        conn.stop()
        if not self.connections:
            self.idle_since = self.manager.clock.monotonic()
        if conn.seat is not None:
            async with self.lock:
                self._count_connections(conn.seat)
                self.changed()

    def _count_connections(self, seat: int) -> None:
        count = sum(1 for c in self.connections if c.seat == seat and not c.closing)
        self.table.note_connections(seat, count)

    # --- messages -----------------------------------------------------------------------------

    async def receive(self, conn: Connection, text: str | bytes) -> None:
        """Handle one frame from *conn*; every outcome is queued for it (``ack``, ``error``...)."""
        if not conn.bucket.take():
            conn.push(error_frame(ErrorCode.RATE_LIMITED, "too many messages; slow down",
                                  ref=guess_ref(text)))
            if conn.bucket.refused >= FLOOD_LIMIT:
                conn.finish("flooding", "flooding")
            return
        try:
            message = p.parse_client_message(text)
        except ProtocolError as exc:
            conn.push(error_frame(exc.code, exc.reason, ref=guess_ref(text)))
            return
        ref = getattr(message, "id", None)
        if isinstance(message, p.Ping):
            conn.push(dumps({"type": "pong", "t": message.t,
                             "server_time": epoch_ms(self.manager.clock.wall())}))
            return
        if not conn.hello and not isinstance(message, p.Hello):
            conn.push(error_frame(ErrorCode.HELLO_FIRST, "send hello first", ref=ref))
            return
        async with self.lock:
            try:
                handler = _HANDLERS.get(type(message), Room._host_command)
                changed = await handler(self, conn, message, self.manager.clock.monotonic())
            except ProtocolError as exc:
                conn.push(error_frame(exc.code, exc.reason, ref=ref, refusal=exc.refusal))
                return
            except StoreError as exc:
                self.fault(exc)
                conn.push(error_frame(ErrorCode.STALLED, problem_text("stalled"), ref=ref))
                return
            except Exception:
                log.exception("table %s: unexpected error on %s", self.table.table_id,
                              type(message).__name__)
                conn.push(error_frame(ErrorCode.INTERNAL, "unexpected server error", ref=ref))
                return
            if changed:
                self.changed()
        self.schedule_bot()

    async def write(self, step: Callable[..., _T], *args: Any) -> _T:
        """Run one step of the table that may write its logs in a writer thread
        (:attr:`RoomManager.writers <feltro.server.rooms.RoomManager.writers>`), so that the
        event loop never waits for the disk. Called with :attr:`lock` held: no other step,
        bot or reader of the table's hand touches the table meanwhile (the ticker and
        :meth:`schedule_bot` skip a locked room, the HTTP routes that read a hand take the
        lock), and the views are built only after the step has returned, i.e. after its
        commit."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.manager.writers, functools.partial(step, *args))

    async def _hello(self, conn: Connection, message: p.Hello, now: float) -> bool:
        if conn.hello:
            raise ProtocolError(ErrorCode.ALREADY_IDENTIFIED, "this connection already said "
                                "hello")
        if message.protocol != p.PROTOCOL_VERSION:
            raise ProtocolError(ErrorCode.UNSUPPORTED_PROTOCOL, f"this server speaks protocol "
                                f"{p.PROTOCOL_VERSION}, not {message.protocol}")
        lobby = self.table.lobby
        identity = None
        if message.token is not None:
            identity = lobby.identify(message.token)
            wanted = {"host": ("host",), "player": ("player", "pending")}[message.role]
            if identity is None or identity.role not in wanted:
                raise ProtocolError(ErrorCode.BAD_TOKEN, f"that is not a {message.role} token "
                                    f"of this table")
            conn.token_hash = hash_token(message.token)
            self.admission.make_room_for_device(conn)
        else:
            self.admission.watch(conn)
        conn.identity, conn.lang, conn.hello = identity, message.lang, True
        self.manager.unidentified.discard(conn)
        if identity is not None and identity.role == "pending" and identity.request_id:
            conn.seen_status = lobby.requests[identity.request_id].status
        conn.push(dumps({"type": "welcome", "protocol": p.PROTOCOL_VERSION,
                         "table_id": self.table.table_id,
                         "role": identity.role if identity is not None else "spectator",
                         "seat": conn.seat, "host": lobby.is_host(identity),
                         "boot": self.manager.boot, "ref": message.id}))
        if conn.seat is not None:
            self._count_connections(conn.seat)
            return True
        self.send_state(conn)
        return False

    async def _set_lang(self, conn: Connection, message: p.SetLang, now: float) -> bool:
        conn.push(dumps({"type": "ack", "ref": message.id}))
        if message.lang != conn.lang:
            conn.lang = message.lang
            self.send_state(conn)
        return False

    async def _join(self, conn: Connection, message: p.Join, now: float) -> bool:
        refused = (conn.identity is not None and conn.identity.role == "pending"
                   and conn.seen_status == "refused")
        if conn.identity is not None and conn.identity.role != "host" and not refused:
            raise ProtocolError(ErrorCode.TOO_MANY_REQUESTS, "this connection already has a "
                                "seat or a request")
        table = self.table
        by_host = table.lobby.is_host(conn.identity)
        if not by_host:
            self.admission.check_ask(conn.address)
            await self.write(self.admission.make_room_to_ask, conn.address)
        request, token = await self.write(functools.partial(
            entries.join, table, message.name, message.seat, by_host=by_host))
        self.admission.request_addresses[request.request_id] = conn.address
        if not by_host:
            conn.token_hash = hash_token(token)
            conn.identity = table.lobby.identify_hash(conn.token_hash)
            conn.seen_status = request.status
        conn.push(dumps({"type": "seat_request", "request_id": request.request_id,
                         "status": request.status, "seat": request.seat, "token": token,
                         "ref": message.id}))
        return True

    async def _act(self, conn: Connection, message: p.Act, now: float) -> bool:
        seat, turn = self.own_seat(conn, message.seat), (message.hand, message.turn)
        duplicate = self.decisions.seen(seat, message.id, turn)
        if not duplicate:
            await self.write(self.table.act, seat, turn, message.engine_action(), now)
            self.decisions.note(seat, message.id, turn)
        conn.push(dumps({"type": "ack", "ref": message.id, "duplicate": duplicate}))
        return not duplicate

    async def _host_command(self, conn: Connection, message: BaseModel, now: float) -> bool:
        if not self.table.lobby.is_host(conn.identity):
            raise ProtocolError(ErrorCode.NOT_HOST, "only the host may do that")
        step = _HOST_STEPS.get(type(message))
        if step is None:  # pragma: no cover - parse_client_message knows only these types
            raise ProtocolError(ErrorCode.UNKNOWN_TYPE, "unknown message")
        await self.write(step, self.table, message, now)
        conn.push(dumps({"type": "ack", "ref": getattr(message, "id", None)}))
        return True

    def own_seat(self, conn: Connection, claimed: int | None) -> int:
        seat = conn.seat
        if seat is None or conn.identity is None or conn.identity.role != "player":
            raise ProtocolError(ErrorCode.NOT_SEATED, "this connection holds no seat")
        if claimed is not None and claimed != seat:
            raise ProtocolError(ErrorCode.WRONG_SEAT, f"this connection plays seat {seat}, "
                                f"not seat {claimed}")
        return seat

    # --- time ---------------------------------------------------------------------------------

    async def tick(self) -> None:
        """Start what is due (in a task of its own, so that the ticker never waits for a
        disk); push views when something changed."""
        if self.lock.locked():  # a step is running (it sends its views); next tick
            return
        table, now = self.table, self.manager.clock.monotonic()
        if self.admission.sweep(now):
            self.changed()
        if table.stalled and table.problem is None:
            self.storage.start(self)
            return
        if table.problem is not None or table.store is None:
            return
        if self.over_since is None and table.is_over:
            self.over_since = now
            self._release_files()
        if self.manager.budgets.paused(
                started=table.started and self.over_since is None,
                unwatched_for=None if self.idle_since is None else now - self.idle_since):
            return  # nobody is connected: no deals, no bots, until someone comes back
        due = table.due(now)
        if due is not None and due != "bot":
            if self.step_task is None or self.step_task.done():
                self.step_task = asyncio.get_running_loop().create_task(self._run_due())
            return
        self._note_last_hand()
        self.schedule_bot()

    def _release_files(self) -> None:
        """A finished table closes its logs at once (what it shows stays in memory; its
        journal file opens again if something is still written)."""
        self.table.close()
        self.manager.forget_journal(self.table.table_id)

    async def _run_due(self) -> None:
        async with self.lock:
            table = self.table
            if table.stalled or table.problem is not None:
                return
            try:
                changed = await self.write(table.run_due, self.manager.clock.monotonic())
            except StoreError as exc:
                self.fault(exc)
                return
            self._note_last_hand(changed)
        self.schedule_bot()

    def _note_last_hand(self, changed: bool = False) -> None:
        """Queue the views if the table *changed*, or if the hand in progress just became the
        last (the clock passed the stop time: nothing else changes then)."""
        flag = self.table.is_last_hand(self.manager.clock.wall())
        if changed or flag != self._last_hand_flag:
            self._last_hand_flag = flag
            self.changed()

    def schedule_bot(self) -> None:
        """Start the due bot decision, if any, in a worker thread."""
        if self.bot_task is not None and not self.bot_task.done():
            return
        if self.lock.locked():  # a step is running; it calls this again when it is done
            return
        turn = self.table.bot_turn(self.manager.clock.monotonic())
        if turn is not None:
            self.bot_task = asyncio.get_running_loop().create_task(self._run_bot(turn))

    async def _run_bot(self, turn: BotTurn) -> None:
        answer = await asyncio.to_thread(Session.answer, turn)
        if answer.refused is not None:
            log.warning("table %s seat %d: the bot answered %s, not legal now; played %s",
                        self.table.table_id, turn.seat, answer.refused, answer.action)
        async with self.lock:
            try:
                changed = await self.write(self.table.bot_act, turn, answer,
                                           self.manager.clock.monotonic())
            except StoreError as exc:
                self.bot_task = None
                self.fault(exc)
                return
            if changed:
                self.changed()
        self.bot_task = None
        self.schedule_bot()

    # --- storage faults -----------------------------------------------------------------------

    def fault(self, exc: StoreError) -> None:
        """A write failed: the table in memory may be ahead of its logs (a played action whose
        record was not committed). It stops at once: nobody is shown that state, nothing more is
        written; the ticker reloads it from its logs and resumes it when they can be written
        (:class:`~feltro.server.recovery.StorageRetry`), or quarantines it when they are gone
        or damaged. The details (with paths) go to the server's log; players read plain
        words."""
        table = self.table
        log.error("table %s cannot save (%s): %s", table.table_id, type(exc).__name__, exc)
        table.stalled = True
        store, table.store, table.seated = table.store, None, None  # never shown nor written
        table.hand_log = None
        if store is not None:
            store.close()  # releases its lock, so that the reload can open it
        self.manager.forget_journal(table.table_id)
        task, current = self.bot_task, asyncio.current_task()
        if task is not None and task is not current:
            task.cancel()
        self.bot_task = None
        self.storage.reset(self.manager.clock.monotonic())

    def swap(self, table: LiveTable) -> None:
        """Put *table* (reloaded from the logs) in place of the stopped one."""
        self.table = table
        for seat in {c.seat for c in self.connections if c.seat is not None}:
            self._count_connections(seat)

    # --- fan-out ------------------------------------------------------------------------------

    def changed(self) -> None:
        """The table changed: re-check every connection's identity, queue every view."""
        self.version += 1
        lobby = self.table.lobby
        for conn in list(self.connections):
            if conn.token_hash is None or conn.closing:
                continue
            identity = lobby.identify_hash(conn.token_hash)
            if identity is None:
                conn.finish("revoked", "your seat or host role is no longer valid at this table")
                continue
            if identity != conn.identity:
                old_seat = conn.seat
                conn.identity = identity
                if old_seat is None and identity.seat is not None:
                    self._count_connections(identity.seat)
            self._follow_request(conn)
        texts: dict[str, str] = {}
        clock = self.manager.clock
        snap = self.table.snapshot(clock.monotonic(), clock.wall())
        self.latest = (self.version, snap, texts)
        for conn in self.connections:
            if conn.hello and not conn.closing:
                self.send_state(conn, snap, texts)

    def _follow_request(self, conn: Connection) -> None:
        """Tell *conn* when its seat request was answered."""
        identity, requests = conn.identity, self.table.lobby.requests
        assert identity is not None
        if identity.request_id is not None and identity.role == "pending":
            status = requests[identity.request_id].status
            if status != conn.seen_status:
                conn.seen_status = status
                self._push_request(conn, identity.request_id)
        elif conn.seen_status == "pending" and identity.role == "player":
            conn.seen_status = "accepted"
            for request in requests.values():
                if request.token_hash == conn.token_hash:
                    self._push_request(conn, request.request_id)

    def send_state(self, conn: Connection, snap: TableSnapshot | None = None,
                   texts: dict[str, str] | None = None) -> None:
        """Queue *conn*'s ``state``; *texts* caches the public part per language."""
        if snap is None:
            # A late joiner or a language change between two changes of the table gets the
            # snapshot (and the public texts) everyone else got: cheap however often asked.
            clock = self.manager.clock
            latest = self.latest
            if (latest is not None and latest[0] == self.version
                    and clock.monotonic() - latest[1].mono_now < SNAPSHOT_REUSE_SECONDS):
                _, snap, texts = latest
            else:
                snap = self.table.snapshot(clock.monotonic(), clock.wall())
                texts = {}
                self.latest = (self.version, snap, texts)
        conn.push(state_text(snap, conn.identity, conn.lang, version=self.version,
                             boot=self.manager.boot, public={} if texts is None else texts),
                  state=True)

    def _push_request(self, conn: Connection, request_id: str) -> None:
        request = self.table.lobby.requests[request_id]
        conn.push(dumps({"type": "seat_request", "request_id": request_id,
                         "status": request.status, "seat": request.seat}))

    async def close_all(self) -> None:
        """Say goodbye to every connection (server shutting down)."""
        for conn in list(self.connections):
            conn.finish("stopping", "the server is stopping; reconnect in a moment")

    async def stop_tasks(self) -> None:
        """Stop this room's tasks (its table is leaving memory, or the server stops)."""
        for task in (self.bot_task, self.step_task):
            if task is not None:
                task.cancel()
        await self.storage.stop()


_HANDLERS: Final[dict[type[BaseModel], Handler]] = {
    p.Hello: Room._hello,
    p.SetLang: Room._set_lang,
    p.Join: Room._join,
    p.Act: Room._act,
    p.Contribute: seat_messages.contribute,
    p.FairAlarm: seat_messages.fair_alarm,
    p.StepAway: seat_messages.step_away,
    p.ComeBack: seat_messages.come_back,
    p.ReissueSeat: seat_messages.reissue,
    p.React: seat_messages.react,
    p.ShowCards: seat_messages.show_cards,
    p.ShowLosers: seat_messages.show_losers,
}
"""Message type -> its handler; every other type is a host command (:data:`_HOST_STEPS`)."""

_HOST_STEPS: Final[dict[type[BaseModel], Callable[[LiveTable, Any, float], object]]] = {
    p.Accept: lambda table, m, now: entries.accept(table, m.request_id, m.seat),
    p.Reenter: lambda table, m, now: entries.reenter(table, m.seat),
    p.Refuse: lambda table, m, now: table.refuse(m.request_id),
    p.AddBot: lambda table, m, now: table.add_bot(m.kind, m.seat, m.name),
    p.RemoveBot: lambda table, m, now: table.remove(m.seat, bot=True),
    p.RemovePlayer: lambda table, m, now: table.remove(m.seat, bot=False),
    p.RestoreSeat: lambda table, m, now: restore_seat(table, m.seat),
    p.MarkAway: lambda table, m, now: table.mark_away(m.seat, "host"),
    p.PassHost: lambda table, m, now: table.pass_host(m.seat),
    p.Start: lambda table, m, now: table.start(now),
    p.Pause: lambda table, m, now: table.pause(),
    p.Resume: lambda table, m, now: table.resume(now),
    p.EndSeries: lambda table, m, now: table.end(now),
}
"""A host command -> the table step it asks for (run by :meth:`Room.write`)."""
