"""Players' names: how a name is cleaned before anyone sees it, and how two names compare.

One rule for every place a name is matched: a seat request against the names at a table
(:mod:`feltro.server`), a season's players against the names in a series
(:mod:`feltro.season`).

>>> clean_name("  Ana   Rita ")
'Ana Rita'
>>> name_key("ＡＮＡ  rita") == name_key("Ana Rita")
True
"""

from __future__ import annotations

import unicodedata
from typing import Final

__all__ = ["clean_name", "name_key"]

_HIDDEN_CATEGORIES: Final = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})
_BLANKS: Final = frozenset("\u115f\u1160\u3164\uffa0\u2800")
"""Letters and symbols that draw nothing (Hangul fillers, the braille blank)."""


def clean_name(value: str) -> str:
    """A player's or table's name as shown to everyone: NFC, single spaces, no control,
    formatting (bidi overrides, zero-width) or private-use characters, and some visible text.

    :raises ValueError: naming what is wrong (pydantic turns it into an ``invalid`` error).
    """
    text = unicodedata.normalize("NFC", value)
    for char in text:
        if unicodedata.category(char) in _HIDDEN_CATEGORIES or char in _BLANKS:
            raise ValueError(f"names cannot hold the invisible or control character "
                             f"U+{ord(char):04X}")
    text = " ".join(text.split())
    if not any(unicodedata.category(c)[0] in "LNS" for c in text):
        raise ValueError("a name needs at least one visible letter, digit or symbol")
    return text


def name_key(name: str) -> str:
    """The form two names are compared in: compatibility forms folded (NFKC: a fullwidth
    'Ａｎａ' is 'Ana'), case folded, spaces collapsed."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())
