"""``feltro join``'s side of the verifiable shuffle, over states shaped as ``docs/protocol.md``
describes ``table.fair`` and ``you.fair``: fresh randomness once per hand for a seated player,
and every card it sees checked against the deal's position commitments — a swapped card, a
wrong salt or a card shown without its proof is caught (and the checker is proved able to
fail)."""

from __future__ import annotations

import asyncio
import copy
from typing import Any

from test_remote_app import state_facing_a_bet

from feltro.fairness import card_text
from feltro.fairness_scheme import (
    chain_link,
    contribution_commitment,
    deal_commitment,
    deck_order,
    position_commitments,
    position_salts,
)
from feltro.fairness_scheme import fingerprint as fingerprint_of
from feltro.remote.client import RemoteSeat
from feltro.remote.fairplay import Contributor, DealChecker, bad_cards, fingerprint
from feltro.remote.link import parse_link
from feltro.remote.words import fair_alarm_line, fair_warning, header_line, problem_text

SEED = bytes(range(32))


def fair_state() -> dict[str, Any]:
    """Rui's state on the flop of hand 3, with the deal's commitments and proofs."""
    order = deck_order(SEED)
    salts = position_salts(SEED)
    positions = [p.hex() for p in position_commitments(SEED, order)]
    state = state_facing_a_bet()
    own = [{"index": i, "card": card_text(order[i]), "salt": salts[i].hex()} for i in (1, 3)]
    board = [{"index": i, "card": card_text(order[i]), "salt": salts[i].hex()} for i in (5, 6, 7)]
    state["you"]["hole"] = [item["card"] for item in own]
    state["you"]["fair"] = {"hand": 3, "cards": own}
    state["table"]["hand"]["board"] = [item["card"] for item in board]
    chain = chain_link(bytes(32), 3, bytes.fromhex("cd" * 32), {},
                       deal_commitment([bytes.fromhex(p) for p in positions]))
    state["table"]["fair"] = {
        "scheme": "feltro-fair/1", "table": "T", "reveal": "series",
        "next": {"hand": 4, "commitment": "ab" * 32, "contributed": [1]},
        "hand": {"number": 3, "commitment": "cd" * 32, "contributions": {},
                 "positions": positions, "chain": chain.hex(), "previous": "00" * 32,
                 "seats": [1, 2], "board": board},
        "fingerprint": "7K2M-QX9D", "alarms": []}
    return state


def test_every_card_seen_matches_its_commitment() -> None:
    assert bad_cards(fair_state()) == []
    assert bad_cards(state_facing_a_bet()) is None  # a server without the shuffle


def test_a_swapped_board_card_a_wrong_salt_and_an_unproved_card_are_caught() -> None:
    swapped = fair_state()
    flop = swapped["table"]["fair"]["hand"]["board"][0]
    other = "2c" if flop["card"] != "2c" else "3c"
    flop["card"] = other
    swapped["table"]["hand"]["board"][0] = other
    assert bad_cards(swapped) == [other]
    salted = fair_state()
    mine = salted["you"]["fair"]["cards"][0]
    mine["salt"] = "00" * 32
    assert bad_cards(salted) == [mine["card"]]
    unproved = fair_state()
    unproved["you"]["hole"][1] = "As" if unproved["you"]["hole"][1] != "As" else "Ks"
    assert bad_cards(unproved) == [unproved["you"]["hole"][1]]
    garbage = fair_state()
    garbage["table"]["fair"]["hand"]["positions"][5] = "not hex"
    assert bad_cards(garbage) == [garbage["table"]["hand"]["board"][0]]


def test_randomness_sealed_first_then_revealed_once_for_a_seated_player_only_D1() -> None:
    state = fair_state()
    state["table"]["fair"]["next"]["phase"] = "seal"
    device = Contributor()
    sealed = device.due(state)
    assert sealed is not None
    assert (sealed["type"], sealed["hand"]) == ("contribute", 4)
    assert "value" not in sealed  # nothing of the value leaves before the seals close
    assert device.due(state) is None  # one seal per hand
    assert Contributor().due(state)["seal"] != sealed["seal"]  # type: ignore[index]
    reveal = copy.deepcopy(state)
    reveal["table"]["fair"]["next"].update(phase="reveal", sealed={"2": sealed["seal"]})
    value = device.due(reveal)
    assert value is not None
    assert contribution_commitment("T", 4, 2, bytes.fromhex(value["value"])).hex() == \
        sealed["seal"]
    assert device.due(reveal) is None  # revealed once
    # A table that publishes another seal for this seat gets no value, and it is noted.
    other = Contributor()
    other.due(state)
    changed = copy.deepcopy(reveal)
    changed["table"]["fair"]["next"]["sealed"] = {"2": "00" * 32}
    assert other.due(changed) is None
    assert other.seal_changed == {4}
    away = copy.deepcopy(state)
    away["you"]["away"] = True
    assert Contributor().due(away) is None
    assert Contributor().due(state_facing_a_bet()) is None
    assert Contributor().due(reveal) is None  # no seal of its own: nothing to reveal


def test_the_client_contributes_and_warns_in_the_players_language() -> None:
    sent: list[dict[str, Any]] = []

    async def scenario() -> RemoteSeat:
        seat = RemoteSeat(parse_link("http://127.0.0.1:9/join/T"), "Rui", "pt-PT")

        async def fake_send(message: dict[str, Any]) -> None:
            sent.append(message)

        seat._send = fake_send  # type: ignore[method-assign]
        seat._ws = object()  # type: ignore[assignment]
        state = fair_state()
        seat._receive(state)
        seat._receive(copy.deepcopy(state))  # the same hand again: no second contribution
        tampered = fair_state()
        tampered["version"] = 8
        tampered["table"]["fair"]["hand"]["board"][2]["salt"] = "11" * 32
        seat._receive(tampered)
        await asyncio.sleep(0)
        return seat

    seat = asyncio.run(scenario())
    assert [m["type"] for m in sent] == ["contribute", "fair_alarm"]  # told to everyone
    assert (sent[1]["hand"], sent[1]["check"]) == (3, "card")
    bad = tampered_card = fair_state()["table"]["hand"]["board"][2]
    assert seat.bad_cards == {3: [tampered_card]}
    warning = fair_warning(seat.bad_cards, "pt-PT")
    assert warning is not None
    assert warning.plain.startswith(f"Mão 3: {bad} não correspondem")
    assert fingerprint(fair_state()) == "7K2M-QX9D"
    assert "Impressão digital 7K2M-QX9D" in header_line(fair_state(), "pt-BR").plain


def test_a_refused_seal_or_value_is_shown_with_its_reason_D1() -> None:
    seat = RemoteSeat(parse_link("http://127.0.0.1:9/join/T"), "Rui", "pt-PT")
    seat._receive({"type": "error", "ref": "fair-seal-4", "code": "not_now",
                   "reason": "hand 4: the seals are closed; this device joins the next hand",
                   "refusal": {"rule": "D1", "reason": "seals-closed", "params": {"hand": 4}}})
    assert seat.problem is not None
    words = problem_text(seat.problem, "pt-PT").plain
    assert words.startswith("Os selos da mão 4 fecharam")
    assert "(D1)" in words


def test_the_terminal_checks_each_deal_itself_D4_D5() -> None:
    """Positions the dealing rule gives, the chain link computed here, its own value used:
    each check passes on a fair deal and fails on the forgery it is for."""
    checker = DealChecker()
    assert checker.check(fair_state()) == set()
    assert checker.fingerprint() == fingerprint_of(bytes.fromhex(
        fair_state()["table"]["fair"]["hand"]["chain"]))
    off = fair_state()  # the server says seat 2 sits first: its cards are not at 0 and 2
    off["table"]["fair"]["hand"]["seats"] = [2, 1]
    assert DealChecker().check(off) == {"position"}
    relinked = fair_state()
    relinked["table"]["fair"]["hand"]["chain"] = "ef" * 32
    assert DealChecker().check(relinked) == {"chain"}
    device = Contributor()
    sealing = fair_state()
    sealing["table"]["fair"]["next"].update(hand=3, phase="seal")
    seal = device.due(sealing)
    assert seal is not None
    revealing = copy.deepcopy(sealing)
    revealing["table"]["fair"]["next"].update(phase="reveal", sealed={"2": seal["seal"]})
    assert device.due(revealing) is not None
    dropped = fair_state()  # the deal shows neither this device's seal nor its value
    assert DealChecker().check(dropped, device) == {"seal", "contribution"}
    alarm = fair_alarm_line({"table": {"fair": {"alarms": [
        {"hand": 3, "seat": 2, "check": "position"}]}}}, "en")
    assert alarm is not None
    assert "Hand 3: seat 2's device found a card dealt from a deck position" in alarm.plain
