"""The server's own append-only logs: tables, seats, hosts, absences, timers.

The cards and chips of a table live in its series log (:class:`feltro.store.SeriesStore`, one
SQLite file per table). Everything around them that the series does not know (who asked for a
seat, who holds which token hash, who is the host, who is away, each timeout, each time bank,
every host command) is a record here, committed before anybody hears of it, so a server killed
with ``kill -9`` comes back with every table as it was (:mod:`feltro.server.restore` replays them).

One SQLite file per table (``tables/<table>.journal.sqlite`` in the data folder, next to its
series log), WAL mode, ``synchronous=FULL`` (each commit survives a power cut too). One file per
table keeps faults apart: a damaged page, a lock held by another program or a deleted file
stops that table only. A write waits at most :data:`~feltro.sqlitefaults.BUSY_SECONDS` for a
lock (then fails with :class:`~feltro.errors.StoreUnavailableError`, to be retried), and checks
before committing that its file is still the one it opened.

A ``flock`` on ``server.sqlite.lock`` keeps a second server from using the same folder; the OS
drops it when the process dies. Bodies are JSON and never hold a token or a hidden card (only
token hashes).

Older servers kept every table in one ``server.sqlite``; it is split into per-table files when
the folder is opened (:func:`_migrate`), readable rows are salvaged from a damaged one, and a
table that lost records is marked damaged in its own file (it is then quarantined, never
resumed with records missing). The old file is kept as ``server.sqlite.migrated`` (or
``.damaged``).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import sqlite3
import threading
from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from feltro.errors import StoreError
from feltro.filelock import FileLock
from feltro.paths import private_file, private_folder
from feltro.sqlitefaults import BUSY_SECONDS, FileIdentity, store_error

__all__ = ["FORMAT", "Journal", "JournalRecord"]

FORMAT = "feltro-server-log/2"
LEGACY_FORMAT = "feltro-server-log/1"
SUFFIX = ".journal.sqlite"

log = logging.getLogger("feltro.server")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS events (
    seq      INTEGER PRIMARY KEY,
    kind     TEXT NOT NULL,
    body     TEXT NOT NULL,
    at       TEXT NOT NULL
);
"""
_TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


@dataclass(frozen=True, slots=True)
class JournalRecord:
    """One record: which table, what happened, when (ISO 8601, UTC)."""

    seq: int
    table_id: str
    kind: str
    body: Mapping[str, Any]
    at: str


def _connect(path: Path) -> sqlite3.Connection:
    # check_same_thread=False: a table is reloaded in a worker thread after a storage fault,
    # then written from the event loop (never from two threads at once: the room's lock).
    return sqlite3.connect(path, isolation_level=None, timeout=BUSY_SECONDS,
                           check_same_thread=False)


class _TableLog:
    """One table's journal file, open for appending."""

    def __init__(self, path: Path, table_id: str, *, create: bool) -> None:
        self.path = path
        self.table_id = table_id
        if create and path.exists():
            raise StoreError(f"{path}: a table journal is already there")
        if not create and not path.is_file():
            raise StoreError(f"{path}: the table journal is missing")
        try:
            private_file(path)
            self.db = _connect(path)
        except (sqlite3.Error, OSError) as exc:
            raise store_error(f"{path}: cannot open the table journal", exc) from None
        try:
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            if create:
                self.db.execute("BEGIN IMMEDIATE")
                _create_schema(self.db)
                self.db.execute("INSERT INTO meta VALUES ('format', ?)", (FORMAT,))
                self.db.execute("COMMIT")
            meta = dict(self.db.execute("SELECT key, value FROM meta").fetchall())
        except sqlite3.Error as exc:
            self.db.close()
            raise store_error(f"{path}: cannot read the table journal", exc) from None
        if meta.get("format") != FORMAT:
            self.db.close()
            raise StoreError(f"{path}: not a feltro table journal ({meta.get('format')!r})")
        if "damaged" in meta:
            self.db.close()
            raise StoreError(f"{path}: records of this table were lost ({meta['damaged']})")
        self.identity = FileIdentity(path)
        self.busy = threading.Lock()
        """One transaction at a time, whichever thread asks (a room's writer thread, or the
        event loop for the rare write it makes itself)."""

    def append(self, items: Sequence[tuple[str, Mapping[str, Any]]], at: str) -> list[int]:
        with self.busy:
            return self._append(items, at)

    def _append(self, items: Sequence[tuple[str, Mapping[str, Any]]], at: str) -> list[int]:
        rows = [(kind, json.dumps(body, separators=(",", ":"), sort_keys=True), at)
                for kind, body in items]
        db = self.db
        try:
            db.execute("BEGIN IMMEDIATE")
            seqs = [db.execute("INSERT INTO events (kind, body, at) VALUES (?, ?, ?)",
                               row).lastrowid or 0 for row in rows]
            self.identity.check()
            db.execute("COMMIT")
        except (sqlite3.Error, StoreError) as exc:
            if db.in_transaction:
                with contextlib.suppress(sqlite3.Error):  # SQLite may have rolled back
                    db.execute("ROLLBACK")
            if isinstance(exc, StoreError):
                raise
            raise store_error(f"{self.path}: cannot write to the table journal", exc) from None
        return seqs

    def records(self) -> list[JournalRecord]:
        """Every record; a body that is not a JSON object comes back with kind ``corrupt``.

        :raises StoreError: if a page cannot be read.
        """
        try:
            with self.busy:
                rows = self.db.execute("SELECT seq, kind, body, at FROM events "
                                       "ORDER BY seq").fetchall()
        except sqlite3.Error as exc:
            raise store_error(f"{self.path}: the table journal cannot be read", exc) from None
        return [_record(seq, self.table_id, kind, body, at) for seq, kind, body, at in rows]

    def probe(self) -> None:
        """Commit a write that changes nothing (the lock is taken, a page reaches the disk).

        :raises StoreUnavailableError: while another program holds the lock or the disk is
            full. :raises StoreError: if the file vanished.
        """
        self.identity.check()
        with self.busy:
            _probe(self.db, f"{self.path}: the table journal cannot be written")

    def close(self) -> None:
        with self.busy:
            self.db.close()


def _probe(db: sqlite3.Connection, message: str) -> None:
    """Commit ``UPDATE meta SET value = value`` (see :meth:`_TableLog.probe`)."""
    try:
        db.execute("BEGIN IMMEDIATE")
        db.execute("UPDATE meta SET value = value WHERE key = 'format'")
        db.execute("COMMIT")
    except sqlite3.Error as exc:
        if db.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                db.execute("ROLLBACK")
        raise store_error(message, exc) from None


def _create_schema(db: sqlite3.Connection) -> None:
    for statement in _SCHEMA.split(";"):
        if statement.strip():
            db.execute(statement)


def _record(seq: int, table_id: str, kind: str, body: str, at: str) -> JournalRecord:
    try:
        parsed = json.loads(body)
    except (ValueError, TypeError):
        parsed = None
    if not isinstance(parsed, dict):
        return JournalRecord(seq, table_id, "corrupt", {}, at)
    return JournalRecord(seq, table_id, kind, parsed, at)


class Journal:
    """The server logs in *folder* (created if needed): one journal file per table.

    Safe to use from a worker thread and the event loop, one call at a time per table.

    :raises StoreError: if another server process uses the folder.
    """

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        private_folder(self.folder)
        self.tables = private_folder(self.folder / "tables")
        self.path = self.folder / "server.sqlite"
        """Where servers before the per-table journals kept every table (migrated on open)."""
        self._lock = FileLock(
            self.folder / "server.sqlite.lock",
            lambda holder: (f"{self.folder}: another feltro server (pid {holder}) is using this "
                            f"data folder; stop it or choose another --data"),
        )
        self._open: dict[str, _TableLog] = {}
        self._guard = threading.Lock()
        self._closed = False
        try:
            _migrate(self.path, self.tables)
        except BaseException:
            self._lock.release()
            raise

    def path_of(self, table_id: str) -> Path:
        """The journal file of *table_id*."""
        if not _TABLE_ID.fullmatch(table_id):
            raise StoreError(f"{table_id!r} is not a table id")
        return self.tables / f"{table_id}{SUFFIX}"

    def table_ids(self) -> list[str]:
        """Every table with a journal file (sorted by id)."""
        names = (path.name[:-len(SUFFIX)] for path in self.tables.glob(f"*{SUFFIX}"))
        return sorted(name for name in names if _TABLE_ID.fullmatch(name))

    def _table(self, table_id: str, *, create: bool = False) -> _TableLog:
        with self._guard:
            if self._closed:
                raise StoreError(f"{self.folder}: the server log is closed")
            table = self._open.get(table_id)
            if table is None:
                table = _TableLog(self.path_of(table_id), table_id, create=create)
                self._open[table_id] = table
            return table

    def append(self, table_id: str, kind: str, body: Mapping[str, Any], at: str) -> int:
        """Append one record and commit it; returns its sequence number."""
        return self.append_many(table_id, [(kind, body)], at)[-1]

    def append_many(self, table_id: str, items: Sequence[tuple[str, Mapping[str, Any]]],
                    at: str) -> list[int]:
        """Append records in one transaction, committed before returning. A table's file is
        created by its first record, which must be ``created``.

        :raises StoreUnavailableError: if the file is locked by another program or the disk is
            full (nothing is written; retry later).
        :raises StoreError: if the log is closed, the file vanished or is damaged.
        """
        create = bool(items) and items[0][0] == "created" and table_id not in self._open
        table = self._table(table_id, create=create)
        try:
            return table.append(items, at)
        except StoreError:
            if create:  # no half-made table left behind
                self.forget(table_id)
                for extra in ("", "-wal", "-shm"):
                    table.path.with_name(table.path.name + extra).unlink(missing_ok=True)
            raise

    def table_records(self, table_id: str) -> list[JournalRecord]:
        """Every record of *table_id*, read afresh from its file.

        :raises StoreError: if the file is missing, damaged or marked damaged.
        """
        self.forget(table_id)
        return self._table(table_id).records()

    def records(self) -> Iterator[JournalRecord]:
        """Every record of every readable table, table by table."""
        for table_id in self.table_ids():
            try:
                yield from self.table_records(table_id)
            except StoreError as exc:
                log.error("table %s: %s", table_id, exc)

    def created_record(self, table_id: str) -> JournalRecord | None:
        """The first record of *table_id*, if it can still be read (a table whose journal is
        damaged is shown, quarantined, from it)."""
        path = self.path_of(table_id)
        if not path.is_file():
            return None
        try:
            db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True,
                                 timeout=BUSY_SECONDS)
            try:
                row = db.execute("SELECT seq, kind, body, at FROM events ORDER BY seq "
                                 "LIMIT 1").fetchone()
            finally:
                db.close()
        except sqlite3.Error:
            return None
        return None if row is None else _record(row[0], table_id, row[1], row[2], row[3])

    def probe(self, table_id: str) -> None:
        """Check that *table_id*'s file can be written now (see :meth:`_TableLog.probe`)."""
        self._table(table_id).probe()

    def forget(self, table_id: str) -> None:
        """Close *table_id*'s file (it is opened again by the next call)."""
        with self._guard:
            table = self._open.pop(table_id, None)
        if table is not None:
            table.close()

    def close(self) -> None:
        """Close every file and release the folder lock (idempotent)."""
        with self._guard:
            self._closed = True
            tables, self._open = list(self._open.values()), {}
        for table in tables:
            table.close()
        self._lock.release()


# --- migration from one server.sqlite ------------------------------------------------------------


def _migrate(legacy: Path, tables: Path) -> None:
    """Split an old ``server.sqlite`` into per-table journals (see the module docstring)."""
    if not legacy.is_file():
        return
    if legacy.stat().st_size == 0:  # never a log (an empty file some tool created)
        legacy.unlink()
        return
    rows, lost = _salvage(legacy)
    grouped: dict[str, list[tuple[int, str, str, str]]] = defaultdict(list)
    for seq, table_id, kind, body, at in rows:
        grouped[table_id].append((seq, kind, body, at))
    for table_id in lost:
        grouped.setdefault(table_id, [])
    for table_id, table_rows in grouped.items():
        if not _TABLE_ID.fullmatch(str(table_id)):
            log.error("server.sqlite: skipping records of a table with a bad id %r", table_id)
            continue
        target = tables / f"{table_id}{SUFFIX}"
        temp = target.with_name(target.name + ".new")
        temp.unlink(missing_ok=True)
        private_file(temp)
        db = sqlite3.connect(temp, isolation_level=None)
        try:
            db.execute("PRAGMA synchronous=FULL")
            db.execute("BEGIN")
            _create_schema(db)
            db.execute("INSERT INTO meta VALUES ('format', ?)", (FORMAT,))
            if table_id in lost:
                db.execute("INSERT INTO meta VALUES ('damaged', ?)",
                           ("records lost in a damaged server.sqlite",))
            db.executemany("INSERT INTO events VALUES (?, ?, ?, ?)", table_rows)
            db.execute("COMMIT")
        finally:
            db.close()
        for extra in ("-wal", "-shm"):  # never pair the new file with an old file's WAL
            target.with_name(target.name + extra).unlink(missing_ok=True)
        os.replace(temp, target)
        if table_id in lost:
            log.error("table %s lost records in a damaged server.sqlite: quarantined", table_id)
    done = ".damaged" if lost or (not rows and _has_damage(legacy)) else ".migrated"
    for extra in ("", "-wal", "-shm"):
        old = legacy.with_name(legacy.name + extra)
        if old.exists():
            os.replace(old, legacy.with_name(legacy.name + done + extra))
    log.warning("server.sqlite split into one journal per table (%d tables); the old file is "
                "kept as server.sqlite%s", len(grouped), done)


def _has_damage(legacy: Path) -> bool:
    try:
        db = sqlite3.connect(f"{legacy.resolve().as_uri()}?mode=ro", uri=True)
        try:
            db.execute("SELECT count(*) FROM meta").fetchone()
        finally:
            db.close()
    except sqlite3.Error:
        return True
    return False


Row = tuple[int, str, str, str, str]


def _salvage(legacy: Path) -> tuple[list[Row], set[str]]:
    """The readable rows of an old ``server.sqlite`` and the tables that lost some."""
    try:
        db = sqlite3.connect(legacy, isolation_level=None)
    except sqlite3.Error as exc:
        log.error("server.sqlite cannot be opened (%s); its tables are lost", exc)
        return [], set()
    try:
        try:
            found = db.execute("SELECT value FROM meta WHERE key='format'").fetchone()
            if found is not None and found[0] != LEGACY_FORMAT:
                raise StoreError(f"{legacy}: not a feltro server log ({found[0]!r})")
            return db.execute("SELECT seq, table_id, kind, body, at FROM events "
                              "ORDER BY seq").fetchall(), set()
        except sqlite3.DatabaseError as exc:
            log.error("server.sqlite is damaged (%s); salvaging the readable records", exc)
        return _salvage_rows(db)
    finally:
        db.close()


def _salvage_rows(db: sqlite3.Connection) -> tuple[list[Row], set[str]]:
    owners: dict[int, str] = {}
    index_whole = True
    try:
        for seq, table_id in db.execute("SELECT seq, table_id FROM events "
                                        "INDEXED BY events_by_table"):
            owners[seq] = table_id
    except sqlite3.DatabaseError:
        index_whole = False
    try:
        last = int(db.execute("SELECT max(seq) FROM events").fetchone()[0] or 0)
    except sqlite3.DatabaseError:
        last = max(owners, default=0)
    rows: list[Row] = []
    gaps: list[tuple[int, int]] = []  # (first lost seq, first seq read again)
    after = 0
    while after < last:
        try:
            for row in db.execute("SELECT seq, table_id, kind, body, at FROM events "
                                  "WHERE seq > ? ORDER BY seq", (after,)):
                rows.append(row)
                after = row[0]
            break
        except sqlite3.DatabaseError:
            step = 1
            while True:  # the next seq that can be read again
                probe = after + 1 + step
                if probe > last:
                    gaps.append((after + 1, last + 1))
                    after = last
                    break
                try:
                    db.execute("SELECT seq FROM events WHERE seq >= ? ORDER BY seq LIMIT 1",
                               (probe,)).fetchall()
                    db.execute("SELECT body FROM events WHERE seq = ?", (probe,)).fetchall()
                    gaps.append((after + 1, probe))
                    after = probe - 1
                    break
                except sqlite3.DatabaseError:
                    step *= 2
    read = {row[0] for row in rows}
    lost = {table_id for seq, table_id in owners.items() if seq not in read}
    if gaps and not index_whole:  # the owners of the lost rows are unknown: any table older
        first_seen: dict[str, int] = {}  # than a gap may have had rows in it
        for seq, table_id, *_ in rows:
            first_seen.setdefault(table_id, seq)
        lost |= {table_id for table_id, seq in first_seen.items()
                 if any(seq < end for _, end in gaps)}
    return rows, lost
