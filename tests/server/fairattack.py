"""A night on the server under attack (issue 21), shared by
``tests/server/test_server_fair_attacks.py`` (a short night in CI) and
``benchmarks/fair_attack.py`` (200 attacked hands, the figure of the closing note).

Three players: seat 1 is the *host-player*, who holds the data folder (the series file with
the sealed series seed) and the config folder (the key that unseals it), so he derives every
hand's server secret exactly as the server does; he also reads the server's memory (the values
the other devices revealed). He attacks every hand from hand 2 on: he grinds his value offline
for pocket aces and commits first; once the others' values are in he reveals last, or
withholds his value when the deck without it gives him aces. Seats 2 and 3 are honest devices
that follow whatever protocol the server's ``state`` shows (the phones' and ``feltro join``'s
way: seal then reveal when the state has ``phase``, else the value at once, as before).
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from contextlib import closing
from dataclasses import dataclass, field
from itertools import count
from typing import Any

from srvkit import Frame, Harness, Phone, passive, seat_table, wait_legal

from feltro.fairness_scheme import contribution_commitment, deck_order, deck_seed, hole_indices
from feltro.server import fairplay
from feltro.server.fairplay import hand_secret

ACE = 12
HOST, HONEST = 1, (2, 3)


@dataclass
class Outcome:
    """What an attacked night gave the host-player."""

    attacked: int = 0
    aces: int = 0
    """Attacked hands in which the host-player was dealt two aces and could play them."""
    dead_aces: int = 0
    """Aces he was dealt in a hand made dead by his withheld value (folded at his first turn)."""
    withheld: int = 0
    """Hands in which he withheld his value (each one named in the hand's record)."""
    played_dead: int = 0
    """Hands he withheld in which he did anything but the forced fold (must stay 0)."""
    named: int = 0
    """Withheld values the hand's public record names (``withheld``)."""
    honest_used: int = 0
    """Attacked hands whose deck took both honest devices' values."""
    honest_refused: list[str] = field(default_factory=list)
    """Refusals the honest devices got (each told to the player with its reason)."""


def series_seed(game: Any) -> int:
    """The series seed as the host reads it from his disk: the series file's first record,
    unsealed with the key of the config folder."""
    path = game.folder / game.series_file
    with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
        names = [row[0] for row in db.execute("SELECT name FROM sqlite_master "
                                              "WHERE type = 'table' AND name != 'meta'")]
        body = json.loads(db.execute(f"SELECT body FROM {names[0]} ORDER BY seq "
                                     "LIMIT 1").fetchone()[0])
    sealed = body.get("series_seed_sealed")
    return game.seal.unseal(sealed) if sealed is not None else int(body["series_seed"])


def aces_at(deck: tuple[int, ...], position: int, players: int = 3) -> bool:
    return all(deck[i] // 4 == ACE for i in hole_indices(players, position))


def grind(secret: bytes, table: str, hand: int, position: int,
          others: dict[int, bytes]) -> bytes:
    """A value for seat 1 that deals it two aces, given the secret and the other values."""
    for tries in count():
        value = tries.to_bytes(8, "big")
        if aces_at(deck_order(deck_seed(secret, table, hand, {**others, HOST: value})),
                   position):
            return value
    raise AssertionError("unreachable")


def position_of_host(button: int) -> int:
    """Seat 1's hand position (0 = left of the button) with seats 1, 2, 3 all playing."""
    return (0 - (button - 1) - 1) % 3


class Night:
    def __init__(self, harness: Harness, hands: int) -> None:
        self.harness = harness
        created, self.host, self.players = seat_table(
            harness, ["Host", "Ana", "Bruno"], max_hands=hands + 1, stack=100_000,
            small_blind=1, big_blind=2)
        self.table = created["table_id"]
        self.game = harness.game(self.table)
        self.seed = series_seed(self.game)
        self.outcome = Outcome()
        self.mine: dict[int, bytes] = {}
        self.revealed: set[int] = set()
        self.honest: dict[int, dict[int, bytes]] = {seat: {} for seat in HONEST}
        self.honest_revealed: set[tuple[int, int]] = set()
        self.button: int | None = None
        self.predicted: dict[int, int] = {}
        self.counted: set[int] = set()
        self.logs: dict[int, list[Frame]] = {}
        """Each hand's public log, as last seen."""

    # --- the devices --------------------------------------------------------------------------

    def _honest_step(self, seat: int, nxt: Frame) -> None:
        hand, phase = int(nxt["hand"]), nxt.get("phase")
        phone, values = self.players[seat], self.honest[seat]
        if hand not in values:
            values[hand] = os.urandom(32)
            if phase is None:  # the protocol before commit-then-reveal: the value at once
                phone.send(type="contribute", hand=hand, value=values[hand].hex(),
                           id=f"fair-{hand}")
                return
            if phase == "seal":
                digest = contribution_commitment(self.table, hand, seat, values[hand]).hex()
                phone.send(type="contribute", hand=hand, seal=digest, id=f"fair-seal-{hand}")
                return
        if phase == "reveal" and (seat, hand) not in self.honest_revealed:
            self.honest_revealed.add((seat, hand))
            phone.send(type="contribute", hand=hand, value=values[hand].hex(),
                       id=f"fair-{hand}")

    def _secret(self, hand: int) -> bytes:
        return hand_secret(self.seed, self.table, hand)

    def _host_commits(self, nxt: Frame) -> None:
        hand, phase = int(nxt["hand"]), nxt.get("phase")
        phone = self.players[HOST]
        if hand == 1 or self.button is None:
            return  # hand 1 is not attacked (its button comes from the draw)
        if hand not in self.mine and phase in (None, "seal"):
            position = position_of_host(self.button % 3 + 1)
            self.predicted[hand] = position
            value = self.mine[hand] = grind(self._secret(hand), self.table, hand, position, {})
            digest = contribution_commitment(self.table, hand, HOST, value).hex()
            phone.send(type="contribute", hand=hand, seal=digest, id=f"fair-seal-{hand}")
            if phase is None:  # before the fix: reveal at once, ahead of the phones
                phone.send(type="contribute", hand=hand, value=value.hex(), id=f"fair-{hand}")
                self.revealed.add(hand)

    def _host_reveals(self, nxt: Frame) -> None:
        hand, phase = int(nxt["hand"]), nxt.get("phase")
        if phase == "reveal" and hand in self.mine and hand not in self.revealed:
            self.revealed.add(hand)
            self._reveal_last(hand)

    def _reveal_last(self, hand: int) -> None:
        """Wait for the others' values (read in the server's memory), then reveal or withhold,
        whichever deals aces."""
        fair = self.game.fairplay
        deadline = time.monotonic() + 2
        while time.monotonic() < deadline and len(fair._values.get(hand, {})) < len(HONEST):
            time.sleep(0.002)
        others = dict(fair._values.get(hand, {}))
        position = self.predicted[hand]
        secret = self._secret(hand)
        mine = {**others, HOST: self.mine[hand]}
        with_mine = deck_order(deck_seed(secret, self.table, hand, mine))
        without = deck_order(deck_seed(secret, self.table, hand, others))
        if aces_at(without, position) and not aces_at(with_mine, position):
            self.outcome.withheld += 1
            # The reveal wait runs from the moment the deal is first due, on the fake clock:
            # move it on only once the server has reached that moment (a slow machine may
            # not have yet), or the deal would wait for a clock that never moves again.
            deadline = time.monotonic() + 10
            while hand not in fair._closed and time.monotonic() < deadline:
                time.sleep(0.002)
            self.harness.clock.advance(fairplay.REVEAL_WAIT + 0.1)  # the deal waits, then goes on
            return
        self.players[HOST].send(type="contribute", hand=hand, value=self.mine[hand].hex(),
                                id=f"fair-{hand}")

    # --- the night ----------------------------------------------------------------------------

    def _count(self, hand: Frame) -> None:
        number = int(hand["number"])
        if number in self.counted or number not in self.mine:
            return
        self.counted.add(number)
        position = position_of_host(int(hand["button"]))
        assert position == self.predicted[number], "the attacker mispredicted his position"
        proof = self.game.fairplay.dealer.proof(number, reveal=True)
        withheld = set(proof.sealed) - set(proof.contributions)
        self.outcome.attacked += 1
        if HOST in withheld:
            self.outcome.dead_aces += aces_at(proof.deck, position)
        else:
            self.outcome.aces += aces_at(proof.deck, position)
        self.outcome.honest_used += all(seat in proof.contributions for seat in HONEST)
        self.outcome.named += HOST in withheld

    def play(self, timeout: float = 10.0) -> Outcome:
        acted: set[tuple[int, int]] = set()
        stalls = 0
        while True:
            try:
                frame = self.host.recv(timeout / 5)
            except TimeoutError:
                # Nothing moves: a deal waits for a reveal on the fake clock. A real clock would
                # end that wait after REVEAL_WAIT; move this one on (a few times at most).
                stalls += 1
                assert stalls <= 5, "the night stalled"
                self.harness.clock.advance(fairplay.REVEAL_WAIT + 0.1)
                continue
            if frame["type"] != "state":
                continue
            table = frame["table"]
            hand, fair = table["hand"], table.get("fair")
            if hand is not None:
                self.button = int(hand["button"])
                self._count(hand)
                self.logs[int(hand["number"])] = list(hand["log"])
            if table["status"] == "over":
                break
            nxt = fair.get("next") if fair else None
            if nxt is not None:
                self._host_commits(nxt)  # first: his server, his network
                for seat in HONEST:
                    self._honest_step(seat, nxt)
                self._host_reveals(nxt)  # last, once the others' values are in
            if hand is None or hand["over"] or hand["to_act"] not in self.players:
                continue
            key = (hand["number"], hand["turn"])
            if key not in acted:
                acted.add(key)
                phone = self.players[hand["to_act"]]
                phone.send(**passive(wait_legal(phone, *key, timeout=timeout)))
        for seat in HONEST:
            self.outcome.honest_refused += _refusals(self.players[seat])
        self._check_dead_hands()
        return self.outcome

    def _check_dead_hands(self) -> None:
        """In every hand whose value he withheld, the host's only action is the forced fold."""
        fair = self.game.fairplay
        for number, log in self.logs.items():
            if HOST not in fair.withheld(number):
                continue
            mine = [e for e in log if e.get("kind") == "action" and e.get("seat") == HOST]
            self.outcome.played_dead += any(
                not (e.get("withheld") and e.get("action") == "fold") for e in mine)


def _refusals(phone: Phone) -> list[str]:
    phone.drain(0.05)
    return [str((f.get("refusal") or {}).get("reason") or f.get("code"))
            for f in phone.frames if f["type"] == "error"
            and (f.get("refusal") or {}).get("params", {}).get("hand") != 1]


def attacked_night(harness: Harness, hands: int) -> Outcome:
    """Play a night of *hands* + 1 hands (the first not attacked) and say what the attack got."""
    return Night(harness, hands).play()
