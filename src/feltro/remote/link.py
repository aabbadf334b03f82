"""Join links: ``http(s)://host:port/join/<table>`` (the link or QR code the host shows) into
the addresses the terminal client needs.

>>> link = parse_link("https://poker.example.org/join/k3Jq9_xA")
>>> link.ws_url, link.table_id, link.key
('wss://poker.example.org/ws/k3Jq9_xA', 'k3Jq9_xA', 'poker.example.org/k3Jq9_xA')
>>> parse_link("http://192.168.1.20:8000/play/k3Jq9_xA#" + "t" * 32).token == "t" * 32
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final
from urllib.parse import urlsplit

__all__ = ["JoinLink", "LinkError", "parse_link"]

_PATH: Final = re.compile(r"^(?P<prefix>/.*?)?/(?P<kind>join|play|table|ws|host)/"
                          r"(?P<table>[A-Za-z0-9_-]{1,64})/?$")
_SCHEMES: Final = {"http": "ws", "https": "wss", "ws": "ws", "wss": "wss"}


class LinkError(ValueError):
    """Not a table link; *key* and *params* word it from the catalogue (``join.bad_link``)."""

    def __init__(self, text: str) -> None:
        super().__init__(f"not a feltro table link: {text[:80]!r}")
        self.key = "join.bad_link"
        self.params = {"link": text[:80]}


@dataclass(frozen=True, slots=True)
class JoinLink:
    """A table on a server: where to talk to it."""

    http_base: str
    """``https://host:port/`` (with any path prefix a reverse proxy adds)."""
    ws_url: str
    """``wss://host:port/ws/<table>``."""
    table_id: str
    token: str | None = None
    """A seat token carried after ``#`` in a ``/play/`` link (never sent to the server in a
    URL)."""

    @property
    def secure(self) -> bool:
        """Whether the connection is encrypted (``https``/``wss``)."""
        return self.ws_url.startswith("wss:")

    @property
    def key(self) -> str:
        """``host[:port][/prefix]/<table>``: where the seat token of this table is filed."""
        return self.ws_url.split("://", 1)[1].rsplit("/ws/", 1)[0] + "/" + self.table_id


def parse_link(text: str) -> JoinLink:
    """The table behind *text*: a join, play, table or websocket link.

    :raises LinkError: for anything else.
    """
    raw = text.strip()
    try:
        parts = urlsplit(raw)
        port = parts.port
    except ValueError:
        raise LinkError(raw) from None
    scheme = parts.scheme.lower()
    match = _PATH.match(parts.path or "")
    if scheme not in _SCHEMES or not parts.hostname or match is None:
        raise LinkError(raw)
    host = parts.hostname
    if ":" in host:  # an IPv6 literal
        host = f"[{host}]"
    netloc = f"{host}:{port}" if port is not None else host
    prefix = match["prefix"] or ""
    http = "https" if _SCHEMES[scheme] == "wss" else "http"
    table = match["table"]
    token = parts.fragment if match["kind"] == "play" and len(parts.fragment) >= 16 else None
    return JoinLink(http_base=f"{http}://{netloc}{prefix}/",
                    ws_url=f"{_SCHEMES[scheme]}://{netloc}{prefix}/ws/{table}",
                    table_id=table, token=token)
