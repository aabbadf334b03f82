"""The web table's pots and showdown as the engine forms them (P1, P8), over the protocol."""

from __future__ import annotations

from typing import Any

from srvkit import Frame, Harness, drive, seat_table


def _shove_or_call(legal: dict[str, Any]) -> dict[str, Any]:
    """All-in when raising is possible, else call (or check)."""
    if legal["raise"] is not None:
        choice: dict[str, Any] = {"action": "raise", "to": legal["raise"]["max"]}
    else:
        choice = {"action": "check" if legal["check"] else "call"}
    choice.update({"type": "act", "hand": legal["hand"], "turn": legal["turn"],
                   "id": f"a{legal['hand']}-{legal['turn']}"})
    return choice


def _first_hand_over(frame: Frame) -> bool:
    hand = frame["table"]["hand"]
    return hand is not None and hand["number"] == 1 and hand["over"]


def test_all_in_hands_are_shown_from_the_first_all_in_clockwise__P8(harness: Harness) -> None:
    # Three people, 30 chips each: the first to act (the button) shoves, the others call
    # all-in. Seed 004: the hands are listed from the first to go all-in, clockwise.
    _created, host, players = seat_table(harness, ["Ana", "Bruno", "Carla"], stack=30)
    final = drive(host, players, _shove_or_call, _first_hand_over)
    hand = final["table"]["hand"]
    first = next(e["seat"] for e in hand["log"] if e["kind"] == "action" and e["all_in"])
    seats = [1, 2, 3]
    start = seats.index(first)
    expected = seats[start:] + seats[:start]
    assert [show["seat"] for show in hand["showdown"]] == expected
    assert [e["seat"] for e in hand["log"] if e["kind"] in ("show", "muck")] == expected
    button = next(s["seat"] for s in final["table"]["seats"] if s.get("button"))
    assert expected[0] == button  # not the first left of the button: the rule decides
    assert sum(pot["amount"] for pot in hand["pots"]) == 90
    assert len(hand["pots"]) == 1  # equal stacks: one pot, every hand contests it


def test_a_folded_blind_adds_to_the_pot_it_falls_in__P1(harness: Harness) -> None:
    # The button raises to 4, the small blind folds its 1, the big blind calls and they check
    # down. The small blind's level makes no pot of its own: one pot of 9 for the two others.
    _created, host, players = seat_table(harness, ["Ana", "Bruno", "Carla"], stack=30)
    script = iter(["raise", "fold"])

    def choose(legal: dict[str, Any]) -> dict[str, Any]:
        action = next(script, "check" if legal["check"] else "call")
        choice: dict[str, Any] = {"action": action}
        if action == "raise":
            choice["to"] = legal["raise"]["min"]
        choice.update({"type": "act", "hand": legal["hand"], "turn": legal["turn"],
                       "id": f"a{legal['hand']}-{legal['turn']}"})
        return choice

    final = drive(host, players, choose, _first_hand_over)
    pots = final["table"]["hand"]["pots"]
    assert [(pot["amount"], len(pot["eligible"])) for pot in pots] == [(9, 2)]
