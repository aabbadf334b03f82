"""The player's side of the verifiable shuffle (``docs/fairness.md``) for ``feltro join``, as
the phones do it: this terminal's fresh OS randomness for the next hand (sent while the current
one is played, so nobody waits), and the check of every card it sees — its own and the
board's — against the position commitments the table published at the deal
(:func:`feltro.fairness.card_matches`: the server's word is not trusted).

Both read only the ``state`` the server sends (``table.fair``, ``you.fair``); a server without
the verifiable shuffle sends neither, and then nothing here does anything.
"""

from __future__ import annotations

import os
from typing import Any

from feltro.fairness import card_id, card_matches, contribution_commitment

__all__ = ["CONTRIBUTE_ID", "Contributor", "bad_cards", "fingerprint"]

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
