"""Finding a table on the LAN without typing: ``feltro serve --lan`` announces itself over
mDNS/DNS-SD (the ``zeroconf`` package) as a ``_feltro._tcp`` service, and ``feltro join`` with no
link lists the servers it hears and their open tables, and lets the player pick one.

The announcement carries only what a link carries (address, port, scheme, path): never a
token. Building the service record and listing the tables are plain functions, tested
without a network; :func:`announce` and :func:`browse` do the multicast.
"""

from __future__ import annotations

import contextlib
import socket
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from feltro.i18n import t

if TYPE_CHECKING:
    from zeroconf import ServiceInfo, Zeroconf

__all__ = [
    "SERVICE_TYPE",
    "NearbyServer",
    "NearbyTable",
    "announce",
    "browse",
    "choose",
    "listing",
    "pick_table",
    "server_from_info",
    "service_info",
]

SERVICE_TYPE: Final = "_feltro._tcp.local."


@dataclass(frozen=True, slots=True)
class NearbyServer:
    """A feltro server heard on the LAN."""

    name: str
    base_url: str
    """``http://192.168.1.20:8000/``."""


@dataclass(frozen=True, slots=True)
class NearbyTable:
    """A table of a nearby server that still takes players (or a server with none yet)."""

    server: NearbyServer
    table_id: str | None
    name: str = ""
    players: int = 0
    seats: int = 0
    status: str = "lobby"

    @property
    def join_url(self) -> str | None:
        """The table's join link (what the QR code says)."""
        return None if self.table_id is None else f"{self.server.base_url}join/{self.table_id}"


def service_info(instance: str, address: str, port: int, *, scheme: str = "http",
                 path: str = "/", version: str = "") -> ServiceInfo:
    """The DNS-SD record announcing a server at *address*:*port*.

    >>> info = service_info("feltro on ana-laptop", "192.168.1.20", 8000)
    >>> info.name, info.port, info.properties[b"scheme"]
    ('feltro on ana-laptop._feltro._tcp.local.', 8000, b'http')
    """
    from zeroconf import ServiceInfo

    label = instance.replace(".", " ")[:60] or "feltro"
    host = socket.gethostname().split(".")[0] or "feltro"
    return ServiceInfo(SERVICE_TYPE, f"{label}.{SERVICE_TYPE}",
                       addresses=[socket.inet_aton(address)], port=port,
                       properties={"scheme": scheme, "path": path, "protocol": "1",
                                   "version": version},
                       server=f"{host}.local.")


def server_from_info(info: ServiceInfo) -> NearbyServer | None:
    """The server a DNS-SD record announces, or ``None`` for a record without an address."""
    addresses = info.parsed_addresses()
    if not addresses or info.port is None:
        return None
    props = {k.decode(errors="replace"): (v or b"").decode(errors="replace")
             for k, v in info.properties.items()}
    scheme = "https" if props.get("scheme") == "https" else "http"
    path = props.get("path") or "/"
    path = path if path.endswith("/") else path + "/"
    name = info.name.removesuffix("." + SERVICE_TYPE)
    host = addresses[0] if ":" not in addresses[0] else f"[{addresses[0]}]"
    return NearbyServer(name, f"{scheme}://{host}:{info.port}{path}")


@contextlib.contextmanager
def announce(instance: str, address: str, port: int, *, scheme: str = "http",
             version: str = "") -> Iterator[Zeroconf]:
    """Announce a server on the interface of *address* while the block runs."""
    from zeroconf import Zeroconf

    zc = Zeroconf(interfaces=[address])
    info = service_info(instance, address, port, scheme=scheme, version=version)
    try:
        zc.register_service(info, allow_name_change=True)
        yield zc
    finally:
        with contextlib.suppress(Exception):
            zc.unregister_service(info)
        zc.close()


def browse(seconds: float = 3.0, interfaces: Sequence[str] | None = None) -> list[NearbyServer]:
    """The feltro servers that answer within *seconds* (on *interfaces*, default all)."""
    from zeroconf import InterfaceChoice, ServiceBrowser, ServiceStateChange, Zeroconf

    zc = Zeroconf(interfaces=list(interfaces) if interfaces else InterfaceChoice.All)
    names: list[str] = []

    def heard(zeroconf: Zeroconf, service_type: str, name: str,
              state_change: ServiceStateChange) -> None:
        if state_change is ServiceStateChange.Added and name not in names:
            names.append(name)

    try:
        browser = ServiceBrowser(zc, SERVICE_TYPE, handlers=[heard])
        time.sleep(seconds)
        found: list[NearbyServer] = []
        for name in list(names):
            info = zc.get_service_info(SERVICE_TYPE, name, timeout=1500)
            server = server_from_info(info) if info is not None else None
            if server is not None and server not in found:
                found.append(server)
        browser.cancel()
        return found
    finally:
        zc.close()


def listing(servers: Sequence[NearbyServer],
            fetch: Callable[[str], Any]) -> list[NearbyTable]:
    """The tables one may still join, server by server (*fetch* GETs a URL as JSON; a server
    that does not answer is left out, one with no open table is listed on its own)."""
    rows: list[NearbyTable] = []
    for server in servers:
        try:
            tables = fetch(server.base_url + "api/tables")
        except Exception:
            continue
        open_tables = [entry for entry in tables if isinstance(entry, dict)
                       and entry.get("status") == "lobby"] if isinstance(tables, list) else []
        if not open_tables:
            rows.append(NearbyTable(server, None))
        for entry in open_tables:
            rows.append(NearbyTable(server, str(entry["table_id"]), str(entry.get("name", "")),
                                    int(entry.get("occupied", 0)), int(entry.get("seats", 0)),
                                    str(entry.get("status", "lobby"))))
    return rows


def row_text(number: int, row: NearbyTable, lang: str) -> str:
    """One line of the list, in *lang*."""
    if row.table_id is None:
        return t("join.lan.server_only", lang, number=number, server=row.server.name)
    return t("join.lan.row", lang, number=number, table=row.name or row.table_id,
             server=row.server.name, players=f"{row.players}/{row.seats}",
             status=row.status)


def choose(answer: str, rows: Sequence[NearbyTable]) -> NearbyTable | str | None:
    """The row *answer* picks (Enter: the first); ``None`` to quit; the answer itself when it
    is no choice."""
    text = answer.strip().lower()
    if text in ("q", "quit"):
        return None
    if not text:
        return rows[0]
    if text.isdigit() and 1 <= int(text) <= len(rows):
        return rows[int(text) - 1]
    return answer.strip()


def pick_table(lang: str, seconds: float = 3.0, ask: Callable[[str], str] = input, *,
               feltro: str = "feltro", install: str = "pip install -e '.[server]'") -> str | None:
    """List the tables nearby and ask which one; its join link, or ``None`` (none, or quit).
    *feltro* and *install* are the commands the messages name, as the player runs them."""
    import typer

    try:
        import zeroconf  # noqa: F401
    except ImportError:
        typer.echo(t("join.lan.needs_zeroconf", lang, install=install, feltro=feltro), err=True)
        return None
    import httpx

    typer.echo(t("join.lan.looking", lang))

    def fetch(url: str) -> Any:
        with httpx.Client(trust_env=False, timeout=3.0) as client:
            response = client.get(url)
            response.raise_for_status()
            return response.json()

    rows = [row for row in listing(browse(seconds), fetch) if row.table_id is not None]
    if not rows:
        typer.echo(t("join.lan.none", lang, feltro=feltro), err=True)
        return None
    typer.echo(t("join.lan.title", lang))
    for number, row in enumerate(rows, start=1):
        typer.echo("  " + row_text(number, row, lang))
    while True:
        try:
            picked = choose(ask(t("join.lan.pick", lang)), rows)
        except EOFError:
            return None
        if picked is None or isinstance(picked, NearbyTable):
            return None if picked is None else picked.join_url
        typer.echo(t("join.lan.not_a_choice", lang, answer=picked[:20]), err=True)
