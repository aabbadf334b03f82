"""The ASGI application: HTTP routes, the websocket endpoint and the web pages.

``create_app(ServerConfig(...))`` returns a FastAPI app; ``feltro serve`` runs it with uvicorn.

HTTP routes (JSON unless said otherwise; ``docs/protocol.md`` has examples):

* ``GET /api/info`` — server and protocol version.
* ``POST /api/tables`` — create a table (:class:`~feltro.server.protocol.CreateTable`); the answer
  holds the host token and the links. Rate-limited per client address.
* ``GET /api/tables`` and ``GET /api/tables/{id}`` — public summaries (no secrets).
* ``GET /api/tables/{id}/qr.svg`` — the QR code of the table's join link.
* ``POST /api/qr`` — a QR code (SVG) of any short text, e.g. a seat link to move to another
  phone; the text travels in the body, never in a URL (URLs end up in access logs).
* ``GET /api/tables/{id}/chips`` — every player's chips after each hand (for a chart).
* ``POST /api/tables/{id}/histories`` — a player's own finished hands as PHH (``.phhs``), other
  players' unshown cards as ``??``; the seat token goes in the JSON body.
* ``GET /healthz`` — ``ok``.
* ``WS /ws/{id}`` — the game protocol (:mod:`feltro.server.protocol`).
* Pages: ``/``, ``/host/{id}``, ``/join/{id}``, ``/play/{id}``, ``/table/{id}`` serve
  ``static/<page>.html`` (``index``, ``host``, ``join``, ``play``, ``table``) when the web client
  has installed it, else ``static/index.html``, else a short placeholder; ``/static/...`` serves
  the folder. Secrets in links go after ``#`` (``/host/{id}#<host token>``,
  ``/play/{id}#<seat token>``): browsers never send that part to the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import io
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fastapi import FastAPI, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from feltro import __version__
from feltro.errors import HistoryError
from feltro.server.clock import Clock, SystemClock
from feltro.server.histories import player_histories
from feltro.server.model import TableSettings
from feltro.server.protocol import (
    MAX_MESSAGE_BYTES,
    PROTOCOL_VERSION,
    CreateTable,
    ErrorCode,
    ProtocolError,
    error_frame,
)
from feltro.server.rooms import Room, RoomManager
from feltro.server.rules_page import router as rules_router
from feltro.server.security import TokenBucket, install_log_redaction, origin_allowed

__all__ = ["STATIC", "ServerConfig", "create_app"]

log = logging.getLogger("feltro.server")

STATIC = Path(__file__).with_name("static")
"""The web client's files (owned by the web client; the server only serves them)."""

_LOOPBACK = frozenset({"127.0.0.1", "::1"})
_PLACEHOLDER = """<!doctype html><html lang="en"><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>feltro</title>
<body><h1>feltro</h1><p>The feltro server is running. The web pages are not installed in this
copy; clients can use the websocket protocol at <code>/ws/&lt;table&gt;</code>.</p></body></html>
"""


@dataclass(kw_only=True)
class ServerConfig:
    """How the server runs. Defaults suit ``feltro serve`` on one laptop."""

    data_dir: Path
    """Where the server log and the series logs live."""
    clock: Clock = field(default_factory=SystemClock)
    public_url: str | None = None
    """Base of the links the server hands out (``http://192.168.1.20:8000/``); ``None``: the
    address each request came to."""
    allowed_origins: tuple[str, ...] = ()
    """Extra websocket origins to accept besides the server's own address."""
    tick_interval: float = 0.05
    max_tables: int = 500
    max_connections_per_table: int = 64
    """Websockets one table accepts at once (phones, second devices, screens)."""
    rate: float = 20.0
    """Messages a second per websocket, on average."""
    burst: float = 40.0
    create_per_minute: float = 10.0
    """Tables one client address may create per minute (the server's own machine: any)."""
    static_dir: Path = STATIC


class HistoriesRequest(BaseModel):
    """``POST /api/tables/{id}/histories``: the seat token (in the body, never in a URL)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    token: str = Field(min_length=16, max_length=128)


class QrRequest(BaseModel):
    """``POST /api/qr``."""

    model_config = ConfigDict(extra="forbid", strict=True)
    text: str = Field(min_length=1, max_length=512)


def create_app(config: ServerConfig) -> FastAPI:
    """The feltro server application (see the module docstring)."""
    manager = RoomManager(config.data_dir, config.clock, tick_interval=config.tick_interval,
                          max_tables=config.max_tables, rate=config.rate, burst=config.burst)
    creators: dict[str, TokenBucket] = {}

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        install_log_redaction()
        await manager.start()
        _warm_up()
        # Measured (benchmarks/load_server.py): full collections walking every object of
        # FastAPI, pydantic and the tables paused the loop for 70-170 ms under load. Objects
        # alive after start-up are moved out of the collector's sight, and collections run
        # less often (the engine's objects are freed by reference counting anyway).
        gc.collect()
        gc.freeze()
        gc.set_threshold(20_000, 20, 20)
        try:
            yield
        finally:
            await manager.stop()

    app = FastAPI(title="feltro", version=__version__, lifespan=lifespan, docs_url=None,
                  redoc_url=None, openapi_url=None)
    app.state.manager = manager
    app.state.config = config

    def base_url(request: Request) -> str:
        url = config.public_url or str(request.base_url)
        return url if url.endswith("/") else url + "/"

    def room_of(table_id: str) -> Room:
        room = manager.rooms.get(table_id)
        if room is None:
            raise HTTPException(404, "no such table")
        return room

    # --- API ------------------------------------------------------------------------------

    @app.get("/healthz", response_class=PlainTextResponse)
    async def healthz() -> str:
        return "ok"

    @app.get("/api/info")
    async def info() -> dict[str, Any]:
        return {"server": "feltro", "version": __version__, "protocol": PROTOCOL_VERSION,
                "boot": manager.boot, "max_message_bytes": MAX_MESSAGE_BYTES}

    @app.post("/api/tables", status_code=201)
    async def create_table(request: Request) -> dict[str, Any]:
        client = request.client.host if request.client else "?"
        if client not in _LOOPBACK:  # the laptop running the server is trusted
            bucket = creators.setdefault(client, TokenBucket(config.create_per_minute / 60,
                                                             config.create_per_minute,
                                                             config.clock.monotonic))
            if not bucket.take():
                raise HTTPException(429, "too many tables created from this address; wait "
                                    "a bit")
        body = await request.body()
        if len(body) > MAX_MESSAGE_BYTES:
            raise HTTPException(413, "request too large")
        try:
            choices = CreateTable.model_validate_json(body or b"{}")
            settings = TableSettings.from_request(choices)
            room, token = manager.create_table(settings)
        except ValidationError as exc:
            first = exc.errors(include_url=False, include_input=False)[0]
            where = ".".join(str(part) for part in first["loc"]) or "body"
            raise HTTPException(422, f"{where}: {first['msg']}") from None
        except ProtocolError as exc:
            raise HTTPException(422 if exc.code is ErrorCode.INVALID else 503,
                                exc.reason) from None
        table_id = room.game.table_id
        base = base_url(request)
        return {"table_id": table_id, "host_token": token,
                "host_url": f"{base}host/{table_id}#{token}",
                "join_url": f"{base}join/{table_id}",
                "table_url": f"{base}table/{table_id}",
                "qr_url": f"{base}api/tables/{table_id}/qr.svg",
                "ws_url": f"{base.replace('http', 'ws', 1)}ws/{table_id}"}

    @app.get("/api/tables")
    async def list_tables() -> list[dict[str, Any]]:
        return [_summary(room) for room in manager.rooms.values()]

    @app.get("/api/tables/{table_id}")
    async def table_summary(table_id: str, request: Request) -> dict[str, Any]:
        room = room_of(table_id)
        summary = _summary(room)
        summary["join_url"] = f"{base_url(request)}join/{table_id}"
        summary["settings"] = room.game.settings.to_dict()
        return summary

    @app.get("/api/tables/{table_id}/qr.svg")
    async def table_qr(table_id: str, request: Request) -> Response:
        room_of(table_id)
        return Response(_qr_svg(f"{base_url(request)}join/{table_id}"),
                        media_type="image/svg+xml")

    @app.post("/api/qr")
    async def any_qr(body: QrRequest) -> Response:
        return Response(_qr_svg(body.text), media_type="image/svg+xml",
                        headers={"Cache-Control": "no-store"})

    @app.post("/api/tables/{table_id}/histories")
    async def histories(table_id: str, body: HistoriesRequest) -> Response:
        game = room_of(table_id).game
        identity = game.identify(body.token)
        if identity is None or identity.role != "player" or identity.seat is None:
            raise HTTPException(403, "that is not a seat token of this table")
        if game.store is None:
            raise HTTPException(409, "the series has not started")
        try:
            text = player_histories(game.store, identity.seat)
        except HistoryError as exc:
            raise HTTPException(409, str(exc)) from None
        name = f"feltro-{table_id}-seat{identity.seat}.phhs"
        return Response(text, media_type="text/plain; charset=utf-8",
                        headers={"Content-Disposition": f'attachment; filename="{name}"',
                                 "Cache-Control": "no-store"})

    @app.get("/api/tables/{table_id}/chips")
    async def chips(table_id: str) -> dict[str, Any]:
        game = room_of(table_id).game
        if game.store is None:
            return {"players": {}, "hands": []}
        series = game.store.series
        return {
            "players": {str(s): n for s, n in series.config.players.items()},
            "start": {str(s): series.config.starting_stack for s in series.config.players},
            "hands": [{"hand": h.number,
                       "stacks": {str(s): c for s, c in sorted(h.stacks_after.items())},
                       "eliminated": list(h.eliminated)} for h in series.summaries],
        }

    # --- websocket ------------------------------------------------------------------------

    @app.websocket("/ws/{table_id}")
    async def websocket_endpoint(websocket: WebSocket, table_id: str) -> None:
        origin = websocket.headers.get("origin")
        if not origin_allowed(origin, websocket.headers.get("host"), config.allowed_origins):
            log.warning("websocket refused: origin not allowed")
            await websocket.close(code=1008)
            return
        room = manager.rooms.get(table_id)
        await websocket.accept()
        if room is None:
            await websocket.send_text(error_frame(ErrorCode.BAD_TOKEN, "no such table"))
            await websocket.close(code=4404)
            return
        if len(room.connections) >= config.max_connections_per_table:
            await websocket.send_text(error_frame(ErrorCode.RATE_LIMITED, "too many "
                                                  "connections to this table"))
            await websocket.close(code=1013)
            return

        async def close(code: int) -> None:
            with contextlib.suppress(Exception):
                await websocket.close(code=code)

        conn = manager.new_connection(websocket.send_text, close)
        room.attach(conn)
        writer = asyncio.get_running_loop().create_task(conn.writer())
        try:
            while not conn.closing:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                data = message.get("text")
                if data is None:
                    data = message.get("bytes") or b""
                await room.receive(conn, data)
        except WebSocketDisconnect:
            pass
        finally:
            await room.detach(conn)
            with contextlib.suppress(asyncio.TimeoutError, Exception):
                await asyncio.wait_for(writer, timeout=2)
            if not writer.done():
                writer.cancel()

    # --- pages ----------------------------------------------------------------------------

    def page(name: str) -> Response:
        for candidate in (f"{name}.html", "index.html"):
            path = config.static_dir / candidate
            if path.is_file():
                return FileResponse(path, media_type="text/html")
        return HTMLResponse(_PLACEHOLDER)

    @app.get("/", include_in_schema=False)
    async def index() -> Response:
        return page("index")

    for kind in ("host", "join", "play", "table"):
        def make(kind: str = kind) -> Any:
            async def page_route(table_id: str) -> Response:
                return page(kind)
            return page_route
        app.add_api_route(f"/{kind}/{{table_id}}", make(), methods=["GET"],
                          include_in_schema=False)

    app.include_router(rules_router)  # /rules, /rules/<lang>, /api/rules (rules_page.py)

    @app.get("/static/i18n/shared/{lang}.json", include_in_schema=False)
    async def shared_catalogue(lang: str) -> Response:
        """The terminal game's catalogue (feltro.i18n), served straight from its TOML so the
        pages and the terminal can never drift apart."""
        from feltro.i18n import LANGUAGES, catalogue

        if lang not in LANGUAGES:
            return JSONResponse({"error": f"unknown language {lang!r}"}, status_code=404)
        return JSONResponse(dict(catalogue(lang)),
                            headers={"cache-control": "no-cache"})

    if config.static_dir.is_dir():
        app.mount("/static", StaticFiles(directory=config.static_dir), name="static")

    @app.middleware("http")
    async def security_headers(request: Request, call_next: Any) -> Response:
        response: Response = await call_next(request)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("X-Frame-Options", "DENY")
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        return response

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> JSONResponse:
        return JSONResponse({"error": exc.detail}, status_code=exc.status_code)

    return app


def _warm_up() -> None:
    """Load what the first hands would otherwise load in the middle of play (the evaluator's
    tables for hand names, the bot modules): a measured 20-70 ms stall otherwise."""
    import random

    from feltro.bots import BOT_KINDS, make_bot
    from feltro.cards import parse_cards
    from feltro.server.views import hand_name

    hand_name(parse_cards("AsKd"), parse_cards("QhJsTc"), "en")
    for kind in BOT_KINDS:
        make_bot(kind, random.Random(0))


def _summary(room: Room) -> dict[str, Any]:
    game = room.game
    return {"table_id": game.table_id, "name": game.settings.name, "status": game.status,
            "seats": game.settings.seats, "occupied": len(game.seats),
            "players": [{"seat": s.seat, "name": s.name, "bot": s.bot}
                        for s in sorted(game.seats.values(), key=lambda s: s.seat)],
            "created_at": game.created_at}


def _qr_svg(text: str) -> bytes:
    import segno

    qr = segno.make(text, error="m")
    out = io.BytesIO()
    # A standalone SVG document (with its xmlns), so it works as an <img> and as a download.
    qr.save(out, kind="svg", scale=6, border=2, xmldecl=False)
    return out.getvalue()
