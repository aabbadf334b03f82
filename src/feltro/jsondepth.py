"""How deeply a JSON text nests, read before parsing it.

``json.loads`` recurses once per level of arrays and objects, so a frame of a few thousand ``[``
would end in a ``RecursionError``: both sides of the websocket (the server reading a client's
message, ``feltro join`` reading a server's frame) measure the nesting first.

>>> nesting_depth('{"a": [1, {"b": "]]["}]}')
3
"""

from __future__ import annotations

__all__ = ["nesting_depth"]

_QUOTE = 0x22
_BACKSLASH = 0x5C
_OPENING = (0x5B, 0x7B)  # [ {
_CLOSING = (0x5D, 0x7D)  # ] }


def nesting_depth(text: str | bytes) -> int:
    """The deepest nesting of arrays and objects in JSON *text* (brackets inside strings
    ignored). Text is read as its UTF-8 bytes: every byte of a multi-byte character is above
    0x7F, so none is taken for a bracket, a quote or a backslash."""
    raw = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    depth = deepest = 0
    in_string = escaped = False
    for byte in raw:
        if in_string:
            if escaped:
                escaped = False
            elif byte == _BACKSLASH:
                escaped = True
            elif byte == _QUOTE:
                in_string = False
        elif byte == _QUOTE:
            in_string = True
        elif byte in _OPENING:
            depth += 1
            deepest = max(deepest, depth)
        elif byte in _CLOSING:
            depth -= 1
    return deepest
