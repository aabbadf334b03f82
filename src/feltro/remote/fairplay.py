"""The player's side of the verifiable shuffle (``docs/fairness.md``) for ``feltro join``, as
the phones do it: this terminal's fresh OS randomness for the next hand (sent while the current
one is played, so nobody waits), and the check of every card it sees — its own and the
board's — against the position commitments the table published at the deal
(:func:`feltro.fairness_scheme.card_matches`: the server's word is not trusted).

Both read only the ``state`` the server sends (``table.fair``, ``you.fair``); a server without
the verifiable shuffle sends neither, and then nothing here does anything.
"""

from __future__ import annotations

import os
from typing import Any

from feltro.fairness import card_id
from feltro.fairness_scheme import (
    board_indices,
    card_matches,
    chain_link,
    contribution_commitment,
    deal_commitment,
    hole_indices,
)
from feltro.fairness_scheme import fingerprint as fingerprint_of

__all__ = ["CONTRIBUTE_ID", "Contributor", "DealChecker", "bad_cards", "fingerprint"]

Frame = dict[str, Any]

CONTRIBUTE_ID = "fair-"
"""The id prefix of ``contribute`` messages: a refusal of one is shown to the player with its
reason (``refusal.D1.<reason>``), since it means this device's randomness was not used."""


class Contributor:
    """This device's randomness, committed then revealed (``docs/fairness.md``): while the
    next hand's seals are open (``table.fair.next.phase == "seal"``) it draws a fresh value and
    sends only its seal; once they close (``"reveal"``) it sends the value, if its seal is the
    one the table published. Nobody — the server included — learns a value before every seal
    is fixed, so nobody can choose theirs after seeing another's."""

    def __init__(self, entropy: int = 32) -> None:
        self.entropy = entropy
        self._values: dict[int, bytes] = {}
        self._revealed: set[int] = set()
        self.seal_changed: set[int] = set()
        """Hands whose published seal for this seat is not the one this device sent."""

    def due(self, state: Frame) -> Frame | None:
        """The ``contribute`` message due now, or ``None`` (no verifiable shuffle, not a
        seated player in play, away, or nothing due in this phase)."""
        fair = state["table"].get("fair")
        seat_number = _playing_seat(state)
        if not fair or not fair.get("next") or seat_number is None:
            return None
        nxt = fair["next"]
        hand = int(nxt["hand"])
        if nxt.get("phase", "seal") == "seal":
            if hand in self._values:
                return None
            fresh = self._values[hand] = os.urandom(self.entropy)
            digest = contribution_commitment(str(fair["table"]), hand, seat_number, fresh)
            return {"type": "contribute", "hand": hand, "seal": digest.hex(),
                    "id": f"{CONTRIBUTE_ID}seal-{hand}"}
        value = self._values.get(hand)
        if (value is None or hand in self._revealed
                or seat_number in nxt.get("contributed", [])):
            return None
        self._revealed.add(hand)
        published = (nxt.get("sealed") or {}).get(str(seat_number))
        if published is None:
            return None  # the seal was refused (the refusal told why) or lost in a restart
        if published != contribution_commitment(str(fair["table"]), hand, seat_number,
                                                 value).hex():
            self.seal_changed.add(hand)
            return None
        return {"type": "contribute", "hand": hand, "value": value.hex(),
                "id": f"{CONTRIBUTE_ID}{hand}"}


    def mine(self, hand: int, table: str, seat: int) -> tuple[str, str | None] | None:
        """``(seal, value or None)`` this device sent for *hand* (hexadecimal), if any."""
        value = self._values.get(hand)
        if value is None:
            return None
        seal = contribution_commitment(table, hand, seat, value).hex()
        return seal, value.hex() if hand in self._revealed else None


class DealChecker:
    """This device's own check of every deal (``docs/fairness.md``), the server's word not
    trusted: its own seal and value used, every card it sees from the deck position the
    dealing rule gives it (D4, D5) and matching its commitment, and the chain link computed
    here — whose fingerprint is the one to show."""

    def __init__(self) -> None:
        self.links: dict[int, bytes] = {}
        self.failed: dict[int, set[str]] = {}
        """Hand -> the checks its deal failed here."""

    def check(self, state: Frame, mine: Contributor | None = None) -> set[str]:
        """The checks the deal on screen fails (``contribution``, ``seal``, ``position``,
        ``card``, ``chain``), also kept in :attr:`failed`; empty when there is nothing to
        check or all pass."""
        table = state["table"]
        fair, hand = table.get("fair"), table.get("hand")
        if not fair or not fair.get("hand") or not hand or fair["hand"]["number"] != hand["number"]:
            return set()
        public, number = fair["hand"], int(hand["number"])
        failed = set(self.failed.get(number, set()))
        try:
            if not self._chain_holds(public, number):
                failed.add("chain")
        except (KeyError, TypeError, ValueError):
            failed.add("chain")
        if not self._positions_hold(state, public):
            failed.add("position")
        if bad_cards(state):
            failed.add("card")
        seat = _playing_seat(state) if state["you"].get("role") == "player" else None
        sent = mine.mine(number, str(fair["table"]), seat) if mine and seat else None
        if sent is not None and sent[1] is not None:  # revealed: both must be in the deal
            if (public.get("sealed") or {}).get(str(seat)) != sent[0]:
                failed.add("seal")
            if public["contributions"].get(str(seat)) != sent[1]:
                failed.add("contribution")
        if mine is not None and number in mine.seal_changed:
            failed.add("seal")
        if failed:
            self.failed[number] = failed
        return failed

    def _chain_holds(self, public: Frame, number: int) -> bool:
        previous = self.links.get(number - 1, bytes.fromhex(public["previous"]))
        contributions = {int(s): bytes.fromhex(v) for s, v in public["contributions"].items()}
        positions = [bytes.fromhex(p) for p in public["positions"]]
        link = chain_link(previous, number, bytes.fromhex(public["commitment"]), contributions,
                          deal_commitment(positions))
        if link.hex() != public["chain"]:
            return False
        self.links[number] = link
        return True

    @staticmethod
    def _positions_hold(state: Frame, public: Frame) -> bool:
        seats = list(public.get("seats") or [])
        players, seat = len(seats), state["you"].get("seat")
        mine = state["you"].get("fair") or {}
        own = mine.get("cards", []) if mine.get("hand") == public["number"] else []
        if own and (seat not in seats or [c["index"] for c in own]
                    != list(hole_indices(players, seats.index(seat)))[:len(own)]):
            return False
        board = [c["index"] for c in public.get("board", [])]
        return bool(players) and board == list(board_indices(players))[:len(board)]

    def fingerprint(self) -> str | None:
        """The fingerprint of the last link computed here."""
        return fingerprint_of(self.links[max(self.links)]) if self.links else None


def _playing_seat(state: Frame) -> int | None:
    you = state["you"]
    if you.get("role") != "player" or you.get("away") or you.get("seat") is None:
        return None
    seat = next((s for s in state["table"]["seats"] if s["seat"] == you["seat"]), None)
    if seat is None or seat.get("out") or seat.get("removed"):
        return None
    return int(you["seat"])


def bad_cards(state: Frame) -> list[str] | None:
    """The cards this player sees that do not match the table's commitments (empty when all
    do; ``None`` when there is nothing to check). A card shown without its proof is bad too."""
    table = state["table"]
    fair, hand = table.get("fair"), table.get("hand")
    if not fair or not fair.get("hand") or not hand or fair["hand"].get("number") != hand["number"]:
        return None
    mine = state["you"].get("fair") or {}
    own = mine.get("cards", []) if mine.get("hand") == hand["number"] else []
    board = fair["hand"].get("board", [])
    positions = fair["hand"].get("positions", [])
    bad: list[str] = []
    for card in state["you"].get("hole") or []:
        if not any(item["card"] == card for item in own):
            bad.append(card)
    for card in hand.get("board", []):
        if not any(item["card"] == card for item in board):
            bad.append(card)
    for item in [*own, *board]:
        if not _matches(positions, item):
            bad.append(str(item.get("card")))
    return list(dict.fromkeys(bad))


def _matches(positions: list[Any], item: Frame) -> bool:
    try:
        index = int(item["index"])
        position = bytes.fromhex(positions[index])
        return card_matches(position, bytes.fromhex(item["salt"]), index, card_id(item["card"]))
    except (KeyError, IndexError, TypeError, ValueError):
        return False


def fingerprint(state: Frame) -> str | None:
    """The night's fingerprint so far (friends compare it on their screens)."""
    fair = state["table"].get("fair")
    value = fair.get("fingerprint") if fair else None
    return str(value) if value else None
