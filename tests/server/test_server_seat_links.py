"""The host reissues a seat's link (issue 23, item 6): the new link plays the seat, the old
one stops working at once and for good (also after a restart), only the host may ask, and
only for a seated player."""

from __future__ import annotations

from pathlib import Path

from srvkit import Harness, Phone, drive, harness_at, passive, seat_table


def test_reissued_link_works_and_the_old_one_does_not(harness: Harness) -> None:
    created, host, players = seat_table(harness, ["Ana", "Bruno"], action_seconds=None)
    table_id = created["table_id"]
    old = players[2].token
    host.send(type="reissue_seat", seat=2, id="re")
    link = host.until_type("seat_link")
    assert (link["ref"], link["seat"]) == ("re", 2)
    new = link["token"]
    assert isinstance(new, str)
    assert new != old
    assert len(new) >= 20
    # The phone holding the old link is told its seat moved on; the old link opens nothing.
    assert players[2].until_type("bye")["code"] == "revoked"
    stale = harness.phone(table_id)
    assert stale.hello("player", old)["code"] == "bad_token"
    # The new link plays seat 2, cards and all.
    fresh = harness.phone(table_id)
    assert fresh.hello("player", new)["type"] == "welcome"
    state = [f for f in fresh.frames if f["type"] == "state"][-1]
    assert state["you"]["hole"]
    assert state["you"]["seat"] == 2
    # Nobody else got the token.
    for phone in (players[1], fresh):
        assert all(new not in str(frame) for frame in phone.frames)


def test_only_the_host_reissues_and_only_a_players_seat(harness: Harness) -> None:
    _created, host, players = seat_table(harness, ["Ana"], bots=("station",))
    players[1].send(type="reissue_seat", seat=1, id="mine")
    assert players[1].reply("mine")["code"] == "not_host"
    host.send(type="reissue_seat", seat=2, id="bot")
    assert host.reply("bot")["code"] == "wrong_seat"
    host.send(type="reissue_seat", seat=5, id="none")
    assert host.reply("none")["type"] == "error"


def test_reissued_link_survives_a_restart(tmp_path: Path) -> None:
    with harness_at(tmp_path) as harness:
        created, host, players = seat_table(harness, ["Ana", "Bruno"], action_seconds=None)
        old = players[1].token
        host.send(type="reissue_seat", seat=1, id="re")
        new = host.until_type("seat_link")["token"]
    with harness_at(tmp_path) as again:
        table_id = created["table_id"]
        assert again.phone(table_id).hello("player", old)["code"] == "bad_token"
        assert again.phone(table_id).hello("player", new)["type"] == "welcome"


def _in_a_hand(host: Phone) -> None:
    host.until(lambda f: f["type"] == "state" and f["table"]["hand"] is not None
               and not f["table"]["hand"]["over"])


def test_remove_can_be_undone_until_the_next_hand(harness: Harness) -> None:
    created, host, players = seat_table(harness, ["Ana", "Bruno", "Carla"])
    table_id = created["table_id"]
    token = players[3].token
    _in_a_hand(host)
    host.send(type="remove_player", seat=3, id="rm")
    assert host.reply("rm")["type"] == "ack"
    assert players[3].until_type("bye")["code"] == "revoked"
    seat = host.until(lambda f: f["type"] == "state"
                      and f["table"]["seats"][2]["removed"])["table"]["seats"][2]
    assert seat["restorable"] is True
    host.send(type="restore_seat", seat=3, id="undo")
    assert host.reply("undo")["type"] == "ack"
    back = host.until(lambda f: f["type"] == "state" and not f["table"]["seats"][2]["removed"])
    assert back["table"]["seats"][2]["away"] is False
    # The player's own link works again.
    assert harness.phone(table_id).hello("player", token)["type"] == "welcome"


def test_remove_stays_once_another_hand_is_dealt(harness: Harness) -> None:
    _created, host, players = seat_table(harness, ["Ana", "Bruno", "Carla"])
    _in_a_hand(host)
    host.send(type="remove_player", seat=3, id="rm")
    assert host.reply("rm")["type"] == "ack"
    first = host.until(lambda f: f["type"] == "state" and f["table"]["seats"][2]["removed"])
    number = first["table"]["hand"]["number"]
    drive(host, {1: players[1], 2: players[2]}, passive,
          lambda f: (f["table"]["hand"] or {}).get("number", 0) > number)
    later = [f for f in host.frames if f["type"] == "state"][-1]
    assert later["table"]["seats"][2]["restorable"] is False
    host.send(type="restore_seat", seat=3, id="undo")
    assert host.reply("undo")["code"] == "not_now"
    host.send(type="restore_seat", seat=1, id="not-removed")
    assert host.reply("not-removed")["code"] == "wrong_seat"
