"""A verifiable shuffle: commit, mix, reveal (scheme ``feltro-fair/1``, ``docs/fairness.md``).

For every hand the server draws a 32-byte secret ``S`` and publishes its *commitment*
``C = SHA-256(msg("commit", S))`` before anything else. Each human player's device then seals
and, once every seal is in, reveals a *contribution* (1..64 fresh random bytes). The seed is
``HMAC-SHA256(S, msg("seed", table, hand, seat, value, seat, value, ...))`` with the
contributions in seat order, and the deck is a Fisher–Yates shuffle of the card ids 0..51
driven by an HMAC-SHA256 counter-mode byte stream keyed with the seed, with rejection sampling
(no modulo bias). At the deal the table publishes a salted hash of every deck position (salts
from HKDF-SHA256 of the seed), so each player can check their own cards and every board card
the moment they see them; the hands form a hash chain whose last link gives the night's
*fingerprint*, a short code friends compare on their screens. At the end the secrets are
revealed and anyone can re-derive everything (:func:`verify_hands`; the browser does it again
in ``static/js/verify.js``).

``msg(tag, f1, ...)`` frames ``"feltro-fair/1 " + tag`` and every field, each with a 4-byte
length; ``docs/fairness.md`` is the specification, with test vectors. This module is pure:
no randomness of its own (the secret and contributions are inputs), no clock, no I/O. The hash
construction is :mod:`feltro.fairness_scheme`; this module builds each hand's
proof on it, verifies proofs and reads and writes the series export. Card ids are feltro's
(:mod:`feltro.cards`: ``rank * 4 + suit``, ranks 2..A, suits c d h s; ``"As"`` is 51).

>>> secret = bytes(range(32))
>>> proof = prepare_hand(secret, "t", 1, {3: b"ab"}, genesis("t"))
>>> verify_hands("t", [proof]).ok
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from types import MappingProxyType
from typing import Any

from feltro.cards import CARD_TEXT, exact_card
from feltro.fairness_scheme import (
    DECK_SIZE,
    SCHEME,
    SECRET_SIZE,
    board_indices,
    chain_link,
    commitment,
    contribution_commitment,
    deal_commitment,
    deck_order,
    deck_seed,
    fingerprint,
    genesis,
    hole_indices,
    position_commitment,
    position_commitments,
    position_salts,
)

__all__ = [
    "EXPORT_FORMAT",
    "Check",
    "Failure",
    "FairnessFormatError",
    "HandProof",
    "Verdict",
    "card_id",
    "card_text",
    "export_series",
    "hex_bytes",
    "prepare_hand",
    "proof_from_dict",
    "proof_order",
    "proof_to_dict",
    "read_export",
    "unrevealed",
    "verify_hands",
]

EXPORT_FORMAT = "feltro-fair-export/1"
"""The ``format`` of a series export (:func:`export_series`)."""


# --- cards ------------------------------------------------------------------------------------


def card_text(card: int) -> str:
    """``'As'`` for id 51 (feltro's one card spelling, :data:`feltro.cards.CARD_TEXT`)."""
    return CARD_TEXT[card]


def card_id(text: str) -> int:
    """51 for ``'As'``.

    :raises FairnessFormatError: for anything but a two-character card.
    """
    card = exact_card(text) if isinstance(text, str) else None
    if card is None:
        raise FairnessFormatError(f"not a card: {text!r}")
    return int(card)


# --- one hand's proof -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HandProof:
    """Everything published about one hand's deck, in the order it becomes public.

    Before the contributions: :attr:`commitment` (then the :attr:`sealed` contributions, if
    sealed). At the deal: :attr:`contributions`, :attr:`positions`, :attr:`chain`. During the
    hand, to whoever sees card i: ``salts[i]``. After the hand: :attr:`dealt` (the cards as the
    hand recorded them). At the reveal: :attr:`secret`, :attr:`seed` and :attr:`deck`.
    """

    hand: int
    commitment: bytes
    contributions: Mapping[int, bytes]
    positions: tuple[bytes, ...]
    chain: bytes
    secret: bytes | None = None
    seed: bytes | None = None
    dealt: tuple[tuple[int, int], ...] = ()
    """``(deck index, card id)`` of every card the hand showed anyone (hole and board cards)."""
    salts: Mapping[int, bytes] = field(default_factory=dict)
    """Deck index -> salt, for the cards a player saw (a PHH download before the reveal)."""
    sealed: Mapping[int, bytes] = field(default_factory=dict)
    """Seat -> :func:`contribution_commitment`, when the contributions were sealed first."""
    deck: tuple[int, ...] | None = None
    """The whole deck, top first, as the dealer dealt it: published with the secret."""
    previous: bytes | None = None
    """The chain link before this hand: needed by a player's download, which may skip hands;
    optional in a series export, where the previous hand gives it (and must agree)."""
    seats: tuple[int, ...] = ()
    """The seats dealt in, in deal order (``seats[p]`` is hand position ``p``, D4)."""
    button: int | None = None
    """The button's seat."""
    asked: tuple[int, ...] | None = None
    """The seats whose devices were asked to contribute (the humans playing)."""
    withheld: tuple[int, ...] | None = None
    """The sealed seats whose value did not come, as the table named them."""
    dealt_to: Mapping[int, int] = field(default_factory=dict)
    """Deck index -> the seat a hole card went to (board cards are not in it)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "contributions",
                           MappingProxyType(dict(sorted(self.contributions.items()))))
        object.__setattr__(self, "salts", MappingProxyType(dict(self.salts)))
        object.__setattr__(self, "sealed", MappingProxyType(dict(sorted(self.sealed.items()))))

    @property
    def deal(self) -> bytes:
        """``D``, the deal commitment."""
        return deal_commitment(self.positions)

    def with_dealt(self, dealt: Iterable[tuple[int, int]]) -> HandProof:
        """This proof with the cards the hand dealt, by deck index."""
        return replace(self, dealt=tuple(sorted(dealt)))


def prepare_hand(secret: bytes, table: str, hand: int, contributions: Mapping[int, bytes],
                 previous: bytes, sealed: Mapping[int, bytes] | None = None) -> HandProof:
    """The proof of hand *hand* at the deal, secret and seed included: publish
    :func:`unrevealed` of it until the reveal, and deal :func:`proof_order` of it.

    :raises ValueError: for a bad secret or contribution.
    """
    seed = deck_seed(secret, table, hand, contributions)
    positions = position_commitments(seed, deck_order(seed))
    commit = commitment(secret)
    link = chain_link(previous, hand, commit, contributions, deal_commitment(positions))
    return HandProof(hand=hand, commitment=commit, contributions=contributions,
                     positions=positions, chain=link, secret=secret, seed=seed,
                     previous=previous, sealed=sealed or {}, deck=deck_order(seed))


def proof_order(proof: HandProof) -> tuple[int, ...]:
    """The deck of a proof whose seed is known (the dealer's, or after the reveal).

    :raises ValueError: if the seed is not revealed.
    """
    if proof.seed is None:
        raise ValueError(f"hand {proof.hand}: the deck is unknown until the secret is revealed")
    return deck_order(proof.seed)


def unrevealed(proof: HandProof) -> HandProof:
    """The public proof before the reveal: no secret, no seed."""
    return replace(proof, secret=None, seed=None, deck=None)


# --- verification -----------------------------------------------------------------------------


class Check(StrEnum):
    """What a verification found wrong (the first failure names one)."""

    FORMAT = "format"
    """The file is not an export, or a field is missing or malformed."""
    ORDER = "order"
    """Hands are missing, repeated or out of order."""
    CONTRIBUTION = "contribution"
    """A contribution is empty, too long, on a bad seat, or not the one its seat sealed."""
    SECRET = "secret"
    """The secret is not revealed (the hand cannot be checked yet)."""
    COMMITMENT = "commitment"
    """The revealed secret does not match the commitment published before the hand."""
    SEED = "seed"
    """The deck seed does not follow from the secret, the contributions, table and hand."""
    POSITION = "position"
    """A published position commitment does not match the deck the seed gives."""
    CARD = "card"
    """A card the hand dealt is not the card committed at its deck position."""
    CHAIN = "chain"
    """A chain link does not follow from the previous one and this hand's commitments."""
    FINGERPRINT = "fingerprint"
    """The night's fingerprint does not match the last link."""


@dataclass(frozen=True, slots=True)
class Failure:
    """The first thing that failed: in which hand (``None`` for the whole file) and what."""

    check: Check
    hand: int | None
    detail: str
    """An English explanation (the interfaces translate by :attr:`check`)."""
    why: str = ""
    """What exactly, as data for the interfaces to word: a short code (``"dealt_card"``)..."""
    params: Mapping[str, int | str] = field(default_factory=dict)
    """...and its numbers and cards (``{"card": "As", "position": 7, "deck_card": "2c"}``)."""

    def __str__(self) -> str:
        where = f"hand {self.hand}" if self.hand is not None else "the export"
        return f"{where}: {self.check.value}: {self.detail}"


@dataclass(frozen=True, slots=True)
class Verdict:
    """The result of :func:`verify_hands`."""

    hands: int
    """Hands in the file."""
    fingerprint: str | None
    """The fingerprint of the last link (``None`` when there are no hands)."""
    failure: Failure | None = None

    @property
    def ok(self) -> bool:
        """Whether every hand verified."""
        return self.failure is None


def _check_hand(table: str, proof: HandProof, previous: bytes) -> Failure | None:
    """The first check *proof* fails, in the order the documentation lists them."""
    if len(proof.positions) != DECK_SIZE or any(len(p) != 32 for p in proof.positions):
        return Failure(Check.FORMAT, proof.hand, f"a hand publishes {DECK_SIZE} position "
                                                 f"commitments of 32 bytes", "positions",
                       {"count": DECK_SIZE, "size": 32})
    try:
        link = chain_link(previous, proof.hand, proof.commitment, proof.contributions,
                          proof.deal)
    except ValueError as exc:
        return Failure(Check.CONTRIBUTION, proof.hand, str(exc))
    for stage in (_roster_problem, _contributions_problem, _seen_cards_problem,
                  _secret_problem):
        found = stage(table, proof)
        if found is not None:
            return found
    if link != proof.chain:
        return Failure(Check.CHAIN, proof.hand, "the chain link does not follow from the "
                                                "previous hand and this hand's commitments")
    return None


_Problem = Failure | None


def _roster_problem(table: str, proof: HandProof) -> _Problem:
    """With the hand's seats: every seal and value from a seat in the hand, every sealed seat
    without a value named, every card dealt from the position the rule gives it (D4, D5)."""
    seats, hand = proof.seats, proof.hand
    if not seats:
        return None
    for seat in sorted({*proof.sealed, *proof.contributions, *(proof.withheld or ())}):
        if seat not in seats:
            return Failure(Check.CONTRIBUTION, hand, f"seat {seat} is not in the hand",
                           "not_in_hand", {"seat": seat})
    named, withheld = set(proof.withheld or ()), set(proof.sealed) - set(proof.contributions)
    if named != withheld:
        seat = min(named ^ withheld)
        return Failure(Check.CONTRIBUTION, hand, f"seat {seat}: a sealed seat without a value "
                       "must be named as having withheld it, and only such a seat",
                       "withheld", {"seat": seat})
    players = len(seats)
    for index, card in proof.dealt:
        to = proof.dealt_to.get(index)
        rule = (board_indices(players) if to is None or to not in seats
                else hole_indices(players, seats.index(to)))
        if index not in rule:
            return Failure(Check.CARD, hand, f"{card_text(card)} was dealt from deck position "
                           f"{index}, which the dealing rule (D4, D5) does not give it",
                           "off_position", {"card": card_text(card), "position": index})
    return None


def _contributions_problem(table: str, proof: HandProof) -> _Problem:
    """Seals name real seats; each sealed contribution is the one sealed."""
    if any(type(seat) is not int or not 1 <= seat <= 255 for seat in proof.sealed):
        return Failure(Check.CONTRIBUTION, proof.hand, "a seal names a seat outside 1..255")
    for seat, value in proof.contributions.items():
        if proof.sealed and seat not in proof.sealed:
            return Failure(Check.CONTRIBUTION, proof.hand,
                           f"seat {seat} contributed without sealing first")
        if seat in proof.sealed and \
                contribution_commitment(table, proof.hand, seat, value) != proof.sealed[seat]:
            return Failure(Check.CONTRIBUTION, proof.hand,
                           f"seat {seat}'s contribution is not the one it sealed")
    return None


def _seen_cards_problem(table: str, proof: HandProof) -> _Problem:
    """The cards the players saw, against the positions (possible without the secret)."""
    for index, salt in sorted(proof.salts.items()):
        seen = dict(proof.dealt).get(index)
        if seen is not None and 0 <= index < DECK_SIZE and \
                position_commitment(salt, index, seen) != proof.positions[index]:
            return Failure(Check.CARD, proof.hand, f"{card_text(seen)} at deck position "
                           f"{index} is not the card committed there", "seen_card",
                           {"card": card_text(seen), "position": index})
    return None


def _secret_problem(table: str, proof: HandProof) -> _Problem:
    """The revealed secret: its commitment, the seed, the deck, every position and card."""
    if proof.secret is None:
        return Failure(Check.SECRET, proof.hand, "the server secret of this hand is not "
                                                 "revealed")
    if len(proof.secret) != SECRET_SIZE or commitment(proof.secret) != proof.commitment:
        return Failure(Check.COMMITMENT, proof.hand, "the revealed secret does not match the "
                                                     "commitment published before the hand")
    seed = deck_seed(proof.secret, table, proof.hand, proof.contributions)
    if proof.seed is not None and proof.seed != seed:
        return Failure(Check.SEED, proof.hand, "the deck seed does not follow from the secret "
                                               "and the players' contributions")
    order = deck_order(seed)
    salts = position_salts(seed)
    for index, card in enumerate(order):
        if position_commitment(salts[index], index, card) != proof.positions[index]:
            return Failure(Check.POSITION, proof.hand, f"the commitment of deck position "
                           f"{index} does not match the shuffled deck", "position",
                           {"position": index})
    if proof.deck is not None and proof.deck != order:
        first = next(i for i in range(DECK_SIZE)
                     if i >= len(proof.deck) or proof.deck[i] != order[i])
        return Failure(Check.CARD, proof.hand, f"the published deck differs from the "
                       f"shuffled deck at position {first}", "deck", {"position": first})
    for index, card in proof.dealt:
        if not 0 <= index < DECK_SIZE or order[index] != card:
            deck_card = card_text(order[index % DECK_SIZE])
            return Failure(Check.CARD, proof.hand, f"{card_text(card)} was dealt at deck "
                           f"position {index}, where the deck has {deck_card}", "dealt_card",
                           {"card": card_text(card), "position": index, "deck_card": deck_card})
    return None


def verify_hands(table: str, proofs: Sequence[HandProof], claimed: str | None = None, *,
                 gaps: bool = False, export: bool = False) -> Verdict:
    """Check every hand: numbering, seats, commitments, seeds, deck positions, dealt cards,
    the chain, and (if *claimed*) the fingerprint. Stops at the first failure.

    Hands are numbered 1, 2, 3... with no gap from :func:`genesis`: an export holds every hand
    dealt, a player's download hands 1 to the one they went out in. With *gaps* (older files)
    the numbers need only increase, and a hand that does not follow the one before starts
    from its own :attr:`HandProof.previous` link. With *export*, zero hands, no fingerprint
    and a hand without its seats fail too."""
    if export and not proofs:
        return Verdict(0, None, Failure(Check.ORDER, None, "the export holds no hand",
                                        "no_hands"))
    if export and claimed is None:
        return Verdict(len(proofs), None, Failure(
            Check.FINGERPRINT, None, "the export claims no fingerprint", "no_fingerprint"))
    missing = next((p.hand for p in proofs if export and not p.seats), None)
    if missing is not None:
        return Verdict(len(proofs), None, Failure(Check.FORMAT, missing, "the hand does not "
                                                  "say which seats were dealt in", "no_seats"))
    link = genesis(table)
    expected = 1
    for proof in proofs:
        if proof.hand != expected and not (gaps and proof.hand > expected):
            return Verdict(len(proofs), None, Failure(
                Check.ORDER, proof.hand, f"hand {expected} was expected here", "expected",
                {"hand": expected}))
        if proof.hand != expected:
            if proof.previous is None:
                return Verdict(len(proofs), None, Failure(
                    Check.FORMAT, proof.hand, "the link before this hand is missing",
                    "no_previous"))
            link = proof.previous
        elif proof.previous is not None and proof.previous != link:
            return Verdict(len(proofs), None, Failure(
                Check.CHAIN, proof.hand, "the link before this hand is not the previous "
                                         "hand's link"))
        failure = _check_hand(table, proof, link)
        if failure is not None:
            return Verdict(len(proofs), None, failure)
        link = proof.chain
        expected = proof.hand + 1
    code = fingerprint(link) if proofs else None
    if claimed is not None and claimed != code:
        return Verdict(len(proofs), code, Failure(
            Check.FINGERPRINT, None, f"the export claims {claimed}, the chain gives {code}",
            "fingerprint", {"claimed": claimed, "computed": str(code)}))
    return Verdict(len(proofs), code)


# --- the series export ------------------------------------------------------------------------


class FairnessFormatError(ValueError):
    """An export (or PHH fairness field) that cannot be read; the message says what is wrong."""


def proof_to_dict(proof: HandProof) -> dict[str, Any]:
    """One hand of the export (see ``docs/fairness.md``)."""
    data: dict[str, Any] = {
        "hand": proof.hand,
        "commitment": proof.commitment.hex(),
        "contributions": [{"seat": seat, "value": value.hex()}
                          for seat, value in proof.contributions.items()],
        "sealed": [{"seat": seat, "commitment": digest.hex()}
                   for seat, digest in proof.sealed.items()],
        "positions": [p.hex() for p in proof.positions],
        "chain": proof.chain.hex(),
        "previous": None if proof.previous is None else proof.previous.hex(),
        "secret": None if proof.secret is None else proof.secret.hex(),
        "seed": None if proof.seed is None else proof.seed.hex(),
        "deck": None if proof.deck is None else [card_text(c) for c in proof.deck],
        "dealt": [{"position": index, "card": card_text(card),
                   "seat": proof.dealt_to.get(index)} for index, card in proof.dealt],
        "seats": list(proof.seats),
        "button": proof.button,
        "asked": None if proof.asked is None else list(proof.asked),
        "withheld": None if proof.withheld is None else list(proof.withheld),
    }
    if proof.salts:
        data["salts"] = [{"position": index, "salt": salt.hex()}
                         for index, salt in sorted(proof.salts.items())]
    return data


def export_series(table: str, proofs: Sequence[HandProof]) -> dict[str, Any]:
    """The JSON-ready series export: what anyone needs to verify the night."""
    last = proofs[-1].chain if proofs else genesis(table)
    return {
        "format": EXPORT_FORMAT,
        "scheme": SCHEME,
        "table": table,
        "fingerprint": fingerprint(last) if proofs else None,
        "hands": [proof_to_dict(p) for p in proofs],
    }


def hex_bytes(value: Any, where: str, size: int | None = None) -> bytes:
    """The bytes of the hexadecimal text *value* (exactly *size* of them when given).
    :raises FairnessFormatError: naming *where*, if *value* is not such text."""
    if not isinstance(value, str):
        raise FairnessFormatError(f"{where}: expected hexadecimal text, got {value!r}")
    try:
        data = bytes.fromhex(value)
    except ValueError:
        raise FairnessFormatError(f"{where}: not hexadecimal: {value[:20]!r}") from None
    if size is not None and len(data) != size:
        raise FairnessFormatError(f"{where}: expected {size} bytes, got {len(data)}")
    return data


def _int(value: Any, where: str) -> int:
    if type(value) is not int:
        raise FairnessFormatError(f"{where}: expected an integer, got {value!r}")
    return value


def proof_from_dict(data: Any, where: str = "hand") -> HandProof:
    """Inverse of :func:`proof_to_dict`.

    :raises FairnessFormatError: naming the bad field.
    """
    if not isinstance(data, dict):
        raise FairnessFormatError(f"{where}: not an object")
    try:
        hand = _int(data["hand"], f"{where}.hand")
        if not 1 <= hand < 2**63:
            raise FairnessFormatError(f"{where}: a hand number is a positive integer")
        where = f"hand {hand}"
        contributions: dict[int, bytes] = {}
        for item in data["contributions"]:
            seat = _int(item["seat"], f"{where}.contributions.seat")
            if seat in contributions:
                raise FairnessFormatError(f"{where}: seat {seat} contributes twice")
            contributions[seat] = hex_bytes(item["value"], f"{where}.contributions.value")
        sealed: dict[int, bytes] = {}
        for item in data.get("sealed") or ():
            seat = _int(item["seat"], f"{where}.sealed.seat")
            if seat in sealed:
                raise FairnessFormatError(f"{where}: seat {seat} seals twice")
            sealed[seat] = hex_bytes(item["commitment"], f"{where}.sealed.commitment", 32)
        positions = tuple(hex_bytes(p, f"{where}.positions", 32) for p in data["positions"])
        secret = data.get("secret")
        seed = data.get("seed")
        previous = data.get("previous")
        dealt = tuple((_int(d["position"], f"{where}.dealt.position"), card_id(d["card"]))
                      for d in data.get("dealt", ()))
        dealt_to = {_int(d["position"], f"{where}.dealt.position"):
                    _int(d["seat"], f"{where}.dealt.seat")
                    for d in data.get("dealt", ()) if d.get("seat") is not None}
        roster = {key: None if data.get(key) is None else
                  tuple(_int(seat, f"{where}.{key}") for seat in data[key])
                  for key in ("seats", "asked", "withheld")}
        button = data.get("button")
        deck = data.get("deck")
        if deck is not None:
            deck = tuple(card_id(c) for c in deck)
            if sorted(deck) != list(range(DECK_SIZE)):
                raise FairnessFormatError(f"{where}: the deck is not the 52 cards once each")
        salts = {_int(s["position"], f"{where}.salts.position"):
                 hex_bytes(s["salt"], f"{where}.salts.salt", 32) for s in data.get("salts", ())}
        return HandProof(
            hand=hand,
            commitment=hex_bytes(data["commitment"], f"{where}.commitment", 32),
            contributions=contributions,
            positions=positions,
            chain=hex_bytes(data["chain"], f"{where}.chain", 32),
            secret=None if secret is None else hex_bytes(secret, f"{where}.secret"),
            seed=None if seed is None else hex_bytes(seed, f"{where}.seed", 32),
            dealt=dealt,
            salts=salts,
            sealed=sealed,
            deck=deck,
            previous=None if previous is None else hex_bytes(previous, f"{where}.previous", 32),
            seats=roster["seats"] or (),
            button=None if button is None else _int(button, f"{where}.button"),
            asked=roster["asked"],
            withheld=roster["withheld"],
            dealt_to=dealt_to,
        )
    except KeyError as exc:
        raise FairnessFormatError(f"{where}: the field {exc.args[0]!r} is missing") from None
    except (TypeError, AttributeError):
        raise FairnessFormatError(f"{where}: a field has the wrong shape") from None


def read_export(data: Any) -> tuple[str, list[HandProof], str | None]:
    """``(table, proofs, claimed fingerprint)`` of a parsed export.

    :raises FairnessFormatError: if it is not a ``feltro-fair-export/1`` export.
    """
    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
        raise FairnessFormatError(f"not a fairness export (format {EXPORT_FORMAT!r} expected)")
    if data.get("scheme") != SCHEME:
        raise FairnessFormatError(f"unknown scheme {data.get('scheme')!r}; this verifier "
                                  f"knows {SCHEME}")
    table = data.get("table")
    if not isinstance(table, str):
        raise FairnessFormatError("the export names no table")
    hands = data.get("hands")
    if not isinstance(hands, list):
        raise FairnessFormatError("the export has no list of hands")
    claimed = data.get("fingerprint")
    if claimed is not None and not isinstance(claimed, str):
        raise FairnessFormatError("the fingerprint is not text")
    return table, [proof_from_dict(h, f"hands[{i}]") for i, h in enumerate(hands)], claimed
