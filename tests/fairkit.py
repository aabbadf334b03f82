"""The tamperings both verifiers must catch, shared by tests/test_fairness.py (Python) and
tests/web/test_fair_verify.py (the browser's verify.js)."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from feltro.fairness import Check

__all__ = ["TAMPERINGS", "forged_night", "tampered"]


def _flip(text: str) -> str:
    """Hex text with its first digit changed."""
    return ("1" if text[0] == "0" else "0") + text[1:]


def _other_card(card: str) -> str:
    return "2c" if card != "2c" else "3c"


def _swap(hands: list[dict[str, Any]]) -> None:
    hands[2], hands[3] = hands[3], hands[2]


def _swap_renumbered(hands: list[dict[str, Any]]) -> None:
    hands[2], hands[3] = hands[3], hands[2]
    hands[2]["hand"], hands[3]["hand"] = 3, 4


def _unsealed_change(hand: dict[str, Any]) -> None:
    """A contribution changed in a hand whose seals are removed too (an unsealed hand)."""
    hand["sealed"] = []
    hand["contributions"][0]["value"] = _flip(hand["contributions"][0]["value"])


def _swap_deck(hand: dict[str, Any]) -> None:
    """Two undealt cards of the published deck swapped (the last two positions)."""
    deck = hand["deck"]
    deck[50], deck[51] = deck[51], deck[50]


def _cut_last(export: dict[str, Any]) -> None:
    """The last two hands cut, the fingerprint left as the table showed it. (Had the forger
    recomputed it too, the hands left would be a real, shorter night: only friends comparing
    the code their own devices computed live can tell, docs/fairness.md.)"""
    del export["hands"][-2:]


def _drop_links(hands: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The hands without their ``previous`` links (optional in an export)."""
    for hand in hands:
        hand["previous"] = None
    return hands


def _off_position(hand: dict[str, Any]) -> None:
    """A patched dealer's hole card from a deck position the dealing rule (D4) does not give
    its seat, recorded where it really came from: the card matches the deck there."""
    hole = next(d for d in hand["dealt"] if d["seat"] is not None)
    hole.update(position=51, card=hand["deck"][51])


# name -> (change to the export, the check that must fail, the hand it names)
TAMPERINGS: dict[str, tuple[Callable[[dict[str, Any]], None], Check, int | None]] = {
    "secret": (lambda e: e["hands"][2].update(secret=_flip(e["hands"][2]["secret"])),
               Check.COMMITMENT, 3),
    "commitment": (lambda e: e["hands"][2].update(commitment=_flip(e["hands"][2]["commitment"])),
                   Check.COMMITMENT, 3),
    "seed": (lambda e: e["hands"][2].update(seed=_flip(e["hands"][2]["seed"])), Check.SEED, 3),
    "contribution": (lambda e: e["hands"][2]["contributions"][0].update(
        value=_flip(e["hands"][2]["contributions"][0]["value"])), Check.CONTRIBUTION, 3),
    "contribution, seals dropped": (lambda e: _unsealed_change(e["hands"][2]), Check.SEED, 3),
    "sealed contribution": (lambda e: e["hands"][2]["sealed"][1].update(
        commitment=_flip(e["hands"][2]["sealed"][1]["commitment"])), Check.CONTRIBUTION, 3),
    "seal dropped": (lambda e: e["hands"][2]["sealed"].pop(0), Check.CONTRIBUTION, 3),
    "contribution dropped": (lambda e: e["hands"][2]["contributions"].pop(),
                             Check.CONTRIBUTION, 3),  # a sealed seat's value gone, unnamed
    "contribution from a seat not in the hand": (lambda e: e["hands"][2]["contributions"].append(
        {"seat": 200, "value": "ab"}), Check.CONTRIBUTION, 3),
    "card off its position": (lambda e: _off_position(e["hands"][2]), Check.CARD, 3),
    "seats missing": (lambda e: e["hands"][2].pop("seats"), Check.FORMAT, 3),
    "fingerprint missing": (lambda e: e.pop("fingerprint"), Check.FINGERPRINT, None),
    "fingerprint null": (lambda e: e.update(fingerprint=None), Check.FINGERPRINT, None),
    "zero hands": (lambda e: e.update(hands=[], fingerprint=None), Check.ORDER, None),
    "last hands cut": (lambda e: _cut_last(e), Check.FINGERPRINT, None),
    "position": (lambda e: e["hands"][2]["positions"].__setitem__(
        7, _flip(e["hands"][2]["positions"][7])), Check.POSITION, 3),
    "card": (lambda e: e["hands"][2]["dealt"][0].update(
        card=_other_card(e["hands"][2]["dealt"][0]["card"])), Check.CARD, 3),
    "deck": (lambda e: _swap_deck(e["hands"][2]), Check.CARD, 3),
    "deck not a deck": (lambda e: e["hands"][2]["deck"].__setitem__(0, "2c"), Check.FORMAT,
                        None),
    "hand order": (lambda e: _swap(e["hands"]), Check.ORDER, 4),
    "hand order renumbered": (lambda e: _swap_renumbered(e["hands"]), Check.CHAIN, 3),
    "hand order renumbered, links dropped": (lambda e: _swap_renumbered(_drop_links(e["hands"])),
                                             Check.CONTRIBUTION, 3),
    "hand missing": (lambda e: e["hands"].pop(1), Check.ORDER, 3),
    "chain link": (lambda e: e["hands"][2].update(chain=_flip(e["hands"][2]["chain"])),
                   Check.CHAIN, 3),
    "previous link": (lambda e: e["hands"][4].update(previous=_flip(e["hands"][4]["previous"])),
                      Check.CHAIN, 5),
    "fingerprint": (lambda e: e.update(fingerprint="0000-0000"), Check.FINGERPRINT, None),
    "table": (lambda e: e.update(table="another"), Check.CHAIN, 1),
    "secret withheld": (lambda e: e["hands"][2].update(secret=None, seed=None), Check.SECRET, 3),
    "not an export": (lambda e: e.update(format="something else"), Check.FORMAT, None),
    "bad hex": (lambda e: e["hands"][1].update(commitment="zz"), Check.FORMAT, None),
}


def tampered(export: dict[str, Any], name: str) -> dict[str, Any]:
    copied = copy.deepcopy(export)
    TAMPERINGS[name][0](copied)
    return copied


def every_single_change(export: dict[str, Any], hand: int = 2) -> list[tuple[str, Any]]:
    """``(what, changed copy)`` for every published value of hand *hand* changed alone: each
    hex field, each position commitment, each contribution and seal, each card of the deck and
    each dealt card. Every one of them must fail verification."""
    index = hand - 1
    changes: list[tuple[str, Any]] = []

    def change(what: str, edit: Callable[[dict[str, Any]], None]) -> None:
        copied = copy.deepcopy(export)
        edit(copied["hands"][index])
        changes.append((what, copied))

    for name in ("commitment", "secret", "seed", "chain", "previous"):
        change(name, lambda h, n=name: h.update({n: _flip(h[n])}))
    for i in range(52):
        change(f"positions[{i}]",
               lambda h, i=i: h["positions"].__setitem__(i, _flip(h["positions"][i])))
    for i in range(len(export["hands"][index]["contributions"])):
        change(f"contributions[{i}]", lambda h, i=i: h["contributions"][i].update(
            value=_flip(h["contributions"][i]["value"])))
        change(f"contributions[{i}].seat", lambda h, i=i: h["contributions"][i].update(
            seat=h["contributions"][i]["seat"] + 10))
    for i in range(len(export["hands"][index]["sealed"])):
        change(f"sealed[{i}]", lambda h, i=i: h["sealed"][i].update(
            commitment=_flip(h["sealed"][i]["commitment"])))
    for i in range(0, 52, 2):
        change(f"deck[{i}:{i + 2}]", lambda h, i=i: h["deck"].__setitem__(
            slice(i, i + 2), h["deck"][i:i + 2][::-1]))
    for i in range(len(export["hands"][index]["dealt"])):
        change(f"dealt[{i}]", lambda h, i=i: h["dealt"][i].update(
            card=_other_card(h["dealt"][i]["card"])
            if _other_card(h["dealt"][i]["card"]) != h["dealt"][i]["card"] else "4c"))
        change(f"dealt[{i}].position", lambda h, i=i: h["dealt"][i].update(
            position=(h["dealt"][i]["position"] + 1) % 52))
    change("hand", lambda h: h.update(hand=h["hand"] + 1))
    return changes


def forged_night(kind: str, hands: int = 3) -> dict[str, Any]:
    """A night its dealer forged consistently (every hash recomputed, so only the new checks
    can tell): ``"outsider"``, hand 2 takes a sealed value from seat 200, which is not dealt
    in; ``"unnamed"``, seat 1 seals hand 2 and withholds its value, and the export does not
    name it."""
    import random

    from feltro.fairdeal import FairDealer
    from feltro.fairness_scheme import contribution_commitment
    from feltro.series import Series, SeriesConfig

    rng = random.Random(7)
    dealer = FairDealer("forged", secret_source=rng.randbytes)
    series = Series(SeriesConfig.with_players(3, max_hands=hands, starting_stack=10**9), 7,
                    deck_source=dealer.deck)
    for number in range(1, hands + 1):
        dealer.commit(number)
        values = {seat: rng.randbytes(16) for seat in (1, 2)}
        if number == 2 and kind == "outsider":
            values[200] = rng.randbytes(16)
        for seat, value in values.items():
            dealer.seal(number, seat, contribution_commitment("forged", number, seat, value))
        for seat, value in values.items():
            if not (number == 2 and kind == "unnamed" and seat == 1):
                dealer.contribute(number, seat, value)
        hand = series.next_hand()
        assert hand is not None
        while not hand.is_over:
            series.act(hand.legal.passive)
        dealer.record(number, hand, series.seating)
    export = dealer.export()
    if kind == "unnamed":
        assert export["hands"][1]["withheld"] == [1]
        export["hands"][1]["withheld"] = []
    return export
