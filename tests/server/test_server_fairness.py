"""The verifiable shuffle at a server table: commit before the deal, players' contributions,
per-position commitments, reveal timing, the series export and the PHH downloads."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from srvkit import Frame, Harness, Phone, drive, passive, seat_table

from feltro.cli.verify import verify_file
from feltro.fairness import (
    card_id,
    card_matches,
    commitment,
    deck_order,
    deck_seed,
    read_export,
    verify_hands,
)


def _state(phone: Phone, predicate: Any) -> Frame:
    return phone.current(lambda f: f["type"] == "state" and predicate(f))


def _contribute(phone: Phone, hand: int, ref: str, **fields: Any) -> Frame:
    phone.send(type="contribute", hand=hand, id=ref, **fields)
    return phone.reply(ref)


def _dealt(frame: Frame, number: int) -> bool:
    hand = frame["table"]["hand"]
    return hand is not None and hand["number"] == number


def test_the_commitment_is_public_before_the_hand_is_dealt(harness: Harness) -> None:
    created, host, players = seat_table(harness, ["Ana", "Bruno"], between_hands_seconds=30)
    # The start publishes hand 1's commitment; the first deal waits a second for the phones.
    started = _state(host, lambda f: f["table"].get("fair") is not None)
    assert started["table"]["hand"] is None
    first = started["table"]["fair"]["next"]
    assert first["hand"] == 1
    for seat, phone in players.items():
        assert _contribute(phone, 1, f"c{seat}", value="5a" * 32)["type"] == "ack"
    harness.clock.advance(1)
    during = _state(host, lambda f: _dealt(f, 1))
    fair = during["table"]["fair"]
    assert fair["hand"]["commitment"] == first["commitment"]
    assert fair["hand"]["contributions"] == {"1": "5a" * 32, "2": "5a" * 32}
    assert len(fair["hand"]["positions"]) == 52  # the deal's commitments, before any action
    assert fair["next"]["hand"] == 2  # the next hand's commitment is out during this one
    promised = fair["next"]["commitment"]
    drive(host, players, passive, lambda f: _dealt(f, 1) and f["table"]["hand"]["over"])
    between = host.state
    assert between is not None
    assert between["table"]["fair"]["next"] == {"hand": 2, "commitment": promised,
                                                "contributed": []}
    assert "secret" not in between["table"]["fair"]["hand"]  # revealed at the series' end
    harness.clock.advance(31)
    dealt = _state(host, lambda f: _dealt(f, 2))["table"]["fair"]
    assert dealt["hand"]["commitment"] == promised
    game = harness.game(created["table_id"])
    for number, published in ((1, first["commitment"]), (2, promised)):
        secret = game.fairplay.dealer.proof(number, reveal=True).secret
        assert commitment(secret).hex() == published


def test_contributions_change_the_deck_and_are_published_at_the_deal(
        harness: Harness) -> None:
    created, host, players = seat_table(harness, ["Ana", "Bruno"], bots=("station",))
    _state(host, lambda f: _dealt(f, 1))
    for seat, phone in players.items():
        assert _contribute(phone, 2, f"c{seat}", value=f"{seat:02x}" * 16)["type"] == "ack"
    game = harness.game(created["table_id"])
    assert game.fairplay.contributed(2) == [1, 2]
    drive(host, players, passive, lambda f: _dealt(f, 2))
    fair = _state(host, lambda f: _dealt(f, 2))["table"]["fair"]["hand"]
    assert fair["contributions"] == {"1": "01" * 16, "2": "02" * 16}
    proof = game.fairplay.dealer.proof(2, reveal=True)
    table = created["table_id"]
    with_them = deck_order(deck_seed(proof.secret, table, 2, proof.contributions))
    without = deck_order(deck_seed(proof.secret, table, 2, {}))
    assert proof.deck == with_them
    assert with_them != without
    hand = game.store.series.hand
    assert [int(c) for c in hand.view(0).hole] != []  # the engine dealt from that deck


def test_bad_contributions_are_refused_and_change_nothing(harness: Harness) -> None:
    created, host, players = seat_table(harness, ["Ana", "Bruno"])
    _state(host, lambda f: _dealt(f, 1))
    ana = players[1]
    late = _contribute(ana, 1, "late", value="ab")
    assert late["code"] == "not_now"
    assert "already dealt" in late["reason"]
    early = _contribute(ana, 3, "early", value="ab")
    assert early["code"] == "not_now"
    assert "contribute to hand 2" in early["reason"]
    huge = _contribute(ana, 2, "huge", value="ab" * 65)
    assert huge["code"] == "invalid"
    assert "value" in huge["reason"]
    odd = _contribute(ana, 2, "odd", value="abc")
    assert odd["code"] == "invalid"
    both = _contribute(ana, 2, "both", value="ab", seal="00" * 32)
    assert both["code"] == "invalid"
    spectator = harness.phone(created["table_id"])
    spectator.hello()
    assert _contribute(spectator, 2, "spy", value="ab")["code"] == "not_seated"
    game = harness.game(created["table_id"])
    assert game.fairplay.contributed(2) == []
    assert _contribute(ana, 2, "once", value="ab")["type"] == "ack"
    again = _contribute(ana, 2, "twice", value="cd")
    assert again["code"] == "invalid"
    assert "already contributed" in again["reason"]
    assert game.fairplay._values[2] == {1: b"\xab"}


def test_a_sealed_contribution_must_match_its_seal(harness: Harness) -> None:
    from feltro.fairness import contribution_commitment

    created, host, players = seat_table(harness, ["Ana", "Bruno"])
    _state(host, lambda f: _dealt(f, 1))
    table = created["table_id"]
    seal = contribution_commitment(table, 2, 1, b"\x01\x02").hex()
    assert _contribute(players[1], 2, "s", seal=seal)["type"] == "ack"
    assert _contribute(players[1], 2, "v", value="0303")["code"] == "invalid"
    unsealed = _contribute(players[2], 2, "u", value="0404")
    assert unsealed["code"] == "invalid"
    assert "sealed contributions only" in unsealed["reason"]
    assert _contribute(players[1], 2, "v2", value="0102")["type"] == "ack"
    closed = _contribute(players[2], 2, "late-seal", seal="00" * 32)
    assert closed["code"] == "not_now"
    drive(host, players, passive, lambda f: _dealt(f, 2))
    proof = harness.game(table).fairplay.dealer.proof(2)
    assert dict(proof.contributions) == {1: b"\x01\x02"}
    assert dict(proof.sealed) == {1: bytes.fromhex(seal)}


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
    name, proofs, claimed = read_export(export)
    verdict = verify_hands(name, proofs, claimed)
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
