"""Every table of this server: :class:`RoomManager` (its rooms, its journal, its ticker).

The manager loads every table at start (resuming them exactly where their logs end,
:mod:`feltro.server.restore`), runs the ticker that asks each room what is due (deals, away
seats, timeouts, bots: :meth:`Room.tick <feltro.server.room.Room.tick>`), archives tables that
are over or abandoned and drops lobbies nobody uses (:mod:`feltro.server.archive`). Each table is
a :class:`~feltro.server.room.Room` around a :class:`~feltro.server.live_table.LiveTable`; each
websocket a :class:`~feltro.server.connection.Connection`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from pathlib import Path
from typing import Final

from feltro.errors import StoreError, StoreUnavailableError
from feltro.paths import private_folder
from feltro.seal import SeedSeal
from feltro.server.admission import LOOPBACK
from feltro.server.archive import MAX_ARCHIVED, UNKNOWN_CREATOR, ArchivedTable, Lifecycle
from feltro.server.budgets import Budgets, TableRefusedError, folder_bytes
from feltro.server.clock import Clock
from feltro.server.connection import Connection
from feltro.server.journal import Journal, JournalRecord
from feltro.server.live_table import LiveTable
from feltro.server.restore import quarantined, restore
from feltro.server.room import Room
from feltro.server.security import TokenBucket, new_id
from feltro.server.table_settings import TableSettings
from feltro.server.views import chips_view, summary_view

__all__ = ["EXPIRY_INTERVAL", "USAGE_INTERVAL", "WRITERS", "FrameObserver", "RoomManager"]

log = logging.getLogger("feltro.server")

EXPIRY_INTERVAL: Final = 5.0
"""Seconds between two looks at which tables should leave memory."""
USAGE_INTERVAL: Final = 60.0
"""Seconds between two measures of the data folder (and deletions of old archives)."""
WRITERS: Final = 4
"""Worker threads that run the tables' steps (each commits to disk before it returns)."""
_ENDINGS: Final = frozenset({"archived", "expired"})

FrameObserver = Callable[[Connection, str, LiveTable], None]


class RoomManager:
    """Every table of this server, its journal and its ticker."""

    def __init__(self, folder: str | Path, clock: Clock, *, tick_interval: float = 0.05,
                 max_tables: int = 500, rate: float = 20.0, burst: float = 40.0,
                 max_spectators: int = 64, lifecycle: Lifecycle | None = None,
                 seal: SeedSeal | None = None, budgets: Budgets | None = None) -> None:
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
        self.budgets = budgets or Budgets()
        """What tables from other machines may cost (:mod:`feltro.server.budgets`)."""
        self.data_bytes = 0
        """What the data folder held when last measured (every :data:`USAGE_INTERVAL`)."""
        self._next_usage = 0.0
        self.seal = seal
        """The key every table's series seed is sealed with (:mod:`feltro.seal`)."""
        self._next_expiry = 0.0
        self.journal: Journal | None = None
        self.frame_observer: FrameObserver | None = None
        """Tests: called with every frame queued for a connection, with its table."""
        self._ticker: asyncio.Task[None] | None = None
        self.writers = ThreadPoolExecutor(WRITERS, thread_name_prefix="feltro-write")
        """Where the tables' steps run (:meth:`Room._write`), apart from the bots' threads."""

    async def start(self) -> None:
        """Open the journal, resume every table, start the ticker."""
        self.journal = Journal(self.folder)
        private_folder(self.folder / "tables")
        loaded = [self._load(table_id) for table_id in self.journal.table_ids()]
        tables = sorted((t for t in loaded if t is not None),
                        key=lambda t: (t.created_at, t.table_id))  # in the order they were made
        for table in tables:
            table_id = table.table_id
            if table.problem:
                log.error("table %s is quarantined (%s)", table_id, table.problem)
            room = Room(table, self)
            if table.stalled:
                room.storage.reset(self.clock.monotonic())
            self.rooms[table_id] = room
        self._ticker = asyncio.get_running_loop().create_task(self._tick_forever())

    def _load(self, table_id: str) -> LiveTable | None:
        """A table as its logs have it; quarantined (``problem``) when they cannot be read, or
        ``None`` when not even its settings can."""
        journal = self._journal()
        try:
            records = journal.table_records(table_id)
            ending = next((r for r in reversed(records) if r.kind in _ENDINGS), None)
            if ending is not None:
                self._restore_ending(table_id, ending)
                return None
            return restore(table_id, records, journal, self.folder / "tables", self.clock,
                           seal=self.seal)
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
            table = quarantined(table_id, created, journal, self.folder / "tables",
                                self.clock, "damaged")
        except (KeyError, TypeError, ValueError) as exc:
            log.error("table %s: its settings cannot be read (%s); it is left out", table_id,
                      exc)
            return None
        if problem == "stalled":
            table.problem, table.stalled = None, True
        else:
            table.problem = problem
        return table

    def reload_table(self, table_id: str) -> LiveTable:
        """Rebuild *table_id* from its logs (thread-safe: it touches no live table).

        :raises StoreUnavailableError: if a file cannot be read now.
        :raises StoreError, KeyError, TypeError, ValueError: if its journal cannot be read.
        """
        journal = self._journal()
        records = journal.table_records(table_id)
        return restore(table_id, records, journal, self.folder / "tables", self.clock,
                       seal=self.seal)

    def problem_of(self, table: LiveTable) -> str:
        """Why *table*'s logs cannot be resumed: ``missing`` when a file is gone, else
        ``damaged``."""
        tables = self.folder / "tables"
        present = self._journal().path_of(table.table_id).is_file() and (
            table.series_file is None or (tables / table.series_file).is_file())
        return "damaged" if present else "missing"

    def forget_journal(self, table_id: str) -> None:
        """Close *table_id*'s journal file (it is opened again by its next use)."""
        if self.journal is not None:
            self.journal.forget(table_id)

    def _journal(self) -> Journal:
        if self.journal is None:
            raise RuntimeError("the room manager is not started")
        return self.journal

    def _restore_ending(self, table_id: str, record: JournalRecord) -> None:
        if record.kind != "archived":  # an expired lobby: nothing to keep
            self._delete_files(table_id, None)
            return
        try:
            self._remember(ArchivedTable.from_record(table_id, record.body, record.at))
        except (KeyError, TypeError, ValueError) as exc:
            log.error("archived table %s cannot be read: %s", table_id, exc)

    def _remember(self, table: ArchivedTable) -> None:
        self.archive[table.table_id] = table
        self.archive.move_to_end(table.table_id)
        while len(self.archive) > MAX_ARCHIVED:
            self.archive.popitem(last=False)

    def live_tables(self) -> int:
        """Tables in their lobby or being played."""
        return sum(1 for room in self.rooms.values() if room.table.status not in ("over",))

    def tables_held(self) -> int:
        """Tables counted against the server's limit: every one in memory (finished ones too),
        and the archived ones a stranger's address created."""
        return len(self.rooms) + sum(1 for table in self.archive.values()
                                     if table.creator not in LOOPBACK
                                     and table.creator != UNKNOWN_CREATOR)

    def tables_of(self, address: str) -> int:
        """Tables created from *address* still held: in memory (finished ones too) or archived
        and still remembered."""
        return (sum(1 for room in self.rooms.values() if room.table.creator == address)
                + sum(1 for table in self.archive.values() if table.creator == address))

    async def measure(self) -> None:
        """Delete archived tables past their retention, and measure the data folder."""
        now = self.clock.wall()
        for table_id, table in list(self.archive.items()):
            if table.archived_at is None:
                continue
            try:
                archived_for = (now - datetime.fromisoformat(table.archived_at)).total_seconds()
            except (TypeError, ValueError):
                continue
            if self.budgets.expired(archived_for=archived_for):
                del self.archive[table_id]
                self._delete_files(table_id, table.series_file)
                log.info("archived table %s deleted (past its retention)", table_id)
        self.data_bytes = await asyncio.to_thread(folder_bytes, self.folder)

    def _delete_files(self, table_id: str, series_file: str | None) -> None:
        """Close and delete *table_id*'s journal file and series log (what exists of them)."""
        journal = self._journal()
        journal.forget(table_id)
        paths = [journal.path_of(table_id)]
        if series_file is not None:
            paths.append(self.folder / "tables" / series_file)
        for path in paths:
            for extra in ("", "-wal", "-shm"):
                with contextlib.suppress(FileNotFoundError):
                    path.with_name(path.name + extra).unlink()

    async def expire(self) -> None:
        """Archive tables that are over or abandoned, drop lobbies nobody uses
        (:class:`~feltro.server.archive.Lifecycle`)."""
        now = self.clock.monotonic()
        for table_id, room in list(self.rooms.items()):
            table = room.table
            status = table.status
            fate = self.lifecycle.fate(
                status=status,
                over_for=None if room.over_since is None else now - room.over_since,
                idle_for=None if room.idle_since is None else now - room.idle_since)
            if fate == "keep" or self.journal is None:
                continue
            if room.lock.locked() or table.stalled:  # a step in a writer thread, or a stall
                continue
            at = self.clock.wall().isoformat()
            try:
                if fate == "archive":
                    archived = _archived(room, at)
                    self.journal.append(table_id, "archived", archived.to_record(), at)
                    self._remember(archived)
                else:
                    self.journal.append(table_id, "expired", {}, at)
            except StoreError as exc:
                log.error("table %s cannot be archived yet: %s", table_id, exc)
                continue
            del self.rooms[table_id]  # first: nothing reaches it while it closes
            await room.close_all()
            await room.stop_tasks()
            table.close()
            if fate == "archive":
                self.journal.forget(table_id)  # its files stay, closed
            else:
                self._delete_files(table_id, table.series_file)
            log.info("table %s %s", table_id, "archived" if fate == "archive" else "expired")

    async def stop(self) -> None:
        """Stop the ticker, say goodbye, close every log."""
        if self._ticker is not None:
            self._ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._ticker
        for room in self.rooms.values():
            await room.close_all()
            await room.stop_tasks()
        self.writers.shutdown(wait=True)  # the steps in progress finish their commits
        for room in self.rooms.values():
            room.table.close()
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
                   if room.table.creator == address and room.table.status == "lobby")

    def create_table(self, settings: TableSettings, *,
                     creator: str = UNKNOWN_CREATOR) -> tuple[Room, str]:
        """A new table in its lobby; returns its room and the host token. A table created
        from another machine than the host's plays at human pace, for a bounded number of
        hands (:meth:`Budgets.paced <feltro.server.budgets.Budgets.paced>`).

        :raises TableRefusedError: when the server, the creator's address or the data folder is
            full (:meth:`Budgets.refusal <feltro.server.budgets.Budgets.refusal>`).
        """
        if self.journal is None:
            raise RuntimeError("the room manager is not started")
        remote = creator not in LOOPBACK
        refusal = self.budgets.refusal(remote=remote, held=self.tables_held(),
                                       held_by_address=self.tables_of(creator),
                                       max_tables=self.max_tables, data_bytes=self.data_bytes)
        if refusal is not None:
            raise TableRefusedError(refusal)
        settings = self.budgets.paced(settings, remote=remote)
        table, token = LiveTable.create(settings, self.journal, self.folder / "tables",
                                        self.clock, seal=self.seal, creator=creator)
        room = Room(table, self)
        self.rooms[table.table_id] = room
        return room, token

    async def tick_all(self) -> None:
        """One tick of every room; now and then, the tables' lifecycle."""
        for room in list(self.rooms.values()):
            await room.tick()
        now = self.clock.monotonic()
        if now >= self._next_expiry:
            self._next_expiry = now + EXPIRY_INTERVAL
            await self.expire()
        if now >= self._next_usage:
            self._next_usage = now + USAGE_INTERVAL
            await self.measure()

    async def _tick_forever(self) -> None:
        while True:
            await asyncio.sleep(self.tick_interval)
            try:
                await self.tick_all()
            except Exception:  # never let one bad table stop the clock of the others
                log.exception("ticker error")


def _archived(room: Room, at: str) -> ArchivedTable:
    """What remains of *room*'s table once it leaves memory."""
    table = room.table
    snap = table.snapshot()
    summary = summary_view(snap, table.created_at)
    summary["status"] = "archived"
    seats = {s.token_hash: s.seat for s in table.seats.values() if s.token_hash is not None}
    fair = table.fairplay
    return ArchivedTable(table.table_id, summary, chips_view(snap), seats, table.series_file,
                         fair.reveal if fair is not None else None,
                         fair.archive_record() if fair is not None else None,
                         archived_at=at, creator=room.table.creator)
