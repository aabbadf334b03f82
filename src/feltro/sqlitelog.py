"""One append-only log in one SQLite file: the layer under the series log (:mod:`feltro.series_log`)
and the server's table journal (:mod:`feltro.server.journal`).

What every log gets here, once:

* **Durable commits.** WAL mode, ``synchronous=FULL`` (a commit survives a power cut too), and
  each :meth:`SqliteLog.append` is one transaction, committed before it returns.
* **Private files.** 0600: a log may hold a deck's seed or token hashes.
* **Faults as errors** (:mod:`feltro.sqlitefaults`): a write waits at most
  :data:`~feltro.sqlitefaults.BUSY_SECONDS` for another program's lock, then fails with a
  :class:`~feltro.errors.StoreUnavailableError` (retry later); a damaged file is a
  :class:`~feltro.errors.StoreError`. Before each commit the file is checked to be the one that
  was opened (a deleted file would take writes nobody can read back).
* **A checksum chain** (:attr:`LogFormat.chained`): each record carries
  ``SHA-256(previous | seq | kind | body)`` and ``meta`` keeps the record count, updated in the
  same transaction, so a changed, reordered, missing or cut-off record is named on reading.
  Records are then numbered ``1, 2, 3...`` without gaps.
* **One writer** (optional): an exclusive OS lock on ``<file>.lock`` that dies with its process.
* **Quarantine**: a file whose ``meta`` says ``damaged`` (records were lost, e.g. in an upgrade)
  is never opened for appending.

A format (:class:`LogFormat`) names the records' table and its fourth column: the series log
keeps a checksum chain (``chain``), the journal the time of each record (``at``). Both files
keep the on-disk layout they always had. Bodies are JSON objects, written compactly with
sorted keys; their meaning is the caller's.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from feltro.errors import StoreError
from feltro.filelock import FileLock
from feltro.paths import private_file
from feltro.sqlitefaults import BUSY_SECONDS, FileIdentity, is_transient, store_error

__all__ = [
    "GENESIS",
    "LogFormat",
    "Row",
    "SqliteLog",
    "chain_link",
    "json_object",
    "read_first",
    "read_log",
    "write_file",
]

GENESIS = "0" * 64
"""The chain value before the first record."""


@dataclass(frozen=True, slots=True)
class LogFormat:
    """The layout of one kind of log file."""

    name: str
    """The ``format`` value in ``meta`` (``"feltro-series-log/1"``)."""
    what: str
    """How messages name such a file (``"series log"``)."""
    table: str
    """The table of records: ``seq``, ``kind``, ``body`` and :attr:`stamp`."""
    stamp: str
    """The fourth column: ``"chain"`` (the checksum chain) or ``"at"`` (a time)."""

    @property
    def chained(self) -> bool:
        """Whether records are chained by checksum and counted in ``meta``."""
        return self.stamp == "chain"

    def schema(self) -> tuple[str, ...]:
        """The statements that make an empty log of this format."""
        count = ", ('records', '0')" if self.chained else ""
        return (
            "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
            f"CREATE TABLE {self.table} (seq INTEGER PRIMARY KEY, kind TEXT NOT NULL, "
            f"body TEXT NOT NULL, {self.stamp} TEXT NOT NULL)",
            f"INSERT INTO meta VALUES ('format', '{self.name}'){count}",
        )


@dataclass(frozen=True, slots=True)
class Row:
    """One record as stored: its body is JSON text (see :func:`json_object`)."""

    seq: int
    kind: str
    body: str
    stamp: str
    """The chain value or the time, as the format says."""


def chain_link(previous: str, seq: int, kind: str, body: str) -> str:
    """The checksum of a record: ``SHA-256(previous | seq | kind | body)`` in hexadecimal."""
    return hashlib.sha256(f"{previous}|{seq}|{kind}|{body}".encode()).hexdigest()


def json_object(text: str) -> dict[str, Any] | None:
    """The JSON object *text* holds, or ``None`` when it holds something else (or no JSON)."""
    try:
        parsed = json.loads(text)
    except (ValueError, TypeError):
        return None
    return parsed if isinstance(parsed, dict) else None


def _body_text(body: Mapping[str, Any]) -> str:
    return json.dumps(body, separators=(",", ":"), sort_keys=True)


# --- opening and reading -----------------------------------------------------------------------


def _connect(path: Path) -> sqlite3.Connection:
    private_file(path)
    # check_same_thread=False: a server reopens a log in a worker thread, then writes from
    # another (never two at once: :attr:`SqliteLog.busy`).
    connection = sqlite3.connect(path, isolation_level=None, timeout=BUSY_SECONDS,
                                 check_same_thread=False)
    try:
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA synchronous=FULL")
    except BaseException:
        connection.close()
        raise
    return connection


def _unreadable(path: Path, fmt: LogFormat, exc: sqlite3.Error) -> StoreError:
    """The error for a file SQLite cannot read: busy now, damaged, or not a log at all."""
    if is_transient(exc):
        return store_error(f"{path}: the {fmt.what} cannot be read now", exc)
    try:
        with path.open("rb") as handle:
            is_sqlite = handle.read(16) == b"SQLite format 3\x00"
    except OSError:
        is_sqlite = False
    if is_sqlite:
        return StoreError(f"{path}: the {fmt.what} is damaged or truncated (SQLite: {exc}); "
                          f"no record can be read, nothing was resumed")
    return StoreError(f"{path}: not a feltro {fmt.what} ({exc})")


def _meta(connection: sqlite3.Connection, path: Path, fmt: LogFormat) -> dict[str, str]:
    try:
        meta = dict(connection.execute("SELECT key, value FROM meta").fetchall())
    except sqlite3.Error as exc:
        raise _unreadable(path, fmt, exc) from None
    if meta.get("format") != fmt.name:
        raise StoreError(f"{path}: not a feltro {fmt.what} (format {meta.get('format')!r})")
    return meta


def _read_rows(connection: sqlite3.Connection, path: Path, fmt: LogFormat) -> list[Row]:
    """Every record, in order; a chained log is checked for numbering, checksums and count.

    :raises StoreError: naming the first bad record.
    """
    meta = _meta(connection, path, fmt)
    rows: list[Row] = []
    previous = GENESIS
    try:  # a damaged page may stop the query itself, not only a row
        cursor = connection.execute(f"SELECT seq, kind, body, {fmt.stamp} FROM {fmt.table} "
                                    f"ORDER BY seq")
    except sqlite3.Error as exc:
        raise _unreadable(path, fmt, exc) from None
    while True:
        try:
            found = cursor.fetchone()
        except sqlite3.Error as exc:
            after = f"after record {rows[-1].seq}" if rows else "at the first record"
            if is_transient(exc):
                raise store_error(f"{path}: the {fmt.what} cannot be read now", exc) from None
            raise StoreError(f"{path}: the {fmt.what} is damaged {after}: {exc}") from None
        if found is None:
            break
        row = Row(*found)
        if fmt.chained:
            _check_link(path, row, len(rows) + 1, previous)
            previous = row.stamp
        rows.append(row)
    if fmt.chained and meta.get("records") != str(len(rows)):
        raise StoreError(f"{path}: the log is truncated: it should hold {meta.get('records')} "
                         f"records but holds {len(rows)} (the last good one is record "
                         f"{len(rows)})")
    return rows


def _check_link(path: Path, row: Row, expected: int, previous: str) -> None:
    if row.seq != expected:
        raise StoreError(f"{path}: record {expected} is missing (the next one is {row.seq})")
    if not isinstance(row.kind, str) or not isinstance(row.body, str) or \
            row.stamp != chain_link(previous, row.seq, row.kind, row.body):
        raise StoreError(f"{path}: record {row.seq} ({row.kind}) is corrupted: its checksum "
                         f"does not match")


def _read_only(path: Path, fmt: LogFormat, timeout: float) -> sqlite3.Connection:
    if not path.is_file():
        raise StoreError(f"{path}: no such {fmt.what}")
    try:
        return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=timeout)
    except sqlite3.Error as exc:
        raise StoreError(f"{path}: cannot open the {fmt.what} ({exc})") from None


def read_log(path: Path, fmt: LogFormat) -> list[Row]:
    """Every record of the log at *path*, checked (see :class:`SqliteLog`); takes no lock and
    writes nothing.

    :raises StoreError: if the file is missing, not such a log, or a record is bad.
    """
    connection = _read_only(path, fmt, 5.0)  # a reader may wait (SQLite's usual 5 s)
    try:
        return _read_rows(connection, path, fmt)
    finally:
        connection.close()


def read_first(path: Path, fmt: LogFormat) -> Row | None:
    """The first record of the log at *path* if it can be read at all, else ``None`` (what a
    quarantined file can still show)."""
    try:
        connection = _read_only(path, fmt, BUSY_SECONDS)
    except StoreError:
        return None
    try:
        found = connection.execute(f"SELECT seq, kind, body, {fmt.stamp} FROM {fmt.table} "
                                   f"ORDER BY seq LIMIT 1").fetchone()
    except sqlite3.Error:
        return None
    finally:
        connection.close()
    return None if found is None else Row(*found)


# --- the log open for appending ----------------------------------------------------------------


class SqliteLog:
    """One log file open for appending: use :meth:`create` or :meth:`open`, then
    :meth:`append`, :meth:`probe` and :meth:`close`.

    Safe to share between threads, one transaction at a time (:attr:`busy`).
    """

    def __init__(self, path: Path, fmt: LogFormat, connection: sqlite3.Connection,
                 lock: FileLock | None, last: Row | None) -> None:
        self.path = path
        self.format = fmt
        self._connection: sqlite3.Connection | None = connection
        self._lock = lock
        self._seq = 0 if last is None else last.seq
        self._chain = GENESIS if last is None or not fmt.chained else last.stamp
        self._identity = FileIdentity(path)
        self.busy = threading.Lock()
        """One transaction at a time, whichever thread asks."""

    @staticmethod
    def _take_lock(path: Path, writer: Callable[[str], str] | None) -> FileLock | None:
        """The one-writer lock ``<file>.lock`` when *writer* gives the refusal (its argument
        is the holder's pid)."""
        return None if writer is None else FileLock(path.with_name(path.name + ".lock"), writer)

    @classmethod
    def create(cls, path: Path, fmt: LogFormat, batch: Sequence[tuple[str, Mapping[str, Any]]],
               *, stamp: str = "", writer: Callable[[str], str] | None = None) -> SqliteLog:
        """A new log at *path* (which must not exist) holding *batch*: the tables and the first
        records are one transaction, so a crash leaves no half log; a failure leaves no file.

        *writer*: take the one-writer lock, refusing a second writer with ``writer(pid)``.

        :raises StoreError: if *path* exists or cannot be written (nothing is left there).
        """
        if path.exists():
            raise StoreError(f"{path}: a file is already there")
        lock = cls._take_lock(path, writer)
        try:
            try:
                connection = _connect(path)
            except (sqlite3.Error, OSError) as exc:
                raise store_error(f"{path}: cannot create the {fmt.what}", exc) from None
            log = cls(path, fmt, connection, lock, None)
            log._append(batch, stamp, fmt.schema())
        except BaseException:
            if lock is not None:
                lock.release()
            for extra in ("", "-wal", "-shm"):
                path.with_name(path.name + extra).unlink(missing_ok=True)
            raise
        return log

    @classmethod
    def open(cls, path: Path, fmt: LogFormat, *,
             writer: Callable[[str], str] | None = None) -> tuple[SqliteLog, list[Row]]:
        """Open the log at *path* for appending, with every record it holds (checked as
        :func:`read_log` checks them). Nothing is written.

        :raises StoreError: if the file is missing, not such a log, marked damaged, held by
            another writer, or a record is bad; :raises StoreUnavailableError: if it cannot
            be read now (locked by another program).
        """
        if not path.is_file():
            raise StoreError(f"{path}: no such {fmt.what}")
        lock = cls._take_lock(path, writer)
        try:
            try:
                connection = _connect(path)
            except sqlite3.Error as exc:
                raise _unreadable(path, fmt, exc) from None
            except OSError as exc:
                raise store_error(f"{path}: cannot open the {fmt.what}", exc) from None
            try:
                damaged = _meta(connection, path, fmt).get("damaged")
                if damaged is not None:
                    raise StoreError(f"{path}: records of this {fmt.what} were lost "
                                     f"({damaged})")
                rows = _read_rows(connection, path, fmt)
            except BaseException:
                connection.close()
                raise
        except BaseException:
            if lock is not None:
                lock.release()
            raise
        return cls(path, fmt, connection, lock, rows[-1] if rows else None), rows

    def append(self, batch: Sequence[tuple[str, Mapping[str, Any]]],
               stamp: str = "") -> list[int]:
        """Append *batch* in one transaction, committed (fsync'd) before returning; returns
        the records' numbers. *stamp*: the time of an ``at`` format (ignored when chained).

        :raises StoreUnavailableError: if the file is locked by another program or the disk
            is full (nothing is written; retry later).
        :raises StoreError: if the log is closed, its file vanished or is damaged.
        """
        return self._append(batch, stamp)

    def _append(self, batch: Sequence[tuple[str, Mapping[str, Any]]], stamp: str,
                prelude: Sequence[str] = ()) -> list[int]:
        fmt = self.format
        seq, chain = self._seq, self._chain
        rows = []
        for kind, body in batch:
            seq += 1
            text = _body_text(body)
            if fmt.chained:
                chain = stamp = chain_link(chain, seq, kind, text)
            rows.append((seq, kind, text, stamp))
        with self.busy:
            connection = self._writable()
            try:
                connection.execute("BEGIN IMMEDIATE")
                for statement in prelude:
                    connection.execute(statement)
                connection.executemany(f"INSERT INTO {fmt.table} VALUES (?, ?, ?, ?)", rows)
                if fmt.chained:
                    connection.execute("UPDATE meta SET value = ? WHERE key = 'records'",
                                       (str(seq),))
                self._identity.check()
                connection.execute("COMMIT")
            except (sqlite3.Error, StoreError) as exc:
                if connection.in_transaction:
                    with contextlib.suppress(sqlite3.Error):  # SQLite may have rolled back
                        connection.execute("ROLLBACK")
                if isinstance(exc, StoreError):
                    raise
                raise store_error(f"{self.path}: cannot write to the {fmt.what}", exc) from None
        self._seq, self._chain = seq, chain
        return [row[0] for row in rows]

    def probe(self) -> None:
        """Check that the log can be written now: its file is still there, and a write that
        changes nothing (``UPDATE meta SET value = value``) commits.

        :raises StoreUnavailableError: while another program holds the lock or the disk is
            full. :raises StoreError: if the log is closed or its file vanished.
        """
        self._identity.check()
        with self.busy:
            connection = self._writable()
            try:
                connection.execute("BEGIN IMMEDIATE")
                connection.execute("UPDATE meta SET value = value WHERE key = 'format'")
                connection.execute("COMMIT")
            except sqlite3.Error as exc:
                if connection.in_transaction:
                    with contextlib.suppress(sqlite3.Error):
                        connection.execute("ROLLBACK")
                raise store_error(f"{self.path}: the {self.format.what} cannot be written",
                                  exc) from None

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self._connection is None

    def close(self) -> None:
        """Close the file and release the writer lock (idempotent)."""
        with self.busy:
            if self._connection is not None:
                self._connection.close()
                self._connection = None
        if self._lock is not None:
            self._lock.release()

    def _writable(self) -> sqlite3.Connection:
        if self._connection is None:
            raise StoreError(f"{self.path}: the {self.format.what} is closed")
        return self._connection


def write_file(path: Path, fmt: LogFormat, rows: Sequence[tuple[int, str, str, str]], *,
               damaged: str | None = None) -> None:
    """Write a whole log of *rows* (``seq, kind, body, stamp``) at *path*, replacing what is
    there only once it is complete (a temporary file, then a rename): an upgrade that stops
    half-way runs again. *damaged* marks a log that lost records (it is quarantined).
    """
    temp = path.with_name(path.name + ".new")
    temp.unlink(missing_ok=True)
    private_file(temp)
    db = sqlite3.connect(temp, isolation_level=None)
    try:
        db.execute("PRAGMA synchronous=FULL")
        db.execute("BEGIN")
        for statement in fmt.schema():
            db.execute(statement)
        if damaged is not None:
            db.execute("INSERT INTO meta VALUES ('damaged', ?)", (damaged,))
        db.executemany(f"INSERT INTO {fmt.table} VALUES (?, ?, ?, ?)", rows)
        db.execute("COMMIT")
    finally:
        db.close()
    for extra in ("-wal", "-shm"):  # never pair the new file with an old file's WAL
        path.with_name(path.name + extra).unlink(missing_ok=True)
    os.replace(temp, path)
