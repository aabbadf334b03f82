"""A server stopped and started again on the same data folder: every table continues exactly.

These run in-process (fast); ``test_server_kill9.py`` does the same with ``kill -9`` on a real
server process. The crash windows between the two logs are reproduced by writing the journal
by hand, as a crash would have left it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from srvkit import Frame, Harness, Phone, drive, harness_at, seat_table

from feltro.server.clock import FakeClock
from feltro.server.journal import Journal


def _snapshot(phone: Phone) -> dict[str, Any]:
    """What must not change across a restart, as this phone sees it."""
    assert phone.state is not None
    table, you = phone.state["table"], phone.state["you"]
    hand = table["hand"]
    return {
        "hand": hand and {k: hand[k] for k in ("number", "street", "board", "pots",
                                               "pot_total", "current_bet", "to_act", "turn",
                                               "button", "small_blind", "big_blind", "log")},
        "seats": [{k: s.get(k) for k in ("seat", "name", "stack", "bet", "folded", "away",
                                         "removed", "bot")} for s in table["seats"]],
        "you": {k: you[k] for k in ("seat", "hole", "hand_name", "legal", "away", "timeouts",
                                    "bank_ms")},
        "status": table["status"], "paused": table["paused"],
        "standings": table["standings"],
    }


def _play_some(host: Phone, players: dict[int, Phone], decisions: int) -> Frame:
    """Make *decisions* human decisions (check or call), then return the host's latest state."""
    made: list[dict[str, Any]] = []

    def call(legal: dict[str, Any]) -> dict[str, Any]:
        made.append(legal)
        return {"type": "act", "id": f"d{legal['hand']}-{legal['turn']}", "hand": legal["hand"],
                "turn": legal["turn"], "action": "check" if legal["check"] else "call"}

    drive(host, players, call, lambda f: len(made) >= decisions)
    host.drain(0.1)
    for phone in players.values():
        phone.drain(0.05)
    assert host.state is not None
    return host.state


def _reconnect(h: Harness, table_id: str, tokens: dict[int, str], host_token: str,
               ) -> tuple[Phone, dict[int, Phone]]:
    host = h.phone(table_id)
    host.hello("host", host_token)
    players = {}
    for seat, token in tokens.items():
        phone = h.phone(table_id)
        assert phone.hello("player", token)["seat"] == seat
        players[seat] = phone
    for phone in [host, *players.values()]:
        phone.drain(0.1)
    return host, players


def test_restart_mid_hand_continues_exactly(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with harness_at(data) as h:
        created, host, players = seat_table(h, ["Ana", "Bruno", "Carla"], bots=("station",),
                                            action_seconds=30, bank_seconds=10)
        _play_some(host, players, 3)
        for phone in players.values():
            phone.drain(0.1)
        before = {seat: _snapshot(phone) for seat, phone in players.items()}
        assert all(b["hand"] is not None and b["hand"]["to_act"] is not None
                   for b in before.values())  # in the middle of a hand
        assert sum(b["you"]["legal"] is not None for b in before.values()) <= 1
        tokens = {seat: phone.token for seat, phone in players.items() if phone.token}
        bank_before = {seat: s["you"]["bank_ms"] for seat, s in before.items()}
    with harness_at(data) as h:
        host, again = _reconnect(h, created["table_id"], tokens, created["host_token"])
        after = {seat: _snapshot(phone) for seat, phone in again.items()}
        for seat in before:
            assert after[seat]["hand"] == before[seat]["hand"]
            assert after[seat]["you"]["hole"] == before[seat]["you"]["hole"]
            assert after[seat]["you"]["legal"] == before[seat]["you"]["legal"]
            assert after[seat]["seats"] == before[seat]["seats"]
            assert after[seat]["you"]["bank_ms"] == bank_before[seat]
        state = host.state
        assert state is not None
        timer = state["table"]["timer"]
        if timer is not None:  # rebased: a fresh action timer from the restart
            assert timer["action_ends_at"] - timer["started_at"] == 30_000
            assert timer["grace"] is True  # nobody was connected when the turn restarted
        # And the game goes on from there.
        _play_some(host, again, 2)


def test_restart_keeps_lobby_host_away_pause_and_removed(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with harness_at(data) as h:
        created, host, players = seat_table(h, ["Ana", "Bruno", "Carla", "Dora"])
        table_id = created["table_id"]
        for message in ({"type": "mark_away", "seat": 2}, {"type": "remove_player", "seat": 3},
                        {"type": "pause"}):
            host.send(**message, id="m")
            assert host.reply("m")["type"] == "ack"
        host.send(type="pass_host", seat=1, id="ph")
        assert host.reply("ph")["type"] == "ack"
        lobby = h.create_table(name="Still in lobby")
        waiting = h.phone(lobby["table_id"])
        waiting.hello()
        waiting.send(type="join", name="Eva", id="j")
        request = waiting.until_type("seat_request")
        tokens = {seat: phone.token for seat, phone in players.items() if phone.token}
    with harness_at(data) as h:
        game = h.game(table_id)
        assert game.seats[2].away
        assert game.seats[3].removed
        assert game.paused
        assert game.lobby.host_seat == 1
        ana = h.phone(table_id)
        assert ana.hello("player", tokens[1])["host"] is True
        old_host = h.phone(table_id)
        old_host.send(type="hello", protocol=1, role="host", token=created["host_token"],
                      id="h")
        assert old_host.until_type("error")["code"] == "bad_token"
        removed = h.phone(table_id)
        removed.send(type="hello", protocol=1, role="player", token=tokens[3], id="h")
        assert removed.until_type("error")["code"] == "bad_token"
        eva = h.phone(lobby["table_id"])
        assert eva.hello("player", request["token"])["role"] == "pending"
        assert h.game(lobby["table_id"]).status == "lobby"


def _to_act(h: Harness, table_id: str) -> tuple[int, int, int]:
    game = h.game(table_id)
    series = game.store.series
    assert game.turn_key is not None
    return series.to_act, game.turn_key[0], game.turn_key[1]


def test_a_journaled_timeout_whose_fold_was_lost_is_played_on_restart(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with harness_at(data) as h:
        created, host, _players = seat_table(h, ["Ana", "Bruno", "Carla"], action_seconds=30)
        table_id = created["table_id"]
        host.until(lambda f: f["type"] == "state" and f["table"]["hand"] is not None
                   and f["table"]["hand"]["to_act"] is not None)
        seat, hand_no, turn = _to_act(h, table_id)
    journal = Journal(data)  # the crash came right after this record was committed
    journal.append(table_id, "timeout", {"seat": seat, "hand": hand_no, "turn": turn,
                                         "away": False}, "2026-01-01T20:00:30+00:00")
    journal.close()
    with harness_at(data) as h:
        game = h.game(table_id)
        assert game.seats[seat].timeouts == 1
        assert game.turn_key != (hand_no, turn)  # the check or fold was played
        actions = game.store.hand_actions(hand_no)
        assert actions[turn][0] == seat
        assert actions[turn][1] in ("f", "x")


def test_a_journaled_end_is_passed_to_the_series_on_restart(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with harness_at(data) as h:
        created, host, _players = seat_table(h, ["Ana", "Bruno"])
        table_id = created["table_id"]
        host.until(lambda f: f["type"] == "state" and f["table"]["hand"] is not None)
    journal = Journal(data)
    journal.append(table_id, "stop", {}, "2026-01-01T20:00:30+00:00")
    journal.close()
    with harness_at(data) as h:
        game = h.game(table_id)
        assert game.store.series.stop_requested
        host = h.phone(table_id)
        host.hello("host", created["host_token"])
        assert host.state is not None
        assert host.state["table"]["stop"]["last_hand"] is True


def test_a_damaged_table_is_broken_but_the_server_and_other_tables_run(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with harness_at(data) as h:
        created, host, _players = seat_table(h, ["Ana", "Bruno"])
        healthy, _host2, _players2 = seat_table(h, ["Carla", "Dora"])
        broken_id = created["table_id"]
        series_file = data / "tables" / h.game(broken_id).series_file
    series_file.write_bytes(b"this is not a database" * 100)
    with harness_at(data) as h:
        assert h.game(broken_id).status == "broken"
        phone = h.phone(broken_id)
        phone.hello()
        assert phone.state is not None
        assert phone.state["table"]["status"] == "broken"
        assert phone.state["table"]["problem"]
        host = h.phone(broken_id)
        host.hello("host", created["host_token"])
        host.send(type="pause", id="p")
        assert host.reply("p")["code"] == "broken_table"
        assert h.game(healthy["table_id"]).status == "playing"


def test_clock_is_rebased_not_replayed(tmp_path: Path) -> None:
    """Hours of downtime are nobody's fault: no timeout fires for them."""
    data = tmp_path / "data"
    clock = FakeClock()
    with harness_at(data, clock) as h:
        created, host, _players = seat_table(h, ["Ana", "Bruno"], action_seconds=10)
        table_id = created["table_id"]
        host.until(lambda f: f["type"] == "state" and f["table"]["hand"] is not None)
        before = _to_act(h, table_id)
    clock.advance(3 * 3600)
    with harness_at(data, clock) as h:
        h.phone(table_id).hello()
        assert _to_act(h, table_id) == before
