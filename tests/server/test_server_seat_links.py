"""The host reissues a seat's link (issue 23, item 6): the new link plays the seat, the old
one stops working at once and for good (also after a restart), only the host may ask, and
only for a seated player."""

from __future__ import annotations

from pathlib import Path

from srvkit import Harness, harness_at, seat_table


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
