"""Behind a reverse proxy or a tunnel (``feltro serve --proxy``): trust the proxy's
``X-Forwarded-Proto``, ``X-Forwarded-Host`` and ``X-Forwarded-For``, from the proxy only.

uvicorn's :class:`~uvicorn.middleware.proxy_headers.ProxyHeadersMiddleware` applies the
scheme (``https`` makes links ``https://`` and websockets ``wss://``) and the client address;
this middleware, in front of it, also takes the public host name from ``X-Forwarded-Host`` when
the connection comes from a trusted proxy address. A request from anywhere else keeps its own
``Host`` and scheme: headers a client sends itself are never believed.

The host guard (:mod:`feltro.server.guard`) then checks that host against the allowed names
(``--host-name``), and the links the server hands out use the forwarded scheme and host.
"""

from __future__ import annotations

from collections.abc import Sequence

from starlette.types import ASGIApp, Receive, Scope, Send
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

__all__ = ["ForwardedHeaders"]


class ForwardedHeaders:
    """ASGI middleware (see the module docstring); *trusted*: proxy addresses or networks
    (``127.0.0.1``, ``10.0.0.0/8``; ``*`` trusts everyone, only for a server that nothing but
    the proxy can reach)."""

    def __init__(self, app: ASGIApp, trusted: Sequence[str]) -> None:
        self._inner = ProxyHeadersMiddleware(app, trusted_hosts=list(trusted))  # type: ignore[arg-type]
        self._trusted = self._inner.trusted_hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            client = scope.get("client")
            if client and client[0] in self._trusted:
                headers = list(scope.get("headers", ()))
                forwarded = next((value for name, value in headers
                                  if name == b"x-forwarded-host"), None)
                if forwarded:
                    host = forwarded.split(b",")[0].strip()
                    headers = [(n, v) for n, v in headers if n != b"host"]
                    headers.append((b"host", host))
                    scope = dict(scope, headers=headers)
        await self._inner(scope, receive, send)  # type: ignore[arg-type]
