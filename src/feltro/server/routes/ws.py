"""``WS /ws/{table_id}``: the game protocol (:mod:`feltro.server.protocol`).

The origin is checked first (a page of another site may not drive a table); the frames are then
handed to the table's :class:`~feltro.server.room.Room`, and sent back by the connection's own
writer task.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from feltro.server.connection import SEND_TIMEOUT, Connection
from feltro.server.protocol import ErrorCode, error_frame
from feltro.server.room import Room
from feltro.server.routes import config_of, manager_of
from feltro.server.security import origin_allowed
from feltro.server.ws_transport import FRAMES_EXTENSION

__all__ = ["router"]

log = logging.getLogger("feltro.server")

router = APIRouter()


@router.websocket("/ws/{table_id}")
async def websocket_endpoint(websocket: WebSocket, table_id: str) -> None:
    config = config_of(websocket)
    origin = websocket.headers.get("origin")
    scheme = "https" if websocket.url.scheme == "wss" else "http"
    if not origin_allowed(origin, websocket.headers.get("host"), config.allowed_origins,
                          scheme=scheme):
        log.warning("websocket refused: origin not allowed")
        await websocket.close(code=1008)
        return
    room = manager_of(websocket).rooms.get(table_id)
    await websocket.accept()
    if room is None:
        await websocket.send_text(error_frame(ErrorCode.BAD_TOKEN, "no such table"))
        await websocket.close(code=4404)
        return
    address = websocket.client.host if websocket.client else "?"
    refusal = room.admit(address)
    if refusal is not None:
        await websocket.send_text(error_frame(ErrorCode.RATE_LIMITED, refusal))
        await websocket.close(code=1013)
        return

    async def close(code: int) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(websocket.close(code=code), SEND_TIMEOUT)

    conn = manager_of(websocket).new_connection(websocket.send_text, close, address)
    budget = (websocket.scope.get("extensions") or {}).get(FRAMES_EXTENSION)
    if isinstance(budget, dict):  # control frames spend the same budget as messages
        budget["bucket"] = conn.bucket
    room.attach(conn)
    loop = asyncio.get_running_loop()
    writer = loop.create_task(conn.writer())
    reader = loop.create_task(_read(websocket, room, conn))
    try:
        # The writer ends when the connection closes, or when the client stopped reading (a
        # send that cannot leave in time): then the reader, waiting on a client that may
        # never speak again, is stopped too.
        await asyncio.wait({reader, writer}, return_when=asyncio.FIRST_COMPLETED)
        if writer.done() and not reader.done():
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await reader
    finally:
        await room.detach(conn)
        with contextlib.suppress(asyncio.TimeoutError, Exception):
            await asyncio.wait_for(writer, timeout=2)
        if not writer.done():
            writer.cancel()
        if not reader.done():
            reader.cancel()


async def _read(websocket: WebSocket, room: Room, conn: Connection) -> None:
    """Pass every frame to the room until the socket or the room closes it."""
    with contextlib.suppress(WebSocketDisconnect):
        while not conn.closing:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
            data = message.get("text")
            if data is None:
                data = message.get("bytes") or b""
            await room.receive(conn, data)
