"""``kill -9`` on a real server process in the middle of a blind-level change (G7), of a
re-entry (G8) and of a late seat (G9): the table resumes exactly, at the same level, with the
same re-entries and players, and the same promise of the hand a player is dealt in at (D8).

The core's own crash tests (``tests/test_levels_crash.py``, ``tests/test_entries_crash.py``)
cut the series log at every write; these kill the whole server and check what the phones see.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from contextlib import ExitStack
from typing import Any

import httpx
import pytest
from realserver import Frame, LivePhone, ServerProcess
from remotekit import host_of, seat_phone

pytestmark = pytest.mark.skipif(not hasattr(__import__("os"), "fork"),
                                reason="POSIX signals")

LEVELS = "1/2, 2/4, 3/6, 5/10"
"""A level a hand (``level_length=1``): every deal is a level change."""


def _table_with_levels(server: ServerProcess, closing: ExitStack, **settings: Any
                       ) -> tuple[str, LivePhone, dict[int, LivePhone]]:
    """Ana, Bruno and a station bot at a table whose level changes every hand, started with
    long turns: its id, its host and the players' phones by seat."""
    created, host = host_of(server, seats=3, action_seconds=600, levels=LEVELS,
                            level_length=1, **settings)
    closing.callback(host.close)
    table_id = created["table_id"]
    players = dict(seat_phone(server, table_id, host, name) for name in ("Ana", "Bruno"))
    for phone in players.values():
        closing.callback(phone.close)
    host.send(type="add_bot", kind="station", id="bot")
    host.send(type="start", id="start")
    return table_id, host, players


def _play_until(players: dict[int, LivePhone], host: LivePhone,
                reached: Callable[[Frame], bool], rng: random.Random) -> Frame:
    """Answer the people's turns (check, else call) until a host state is *reached*."""
    def waiting(frame: Frame) -> bool:
        if frame["type"] != "state" or frame["table"]["hand"] is None:
            return False
        hand = frame["table"]["hand"]
        return reached(frame) or (not hand["over"] and hand["to_act"] in players)

    while True:
        state = host.current(waiting, timeout=30)
        if reached(state):
            return state
        hand = state["table"]["hand"]
        phone = players[hand["to_act"]]
        mine = phone.current(lambda f, h=hand: f["type"] == "state"
                             and f["you"]["legal"] is not None
                             and (f["you"]["legal"]["hand"], f["you"]["legal"]["turn"])
                             == (h["number"], h["turn"]))
        legal = mine["you"]["legal"]
        action = "check" if legal["check"] else ("call" if rng.random() < 0.9 else "fold")
        phone.send(type="act", id=f"k{legal['hand']}-{legal['turn']}", hand=legal["hand"],
                   turn=legal["turn"], action=action)
        host.until(lambda f, h=hand: f["type"] == "state" and f["table"]["hand"] is not None
                   and (f["table"]["hand"]["number"], f["table"]["hand"]["turn"])
                   != (h["number"], h["turn"]))


def _seen(frame: Frame) -> dict[str, Any]:
    """What a phone sees of the hand and the level, for the before/after comparison."""
    table, you = frame["table"], frame["you"]
    hand = table["hand"]
    return {
        "hand": {k: hand.get(k) for k in ("number", "street", "board", "pot_total", "to_act",
                                          "turn", "button", "small_blind", "big_blind", "log",
                                          "level")},
        "level": table["level"],
        "stacks": [(s["seat"], s.get("stack"), s.get("bet")) for s in table["seats"]],
        "hole": you["hole"], "legal": you["legal"],
    }


def _blinds_posted(hand: Frame) -> list[int]:
    return sorted(e["amount"] for e in hand["log"] if e["kind"] == "blind")


def _a_player_out(server: ServerProcess, closing: ExitStack
                  ) -> tuple[str, LivePhone, Frame, int]:
    """Four station bots with 4 chips and one re-entry each, playing until one is out and the
    night goes on: the table's id, its host, that state and the seat out. (A hand that leaves
    one player with every chip ends the night first: then a new table is tried.)"""
    for _ in range(6):
        created, host = host_of(server, seats=4, stack=4, reentries=1, reentry_minutes=120,
                                between_hands_seconds=1)
        closing.callback(host.close)
        for _ in range(4):
            host.send(type="add_bot", kind="station", id="bot")
        host.send(type="start", id="start")
        state = host.until(lambda f: f["type"] == "state" and (
            f["table"]["status"] == "over"
            or any(r["out_in_hand"] for r in f["table"]["standings"])), timeout=60)
        if state["table"]["status"] == "playing":
            seat = next(r["seat"] for r in state["table"]["standings"] if r["out_in_hand"])
            return created["table_id"], host, state, seat
    raise AssertionError("every night ended at its first elimination")


def _restart(server: ServerProcess) -> None:
    server.kill9()
    time.sleep(0.3)
    server.start()


def test_kill9_just_after_a_level_change_resumes_at_that_level_G7(
        live: ServerProcess, closing: ExitStack) -> None:
    _, host, players = _table_with_levels(live, closing)
    rng = random.Random(7)
    # Hand 2 was just dealt at level 2 (the level changed at its deal); a person is to act.
    state = _play_until(players, host, lambda f: f["table"]["hand"]["number"] == 2
                        and not f["table"]["hand"]["over"]
                        and f["table"]["hand"]["to_act"] in players, rng)
    assert state["table"]["hand"]["level"] == {
        "level": 2, "blinds": {"small_blind": 2, "big_blind": 4, "ante": 0}}
    for phone in [host, *players.values()]:
        phone.drain(0.3)
    before = {seat: _seen(phone.state) for seat, phone in players.items()
              if phone.state is not None}
    assert len(before) == 2
    assert before[1]["level"]["level"] == 2
    assert _blinds_posted(state["table"]["hand"]) in ([2, 4], [4])  # heads-up or not

    _restart(live)

    for seat, phone in players.items():
        phone.until(lambda f: f["type"] == "welcome", timeout=30)
        phone.until(lambda f: f["type"] == "state")
        phone.drain(0.3)
        assert phone.state is not None
        assert _seen(phone.state) == before[seat], f"seat {seat} differs"
    # The game goes on, and the next deal is the next level.
    later = _play_until(players, host, lambda f: f["table"]["hand"]["number"] == 3, rng)
    hand = later["table"]["hand"]
    assert hand["level"] == {"level": 3, "blinds": {"small_blind": 3, "big_blind": 6,
                                                    "ante": 0}}
    assert later["table"]["level"]["level"] == 3
    assert max(_blinds_posted(hand)) == 6


def test_kill9_between_the_last_hand_of_a_level_and_the_next_deal_G7(
        live: ServerProcess, closing: ExitStack) -> None:
    """Killed while the level is due but not dealt yet: hand 2 is still dealt at level 2,
    and hand 1 keeps its chips."""
    table_id, host, players = _table_with_levels(live, closing, between_hands_seconds=4)
    rng = random.Random(8)
    over = _play_until(players, host, lambda f: f["table"]["hand"]["number"] == 1
                       and f["table"]["hand"]["over"], rng)
    assert over["table"]["level"]["hands_left"] == 0  # level 2 starts with the next hand
    with httpx.Client(trust_env=False, timeout=5) as client:
        chips = client.get(f"{live.url}/api/tables/{table_id}/chips").json()["hands"]
    assert [h["hand"] for h in chips] == [1]

    _restart(live)

    host.until(lambda f: f["type"] == "welcome", timeout=30)
    dealt = host.until(lambda f: f["type"] == "state" and f["table"]["hand"] is not None
                       and f["table"]["hand"]["number"] == 2, timeout=30)
    hand = dealt["table"]["hand"]
    assert hand["level"] == {"level": 2, "blinds": {"small_blind": 2, "big_blind": 4,
                                                    "ante": 0}}
    assert dealt["table"]["level"]["level"] == 2
    assert max(_blinds_posted(hand)) == 4
    with httpx.Client(trust_env=False, timeout=5) as client:
        again = client.get(f"{live.url}/api/tables/{table_id}/chips").json()["hands"]
    assert again[0] == chips[0]


def test_kill9_right_after_a_reentry_keeps_it_and_its_big_blind_G8_D8(
        live: ServerProcess, closing: ExitStack) -> None:
    """Four station bots with 4 chips: the first player out re-enters (the host approves),
    the server is killed before the re-entered player is dealt in; after the restart the
    re-entry is there once, with the same stack and the same hand to be dealt in at, and the
    chips add up to the starting stacks plus exactly one re-entry."""
    table_id, host, out_state, seat = _a_player_out(live, closing)
    host.send(type="reenter", seat=seat, id="re")
    assert host.until(lambda f: f.get("ref") == "re")["type"] == "ack"
    after = host.until(lambda f: f["type"] == "state"
                       and str(seat) in ((f["table"]["entries"] or {}).get("waiting") or {}))
    promised = after["table"]["entries"]["waiting"][str(seat)]["hand"]
    line = next(r for r in after["table"]["standings"] if r["seat"] == seat)
    assert (line["stack"], line["reentries"]) == (4, 1)

    _restart(live)

    host.until(lambda f: f["type"] == "welcome", timeout=30)
    resumed = host.until(lambda f: f["type"] == "state")
    entries = resumed["table"]["entries"]
    assert entries["reentries"] == {str(seat): 1}  # once: not lost, not doubled
    waiting = entries["waiting"].get(str(seat))
    if waiting is not None:  # not dealt in yet: the same promise (D8)
        assert waiting["hand"] == promised
    # The player is dealt in at the promised hand, and the chips add up (G8: exactly one
    # starting stack more).
    host.current(lambda f: f["type"] == "state" and (  # the newest state may be the last
        f["table"]["status"] == "over" or f["table"]["hands_played"] >= promised), timeout=60)
    with httpx.Client(trust_env=False, timeout=5) as client:
        hands = client.post(f"{live.url}/api/tables/{table_id}/hands", json={}).json()["hands"]
        chips = client.get(f"{live.url}/api/tables/{table_id}/chips").json()["hands"]
    busted_in = out_state["table"]["hand"]["number"]
    dealt_in = [h["number"] for h in hands if seat in {s["seat"] for s in h["seats"]}
                and h["number"] > busted_in]
    if hands[-1]["number"] >= promised:  # else the night ended before (two busted at once)
        assert dealt_in[:1] == [promised]
    assert all(sum(h["stacks"].values()) == 16 for h in chips if h["hand"] <= busted_in)
    assert all(sum(h["stacks"].values()) == 20 for h in chips if h["hand"] >= promised)


def test_kill9_while_a_reentry_is_asked_is_all_or_nothing_G8(
        live: ServerProcess, closing: ExitStack) -> None:
    """The server is killed as the host's ``reenter`` arrives: after the restart the player has
    either re-entered in full (the count and the starting stack) or not at all."""
    table_id, host, _, seat = _a_player_out(live, closing)
    host.send(type="reenter", seat=seat, id="re")
    _restart(live)  # no wait for the answer

    host.until(lambda f: f["type"] == "welcome", timeout=30)
    resumed = host.until(lambda f: f["type"] == "state")
    line = next(r for r in resumed["table"]["standings"] if r["seat"] == seat)
    reentries = resumed["table"]["entries"]["reentries"]
    if reentries:
        assert reentries == {str(seat): 1}
        assert line["reentries"] == 1
        assert line["out_in_hand"] is None
        expected = 20
    else:
        assert (line["reentries"], line["stack"]) == (0, 0)
        assert line["out_in_hand"] is not None
        expected = 16
    with httpx.Client(trust_env=False, timeout=5) as client:
        chips = client.get(f"{live.url}/api/tables/{table_id}/chips").json()["hands"]
    table_chips = sum(r["stack"] for r in resumed["table"]["standings"])
    assert table_chips == expected, resumed["table"]["standings"]
    assert all(sum(h["stacks"].values()) in (16, 20) for h in chips)


def test_kill9_right_after_a_late_seat_keeps_the_player_and_their_big_blind_G9_D8(
        live: ServerProcess, closing: ExitStack) -> None:
    """A late player is seated (the host accepts) while three bots play; the server is killed
    before they are dealt in: after the restart their phone is theirs again, the seat and name
    are kept, and they are dealt in at the hand promised before (D8)."""
    created, host = host_of(live, seats=4, reentries=1, reentry_minutes=120, late_seats=True,
                            between_hands_seconds=1)
    closing.callback(host.close)
    table_id = created["table_id"]
    for _ in range(3):
        host.send(type="add_bot", kind="station", id="bot")
    host.send(type="start", id="start")
    host.until(lambda f: f["type"] == "state" and f["table"]["hand"] is not None)
    seat, phone = seat_phone(live, table_id, host, "Zé")
    closing.callback(phone.close)
    after = host.until(lambda f: f["type"] == "state"
                       and str(seat) in ((f["table"]["entries"] or {}).get("waiting") or {}))
    promised = after["table"]["entries"]["waiting"][str(seat)]["hand"]

    _restart(live)

    again = phone.until(lambda f: f["type"] == "welcome", timeout=30)
    assert again["seat"] == seat  # the seat token still holds
    resumed = phone.until(lambda f: f["type"] == "state")
    line = next(s for s in resumed["table"]["seats"] if s["seat"] == seat)
    assert (line["occupied"], line["name"]) == (True, "Zé")
    waiting = resumed["table"]["entries"]["waiting"].get(str(seat))
    if waiting is not None:  # not dealt in yet: the same promise (D8)
        assert waiting["hand"] == promised
    # Dealt in at the promised hand (the game then waits for them: nobody acts for them).
    dealt = phone.current(lambda f: f["type"] == "state" and f["table"]["hand"] is not None
                          and f["table"]["hand"]["number"] >= promised, timeout=60)
    assert dealt["table"]["hand"]["number"] == promised
    assert dealt["you"]["hole"], dealt["you"]
