"""The hash construction of the verifiable shuffle ``feltro-fair/1`` (``docs/fairness.md``):
the message framing, commitments, the deck seed and its shuffle, the position salts and
commitments, the hand chain and the night's fingerprint.

Pure and standard library only (``hashlib``, ``hmac``). :mod:`feltro.fairness` builds each
hand's proof and the verifier on it, and re-exports every name here: import from there.

>>> deck_order(bytes(32))[:4], fingerprint(genesis("t"))
((23, 19, 11, 50), 'DD53-P1KA')
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator, Mapping, Sequence

__all__ = [
    "CONTRIBUTION_MAX",
    "DECK_SIZE",
    "FINGERPRINT_ALPHABET",
    "SCHEME",
    "SECRET_SIZE",
    "board_indices",
    "card_matches",
    "chain_link",
    "commitment",
    "contribution_commitment",
    "deal_commitment",
    "deck_order",
    "deck_seed",
    "fingerprint",
    "genesis",
    "hkdf_sha256",
    "hole_indices",
    "message",
    "position_commitment",
    "position_commitments",
    "position_salt",
    "position_salts",
    "stream",
]

SCHEME = "feltro-fair/1"
"""The name of this construction; every domain tag starts with it."""
SECRET_SIZE = 32
CONTRIBUTION_MAX = 64
DECK_SIZE = 52
FINGERPRINT_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
"""Crockford's base 32: no I, L, O or U, so a code read aloud is not misheard."""


# --- the encoding -----------------------------------------------------------------------------


def _frame(data: bytes) -> bytes:
    return len(data).to_bytes(4, "big") + data


def message(tag: str, *fields: bytes) -> bytes:
    """``frame("feltro-fair/1 " + tag) || frame(f1) || ...``: each part as a 4-byte big-endian
    length, then its bytes."""
    return _frame(f"{SCHEME} {tag}".encode()) + b"".join(_frame(f) for f in fields)


def _u8(value: int) -> bytes:
    return value.to_bytes(1, "big")


def _u32(value: int) -> bytes:
    return value.to_bytes(4, "big")


def _u64(value: int) -> bytes:
    return value.to_bytes(8, "big")


def _hmac(key: bytes, data: bytes) -> bytes:
    return hmac.new(key, data, hashlib.sha256).digest()


def _sha(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()

# --- the construction -------------------------------------------------------------------------


def commitment(secret: bytes) -> bytes:
    """``C = SHA-256(msg("commit", S))``, published before the contributions."""
    return _sha(message("commit", secret))


def _checked_contributions(contributions: Mapping[int, bytes]) -> list[tuple[int, bytes]]:
    ordered = sorted(contributions.items())
    for seat, value in ordered:
        if type(seat) is not int or not 1 <= seat <= 255:
            raise ValueError(f"a contribution's seat must be an integer in 1..255, got {seat!r}")
        if not isinstance(value, bytes) or not 1 <= len(value) <= CONTRIBUTION_MAX:
            raise ValueError(f"seat {seat}: a contribution is 1..{CONTRIBUTION_MAX} bytes")
    return ordered


def deck_seed(secret: bytes, table: str, hand: int, contributions: Mapping[int, bytes]) -> bytes:
    """``HMAC-SHA256(S, msg("seed", table, u64(hand), u8(seat), value, ...))``, seats ascending.

    :raises ValueError: for a secret that is not 32 bytes or a bad contribution.
    """
    if not isinstance(secret, bytes) or len(secret) != SECRET_SIZE:
        raise ValueError(f"the server secret is {SECRET_SIZE} bytes")
    fields: list[bytes] = [table.encode(), _u64(hand)]
    for seat, value in _checked_contributions(contributions):
        fields += [_u8(seat), value]
    return _hmac(secret, message("seed", *fields))


def stream(seed: bytes) -> Iterator[int]:
    """The deck's bytes: ``HMAC-SHA256(seed, msg("stream", u32(j)))`` for j = 0, 1, 2..."""
    block = 0
    while True:
        yield from _hmac(seed, message("stream", _u32(block)))
        block += 1


def deck_order(seed: bytes) -> tuple[int, ...]:
    """The 52 card ids top first: Fisher–Yates from the end, each index drawn without bias.

    Start from ids ``0..51``; for ``i`` from 51 down to 1, with ``n = i + 1``, take stream bytes
    until one is below ``256 - 256 % n`` and let ``j = byte % n``; swap positions ``i``, ``j``.
    """
    deck = list(range(DECK_SIZE))
    source = stream(seed)
    for i in range(DECK_SIZE - 1, 0, -1):
        n = i + 1
        limit = 256 - 256 % n
        byte = next(source)
        while byte >= limit:
            byte = next(source)
        j = byte % n
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(deck)


def hkdf_sha256(key: bytes, info: bytes, length: int) -> bytes:
    """HKDF-SHA256 (RFC 5869) with a salt of 32 zero bytes: extract, then expand to *length*
    bytes (at most 8160)."""
    prk = _hmac(bytes(32), key)
    out, block, counter = b"", b"", 1
    while len(out) < length:
        block = _hmac(prk, block + info + _u8(counter))
        out += block
        counter += 1
    return out[:length]


def position_salts(seed: bytes) -> tuple[bytes, ...]:
    """The 52 salts: ``HKDF-SHA256(seed, info=msg("salts"))``, 52 * 32 bytes cut in order.
    ``salt_i`` is given to whoever sees the card at deck position *i*."""
    data = hkdf_sha256(seed, message("salts"), 32 * DECK_SIZE)
    return tuple(data[32 * i:32 * i + 32] for i in range(DECK_SIZE))


def position_salt(seed: bytes, index: int) -> bytes:
    """``salt_i`` alone (see :func:`position_salts`)."""
    return position_salts(seed)[index]


def position_commitment(salt: bytes, index: int, card: int) -> bytes:
    """``P_i = SHA-256(msg("position", salt_i, u8(i), u8(card)))``."""
    return _sha(message("position", salt, _u8(index), _u8(card)))


def position_commitments(seed: bytes, order: Sequence[int]) -> tuple[bytes, ...]:
    """Every ``P_i`` of the deck *order* (52 hashes, published at the deal)."""
    salts = position_salts(seed)
    return tuple(position_commitment(salts[i], i, card) for i, card in enumerate(order))


def card_matches(position: bytes, salt: bytes, index: int, card: int) -> bool:
    """Whether *card*, seen at deck *index* with its *salt*, is the card committed there: the
    check a player's client makes the moment it sees a card (its own, or the board's)."""
    return 0 <= index < DECK_SIZE and position_commitment(salt, index, card) == position


def deal_commitment(positions: Sequence[bytes]) -> bytes:
    """``D = SHA-256(msg("deal", P_0, ..., P_51))``: the whole deck in one hash."""
    return _sha(message("deal", *positions))


def genesis(table: str) -> bytes:
    """The link before hand 1: ``SHA-256(msg("genesis", table))``."""
    return _sha(message("genesis", table.encode()))


def contribution_commitment(table: str, hand: int, seat: int, value: bytes) -> bytes:
    """``SHA-256(msg("contribution", table, u64(hand), u8(seat), value))``: a contribution
    *sealed* before any is revealed, so that nobody (the host's own seat included) can choose
    theirs after seeing the others'."""
    return _sha(message("contribution", table.encode(), _u64(hand), _u8(seat), value))


def chain_link(previous: bytes, hand: int, commit: bytes, contributions: Mapping[int, bytes],
               deal: bytes) -> bytes:
    """``L_k = SHA-256(msg("chain", L_(k-1), u64(k), C, D, u8(seat), value, ...))``."""
    fields = [previous, _u64(hand), commit, deal]
    for seat, value in _checked_contributions(contributions):
        fields += [_u8(seat), value]
    return _sha(message("chain", *fields))


def fingerprint(link: bytes) -> str:
    """The night's code: the first 40 bits of the last link in Crockford base 32, ``XXXX-XXXX``.
    """
    value = int.from_bytes(link[:5], "big")
    chars = [FINGERPRINT_ALPHABET[(value >> (35 - 5 * k)) & 31] for k in range(8)]
    return "".join(chars[:4]) + "-" + "".join(chars[4:])


def hole_indices(players: int, position: int) -> tuple[int, int]:
    """The deck indices of the hole cards of hand *position* (D4: one round, then another)."""
    return position, players + position


def board_indices(players: int) -> tuple[int, int, int, int, int]:
    """The deck indices of the flop, turn and river (D5: a burn before each street)."""
    top = 2 * players
    return top + 1, top + 2, top + 3, top + 5, top + 7
