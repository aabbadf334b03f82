"""What a stranger can leave running is bounded (issue 22, item 2): unwatched tables pause,
tables from other machines play at human pace for a bounded number of hands, finished tables
close their files at once, finished and archived tables count against the creator's budget
(and a stranger's archived ones against the server's), across restarts, the data folder has a
quota and archives a retention. Each test failed before :mod:`feltro.server.budgets`."""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from srvkit import Harness, drive, from_address, harness_at, passive, seat_table

from feltro.i18n import t
from feltro.server.archive import Lifecycle
from feltro.server.budgets import Budgets, Refusal
from feltro.server.clock import FakeClock
from feltro.server.rooms import USAGE_INTERVAL

LIFE = Lifecycle(finished_after=60, abandoned_after=10**6, lobby_after=10**6)
FAST = {"pause_unwatched_after": None, "remote_between_hands": 0, "remote_bot_seconds": 0,
        "remote_max_hands": None, "max_tables_per_address": 1_000, "reserved_for_host": 0}
"""Budgets that change nothing (each test sets the one it checks)."""


def _budgets(**changes: Any) -> Budgets:
    return Budgets(**{**FAST, **changes})


def _wait(condition: Callable[[], bool], seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.01)
    raise AssertionError("the server did not get there")




def _finish(h: Harness) -> str:
    created, host, players = seat_table(h, ["Ana"], bots=("station",), max_hands=1)
    drive(host, players, passive, lambda f: f["table"]["status"] == "over")
    for phone in [host, *players.values()]:
        phone.close()
    table_id = str(created["table_id"])
    room = h.manager.rooms[table_id]
    _wait(lambda: room.over_since is not None)
    return table_id


def _hand_number(h: Harness, table_id: str) -> int:
    store = h.game(table_id).store
    return int(store.series.hand_number) if store is not None else 0


def test_a_table_nobody_is_connected_to_pauses_and_goes_on_when_someone_comes(
        tmp_path: Path) -> None:
    clock = FakeClock()
    with harness_at(tmp_path / "data", clock=clock,
                    budgets=_budgets(pause_unwatched_after=60)) as h:
        created, host, _ = seat_table(h, [], bots=("station", "station"))
        table_id = str(created["table_id"])
        _wait(lambda: _hand_number(h, table_id) >= 2)
        host.close()
        _wait(lambda: h.manager.rooms[table_id].idle_since is not None)
        clock.advance(61)
        time.sleep(0.3)  # a bot decision already in flight lands
        paused_at = _hand_number(h, table_id)
        time.sleep(1.0)
        assert _hand_number(h, table_id) <= paused_at + 1  # nothing runs while nobody watches
        watcher = h.phone(table_id)
        watcher.hello()
        _wait(lambda: _hand_number(h, table_id) >= paused_at + 3)


def test_a_table_from_another_machine_plays_at_human_pace_with_a_hand_limit(
        tmp_path: Path) -> None:
    budgets = Budgets(remote_between_hands=3, remote_bot_seconds=1, remote_max_hands=500)
    with harness_at(tmp_path / "data", budgets=budgets) as h:
        stranger = h.create_table(max_hands=100_000)  # zero delays asked (srvkit's defaults)
        settings = h.client.get(f"/api/tables/{stranger['table_id']}").json()["settings"]
        assert (settings["between_hands_seconds"], settings["bot_seconds"],
                settings["max_hands"]) == (3, 1, 500)
        with from_address(h, "127.0.0.1"):  # the host's own machine chooses freely
            own = h.create_table(max_hands=100_000)
        settings = h.client.get(f"/api/tables/{own['table_id']}").json()["settings"]
        assert (settings["between_hands_seconds"], settings["bot_seconds"],
                settings["max_hands"]) == (0, 0, 100_000)


def _open_paths() -> list[str]:
    paths = []
    for fd in os.listdir("/proc/self/fd"):
        with contextlib.suppress(OSError):
            paths.append(os.readlink(f"/proc/self/fd/{fd}"))
    return paths


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc")
def test_a_finished_table_closes_its_files_at_once(tmp_path: Path) -> None:
    with harness_at(tmp_path / "data", budgets=_budgets()) as h:
        table_id = _finish(h)
        room = h.manager.rooms[table_id]
        series_file = room.table.series_file
        assert series_file is not None
        _wait(lambda: room.over_since is not None)
        _wait(lambda: not [p for p in _open_paths() if table_id in p or series_file in p],
              seconds=10)


def test_finished_and_archived_tables_count_against_the_creators_budget(
        tmp_path: Path) -> None:
    clock = FakeClock()
    with harness_at(tmp_path / "data", clock=clock, lifecycle=LIFE,
                    budgets=_budgets(max_tables_per_address=2)) as h:
        archived = _finish(h)
        clock.advance(61)
        _wait(lambda: archived in h.manager.archive)
        _finish(h)  # over, still in memory
        refused = h.client.post("/api/tables", json={})
        assert refused.status_code == 503
        assert refused.json()["code"] == "address_full"
        with from_address(h, "127.0.0.1"):  # the host's own machine is not held back
            assert h.client.post("/api/tables", json={}).status_code == 201


def test_a_restart_remembers_who_created_each_table(tmp_path: Path) -> None:
    # Before: the creating address lived in memory only, so a restart gave a stranger a fresh
    # budget of tables (live and archived ones both came back as "?").
    clock = FakeClock()
    budgets = _budgets(max_tables_per_address=2)
    with harness_at(tmp_path / "data", clock=clock, lifecycle=LIFE, budgets=budgets) as h:
        archived = _finish(h)
        clock.advance(61)
        _wait(lambda: archived in h.manager.archive)
        live = str(h.client.post("/api/tables", json={}).json()["table_id"])
    with harness_at(tmp_path / "data", clock=clock, lifecycle=LIFE, budgets=budgets) as h:
        stranger = "testclient"
        assert h.manager.archive[archived].creator == stranger
        assert h.manager.rooms[live].table.creator == stranger
        refused = h.client.post("/api/tables", json={})
        assert refused.status_code == 503
        assert refused.json()["code"] == "address_full"


def test_strangers_archived_tables_count_against_the_servers_limit(tmp_path: Path) -> None:
    # Before: only tables in memory counted, so archiving made room for a stranger's next ones
    # (each keeping its files) without end; the host keeps his reserved places.
    clock = FakeClock()
    with harness_at(tmp_path / "data", clock=clock, lifecycle=LIFE, max_tables=3,
                    budgets=_budgets(reserved_for_host=1)) as h:
        for _ in range(2):
            archived = _finish(h)
            clock.advance(61)
            _wait(lambda table_id=archived: table_id in h.manager.archive)
        assert not h.manager.rooms
        refused = h.client.post("/api/tables", json={})
        assert refused.status_code == 503
        assert refused.json()["code"] == "server_full"
        with from_address(h, "127.0.0.1"):  # the host's own machine keeps its place
            assert h.client.post("/api/tables", json={}).status_code == 201


def test_a_full_data_folder_refuses_new_tables_and_running_ones_go_on(tmp_path: Path) -> None:
    clock = FakeClock()
    with harness_at(tmp_path / "data", clock=clock,
                    budgets=_budgets(data_quota_bytes=64 * 1024)) as h:
        created, _host, _ = seat_table(h, [], bots=("station", "station"))
        table_id = str(created["table_id"])
        _wait(lambda: _hand_number(h, table_id) >= 3)
        clock.advance(USAGE_INTERVAL + 1)
        _wait(lambda: h.manager.data_bytes >= 64 * 1024)
        refused = h.client.post("/api/tables", json={})
        assert refused.status_code == 503
        assert refused.json()["code"] == "data_full"
        going = _hand_number(h, table_id)
        _wait(lambda: _hand_number(h, table_id) > going + 2)


def test_archived_tables_are_deleted_after_their_retention(tmp_path: Path) -> None:
    clock = FakeClock()
    with harness_at(tmp_path / "data", clock=clock, lifecycle=LIFE,
                    budgets=_budgets(archive_retention=3600)) as h:
        table_id = _finish(h)
        series_file = h.game(table_id).series_file
        clock.advance(61)
        _wait(lambda: table_id in h.manager.archive)
        journal_file = h.manager.journal.path_of(table_id) if h.manager.journal else None
        assert journal_file is not None
        assert journal_file.exists()
        clock.advance(3600 + USAGE_INTERVAL)
        _wait(lambda: table_id not in h.manager.archive)
        assert not journal_file.exists()
        assert not (tmp_path / "data" / "tables" / series_file).exists()
        assert h.client.get(f"/api/tables/{table_id}").status_code == 404


@pytest.mark.parametrize("refusal", ["server_full", "address_full", "data_full"])
@pytest.mark.parametrize("lang", ["en", "pt-PT", "pt-BR"])
def test_a_refused_table_is_worded_in_every_language(refusal: Refusal, lang: str) -> None:
    words = t(f"create_refused.{refusal}", lang)
    assert words
    assert words != f"create_refused.{refusal}"
    if lang != "en":
        assert words != t(f"create_refused.{refusal}", "en")


@pytest.mark.parametrize(("remote", "held", "mine", "data", "refusal"), [
    (False, 10, 50, 0, None),             # the host's machine: no per-address budget
    (True, 10, 19, 0, None),
    (True, 10, 20, 0, "address_full"),
    (True, 480, 0, 0, "server_full"),     # the last 20 places are the host's
    (False, 480, 0, 0, None),
    (False, 500, 0, 0, "server_full"),
    (False, 0, 0, 2 * 1024**3, "data_full"),
    (True, 0, 0, 2 * 1024**3 - 1, None),
])
def test_which_new_table_is_refused(remote: bool, held: int, mine: int, data: int,
                                    refusal: str | None) -> None:
    assert Budgets().refusal(remote=remote, held=held, held_by_address=mine, max_tables=500,
                             data_bytes=data) == refusal


def test_pace_and_pause_decisions() -> None:
    from feltro.server.protocol import CreateTable
    from feltro.server.table_settings import TableSettings

    asked = TableSettings.from_request(CreateTable(between_hands_seconds=10, bot_seconds=0,
                                                   max_hands=20))
    paced = Budgets().paced(asked, remote=True)
    assert (paced.between_hands_seconds, paced.bot_seconds, paced.max_hands) == (10, 1, 20)
    assert Budgets().paced(asked, remote=False) is asked
    budgets = Budgets()
    assert budgets.paused(started=True, unwatched_for=60)
    assert not budgets.paused(started=True, unwatched_for=59)
    assert not budgets.paused(started=True, unwatched_for=None)
    assert not budgets.paused(started=False, unwatched_for=10**6)
    assert not Budgets(archive_retention=0).expired(archived_for=10**9)
