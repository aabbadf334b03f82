"""The verifiable shuffle at a table: a dealer that keeps the secrets, and the adapters between
:mod:`feltro.fairness` and the rest of feltro (a :class:`~feltro.series.Series`' decks, the
cards a :class:`~feltro.hand.Hand` dealt, PHH downloads).

:class:`FairDealer` draws each hand's secret (OS randomness by default), publishes its
commitment, collects the players' contributions until the deal, and hands the series the deck
(``Series(config, seed, deck_source=dealer.deck)``). Afterwards it exports the night
(:meth:`FairDealer.export`) and adds the ``_fair`` field to a player's PHH hands
(:func:`with_fair_fields`); :func:`proofs_from_phh` reads them back for ``feltro verify``.

>>> import random
>>> from feltro.series import Series, SeriesConfig
>>> dealer = FairDealer("demo", secret_source=lambda n: bytes(n))
>>> series = Series(SeriesConfig.with_players(2, max_hands=1), 7, deck_source=dealer.deck)
>>> _ = dealer.commit(1)
>>> dealer.contribute(1, 1, b"from seat 1")
>>> hand = series.next_hand()
>>> dealer.record(1, hand)
>>> from feltro.fairness import read_export, verify_hands
>>> table, proofs, claimed = read_export(dealer.export())
>>> verify_hands(table, proofs, claimed).ok
True
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from feltro.cards import Deck
from feltro.errors import ParseError, SeriesError
from feltro.events import BoardDealt, HoleCardDealt
from feltro.fairness import (
    FairnessFormatError,
    HandProof,
    export_series,
    hex_bytes,
    prepare_hand,
    proof_order,
    unrevealed,
)
from feltro.fairness_scheme import (
    CONTRIBUTION_MAX,
    SCHEME,
    SECRET_SIZE,
    board_indices,
    commitment,
    contribution_commitment,
    genesis,
    hole_indices,
    position_salts,
)
from feltro.hand import Hand
from feltro.history.phh import HandRecord, Verb

if TYPE_CHECKING:
    from feltro.seating import Seating
    from feltro.series import Series

__all__ = [
    "FairDealer",
    "dealt_cards",
    "phh_dealt_cards",
    "proofs_from_phh",
    "sample_night",
    "stand_in_deck_source",
    "with_fair_fields",
    "with_roster",
]

FAIR_FIELD = "_fair"
"""The PHH user field (an inline table) that carries a hand's fairness data."""


def dealt_cards(hand: Hand) -> tuple[tuple[int, int], ...]:
    """``(deck index, card id)`` of every hole and board card *hand* dealt (D4, D5)."""
    players = len(hand.config.stacks)
    seen_holes = [0] * players
    board = board_indices(players)
    street = 0
    out: list[tuple[int, int]] = []
    for event in hand.events:
        if isinstance(event, HoleCardDealt):
            index = hole_indices(players, event.position)[seen_holes[event.position]]
            seen_holes[event.position] += 1
            if event.card is not None:
                out.append((index, int(event.card)))
        elif isinstance(event, BoardDealt):
            for card in event.cards:
                out.append((board[street], int(card)))
                street += 1
    return tuple(sorted(out))


def with_roster(proof: HandProof, order: Sequence[int], button: int,
                asked: Iterable[int] | None = None) -> HandProof:
    """*proof* with what a verifier needs to check the hand alone: the seats in deal order,
    the button, the seats *asked* to contribute, the sealed seats that withheld their value,
    and the seat each hole card went to (D4: hand position ``p`` gets deck positions ``p`` and
    ``n + p``)."""
    players = len(order)
    dealt_to = {index: order[index % players] for index, _ in proof.dealt if index < 2 * players}
    withheld = tuple(sorted(set(proof.sealed) - set(proof.contributions)))
    chosen = None if asked is None else tuple(seat for seat in order if seat in set(asked))
    return replace(proof, seats=tuple(order), button=button, asked=chosen, withheld=withheld,
                   dealt_to=dealt_to)


class FairDealer:
    """Runs commit, mix and reveal for one table; it alone holds the secrets.

    The calls for hand *n*, in order: :meth:`commit` (publish the commitment), any number of
    :meth:`contribute` (before the deal), :meth:`deck` (the deal: the series calls it), then
    :meth:`record` once the hand is over. :meth:`proof` gives what may be published during
    the night (the secret only when asked); :meth:`export` reveals the secrets (by default at
    the end of the series).

    *secret_source(32)* gives each secret: :func:`secrets.token_bytes` unless a test fixes it.
    *hand_secret(n)*, if given, gives hand *n*'s secret instead (a server derives it from its
    sealed series seed, so that a restart deals the same cards and nothing new is stored).
    """

    def __init__(self, table: str, *,
                 secret_source: Callable[[int], bytes] = secrets.token_bytes,
                 hand_secret: Callable[[int], bytes] | None = None) -> None:
        self.table = table
        self._secret_source = secret_source
        self._hand_secret = hand_secret
        self._secrets: dict[int, bytes] = {}
        self._contributions: dict[int, dict[int, bytes]] = {}
        self._sealed: dict[int, dict[int, bytes]] = {}
        self._proofs: dict[int, HandProof] = {}
        self._link = genesis(table)

    def commit(self, hand: int) -> bytes:
        """Draw hand *hand*'s secret (once) and return its commitment, to publish now."""
        if hand in self._proofs:
            raise SeriesError(f"hand {hand} is already dealt")
        if hand not in self._secrets:
            secret = (self._secret_source(SECRET_SIZE) if self._hand_secret is None
                      else self._hand_secret(hand))
            if not isinstance(secret, bytes) or len(secret) != SECRET_SIZE:
                raise ValueError(f"the secret source must give {SECRET_SIZE} bytes")
            self._secrets[hand] = secret
        return commitment(self._secrets[hand])

    def seal(self, hand: int, seat: int, digest: bytes) -> None:
        """Take *seat*'s sealed contribution
        (:func:`~feltro.fairness_scheme.contribution_commitment`) for hand *hand*: after
        :meth:`commit`, before any contribution is revealed. Once a hand has seals, only sealed
        seats may contribute, each exactly what it sealed.

        :raises SeriesError: if the hand has no commitment, is dealt, or reveals have begun.
        :raises ValueError: for a digest that is not 32 bytes, or a second seal.
        """
        self._open(hand)
        if self._contributions.get(hand):
            raise SeriesError(f"hand {hand}: contributions are being revealed; seals are closed")
        if not isinstance(digest, bytes) or len(digest) != 32:
            raise ValueError("a sealed contribution is a 32-byte SHA-256 digest")
        self._check_seat(seat)
        seals = self._sealed.setdefault(hand, {})
        if seat in seals:
            raise ValueError(f"seat {seat} already sealed its contribution to hand {hand}")
        seals[seat] = digest

    def contribute(self, hand: int, seat: int, value: bytes) -> None:
        """Add *seat*'s randomness to hand *hand* (after :meth:`commit`, before the deal).

        :raises SeriesError: if the hand has no commitment yet or is already dealt.
        :raises ValueError: for an empty or too long contribution, a second one, or one that
            is not what the seat sealed.
        """
        self._open(hand)
        if not isinstance(value, bytes) or not 1 <= len(value) <= CONTRIBUTION_MAX:
            raise ValueError(f"a contribution is 1..{CONTRIBUTION_MAX} bytes")
        self._check_seat(seat)
        taken = self._contributions.setdefault(hand, {})
        if seat in taken:
            raise ValueError(f"seat {seat} already contributed to hand {hand}")
        seals = self._sealed.get(hand)
        if seals and seals.get(seat) != contribution_commitment(self.table, hand, seat, value):
            raise ValueError(f"seat {seat}: the contribution is not the one it sealed")
        taken[seat] = value

    def _open(self, hand: int) -> None:
        if hand in self._proofs:
            raise SeriesError(f"hand {hand} is already dealt: its contributions are closed")
        if hand not in self._secrets:
            raise SeriesError(f"hand {hand} has no commitment yet: contributions come after it")

    @staticmethod
    def _check_seat(seat: int) -> None:
        if type(seat) is not int or not 1 <= seat <= 255:
            raise ValueError(f"not a seat: {seat!r}")

    def deck(self, hand: int) -> Deck:
        """Deal hand *hand*: fix the seed, publish the positions, and return the deck.

        :raises SeriesError: if hand *hand* does not follow the last hand dealt.
        """
        expected = len(self._proofs) + 1
        if hand != expected:
            raise SeriesError(f"the fair dealer deals hand {expected} next, not hand {hand}")
        self.commit(hand)
        proof = prepare_hand(self._secrets[hand], self.table, hand,
                             self._contributions.get(hand, {}), self._link,
                             self._sealed.get(hand, {}))
        self._proofs[hand] = proof
        self._link = proof.chain
        return Deck(proof_order(proof))

    def record(self, hand: int, played: Hand, seating: Seating | None = None) -> None:
        """Keep the cards hand *hand* dealt, as the hand recorded them (and with *seating*, its
        seats, button and who got which card: :func:`with_roster`)."""
        proof = self._proofs[hand].with_dealt(dealt_cards(played))
        if seating is not None:
            proof = with_roster(proof, seating.order, seating.button)
        self._proofs[hand] = proof

    def proof(self, hand: int, *, reveal: bool = False) -> HandProof:
        """Hand *hand*'s proof, with the secret only if *reveal*.

        :raises KeyError: if the hand has not been dealt.
        """
        proof = self._proofs[hand]
        return proof if reveal else unrevealed(proof)

    def salts(self, hand: int, indices: Iterable[int]) -> dict[int, bytes]:
        """The salts of deck *indices* of hand *hand*: for the player who sees those cards."""
        seed = self._proofs[hand].seed
        assert seed is not None
        salts = position_salts(seed)
        return {i: salts[i] for i in indices}

    def seen_salts(self, hand: int, players: int, position: int,
                   board_cards: int) -> dict[int, bytes]:
        """The salts of the cards hand *position* saw: its two hole cards and the first
        *board_cards* board cards (what its PHH download carries before the reveal)."""
        indices = [*hole_indices(players, position), *board_indices(players)[:board_cards]]
        return self.salts(hand, indices)

    @property
    def fingerprint_link(self) -> bytes:
        """The last chain link (its :func:`~feltro.fairness_scheme.fingerprint` is the night's)."""
        return self._link

    def export(self, *, reveal: bool = True) -> dict[str, Any]:
        """The series export (``docs/fairness.md``), secrets revealed unless *reveal* is off."""
        proofs = [self.proof(n, reveal=reveal) for n in sorted(self._proofs)]
        return export_series(self.table, proofs)


# --- PHH downloads -----------------------------------------------------------------------------


def with_fair_fields(record: HandRecord, proof: HandProof, table: str,
                     salts: Mapping[int, bytes] | None = None) -> HandRecord:
    """*record* with the ``_fair`` field: the commitments, the chain links, the secret and seed
    if *proof* has them, and *salts* (deck index -> salt) of the cards its player saw."""
    fair: dict[str, Any] = {
        "scheme": SCHEME,
        "table": table,
        "commitment": proof.commitment.hex(),
        "contributions": [f"{seat}:{value.hex()}" for seat, value in
                          proof.contributions.items()],
        "sealed": [f"{seat}:{digest.hex()}" for seat, digest in proof.sealed.items()],
        "positions": [p.hex() for p in proof.positions],
        "previous": (proof.previous or b"").hex(),
        "chain": proof.chain.hex(),
    }
    if proof.secret is not None and proof.seed is not None:
        fair["secret"] = proof.secret.hex()
        fair["seed"] = proof.seed.hex()
    if salts:
        fair["salts"] = [f"{index}:{salt.hex()}" for index, salt in sorted(salts.items())]
    if proof.seats:  # who was dealt in (deal order), the button, asked, withheld
        fair["seats"], fair["button"] = list(proof.seats), proof.button
        for key in ("asked", "withheld"):
            if getattr(proof, key) is not None:
                fair[key] = list(getattr(proof, key))
    return replace(record, user_fields={**record.user_fields, FAIR_FIELD: fair})


def phh_dealt_cards(record: HandRecord) -> tuple[tuple[int, int], ...]:
    """``(deck index, card id)`` of the known cards a PHH hand deals (``??`` skipped): what
    ``feltro verify`` checks in a player's download.

    :raises FairnessFormatError: for an action line that does not parse, or a deal of more
        cards than a hold'em hand has.
    """
    players = record.player_count
    holes = [0] * players
    board = board_indices(players)
    street = 0
    out: list[tuple[int, int]] = []
    try:
        actions = record.parsed_actions()
    except ParseError as exc:
        raise FairnessFormatError(str(exc)) from None
    for line, action in zip(record.actions, actions, strict=True):
        cards = action.cards
        if action.verb is Verb.DEAL_BOARD:
            slots = board[street:street + len(cards)]
            street += len(cards)
            if street > len(board):
                raise FairnessFormatError(f"'{line}': more than five board cards")
        elif action.verb is Verb.DEAL_HOLE:
            position = action.player
            assert position is not None
            first = holes[position]
            holes[position] += len(cards)
            if holes[position] > 2:
                raise FairnessFormatError(f"'{line}': no such hole card")
            slots = hole_indices(players, position)[first:holes[position]]
        else:
            continue
        out.extend((index, int(card)) for index, card in zip(slots, cards, strict=True)
                   if card is not None)
    return tuple(sorted(out))


def _hex_field(fair: Mapping[str, Any], name: str, where: str, size: int | None = 32) -> bytes:
    value = fair.get(name)
    if not isinstance(value, str):
        raise FairnessFormatError(f"{where}: the field {FAIR_FIELD}.{name} is missing")
    return hex_bytes(value, f"{where}: {FAIR_FIELD}.{name}", size)


def _pairs(fair: Mapping[str, Any], name: str, where: str) -> list[tuple[int, bytes]]:
    out: list[tuple[int, bytes]] = []
    for item in fair.get(name, ()):
        key, _, value = str(item).partition(":")
        try:
            out.append((int(key), bytes.fromhex(value)))
        except ValueError:
            raise FairnessFormatError(f"{where}: {FAIR_FIELD}.{name} has a bad entry "
                                      f"{item!r}") from None
    return out


def _seat_list(fair: Mapping[str, Any], key: str, label: str) -> tuple[int, ...] | None:
    value = fair.get(key)
    if value is None:
        return None
    if not isinstance(value, list) or any(type(seat) is not int for seat in value):
        raise FairnessFormatError(f"{label}: {FAIR_FIELD}.{key} is not a list of seats")
    return tuple(value)


def proofs_from_phh(records: Sequence[tuple[str, HandRecord]]) -> tuple[str, list[HandProof]]:
    """``(table, proofs)`` of a player's PHH download, in file order.

    :raises FairnessFormatError: if a hand has no ``_fair`` field, or a malformed one, or the
        hands come from different tables.
    """
    table: str | None = None
    proofs: list[HandProof] = []
    for label, record in records:
        fair = record.user_fields.get(FAIR_FIELD)
        if not isinstance(fair, Mapping):
            raise FairnessFormatError(f"{label}: this hand has no {FAIR_FIELD} field")
        if fair.get("scheme") != SCHEME:
            raise FairnessFormatError(f"{label}: unknown scheme {fair.get('scheme')!r}")
        if not isinstance(fair.get("table"), str) or (table is not None
                                                      and fair["table"] != table):
            raise FairnessFormatError(f"{label}: the hands come from different tables")
        table = fair["table"]
        if not isinstance(record.hand, int):
            raise FairnessFormatError(f"{label}: the hand has no number")
        positions = fair.get("positions")
        if not isinstance(positions, list):
            raise FairnessFormatError(f"{label}: {FAIR_FIELD}.positions is missing")
        contributions = dict(_pairs(fair, "contributions", label))
        dealt = phh_dealt_cards(record)
        roster = {key: _seat_list(fair, key, label) for key in ("seats", "asked", "withheld")}
        seats = roster["seats"] or ()
        players = len(seats)
        proofs.append(HandProof(
            hand=record.hand,
            commitment=_hex_field(fair, "commitment", label),
            contributions=contributions,
            positions=tuple(hex_bytes(p, f"{label}: {FAIR_FIELD}.positions", 32)
                            for p in positions),
            chain=_hex_field(fair, "chain", label),
            previous=_hex_field(fair, "previous", label),
            secret=_hex_field(fair, "secret", label, None) if "secret" in fair else None,
            seed=_hex_field(fair, "seed", label) if "seed" in fair else None,
            dealt=dealt,
            salts=dict(_pairs(fair, "salts", label)),
            sealed=dict(_pairs(fair, "sealed", label)),
            seats=seats,
            button=fair.get("button") if isinstance(fair.get("button"), int) else None,
            asked=roster["asked"],
            withheld=roster["withheld"],
            dealt_to={index: seats[index % players] for index, _ in dealt
                      if index < 2 * players},
        ))
    if table is None:
        raise FairnessFormatError("the file holds no hand")
    return table, proofs


def stand_in_deck_source(dealer: FairDealer,
                         seats: Iterable[int] | Callable[[], Iterable[int]],
                         values: Callable[[int], bytes], *,
                         sealed: bool = True) -> Callable[[int], Deck]:
    """A ``deck_source`` for a table without devices (bots, ``feltro simulate --fair``): before
    each deal every seat of *seats* (or of ``seats()`` at that deal: the seats still dealt in)
    contributes ``values(16)`` (sealed first if *sealed*), standing in for the players'
    devices; then the dealer deals."""
    fixed = None if callable(seats) else tuple(seats)

    def deal(hand: int) -> Deck:
        dealer.commit(hand)
        chosen = fixed if fixed is not None else tuple(seats())  # type: ignore[operator]
        drawn = {seat: values(16) for seat in chosen}
        if sealed:
            for seat, value in drawn.items():
                dealer.seal(hand, seat, contribution_commitment(dealer.table, hand, seat, value))
        for seat, value in drawn.items():
            dealer.contribute(hand, seat, value)
        return dealer.deck(hand)

    return deal


# --- a sample night ----------------------------------------------------------------------------


def sample_night(hands: int, *, players: int = 4, seed: int = 0, table: str = "sample",
                 sealed: bool = True) -> tuple[FairDealer, Series]:
    """A deterministic night of *hands* hands (everybody checks or calls) dealt by a
    :class:`FairDealer` whose secrets and contributions come from ``random.Random(seed)``:
    the fixture of the tests, the benchmark and the examples in ``docs/fairness.md``. Every
    seat but the last contributes (the last is a bot), sealing first if *sealed*. Returns the
    dealer and the series.
    """
    import random

    from feltro.series import Series, SeriesConfig

    rng = random.Random(seed)
    dealer = FairDealer(table, secret_source=rng.randbytes)
    config = SeriesConfig.with_players(players, max_hands=hands, starting_stack=10**9)
    series = Series(config, seed, deck_source=dealer.deck)
    for number in range(1, hands + 1):
        dealer.commit(number)
        values = {seat: rng.randbytes(16) for seat in range(1, players)}
        if sealed:
            for seat, value in values.items():
                dealer.seal(number, seat, contribution_commitment(table, number, seat, value))
        for seat, value in values.items():
            dealer.contribute(number, seat, value)
        hand = series.next_hand()
        assert hand is not None
        while not hand.is_over:
            series.act(hand.legal.passive)
        dealer.record(number, hand, series.seating)
    return dealer, series
