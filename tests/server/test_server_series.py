"""A whole series, to the end, played by scripted phones (and bots) over the protocol."""

from __future__ import annotations

import random
from typing import Any

import pytest
from srvkit import Harness, drive, random_action, seat_table

from feltro.series_log import read_records


@pytest.mark.parametrize("seed", [7, 8])
def test_a_whole_freezeout_to_the_last_player(harness: Harness, seed: int) -> None:
    rng = random.Random(seed)
    created, host, players = seat_table(harness, ["Ana", "Bruno", "Carla"],
                                        bots=("tight", "random"), stack=30)
    table_id = created["table_id"]
    spectator = harness.phone(table_id)
    spectator.hello()

    def choose(legal: dict[str, Any]) -> dict[str, Any]:
        return random_action(legal, rng)

    final = drive(host, players, choose, lambda f: f["table"]["status"] == "over", timeout=10)
    table = final["table"]
    outcome = table["outcome"]
    assert outcome["end"] == "last_player"
    assert len(outcome["winners"]) == 1
    winner = outcome["winners"][0]
    assert outcome["stacks"][str(winner)] == 5 * 30  # G4: one player has every chip
    assert sum(outcome["stacks"].values()) == 150
    places = sorted(row["place"] for row in table["standings"])
    assert places[0] == 1
    assert len(table["standings"]) == 5
    assert len(table["eliminations"]) == 4
    assert [e["hand"] for e in table["eliminations"]] == sorted(e["hand"]
                                                                for e in table["eliminations"])
    assert all(s["out"] for s in table["seats"] if s["occupied"] and s["seat"] != winner)
    assert table["hand"]["over"]
    assert table["next_hand_at"] is None

    # Everybody, busted or not, hears the end; the durable log agrees.
    for phone in [spectator, *players.values()]:
        end = phone.current(lambda f: f["type"] == "state" and f["table"]["status"] == "over")
        assert end["table"]["outcome"] == outcome
    game = harness.game(table_id)
    records = read_records(game.store.path)
    assert records[-1].kind == "series_end"
    assert records[-1].body["winners"] == [winner]
    chips = harness.client.get(f"/api/tables/{table_id}/chips").json()
    assert len(chips["hands"]) == outcome["hands"]
    assert chips["hands"][-1]["stacks"][str(winner)] == 150

    # The series is over: actions and host controls are refused, nothing changes.
    host.send(type="pause", id="late")
    assert host.reply("late")["code"] == "not_now"


def test_bots_only_series_runs_by_itself(harness: Harness) -> None:
    _created, host, players = seat_table(harness, [], bots=("random", "station", "tight"),
                                        stack=20)
    assert players == {}
    final = host.until(lambda f: f["type"] == "state" and f["table"]["status"] == "over",
                       timeout=20)
    assert final["table"]["outcome"]["end"] == "last_player"
    assert all(s["bot"] for s in final["table"]["seats"] if s["occupied"])


def test_a_player_downloads_only_their_own_hand_histories(harness: Harness) -> None:
    from feltro.history import loads_all

    rng = random.Random(5)
    created, host, players = seat_table(harness, ["Ana", "Bruno", "Carla"], stack=40)
    table_id = created["table_id"]
    url = f"/api/tables/{table_id}/histories"
    drive(host, players, lambda legal: random_action(legal, rng),
          lambda f: f["table"]["hands_played"] >= 4 or f["table"]["status"] == "over")
    token = players[1].token
    response = harness.client.post(url, json={"token": token})
    assert response.status_code == 200
    assert "attachment" in response.headers["content-disposition"]
    records = loads_all(response.text)
    assert len(records) >= 1
    store = harness.game(table_id).store
    for name, record in records:
        number = int(name.removeprefix("hand-"))
        truth = store.export_phh(number)
        position = truth.seats.index(1)
        shown = " ".join(line for line in truth.actions if " sm " in line)
        for mine, real in zip(record.actions, truth.actions, strict=True):
            if real.startswith(f"d dh p{position + 1} "):
                assert mine == real  # Ana's own cards
            elif real.startswith("d dh "):
                assert mine.endswith("??"), mine  # everybody else's are hidden
                card = real.split()[-1]
                assert card not in mine
            else:
                assert mine == real  # board, actions, shows
        others = {line.split()[-1] for line in truth.actions
                  if line.startswith("d dh") and not line.startswith(f"d dh p{position + 1} ")}
        leaked = {c for c in others if c in " ".join(record.actions) and c not in shown}
        assert not leaked
    for bad in ({"token": created["host_token"]}, {"token": "x" * 32}, {}, {"token": 5}):
        assert harness.client.post(url, json=bad).status_code in (403, 422)


def test_histories_before_the_start(harness: Harness) -> None:
    created, _host, players = seat_table(harness, ["Ana", "Bruno"], start=False)
    response = harness.client.post(f"/api/tables/{created['table_id']}/histories",
                                   json={"token": players[1].token})
    assert response.status_code == 409
