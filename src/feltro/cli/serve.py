"""``feltro serve``: host a home game that friends join from their phones.

The server (FastAPI, uvicorn) is imported inside the command, so ``feltro --help`` stays fast
and the other commands never load it.
"""

from __future__ import annotations

import socket
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated

import typer

__all__ = ["default_data_dir", "lan_address", "register", "serve"]

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
    log_level: Annotated[str, typer.Option(help="uvicorn log level.")] = "warning",
) -> None:
    """Host a home game that friends join from their phones (no accounts, no internet)."""
    import segno
    import uvicorn

    from feltro.server.app import ServerConfig, create_app
    from feltro.server.archive import Lifecycle
    from feltro.server.guard import allowed_host_names

    bind = "0.0.0.0" if lan else "127.0.0.1"  # every interface only with --lan, on purpose
    address = lan_address() if lan else "127.0.0.1"
    url = f"http://{address}:{port}/"
    folder = data or default_data_dir()
    config = ServerConfig(data_dir=folder, public_url=url if lan else None,
                          allowed_origins=tuple(allow_origin or ()),
                          allowed_hosts=allowed_host_names([address, *(host_name or ())]),
                          lifecycle=Lifecycle(finished_after=archive_after * 3600,
                                              abandoned_after=abandon_after * 3600))
    _raise_file_limit()
    typer.echo(f"feltro is serving at {url}")
    segno.make(url, error="m").terminal(compact=True)
    if not lan:
        typer.echo("Only this computer can reach it; add --lan to let phones on your Wi-Fi "
                   "join.")
    typer.echo(f"Game logs: {folder}    (Ctrl+C stops; games resume where they were.)")
    # No per-message compression: on a LAN the bandwidth is free, and zlib was a quarter of
    # the server's CPU under load (benchmarks/load_server.py).
    uvicorn.run(create_app(config), host=bind, port=port, log_level=log_level,
                ws_max_size=WS_MAX_SIZE, ws_ping_interval=20.0, ws_ping_timeout=20.0,
                ws_per_message_deflate=False, proxy_headers=False, server_header=False,
                timeout_graceful_shutdown=3)


def register(app: typer.Typer) -> None:
    """Add ``serve`` to the ``feltro`` command."""
    app.command()(serve)
