"""Series seeds sealed at rest: a series log alone does not tell its cards.

A series log (:mod:`feltro.series_log`) must keep the series seed, or it could not resume after a
crash with the same cards. Written in clear, anyone who reads the file (a backup, a copied
data folder) could deal every future hand. With a :class:`SeedSeal` the log keeps only the
seed masked by a key held *outside* the data files: ``sealed = seed XOR HMAC-SHA256(key,
"feltro-seal/1" || salt)`` (the first 16 bytes), with a fresh 16-byte salt per series. HMAC is
a pseudo-random function, so without the key the sealed value says nothing about the seed;
with it, the seed comes back exactly. The seal also carries a check value (a second HMAC over
the salt), so a wrong key is told apart from a damaged record.

Pure: the key and the salt are inputs (:func:`new_key` and :func:`new_salt` draw them from
the OS for callers that have none).

>>> seal = SeedSeal(bytes(32))
>>> box = seal.seal(12345, salt=bytes(16))
>>> seal.unseal(box)
12345
>>> SeedSeal(b"\\x01" * 32).unseal(box)
Traceback (most recent call last):
...
feltro.errors.StoreError: this series log was sealed with another key
"""

from __future__ import annotations

import hashlib
import hmac
import os
from collections.abc import Mapping
from typing import Final

from feltro.errors import StoreError

__all__ = ["KEY_BYTES", "SeedSeal", "new_key", "new_salt"]

KEY_BYTES: Final = 32
SEED_BYTES: Final = 16
"""Series seeds are 128-bit integers (:meth:`feltro.series_log.SeriesStore.create`)."""
_DOMAIN: Final = b"feltro-seal/1"


def new_key() -> bytes:
    """A fresh key from the OS's randomness."""
    return os.urandom(KEY_BYTES)


def new_salt() -> bytes:
    """A fresh salt from the OS's randomness."""
    return os.urandom(SEED_BYTES)


class SeedSeal:
    """Seals and unseals series seeds with one key (keep it out of the data folder)."""

    __slots__ = ("_key",)

    def __init__(self, key: bytes) -> None:
        if len(key) != KEY_BYTES:
            raise ValueError(f"a seal key is {KEY_BYTES} bytes, not {len(key)}")
        self._key = key

    def __repr__(self) -> str:
        return "SeedSeal(<key hidden>)"

    def seal(self, seed: int, *, salt: bytes | None = None) -> dict[str, str]:
        """The record of *seed* sealed: ``{"salt", "sealed", "check"}`` in hex."""
        if not 0 <= seed < 1 << (8 * SEED_BYTES):
            raise ValueError(f"a series seed is a {8 * SEED_BYTES}-bit integer")
        salt = new_salt() if salt is None else salt
        mask = self._mask(salt)
        sealed = bytes(a ^ b for a, b in zip(seed.to_bytes(SEED_BYTES, "big"), mask,
                                             strict=True))
        return {"salt": salt.hex(), "sealed": sealed.hex(), "check": self._check(salt).hex()}

    def unseal(self, box: Mapping[str, object]) -> int:
        """The seed of a :meth:`seal` record.

        :raises StoreError: for another key's record, or a damaged one.
        """
        try:
            salt = bytes.fromhex(str(box["salt"]))
            sealed = bytes.fromhex(str(box["sealed"]))
            check = bytes.fromhex(str(box["check"]))
        except (KeyError, ValueError):
            raise StoreError("the sealed series seed is damaged") from None
        if len(sealed) != SEED_BYTES:
            raise StoreError("the sealed series seed is damaged")
        if not hmac.compare_digest(check, self._check(salt)):
            raise StoreError("this series log was sealed with another key")
        mask = self._mask(salt)
        return int.from_bytes(bytes(a ^ b for a, b in zip(sealed, mask, strict=True)), "big")

    def _mask(self, salt: bytes) -> bytes:
        return hmac.new(self._key, _DOMAIN + b"\x00mask" + salt, hashlib.sha256).digest()[
            :SEED_BYTES]

    def _check(self, salt: bytes) -> bytes:
        return hmac.new(self._key, _DOMAIN + b"\x00check" + salt, hashlib.sha256).digest()[:8]
