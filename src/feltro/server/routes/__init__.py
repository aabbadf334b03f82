"""The server's routes, one :class:`fastapi.APIRouter` per concern.

* :mod:`~feltro.server.routes.api` — the JSON/HTTP API (tables, QR codes, histories, chips);
* :mod:`~feltro.server.routes.ws` — the websocket endpoint of the game protocol;
* :mod:`~feltro.server.routes.pages` — the web pages and the shared catalogue.

A route finds what it works with on the application it is mounted on (:func:`serve_state`
puts it there): ``app.state.manager`` (the :class:`~feltro.server.rooms.RoomManager`),
``app.state.config`` (the :class:`~feltro.server.server_config.ServerConfig`) and
``app.state.creators`` (per-address rate limits of table creation). So each router can be
mounted and tested on its own: ``app = FastAPI(); serve_state(app, config, manager);
app.include_router(api.router)``.
"""

from __future__ import annotations

from typing import cast

from fastapi import FastAPI, HTTPException
from starlette.requests import HTTPConnection

from feltro.server.room import Room
from feltro.server.rooms import RoomManager
from feltro.server.security import TokenBucket
from feltro.server.server_config import ServerConfig

__all__ = ["base_url", "config_of", "creators_of", "manager_of", "room_of", "serve_state"]


def serve_state(app: FastAPI, config: ServerConfig, manager: RoomManager) -> None:
    """Give *app* what the routes read from ``app.state``."""
    app.state.config = config
    app.state.manager = manager
    app.state.creators = {}


def manager_of(conn: HTTPConnection) -> RoomManager:
    """The room manager of the app serving *conn* (a request or a websocket)."""
    return cast(RoomManager, conn.app.state.manager)


def config_of(conn: HTTPConnection) -> ServerConfig:
    """The server configuration of the app serving *conn*."""
    return cast(ServerConfig, conn.app.state.config)


def creators_of(conn: HTTPConnection) -> dict[str, TokenBucket]:
    """Table-creation rate limits, per client address."""
    return cast(dict[str, TokenBucket], conn.app.state.creators)


def room_of(conn: HTTPConnection, table_id: str) -> Room:
    """The room of *table_id*. :raises HTTPException: 404 when there is no such table."""
    room = manager_of(conn).rooms.get(table_id)
    if room is None:
        raise HTTPException(404, "no such table")
    return room


def base_url(conn: HTTPConnection) -> str:
    """The base of the links handed out (the configured public URL, else the request's)."""
    url = config_of(conn).public_url or str(conn.base_url)
    return url if url.endswith("/") else url + "/"
