"""One SQLite log layer (:mod:`feltro.sqlitelog`) under the series log and the table journal:
both formats keep their on-disk layout; numbering, quarantine, the writer lock and a create
that fails are the layer's; and no other module of feltro opens a SQLite file."""

from __future__ import annotations

import ast
import sqlite3
from pathlib import Path

import pytest

from feltro.errors import StoreError
from feltro.series_log import LOG_FORMAT as SERIES
from feltro.server.journal import LOG_FORMAT as JOURNAL
from feltro.sqlitelog import GENESIS, SqliteLog, chain_link, read_first, read_log, write_file

SRC = Path(__file__).resolve().parents[1] / "src" / "feltro"


def test_both_formats_keep_their_layout(tmp_path: Path) -> None:
    for fmt, columns in ((SERIES, ["seq", "kind", "body", "chain"]),
                         (JOURNAL, ["seq", "kind", "body", "at"])):
        path = tmp_path / f"{fmt.table}.sqlite"
        log = SqliteLog.create(path, fmt, [("first", {"b": 1, "a": [2]})], stamp="t0")
        assert log.append([("second", {}), ("third", {"x": None})], stamp="t1") == [2, 3]
        log.close()
        with sqlite3.connect(path) as db:
            table = [c[1] for c in db.execute(f"PRAGMA table_info({fmt.table})")]
            meta = dict(db.execute("SELECT key, value FROM meta").fetchall())
        assert table == columns
        assert meta["format"] == fmt.name
        rows = read_log(path, fmt)
        assert [(r.seq, r.kind, r.body) for r in rows] == [
            (1, "first", '{"a":[2],"b":1}'), (2, "second", "{}"), (3, "third", '{"x":null}')]
        if fmt.chained:
            assert meta["records"] == "3"
            assert rows[0].stamp == chain_link(GENESIS, 1, "first", rows[0].body)
        else:
            assert [r.stamp for r in rows] == ["t0", "t1", "t1"]
        first = read_first(path, fmt)
        assert first is not None
        assert first.kind == "first"


def test_an_upgraded_log_numbers_after_its_last_record(tmp_path: Path) -> None:
    # A journal split out of an old server.sqlite keeps that file's numbers, with gaps.
    path = tmp_path / "t.journal.sqlite"
    write_file(path, JOURNAL, [(5, "created", "{}", "t"), (17, "paused", "{}", "t")])
    log, rows = SqliteLog.open(path, JOURNAL)
    assert [r.seq for r in rows] == [5, 17]
    assert log.append([("resumed", {})], "u") == [18]
    log.close()


def test_a_log_that_lost_records_is_quarantined(tmp_path: Path) -> None:
    path = tmp_path / "t.journal.sqlite"
    write_file(path, JOURNAL, [(1, "created", "{}", "t")], damaged="records lost")
    with pytest.raises(StoreError, match="were lost \\(records lost\\)"):
        SqliteLog.open(path, JOURNAL)
    assert read_first(path, JOURNAL) is not None  # still shown, read-only


def test_a_create_that_fails_leaves_no_file(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    with pytest.raises(TypeError):
        SqliteLog.create(path, SERIES, [("series", {"not json": object()})])
    assert list(tmp_path.iterdir()) == []
    SqliteLog.create(path, SERIES, [("series", {})]).close()
    with pytest.raises(StoreError, match="already there"):
        SqliteLog.create(path, SERIES, [("series", {})])


def test_one_writer_when_asked(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    busy = "taken by {}".format
    log = SqliteLog.create(path, SERIES, [("series", {})], writer=busy)
    with pytest.raises(StoreError, match="taken by"):
        SqliteLog.open(path, SERIES, writer=busy)
    log.close()
    again, rows = SqliteLog.open(path, SERIES, writer=busy)
    assert len(rows) == 1
    again.close()
    with pytest.raises(StoreError, match="closed"):
        again.append([("x", {})])


# --- one layer: only it opens SQLite files --------------------------------------------------

# Modules that may use sqlite3: the layer; what a failed write means; and the upgrade, which
# reads the old one-file layout (never written again).
SQLITE_MODULES = {"sqlitelog.py", "sqlitefaults.py", "server/journal_upgrade.py"}


def _uses_sqlite(source: str) -> bool:
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import) and any(a.name == "sqlite3" for a in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and node.module == "sqlite3":
            return True
    return False


def test_only_the_layer_opens_sqlite_files() -> None:
    users = {str(path.relative_to(SRC)) for path in SRC.rglob("*.py")
             if _uses_sqlite(path.read_text(encoding="utf-8"))}
    assert users == SQLITE_MODULES


def test_the_layer_check_sees_a_second_layer() -> None:
    # What series_log.py and server/journal.py each did before (one connect of their own).
    assert _uses_sqlite("import sqlite3\n\ndef _connect(path):\n    "
                        "return sqlite3.connect(path, isolation_level=None)\n")
    assert _uses_sqlite("from sqlite3 import connect\n")
    assert not _uses_sqlite("from feltro.sqlitelog import SqliteLog\n")
