"""Patched servers for the live-check tests (issue 21): one that deals a hole card off the
position the dealing rule gives (RULES D4), one that drops every ``fair_alarm`` a device sends
(it answers ``ack`` and records nothing), one that refuses every seal. Each takes a
``setattr``: pytest's ``monkeypatch.setattr`` in a test process, the builtin in a server
process started for the browser tests (``tests/web/serve.py PORT DATA PATCH``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from feltro.cards import Deck
from feltro.server import fairplay
from feltro.server.fairplay import FairPlay
from feltro.server.protocol import ErrorCode

OFF = 40  # a deck position no card of a 3-player hand comes from

Patch = Callable[[Any, str, Any], None]


def deal_off_positions(patch: Patch) -> None:
    """From hand 2 on, the first hole card of hand position 0 comes from deck position 40
    (the deck the engine gets has those two cards swapped), and the server reports where it
    really came from: the card matches its commitment, only its position is wrong."""
    source = FairPlay.deck_source

    def deck_source(self: FairPlay, seed: int) -> Any:
        deal = source(self, seed)

        def patched(hand: int) -> Deck:
            cards = list(deal(hand))
            if hand >= 2:
                cards[0], cards[OFF] = cards[OFF], cards[0]
            return Deck(cards)
        return patched

    dealt, holes = FairPlay._dealt, fairplay.hole_indices

    def seen(self: FairPlay, hand: Any, number: int) -> dict[int, int]:
        cards = dict(dealt(self, hand, number))
        if number >= 2 and 0 in cards:
            cards[OFF] = cards.pop(0)  # where that card really is in the committed deck
        return cards

    patch(FairPlay, "deck_source", deck_source)
    patch(FairPlay, "_dealt", seen)
    patch(fairplay, "hole_indices", lambda n, p: (OFF, n) if p == 0 else holes(n, p))


def drop_alarms(patch: Patch) -> None:
    """Every ``fair_alarm`` is answered ``ack`` and forgotten: no screen and no record of the
    night hears of it."""
    patch(FairPlay, "alarm_record", lambda self, *args, **kwargs: None)


def refuse_seals(patch: Patch) -> None:
    """Every seal is refused as come too late (``refusal.D1.seals-closed``): no device's
    randomness is used, and each device is told why."""
    def take(self: FairPlay, hand: int, seat: int, *, value: bytes | None,
             seal: bytes | None) -> None:
        raise fairplay._refused(ErrorCode.NOT_NOW, "seals-closed",
                                f"hand {hand}: the seals are closed", hand=hand)

    patch(FairPlay, "take", take)


PATCHES: dict[str, Callable[[Patch], None]] = {"off-positions": deal_off_positions,
                                               "drop-alarms": drop_alarms,
                                               "refuse-seals": refuse_seals}
"""By name, for ``tests/web/serve.py --patch NAME``."""
