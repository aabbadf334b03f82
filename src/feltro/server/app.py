"""The ASGI application: ``create_app(ServerConfig(...))`` assembles the routers, the lifespan
and the middleware; ``feltro serve`` runs it with uvicorn.

The routes live in :mod:`feltro.server.routes` (``api``: the HTTP API; ``ws``: the websocket
game protocol; ``pages``: the web pages and the shared catalogue), each an ``APIRouter`` that
reads the room manager and the configuration from ``app.state``. ``/static/...`` serves the web
client's folder (``docs/protocol.md`` and ``docs/web.md`` describe them all).
"""

from __future__ import annotations

import contextlib
import gc
import logging
from collections.abc import AsyncIterator

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from feltro import __version__
from feltro.server.guard import Guard, GuardSettings
from feltro.server.rooms import RoomManager
from feltro.server.routes import api, pages, seasons, serve_state, ws
from feltro.server.rules_page import router as rules_router
from feltro.server.security import install_log_redaction
from feltro.server.server_config import STATIC, ServerConfig

__all__ = ["STATIC", "ServerConfig", "create_app"]

log = logging.getLogger("feltro.server")


def create_app(config: ServerConfig) -> FastAPI:
    """The feltro server application (see the module docstring)."""
    manager = RoomManager(config.data_dir, config.clock, tick_interval=config.tick_interval,
                          max_tables=config.max_tables, rate=config.rate, burst=config.burst,
                          max_spectators=config.max_connections_per_table,
                          lifecycle=config.lifecycle, seal=config.seal,
                          budgets=config.budgets)
    app = FastAPI(title="feltro", version=__version__, lifespan=_lifespan, docs_url=None,
                  redoc_url=None, openapi_url=None)
    serve_state(app, config, manager)
    app.include_router(api.router)
    app.include_router(ws.router)
    app.include_router(pages.router)
    app.include_router(seasons.router)  # /seasons, /season/<slug>, /api/seasons
    app.include_router(rules_router)  # /rules, /rules/<lang>, /api/rules
    if config.static_dir.is_dir():
        app.mount("/static", StaticFiles(directory=config.static_dir), name="static")
    app.add_middleware(Guard, settings=GuardSettings(
        allowed_hosts=config.allowed_hosts, max_body_bytes=config.max_body_bytes,
        requests_per_second=config.requests_per_second, request_burst=config.request_burst,
        upgrades_per_second=config.upgrades_per_second, upgrade_burst=config.upgrade_burst,
        allowed_origins=config.allowed_origins), now=config.clock.monotonic)
    app.add_exception_handler(StarletteHTTPException, _http_error)  # type: ignore[arg-type]
    app.add_exception_handler(RequestValidationError, _invalid_request)  # type: ignore[arg-type]
    return app


@contextlib.asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    manager: RoomManager = app.state.manager
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


async def _http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
    """Every HTTP error as ``{"error": ...}`` (routing's 404 and 405 included), with a
    ``code`` the page words when the route gave one."""
    body = exc.detail if isinstance(exc.detail, dict) else {"error": exc.detail}
    return JSONResponse(body, status_code=exc.status_code, headers=exc.headers)


async def _invalid_request(request: Request, exc: RequestValidationError) -> JSONResponse:
    """A body FastAPI could not validate, as one ``{"error": "where: what"}``."""
    errors = exc.errors()
    first = errors[0] if errors else {"loc": (), "msg": "invalid request"}
    where = ".".join(str(part) for part in first.get("loc", ())[1:]) or "body"
    return JSONResponse({"error": f"{where}: {first.get('msg', 'invalid')}"}, status_code=422)


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
