"""The server's outer wall: checks every HTTP request and websocket before any route sees it.

One pure ASGI middleware (:class:`Guard`), so that nothing a stranger sends is read into
memory, parsed or routed before it passed these checks:

* **Allowed hosts** (DNS rebinding): the ``Host`` header must name this server — by default the
  addresses ``feltro serve`` prints and ``localhost`` — else HTTP gets 421 and a websocket is
  refused before it is accepted. A page on ``attacker.example`` whose name was re-pointed to
  the host's machine therefore cannot talk to the server, even with a matching ``Origin``.
* **Bodies** are read with a hard byte limit: a ``Content-Length`` over it is refused (413)
  before one byte is read, and a chunked body is cut off as soon as it passes the limit.
* **State-changing requests** (``POST``, ``PUT``, ``PATCH``, ``DELETE``) must be JSON and, when
  the browser says where they come from (``Origin``), come from this server's own origin.
  A foreign page can send a "simple" cross-site ``text/plain`` POST without asking; it cannot
  send ``application/json`` without a CORS pre-flight, which this server never grants.
* **Rate**: every address has a token bucket for HTTP requests (pages, API, QR codes alike)
  and websocket upgrades (except from loopback, where a tunnel's friends all come from). The
  table of buckets is bounded (least recently seen addresses are forgotten first).
* **Headers**: a strict Content-Security-Policy (only this server's own scripts, styles,
  images and websockets), no sniffing, no framing, no referrer.

Checks of the websocket *protocol* itself (hello deadline, per-address connection limits,
frame sizes) live in :mod:`feltro.server.admission` and the websocket route: they need the table.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from dataclasses import dataclass
from typing import Any, Final

from feltro.server.security import TokenBucket, origin_allowed

__all__ = ["CONTENT_SECURITY_POLICY", "Guard", "GuardSettings", "host_name"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

CONTENT_SECURITY_POLICY: Final = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
"""Only this server's own files: no inline script, no foreign resource, no framing.
(``connect-src 'self'`` covers this server's ``ws:``/``wss:`` address in current browsers.)"""

_SECURITY_HEADERS: Final = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
)
_STATE_CHANGING: Final = frozenset({"POST", "PUT", "PATCH", "DELETE"})
_LOOPBACK_NAMES: Final = frozenset({"localhost", "127.0.0.1", "::1", "[::1]"})


@dataclass(frozen=True, kw_only=True)
class GuardSettings:
    """What :class:`Guard` lets through."""

    allowed_hosts: frozenset[str] | None = None
    """Host names (without port, lower case) this server answers to; ``None``: any (tests,
    embedding). ``feltro serve`` always sets it."""
    max_body_bytes: int = 16 * 1024
    """The largest HTTP request body read (the biggest legitimate one, a table's settings, is
    under 1 KiB)."""
    requests_per_second: float = 20.0
    """HTTP requests per client address, on average."""
    request_burst: float = 120.0
    """Requests an address may send at once (a page and its files load together)."""
    upgrades_per_second: float = 2.0
    """Websockets an address may open a second, on average (a phone opens one, and another
    when its network blinks; a household behind one router a few)."""
    upgrade_burst: float = 30.0
    """Websockets an address may open at once."""
    max_addresses: int = 4096
    """Addresses whose rate is remembered at once (the oldest are forgotten first)."""
    allowed_origins: tuple[str, ...] = ()
    """Extra origins allowed to send state-changing requests (as for websockets)."""


def host_name(host_header: str | None) -> str | None:
    """The host part of a ``Host`` header, lower case, without the port; ``None`` if absent
    or malformed (an IPv6 literal keeps its brackets off: ``[::1]:8000`` gives ``::1``)."""
    if not host_header:
        return None
    host = host_header.strip().lower()
    if host.startswith("["):
        end = host.find("]")
        if end < 0:
            return None
        rest = host[end + 1:]
        if rest and not (rest.startswith(":") and rest[1:].isdigit()):
            return None
        return host[1:end]
    name, _, port = host.partition(":")
    if port and not port.isdigit():
        return None
    if not name or any(c in name for c in "/\\@ \t"):
        return None
    return name.rstrip(".")


def allowed_host_names(names: Iterable[str]) -> frozenset[str]:
    """The set :class:`GuardSettings` wants: *names* (host names or ``host:port``) plus
    the loopback names, normalised."""
    result = set(_LOOPBACK_NAMES - {"[::1]"})
    for name in names:
        normal = host_name(name)
        if normal:
            result.add(normal)
    return frozenset(result)


class Guard:
    """ASGI middleware applying :class:`GuardSettings` (see the module docstring)."""

    def __init__(self, app: ASGIApp, settings: GuardSettings,
                 now: Callable[[], float]) -> None:
        self.app = app
        self.settings = settings
        self._now = now
        self._buckets: OrderedDict[str, TokenBucket] = OrderedDict()
        self._upgrades: OrderedDict[str, TokenBucket] = OrderedDict()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = _headers(scope)
        hosts = sum(1 for name, _ in scope.get("headers", ()) if name.lower() == b"host")
        if hosts > 1:  # the guard and the links must not read different names
            if kind == "websocket":
                await send({"type": "websocket.close", "code": 1008,
                            "reason": "more than one Host header"})
            else:
                await _answer(send, 400, "a request has one Host header")
            return
        if not self._host_allowed(headers.get("host")):
            if kind == "websocket":
                await send({"type": "websocket.close", "code": 1008,
                            "reason": "unknown host name"})
            else:
                await _answer(send, 421, "this server does not answer to that host name; "
                              "use the address it printed")
            return
        if kind == "websocket":
            # Upgrades share the address's budget, except from this machine: behind a tunnel or
            # proxy every friend arrives from loopback, and one budget would lock them all out.
            if not _from_loopback(scope) and not self._rate_allowed(
                    scope, self._upgrades, self.settings.upgrades_per_second,
                    self.settings.upgrade_burst):
                await send({"type": "websocket.close", "code": 1008,
                            "reason": "too many connections from your address"})
                return
            await self.app(scope, receive, send)
            return
        if not self._rate_allowed(scope, self._buckets, self.settings.requests_per_second,
                                  self.settings.request_burst):
            await _answer(send, 429, "too many requests from this address; wait a moment",
                          retry_after=True)
            return
        method = scope.get("method", "GET")
        if method in _STATE_CHANGING:
            refusal = self._state_change_refusal(scope, headers)
            if refusal is not None:
                await _answer(send, *refusal)
                return
        length = headers.get("content-length")
        limit = self.settings.max_body_bytes
        if length is not None and (not length.isdigit() or int(length) > limit):
            await _answer(send, 413, f"request bodies are limited to {limit} bytes")
            return
        started = False
        secured = _with_headers(send)

        async def tracking_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await secured(message)

        try:
            await self.app(scope, _limited(receive, limit), tracking_send)
        except BodyTooLargeError as exc:
            if not started:
                await _answer(send, 413, str(exc))

    def _host_allowed(self, host_header: str | None) -> bool:
        allowed = self.settings.allowed_hosts
        if allowed is None:
            return True
        name = host_name(host_header)
        return name is not None and name in allowed

    def _rate_allowed(self, scope: Scope, buckets: OrderedDict[str, TokenBucket], rate: float,
                      burst: float) -> bool:
        client = scope.get("client")
        address = str(client[0]) if client else "?"
        bucket = buckets.get(address)
        if bucket is None:
            bucket = TokenBucket(rate, burst, self._now)
            buckets[address] = bucket
            while len(buckets) > self.settings.max_addresses:
                buckets.popitem(last=False)
        else:
            buckets.move_to_end(address)
        return bucket.take()

    def _state_change_refusal(self, scope: Scope,
                              headers: dict[str, str]) -> tuple[int, str] | None:
        content_type = headers.get("content-type", "").split(";", 1)[0].strip().lower()
        if content_type != "application/json":
            return 415, "this request must be sent as JSON (Content-Type: application/json)"
        origin = headers.get("origin")
        scheme = "https" if scope.get("scheme") == "https" else "http"
        if origin is not None and not origin_allowed(origin, headers.get("host"),
                                                     self.settings.allowed_origins,
                                                     scheme=scheme):
            return 403, "requests from other web sites are not accepted"
        return None


def _from_loopback(scope: Scope) -> bool:
    client = scope.get("client")
    return client is not None and str(client[0]) in ("127.0.0.1", "::1")


def _headers(scope: Scope) -> dict[str, str]:
    """The request's headers (last value wins), decoded as Latin-1 as HTTP says."""
    return {k.decode("latin-1").lower(): v.decode("latin-1")
            for k, v in scope.get("headers", ())}


def _limited(receive: Receive, limit: int) -> Receive:
    """*receive* that fails the request once more than *limit* body bytes arrived."""
    seen = 0

    async def wrapped() -> Message:
        nonlocal seen
        message = await receive()
        if message["type"] == "http.request":
            seen += len(message.get("body", b""))
            if seen > limit:
                raise BodyTooLargeError(limit)
        return message

    return wrapped


class BodyTooLargeError(Exception):
    """A chunked body passed the limit while being read (the route is abandoned)."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"request bodies are limited to {limit} bytes")
        self.limit = limit


def _with_headers(send: Send) -> Send:
    """*send* adding the security headers to the response start."""

    async def wrapped(message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = list(message.get("headers", ()))
            present = {k.lower() for k, _ in headers}
            headers.extend((k, v) for k, v in _SECURITY_HEADERS if k not in present)
            message["headers"] = headers
        await send(message)

    return wrapped


async def _answer(send: Send, status: int, error: str, *, retry_after: bool = False) -> None:
    """A small JSON error response, with the security headers."""
    body = json.dumps({"error": error}).encode()
    headers = [(b"content-type", b"application/json"),
               (b"content-length", str(len(body)).encode()), *_SECURITY_HEADERS]
    if retry_after:
        headers.append((b"retry-after", b"1"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
