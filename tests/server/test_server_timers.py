"""Timers and absence: the action timer, the time bank, timeouts, away seats, disconnect grace.

The server's clock is a FakeClock: time moves only when a test advances it.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from srvkit import Frame, Harness, Phone, drive, passive, seat_table, wait_legal

TIMED = {"action_seconds": 10, "bank_seconds": 5, "bank_refill_seconds": 2,
         "bank_max_seconds": 8, "disconnect_grace_seconds": 20}


def _turn(host: Phone) -> Frame:
    """The host's next state where a hand waits for somebody."""
    return host.until(lambda f: f["type"] == "state" and f["table"]["hand"] is not None
                      and not f["table"]["hand"]["over"]
                      and f["table"]["hand"]["to_act"] is not None)


def _last_action(frame: Frame, seat: int) -> dict[str, Any] | None:
    entries = [e for e in frame["table"]["hand"]["log"]
               if e["kind"] == "action" and e["seat"] == seat]
    return entries[-1] if entries else None


def test_timer_is_in_the_state(harness: Harness) -> None:
    _created, host, _players = seat_table(harness, ["Ana", "Bruno"], **TIMED)
    state = _turn(host)
    timer = state["table"]["timer"]
    hand = state["table"]["hand"]
    assert (timer["seat"], timer["hand"], timer["turn"]) == (hand["to_act"], hand["number"],
                                                              hand["turn"])
    assert timer["action_ends_at"] - timer["started_at"] == 10_000
    assert timer["ends_at"] - timer["action_ends_at"] == 5_000  # the bank
    assert timer["bank_ms"] == 5_000
    assert timer["grace"] is False


def test_timeout_checks_if_free_else_folds_and_is_named_a_timeout(harness: Harness) -> None:
    created, host, players = seat_table(harness, ["Ana", "Bruno", "Carla"], **TIMED)
    state = _turn(host)
    hand = state["table"]["hand"]
    seat = hand["to_act"]
    legal = wait_legal(players[seat], hand["number"], hand["turn"])
    harness.clock.advance(14.9)
    host.drain(0.1)  # the ticker runs meanwhile: nothing is due yet
    assert harness.game(created["table_id"]).turn_key == (hand["number"], hand["turn"])
    harness.clock.advance(0.2)
    after = host.until(lambda f: f["type"] == "state" and f["table"]["hand"] is not None
                       and (f["table"]["hand"]["turn"] > hand["turn"]
                            or f["table"]["hand"]["number"] > hand["number"]))
    if after["table"]["hand"]["number"] == hand["number"]:
        done = _last_action(after, seat)
        assert done is not None
        assert done["action"] == ("check" if legal["check"] else "fold")
        # Named as a timeout on every screen (issue 23): the log entry and the seat say so.
        assert done["timeout"] is True
        last = next(s for s in after["table"]["seats"] if s["seat"] == seat)["last_action"]
        assert last["timeout"] is True
    mine = players[seat].until(lambda f: f["type"] == "state" and f["you"]["timeouts"] == 1)
    assert mine["you"]["bank_ms"] in (0, 2_000)  # spent; refilled by 2 s if a hand began


def test_time_bank_is_spent_then_refilled_each_hand(harness: Harness) -> None:
    _created, host, players = seat_table(harness, ["Ana", "Bruno"], **TIMED)
    state = _turn(host)
    hand = state["table"]["hand"]
    seat = hand["to_act"]
    legal = wait_legal(players[seat], hand["number"], hand["turn"])
    harness.clock.advance(12)  # 2 s into the bank
    players[seat].send(type="act", id="slow", hand=legal["hand"], turn=legal["turn"],
                       action="fold")
    assert players[seat].reply("slow")["type"] == "ack"
    mine = players[seat].until(lambda f: f["type"] == "state"
                               and f["table"]["hand"]["number"] == hand["number"] + 1)
    assert mine["you"]["bank_ms"] == 3_000 + 2_000  # 5 - 2, then +2 for the new hand
    assert mine["you"]["timeouts"] == 0


def test_three_timeouts_make_a_seat_away_and_it_still_posts_blinds(harness: Harness) -> None:
    _created, host, players = seat_table(harness, ["Ana", "Bruno"], **TIMED)
    sleeper = 1
    timeouts = 0
    state = _turn(host)
    for _ in range(200):
        hand = state["table"]["hand"]
        if hand["to_act"] == sleeper:
            harness.clock.advance(40)  # well past action time, bank and any grace
            timeouts += 1
        else:
            awake = players[hand["to_act"]]
            legal = wait_legal(awake, hand["number"], hand["turn"])
            awake.send(type="act", id=f"b{legal['hand']}-{legal['turn']}", hand=legal["hand"],
                       turn=legal["turn"], action="check" if legal["check"] else "call")
        if state["table"]["seats"][sleeper - 1]["away"]:
            break
        key = (hand["number"], hand["turn"])
        state = host.until(lambda f, key=key: f["type"] == "state" and (
            f["table"]["seats"][sleeper - 1]["away"]
            or (f["table"]["hand"] is not None and not f["table"]["hand"]["over"]
                and f["table"]["hand"]["to_act"] is not None
                and (f["table"]["hand"]["number"], f["table"]["hand"]["turn"]) != key)))
    assert timeouts == 3
    assert state["table"]["seats"][sleeper - 1]["away"] is True
    # Away: it plays check/fold at once and still posts its blinds in later hands.
    blinds_seen = set()
    for _ in range(6):
        hand_state = _turn(host)
        hand = hand_state["table"]["hand"]
        blinds_seen |= {e["seat"] for e in hand["log"] if e["kind"] == "blind"}
        if hand["to_act"] == sleeper:
            continue  # the server plays it (bot_seconds = 0)
        awake = players[hand["to_act"]]
        legal = wait_legal(awake, hand["number"], hand["turn"])
        awake.send(type="act", id=f"c{legal['hand']}-{legal['turn']}", hand=legal["hand"],
                   turn=legal["turn"], action="raise" if legal["raise"] else "call",
                   **({"to": legal["raise"]["min"]} if legal["raise"] else {}))
    assert sleeper in blinds_seen
    players[sleeper].send(type="back", id="back")
    assert players[sleeper].reply("back")["type"] == "ack"
    back = host.until(lambda f: f["type"] == "state"
                      and not f["table"]["seats"][sleeper - 1]["away"])
    assert back["table"]["seats"][sleeper - 1]["away"] is False


def test_disconnected_player_gets_extra_time(harness: Harness) -> None:
    created, host, players = seat_table(harness, ["Ana", "Bruno", "Carla"], **TIMED)
    state = _turn(host)
    hand = state["table"]["hand"]
    seat = hand["to_act"]
    players[seat].close()
    gone = host.until(lambda f: f["type"] == "state"
                      and not f["table"]["seats"][seat - 1]["connected"])
    assert gone["table"]["timer"]["grace"] is True
    assert gone["table"]["timer"]["ends_at"] - gone["table"]["timer"]["action_ends_at"] == \
        5_000 + 20_000
    harness.clock.advance(16)  # past action time + bank, within the grace
    host.drain(0.15)
    game = harness.game(created["table_id"])
    assert game.turn_key == (hand["number"], hand["turn"])
    harness.clock.advance(20)
    host.until(lambda f: f["type"] == "state" and f["table"]["hand"] is not None
               and (f["table"]["hand"]["number"], f["table"]["hand"]["turn"])
               != (hand["number"], hand["turn"]))


def test_untimed_table_waits_forever(harness: Harness) -> None:
    _created, host, _players = seat_table(harness, ["Ana", "Bruno"], action_seconds=None)
    state = _turn(host)
    assert state["table"]["timer"] is None
    harness.clock.advance(3600)
    assert not [f for f in host.drain(0.15) if f["type"] == "state"
                and f["table"]["hand"]["turn"] != state["table"]["hand"]["turn"]]


def test_stop_time_countdown_last_hand_and_co_winners(harness: Harness) -> None:
    stop_at = harness.clock.wall().replace(microsecond=0)
    _created, host, _players = seat_table(
        harness, ["Ana", "Bruno"], stop_at=(stop_at.isoformat()[:19] + "+00:00"),
        action_seconds=None)
    # The stop time is now: no hand starts at or after it (G6), so the series ends at once
    # with both players equal: co-winners.
    over = host.until(lambda f: f["type"] == "state" and f["table"]["status"] == "over")
    outcome = over["table"]["outcome"]
    assert outcome["end"] == "stopped"
    assert sorted(outcome["winners"]) == [1, 2]
    assert over["table"]["stop"]["remaining_s"] == 0


def test_stop_time_reached_mid_hand_makes_it_the_last_hand(harness: Harness) -> None:
    wall = harness.clock.wall()
    stop = wall.replace(microsecond=0).timestamp() + 600
    _created, host, players = seat_table(
        harness, ["Ana", "Bruno"], action_seconds=None,
        stop_at=datetime.fromtimestamp(stop, UTC).isoformat())
    state = _turn(host)
    assert state["table"]["stop"]["remaining_s"] == 600
    assert state["table"]["stop"]["last_hand"] is False
    harness.clock.advance(601)
    flagged = host.until(lambda f: f["type"] == "state" and f["table"]["stop"]["last_hand"])
    assert flagged["table"]["hand"]["number"] == state["table"]["hand"]["number"]
    over = drive(host, players, passive, lambda f: f["table"]["status"] == "over")
    assert over["table"]["outcome"]["end"] == "stopped"
    assert over["table"]["outcome"]["hands"] == state["table"]["hand"]["number"]
