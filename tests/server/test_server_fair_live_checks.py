"""Every device checks each deal live (issue 21, RULES D4, D5): a patched server that deals a
hole card off the position the dealing rule gives, or drops a device's value, is flagged by
the devices it cheats, and the alarm reaches every player and the TV in the same hand and
stays in the night's record (``table.fair.alarms``, the export). The devices here run
``feltro join``'s own checks (:mod:`feltro.remote.fairplay`)."""

from __future__ import annotations

from typing import Any

import pytest
from patchedfair import deal_off_positions
from srvkit import Frame, Harness, Phone, passive, seat_table, wait_legal

from feltro.fairness_scheme import hole_indices
from feltro.remote.fairplay import Contributor, DealChecker, bad_cards
from feltro.server.fairplay import FairPlay


def _off_position_dealer(monkeypatch: pytest.MonkeyPatch) -> None:
    """Deals the first hole card of hand position 0 off its position from hand 2 on."""
    deal_off_positions(monkeypatch.setattr)


def _value_dropping_server(monkeypatch: pytest.MonkeyPatch) -> None:
    """Acknowledges seat 2's values and silently drops them."""
    take = FairPlay.take

    def patched(self: FairPlay, hand: int, seat: int, *, value: bytes | None,
                seal: bytes | None) -> None:
        if value is not None and seat == 2:
            return
        take(self, hand, seat, value=value, seal=seal)

    monkeypatch.setattr(FairPlay, "take", patched)


class Devices:
    """Each phone's device: it seals and reveals, checks every deal, reports what fails."""

    def __init__(self, players: dict[int, Phone]) -> None:
        self.players = players
        self.parts = {seat: (Contributor(), DealChecker(), set[tuple[int, str]]())
                      for seat in players}

    def pump(self) -> None:
        for seat, phone in self.players.items():
            phone.drain(0.01)
            state = phone.state
            if state is None:
                continue
            contributor, checker, sent = self.parts[seat]
            due = contributor.due(state)
            if due is not None:
                phone.send(**due)
            hand = state["table"]["hand"]
            for check in sorted(checker.check(state, contributor)):
                key = (int(hand["number"]), check)
                if key not in sent:
                    sent.add(key)
                    phone.send(type="fair_alarm", hand=key[0], check=check,
                               id=f"alarm-{key[0]}-{check}")


def _alarms(frame: Frame | None) -> list[dict[str, Any]]:
    fair = (frame or {}).get("table", {}).get("fair") or {}
    return list(fair.get("alarms") or [])


def _play_until_flagged(harness: Harness, check: str) -> tuple[Phone, dict[int, Phone],
                                                                 Phone]:
    created, host, players = seat_table(harness, ["Ana", "Bruno", "Carla"],
                                        between_hands_seconds=0.5)
    tv = harness.phone(created["table_id"])
    tv.hello()
    devices = Devices(players)
    acted: set[tuple[int, int]] = set()
    for _ in range(300):
        devices.pump()
        harness.clock.advance(0.1)
        state = host.state
        hand = state["table"]["hand"] if state else None
        if hand is not None and hand["number"] == 2 and any(
                a["hand"] == 2 and a["check"] == check for a in _alarms(state)):
            return host, players, tv
        if hand is None or hand["over"] or hand["to_act"] not in players or hand["number"] > 1:
            host.drain(0.01)
            continue
        key = (hand["number"], hand["turn"])
        if key not in acted:
            acted.add(key)
            phone = players[hand["to_act"]]
            phone.send(**passive(wait_legal(phone, *key)))
        host.drain(0.01)
    raise AssertionError(f"no {check} alarm in hand 2: {_alarms(host.state)}")


@pytest.mark.parametrize(("patch", "check"), [(_off_position_dealer, "position"),
                                              (_value_dropping_server, "contribution")])
def test_a_patched_servers_deal_is_flagged_on_every_screen_in_the_same_hand_D4_D5(
        harness: Harness, monkeypatch: pytest.MonkeyPatch, patch: Any, check: str) -> None:
    patch(monkeypatch)
    host, players, tv = _play_until_flagged(harness, check)
    for screen in (host, tv, *players.values()):
        screen.drain(0.05)
        state = screen.state
        assert state is not None
        assert state["table"]["hand"]["number"] == 2  # still the cheated hand
        assert any(a["hand"] == 2 and a["check"] == check for a in _alarms(state))
    # The check phones did before (each card against its commitment) saw nothing wrong.
    assert all(bad_cards(phone.state) == [] for phone in players.values()
               if phone.state is not None)
    export = harness.client.get(f"/api/tables/{host.table_id}/fairness").json()
    assert any(a["hand"] == 2 and a["check"] == check for a in export["alarms"])
    assert hole_indices(3, 0) == (0, 3)  # the patch did not leak out of the server
