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

from feltro.fairness import card_id, card_matches

__all__ = ["CONTRIBUTE_ID", "bad_cards", "contribution", "fingerprint"]

Frame = dict[str, Any]

CONTRIBUTE_ID = "fair-"
"""The id prefix of ``contribute`` messages (a late one is harmless: the hand is dealt
without it, so its refusal is not shown)."""


def contribution(state: Frame, sent: set[int], entropy: int = 32) -> Frame | None:
    """The ``contribute`` message due for the next hand, or ``None`` (nothing due: no
    verifiable shuffle, not a seated player in play, away, or already sent). *sent* holds the
    hands contributed to; the caller adds the hand once the message is sent."""
    fair = state["table"].get("fair")
    you = state["you"]
    if not fair or not fair.get("next") or you.get("role") != "player" or you.get("away"):
        return None
    seat_number = you.get("seat")
    hand = fair["next"]["hand"]
    if seat_number is None or hand in sent or seat_number in fair["next"].get("contributed", []):
        return None
    seat = next((s for s in state["table"]["seats"] if s["seat"] == seat_number), None)
    if seat is None or seat.get("out") or seat.get("removed"):
        return None
    return {"type": "contribute", "hand": hand, "value": os.urandom(entropy).hex(),
            "id": f"{CONTRIBUTE_ID}{hand}"}


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
