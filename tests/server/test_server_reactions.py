"""Quick reactions (issue 23, item 8): a seated player's emoji reaches everybody at the table
at once, one every few seconds per seat, only the fixed few, and none when the table's option
turns them off."""

from __future__ import annotations

from srvkit import Harness, seat_table


def test_a_reaction_reaches_everybody_and_is_rate_limited(harness: Harness) -> None:
    created, host, players = seat_table(harness, ["Ana", "Bruno"])
    watcher = harness.phone(created["table_id"])
    watcher.hello()
    players[1].send(type="react", emoji="👍", id="r1")
    assert players[1].reply("r1")["type"] == "ack"
    for phone in (host, players[2], watcher):
        got = phone.until_type("reaction")
        assert (got["seat"], got["emoji"]) == (1, "👍")
    players[1].send(type="react", emoji="🔥", id="r2")  # the same second: too soon
    assert players[1].reply("r2")["code"] == "rate_limited"
    harness.clock.advance(3.5)
    players[1].send(type="react", emoji="🔥", id="r3")
    assert players[1].reply("r3")["type"] == "ack"
    # Only the few offered, and only from a seat.
    players[2].send(type="react", emoji="💩", id="bad")
    assert players[2].reply("bad")["code"] == "invalid"
    watcher.send(type="react", emoji="👍", id="w")
    assert watcher.reply("w")["code"] == "not_seated"


def test_reactions_off_by_a_table_option(harness: Harness) -> None:
    _created, _host, players = seat_table(harness, ["Ana", "Bruno"], reactions=False)
    players[1].send(type="react", emoji="👍", id="r1")
    assert players[1].reply("r1")["code"] == "not_now"
