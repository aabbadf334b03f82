"""The legal block carries what the phone labels its buttons with, so that the phone works out no
rule: a call that puts the player all in (B7), a raise that is the street's first bet (B6), and
the quick sizes inside the legal range (the terminal game's sizes)."""

from __future__ import annotations

from typing import Any

from srvkit import Harness, Phone, seat_table, wait_legal

from feltro.remote.words import quick_sizes


def _turn(host: Phone, players: dict[int, Phone]) -> tuple[Phone, dict[str, Any]]:
    state = host.until(lambda f: f["type"] == "state" and f["table"]["hand"] is not None
                       and f["table"]["hand"]["to_act"] is not None)
    hand = state["table"]["hand"]
    phone = players[hand["to_act"]]
    return phone, wait_legal(phone, hand["number"], hand["turn"])


def _act(phone: Phone, legal: dict[str, Any], action: str, **more: Any) -> None:
    ref = f"a{legal['hand']}-{legal['turn']}"
    phone.send(type="act", id=ref, hand=legal["hand"], turn=legal["turn"], action=action,
               **more)
    assert phone.reply(ref)["type"] == "ack"


def test_a_short_stack_calls_all_in_and_raises_all_in_only__B7(harness: Harness) -> None:
    _created, host, players = seat_table(harness, ["Ana", "Bruno"], stack=3)
    phone, legal = _turn(host, players)  # the button's small blind: 1 posted, 2 behind
    assert (legal["call"], legal["call_all_in"], legal["bet"]) == (1, False, False)
    assert legal["raise"] == {"min": 3, "max": 3}
    assert legal["sizes"] == {"all_in": 3}
    _act(phone, legal, "raise", to=3)
    phone, legal = _turn(host, players)  # the big blind: 2 posted, 1 behind, owes 1
    assert (legal["call"], legal["call_all_in"], legal["raise"], legal["sizes"]) == (
        1, True, None, None)


def test_a_first_bet_and_the_quick_sizes__B6(harness: Harness) -> None:
    _created, host, players = seat_table(harness, ["Ana", "Bruno"])
    phone, legal = _turn(host, players)
    assert legal["bet"] is False  # preflop the big blind is the bet to raise
    assert phone.state is not None
    assert legal["sizes"] == dict(quick_sizes(phone.state))  # the remote client's own sums
    _act(phone, legal, "call")
    phone, legal = _turn(host, players)
    _act(phone, legal, "check")
    phone, legal = _turn(host, players)  # the flop: nothing bet yet
    assert (legal["check"], legal["bet"], legal["call_all_in"]) == (True, True, False)
    assert legal["sizes"] == {"min": 2, "half_pot": 2, "pot": 4, "all_in": 198}
    assert phone.state is not None
    assert legal["sizes"] == dict(quick_sizes(phone.state))
