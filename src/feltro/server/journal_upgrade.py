"""The upgrade from the old data folder layout: servers before the per-table journals kept
every table in one ``server.sqlite`` (format ``feltro-server-log/1``: table ``events`` with a
``table_id`` column and an index ``events_by_table``).

When a server opens such a folder (:class:`~feltro.server.journal.Journal`), the old file is
split into one journal per table, each written to a temporary file and then renamed
(:func:`feltro.sqlitelog.write_file`); the old file is renamed last, so an interrupted split
runs again. Rows of a damaged one are salvaged: a full read first; then the
``(table_id, seq)`` index and a walk over the rowids that skips unreadable pages. A table that
lost rows is marked ``damaged`` in its journal's ``meta`` (quarantined for good); when the
index is unreadable too, every table older than a lost range is. The old file is kept as
``server.sqlite.migrated`` (or ``.damaged``).
"""

from __future__ import annotations

import logging
import os
import sqlite3
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

from feltro.errors import StoreError
from feltro.sqlitelog import LogFormat, write_file

__all__ = ["LEGACY_FORMAT", "split_legacy"]

LEGACY_FORMAT = "feltro-server-log/1"

log = logging.getLogger("feltro.server")

LegacyRow = tuple[int, str, str, str, str]
"""``seq, table_id, kind, body, at``."""


def split_legacy(legacy: Path, journal_of: Callable[[str], Path], fmt: LogFormat) -> None:
    """Split the old one-file log *legacy* (when there is one) into per-table journals of
    format *fmt*, each at ``journal_of(table_id)`` (which refuses a bad table id with a
    :class:`~feltro.errors.StoreError`); see the module docstring."""
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
        try:
            target = journal_of(str(table_id))
        except StoreError:
            log.error("server.sqlite: skipping records of a table with a bad id %r", table_id)
            continue
        write_file(target, fmt, table_rows,
                   damaged="records lost in a damaged server.sqlite" if table_id in lost
                   else None)
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


def _salvage(legacy: Path) -> tuple[list[LegacyRow], set[str]]:
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


def _salvage_rows(db: sqlite3.Connection) -> tuple[list[LegacyRow], set[str]]:
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
    rows: list[LegacyRow] = []
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
