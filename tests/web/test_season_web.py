"""A season of five server series in Debian's Chromium (issue 25, "Checked"): the host starts
the season on its page and adds the five finished tables from the device that hosted them; the
standings the page shows are checked against a hand count made from the tables' series logs on
disk, record by record, and ``feltro season`` in the terminal shows the same numbers."""

from __future__ import annotations

import csv
import io
import json
import os
import random
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from browserkit import ROOT, Server, new_context, serious_violations, shot, wait_until
from websockets.sync.client import ClientConnection, connect

from feltro.series_log import read_records

GROUP = ["Ana", "Rui", "Eva", "Zé"]
POINTS = (10, 7, 5, 3, 2, 1)
NIGHTS = [["Ana", "Rui", "Eva"], ["Rui", "Zé", "Ana"], ["Eva", "Ana", "Convidada"],
          ["Zé", "Eva", "Rui"], ["Ana", "Rui", "Eva", "Zé"]]
"""Who sits at each of the five tables (a guest at the third)."""


class Socket:
    """One websocket client of the protocol (the host, or a player)."""

    def __init__(self, server: Server, table_id: str, **hello: Any) -> None:
        self.ws: ClientConnection = connect(
            f"ws://127.0.0.1:{server.port}/ws/{table_id}", proxy=None, open_timeout=5,
            origin=server.url, legacy=True)  # type: ignore[arg-type]
        self.state: dict[str, Any] | None = None
        self.send(type="hello", protocol=1, **hello)

    def send(self, **message: Any) -> None:
        self.ws.send(json.dumps(message))

    def until(self, check: Any, timeout: float = 20.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            frame: dict[str, Any] = json.loads(self.ws.recv(timeout=max(0.01, deadline
                                                                         - time.monotonic())))
            if frame["type"] == "state":
                self.state = frame
            if check(frame):
                return frame


def play_night(server: Server, number: int, names: list[str]) -> dict[str, Any]:
    """A table of *names* played to its end: check or call, all-in a quarter of the time,
    folding to a bet a quarter of the time."""
    rng = random.Random(number)
    table = server.create_table(name=f"Noite {number}", seats=len(names), stack=10,
                                between_hands_seconds=0, bot_seconds=0)
    host = Socket(server, table["table_id"], role="host", token=table["host_token"])
    host.until(lambda f: f["type"] == "state")
    phones: dict[int, Socket] = {}
    for name in names:
        phone = Socket(server, table["table_id"], role="spectator")
        phone.until(lambda f: f["type"] == "state")
        phone.send(type="join", name=name, id="join")
        request = phone.until(lambda f: f["type"] == "seat_request")
        host.send(type="accept", request_id=request["request_id"], id=f"ok-{len(phones)}")
        seat = phone.until(lambda f: f["type"] == "seat_request" and f["status"] == "accepted")
        phones[int(seat["seat"])] = phone
    host.send(type="start", id="start")
    acted: set[tuple[int, int]] = set()
    while True:
        frame = host.until(lambda f: f["type"] == "state")
        if frame["table"]["status"] == "over":
            break
        hand = frame["table"]["hand"]
        if hand is None or hand["over"] or (hand["number"], hand["turn"]) in acted:
            continue
        key = (hand["number"], hand["turn"])
        acted.add(key)
        mine = phones[hand["to_act"]].until(
            lambda f, k=key: f["type"] == "state" and f["you"]["legal"] is not None
            and (f["you"]["legal"]["hand"], f["you"]["legal"]["turn"]) == k)
        legal = mine["you"]["legal"]
        draw = rng.random()
        move: dict[str, Any] = (
            {"action": "raise", "to": legal["raise"]["max"]} if legal["raise"] and draw < 0.25
            else {"action": "fold"} if not legal["check"] and draw > 0.75
            else {"action": "check" if legal["check"] else "call"})
        phones[hand["to_act"]].send(type="act", id=f"a{key[0]}-{key[1]}", hand=key[0],
                                    turn=key[1], **move)
    for socket in [host, *phones.values()]:
        socket.ws.close()
    return table


def counts_from_logs(data: Path, table_id: str) -> dict[str, dict[str, int]]:
    """Hands and place of each player of a table, from its series log's records alone."""
    [path] = (data / "tables").glob(f"{table_id}.*.series.sqlite")
    records = read_records(path)
    names = {int(seat): name for seat, name in records[0].body["config"]["players"].items()}
    facts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    alive = set(names)
    stacks: dict[int, int] = {}
    for record in records:
        if record.kind == "hand":
            stacks = {int(s): chips for s, chips in record.body["stacks_before"].items()}
            for seat in record.body["order"]:
                facts[names[seat]]["hands"] += 1
        elif record.kind == "hand_end" and record.body["eliminated"]:
            busted = record.body["eliminated"]
            alive -= set(busted)
            for rank, seat in enumerate(busted):  # best place first; equal stacks share (G4)
                tie = next((s for s in busted[:rank] if stacks[s] == stacks[seat]), None)
                facts[names[seat]]["place"] = (facts[names[tie]]["place"] if tie is not None
                                               else len(alive) + 1 + rank)
        elif record.kind == "series_end":
            for seat in record.body["winners"]:
                facts[names[seat]]["place"] = 1
    return facts


def expected_standings(data: Path, tables: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
    nights = [counts_from_logs(data, table["table_id"]) for table in tables]
    expected = {}
    for name in GROUP:
        places = [night[name]["place"] for night in nights if name in night]
        expected[name] = {
            "points": sum(POINTS[p - 1] if p <= len(POINTS) else 0 for p in places),
            "series": len(places), "wins": places.count(1),
            "hands": sum(night[name]["hands"] for night in nights if name in night)}
    return expected


def test_a_season_of_five_server_series_in_the_browser(chromium: Any, server: Server) -> None:
    tables = [play_night(server, n, names) for n, names in enumerate(NIGHTS, 1)]
    context = new_context(chromium, phone=True, lang="pt-PT")
    # The host's device keeps each table's host token, as the start page does.
    context.add_init_script(";".join(
        f"localStorage.setItem({json.dumps('feltro.host.' + t['table_id'])}, "
        f"{json.dumps(t['host_token'])})" for t in tables))
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{server.url}/")
    page.click("#seasons-link")
    page.wait_for_selector("#season-form")
    # The list comes after the form (it shows "…" while the seasons load).
    page.locator("#seasons").filter(has_text="Ainda não há épocas").wait_for()
    page.fill("#s-name", "Sextas à noite")
    page.fill("#s-players", ", ".join(GROUP))
    page.click("#season-create")
    page.wait_for_url("**/season/sextas-a-noite")
    page.wait_for_selector("#season-tables button")
    assert page.inner_text("#title") == "Época Sextas à noite"
    for number in range(1, len(tables) + 1):
        page.locator("#season-tables button.primary").first.click()
        wait_until(lambda n=number: page.locator("#season-nights li").count() == n,
                   what=f"{number} series in the season")
    assert page.locator("#season-tables button.primary").count() == 0
    assert page.locator("#season-chart-title").count() == 1
    shown = {}
    for row in page.locator("#season-standings tbody tr").all():
        cells = {cell.get_attribute("data-column"): int(cell.inner_text())
                 for cell in row.locator("td").all()
                 if cell.get_attribute("data-column") != "place"}
        shown[row.get_attribute("data-player")] = cells
    expected = expected_standings(server.data, tables)
    for name in GROUP:
        assert {k: shown[name][k] for k in expected[name]} == expected[name], name
    assert "Convidada" not in shown
    assert sum(values["hands"] for values in expected.values()) > len(tables) * 3
    shot(page, "season-360x740-pt-PT")
    laptop = new_context(chromium, phone=False).new_page()  # as the other pages are checked
    for address in ("/seasons", "/season/sextas-a-noite"):
        laptop.goto(f"{server.url}{address}")
        laptop.wait_for_selector("#season-form, #season-nights")
        assert not serious_violations(laptop), (address, serious_violations(laptop))
    # The same season in the terminal, from the same data folder.
    env = {**os.environ, "FELTRO_DATA_DIR": str(server.data), "LANG": "en_US.UTF-8"}
    run = subprocess.run([sys.executable, "-m", "feltro", "season", "show", "Sextas à noite",
                          "--csv", "-"], capture_output=True, text=True, env=env, cwd=ROOT,
                         timeout=60, check=True)
    rows = {row["Player"]: row for row in csv.DictReader(io.StringIO(run.stdout))}
    for name in GROUP:
        assert int(rows[name]["Points"]) == expected[name]["points"]
        assert int(rows[name]["Hands"]) == expected[name]["hands"]
        assert int(rows[name]["Knock-outs"]) == shown[name]["knockouts"]
    chart = subprocess.run([sys.executable, "-m", "feltro", "season", "show", "sextas-a-noite"],
                           capture_output=True, text=True, env=env, cwd=ROOT, timeout=60,
                           check=True).stdout
    assert "█" in chart
    # A season that does not exist is said in the reader's language.
    page.goto(f"{server.url}/season/nao-existe")
    page.wait_for_selector("#season-problem")
    assert page.inner_text("#season-problem") == "Não existe nenhuma época chamada nao-existe."
    assert errors == []
