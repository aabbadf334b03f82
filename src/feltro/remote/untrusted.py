"""Everything a server says, treated as a stranger's words: ``feltro join`` may reach any server
(a link from anyone, a device announcing itself on the LAN), so nothing it sends reaches the
terminal or the client's logic unchecked.

* :func:`clean` strips what could drive the terminal or disguise text: control characters
  (ESC starts the OSC and CSI sequences that write the clipboard, set the window title or clear
  the screen), DEL and the C1 controls, bidirectional overrides and isolates, zero-width
  characters; and bounds the length.
* :func:`parse_frame` reads one websocket frame: JSON of bounded size and nesting, an object
  with a ``type``, a ``state`` with its ``you`` and ``table``, and every string in it cleaned.
  Anything else raises :class:`MalformedFrameError` (the client shows one line and reconnects).
"""

from __future__ import annotations

import json
import unicodedata
from typing import Any, Final

from feltro.jsondepth import nesting_depth

__all__ = ["MAX_DEPTH", "MalformedFrameError", "clean", "parse_frame", "scripts_of"]

MAX_DEPTH: Final = 32
"""The deepest nesting of a frame read (the server's own frames nest under 10)."""
MAX_FRAME_CHARS: Final = 4 * 1024 * 1024
MAX_TEXT: Final = 2000
"""The longest string of a frame kept (names are 24 characters; hand texts a few dozen)."""
_INVISIBLE: Final = frozenset(
    "\u200b\u200c\u200d\u200e\u200f\u2060\ufeff\u061c"  # zero-width and direction marks
    "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")  # bidi embeddings and isolates
_UNSHOWN: Final = frozenset({"Cc", "Cs", "Zl", "Zp"})
"""Unicode categories never shown: controls (C0, DEL, C1), lone surrogates, line and paragraph
separators."""


class MalformedFrameError(ValueError):
    """A frame that is not what a feltro server sends; :attr:`what` says how (for the log)."""

    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.what = what


def clean(value: object, limit: int = MAX_TEXT) -> str:
    """*value* as text a terminal shows as it is: no control, bidi or zero-width character,
    at most *limit* characters.

    >>> clean("Ana\\x1b]52;c;ZXZpbA==\\x07")
    'Ana]52;c;ZXZpbA=='
    >>> clean("\\u202eanA")
    'anA'
    """
    text = value if isinstance(value, str) else str(value)
    kept = [ch for ch in text
            if ch not in _INVISIBLE and unicodedata.category(ch) not in _UNSHOWN]
    return "".join(kept)[:limit]


def scripts_of(name: str) -> set[str]:
    """The scripts of *name*'s letters (``LATIN``, ``CYRILLIC``, ``GREEK``...), from their
    Unicode names; more than one is how look-alike names are made."""
    scripts: set[str] = set()
    for ch in name:
        if ch.isalpha():
            scripts.add(unicodedata.name(ch, "UNKNOWN").split(" ")[0])
    return scripts


def _cleaned(value: Any) -> Any:
    if isinstance(value, str):
        return clean(value)
    if isinstance(value, list):
        return [_cleaned(item) for item in value]
    if isinstance(value, dict):
        return {clean(key, 64): _cleaned(item) for key, item in value.items()}
    return value


def parse_frame(text: str | bytes) -> dict[str, Any]:
    """One server frame, checked and cleaned (see the module docstring).

    :raises MalformedFrameError: if it is not a frame a feltro server sends.
    """
    if isinstance(text, bytes):
        raise MalformedFrameError("a binary frame")
    if len(text) > MAX_FRAME_CHARS:
        raise MalformedFrameError("a frame too long")
    if nesting_depth(text) > MAX_DEPTH:
        raise MalformedFrameError("a frame nested too deep")
    try:
        frame = json.loads(text)
    except (ValueError, RecursionError):
        raise MalformedFrameError("not JSON") from None
    if not isinstance(frame, dict) or not isinstance(frame.get("type"), str):
        raise MalformedFrameError("not a JSON object with a type")
    if frame["type"] == "state":
        if not isinstance(frame.get("you"), dict) or not isinstance(frame.get("table"), dict):
            raise MalformedFrameError("a state without you or table")
        if not isinstance(frame["table"].get("status"), str):
            raise MalformedFrameError("a state without the table's status")
        if not isinstance(frame.get("version", 0), int):
            raise MalformedFrameError("a state without a version number")
    cleaned: dict[str, Any] = _cleaned(frame)
    return cleaned
