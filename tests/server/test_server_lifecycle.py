"""Tables do not pile up: finished and abandoned tables are archived (their players keep
results, the chart and their hand histories), unused lobbies are dropped, and the table limit
counts every table in memory, finished ones too — across restarts."""

from __future__ import annotations

from pathlib import Path

import pytest
from srvkit import Harness, drive, harness_at, passive, seat_table

from feltro.server.archive import ArchivedTable, Lifecycle
from feltro.server.clock import FakeClock

LIFE = Lifecycle(finished_after=60, abandoned_after=600, lobby_after=120)


@pytest.mark.parametrize(("status", "over_for", "idle_for", "fate"), [
    ("lobby", None, None, "keep"),
    ("lobby", None, 100, "keep"),
    ("lobby", None, 121, "drop"),
    ("playing", None, 599, "keep"),
    ("playing", None, 601, "archive"),
    ("paused", None, 601, "archive"),
    ("over", 59, None, "keep"),
    ("over", 61, None, "archive"),
    ("over", 10, 700, "archive"),
])
def test_the_fate_of_a_table(status: str, over_for: float | None, idle_for: float | None,
                             fate: str) -> None:
    assert LIFE.fate(status=status, over_for=over_for, idle_for=idle_for) == fate


def _finish(h: Harness) -> tuple[dict[str, object], str]:
    created, host, players = seat_table(h, ["Ana"], bots=("station",), max_hands=1)
    drive(host, players, passive, lambda f: f["table"]["status"] == "over")
    token = players[1].token
    assert token is not None
    for phone in [host, *players.values()]:
        phone.close()
    return created, token


def test_a_finished_table_is_archived_and_its_players_keep_their_histories(
        tmp_path: Path) -> None:
    clock = FakeClock()
    with harness_at(tmp_path / "data", clock=clock, lifecycle=LIFE) as h:
        created, token = _finish(h)
        table_id = str(created["table_id"])
        chips_before = h.client.get(f"/api/tables/{table_id}/chips").json()
        fair_before = h.client.get(f"/api/tables/{table_id}/fairness").json()
        assert fair_before["hands"][0]["secret"] is not None
        _wait(h, lambda: h.manager.rooms[table_id].over_since is not None)
        clock.advance(61)
        h.client.get("/healthz")
        _wait(h, lambda: table_id in h.manager.archive)
        assert table_id not in h.manager.rooms
        assert h.client.get(f"/api/tables/{table_id}").json()["status"] == "archived"
        assert h.client.get(f"/api/tables/{table_id}/chips").json() == chips_before
        download = h.client.post(f"/api/tables/{table_id}/histories", json={"token": token})
        assert download.status_code == 200
        assert "hand-1" in download.text
        assert "_fair" in download.text  # the commitments stay with the archived table
        assert h.client.get(f"/api/tables/{table_id}/fairness").json() == fair_before
        wrong = h.client.post(f"/api/tables/{table_id}/histories",
                              json={"token": "x" * 32})
        assert wrong.status_code == 403
    with harness_at(tmp_path / "data", lifecycle=LIFE) as h:  # a restart keeps the archive
        assert table_id in h.manager.archive
        assert table_id not in h.manager.rooms
        again = h.client.post(f"/api/tables/{table_id}/histories", json={"token": token})
        assert again.text == download.text
        assert h.client.get(f"/api/tables/{table_id}/fairness").json() == fair_before


def test_unused_lobbies_are_dropped_and_do_not_come_back(tmp_path: Path) -> None:
    clock = FakeClock()
    with harness_at(tmp_path / "data", clock=clock, lifecycle=LIFE) as h:
        table_id = h.create_table()["table_id"]
        clock.advance(121)
        h.client.get("/healthz")
        _wait(h, lambda: table_id not in h.manager.rooms)
        assert h.client.get(f"/api/tables/{table_id}").status_code == 404
    with harness_at(tmp_path / "data", lifecycle=LIFE) as h:
        assert table_id not in h.manager.rooms


def test_the_limit_counts_finished_tables_too(tmp_path: Path) -> None:
    # Issue 22: finished tables held files for hours without counting, so strangers' one-hand
    # tables could make the host's own create fail; they count now (until archived).
    with harness_at(tmp_path / "data", max_tables=2, lifecycle=LIFE) as h:
        _finish(h)  # over, still in memory
        h.create_table()
        full = h.client.post("/api/tables", json={})
        assert full.status_code == 503
        assert full.json()["code"] == "server_full"


def test_archived_tables_survive_damage_to_their_record(tmp_path: Path) -> None:
    with pytest.raises(KeyError):
        ArchivedTable.from_record("t", {"summary": {}})


def _wait(h: Harness, condition: object, rounds: int = 2000) -> None:
    import time

    assert callable(condition)
    for _ in range(rounds):
        if condition():
            return
        time.sleep(0.01)
    raise AssertionError("the ticker did not get there")


def test_an_archived_table_keeps_its_decks_contributions_and_alarms_D1(tmp_path: Path) -> None:
    """The phones' sealed values are replayed with the archived series (else its decks, its
    export and its hand histories would change), with who was asked and the alarms."""
    from feltro.fairness_scheme import contribution_commitment

    clock = FakeClock()
    with harness_at(tmp_path / "data", clock=clock, lifecycle=LIFE) as h:
        created, host, players = seat_table(h, ["Ana", "Bruno"], max_hands=2)
        table_id = str(created["table_id"])
        host.current(lambda f: f["type"] == "state" and f["table"]["hand"] is not None)
        for seat, phone in players.items():
            seal = contribution_commitment(table_id, 2, seat, bytes([seat])).hex()
            phone.send(type="contribute", hand=2, seal=seal, id=f"s{seat}")
            assert phone.reply(f"s{seat}")["type"] == "ack"
        players[1].send(type="fair_alarm", hand=1, check="chain", id="alarm")
        assert players[1].reply("alarm")["type"] == "ack"
        drive(host, players, passive, lambda f: f["table"]["hand"]["over"])
        for seat, phone in players.items():
            phone.send(type="contribute", hand=2, value=f"{seat:02x}", id=f"v{seat}")
            assert phone.reply(f"v{seat}")["type"] == "ack"
        drive(host, players, passive, lambda f: f["table"]["status"] == "over")
        before = h.client.get(f"/api/tables/{table_id}/fairness").json()
        assert len(before["hands"][1]["contributions"]) == 2
        assert before["alarms"] == [{"hand": 1, "seat": 1, "check": "chain"}]
        for phone in [host, *players.values()]:
            phone.close()
        _wait(h, lambda: h.manager.rooms[table_id].over_since is not None)
        clock.advance(61)
        h.client.get("/healthz")
        _wait(h, lambda: table_id in h.manager.archive)
        assert h.client.get(f"/api/tables/{table_id}/fairness").json() == before
