"""Finding a table on the LAN without typing: ``feltro serve --lan`` announces itself over
mDNS/DNS-SD (the ``zeroconf`` package) as a ``_feltro._tcp`` service, and ``feltro join`` with no
link lists the servers it hears and their open tables, and lets the player pick one.

The announcement carries only what a link carries (address, port, scheme, path): never a
token. Building the service record and listing the tables are plain functions, tested
without a network; :func:`announce` and :func:`browse` do the multicast.

Any device on the network can announce itself, so the list treats every server as a stranger:
names are cleaned (:func:`feltro.remote.untrusted.clean`), a row that is not what a feltro
server answers is skipped, each row shows the server's address and scheme, and
:func:`warnings_of` flags names that imitate another (look-alike letters of other scripts,
mixed scripts) and plain HTTP to another machine (anyone on the network can read it).
"""

from __future__ import annotations

import contextlib
import json
import re
import socket
import time
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from feltro.i18n import t
from feltro.remote.untrusted import clean, scripts_of

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
    "warnings_of",
]

SERVICE_TYPE: Final = "_feltro._tcp.local."
MAX_LIST_BYTES: Final = 256 * 1024
"""The longest list of tables read from one server (500 tables are about 150 KiB)."""
_TABLE_ID: Final = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
_LOOPBACK_HOSTS: Final = ("127.", "[::1]", "localhost")
_LOOK_ALIKE: Final = str.maketrans(
    "аеорсухіјѕԁһԛԝаВЕКМНОРСТХаеіоруАВЕЗІКМНОРСТУХαβεικνορτυχΑΒΕΖΗΙΚΜΝΟΡΤΥΧ",
    "aeopcyxijsdhqwaBEKMHOPCTXaeiopyABE3IKMHOPCTYXaBeikvoptuxABEZHIKMNOPTYX")
"""Letters of other scripts that look like Latin ones (Cyrillic, Greek), to their look-alike."""


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
    name = clean(info.name.removesuffix("." + SERVICE_TYPE), 64)
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
        found = [row for row in (_row(server, entry) for entry in open_tables[:100])
                 if row is not None]
        rows.extend(found or [NearbyTable(server, None)])
    return rows


def _row(server: NearbyServer, entry: dict[str, Any]) -> NearbyTable | None:
    """One listed table, or ``None`` for an entry no feltro server would send (skipped)."""
    try:
        table_id, players, seats = entry["table_id"], entry.get("occupied", 0), \
            entry.get("seats", 0)
        if not (isinstance(table_id, str) and _TABLE_ID.match(table_id)
                and type(players) is int and type(seats) is int
                and 0 <= players <= seats <= 10):
            return None
        return NearbyTable(server, table_id, clean(entry.get("name", ""), 40), players, seats,
                           clean(entry.get("status", "lobby"), 16))
    except (KeyError, TypeError, ValueError):
        return None


def address_of(server: NearbyServer) -> str:
    """``http://192.168.1.20:8000``: the scheme and address a row shows."""
    return server.base_url.split("/", 3)[0] + "//" + server.base_url.split("/", 3)[2]


def _skeleton(name: str) -> str:
    """*name* as it looks: compatibility forms folded, look-alike letters made Latin."""
    return unicodedata.normalize("NFKC", name).translate(_LOOK_ALIKE).casefold()


def warnings_of(row: NearbyTable, rows: Sequence[NearbyTable]) -> list[str]:
    """What to check about *row*'s server (keys of ``join.lan.flag``): ``look_alike`` (its
    name looks like another listed server's at another address), ``mixed_script`` (letters of
    several scripts, or Latin look-alikes of another script), ``plain_http`` (unencrypted, to
    another machine)."""
    server, flags = row.server, []
    skeleton = _skeleton(server.name)
    if any(_skeleton(other.server.name) == skeleton and other.server.base_url != server.base_url
           for other in rows):
        flags.append("look_alike")
    if len(scripts_of(server.name)) > 1 or (server.name.translate(_LOOK_ALIKE) != server.name):
        flags.append("mixed_script")
    host = server.base_url.split("/", 3)[2]
    if server.base_url.startswith("http://") and not host.startswith(_LOOPBACK_HOSTS):
        flags.append("plain_http")
    return flags


def row_text(number: int, row: NearbyTable, lang: str) -> str:
    """One line of the list, in *lang*."""
    address = address_of(row.server)
    if row.table_id is None:
        return t("join.lan.server_only", lang, number=number, server=row.server.name,
                 address=address)
    return t("join.lan.row", lang, number=number, table=row.name or row.table_id,
             server=row.server.name, players=f"{row.players}/{row.seats}",
             status=row.status, address=address)


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
        """The JSON at *url*: at most :data:`MAX_LIST_BYTES`, within 5 seconds in all (a
        server that sends more, or drips, is left out of the list)."""
        deadline = time.monotonic() + 5.0
        body = b""
        with httpx.Client(trust_env=False, timeout=3.0) as client, \
                client.stream("GET", url) as response:
            response.raise_for_status()
            for chunk in response.iter_bytes():
                body += chunk
                if len(body) > MAX_LIST_BYTES or time.monotonic() > deadline:
                    raise ValueError("too long an answer")
        return json.loads(body)

    rows = [row for row in listing(browse(seconds), fetch) if row.table_id is not None]
    if not rows:
        typer.echo(t("join.lan.none", lang, feltro=feltro), err=True)
        return None
    typer.echo(t("join.lan.title", lang))
    for number, row in enumerate(rows, start=1):
        typer.echo("  " + row_text(number, row, lang))
        for flag in warnings_of(row, rows):
            typer.echo("     ! " + t(f"join.lan.flag.{flag}", lang))
    while True:
        try:
            picked = choose(ask(t("join.lan.pick", lang)), rows)
        except EOFError:
            return None
        if picked is None or isinstance(picked, NearbyTable):
            return None if picked is None else picked.join_url
        typer.echo(t("join.lan.not_a_choice", lang, answer=picked[:20]), err=True)
