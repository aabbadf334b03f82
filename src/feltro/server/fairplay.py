"""The verifiable shuffle at a server table (``docs/fairness.md``): commit, mix, reveal.

One :class:`FairPlay` per started table wraps a :class:`~feltro.fairdeal.FairDealer`:

* **commit** — hand *n*'s server secret is ``HMAC-SHA256(series seed, msg("server secret",
  table, u64(n)))``: derived from the series seed, which the data folder keeps only sealed
  (:mod:`feltro.seal`), so no secret is ever stored and a restart finds the same ones. Its
  commitment is public in the ``state`` from the moment the series starts (for hand 1) and
  from every deal on (for the next hand).
* **mix** — every seated human's device sends fresh randomness (``contribute``; optionally a
  seal first) for the next hand while the current one is played. This module checks each one
  (:meth:`check`) and keeps it; the table journals a hand's contributions in one record just
  before its deal (:meth:`to_journal`), so a crash deals the same cards again and a busy table
  pays one write per hand, not one per phone.
* **reveal** — at the deal the ``state`` carries the 52 position commitments and each card's
  salt to whoever sees it; the secrets are revealed when the series ends, or after each hand
  with the table option ``reveal: "hand"``. :meth:`export` is the series export
  (``GET /api/tables/{id}/fairness``) with only what may be revealed so far.

No I/O here: the journal is the game's; the cards come from the series.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable, Collection, Mapping
from typing import Any, Final, Literal

from feltro.cards import Deck
from feltro.errors import Refusal
from feltro.fairdeal import FairDealer, dealt_cards, with_fair_fields, with_roster
from feltro.fairness import HandProof, card_text, export_series, unrevealed
from feltro.fairness_scheme import (
    CONTRIBUTION_MAX,
    SCHEME,
    board_indices,
    commitment,
    contribution_commitment,
    fingerprint,
    hole_indices,
    message,
    position_salts,
)
from feltro.hand import Hand
from feltro.history.phh import HandRecord
from feltro.seating import Seating
from feltro.server.protocol import ErrorCode, ProtocolError

__all__ = ["FIRST_DEAL_WAIT", "REVEAL_MODES", "REVEAL_WAIT", "DealStep", "FairPlay", "Reveal",
           "hand_secret"]

Reveal = Literal["hand", "series"]
REVEAL_MODES: Final = ("hand", "series")
DealStep = Literal["close", "wait", "deal"]
REVEAL_WAIT: Final = 2.0
"""Seconds a deal waits, once due, for the values of the sealed seats; a seat still silent
then is named as having withheld its value (``withheld`` in the hand's public record), and its
hand is dead: it folds at its first turn (:meth:`FairPlay.withheld`)."""
MAX_ALARMS: Final = 500
"""Reported failed checks kept per night (each (hand, seat, check) once)."""
FIRST_DEAL_WAIT: Final = 1.0
"""Seconds the first hand waits after the start (never more than the table's pause between
hands) so that the phones, which see its commitment in the start's state, can contribute."""


def _refused(code: ErrorCode, reason: str, log: str, **params: int) -> ProtocolError:
    """A refused seal or value, worded for the player by ``refusal.D1.<reason>`` (RULES D1:
    the shuffle) and in English for the logs by *log*."""
    return ProtocolError(code, log, refusal=Refusal("D1", reason, params))


def hand_secret(series_seed: int, table: str, hand: int) -> bytes:
    """``HMAC-SHA256(key = the series seed as 16 big-endian bytes, msg("server secret", table,
    u64(hand)))``: hand *hand*'s server secret. Revealing it tells nothing of the seed."""
    key = series_seed.to_bytes(max(16, (series_seed.bit_length() + 7) // 8), "big")
    data = message("server secret", table.encode(), hand.to_bytes(8, "big"))
    return hmac.new(key, data, hashlib.sha256).digest()


class FairPlay:
    """A table's commit, mix and reveal (see the module docstring)."""

    def __init__(self, table: str, reveal: Reveal = "series") -> None:
        self.table = table
        self.reveal: Reveal = reveal
        self._seed: int | None = None
        self.dealer: FairDealer | None = None
        self._values: dict[int, dict[int, bytes]] = {}
        self._seals: dict[int, dict[int, bytes]] = {}
        self._salts: tuple[int, tuple[bytes, ...]] | None = None
        """The current hand's number and position salts (every state needs them)."""
        self._seen: tuple[int, int, dict[int, int]] | None = None
        """The current hand's number, event count and dealt cards (deck index -> card)."""
        self._commitments: dict[int, str] = {}
        self.alarms: list[dict[str, Any]] = []
        """Failed live checks the players' devices reported (``fair_alarm``), in order."""
        self.humans: set[int] = set()
        """The seats of people (their devices are asked to contribute; bots are not)."""
        self._closed: dict[int, float] = {}
        """Hand -> when its deal was first due (its seals closed by then at the latest)."""

    # --- the series' decks --------------------------------------------------------------------

    def deck_source(self, series_seed: int) -> Callable[[int], Deck]:
        """The series' deck source (for :class:`~feltro.series_log.SeriesStore`): every deal takes
        the contributions recorded so far for its hand."""
        self._seed = series_seed
        dealer = self.dealer = FairDealer(self.table, hand_secret=self.secret)

        def deal(hand: int) -> Deck:
            dealer.commit(hand)
            for seat, digest in sorted(self._seals.get(hand, {}).items()):
                dealer.seal(hand, seat, digest)
            for seat, value in sorted(self._values.get(hand, {}).items()):
                if not self._seals.get(hand) or seat in self._seals[hand]:
                    dealer.contribute(hand, seat, value)
            return dealer.deck(hand)

        return deal

    def secret(self, hand: int) -> bytes:
        """Hand *hand*'s server secret (:func:`hand_secret`)."""
        if self._seed is None:
            raise ValueError("the series has not started: no secret yet")
        return hand_secret(self._seed, self.table, hand)

    def commitment(self, hand: int) -> str:
        """The commitment to hand *hand*'s secret, as published (hexadecimal)."""
        if hand not in self._commitments:
            self._commitments = {hand: commitment(self.secret(hand)).hex()}
        return self._commitments[hand]

    # --- contributions ------------------------------------------------------------------------

    def seals_open(self, hand: int, next_hand: int, *, in_hand: bool) -> bool:
        """Whether hand *hand* (the next one) still takes seals: hand 1's until its deal is
        first due, any later hand's while the hand before it is played (its end closes them:
        the reveals then travel during the pause between hands)."""
        return hand == next_hand and hand not in self._closed and (hand == 1 or in_hand)

    def check(self, hand: int, seat: int, next_hand: int, *, value: bytes | None,
              seal: bytes | None, in_hand: bool = True) -> None:
        """Refuse a contribution that cannot count (nothing is recorded), with the reason as
        data (``refusal.D1.<reason>``): no value is ever dropped silently.

        Commit, then reveal: every device seals (the hash of its value) while the seals are
        open (:meth:`seals_open`); once they close, each sealed device reveals its value, which
        must be the one it sealed. A value without a seal, or before the seals close, is
        refused: nobody's value is known to anyone before every seal is fixed.

        ====  =====================  ==============================================================
        rule  reason                 params: when
        ====  =====================  ==============================================================
        D1    ``hand-dealt``         ``hand``, ``next``: a seal or value for a hand already dealt
        D1    ``not-committed``      ``hand``, ``next``: one for a hand after the next
        D1    ``seals-closed``       ``hand``: a seal once the seals closed
        D1    ``seals-open``         ``hand``: a value while the seals are still open
        D1    ``not-sealed``         ``hand``: a value from a seat that sent no seal in time
        D1    ``not-as-sealed``      ``hand``: a value that is not the one the seat sealed
        D1    ``sealed-twice``       ``hand``: a second seal
        D1    ``revealed-twice``     ``hand``: a second value
        ====  =====================  ==============================================================

        :raises ProtocolError: ``not_now`` for a hand already dealt or not committed yet, a
            seal after the seals closed or a value before; ``invalid`` for a second seal or
            value, a value without a seal or unlike it, or a size out of bounds.
        """
        if hand < next_hand:
            raise _refused(ErrorCode.NOT_NOW, "hand-dealt", f"hand {hand} is already dealt: "
                           f"its contributions are closed; contribute to hand {next_hand}",
                           hand=hand, next=next_hand)
        if hand > next_hand:
            raise _refused(ErrorCode.NOT_NOW, "not-committed", f"hand {hand} has no "
                           f"commitment yet; contribute to hand {next_hand}",
                           hand=hand, next=next_hand)
        if (value is None) == (seal is None):
            raise ProtocolError(ErrorCode.INVALID, "contribute: send either value or seal")
        seals = self._seals.get(hand, {})
        opened = self.seals_open(hand, next_hand, in_hand=in_hand)
        if seal is not None:
            if len(seal) != 32:
                raise ProtocolError(ErrorCode.INVALID, "contribute: a seal is a 32-byte "
                                    "SHA-256 digest (64 hexadecimal digits)")
            if seat in seals:
                raise _refused(ErrorCode.INVALID, "sealed-twice", f"seat {seat} already "
                               f"sealed its contribution to hand {hand}", hand=hand)
            if not opened:
                raise _refused(ErrorCode.NOT_NOW, "seals-closed", f"hand {hand}: the seals "
                               "are closed; this device joins the next hand", hand=hand)
            return
        assert value is not None
        if not 1 <= len(value) <= CONTRIBUTION_MAX:
            raise ProtocolError(ErrorCode.INVALID, f"contribute: a value is 1 to "
                                f"{CONTRIBUTION_MAX} bytes")
        if seat in self._values.get(hand, {}):
            raise _refused(ErrorCode.INVALID, "revealed-twice", f"seat {seat} already "
                           f"revealed its value for hand {hand}", hand=hand)
        if seat not in seals:
            raise _refused(ErrorCode.INVALID, "not-sealed", f"hand {hand} takes sealed "
                           f"values only and seat {seat} sent no seal in time", hand=hand)
        if opened:
            raise _refused(ErrorCode.NOT_NOW, "seals-open", f"hand {hand}: the seals are "
                           "still open; reveal the value once they close", hand=hand)
        if seals[seat] != contribution_commitment(self.table, hand, seat, value):
            raise _refused(ErrorCode.INVALID, "not-as-sealed", f"seat {seat}: the value is "
                           "not the one it sealed", hand=hand)

    def take(self, hand: int, seat: int, *, value: bytes | None, seal: bytes | None) -> None:
        """Keep a contribution that :meth:`check` accepted, until the deal journals it
        (:meth:`to_journal`)."""
        if seal is not None:
            self._seals.setdefault(hand, {})[seat] = seal
        elif value is not None:
            self._values.setdefault(hand, {})[seat] = value

    def before_deal(self, hand: int, now: float, seats: Collection[int]) -> DealStep:
        """What the deal of hand *hand*, due at *now*, does: ``"close"`` the seals first (hand
        1: the phones are told, then reveal), ``"wait"`` for the values of the sealed *seats*
        (still in the series) for at most :data:`REVEAL_WAIT` seconds, or ``"deal"``."""
        if hand not in self._closed:
            self._closed[hand] = now
            if hand == 1 and self._seals.get(hand):
                return "close"
        waiting = set(self._seals.get(hand, {})) & set(seats)
        waiting -= set(self._values.get(hand, {}))
        if waiting and now < self._closed[hand] + REVEAL_WAIT:
            return "wait"
        return "deal"

    def to_journal(self, hand: int) -> dict[str, Any] | None:
        """The journal record of hand *hand*'s contributions, written just before its deal
        (one write per hand, not one per phone); ``None`` when there are none. Contributions
        that a crash loses before the deal were never used."""
        values, seals = self._values.get(hand, {}), self._seals.get(hand, {})
        if not values and not seals:
            return None
        return {"hand": hand,
                "values": {str(seat): value.hex() for seat, value in sorted(values.items())},
                "seals": {str(seat): digest.hex() for seat, digest in sorted(seals.items())}}

    def alarm_record(self, seat: int, hand: int, check: str, *,
                     dealt: int) -> dict[str, Any] | None:
        """The journal record of *seat*'s device reporting that hand *hand*'s deal failed
        *check* (``fair_alarm``), or ``None`` for a repeat (or past :data:`MAX_ALARMS`).

        :raises ProtocolError: ``not_now`` for a hand not dealt yet."""
        if not 1 <= hand <= dealt:
            raise ProtocolError(ErrorCode.NOT_NOW, f"hand {hand} has not been dealt")
        alarm = {"hand": hand, "seat": seat, "check": check}
        if alarm in self.alarms or len(self.alarms) >= MAX_ALARMS:
            return None
        return {"hand": hand, "values": {}, "seals": {}, "alarm": alarm}

    def record(self, body: Mapping[str, Any]) -> None:
        """Take a journaled record of :meth:`to_journal` (or of :meth:`alarm_record`)."""
        if "alarm" in body:
            alarm = dict(body["alarm"])
            self.alarms.append({"hand": int(alarm["hand"]), "seat": int(alarm["seat"]),
                                "check": str(alarm["check"])})
            return
        hand = int(body["hand"])
        for seat, digest in dict(body["seals"]).items():
            self._seals.setdefault(hand, {})[int(seat)] = bytes.fromhex(digest)
        for seat, value in dict(body["values"]).items():
            self._values.setdefault(hand, {})[int(seat)] = bytes.fromhex(value)

    def archive_record(self) -> dict[str, Any]:
        """What an archived table keeps of its fair dealer (:meth:`restore_archive`): every
        hand's seals and values (its decks depend on them), who was asked, the alarms."""
        hands = sorted(set(self._values) | set(self._seals))
        return {"humans": sorted(self.humans), "alarms": list(self.alarms),
                "hands": [body for hand in hands if (body := self.to_journal(hand))]}

    def restore_archive(self, record: Mapping[str, Any]) -> None:
        """Take back an :meth:`archive_record` (before the series log is replayed)."""
        self.humans = {int(seat) for seat in record.get("humans", ())}
        self.alarms = [dict(alarm) for alarm in record.get("alarms", ())]
        for body in record.get("hands", ()):
            self.record(body)

    def withheld(self, hand: int) -> frozenset[int]:
        """Seats that sealed a value for hand *hand* (dealt) and did not reveal it. Their hand
        is dead: whoever withholds could otherwise choose between two decks he can compute
        (the host knows the server's secret), so withholding must not let him play the one he
        likes; it still lets him choose the others' cards, once, visibly (``withheld``)."""
        seals = self._seals.get(hand)
        if not seals:
            return frozenset()
        return frozenset(seals) - frozenset(self._values.get(hand, {}))

    def contributed(self, hand: int) -> list[int]:
        """Seats whose value for hand *hand* is in."""
        return sorted(self._values.get(hand, {}))

    # --- what may be published ----------------------------------------------------------------

    def revealed(self, hand: int, *, dealt: int, in_hand: bool, over: bool) -> bool:
        """Whether hand *hand*'s secret may be published (*dealt*: hands dealt so far)."""
        if over:
            return hand <= dealt
        return self.reveal == "hand" and (hand < dealt or (hand == dealt and not in_hand))

    def _proof(self, hand: int, revealed: bool) -> HandProof:
        assert self.dealer is not None
        proof = self.dealer.proof(hand, reveal=True)
        return proof if revealed else unrevealed(proof)

    def public(self, hand: Hand | None, number: int, *, in_hand: bool, over: bool,
               players: int, seats: tuple[int, ...] = ()) -> dict[str, Any]:
        """The public ``fair`` part of the table's state (``docs/protocol.md``); *seats*: the
        hand's seats in deal order."""
        out: dict[str, Any] = {"scheme": SCHEME, "table": self.table, "reveal": self.reveal,
                               "next": None, "hand": None, "fingerprint": None,
                               "alarms": list(self.alarms)}
        if not over:
            after = number + 1
            out["next"] = {"hand": after, "commitment": self.commitment(after),
                           "phase": "seal" if self.seals_open(after, after, in_hand=in_hand)
                           else "reveal",
                           "sealed": {str(s): d.hex()
                                      for s, d in sorted(self._seals.get(after, {}).items())},
                           "contributed": self.contributed(after)}
        if self.dealer is None or number == 0 or hand is None:
            return out
        proof = self._proof(number, True)
        seen = self._dealt(hand, number)
        salts = self._hand_salts(number)
        board = [{"index": i, "card": card_text(seen[i]), "salt": salts[i].hex()}
                 for i in board_indices(players) if i in seen]
        public: dict[str, Any] = {
            "number": number, "commitment": proof.commitment.hex(),
            "contributions": {str(s): v.hex() for s, v in proof.contributions.items()},
            "sealed": {str(s): d.hex() for s, d in proof.sealed.items()},
            "withheld": sorted(set(proof.sealed) - set(proof.contributions)),
            "positions": [p.hex() for p in proof.positions], "chain": proof.chain.hex(),
            "previous": (proof.previous or b"").hex(), "seats": list(seats), "board": board}
        if self.revealed(number, dealt=number, in_hand=in_hand, over=over):
            assert proof.secret is not None
            assert proof.seed is not None
            public["secret"], public["seed"] = proof.secret.hex(), proof.seed.hex()
        out["hand"] = public
        out["fingerprint"] = fingerprint(proof.chain)
        return out

    def _dealt(self, hand: Hand, number: int) -> dict[int, int]:
        events = len(hand.events)
        if self._seen is None or self._seen[:2] != (number, events):
            self._seen = (number, events, dict(dealt_cards(hand)))
        return self._seen[2]

    def _hand_salts(self, number: int) -> tuple[bytes, ...]:
        if self._salts is None or self._salts[0] != number:
            seed = self._proof(number, True).seed
            assert seed is not None
            self._salts = (number, position_salts(seed))
        return self._salts[1]

    def own(self, hand: Hand | None, number: int, position: int,
            players: int) -> dict[str, Any] | None:
        """The ``you.fair`` part: the salts of *position*'s own hole cards in hand *number*."""
        if self.dealer is None or hand is None or number == 0:
            return None
        seen = self._dealt(hand, number)
        salts = self._hand_salts(number)
        return {"hand": number,
                "cards": [{"index": i, "card": card_text(seen[i]), "salt": salts[i].hex()}
                          for i in hole_indices(players, position) if i in seen]}

    def export(self, dealt: list[tuple[int, tuple[tuple[int, int], ...], Seating]], *,
               in_hand: bool, over: bool) -> dict[str, Any]:
        """The ``feltro-fair-export/1`` series export with what may be revealed now: every
        dealt hand's commitments, seats, button, who was asked (the humans dealt in), who
        sealed, who revealed and who withheld, and the secrets and dealt cards of the revealed
        hands. *dealt*: ``(hand, (deck index, card id) pairs, seating)`` of every hand dealt,
        in order."""
        count = len(dealt)
        proofs = []
        for number, cards, seating in dealt:
            if self.revealed(number, dealt=count, in_hand=in_hand, over=over):
                proof = self._proof(number, True).with_dealt(cards)
            else:
                proof = self._proof(number, False)
            proofs.append(with_roster(proof, seating.order, seating.button, self.humans))
        return {**export_series(self.table, proofs), "alarms": list(self.alarms)}

    def phh(self, record: HandRecord, number: int, players: int, position: int, *,
            board_cards: int, over: bool, dealt: int,
            seating: Seating | None = None) -> HandRecord:
        """*record* (a player's own view of hand *number*, at *position* of *players*, with
        *board_cards* board cards dealt) with its ``_fair`` field: the commitments, the salts
        of the cards the player saw, and the secret once revealed."""
        proof = self._proof(number, self.revealed(number, dealt=dealt, in_hand=False,
                                                  over=over))
        assert self.dealer is not None
        salts = self.dealer.seen_salts(number, players, position, board_cards)
        if seating is not None:
            proof = with_roster(proof, seating.order, seating.button, self.humans)
        return with_fair_fields(record, proof, self.table, salts)
