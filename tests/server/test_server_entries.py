"""Re-entries (G8) and late seats (G9) at the web table: the host approves, the rules judge
(refusals as data), the player waits for the big blind (D8), and phones and the TV are told.

The server's clock is a FakeClock: a hand is dealt only when the test moves it on."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from srvkit import Frame, Harness, Phone, harness_at, seat_table

from feltro.server.clock import FakeClock
from feltro.server.turn_clock import SHOWDOWN_EXTRA_MAX

SLOW: dict[str, Any] = {"between_hands_seconds": 30, "bot_seconds": 0}
PAST_THE_PAUSE = 30 + SHOWDOWN_EXTRA_MAX + 1
"""Seconds past the longest pause between hands (a showdown adds up to SHOWDOWN_EXTRA_MAX)."""


def _next_hand_over(h: Harness, clock: FakeClock, host: Phone, after: int) -> Frame:
    """Deal the next hand (the clock moves past the pause) and wait for it to end."""
    clock.advance(PAST_THE_PAUSE)
    return host.until(lambda f: f["type"] == "state" and f["table"]["hand"] is not None
                      and f["table"]["hand"]["number"] > after and f["table"]["hand"]["over"])


def _dealt_after(number: int, frame: Frame) -> bool:
    hand = frame["table"]["hand"] if frame["type"] == "state" else None
    return hand is not None and bool(hand["number"] > number)


def _error(host: Phone, ref: str) -> dict[str, Any]:
    reply = host.reply(ref)
    assert reply["type"] == "error", reply
    return reply


def test_the_host_approves_a_reentry_and_the_rules_judge_it_G8_D8(tmp_path: Path) -> None:
    clock = FakeClock()
    with harness_at(tmp_path / "data", clock=clock) as h:
        created, host, _ = seat_table(h, [], bots=("station",) * 5, stack=10, reentries=1,
                                      reentry_minutes=120, **SLOW)
        series = h.game(created["table_id"]).store.series
        number, out = 0, list[int]()
        while not out:
            state = _next_hand_over(h, clock, host, number)
            number = state["table"]["hand"]["number"]
            out = [r["seat"] for r in state["table"]["standings"] if r["out_in_hand"]]
        assert state["table"]["status"] != "over"
        seat = out[0]
        host.send(type="reenter", seat=seat, id="re")
        assert host.reply("re")["type"] == "ack"
        after = host.until(lambda f: f["type"] == "state"
                           and str(seat) in (f["table"]["entries"] or {}).get("waiting", {}))
        entries = after["table"]["entries"]
        assert entries["open"] is True
        assert entries["reentries"] == {str(seat): 1}
        assert entries["waiting"][str(seat)]["hand"] == series.joins_in(seat)
        line = next(r for r in after["table"]["standings"] if r["seat"] == seat)
        assert (line["stack"], line["out_in_hand"], line["reentries"]) == (10, None, 1)
        host.send(type="reenter", seat=seat, id="again")  # has chips now
        assert _error(host, "again")["refusal"]["rule"] == "G8"
        while seat in series.waiting and not series.is_over:
            state = _next_hand_over(h, clock, host, number)
            number = state["table"]["hand"]["number"]
        joined = entries["waiting"][str(seat)]["hand"]
        dealt = next(s for s in series.summaries if seat in s.seating.order
                     and s.number >= joined)
        if len(dealt.seating.order) > 2:
            assert dealt.seating.big_blind == seat  # dealt in as the big blind (D8)


def test_a_late_player_asks_the_host_accepts_and_joins_at_the_big_blind_G9(
        tmp_path: Path) -> None:
    clock = FakeClock()
    with harness_at(tmp_path / "data", clock=clock) as h:
        created, host, _ = seat_table(h, [], bots=("station",) * 3, seats=5, stack=200,
                                      reentries=1, reentry_minutes=120, late_seats=True, **SLOW)
        table_id = created["table_id"]
        state = _next_hand_over(h, clock, host, 0)
        late, request = h.ask_seat(table_id, "Zé")
        assert request["status"] == "pending"
        host.send(type="accept", request_id=request["request_id"], id="acc")
        assert host.reply("acc")["type"] == "ack"
        seated = late.until(lambda f: f["type"] == "seat_request" and f["status"] == "accepted")
        seat = seated["seat"]
        series = h.game(table_id).store.series
        assert series.players[seat] == "Zé"
        assert series.stacks[seat] == 200
        joins = series.joins_in(seat)
        after = host.until(lambda f: f["type"] == "state"
                           and str(seat) in (f["table"]["entries"] or {}).get("waiting", {}))
        assert after["table"]["entries"]["waiting"][str(seat)]["hand"] == joins
        number = state["table"]["hand"]["number"]
        while seat in series.waiting:
            clock.advance(PAST_THE_PAUSE)
            dealt = host.until(functools.partial(_dealt_after, number))
            number = dealt["table"]["hand"]["number"]
            if seat in series.waiting:
                host.until(lambda f: f["type"] == "state" and f["table"]["hand"]["over"])
        assert series.seating is not None
        assert number == joins  # nobody busted meanwhile at 200 chips
        assert series.seating.big_blind == seat  # posts the big blind first (D8)
        mine = next(s for s in dealt["table"]["seats"] if s["seat"] == seat)
        assert mine["name"] == "Zé"
        assert mine["big_blind"] is True


def test_a_freezeout_refuses_reentries_and_late_players_G4(tmp_path: Path) -> None:
    clock = FakeClock()
    with harness_at(tmp_path / "data", clock=clock) as h:
        created, host, _ = seat_table(h, [], bots=("station",) * 3, seats=5, **SLOW)
        _next_hand_over(h, clock, host, 0)
        host.send(type="reenter", seat=1, id="re")
        refusal = _error(host, "re")["refusal"]
        assert (refusal["rule"], refusal["reason"]) == ("G8", "not-offered")
        late = h.phone(created["table_id"])
        late.hello()
        late.send(type="join", name="Zé", id="join")
        assert _error(late, "join")["code"] == "not_now"
        for body in ({"late_seats": True}, {"reentries": 1},
                     {"reentries": 1, "reentry_level": 2}):  # no end; no levels
            response = h.client.post("/api/tables", json=body)
            assert response.status_code in (400, 422), (body, response.text)


def test_a_late_seat_survives_a_restart_and_a_crash_between_its_two_logs_G9(
        tmp_path: Path) -> None:
    from feltro.server.journal import Journal

    data = tmp_path / "data"
    clock = FakeClock()
    with harness_at(data, clock=clock) as h:
        created, host, _ = seat_table(h, [], bots=("station",) * 3, seats=6, stack=200,
                                      reentries=1, reentry_minutes=120, late_seats=True,
                                      **SLOW)
        table_id = created["table_id"]
        _next_hand_over(h, clock, host, 0)
        for name in ("Zé", "Lia"):
            h.ask_seat(table_id, name)
        requests = {r.name: r for r in h.game(table_id).lobby.pending_requests()}
        host.send(type="accept", request_id=requests["Zé"].request_id, seat=4, id="acc")
        assert host.reply("acc")["type"] == "ack"
        waiting = h.game(table_id).store.series.waiting
    assert waiting == (4,)
    # The crash came after the lobby granted Lia seat 5, before the series logged it.
    journal = Journal(data)
    journal.append(table_id, "granted", {"request_id": requests["Lia"].request_id, "seat": 5},
                   "2026-01-01T20:00:30+00:00")
    journal.close()
    with harness_at(data, clock=FakeClock()) as h:
        game = h.game(table_id)
        series = game.store.series
        assert (series.players[4], series.players[5]) == ("Zé", "Lia")
        assert series.waiting == (4, 5)
        assert set(game.seated.players) == set(series.players)
