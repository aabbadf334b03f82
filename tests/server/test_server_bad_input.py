"""Bad messages of every kind get an error code and a reason, and change nothing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from srvkit import Harness, Phone, seat_table, wait_legal

from feltro.server.protocol import MAX_MESSAGE_BYTES, ErrorCode, ProtocolError, parse_client_message


def _table_snapshot(h: Harness, table_id: str) -> tuple[Any, ...]:
    game = h.game(table_id)
    series = game.store.series if game.store else None
    return (dict(game.seats), game.paused, game.lobby.host_hash, game.lobby.host_seat,
            series.hand_number if series else None,
            series.hand.events if series and series.hand else None,
            len(game.journal.table_records(table_id)))


def _error(phone: Phone, ref: str | None = None) -> dict[str, Any]:
    frame = phone.until(lambda f: f["type"] == "error")
    if ref is not None:
        assert frame.get("ref") == ref
    assert frame["reason"]
    return frame


@pytest.mark.parametrize(("raw", "code"), [
    ("not json", ErrorCode.BAD_JSON),
    ("[1, 2]", ErrorCode.BAD_JSON),
    ('"hello"', ErrorCode.BAD_JSON),
    ("{}", ErrorCode.UNKNOWN_TYPE),
    ('{"type": "hack"}', ErrorCode.UNKNOWN_TYPE),
    ('{"type": 5}', ErrorCode.UNKNOWN_TYPE),
    ('{"type": "hello"}', ErrorCode.INVALID),
    ('{"type": "hello", "protocol": "1", "role": "spectator"}', ErrorCode.INVALID),
    ('{"type": "hello", "protocol": 1, "role": "spectator", "extra": 1}', ErrorCode.INVALID),
    ('{"type": "hello", "protocol": 1, "role": "king"}', ErrorCode.INVALID),
    ('{"type": "hello", "protocol": 1, "role": "spectator", "token": "0123456789abcdef"}',
     ErrorCode.INVALID),
    ('{"type": "hello", "protocol": 1, "role": "player"}', ErrorCode.INVALID),
    ('{"type": "act", "id": "a", "hand": 1, "turn": 0, "action": "raise"}', ErrorCode.INVALID),
    ('{"type": "act", "id": "a", "hand": 1, "turn": 0, "action": "fold", "to": 5}',
     ErrorCode.INVALID),
    ('{"type": "act", "id": "a", "hand": 1, "turn": 0, "action": "raise", "to": -5}',
     ErrorCode.INVALID),
    ('{"type": "act", "id": "a", "hand": 1, "turn": 0, "action": "raise", "to": 1e12}',
     ErrorCode.INVALID),
    ('{"type": "act", "id": "a", "hand": 1, "turn": 0, "action": "raise", "to": 99999999999}',
     ErrorCode.INVALID),
    ('{"type": "act", "id": "a", "hand": 1, "turn": 0, "action": "raise", "to": 2.5}',
     ErrorCode.INVALID),
    ('{"type": "act", "id": "a", "hand": 1, "turn": 0, "action": "raise", "to": true}',
     ErrorCode.INVALID),
    ('{"type": "act", "hand": 1, "turn": 0, "action": "fold"}', ErrorCode.INVALID),
    ('{"type": "act", "id": "a", "hand": 1, "turn": 0, "action": "allin"}', ErrorCode.INVALID),
    ('{"type": "act", "id": "a b", "hand": 1, "turn": 0, "action": "fold"}', ErrorCode.INVALID),
    ('{"type": "join", "name": ""}', ErrorCode.INVALID),
    ('{"type": "join", "name": "' + "x" * 25 + '"}', ErrorCode.INVALID),
    ('{"type": "join", "name": "a\\u0000b"}', ErrorCode.INVALID),
    ('{"type": "join", "name": "Ana", "seat": 11}', ErrorCode.INVALID),
    ('{"type": "accept", "request_id": "x", "seat": 0}', ErrorCode.INVALID),
    ('{"type": "add_bot", "kind": "Evil Bot"}', ErrorCode.INVALID),
    ('{"type": "set_lang", "lang": "fr"}', ErrorCode.INVALID),
    ('{"type": "ping", "t": -1}', ErrorCode.INVALID),
    ("{" * 10 + "}" * 10, ErrorCode.BAD_JSON),
])
def test_parser_refuses(raw: str, code: ErrorCode) -> None:
    with pytest.raises(ProtocolError) as caught:
        parse_client_message(raw)
    assert caught.value.code is code
    assert caught.value.reason


def test_parser_refuses_huge_payload_unparsed() -> None:
    huge = json.dumps({"type": "join", "name": "A" * 10, "pad": "x" * MAX_MESSAGE_BYTES})
    with pytest.raises(ProtocolError) as caught:
        parse_client_message(huge)
    assert caught.value.code is ErrorCode.TOO_LARGE


def test_bad_frames_over_the_wire_change_nothing(harness: Harness) -> None:
    created, host, players = seat_table(harness, ["Ana", "Bruno"])
    table_id = created["table_id"]
    host.until(lambda f: f["type"] == "state" and f["table"]["hand"] is not None)
    before = _table_snapshot(harness, table_id)
    ana = players[1]
    for raw, code in [("nonsense", "bad_json"), ('{"type":"warp"}', "unknown_type"),
                      ('{"type":"act","id":"z","hand":1,"turn":0,"action":"raise","to":0}',
                       "invalid"),
                      ("x" * (MAX_MESSAGE_BYTES + 1), "too_large"),
                      (json.dumps({"type": "join", "name": "Z", "pad": "y" * 100_000}),
                       "too_large")]:
        ana.send_raw(raw)
        assert _error(ana)["code"] == code
    ana.send_raw(b"\xff\xfe binary junk")
    assert _error(ana)["code"] == "bad_json"
    assert _table_snapshot(harness, table_id) == before


def test_hello_first_and_only_once(harness: Harness) -> None:
    created = harness.create_table()
    phone = harness.phone(created["table_id"])
    phone.send(type="join", name="Eve", id="j")
    assert _error(phone, "j")["code"] == "hello_first"
    phone.send(type="hello", protocol=2, role="spectator", id="h2")
    assert _error(phone, "h2")["code"] == "unsupported_protocol"
    phone.hello()
    phone.send(type="hello", protocol=1, role="spectator", id="again")
    assert _error(phone, "again")["code"] == "already_identified"


def test_wrong_tokens(harness: Harness) -> None:
    created, _host, players = seat_table(harness, ["Ana", "Bruno"], start=False)
    table_id = created["table_id"]
    seat_token = players[1].token
    assert seat_token is not None
    cases = [("player", "A" * 32), ("host", "B" * 32), ("host", seat_token),
             ("player", created["host_token"])]
    for role, token in cases:
        phone = harness.phone(table_id)
        phone.send(type="hello", protocol=1, role=role, token=token, id="h")
        assert _error(phone, "h")["code"] == "bad_token"
        assert phone.state is None  # nothing was shown
    other = harness.create_table()
    phone = harness.phone(other["table_id"])  # a token of another table is nobody here
    phone.send(type="hello", protocol=1, role="player", token=seat_token, id="h")
    assert _error(phone, "h")["code"] == "bad_token"


def test_unknown_table_is_refused(harness: Harness) -> None:
    phone = harness.phone("no-such-table")
    assert phone.recv()["code"] == "bad_token"
    with pytest.raises(ConnectionError):
        phone.recv()


def test_player_commands_from_the_wrong_people(harness: Harness) -> None:
    created, host, players = seat_table(harness, ["Ana", "Bruno", "Carla"])
    table_id = created["table_id"]
    host.until(lambda f: f["type"] == "state" and f["table"]["hand"] is not None)
    spectator = harness.phone(table_id)
    spectator.hello()
    before = _table_snapshot(harness, table_id)
    spectator.send(type="act", id="s1", hand=1, turn=0, action="fold")
    assert _error(spectator, "s1")["code"] == "not_seated"
    spectator.send(type="start", id="s2")
    assert _error(spectator, "s2")["code"] == "not_host"
    for kind in ("pause", "resume", "end"):
        players[1].send(type=kind, id=kind)
        assert _error(players[1], kind)["code"] == "not_host"
    players[1].send(type="remove_player", seat=2, id="rp")
    assert _error(players[1], "rp")["code"] == "not_host"
    players[2].send(type="join", name="Again", id="jj")
    assert _error(players[2], "jj")["code"] == "too_many_requests"
    assert _table_snapshot(harness, table_id) == before


def test_out_of_turn_wrong_seat_stale_and_absurd_actions(harness: Harness) -> None:
    created, host, players = seat_table(harness, ["Ana", "Bruno", "Carla"])
    table_id = created["table_id"]
    state = host.until(lambda f: f["type"] == "state" and f["table"]["hand"] is not None
                       and f["table"]["hand"]["to_act"] is not None)
    hand = state["table"]["hand"]
    actor = hand["to_act"]
    other = next(seat for seat in players if seat != actor)
    legal = wait_legal(players[actor], hand["number"], hand["turn"])
    before = _table_snapshot(harness, table_id)
    base = {"type": "act", "hand": legal["hand"], "turn": legal["turn"]}

    players[other].send(**base, id="o1", action="call")
    error = _error(players[other], "o1")
    assert (error["code"], error["rule"]) == ("not_your_turn", "B2")
    assert error["refusal"] == {"rule": "B2", "reason": "not-your-turn",
                                "params": {"seat": other, "to_act_seat": actor}}
    players[actor].send(**base, id="w1", action="call", seat=other)
    assert _error(players[actor], "w1")["code"] == "wrong_seat"
    players[actor].send(type="act", hand=legal["hand"], turn=legal["turn"] + 7, id="st1",
                        action="call")
    assert _error(players[actor], "st1")["code"] == "stale"
    players[actor].send(type="act", hand=legal["hand"] + 1, turn=legal["turn"], id="st2",
                        action="call")
    assert _error(players[actor], "st2")["code"] == "stale"
    players[actor].send(**base, id="big", action="raise", to=10_000)
    error = _error(players[actor], "big")
    assert (error["code"], error["rule"]) == ("illegal_amount", "B6")
    assert "at most" in error["reason"]
    players[actor].send(**base, id="small", action="raise", to=legal["raise"]["min"] - 1)
    assert _error(players[actor], "small")["code"] == "illegal_amount"
    if not legal["check"]:
        players[actor].send(**base, id="chk", action="check")
        error = _error(players[actor], "chk")
        assert (error["code"], error["rule"]) == ("illegal_check", "B3")
    assert _table_snapshot(harness, table_id) == before

    # The real action, then the same id again: applied once.
    players[actor].send(**base, id="real", action="call")
    assert players[actor].reply("real") == {"type": "ack", "ref": "real", "duplicate": False}
    after = _table_snapshot(harness, table_id)
    players[actor].send(**base, id="real", action="call")
    assert players[actor].reply("real") == {"type": "ack", "ref": "real", "duplicate": True}
    assert _table_snapshot(harness, table_id)[:6] == after[:6]
    # A new id for the finished turn is stale (or out of turn): never applied twice.
    players[actor].send(**base, id="again", action="call")
    assert _error(players[actor], "again")["code"] in ("stale", "not_your_turn")


def test_closed_raise_gives_the_rule(harness: Harness) -> None:
    _created, host, players = seat_table(harness, ["Ana", "Bruno"], stack=3)
    state = host.until(lambda f: f["type"] == "state" and f["table"]["hand"] is not None
                       and f["table"]["hand"]["to_act"] is not None)
    hand = state["table"]["hand"]
    actor = players[hand["to_act"]]
    legal = wait_legal(actor, hand["number"], hand["turn"])
    if legal["raise"] is None:  # the short stack can only call
        actor.send(type="act", id="r", hand=legal["hand"], turn=legal["turn"], action="raise",
                   to=50)
        error = _error(actor, "r")
        assert error["code"] == "raise_closed"
        assert error["rule"] in ("B7", "B8")
        assert error["refusal"] == legal["refusal_details"]["raise"]  # the same data
        # Seats, never hand positions.
        assert not {"position", "to_act"} & set(error["refusal"]["params"])
    else:
        actor.send(type="act", id="r", hand=legal["hand"], turn=legal["turn"], action="raise",
                   to=legal["raise"]["max"] + 1)
        assert _error(actor, "r")["code"] == "illegal_amount"


def test_host_commands_out_of_phase(harness: Harness) -> None:
    created, host, _players = seat_table(harness, ["Ana"], start=False)
    for message, code in [({"type": "start"}, "not_now"),  # one player only
                          ({"type": "pause"}, "not_now"),
                          ({"type": "mark_away", "seat": 1}, "not_now"),
                          ({"type": "accept", "request_id": "nobody"}, "no_such_request"),
                          ({"type": "refuse", "request_id": "nobody"}, "no_such_request"),
                          ({"type": "remove_bot", "seat": 1}, "wrong_seat"),
                          ({"type": "remove_player", "seat": 2}, "wrong_seat"),
                          ({"type": "add_bot", "kind": "nosuchbot"}, "bad_bot"),
                          ({"type": "add_bot", "kind": "station", "seat": 1}, "seat_taken"),
                          ({"type": "add_bot", "kind": "station", "seat": 9}, "wrong_seat"),
                          ({"type": "pass_host", "seat": 2}, "wrong_seat")]:
        host.send(**message, id="x")
        assert _error(host, "x")["code"] == code, message
    host.send(type="add_bot", kind="station", id="b")
    assert host.reply("b")["type"] == "ack"
    host.send(type="start", id="s")
    assert host.reply("s")["type"] == "ack"
    for message, code in [({"type": "start"}, "not_now"),
                          ({"type": "add_bot", "kind": "station"}, "not_now"),
                          ({"type": "pass_host", "seat": 2}, "wrong_seat"),
                          ({"type": "mark_away", "seat": 2}, "wrong_seat")]:
        host.send(**message, id="y")
        assert _error(host, "y")["code"] == code, message
    late = harness.phone(created["table_id"])
    late.hello()
    late.send(type="join", name="Late", id="late")
    assert _error(late, "late")["code"] == "not_now"


def test_full_table_and_taken_seat(harness: Harness) -> None:
    created, _host, _players = seat_table(harness, ["Ana", "Bruno"], start=False)
    phone = harness.phone(created["table_id"])
    phone.hello()
    phone.send(type="join", name="Carla", seat=1, id="j1")
    assert _error(phone, "j1")["code"] == "seat_taken"
    phone.send(type="join", name="Carla", id="j2")
    assert _error(phone, "j2")["code"] == "table_full"


def test_rate_limit_per_connection(limited: Harness) -> None:
    harness = limited
    created = harness.create_table()
    phone = harness.phone(created["table_id"])
    phone.hello()
    for i in range(60):  # the fake clock stands still: no refill
        phone.send(type="ping", t=i)
    frames = phone.drain(0.2)
    limited = [f for f in frames if f["type"] == "error" and f["code"] == "rate_limited"]
    pongs = [f for f in frames if f["type"] == "pong"]
    assert len(pongs) + len(limited) == 60
    assert len(limited) >= 60 - 40
    harness.clock.advance(5)
    phone.send(type="ping", t=1)
    assert phone.until_type("pong")["t"] == 1


def test_a_flooding_connection_is_closed(limited: Harness) -> None:
    harness = limited
    created = harness.create_table()
    phone = harness.phone(created["table_id"])
    phone.hello()
    for _ in range(300):
        phone.send(type="ping")
    bye = phone.until_type("bye")
    assert bye["reason"] == "flooding"


@pytest.mark.parametrize(("origin", "allowed"), [
    (None, True),
    ("http://testserver", True),
    ("http://evil.example", False),
    ("null", False),
    ("http://testserver:8080", False),
])
def test_origin_is_checked(harness: Harness, origin: str | None, allowed: bool) -> None:
    table_id = harness.create_table()["table_id"]
    headers = {"origin": origin} if origin else {}
    if allowed:
        phone = harness.phone(table_id, **headers)
        assert phone.hello()["type"] == "welcome"
    else:
        from starlette.websockets import WebSocketDisconnect

        with pytest.raises(WebSocketDisconnect):
            harness.phone(table_id, **headers)


def test_connections_per_table_are_limited(tmp_path: Path) -> None:
    from srvkit import harness_at

    with harness_at(tmp_path, max_connections_per_table=3) as h:
        table_id = h.create_table()["table_id"]
        for _ in range(3):
            assert h.phone(table_id).hello()["type"] == "welcome"
        extra = h.phone(table_id)  # spectators are counted when they say hello; from one
        assert extra.hello()["type"] == "welcome"  # address the oldest makes room
        room = h.manager.rooms[table_id]
        assert sum(1 for c in room.connections if c.hello and not c.closing) == 3
        h.clock.advance(11)
        stranger = h.phone(table_id)  # a connection that never says hello is closed
        h.clock.advance(11)
        with pytest.raises(ConnectionError):
            stranger.until(lambda f: False)


def test_a_refused_visitor_may_ask_again(harness: Harness) -> None:
    created, host = harness.host_table()
    eve, first = harness.ask_seat(created["table_id"], "Eve", "j1")
    eve.send(type="join", name="Eve", id="j2")
    assert _error(eve, "j2")["code"] == "too_many_requests"  # one request at a time
    host.send(type="refuse", request_id=first["request_id"], id="no")
    assert eve.until(lambda f: f["type"] == "seat_request")["status"] == "refused"
    eve.send(type="join", name="Eve", id="j3")
    again = eve.until(lambda f: f["type"] == "seat_request" and f.get("ref") == "j3")
    assert again["status"] == "pending"
    assert again["request_id"] != first["request_id"]
