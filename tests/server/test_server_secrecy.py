"""Hidden cards never leave the server toward anyone but their owner.

Many random hands are played by scripted phones (players, a second device of one player, the
host's page, a spectator, and players who bust and stay connected). Every frame the server
queues is checked *at the moment it is built* against the truth of the hand: the only cards it
may hold are the board, the cards shown at the showdown, and, for a player's own connection,
that player's own hole cards. Burn cards, undealt cards and other players' unshown cards never
appear, not even inside a text. Every frame each phone actually received must be one of the
checked frames. Logs and the files on disk hold no token and no card.
"""

from __future__ import annotations

import json
import logging
import random
import re
from pathlib import Path
from typing import Any

import pytest
from srvkit import Harness, cards_in, drive, seat_table

from feltro.server.connection import Connection
from feltro.server.live_table import LiveTable
from feltro.server.outgoing import YouOut
from feltro.server.snapshot import TableSnapshot

_CARD_IN_TEXT = re.compile(r"(?<![A-Za-z0-9])([2-9TJQKA][cdhs])(?![A-Za-z0-9])")
_SKIP_KEYS = {"token", "request_id", "boot", "id", "ref", "table_id"}


def _text_cards(value: Any, key: str = "") -> set[str]:
    """Card-shaped words inside any string of a JSON value (free-text leaks)."""
    found: set[str] = set()
    if key in _SKIP_KEYS:
        return found
    if isinstance(value, str):
        found |= set(_CARD_IN_TEXT.findall(value))
    elif isinstance(value, dict):
        for k, item in value.items():
            found |= _text_cards(item, k)
    elif isinstance(value, list):
        for item in value:
            found |= _text_cards(item, key)
    return found


class Auditor:
    """The frame observer: checks every frame against the truth when it is built."""

    def __init__(self) -> None:
        self.checked: set[str] = set()
        self.frames = 0
        self.with_own_cards = 0
        self.with_shown_cards = 0
        self.receivers: set[str] = set()
        self.leaks: list[str] = []

    def __call__(self, conn: Connection, text: str, game: LiveTable) -> None:
        frame = json.loads(text)
        self.frames += 1
        self.checked.add(text)
        allowed: set[str] = set()
        store = game.store
        if store is not None and store.series.hand is not None:
            hand = store.series.hand
            seating = store.series.seating
            assert seating is not None
            allowed |= {str(c) for c in hand.board}
            shown = {str(c) for cards in hand.shown.values() for c in cards}
            allowed |= shown
            identity = conn.identity
            role = identity.role if identity is not None else "spectator"
            self.receivers.add(role)
            if (identity is not None and identity.role == "player"
                    and identity.seat in seating.order):
                own = {str(c) for c in hand.hole(seating.position_of(identity.seat))
                       if c is not None}
                if own & cards_in(frame):
                    self.with_own_cards += 1
                allowed |= own
            if shown & cards_in(frame):
                self.with_shown_cards += 1
        leaked = (cards_in(frame) | _text_cards(frame)) - allowed
        if leaked:  # recorded, not raised: the server would turn an exception into "internal"
            self.leaks.append(f"frame to {conn.identity} holds hidden cards {leaked}: "
                              f"{text[:300]}")


@pytest.mark.parametrize("seed", [1, 2])
def test_no_frame_holds_a_card_its_receiver_may_not_see(harness: Harness, seed: int,
                                                        caplog: pytest.LogCaptureFixture,
                                                        ) -> None:
    caplog.set_level(logging.DEBUG)
    auditor = Auditor()
    harness.manager.frame_observer = auditor
    rng = random.Random(seed)

    def choose(legal: dict[str, Any]) -> dict[str, Any]:
        message = {"type": "act", "id": f"r{legal['hand']}-{legal['turn']}",
                   "hand": legal["hand"], "turn": legal["turn"]}
        roll = rng.random()
        if legal["raise"] is not None and roll < 0.04:
            message.update(action="raise", to=legal["raise"]["max"])
        elif legal["raise"] is not None and roll < 0.20:
            low, high = legal["raise"]["min"], legal["raise"]["max"]
            message.update(action="raise", to=rng.randint(low, min(high, low * 3)))
        elif not legal["check"] and roll < 0.40:
            message.update(action="fold")
        else:
            message.update(action="check" if legal["check"] else "call")
        return message

    hands = 0
    phones = []
    tokens = []
    eliminations = 0
    while hands < 30:  # whole series, one after another, until enough hands were seen
        created, host, players = seat_table(harness, ["Ana", "Bruno", "Carla", "Dora", "Eva"],
                                            bots=("random",), stack=60, action_seconds=None,
                                            name="Secret")
        table_id = created["table_id"]
        spectator = harness.phone(table_id)
        spectator.hello()
        tablet = harness.phone(table_id)  # Ana's second device
        ana_token = players[1].token
        assert ana_token is not None
        tablet.hello("player", ana_token)
        final = drive(host, players, choose,
                      lambda f: f["table"]["status"] == "over"
                      or f["table"]["hands_played"] >= 40, timeout=10)
        hands += final["table"]["hands_played"]
        eliminations += len(final["table"]["eliminations"])
        table_phones = [host, spectator, tablet, *players.values()]
        for phone in table_phones:
            phone.drain(0.05)
        phones += table_phones
        tokens += [created["host_token"], *(p.token for p in players.values() if p.token)]
        for phone in (host, spectator):
            assert all(f["you"]["hole"] is None for f in phone.frames if f["type"] == "state")

    assert not auditor.leaks, auditor.leaks[:3]
    # Many hands, real showdowns, busted players still watching.
    assert auditor.frames > 1000
    assert auditor.with_own_cards > 100
    assert auditor.with_shown_cards > 0
    assert {"host", "player", "spectator"} <= auditor.receivers
    assert eliminations > 0

    # Every frame on the wire was checked.
    for phone in phones:
        assert phone.raw
        unchecked = [text for text in phone.raw if text not in auditor.checked]
        assert not unchecked, unchecked[:1]

    # Logs and files: no token, no card.
    log_text = "\n".join(record.getMessage() for record in caplog.records)
    for token in tokens:
        assert token not in log_text
    assert not _CARD_IN_TEXT.findall(log_text)
    for path in Path(harness.data_dir).rglob("*"):
        if path.is_file():
            content = path.read_bytes()
            for token in tokens:
                assert token.encode() not in content, path


def test_the_auditor_catches_a_leak(harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """Negative control: a server that sends one other player's card is caught."""
    from feltro.server import views

    honest = views.you_view

    def leaky(snap: TableSnapshot, identity: Any, lang: str) -> YouOut:
        you = honest(snap, identity, lang)
        store = harness.game(snap.table_id).store
        if store is not None and store.series.hand is not None and store.series.in_hand:
            # Position 0's first card, hidden in a text field every receiver gets.
            return you.model_copy(update={"hand_name": f"psst: {store.series.hand.hole(0)[0]}"})
        return you

    monkeypatch.setattr(views, "you_view", leaky)
    auditor = Auditor()
    harness.manager.frame_observer = auditor
    _created, host, players = seat_table(harness, ["Ana", "Bruno", "Carla"])
    drive(host, players, lambda legal: {"type": "act", "id": f"x{legal['turn']}",
                                        "hand": legal["hand"], "turn": legal["turn"],
                                        "action": "check" if legal["check"] else "fold"},
          lambda f: f["table"]["hands_played"] >= 1)
    assert auditor.leaks
