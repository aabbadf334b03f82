"""A voluntary show over the protocol (P8, D11): the winner of a hand everybody else folded
may show it before the next deal; the cards then reach every view, the PHH and survive a
restart. Refused otherwise, naming the rule, with nothing changed."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from srvkit import Frame, Harness, Phone, cards_in, drive, harness_at, passive, seat_table


def _won_by_folds(frame: Frame) -> bool:
    hand = frame["table"]["hand"]
    return hand is not None and hand["number"] == 1 and hand["over"]


def _fold_first_hand(h: Harness) -> tuple[dict[str, Any], Phone, dict[int, Phone], Phone]:
    """Two players; the first to act folds hand 1 (the next deal waits 60 s): the table, the
    host, the players and a watcher."""
    created, host, players = seat_table(h, ["Ana", "Bruno"], between_hands_seconds=60)
    watcher = h.phone(created["table_id"])
    watcher.hello()
    h.clock.advance(1)  # the first deal is due at once
    drive(host, players, passive, _won_by_folds)
    for phone in [host, watcher, *players.values()]:
        phone.drain(0.1)
    return created, host, players, watcher


def _winner_and_loser(players: dict[int, Phone]) -> tuple[int, int]:
    may = {seat: bool(phone.state and phone.state["you"].get("may_show"))
           for seat, phone in players.items()}
    assert sorted(may.values()) == [False, True]
    winner = next(seat for seat, yes in may.items() if yes)
    return winner, next(seat for seat in may if seat != winner)


def test_the_winner_shows_and_every_view_and_the_phh_get_it_P8(harness: Harness) -> None:
    created, host, players, watcher = _fold_first_hand(harness)
    winner, loser = _winner_and_loser(players)
    hole = players[winner].state["you"]["hole"]  # type: ignore[index]
    assert not set(hole) & cards_in(watcher.state)  # hidden until shown
    players[winner].send(type="show", id="s1")
    assert players[winner].reply("s1")["type"] == "ack"
    for phone in (host, watcher, players[loser]):
        frame = phone.until(lambda f: f["type"] == "state"
                            and set(hole) <= cards_in(f["table"]["hand"]))
        assert any(e["kind"] == "show" and e["seat"] == winner
                   for e in frame["table"]["hand"]["log"])
    assert players[winner].until(lambda f: f["type"] == "state")["you"].get("may_show") in (
        None, False)
    record = harness.game(created["table_id"]).store.export_phh(1, visible_to=())
    assert record.actions[-1].endswith("sm " + "".join(hole))


def test_a_show_not_allowed_is_refused_and_changes_nothing_P8_D11(harness: Harness) -> None:
    created, _host, players, watcher = _fold_first_hand(harness)
    winner, loser = _winner_and_loser(players)
    before = cards_in(watcher.state)
    players[loser].send(type="show", id="folded")
    refused = players[loser].reply("folded")
    assert refused["type"] == "error"
    assert refused["refusal"]["rule"] == "P2"
    watcher.send(type="show", id="w")
    assert watcher.reply("w")["code"] == "not_seated"
    players[winner].send(type="show", id="s1")
    assert players[winner].reply("s1")["type"] == "ack"
    players[winner].send(type="show", id="s2")
    assert players[winner].reply("s2")["refusal"]["reason"] == "already-shown"
    hand = harness.game(created["table_id"]).store.series.hand
    assert len(hand.shown) == 1
    loser_hole = set(players[loser].state["you"]["hole"])  # type: ignore[index]
    assert not loser_hole & (cards_in(watcher.drain(0.1)) | before)


def test_the_show_survives_a_restart_P8(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with harness_at(data) as h:
        created, _host, players, _watcher = _fold_first_hand(h)
        winner, _ = _winner_and_loser(players)
        hole = players[winner].state["you"]["hole"]  # type: ignore[index]
        players[winner].send(type="show", id="s1")
        assert players[winner].reply("s1")["type"] == "ack"
    with harness_at(data) as h:
        watcher = h.phone(created["table_id"])
        watcher.hello()
        frame = watcher.current(lambda f: f["type"] == "state")
        assert set(hole) <= cards_in(frame["table"]["hand"])


def _call_down(legal: dict[str, Any]) -> dict[str, Any]:
    return {"type": "act", "id": f"c{legal['hand']}-{legal['turn']}", "hand": legal["hand"],
            "turn": legal["turn"], "action": "check" if legal["check"] else "call"}


def _over_after(number: int, frame: Frame) -> bool:
    hand = frame["table"]["hand"]
    return hand is not None and hand["over"] and hand["number"] > number


def test_a_mucked_hand_cannot_be_shown_and_never_leaves_the_server_D11_P8(
        harness: Harness) -> None:
    # Three players call every hand down; at the first showdown where a hand that cannot win
    # is mucked, its owner asks to show: refused (B5), and its cards are in no frame anyone
    # else got for that hand, nor in the public PHH.
    created, host, players = seat_table(harness, ["Ana", "Bruno", "Carla"],
                                        between_hands_seconds=60)
    watcher = harness.phone(created["table_id"])
    watcher.hello()
    mucked: list[int] = []

    def muck_seen(frame: Frame) -> bool:
        hand = frame["table"]["hand"]
        if hand is None or not hand["over"]:
            return False
        mucked[:] = [e["seat"] for e in hand["log"] if e["kind"] == "muck"]
        return bool(mucked)

    played = 0
    for _ in range(30):
        harness.clock.advance(200)  # past the showdown pause
        final = drive(host, players, _call_down, functools.partial(_over_after, played))
        played = final["table"]["hand"]["number"]
        if muck_seen(final) or final["table"]["status"] == "over":
            break
    assert mucked, f"no hand was mucked in {played} showdowns"
    number, seat = final["table"]["hand"]["number"], mucked[0]
    for phone in [watcher, *players.values()]:
        phone.drain(0.1)
    own = players[seat].state
    assert own is not None
    hole = set(own["you"]["hole"])
    players[seat].send(type="show", id="m")
    refused = players[seat].reply("m")
    assert (refused["refusal"]["rule"], refused["refusal"]["reason"]) == ("B5", "hand-over")
    for phone in [watcher, host, *(p for s, p in players.items() if s != seat)]:
        phone.drain(0.1)
        of_hand = [f for f in phone.frames if f.get("type") == "state"
                   and (f["table"]["hand"] or {}).get("number") == number]
        assert of_hand
        assert not hole & cards_in(of_hand)
    record = harness.game(created["table_id"]).store.export_phh(number, visible_to=())
    written = " ".join(record.actions)
    assert "sm" in written  # the hands shown are there
    assert not any(card in written for card in hole)
