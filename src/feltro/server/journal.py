"""The server's own append-only logs: tables, seats, hosts, absences, timers.

The cards and chips of a table live in its series log (:class:`feltro.series_log.SeriesStore`, one
SQLite file per table). Everything around them that the series does not know (who asked for a
seat, who holds which token hash, who is the host, who is away, each timeout, each time bank,
every host command) is a record here, committed before anybody hears of it, so a server killed
with ``kill -9`` comes back with every table as it was (:mod:`feltro.server.restore` replays them).

One SQLite file per table (``tables/<table>.journal.sqlite`` in the data folder, next to its
series log), a :class:`~feltro.sqlitelog.SqliteLog` like the series log: WAL mode,
``synchronous=FULL`` (each commit survives a power cut too), a write waits at most
:data:`~feltro.sqlitefaults.BUSY_SECONDS` for a lock (then fails with
:class:`~feltro.errors.StoreUnavailableError`, to be retried) and checks before committing that
its file is still the one it opened. Each record keeps its time (``at``). One file per table
keeps faults apart: a damaged page, a lock held by another program or a deleted file stops that
table only.

A ``flock`` on ``server.sqlite.lock`` keeps a second server from using the same folder; the OS
drops it when the process dies. Bodies are JSON and never hold a token or a hidden card (only
token hashes).

Older servers kept every table in one ``server.sqlite``; it is split into per-table files when
the folder is opened (:mod:`feltro.server.journal_upgrade`), and a table that lost records
there is marked damaged in its own file: it is then quarantined, never resumed with records
missing.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from feltro.errors import StoreError
from feltro.filelock import FileLock
from feltro.paths import private_folder
from feltro.server.journal_upgrade import split_legacy
from feltro.sqlitelog import LogFormat, Row, SqliteLog, json_object, read_first

__all__ = ["FORMAT", "Journal", "JournalRecord"]

FORMAT = "feltro-server-log/2"
SUFFIX = ".journal.sqlite"

log = logging.getLogger("feltro.server")

LOG_FORMAT = LogFormat(FORMAT, "table journal", "events", "at")
"""A table journal's layout: table ``events`` (``seq``, ``kind``, ``body``, ``at``) and
``meta``."""
_TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


@dataclass(frozen=True, slots=True)
class JournalRecord:
    """One record: which table, what happened, when (ISO 8601, UTC)."""

    seq: int
    table_id: str
    kind: str
    body: Mapping[str, Any]
    at: str


def _record(row: Row, table_id: str) -> JournalRecord:
    """*row* as a record; a body that is not a JSON object comes back with kind ``corrupt``."""
    body = json_object(row.body)
    if body is None:
        return JournalRecord(row.seq, table_id, "corrupt", {}, row.stamp)
    return JournalRecord(row.seq, table_id, row.kind, body, row.stamp)


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
        self._open: dict[str, SqliteLog] = {}
        self._guard = threading.Lock()
        self._closed = False
        try:
            split_legacy(self.path, self.path_of, LOG_FORMAT)
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

    def _table(self, table_id: str) -> tuple[SqliteLog, list[Row]]:
        """*table_id*'s file, open for appending, and the records read when it was opened now
        (none when it was open already).

        :raises StoreError: if the log is closed, or the file is missing, damaged or marked
            damaged.
        """
        with self._guard:
            self._check_open()
            table = self._open.get(table_id)
        if table is not None:
            return table, []
        table, rows = SqliteLog.open(self.path_of(table_id), LOG_FORMAT)  # other tables go on
        self._keep(table_id, table)
        return table, rows

    def _check_open(self) -> None:
        if self._closed:
            raise StoreError(f"{self.folder}: the server log is closed")

    def _keep(self, table_id: str, table: SqliteLog) -> None:
        with self._guard:
            if self._closed:
                table.close()
                self._check_open()
            self._open[table_id] = table

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
        if items and items[0][0] == "created" and table_id not in self._open:
            # The file is made with its first record, in one transaction (or not at all).
            with self._guard:
                self._check_open()
            table = SqliteLog.create(self.path_of(table_id), LOG_FORMAT, items, stamp=at)
            self._keep(table_id, table)
            return list(range(1, len(items) + 1))
        return self._table(table_id)[0].append(items, at)

    def table_records(self, table_id: str) -> list[JournalRecord]:
        """Every record of *table_id*, read afresh from its file.

        :raises StoreError: if the file is missing, damaged or marked damaged.
        """
        self.forget(table_id)
        return [_record(row, table_id) for row in self._table(table_id)[1]]

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
        row = read_first(self.path_of(table_id), LOG_FORMAT)
        return None if row is None else _record(row, table_id)

    def probe(self, table_id: str) -> None:
        """Check that *table_id*'s file can be written now (see
        :meth:`~feltro.sqlitelog.SqliteLog.probe`)."""
        self._table(table_id)[0].probe()

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
