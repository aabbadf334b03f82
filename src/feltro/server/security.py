"""Secrets, limits and checks at the server's door.

* Seat and host tokens are 192-bit random strings (:func:`new_token`). Only their SHA-256 is
  stored (:func:`hash_token`): a token already has full entropy, so a slow password hash would add
  nothing, and a stolen database does not let anyone sit down. Tokens travel only inside
  websocket messages and ``Authorization`` headers, never in URLs (links carry them after ``#``,
  which browsers never send), so access logs cannot hold them; :class:`RedactingFilter` masks
  anything token-shaped that still reaches a log line.
* :class:`TokenBucket` limits messages per connection.
* :func:`origin_allowed` rejects websockets opened by pages of another site (a page on the
  internet must not drive a player's seat through their browser).
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import re
import secrets
from collections.abc import Callable, Iterable
from urllib.parse import urlsplit

__all__ = [
    "RedactingFilter",
    "TokenBucket",
    "hash_token",
    "install_log_redaction",
    "new_id",
    "new_token",
    "origin_allowed",
    "redact",
    "same_hash",
]

TOKEN_BYTES = 24
"""192 bits of randomness per token (the issue asks for at least 128)."""

_TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{32,}")
_AFTER_TOKEN_KEY = re.compile(r"(?i)(token\W{0,4})[A-Za-z0-9_-]+")
"""What follows a ``token`` key (``"token": "...``, ``token=...``), cut short or not."""
_FRAME_TEXT = re.compile(r"^(TEXT|BINARY|CONT) .*(\[\d+ bytes(?:, continued)?\])$", re.S)
"""A websocket frame as the websockets library logs it at debug level (its head and tail)."""


def new_token() -> str:
    """A fresh secret token (URL-safe base64, 32 characters)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def new_id(nbytes: int = 6) -> str:
    """A short random identifier for tables and requests (not a secret)."""
    return secrets.token_urlsafe(nbytes)


def hash_token(token: str) -> str:
    """The stored form of *token*: SHA-256, hex."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def same_hash(a: str | None, b: str | None) -> bool:
    """Constant-time comparison of two stored hashes (``None`` never matches)."""
    return a is not None and b is not None and hmac.compare_digest(a, b)


def redact(text: str) -> str:
    """*text* with every token-shaped run of characters, and whatever follows a ``token`` key,
    replaced by ``[redacted]``; a logged websocket frame keeps only its kind and size (its
    head and tail may hold pieces of a token or of hole cards)."""
    text = _FRAME_TEXT.sub(r"\1 (content not logged) \2", text)
    return _TOKEN_SHAPE.sub("[redacted]", _AFTER_TOKEN_KEY.sub(r"\1[redacted]", text))


class RedactingFilter(logging.Filter):
    """A logging filter that masks token-shaped strings in the message and its arguments."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Rewrite *record* in place; never drops it.

        The message and each string argument are masked one by one, and the arguments keep
        their shape: formatters such as uvicorn's access log read ``record.args`` by position,
        and broke on every line when the arguments were folded into the message.
        """
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_redacted_arg(a) for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: redact(v) if isinstance(v, str) else v
                           for k, v in record.args.items()}
        return True


def _redacted_arg(arg: object) -> object:
    """*arg* with its tokens masked; numbers stay numbers (``%d`` still formats them), other
    objects (a websocket frame in a debug line) are masked as their text when they hold one."""
    if isinstance(arg, str):
        return redact(arg)
    if isinstance(arg, int | float) or arg is None:
        return arg
    opcode, data = getattr(arg, "opcode", None), getattr(arg, "data", None)
    if opcode is not None and isinstance(data, bytes | bytearray | memoryview):
        return f"{getattr(opcode, 'name', opcode)} (content not logged) [{len(data)} bytes]"
    text = str(arg)
    masked = redact(text)
    return masked if masked != text else arg


def install_log_redaction(names: Iterable[str] = ("", "uvicorn", "uvicorn.access",
                                                  "uvicorn.error", "feltro")) -> None:
    """Attach a :class:`RedactingFilter` to the named loggers and to their handlers."""
    flt = RedactingFilter()
    for name in names:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactingFilter) for f in logger.filters):
            logger.addFilter(flt)
        for handler in logger.handlers:
            if not any(isinstance(f, RedactingFilter) for f in handler.filters):
                handler.addFilter(flt)


class TokenBucket:
    """*rate* messages a second on average, bursts up to *burst*.

    :meth:`take` answers whether one more message is allowed now; *now* comes from the caller's
    clock so tests control it.
    """

    def __init__(self, rate: float, burst: float, now: Callable[[], float]) -> None:
        self.rate = rate
        self.burst = burst
        self._now = now
        self._tokens = burst
        self._last = now()
        self.refused = 0
        """Messages refused so far (the server closes a connection that keeps flooding)."""

    def take(self) -> bool:
        """Spend one token if there is one."""
        now = self._now()
        self._tokens = min(self.burst, self._tokens + (now - self._last) * self.rate)
        self._last = now
        if self._tokens >= 1:
            self._tokens -= 1
            return True
        self.refused += 1
        return False


def origin_allowed(origin: str | None, host: str | None, allowed: Iterable[str] = (), *,
                   scheme: str | None = None) -> bool:
    """Whether a request (a websocket, a state-changing call) carrying *origin* may reach
    *host*.

    No ``Origin`` header: allowed (browsers always send one; scripts and the load test do not,
    and they cannot be tricked into using somebody's cookies or tokens). Otherwise the origin's
    host and port must equal the ``Host`` the browser connected to, or the origin must be listed
    in *allowed* (exactly, e.g. ``"http://192.168.1.20:8000"``). With *scheme* (``http`` or
    ``https``, how the request reached this server) the origin's scheme must be that one too:
    an ``http://`` page must not drive an ``https://`` table.
    """
    if origin is None:
        return True
    if origin in set(allowed):
        return True
    if origin == "null" or not host:
        return False
    parts = urlsplit(origin)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return False
    if scheme is not None and parts.scheme != scheme:
        return False
    return _netloc(parts.netloc, parts.scheme) == _netloc(host, parts.scheme)


def _netloc(netloc: str, scheme: str) -> str:
    """``host:port`` in lower case with the scheme's default port made explicit."""
    netloc = netloc.lower().rsplit("@", 1)[-1]
    if netloc.startswith("["):  # IPv6 literal
        end = netloc.find("]")
        host, rest = netloc[:end + 1], netloc[end + 1:]
        port = rest[1:] if rest.startswith(":") else ""
    elif ":" in netloc:
        host, port = netloc.rsplit(":", 1)
    else:
        host, port = netloc, ""
    return f"{host}:{port or ('443' if scheme == 'https' else '80')}"
