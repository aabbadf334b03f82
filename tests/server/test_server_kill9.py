"""``kill -9`` on a real server process: every table continues exactly, clients reconnect.

The server runs as ``python -m feltro serve`` on a free 127.0.0.1 port; the clients are real
websocket clients that reconnect and say hello again by themselves when the connection drops.
"""

from __future__ import annotations

import random
import time
from contextlib import ExitStack
from typing import Any

import httpx
import pytest
from realserver import Frame, LivePhone, ServerProcess
from remotekit import host_of, seat_phone

from feltro.fairness_scheme import contribution_commitment

pytestmark = pytest.mark.skipif(not hasattr(__import__("os"), "fork"),
                                reason="POSIX signals")


def _started_table(server: ServerProcess, closing: ExitStack, names: list[str]
                   ) -> tuple[str, LivePhone, dict[int, LivePhone]]:
    """A table of *names* and a station bot, started with long turns: its id, its host and
    the players' phones by seat (all closed when the test ends)."""
    created, host = host_of(server, seats=len(names) + 1, action_seconds=600)
    closing.callback(host.close)
    table_id = created["table_id"]
    players = dict(seat_phone(server, table_id, host, name) for name in names)
    for phone in players.values():
        closing.callback(phone.close)
    host.send(type="add_bot", kind="station", id="bot")
    host.send(type="start", id="start")
    return table_id, host, players


def _snapshot(frame: Frame) -> dict[str, Any]:
    table, you = frame["table"], frame["you"]
    hand = table["hand"]
    return {
        "hand": {k: hand[k] for k in ("number", "street", "board", "pots", "pot_total",
                                      "current_bet", "to_act", "turn", "button", "log")},
        "stacks": [(s["seat"], s.get("stack"), s.get("bet"), s.get("folded"))
                   for s in table["seats"]],
        "hole": you["hole"], "legal": you["legal"], "seat": you["seat"],
    }


def _decide(phone: LivePhone, hand: Frame, rng: random.Random) -> None:
    """*phone*'s decision for the turn of *hand* now (check, else call mostly, else fold)."""
    mine = phone.current(lambda f, h=hand: f["type"] == "state"
                         and f["you"]["legal"] is not None
                         and f["you"]["legal"]["turn"] == h["turn"]
                         and f["you"]["legal"]["hand"] == h["number"])
    legal = mine["you"]["legal"]
    action = "check" if legal["check"] else ("call" if rng.random() < 0.8 else "fold")
    phone.send(type="act", id=f"k{legal['hand']}-{legal['turn']}", hand=legal["hand"],
               turn=legal["turn"], action=action)


def _act(players: dict[int, LivePhone], host: LivePhone, decisions: int,
         rng: random.Random) -> Frame:
    """Make human decisions until *decisions* are made and a human is to act mid-hand."""
    made = 0
    while True:
        state = host.current(lambda f: f["type"] == "state" and f["table"]["hand"] is not None
                             and not f["table"]["hand"]["over"]
                             and f["table"]["hand"]["to_act"] in players)
        hand = state["table"]["hand"]
        if made >= decisions:
            return state
        _decide(players[hand["to_act"]], hand, rng)
        host.until(lambda f, h=hand: f["type"] == "state" and f["table"]["hand"] is not None
                   and (f["table"]["hand"]["number"], f["table"]["hand"]["turn"])
                   != (h["number"], h["turn"]))
        made += 1


def test_kill9_mid_hand_then_restart_continues_exactly(
        live: ServerProcess, closing: ExitStack) -> None:
    _table_id, host, players = _started_table(live, closing, ["Ana", "Bruno", "Carla"])
    _act(players, host, 5, random.Random(3))
    for phone in [host, *players.values()]:
        phone.drain(0.3)
    before = {seat: _snapshot(phone.state) for seat, phone in players.items()
              if phone.state is not None}
    assert len(before) == 3
    assert sum(b["legal"] is not None for b in before.values()) == 1

    live.kill9()
    time.sleep(0.3)
    live.start()

    for seat, phone in players.items():
        # The client notices the drop, reconnects and says hello with its token.
        again = phone.until(lambda f: f["type"] == "welcome", timeout=30)
        assert again["seat"] == seat
        assert phone.reconnects >= 1
        state = phone.until(lambda f: f["type"] == "state")
        phone.drain(0.3)
        assert phone.state is not None
        assert _snapshot(phone.state) == before[seat], f"seat {seat} differs"
    host.until(lambda f: f["type"] == "welcome", timeout=30)
    assert state["table"]["timer"]["action_ends_at"] - state["table"]["timer"][
        "started_at"] == 600_000  # rebased: a fresh timer from the restart
    # And the hand goes on.
    _act(players, host, 2, random.Random(4))


def test_kill9_at_random_moments_never_loses_a_table(live: ServerProcess) -> None:
    rng = random.Random(11)
    bots = live.post("/api/tables", {"seats": 4, "action_seconds": None,
                                     "between_hands_seconds": 0, "bot_seconds": 0})
    host = LivePhone(live, bots["table_id"], "host", bots["host_token"])
    host.connect()
    for kind in ("random", "station", "tight", "random"):
        host.send(type="add_bot", kind=kind, id="b")
    host.send(type="start", id="s")
    host.until(lambda f: f["type"] == "state" and f["table"]["hands_played"] >= 1)
    host.close()
    seen_hands = 0
    for _ in range(3):
        time.sleep(rng.uniform(0.1, 0.6))  # bots are playing: the logs are being written
        live.kill9()
        live.start()
        with httpx.Client(trust_env=False, timeout=5) as client:
            tables = client.get(f"{live.url}/api/tables").json()
            chips = client.get(f"{live.url}/api/tables/{bots['table_id']}/chips").json()
        assert [t["status"] for t in tables] in (["playing"], ["over"])
        hands = chips["hands"]
        assert len(hands) >= seen_hands  # nothing committed was lost
        assert all(sum(h["stacks"].values()) == 800 for h in hands)  # chips conserved
        seen_hands = len(hands)
    watcher = LivePhone(live, bots["table_id"])
    watcher.connect()
    later = watcher.until(lambda f: f["type"] == "state"
                          and (f["table"]["hands_played"] > seen_hands
                               or f["table"]["status"] == "over"), timeout=30)
    assert later["table"]["status"] in ("playing", "over")  # it goes on by itself
    watcher.close()


def test_real_server_refuses_other_origins_and_huge_frames(live: ServerProcess) -> None:
    import json

    from websockets.exceptions import ConnectionClosedError, InvalidStatus
    from websockets.sync.client import connect

    table = live.post("/api/tables", {})
    url = f"ws://127.0.0.1:{live.port}/ws/{table['table_id']}"
    with connect(url, proxy=None, origin=f"http://127.0.0.1:{live.port}") as ws:
        ws.send(json.dumps({"type": "hello", "protocol": 1, "role": "spectator"}))
        assert json.loads(ws.recv(timeout=5))["type"] == "welcome"
    with pytest.raises(InvalidStatus) as refused:
        connect(url, proxy=None, origin="http://evil.example")
    assert refused.value.response.status_code == 403
    with connect(url, proxy=None) as ws:
        ws.send("x" * 100_000)
        with pytest.raises(ConnectionClosedError) as closed:
            ws.recv(timeout=5)
    assert closed.value.rcvd is not None
    assert closed.value.rcvd.code == 1009  # message too big, cut by the transport


def test_kill9_mid_hand_keeps_the_fair_deck_and_its_contributions(
        live: ServerProcess, closing: ExitStack) -> None:
    """The players' contributions are journaled before they count and the dealer's secrets
    come from the sealed series seed: after ``kill -9`` the same deck, commitments and
    cards come back, and the hand goes on."""
    table_id, host, players = _started_table(live, closing, ["Ana", "Bruno"])
    host.until(lambda f: f["type"] == "state" and f["table"]["hand"] is not None)
    for seat, phone in players.items():  # commit during hand 1, reveal once it ends
        seal = contribution_commitment(table_id, 2, seat, bytes([seat]) * 32).hex()
        phone.send(type="contribute", hand=2, seal=seal, id=f"s{seat}")
        assert phone.until(lambda f, ref=f"s{seat}": f.get("ref") == ref)["type"] == "ack"
    rng = random.Random(5)
    state: Frame | None = None
    while True:
        state = host.current(lambda f, last=state: f["type"] == "state" and f is not last)
        hand = state["table"]["hand"]
        if hand["number"] >= 2 and not hand["over"] and hand["to_act"] in players:
            break
        if state["table"]["fair"]["next"]["phase"] == "reveal":
            for seat, phone in players.items():
                phone.send(type="contribute", hand=2, value=f"{seat:02x}" * 32,
                           id=f"c{seat}")
            host.until(lambda f: f["type"] == "state" and f["table"]["hand"]["number"] == 2)
            state = None
            continue
        if not hand["over"] and hand["to_act"] in players:
            _decide(players[hand["to_act"]], hand, rng)
    for phone in [host, *players.values()]:
        phone.drain(0.3)
    fair = host.state["table"]["fair"] if host.state is not None else None
    assert fair is not None
    assert fair["hand"]["number"] == 2
    assert fair["hand"]["contributions"] == {"1": "01" * 32, "2": "02" * 32}
    before = {seat: (_snapshot(phone.state), phone.state["you"]["fair"])
              for seat, phone in players.items() if phone.state is not None}

    live.kill9()
    time.sleep(0.3)
    live.start()

    for seat, phone in players.items():
        phone.until(lambda f: f["type"] == "welcome", timeout=30)
        phone.until(lambda f: f["type"] == "state")
        phone.drain(0.3)
        assert phone.state is not None
        assert (_snapshot(phone.state), phone.state["you"]["fair"]) == before[seat]
        assert phone.state["table"]["fair"]["hand"] == fair["hand"]
    host.until(lambda f: f["type"] == "welcome", timeout=30)
    _act(players, host, 1, random.Random(6))
    with httpx.Client(trust_env=False, timeout=5) as client:
        export = client.get(f"{live.url}/api/tables/{table_id}/fairness").json()
    assert export["hands"][1]["commitment"] == fair["hand"]["commitment"]
    assert export["hands"][1]["positions"] == fair["hand"]["positions"]
