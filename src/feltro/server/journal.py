"""The server's own append-only log: tables, seats, hosts, absences, timers.

The cards and chips of a table live in its series log (:class:`feltro.store.SeriesStore`, one
SQLite file per table). Everything around them that the series does not know (who asked for a
seat, who holds which token hash, who is the host, who is away, each timeout, each time bank,
every host command) is a record here, committed before anybody hears of it, so a server killed
with ``kill -9`` comes back with every table as it was (:mod:`feltro.server.game` replays them).

One SQLite file (``server.sqlite`` in the data folder), WAL mode, ``synchronous=FULL`` (each
commit survives a power cut too; it costs about 0.2 ms here). A ``flock`` on
``server.sqlite.lock`` keeps a second server from using the same folder; the OS drops it when the
process dies. Bodies are JSON and never hold a token or a hidden card (only token hashes).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from feltro.errors import StoreError
from feltro.filelock import FileLock
from feltro.paths import private_file, private_folder

__all__ = ["FORMAT", "Journal", "JournalRecord"]

FORMAT = "feltro-server-log/1"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS events (
    seq      INTEGER PRIMARY KEY,
    table_id TEXT NOT NULL,
    kind     TEXT NOT NULL,
    body     TEXT NOT NULL,
    at       TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS events_by_table ON events (table_id, seq);
"""


@dataclass(frozen=True, slots=True)
class JournalRecord:
    """One record: which table, what happened, when (ISO 8601, UTC)."""

    seq: int
    table_id: str
    kind: str
    body: Mapping[str, Any]
    at: str


class Journal:
    """The server log in *folder* (created if needed).

    :raises StoreError: if another server process uses the folder, or the file is not a server
        log.
    """

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        private_folder(self.folder)
        self.path = self.folder / "server.sqlite"
        self._lock = FileLock(
            self.folder / "server.sqlite.lock",
            lambda holder: (f"{self.folder}: another feltro server (pid {holder}) is using this "
                            f"data folder; stop it or choose another --data"),
        )
        try:
            private_file(self.path)
            self._db: sqlite3.Connection | None = sqlite3.connect(self.path,
                                                                  isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(_SCHEMA)
            found = self._db.execute("SELECT value FROM meta WHERE key='format'").fetchone()
            if found is None:
                self._db.execute("INSERT INTO meta VALUES ('format', ?)", (FORMAT,))
            elif found[0] != FORMAT:
                raise StoreError(f"{self.path}: not a feltro server log ({found[0]!r})")
        except sqlite3.Error as exc:
            self._lock.release()
            raise StoreError(f"{self.path}: cannot open the server log ({exc})") from None
        except BaseException:
            self._lock.release()
            raise

    def append(self, table_id: str, kind: str, body: Mapping[str, Any], at: str) -> int:
        """Append one record and commit it; returns its sequence number."""
        return self.append_many(table_id, [(kind, body)], at)[-1]

    def append_many(self, table_id: str, items: Sequence[tuple[str, Mapping[str, Any]]],
                    at: str) -> list[int]:
        """Append records in one transaction, committed before returning.

        :raises StoreError: if the log is closed or the write fails (nothing is written).
        """
        db = self._open()
        rows = [(table_id, kind, json.dumps(body, separators=(",", ":"), sort_keys=True), at)
                for kind, body in items]
        try:
            db.execute("BEGIN IMMEDIATE")
            seqs = [db.execute("INSERT INTO events (table_id, kind, body, at) VALUES "
                               "(?, ?, ?, ?)", row).lastrowid or 0 for row in rows]
            db.execute("COMMIT")
        except sqlite3.Error as exc:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise StoreError(f"{self.path}: cannot write to the server log ({exc})") from None
        return seqs

    def records(self) -> Iterator[JournalRecord]:
        """Every record in order. A record whose body is not a JSON object is reported with an
        empty body and kind ``"corrupt"`` (the table it belongs to is then marked broken)."""
        db = self._open()
        for seq, table_id, kind, body, at in db.execute(
                "SELECT seq, table_id, kind, body, at FROM events ORDER BY seq"):
            try:
                parsed = json.loads(body)
            except ValueError:
                parsed = None
            if not isinstance(parsed, dict):
                yield JournalRecord(seq, table_id, "corrupt", {}, at)
            else:
                yield JournalRecord(seq, table_id, kind, parsed, at)

    def close(self) -> None:
        """Close the database and release the folder lock (idempotent)."""
        if self._db is not None:
            self._db.close()
            self._db = None
        self._lock.release()

    def _open(self) -> sqlite3.Connection:
        if self._db is None:
            raise StoreError(f"{self.path}: the server log is closed")
        return self._db


