"""Seasons on the server (``docs/seasons.md``): the API starts and shows seasons, a finished
table joins with its host's or a player's token (live or archived), every refusal is a reason
code the page words in three languages, and a season is kept across restarts."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from srvkit import Harness, Phone, drive, harness_at, seat_table

from feltro.i18n import LANGUAGES, catalogue, placeholders
from feltro.series_log import read_records
from feltro.server.archive import Lifecycle
from feltro.server.clock import FakeClock

LIFE = Lifecycle(finished_after=60, abandoned_after=600, lobby_after=120)


def _wait(h: Harness, check: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        h.client.get("/healthz")
        time.sleep(0.01)


def _shove(legal: dict[str, Any]) -> dict[str, Any]:
    """All-in whenever a raise is open, else call: a series ends in a few hands."""
    message: dict[str, Any] = {"type": "act", "id": f"s{legal['hand']}-{legal['turn']}",
                               "hand": legal["hand"], "turn": legal["turn"]}
    if legal["raise"] is not None:
        return {**message, "action": "raise", "to": legal["raise"]["max"]}
    return {**message, "action": "check" if legal["check"] else "call"}


def play_table(h: Harness, names: list[str], bots: tuple[str, ...] = ()
               ) -> tuple[dict[str, Any], Phone, dict[int, Phone]]:
    """A table of *names* (and *bots*) played to its end; its creation answer, host, phones."""
    created, host, players = seat_table(h, names, bots=bots, stack=12, name="Sexta")
    drive(host, players, _shove, lambda f: f["table"]["status"] == "over")
    return created, host, players


def _season(h: Harness, **body: Any) -> dict[str, Any]:
    body.setdefault("name", "Fridays")
    body.setdefault("players", ["Ana", "Rui", "Eva"])
    response = h.client.post("/api/seasons", json=body)
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


def _refusal(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    data: dict[str, Any] = response.json()
    assert data["code"] == code, data
    for lang in LANGUAGES:  # the page words every refusal, in every language
        words = catalogue(lang)[f"season.error.{code}"]
        assert placeholders(words) <= set(data["params"]), (lang, code)
    return data


def test_a_finished_table_joins_a_season_with_its_host_token(tmp_path: Path) -> None:
    with harness_at(tmp_path / "data") as h:
        season = _season(h)
        assert season["slug"] == "fridays"
        assert season["points"] == [10, 7, 5, 3, 2, 1]
        created, _host, players = play_table(h, ["Ana", "Rui", "Zé"], bots=("station",))
        table_id = created["table_id"]
        added = h.client.post("/api/seasons/fridays/nights",
                              json={"table_id": table_id, "token": created["host_token"]})
        assert added.status_code == 201, added.text
        view = added.json()
        [night] = view["nights"]
        assert night["key"] == f"server:{table_id}"
        assert night["label"] == "Sexta"
        # Against the table's own series log, read record by record.
        game = h.game(table_id)
        assert game.store is not None
        records = read_records(game.store.path)
        dealt = [r.body["order"] for r in records if r.kind == "hand"]
        lines = {line["name"]: line for line in view["standings"]}
        seats = {"Ana": 1, "Rui": 2}
        for name, seat in seats.items():
            assert lines[name]["hands"] == sum(seat in order for order in dealt)
            assert lines[name]["series"] == 1
        assert lines["Eva"]["series"] == 0
        assert lines["Eva"]["points"] == 0
        assert "Zé" not in lines  # a guest takes a place but is not in the standings
        end = next(r for r in records if r.kind == "series_end")
        for name, seat in seats.items():
            assert (lines[name]["wins"] == 1) == (seat in end.body["winners"])
        # Once only; the season page shows the same; the list has it.
        again = h.client.post("/api/seasons/fridays/nights",
                              json={"table_id": table_id, "token": players[1].token})
        _refusal(again, 422, "night-exists")
        assert h.client.get("/api/seasons/fridays").json() == view
        [listed] = h.client.get("/api/seasons").json()
        assert listed["series"] == 1
        assert listed["name"] == "Fridays"
        # A player of the table may take it out again.
        removed = h.client.post("/api/seasons/fridays/nights/remove",
                                json={"table_id": table_id, "token": players[2].token})
        assert removed.status_code == 200
        assert removed.json()["nights"] == []


def test_only_a_finished_table_of_the_tokens_holder_joins(tmp_path: Path) -> None:
    with harness_at(tmp_path / "data") as h:
        _season(h)
        created, host, players = seat_table(h, ["Ana", "Rui"], stack=12)
        table_id = created["table_id"]
        body = {"table_id": table_id, "token": created["host_token"]}
        _refusal(h.client.post("/api/seasons/fridays/nights", json=body), 422, "not-over")
        stranger = {"table_id": table_id, "token": "s" * 32}
        _refusal(h.client.post("/api/seasons/fridays/nights", json=stranger), 403,
                 "not-at-table")
        _refusal(h.client.post("/api/seasons/fridays/nights",
                               json={"table_id": "nosuch", "token": "s" * 32}), 404, "no-table")
        _refusal(h.client.post("/api/seasons/nope/nights", json=body), 404, "no-season")
        _refusal(h.client.post("/api/seasons/fridays/nights", json={"table_id": table_id}),
                 422, "bad-request")
        drive(host, players, _shove, lambda f: f["table"]["status"] == "over")
        other = _season(h, name="Saturdays", players=["Bia", "Tó"])
        _refusal(h.client.post(f"/api/seasons/{other['slug']}/nights", json=body), 422,
                 "no-members")


def test_an_archived_table_joins_with_a_players_or_the_hosts_token(tmp_path: Path) -> None:
    clock = FakeClock()
    with harness_at(tmp_path / "data", clock=clock, lifecycle=LIFE) as h:
        _season(h)
        _season(h, name="Two", players=["Ana", "Rui"])
        created, host, players = play_table(h, ["Ana", "Rui"])
        table_id = created["table_id"]
        live = h.client.get(f"/api/tables/{table_id}/chips").json()
        for phone in [host, *players.values()]:
            phone.close()
        _wait(h, lambda: h.manager.rooms[table_id].over_since is not None)
        clock.advance(61)
        _wait(h, lambda: table_id in h.manager.archive)
        by_player = h.client.post("/api/seasons/fridays/nights",
                                  json={"table_id": table_id, "token": players[1].token})
        assert by_player.status_code == 201, by_player.text
        by_host = h.client.post("/api/seasons/two/nights",
                                json={"table_id": table_id, "token": created["host_token"]})
        assert by_host.status_code == 201, by_host.text
        assert by_host.json()["nights"] == by_player.json()["nights"]
        hands = by_player.json()["nights"][0]["hands"]
        assert hands == len(live["hands"])
        _refusal(h.client.post("/api/seasons/two/nights/remove",
                               json={"table_id": table_id, "token": "x" * 32}),
                 403, "not-at-table")


def test_a_season_is_kept_across_a_restart(tmp_path: Path) -> None:
    with harness_at(tmp_path / "data") as h:
        _season(h)
        created, _host, _players = play_table(h, ["Ana", "Eva"])
        view = h.client.post("/api/seasons/fridays/nights",
                             json={"table_id": created["table_id"],
                                   "token": created["host_token"]}).json()
    with harness_at(tmp_path / "data") as h:
        assert h.client.get("/api/seasons/fridays").json() == view


def test_csv_in_the_readers_language(tmp_path: Path) -> None:
    with harness_at(tmp_path / "data") as h:
        _season(h, name="=Sum", players=["Ana", "-Rui"])
        english = h.client.get("/api/seasons/sum/csv")
        assert english.status_code == 200
        assert english.headers["content-type"].startswith("text/csv")
        assert english.text.splitlines()[0].startswith("Place,Player,Points,Series,Wins")
        assert "'-Rui" in english.text  # never a formula in a spreadsheet
        portuguese = h.client.get("/api/seasons/sum/csv?lang=pt-PT").text
        assert portuguese.startswith("Posição,Jogador,Pontos")
        _refusal(h.client.get("/api/seasons/nope/csv"), 404, "no-season")


def test_bad_seasons_are_refused_with_their_reason(tmp_path: Path) -> None:
    with harness_at(tmp_path / "data") as h:
        post = h.client.post
        _refusal(post("/api/seasons", json={"name": "X", "players": ["Ana", "ana"]}), 422,
                 "same-player")
        _refusal(post("/api/seasons", json={"name": "X", "players": ["Ana", "Rui"],
                                            "points": [5, 7]}), 422, "points-order")
        _refusal(post("/api/seasons", json={"name": "X", "players": ["Ana"]}), 422,
                 "bad-request")
        _refusal(post("/api/seasons", json={"name": "\u202e", "players": ["Ana", "Rui"]}),
                 422, "bad-name")
        _refusal(post("/api/seasons", content=b"[1, 2",
                      headers={"content-type": "application/json"}), 422, "bad-request")
        _season(h)
        _refusal(post("/api/seasons", json={"name": "FRIDAYS", "players": ["A", "B"]}), 422,
                 "season-exists")
        assert h.client.get("/api/seasons/..%2Fetc").status_code == 404
        _refusal(h.client.get("/api/seasons/Not_A_Slug"), 404, "no-season")


def test_season_creation_is_rate_limited_per_address(tmp_path: Path) -> None:
    with harness_at(tmp_path / "data") as h:
        codes = [h.client.post("/api/seasons", json={"name": f"S{i}", "players": ["A", "B"]})
                 .status_code for i in range(12)]
        assert codes[:10] == [201] * 10
        assert codes[10:] == [429, 429]


def test_a_damaged_season_is_said_not_crashed(tmp_path: Path) -> None:
    with harness_at(tmp_path / "data") as h:
        _season(h)
        path = tmp_path / "data" / "seasons" / "fridays.season.sqlite"
        data = bytearray(path.read_bytes())
        data[-200:] = random.Random(1).randbytes(200)
        path.write_bytes(bytes(data))
        (tmp_path / "data" / "seasons" / "junk.season.sqlite").write_text("not a season")
        _refusal(h.client.get("/api/seasons/junk"), 409, "damaged")
        listed = h.client.get("/api/seasons").json()
        assert {"slug": "junk", "problem": "damaged"} in listed


@pytest.mark.parametrize("address", ["/seasons", "/season/fridays"])
def test_the_pages_are_served(tmp_path: Path, address: str) -> None:
    with harness_at(tmp_path / "data") as h:
        page = h.client.get(address)
        assert page.status_code == 200
        assert "/static/js/season.js" in page.text
