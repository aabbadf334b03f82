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
from collections.abc import AsyncIterator, Awaitable, Callable

from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from feltro import __version__
from feltro.server.config import STATIC, ServerConfig
from feltro.server.rooms import RoomManager
from feltro.server.routes import api, pages, serve_state, ws
from feltro.server.security import install_log_redaction

__all__ = ["STATIC", "ServerConfig", "create_app"]

log = logging.getLogger("feltro.server")


def create_app(config: ServerConfig) -> FastAPI:
    """The feltro server application (see the module docstring)."""
    manager = RoomManager(config.data_dir, config.clock, tick_interval=config.tick_interval,
                          max_tables=config.max_tables, rate=config.rate, burst=config.burst)
    app = FastAPI(title="feltro", version=__version__, lifespan=_lifespan, docs_url=None,
                  redoc_url=None, openapi_url=None)
    serve_state(app, config, manager)
    app.include_router(api.router)
    app.include_router(ws.router)
    app.include_router(pages.router)
    if config.static_dir.is_dir():
        app.mount("/static", StaticFiles(directory=config.static_dir), name="static")
    app.middleware("http")(_security_headers)
    app.add_exception_handler(HTTPException, _http_error)  # type: ignore[arg-type]
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


async def _security_headers(request: Request,
                            call_next: Callable[[Request], Awaitable[Response]]) -> Response:
    response = await call_next(request)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("X-Frame-Options", "DENY")
    response.headers.setdefault("Referrer-Policy", "no-referrer")
    return response


async def _http_error(request: Request, exc: HTTPException) -> JSONResponse:
    return JSONResponse({"error": exc.detail}, status_code=exc.status_code)


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
