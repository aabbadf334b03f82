"""``feltro serve``: host a home game that friends join from their phones.

The server (FastAPI, uvicorn) is imported inside the command, so ``feltro --help`` stays fast
and the other commands never load it.
"""

from __future__ import annotations

import contextlib
import errno
import socket
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any

import typer

from feltro.cli.invoked import feltro_command, install_command
from feltro.cli.language import LANG_HELP, resolve_language

__all__ = ["default_data_dir", "lan_address", "phone_address", "register", "serve"]

WS_MAX_SIZE = 64 * 1024
"""uvicorn drops websocket frames above this size before they reach the app (which refuses
anything above 4 KiB itself)."""


def default_data_dir(environ: Mapping[str, str] | None = None,
                     platform: str | None = None) -> Path:
    """Where the server keeps its logs: ``server/`` in feltro's data folder
    (:func:`feltro.paths.data_dir`)."""
    from feltro.paths import data_dir

    return data_dir(environ, platform) / "server"


def lan_address() -> str:
    """This machine's address on the local network (``127.0.0.1`` if there is none).

    Connecting a UDP socket sends nothing: it only asks the OS which interface it would use.
    """
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            address = str(probe.getsockname()[0])
        except OSError:
            address = ""
    if address and not address.startswith("127."):
        return address
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            candidate = str(info[4][0])
            if not candidate.startswith("127."):
                return candidate
    except OSError:
        pass
    return "127.0.0.1"


def _raise_file_limit(wanted: int = 8192) -> None:
    """Each table holds a few files and each phone a socket: lift a low soft limit."""
    try:
        import resource
    except ImportError:  # pragma: no cover - Windows
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


def _check_can_serve(folder: Path, bind: str, port: int, lang: str) -> None:
    """Say in one line, before the server starts and before anything is printed, what would
    stop it: a data folder that cannot be made or written, or that another feltro server is
    using; a port already taken.

    :raises CommandError: naming the option to change.
    """
    from feltro.cli.failure import CommandError
    from feltro.errors import StoreError
    from feltro.filelock import FileLock
    from feltro.i18n import t

    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / ".feltro-write-test"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        raise typer.BadParameter(t("cli.error.cannot_write", lang, path=str(folder),
                                   reason=exc.strerror or str(exc)),
                                 param_hint="--data") from None
    try:  # the lock the server's journal takes (feltro.server.journal): let go of it at once
        FileLock(folder / "server.sqlite.lock",
                 lambda holder: t("serve.folder_in_use", lang, path=str(folder),
                                  pid=holder)).release()
    except StoreError as exc:
        raise CommandError(str(exc)) from None
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe_socket:
        probe_socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe_socket.bind((bind, port))
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                raise CommandError(t("serve.port_in_use", lang, port=port)) from None
            raise typer.BadParameter(t("cli.error.port_taken", lang, port=port,
                                       reason=exc.strerror or str(exc)),
                                     param_hint="--port") from None


def phone_address(*, lan_url: str, proxy: bool, tls: bool, host_names: list[str],
                  port: int) -> str | None:
    """The address phones must open (``None`` when the server cannot know it).

    Behind a proxy or tunnel it is the public name the proxy serves, over HTTPS; with a
    certificate, the name it was issued for; else this machine's (LAN) address.

    >>> phone_address(lan_url="http://127.0.0.1:8000/", proxy=True, tls=False,
    ...               host_names=["poker.example.org"], port=8000)
    'https://poker.example.org/'
    >>> phone_address(lan_url="https://192.168.1.20:8443/", proxy=False, tls=True,
    ...               host_names=["poker.example.org"], port=8443)
    'https://poker.example.org:8443/'
    """
    if proxy:
        return f"https://{host_names[0]}/" if host_names else None
    if tls and host_names:
        return f"https://{host_names[0]}/" if port == 443 else \
            f"https://{host_names[0]}:{port}/"
    return lan_url


def _say_where(phone_url: str | None, *, lan: bool, proxy: bool, folder: Path,
               lang: str) -> None:
    """The address phones open and its QR code, then what else the host needs to know."""
    import segno

    from feltro.i18n import t

    if phone_url is None:
        typer.echo(t("serve.proxy_needs_name", lang))
    else:
        typer.echo(t("serve.serving", lang, url=phone_url))
        segno.make(phone_url, error="m").terminal(compact=True)
    if not lan and not proxy:
        typer.echo(t("serve.local_only", lang))
    typer.echo(t("serve.logs", lang, path=str(folder)))


def serve(
    *,
    port: Annotated[int, typer.Option(envvar="FELTRO_PORT", min=1, max=65535,
                                      help="TCP port to listen on.")] = 8000,
    lan: Annotated[bool, typer.Option("--lan", help="Listen on every interface (0.0.0.0) so "
                                      "phones on your Wi-Fi can join. Default: this computer "
                                      "only (127.0.0.1).")] = False,
    data: Annotated[Path | None, typer.Option(help="Folder for the game logs (default: your "
                                              "data folder, feltro/server).")] = None,
    allow_origin: Annotated[list[str] | None, typer.Option(
        help="Another web origin allowed to open websockets (repeatable).")] = None,
    host_name: Annotated[list[str] | None, typer.Option(
        "--host-name", help="Another name this server answers to, e.g. a tunnel's or a reverse "
        "proxy's (repeatable). Requests for any other name are refused (DNS rebinding).")] = None,
    archive_after: Annotated[float, typer.Option(
        min=0.01, help="Hours a finished table stays live before it is archived (its players "
        "keep their results and hand histories).")] = 6.0,
    abandon_after: Annotated[float, typer.Option(
        min=0.01, help="Hours without any connection after which a started table is "
        "archived as it stands.")] = 24.0,
    data_quota: Annotated[float, typer.Option(
        min=0.01, help="GiB the data folder may hold; past it new tables are refused (the "
        "tables being played carry on).")] = 2.0,
    keep_archives: Annotated[float, typer.Option(
        min=0, help="Days an archived table's files are kept (0: for ever).")] = 30.0,
    key_file: Annotated[Path | None, typer.Option(
        help="The key that seals each table's shuffle seed at rest, kept apart from the game "
        "logs (default: your config folder, feltro/server.key; made on first use).")] = None,
    tls_cert: Annotated[Path | None, typer.Option(
        "--cert", help="TLS certificate (PEM, the full chain) to serve HTTPS and WSS directly; "
        "with --key.")] = None,
    tls_key: Annotated[Path | None, typer.Option(
        "--key", help="The certificate's private key (PEM); with --cert.")] = None,
    proxy: Annotated[bool, typer.Option(
        "--proxy", help="Behind a reverse proxy or tunnel on this computer: trust its "
        "X-Forwarded-Proto/Host/For (from 127.0.0.1 only; see --forwarded-allow-ips). Links "
        "and QR codes use the forwarded scheme and host; add that host with --host-name.")
    ] = False,
    forwarded_allow_ips: Annotated[list[str] | None, typer.Option(
        "--forwarded-allow-ips", help="Addresses or networks of the proxy whose X-Forwarded "
        "headers are trusted (repeatable; implies --proxy).")] = None,
    announce_on: Annotated[str | None, typer.Option(
        "--announce-on", hidden=True, help="The interface address to announce on with "
        "--lan (default: the LAN address).")] = None,
    log_level: Annotated[str, typer.Option(help="uvicorn log level.")] = "warning",
    lang: Annotated[str | None, typer.Option(help=LANG_HELP)] = None,
    compress: Annotated[bool, typer.Option(
        "--compress/--no-compress", help="Compress the websocket frames (permessage-deflate): "
        "a phone downloads about 4% of the bytes (benchmarks/phone_bytes.py), for some CPU "
        "on the server.")] = True,
) -> None:
    """Host a home game that friends join from their phones (no accounts, no internet)."""
    language = _server_language(lang)
    from feltro.paths import config_dir, data_dir, read_or_make_key
    from feltro.seal import SeedSeal
    from feltro.server.app import ServerConfig, create_app
    from feltro.server.archive import Lifecycle
    from feltro.server.budgets import GIB, Budgets
    from feltro.server.guard import allowed_host_names

    tls = _check_tls(tls_cert, tls_key, language)
    trusted = list(forwarded_allow_ips or (["127.0.0.1", "::1"] if proxy else []))
    bind = "0.0.0.0" if lan else "127.0.0.1"  # every interface only with --lan, on purpose
    folder = data or default_data_dir()
    _check_can_serve(folder, bind, port, language)
    address = lan_address() if lan else "127.0.0.1"
    scheme = "https" if tls else "http"
    url = f"{scheme}://{address}:{port}/"
    key = key_file or config_dir() / "server.key"
    seal = SeedSeal(read_or_make_key(key))
    # Behind a proxy the links follow each request's forwarded scheme and host; with public
    # names (--host-name) each request's own (allowed) host: friends far away get the name,
    # phones on the LAN the address they used.
    public_url = url if lan and not trusted and not host_name else None
    config = ServerConfig(data_dir=folder, public_url=public_url, seal=seal,
                          seasons_dir=data_dir() / "seasons",  # shared with feltro season
                          allowed_origins=tuple(allow_origin or ()),
                          allowed_hosts=allowed_host_names([address, *(host_name or ())]),
                          lifecycle=Lifecycle(finished_after=archive_after * 3600,
                                              abandoned_after=abandon_after * 3600),
                          budgets=Budgets(data_quota_bytes=int(data_quota * GIB),
                                          archive_retention=keep_archives * 86400))
    _raise_file_limit()
    phone_url = phone_address(lan_url=url, proxy=bool(trusted), tls=tls is not None,
                              host_names=list(host_name or ()), port=port)
    _say_where(phone_url, lan=lan, proxy=bool(trusted), folder=folder, lang=language)
    _run(create_app(config), tls, trusted, bind=bind, port=port, log_level=log_level,
         lang=language, announce_on=(announce_on or address) if lan else None, scheme=scheme,
         compress=compress)


def _server_language(lang: str | None) -> str:
    """The language of the messages, once the server's packages are known to be there."""
    from feltro.i18n import t

    language = resolve_language(lang)
    try:
        import segno  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError as exc:  # `make play` installs the game only, not the server
        typer.echo(t("cli.error.needs_extra", language, extra="server",
                     module=exc.name or "?", install=install_command("server")), err=True)
        raise typer.Exit(1) from None
    return language


def _run(asgi: Any, tls: tuple[Path, Path] | None, trusted: list[str], *, bind: str, port: int,
         log_level: str, lang: str, announce_on: str | None, scheme: str,
         compress: bool = True) -> None:
    """Serve *asgi* until Ctrl+C (announced on the LAN at *announce_on*, when given)."""
    import uvicorn

    from feltro.i18n import t
    from feltro.server.transport import MAX_HEAD_BYTES, GuardedH11Protocol
    from feltro.server.ws_transport import GuardedWebSocketProtocol

    if trusted:
        from feltro.server.forwarded import ForwardedHeaders

        asgi = ForwardedHeaders(asgi, trusted)
        typer.echo(t("serve.proxy", lang, ips=", ".join(trusted)))
    with contextlib.ExitStack() as stack:
        if announce_on is not None:
            _announce(stack, announce_on, port, scheme, lang)
        # Per-message compression by default (issue 23): full state frames cost a phone on
        # mobile data 35-40 MB an hour, deflate with context takeover cuts that to about 4%
        # (benchmarks/phone_bytes.py) with the 32 KiB window of WideWindowWebSockets (uvicorn's
        # 4 KiB window gives about 40%). Its price is CPU: zlib was a quarter of the server's CPU
        # under the 100-table load test (benchmarks/load_server.py); --no-compress for such
        # loads on a LAN. uvicorn's own
        # proxy-header handling stays off: ForwardedHeaders applies it, for the proxy only.
        # h11 with a bounded request head, per-address connection counts and a head deadline
        # (feltro.server.transport): the default parser reads headers of any size into memory.
        # Websockets with bounded unsent output and counted pings (feltro.server.ws_transport).
        uvicorn.run(asgi, host=bind, port=port, log_level=log_level,
                    http=GuardedH11Protocol, h11_max_incomplete_event_size=MAX_HEAD_BYTES,
                    ws=GuardedWebSocketProtocol,
                    ws_max_size=WS_MAX_SIZE, ws_ping_interval=20.0, ws_ping_timeout=20.0,
                    ws_per_message_deflate=compress, proxy_headers=False, server_header=False,
                    timeout_graceful_shutdown=3,
                    ssl_certfile=str(tls[0]) if tls else None,
                    ssl_keyfile=str(tls[1]) if tls else None)


def _check_tls(cert: Path | None, key: Path | None, lang: str) -> tuple[Path, Path] | None:
    """The certificate and key to serve HTTPS with, after checking they load together.

    :raises typer.BadParameter: one without the other, or files that are no matching pair.
    """
    from feltro.i18n import t

    if cert is None and key is None:
        return None
    if cert is None or key is None:
        raise typer.BadParameter(t("serve.cert_pair", lang),
                                 param_hint="--key" if cert is not None else "--cert")
    import ssl

    try:
        ssl.create_default_context(ssl.Purpose.CLIENT_AUTH).load_cert_chain(cert, key)
    except FileNotFoundError as exc:
        raise typer.BadParameter(t("cli.error.not_found", lang, path=exc.filename or str(cert)),
                                 param_hint="--key" if exc.filename == str(key) else "--cert"
                                 ) from None
    except (OSError, ssl.SSLError) as exc:
        # OpenSSL's reason code, not its words: a key of another certificate is said as such.
        mismatch = getattr(exc, "reason", None) == "KEY_VALUES_MISMATCH"
        raise typer.BadParameter(t("serve.key_mismatch" if mismatch else "serve.bad_cert", lang,
                                   cert=str(cert), key=str(key)),
                                 param_hint="--key" if mismatch else "--cert") from None
    return cert, key


def _announce(stack: contextlib.ExitStack, address: str, port: int, scheme: str,
              lang: str) -> None:
    """Announce the server over mDNS while it runs (a failure is said, not fatal)."""
    from feltro.i18n import t

    try:
        from feltro import __version__
        from feltro.remote.lan import announce

        name = f"feltro {socket.gethostname().split('.')[0]} {port}"
        stack.enter_context(announce(name, address, port, scheme=scheme, version=__version__))
    except Exception as exc:
        typer.echo(t("serve.lan_not_announced", lang, reason=str(exc) or type(exc).__name__),
                   err=True)
        return
    typer.echo(t("serve.lan_announced", lang, name=name, feltro=feltro_command()))


def register(app: typer.Typer) -> None:
    """Add ``serve`` to the ``feltro`` command."""
    app.command()(serve)
