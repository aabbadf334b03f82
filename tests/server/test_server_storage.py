"""Storage faults stop one table, never the server: a lock held by another program, a full disk,
a damaged page, a deleted file. Nothing acknowledged is lost, nothing is applied twice, and no
frame shows a path.

The lock test runs a real ``feltro serve`` process and a real second process holding
``BEGIN EXCLUSIVE`` on a table's journal; the others run in process on a fake clock (the retries
wait for it to move).
"""

from __future__ import annotations

import getpass
import json
import sqlite3
import subprocess
import sys
import threading
import time
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from realserver import LivePhone, ServerProcess
from srvkit import Frame, Harness, Phone, harness_at, seat_table

import feltro.sqlitelog
from feltro.i18n import t
from feltro.series_log import read_records
from feltro.server.journal import Journal
from feltro.server.security import hash_token, new_token

_HOLD_LOCK = """
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("BEGIN EXCLUSIVE")
print("locked", flush=True)
time.sleep(float(sys.argv[2]))
db.execute("COMMIT")
"""


def _no_path(frames: list[str], data: Path) -> None:
    """No frame names a file, the data folder or the OS user."""
    user = getpass.getuser()
    for text in frames:
        assert str(data) not in text, text
        assert ".sqlite" not in text, text
        assert "/tables" not in text, text
        if len(user) > 3:
            assert f"/{user}" not in text, text


def _recorder(h: Harness) -> list[str]:
    frames: list[str] = []
    h.manager.frame_observer = lambda conn, text, game: frames.append(text)
    return frames


def _until_status(phone: Phone | LivePhone, status: str, timeout: float = 10.0) -> Frame:
    return phone.current(lambda f: f["type"] == "state" and f["table"]["status"] == status,
                         timeout=timeout)


def _turn(h: Harness, players: dict[int, Phone]) -> tuple[Phone, dict[str, Any]]:
    """The player to act and their legal block."""
    for _ in range(200):
        for phone in players.values():
            phone.drain(0.01)
            if phone.state is not None and phone.state["you"]["legal"] is not None:
                return phone, phone.state["you"]["legal"]
    raise AssertionError("nobody is to act")


def _act(phone: Phone, legal: dict[str, Any], ref: str) -> Frame:
    phone.send(type="act", id=ref, hand=legal["hand"], turn=legal["turn"],
               action="check" if legal["check"] else "call")
    return phone.until(lambda f: f.get("ref") == ref and f["type"] in ("ack", "error"))


def _wait_ticks(h: Harness, until: Callable[[], bool], step: float = 0.5,
                tries: int = 100) -> None:
    """Move the fake clock until *until* holds (the retries wait for it)."""
    for _ in range(tries):
        if until():
            return
        h.clock.advance(step)
        time.sleep(0.02)
    raise AssertionError("the condition never held")


# --- a lock held by another program ---------------------------------------------------------


def test_a_lock_held_by_another_process_pauses_only_that_table_then_it_resumes(
        tmp_path: Path) -> None:
    data = tmp_path / "data"
    server = ServerProcess(data)
    server.start()
    phones: list[LivePhone] = []
    try:
        locked = server.post("/api/tables", {"seats": 4, "name": "Locked"})
        other = server.post("/api/tables", {"seats": 4, "name": "Other"})
        host_a = LivePhone(server, locked["table_id"], "host", locked["host_token"])
        host_b = LivePhone(server, other["table_id"], "host", other["host_token"])
        phones = [host_a, host_b]
        for phone in phones:
            phone.connect()
            phone.until(lambda f: f["type"] == "state")
        host_a.send(type="set_lang", lang="pt-PT", id="lang")
        host_a.until(lambda f: f.get("ref") == "lang")
        journal = data / "tables" / f"{locked['table_id']}.journal.sqlite"
        if not journal.exists():  # servers before per-table journals
            journal = data / "server.sqlite"
        holder = subprocess.Popen([sys.executable, "-c", _HOLD_LOCK, str(journal), "3"],
                                  stdout=subprocess.PIPE)
        try:
            assert holder.stdout is not None
            assert holder.stdout.readline() == b"locked\n"
            host_a.send(type="add_bot", kind="station", id="refused")
            health: list[float] = []
            other_table: list[float] = []
            with httpx.Client(trust_env=False, timeout=10.0) as client:
                for i in range(15):
                    start = time.monotonic()
                    assert client.get(f"{server.url}/healthz").text == "ok"
                    health.append(time.monotonic() - start)
                    start = time.monotonic()
                    host_b.send(type="ping", t=i)
                    host_b.until(lambda f: f["type"] == "pong")
                    other_table.append(time.monotonic() - start)
                    time.sleep(0.05)
            print(f"healthz max {max(health) * 1000:.0f} ms, other table ping max "
                  f"{max(other_table) * 1000:.0f} ms while the lock was held")
            assert max(health) < 0.3, health
            assert max(other_table) < 0.3, other_table
            error = host_a.until(lambda f: f.get("ref") == "refused")
            assert error["type"] == "error"
            assert error["code"] == "stalled"
            stalled = _until_status(host_a, "stalled")
            assert stalled["table"]["problem"] == t("table_problem.stalled", "pt-PT")
            # The other table works meanwhile.
            host_b.send(type="add_bot", kind="station", id="b")
            assert host_b.until(lambda f: f.get("ref") == "b")["type"] == "ack"
        finally:
            holder.wait(timeout=20)
        # The lock is gone: the table resumes by itself and takes the same command.
        resumed = _until_status(host_a, "lobby", timeout=15)
        assert resumed["table"]["problem"] is None
        assert sum(s["occupied"] for s in resumed["table"]["seats"]) == 0  # never applied
        host_a.send(type="add_bot", kind="station", id="again")
        assert host_a.until(lambda f: f.get("ref") == "again")["type"] == "ack"
        seated = host_a.until(lambda f: f["type"] == "state"
                              and any(s["occupied"] for s in f["table"]["seats"]))
        assert sum(s["occupied"] for s in seated["table"]["seats"]) == 1
        _no_path([str(f) for phone in phones for f in phone.frames], data)
    finally:
        for phone in phones:
            phone.close()
        server.stop()


def test_a_locked_series_log_stalls_a_bots_table_mid_series_then_it_plays_on(
        tmp_path: Path) -> None:
    data = tmp_path / "data"
    server = ServerProcess(data)
    server.start()
    watcher: LivePhone | None = None
    try:
        created = server.post("/api/tables", {"seats": 3, "action_seconds": None,
                                              "between_hands_seconds": 0, "bot_seconds": 0})
        table_id = created["table_id"]
        host = LivePhone(server, table_id, "host", created["host_token"])
        host.connect()
        for _ in range(3):  # calling stations: the series lasts (every hand is a small pot)
            host.send(type="add_bot", kind="station", id="b")
        host.send(type="start", id="s")
        host.until(lambda f: f["type"] == "state" and f["table"]["hands_played"] >= 1)
        host.close()
        series = next((data / "tables").glob(f"{table_id}.*.series.sqlite"))
        watcher = LivePhone(server, table_id)
        watcher.connect()
        holder = subprocess.Popen([sys.executable, "-c", _HOLD_LOCK, str(series), "2"],
                                  stdout=subprocess.PIPE)
        try:
            assert holder.stdout is not None
            assert holder.stdout.readline() == b"locked\n"
            stalled = _until_status(watcher, "stalled")
            assert stalled["table"]["problem"] == t("table_problem.stalled", "en")
            with httpx.Client(trust_env=False, timeout=10.0) as client:
                start = time.monotonic()
                assert client.get(f"{server.url}/healthz").text == "ok"
                assert time.monotonic() - start < 0.3
        finally:
            holder.wait(timeout=20)
        played = stalled["table"]["hands_played"]
        later = watcher.until(lambda f: f["type"] == "state"
                              and f["table"]["status"] in ("playing", "over")
                              and f["table"]["hands_played"] >= played + 2, timeout=20)
        stacks = sum(s["stack"] + (s.get("committed") or 0) for s in later["table"]["seats"])
        assert stacks == 3 * later["table"]["settings"]["stack"]
        _no_path([str(f) for f in watcher.frames], data)
    finally:
        if watcher is not None:
            watcher.close()
        server.stop()


# --- a full disk ----------------------------------------------------------------------------


class _Disk:
    """Which tables' files are full (their commits fail as SQLite fails on a full disk)."""

    def __init__(self) -> None:
        self.full: set[str] = set()


class _FullDiskConnection:
    def __init__(self, real: sqlite3.Connection, path: Path, disk: _Disk) -> None:
        self._real, self._name, self._disk = real, Path(path).name, disk

    def execute(self, sql: str, *args: Any) -> Any:
        if sql.strip().upper() == "COMMIT" and any(self._name.startswith(table)
                                                   for table in self._disk.full):
            raise sqlite3.OperationalError("database or disk is full")
        return self._real.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)


@pytest.fixture
def disk(monkeypatch: pytest.MonkeyPatch) -> _Disk:
    """Every SQLite connection the server's logs open goes through :class:`_FullDiskConnection`."""
    disk = _Disk()

    def connect(path: Any, *args: Any, **options: Any) -> Any:
        return _FullDiskConnection(sqlite3.connect(path, *args, **options), path, disk)

    shim = types.ModuleType("sqlite3")
    shim.__dict__.update(sqlite3.__dict__)
    shim.connect = connect  # type: ignore[attr-defined]
    monkeypatch.setattr(feltro.sqlitelog, "sqlite3", shim)  # both logs connect there
    return disk


def _two_tables(h: Harness) -> tuple[str, Phone, dict[int, Phone], dict[int, Phone]]:
    """Two tables of two people, both playing: the first one's id, host and players (the
    table in trouble) and the second one's players (a table that must go on meanwhile)."""
    created, host, players = seat_table(h, ["Ana", "Bruno"])
    _other, _other_host, others = seat_table(h, ["Carla", "Dora"])
    return created["table_id"], host, players, others


def test_a_full_disk_pauses_the_table_then_it_resumes_and_nothing_is_lost(
        tmp_path: Path, disk: _Disk) -> None:
    data = tmp_path / "data"
    with harness_at(data) as h:
        frames = _recorder(h)
        table_id, host, players, others = _two_tables(h)
        phone, legal = _turn(h, players)
        disk.full.add(table_id)
        error = _act(phone, legal, "full")
        assert error["type"] == "error"
        assert error["code"] == "stalled"
        state = _until_status(host, "stalled")
        assert state["table"]["problem"] == t("table_problem.stalled", "en")
        assert state["table"]["hand"] is None or state["table"]["hand"]["turn"] == legal["turn"]
        # Still full: the table keeps waiting (its retries fail), the others play.
        for _ in range(6):
            h.clock.advance(1.0)
            time.sleep(0.03)
        assert h.game(table_id).status == "stalled"
        other, other_legal = _turn(h, others)
        assert _act(other, other_legal, "elsewhere")["type"] == "ack"
        # Space again: it resumes by itself, at the same turn.
        disk.full.clear()
        _wait_ticks(h, lambda: h.game(table_id).status == "playing")
        phone, again = _turn(h, players)
        assert (again["hand"], again["turn"]) == (legal["hand"], legal["turn"])
        assert _act(phone, again, "retry")["type"] == "ack"
        actions = [r for r in read_records(h.game(table_id).store.path)
                   if r.kind == "action" and r.body["hand"] == legal["hand"]]
        assert len(actions) == legal["turn"] + 1  # the refused action is not there, once
        total = sum(h.game(table_id).store.series.stacks.values())
        assert total == 2 * h.game(table_id).settings.stack
        _no_path(frames, data)


# --- a deleted file -------------------------------------------------------------------------


def _delete_table_files(data: Path, table_id: str) -> None:
    for path in (data / "tables").glob(f"{table_id}*"):
        path.unlink()


def test_deleted_files_stop_the_table_before_anything_is_acknowledged(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with harness_at(data) as h:
        frames = _recorder(h)
        table_id, host, players, others = _two_tables(h)
        phone, legal = _turn(h, players)
        _delete_table_files(data, table_id)
        reply = _act(phone, legal, "lost")
        assert reply["type"] == "error", "an action that cannot be kept was acknowledged"
        _wait_ticks(h, lambda: h.game(table_id).status == "broken")
        state = _until_status(host, "broken")
        assert state["table"]["problem"] == t("table_problem.missing", "en")
        again = _act(phone, legal, "again")
        assert again["type"] == "error"
        assert again["code"] == "broken_table"
        other, other_legal = _turn(h, others)
        assert _act(other, other_legal, "elsewhere")["type"] == "ack"
        _no_path(frames, data)


def test_a_deleted_journal_stops_a_lobby_table(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with harness_at(data) as h:
        created = h.create_table(seats=4)
        table_id = created["table_id"]
        host = h.phone(table_id)
        host.hello("host", created["host_token"])
        (data / "tables" / f"{table_id}.journal.sqlite").unlink()
        host.send(type="add_bot", kind="station", id="b")
        assert host.reply("b")["type"] == "error"
        _wait_ticks(h, lambda: h.game(table_id).status == "broken")
        assert not h.game(table_id).seats


# --- damaged pages --------------------------------------------------------------------------

PAGE = 4096


def _damage_page(path: Path, page: int) -> None:
    with path.open("r+b") as handle:
        handle.seek(page * PAGE)
        handle.write(bytes(range(256)) * (PAGE // 256))


def _legacy_log(path: Path, settings: dict[str, Any], count: int) -> dict[str, str]:
    """An old-layout ``server.sqlite`` with *count* lobby tables (3 long seat requests each);
    returns the host token of each table."""
    db = sqlite3.connect(path, isolation_level=None)
    db.executescript("""
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE events (seq INTEGER PRIMARY KEY, table_id TEXT NOT NULL,
                             kind TEXT NOT NULL, body TEXT NOT NULL, at TEXT NOT NULL);
        CREATE INDEX events_by_table ON events (table_id, seq);
        INSERT INTO meta VALUES ('format', 'feltro-server-log/1');
    """)
    tokens = {f"t{n:04d}": new_token() for n in range(count)}
    at = "2026-01-01T20:00:00+00:00"

    rows = [(tid, "created", json.dumps({"settings": settings, "host_hash": hash_token(tok)}),
             at) for tid, tok in tokens.items()]
    for k in range(3):
        for tid in tokens:
            body = {"request_id": f"r{k}{tid}", "name": f"pad{tid}r{k}" + "x" * 1200,
                    "token_hash": hash_token(new_token()), "seat": None}
            rows.append((tid, "requested", json.dumps(body), at))
    db.executemany("INSERT INTO events (table_id, kind, body, at) VALUES (?, ?, ?, ?)", rows)
    db.close()
    return tokens


def _settings(tmp_path: Path) -> dict[str, Any]:
    with harness_at(tmp_path / "scratch") as h:
        table_id = h.create_table(seats=4, name="Old")["table_id"]
        settings: dict[str, Any] = h.game(table_id).settings.to_dict()
    return settings


def test_a_damaged_page_in_an_old_server_sqlite_quarantines_only_its_tables(
        tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    tokens = _legacy_log(data / "server.sqlite", _settings(tmp_path), 30)
    raw = (data / "server.sqlite").read_bytes()
    victim = "t0007"
    page = raw.index(f"pad{victim}r1".encode()) // PAGE
    assert page > 1
    _damage_page(data / "server.sqlite", page)
    with harness_at(data) as h:  # it starts
        frames = _recorder(h)
        statuses = {tid: h.game(tid).status for tid in h.manager.rooms}
        assert statuses[victim] == "broken"
        broken = {tid for tid, status in statuses.items() if status == "broken"}
        assert len(broken) <= 6, broken  # those whose rows shared the damaged page
        healthy = sorted(set(statuses) - broken)
        assert len(healthy) >= 24
        # A healthy table plays.
        table_id = healthy[-1]
        assert len(h.game(table_id).lobby.pending_requests()) == 3
        host = h.phone(table_id)
        host.hello("host", tokens[table_id])
        for n, request in enumerate(h.game(table_id).lobby.pending_requests()):
            host.send(type="refuse", request_id=request.request_id, id=f"r{n}")
            assert host.reply(f"r{n}")["type"] == "ack"
        for n in range(2):
            host.send(type="add_bot", kind="station", id=f"b{n}")
            assert host.reply(f"b{n}")["type"] == "ack"
        host.send(type="start", id="go")
        assert host.reply("go")["type"] == "ack"
        host.until(lambda f: f["type"] == "state" and f["table"]["hands_played"] >= 1)
        # The quarantined one says so, in plain words, and refuses every change.
        phone = h.phone(victim)
        phone.hello("host", tokens[victim], lang="pt-BR")
        assert phone.state is not None
        assert phone.state["table"]["problem"] == t("table_problem.damaged", "pt-BR")
        phone.send(type="add_bot", kind="station", id="b")
        assert phone.reply("b")["code"] == "broken_table"
        _no_path(frames, data)
    assert not (data / "server.sqlite").exists()
    assert (data / "server.sqlite.damaged").exists()
    with harness_at(data) as h:  # the split is kept, the quarantine too
        assert h.game(victim).status == "broken"
        assert h.game(table_id).status == "playing"


def test_an_old_server_sqlite_is_split_into_one_journal_per_table(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    tokens = _legacy_log(data / "server.sqlite", _settings(tmp_path), 3)
    with harness_at(data) as h:
        assert sorted(h.manager.rooms) == sorted(tokens)
        for tid in tokens:
            assert h.game(tid).status == "lobby"
            assert len(h.game(tid).lobby.pending_requests()) == 3
    assert (data / "server.sqlite.migrated").exists()
    assert sorted(p.name for p in (data / "tables").glob("*.journal.sqlite")) == sorted(
        f"{tid}.journal.sqlite" for tid in tokens)


def _middle_page(path: Path) -> int:
    pages = path.stat().st_size // PAGE
    assert pages >= 4, pages
    return pages // 2


def test_a_damaged_page_in_a_series_log_quarantines_only_that_table(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with harness_at(data) as h:
        created, host, _players = seat_table(h, [], bots=("station", "station"))
        host.until(lambda f: f["type"] == "state" and (f["table"]["hands_played"] >= 30
                                                       or f["table"]["outcome"] is not None),
                   timeout=60)
        host.send(type="pause", id="p")
        host.reply("p")
        victim = created["table_id"]
        healthy, _host2, _players2 = seat_table(h, [], bots=("station", "station"))
        series = data / "tables" / h.game(victim).series_file
    _damage_page(series, _middle_page(series))
    with harness_at(data) as h:
        frames = _recorder(h)
        assert h.game(victim).status == "broken"
        phone = h.phone(victim)
        phone.hello()
        assert phone.state is not None
        assert phone.state["table"]["problem"] == t("table_problem.damaged", "en")
        watcher = h.phone(healthy["table_id"])
        watcher.hello()
        watcher.until(lambda f: f["type"] == "state" and f["table"]["hands_played"] >= 2)
        _no_path(frames, data)


def test_a_damaged_page_in_a_table_journal_quarantines_only_that_table(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with harness_at(data) as h:
        victim = h.create_table(seats=4, name="Victim")["table_id"]
        healthy, _host, _players = seat_table(h, [], bots=("station", "station"))
    journal = Journal(data)  # long records: the file spans several pages
    for _ in range(8):
        journal.append_many(victim, [("paused", {"pad": "x" * 1500}),
                                     ("resumed", {"pad": "y" * 1500})],
                            "2026-01-01T20:00:00+00:00")
    journal.close()
    path = data / "tables" / f"{victim}.journal.sqlite"
    _damage_page(path, _middle_page(path))
    with harness_at(data) as h:
        frames = _recorder(h)
        assert h.game(victim).status == "broken"
        watcher = h.phone(healthy["table_id"])
        watcher.hello()
        watcher.until(lambda f: f["type"] == "state" and f["table"]["hands_played"] >= 2)
        phone = h.phone(victim)
        phone.hello()
        assert phone.state is not None
        assert phone.state["table"]["problem"] == t("table_problem.damaged", "en")
        _no_path(frames, data)


# --- commits off the event loop ---------------------------------------------------------------


def test_commits_run_in_writer_threads_not_on_the_event_loop(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch
                                                             ) -> None:
    threads: list[str] = []
    real = feltro.series_log.SeriesStore._append

    def spy(self: Any, *args: Any, **options: Any) -> None:
        threads.append(threading.current_thread().name)
        real(self, *args, **options)

    monkeypatch.setattr(feltro.series_log.SeriesStore, "_append", spy)
    with harness_at(tmp_path / "data") as h:
        _created, host, players = seat_table(h, ["Ana", "Bruno"], bots=("station",))
        for n in range(6):
            phone, legal = _turn(h, players)
            assert _act(phone, legal, f"a{n}")["type"] == "ack"
        host.until(lambda f: f["type"] == "state" and f["table"]["hand"] is not None)
    assert len(threads) > 6
    assert all(name.startswith("feltro-write") for name in threads), set(threads)
