"""A player at the table turned hostile: Hypothesis writes frames of every message type with
wrong types, sizes, depths and orders. Each gets a clear error (or is a valid message), the
connection stays usable, no chip is lost and a refused frame changes nothing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from srvkit import Harness, Phone, harness_at, seat_table

from feltro.server.protocol import (
    CLIENT_TYPES,
    MAX_JSON_DEPTH,
    MAX_MESSAGE_BYTES,
    ErrorCode,
    ProtocolError,
    frame_bytes,
    json_depth,
    parse_client_message,
)

_FIELDS = ["type", "id", "protocol", "role", "token", "lang", "name", "hand", "turn", "action",
           "to", "request_id", "seat", "kind", "t", "reason", "x"]
_SCALARS = (st.none() | st.booleans() | st.integers(-2**70, 2**70)
            | st.floats(allow_nan=True, allow_infinity=True)
            | st.text(max_size=40) | st.sampled_from(sorted(CLIENT_TYPES)))
_VALUES = st.recursive(_SCALARS, lambda inner: st.lists(inner, max_size=3)
                       | st.dictionaries(st.text(max_size=5), inner, max_size=3), max_leaves=8)
_MESSAGES = st.dictionaries(st.sampled_from(_FIELDS), _VALUES, max_size=8).map(
    lambda d: d) | st.builds(lambda kind, rest: {"type": kind, **rest},
                             st.sampled_from(sorted(CLIENT_TYPES)),
                             st.dictionaries(st.sampled_from(_FIELDS[1:]), _VALUES, max_size=6))


def test_deep_nesting_is_refused_before_parsing() -> None:
    for raw in ("[" * 3000, '{"a":' * 800, '{"type":"ping","t":' + "[" * 100 + "1" + "]" * 100
                + "}"):
        with pytest.raises(ProtocolError) as caught:
            parse_client_message(raw)
        assert caught.value.code is ErrorCode.BAD_JSON
    assert json_depth('{"a":"[[[[[[[[[[[[[[["}') == 1  # brackets inside strings do not count
    assert json_depth("[[[]]]") == 3
    assert MAX_JSON_DEPTH >= 2


def test_the_size_limit_counts_bytes_not_characters() -> None:
    text = json.dumps({"type": "ping", "t": 1, "pad": "é" * 2100}, ensure_ascii=False)
    assert len(text) < MAX_MESSAGE_BYTES < frame_bytes(text)
    with pytest.raises(ProtocolError) as caught:
        parse_client_message(text)
    assert caught.value.code is ErrorCode.TOO_LARGE


def test_a_deeply_nested_frame_keeps_the_connection(harness: Harness) -> None:
    created = harness.create_table()
    phone = harness.phone(created["table_id"])
    phone.send_raw("[" * 4000)
    assert phone.until_type("error")["code"] == "bad_json"
    phone.send(type="ping", t=5)
    assert phone.until_type("pong")["t"] == 5


def test_rate_limited_errors_carry_the_ref(tmp_path: Path) -> None:
    with harness_at(tmp_path / "data", burst=3.0) as h:
        phone = h.phone(h.create_table()["table_id"])
        for i in range(6):
            phone.send(type="ping", t=i, id=f"p{i}")
        limited = phone.until(lambda f: f["type"] == "error" and f["code"] == "rate_limited")
        assert limited["ref"].startswith("p")


def _chips(h: Harness, table_id: str) -> int:
    """Every chip at the table: behind, in the middle, and of seats sitting this hand out."""
    series = h.game(table_id).store.series
    hand = series.hand
    if hand is None:
        return sum(series.stacks.values())
    outside = sum(series.stacks.values()) - sum(series.stacks_before.values())
    middle = 0 if hand.is_over else hand.pot
    return outside + sum(hand.stacks) + middle


@pytest.fixture(scope="module")
def live_table(tmp_path_factory: pytest.TempPathFactory) -> Any:
    with harness_at(tmp_path_factory.mktemp("hostile")) as h:
        created, host, players = seat_table(h, ["Ana", "Bruno"], bots=("station",))
        yield h, created, host, players


@settings(max_examples=200, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(message=_MESSAGES, who=st.sampled_from(["host", "player", "stranger"]))
def test_random_frames_get_an_answer_and_lose_no_chip(
        live_table: tuple[Harness, dict[str, Any], Phone, dict[int, Phone]],
        message: dict[str, Any], who: str) -> None:
    h, created, host, players = live_table
    table_id = created["table_id"]
    phone = {"host": host, "player": players[1]}.get(who)
    if phone is None:
        phone = h.phone(table_id)
    before = _chips(h, table_id)
    message.setdefault("id", "fuzz")
    message["id"] = str(message["id"])[:30] or "fuzz"
    if message.get("type") in ("end", "pass_host", "remove_player", "leave"):
        message["type"] = "ping"  # ending the series or giving the host away ends the fuzzing
    raw = json.dumps(message, allow_nan=True)
    phone.send_raw(raw)
    answer = phone.until(lambda f: f["type"] in ("ack", "error", "pong", "welcome"), timeout=5)
    if answer["type"] == "error":
        assert answer["reason"]
        assert answer["code"] in {c.value for c in ErrorCode}
    if answer["type"] == "error":
        assert _chips(h, table_id) == before
    assert _chips(h, table_id) == 3 * 200
    phone.send(type="ping", t=1)
    phone.until_type("pong")
    if who == "stranger":
        phone.close()


def test_an_action_id_reused_on_a_later_turn_is_refused_not_swallowed(harness: Harness) -> None:
    from srvkit import wait_legal

    _created, host, players = seat_table(harness, ["Ana", "Bruno"])
    hand = host.until(lambda f: f["type"] == "state" and f["table"]["hand"] is not None
                      and f["table"]["hand"]["to_act"] is not None)["table"]["hand"]
    first = players[hand["to_act"]]
    legal = wait_legal(first, hand["number"], hand["turn"])
    first.send(type="act", id="same", hand=legal["hand"], turn=legal["turn"],
               action="check" if legal["check"] else "call")
    assert first.reply("same")["duplicate"] is False
    # The other player answers until the first one is to act again, on a new turn.
    other = next(p for p in players.values() if p is not first)
    done = {(legal["hand"], legal["turn"])}
    while True:
        hand = host.until(lambda f: f["type"] == "state" and f["table"]["hand"] is not None
                          and f["table"]["hand"]["to_act"] is not None
                          and (f["table"]["hand"]["number"], f["table"]["hand"]["turn"])
                          not in done)["table"]["hand"]
        done.add((hand["number"], hand["turn"]))
        actor = players[hand["to_act"]]
        legal = wait_legal(actor, hand["number"], hand["turn"])
        if actor is first:
            break
        other.send(type="act", id=f"o{hand['turn']}", hand=legal["hand"], turn=legal["turn"],
                   action="check" if legal["check"] else "call")
    first.send(type="act", id="same", hand=legal["hand"], turn=legal["turn"],
               action="check" if legal["check"] else "call")
    refused = first.reply("same")
    assert refused["type"] == "error"
    assert refused["code"] == "invalid"
    assert "new id" in refused["reason"]
