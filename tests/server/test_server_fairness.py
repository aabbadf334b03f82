"""The verifiable shuffle at a server table: commit before the deal, players' contributions,
per-position commitments, reveal timing, the series export and the PHH downloads."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from srvkit import Frame, Harness, Phone, drive, passive, seat_table

from feltro.cli.verify import verify_file
from feltro.fairness import card_id, read_export, verify_hands
from feltro.fairness_scheme import (
    card_matches,
    commitment,
    contribution_commitment,
    deck_order,
    deck_seed,
)
from feltro.server.fairplay import REVEAL_WAIT


def _state(phone: Phone, predicate: Any) -> Frame:
    return phone.current(lambda f: f["type"] == "state" and predicate(f))


def _contribute(phone: Phone, hand: int, ref: str, **fields: Any) -> Frame:
    phone.send(type="contribute", hand=hand, id=ref, **fields)
    return phone.reply(ref)


def _dealt(frame: Frame, number: int) -> bool:
    hand = frame["table"]["hand"]
    return hand is not None and hand["number"] == number


def _seal(phone: Phone, table: str, hand: int, seat: int, value: bytes, ref: str) -> Frame:
    digest = contribution_commitment(table, hand, seat, value).hex()
    return _contribute(phone, hand, ref, seal=digest)


def _phase(frame: Frame) -> str | None:
    fair = frame["table"].get("fair")
    return fair["next"]["phase"] if fair and fair.get("next") else None


def test_every_device_seals_before_any_value_is_revealed_D1(harness: Harness) -> None:
    created, host, players = seat_table(harness, ["Ana", "Bruno"], between_hands_seconds=30)
    table = created["table_id"]
    # The start publishes hand 1's commitment; its seals are open until the deal is due.
    started = _state(host, lambda f: f["table"].get("fair") is not None)
    assert started["table"]["hand"] is None
    first = started["table"]["fair"]["next"]
    assert (first["hand"], first["phase"], first["sealed"]) == (1, "seal", {})
    for seat, phone in players.items():
        early = _contribute(phone, 1, f"v{seat}", value="5a" * 32)  # a value before its seal
        assert early["refusal"] == {"rule": "D1", "reason": "not-sealed", "params": {"hand": 1}}
        assert _seal(phone, table, 1, seat, bytes([seat]) * 32, f"s{seat}")["type"] == "ack"
    too_soon = _contribute(players[1], 1, "soon", value="01" * 32)
    assert too_soon["refusal"]["reason"] == "seals-open"  # nobody reveals before all seal
    harness.clock.advance(1)  # the deal is due: the seals close and the phones are told
    closed = _state(host, lambda f: _phase(f) == "reveal")
    assert closed["table"]["hand"] is None
    assert set(closed["table"]["fair"]["next"]["sealed"]) == {"1", "2"}
    late = _contribute(players[2], 1, "late-seal", seal="00" * 32)
    assert late["refusal"]["reason"] == "sealed-twice"
    for seat, phone in players.items():
        assert _contribute(phone, 1, f"r{seat}", value=f"{seat:02x}" * 32)["type"] == "ack"
    during = _state(host, lambda f: _dealt(f, 1))
    fair = during["table"]["fair"]
    assert fair["hand"]["commitment"] == first["commitment"]
    assert fair["hand"]["contributions"] == {"1": "01" * 32, "2": "02" * 32}
    assert set(fair["hand"]["sealed"]) == {"1", "2"}
    assert fair["hand"]["withheld"] == []
    assert len(fair["hand"]["positions"]) == 52  # the deal's commitments, before any action
    assert fair["next"]["hand"] == 2  # the next hand's commitment is out during this one
    assert fair["next"]["phase"] == "seal"  # and takes seals while this hand is played
    promised = fair["next"]["commitment"]
    drive(host, players, passive, lambda f: _dealt(f, 1) and f["table"]["hand"]["over"])
    between = host.state
    assert between is not None
    assert between["table"]["fair"]["next"] == {"hand": 2, "commitment": promised,
                                                "phase": "reveal", "sealed": {},
                                                "contributed": []}
    assert "secret" not in between["table"]["fair"]["hand"]  # revealed at the series' end
    harness.clock.advance(31)
    dealt = _state(host, lambda f: _dealt(f, 2))["table"]["fair"]
    assert dealt["hand"]["commitment"] == promised
    game = harness.game(table)
    for number, published in ((1, first["commitment"]), (2, promised)):
        secret = game.fairplay.dealer.proof(number, reveal=True).secret
        assert commitment(secret).hex() == published


def test_contributions_change_the_deck_and_are_published_at_the_deal_D1(
        harness: Harness) -> None:
    created, host, players = seat_table(harness, ["Ana", "Bruno"], bots=("station",))
    table = created["table_id"]
    _state(host, lambda f: _dealt(f, 1))
    for seat, phone in players.items():
        assert _seal(phone, table, 2, seat, bytes([seat]) * 16, f"s{seat}")["type"] == "ack"
    game = harness.game(table)
    drive(host, players, passive, lambda f: _dealt(f, 1) and f["table"]["hand"]["over"])
    for seat, phone in players.items():  # the deal waits for the sealed values
        assert _contribute(phone, 2, f"c{seat}", value=f"{seat:02x}" * 16)["type"] == "ack"
    assert game.fairplay.contributed(2) == [1, 2]
    fair = _state(host, lambda f: _dealt(f, 2))["table"]["fair"]["hand"]
    assert fair["contributions"] == {"1": "01" * 16, "2": "02" * 16}
    proof = game.fairplay.dealer.proof(2, reveal=True)
    with_them = deck_order(deck_seed(proof.secret, table, 2, proof.contributions))
    without = deck_order(deck_seed(proof.secret, table, 2, {}))
    assert proof.deck == with_them
    assert with_them != without
    hand = game.store.series.hand
    assert [int(c) for c in hand.view(0).hole] != []  # the engine dealt from that deck


def test_bad_contributions_are_refused_with_their_reason_and_change_nothing_D1(
        harness: Harness) -> None:
    created, host, players = seat_table(harness, ["Ana", "Bruno"], between_hands_seconds=30)
    table = created["table_id"]
    harness.clock.advance(1)
    _state(host, lambda f: _dealt(f, 1))
    ana = players[1]
    late = _contribute(ana, 1, "late", value="ab")
    assert late["code"] == "not_now"
    assert late["refusal"] == {"rule": "D1", "reason": "hand-dealt",
                               "params": {"hand": 1, "next": 2}}
    early = _contribute(ana, 3, "early", value="ab")
    assert early["code"] == "not_now"
    assert early["refusal"]["reason"] == "not-committed"
    huge = _contribute(ana, 2, "huge", value="ab" * 65)
    assert huge["code"] == "invalid"
    assert "value" in huge["reason"]
    odd = _contribute(ana, 2, "odd", value="abc")
    assert odd["code"] == "invalid"
    both = _contribute(ana, 2, "both", value="ab", seal="00" * 32)
    assert both["code"] == "invalid"
    spectator = harness.phone(table)
    spectator.hello()
    assert _contribute(spectator, 2, "spy", value="ab")["code"] == "not_seated"
    assert _contribute(ana, 2, "unsealed", value="ab")["refusal"]["reason"] == "not-sealed"
    assert _seal(ana, table, 2, 1, b"\xab", "once")["type"] == "ack"
    assert _seal(ana, table, 2, 1, b"\xcd", "twice")["refusal"]["reason"] == "sealed-twice"
    game = harness.game(table)
    assert game.fairplay.contributed(2) == []
    drive(host, players, passive, lambda f: _dealt(f, 1) and f["table"]["hand"]["over"])
    closed = _seal(players[2], table, 2, 2, b"\x01", "closed")
    assert closed["refusal"]["reason"] == "seals-closed"  # the hand's end closed them
    wrong = _contribute(ana, 2, "wrong", value="cd")
    assert wrong["refusal"]["reason"] == "not-as-sealed"
    assert _contribute(ana, 2, "right", value="ab")["type"] == "ack"
    again = _contribute(ana, 2, "again", value="ab")
    assert again["refusal"]["reason"] == "revealed-twice"
    assert game.fairplay._values[2] == {1: b"\xab"}


def test_a_sealed_seat_that_withholds_is_named_and_the_deal_goes_on_D1(
        harness: Harness) -> None:
    created, host, players = seat_table(harness, ["Ana", "Bruno"])
    table = created["table_id"]
    _state(host, lambda f: _dealt(f, 1))
    seal = contribution_commitment(table, 2, 1, b"\x01\x02")
    for seat, phone in players.items():
        _seal(phone, table, 2, seat, bytes([seat, 2]), f"s{seat}")
    drive(host, players, passive, lambda f: _dealt(f, 1) and f["table"]["hand"]["over"])
    assert _contribute(players[1], 2, "v", value="0102")["type"] == "ack"
    harness.clock.advance(0.5)
    host.drain(0.1)
    waiting = host.state
    assert waiting is not None
    assert waiting["table"]["hand"]["number"] == 1  # the deal waits for Bruno's value
    harness.clock.advance(REVEAL_WAIT + 1)  # he never reveals: the deal goes on without it
    fair = _state(host, lambda f: _dealt(f, 2))["table"]["fair"]["hand"]
    assert fair["withheld"] == [2]
    assert set(fair["sealed"]) == {"1", "2"}
    proof = harness.game(table).fairplay.dealer.proof(2)
    assert dict(proof.contributions) == {1: b"\x01\x02"}
    assert proof.sealed[1] == seal
    # His hand is dead: he could compute both decks (with and without his value), so he may
    # not play the one he liked. The server folds it at his first turn; Ana plays on.
    over = drive(host, {1: players[1]}, _calling,  # Ana calls: the action reaches him
                 lambda f: _dealt(f, 2) and f["table"]["hand"]["over"])
    his = [e for e in over["table"]["hand"]["log"]
           if e["kind"] == "action" and e["seat"] == 2]
    assert [(e["action"], e.get("withheld")) for e in his] == [("fold", True)]
    assert not [f for f in players[2].frames if f["type"] == "state" and _dealt(f, 2)
                and f["you"]["legal"] is not None]  # never asked to decide


def _calling(legal: dict[str, Any]) -> dict[str, Any]:
    return {"type": "act", "id": f"c{legal['hand']}-{legal['turn']}", "hand": legal["hand"],
            "turn": legal["turn"], "action": "check" if legal["check"] else "call"}


def _at(frame: Frame, street: str) -> bool:
    hand = frame["table"]["hand"]
    return hand is not None and (hand["street"] == street or hand["over"])


def _check_cards(frame: Frame) -> list[bool]:
    """What a phone checks: its hole cards and the board against the positions."""
    fair = frame["table"]["fair"]["hand"]
    positions = fair["positions"]
    seen = [*frame["you"]["fair"]["cards"], *fair["board"]]
    return [card_matches(bytes.fromhex(positions[c["index"]]), bytes.fromhex(c["salt"]),
                         c["index"], card_id(c["card"])) for c in seen]


def test_every_card_a_phone_sees_matches_its_position_commitment(harness: Harness) -> None:
    _created, host, players = seat_table(harness, ["Ana", "Bruno", "Carla"])
    _state(host, lambda f: _dealt(f, 1))
    # Everybody checks: the flop, turn and river come; each phone checks what it sees.
    for street in ("flop", "turn", "river"):
        drive(host, players, _calling, lambda f, s=street: _at(f, s))
        for phone in players.values():
            frame = _state(phone, lambda f, s=street: _at(f, s))
            own = [c["card"] for c in frame["you"]["fair"]["cards"]]
            assert own == frame["you"]["hole"]
            board = [c["card"] for c in frame["table"]["fair"]["hand"]["board"]]
            assert board == frame["table"]["hand"]["board"]
            assert len(board) >= 3
            assert all(_check_cards(frame))
    # The check can fail: a swapped card is caught.
    frame = players[1].state
    assert frame is not None
    tampered = json.loads(json.dumps(frame))
    cards = tampered["you"]["fair"]["cards"]
    cards[0]["card"] = "2c" if cards[0]["card"] != "2c" else "3c"
    assert not all(_check_cards(tampered))


def _play_out(harness: Harness, players: dict[int, Phone], host: Phone) -> Frame:
    return drive(host, players, passive, lambda f: f["table"]["status"] == "over",
                 timeout=10)


def test_series_reveal_the_export_verifies_and_downloads_carry_the_commitments(
        harness: Harness, tmp_path: Path) -> None:
    created, host, players = seat_table(harness, ["Ana", "Bruno"], bots=("station",),
                                        max_hands=3)
    table = created["table_id"]
    _state(host, lambda f: _dealt(f, 1))
    for seat, phone in players.items():
        assert _seal(phone, table, 2, seat, b"\xaa" * 8, f"s{seat}")["type"] == "ack"
    drive(host, players, passive, lambda f: _dealt(f, 1) and f["table"]["hand"]["over"])
    for seat, phone in players.items():
        _contribute(phone, 2, f"c{seat}", value="aa" * 8)
    drive(host, players, passive, lambda f: _dealt(f, 2))
    during = harness.client.get(f"/api/tables/{table}/fairness").json()
    assert during["format"] == "feltro-fair-export/1"
    assert [h["hand"] for h in during["hands"]] == [1, 2]
    assert all(h["secret"] is None for h in during["hands"])  # nothing revealed yet
    assert not verify_hands(*read_export(during)[:2]).ok
    final = _play_out(harness, players, host)
    fair = final["table"]["fair"]
    assert fair["next"] is None
    assert "secret" in fair["hand"]
    export = harness.client.get(f"/api/tables/{table}/fairness").json()
    # Each hand says who was dealt in (deal order), the button, who was asked (the humans),
    # who sealed, who revealed, who withheld, and which seat got each hole card.
    second = export["hands"][1]
    assert sorted(second["seats"]) == [1, 2, 3]
    assert second["button"] in second["seats"]
    assert second["asked"] == [seat for seat in second["seats"] if seat in (1, 2)]
    assert [c["seat"] for c in second["sealed"]] == [1, 2]
    assert second["withheld"] == []
    assert {d["seat"] for d in second["dealt"] if d["position"] < 6} == {1, 2, 3}
    name, proofs, claimed = read_export(export)
    verdict = verify_hands(name, proofs, claimed, export=True)
    assert verdict.ok, verdict.failure
    assert verdict.hands == 3
    assert verdict.fingerprint == fair["fingerprint"] == export["fingerprint"]
    # The secrets were never stored: not in clear in any file of the data folder.
    stored = b"".join(f.read_bytes() for f in harness.data_dir.rglob("*") if f.is_file())
    for proof in proofs:
        assert proof.secret is not None
        assert proof.secret not in stored
        assert proof.secret.hex().encode() not in stored
    path = tmp_path / "export.json"
    path.write_text(json.dumps(export))
    assert verify_file(path, "en")[0] == 0
    # A tampered export fails (the verifier can fail).
    export["hands"][1]["contributions"] = [{"seat": 1, "value": "bb" * 8}]
    path.write_text(json.dumps(export))
    status, message = verify_file(path, "en")
    assert status == 1
    assert "hand 2" in message.lower(), message
    # The players' downloads carry the commitments and verify.
    download = harness.client.post(f"/api/tables/{table}/histories",
                                   json={"token": players[1].token})
    assert download.status_code == 200
    assert "_fair" in download.text
    assert "seats = [" in download.text  # who was dealt in, in deal order
    assert "asked = [" in download.text
    phh = tmp_path / "ana.phhs"
    phh.write_text(download.text)
    assert verify_file(phh, "en")[0] == 0, verify_file(phh, "en")[1]


def test_reveal_hand_publishes_each_secret_as_its_hand_ends(harness: Harness) -> None:
    created, host, players = seat_table(harness, ["Ana", "Bruno"], reveal="hand",
                                        between_hands_seconds=30)
    table = created["table_id"]
    harness.clock.advance(1)
    playing = _state(host, lambda f: _dealt(f, 1))
    assert playing["table"]["fair"]["reveal"] == "hand"
    assert "secret" not in playing["table"]["fair"]["hand"]
    over = drive(host, players, passive,
                 lambda f: _dealt(f, 1) and f["table"]["hand"]["over"])
    fair = over["table"]["fair"]["hand"]
    assert commitment(bytes.fromhex(fair["secret"])).hex() == fair["commitment"]
    export = harness.client.get(f"/api/tables/{table}/fairness").json()
    verdict = verify_hands(*read_export(export))
    assert verdict.ok, verdict.failure
    harness.clock.advance(31)
    dealt = _state(host, lambda f: _dealt(f, 2))
    assert "secret" not in dealt["table"]["fair"]["hand"]
    during = harness.client.get(f"/api/tables/{table}/fairness").json()
    assert during["hands"][0]["secret"] is not None
    assert during["hands"][1]["secret"] is None


@pytest.mark.parametrize("reveal", ["sometimes", 3])
def test_the_reveal_option_is_checked(harness: Harness, reveal: Any) -> None:
    answer = harness.client.post("/api/tables", json={"reveal": reveal})
    assert answer.status_code == 422
    assert "reveal" in answer.text
