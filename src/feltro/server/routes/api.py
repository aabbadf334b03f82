"""The HTTP API (JSON unless said otherwise; ``docs/protocol.md`` has examples).

* ``GET /healthz`` — ``ok``.
* ``GET /api/info`` — server and protocol version.
* ``POST /api/tables`` — create a table (:class:`~feltro.server.protocol.CreateTable`); the answer
  holds the host token and the links. Rate-limited per client address.
* ``GET /api/tables`` and ``GET /api/tables/{id}`` — public summaries (no secrets).
* ``GET /api/tables/{id}/qr.svg`` — the QR code of the table's join link.
* ``POST /api/qr`` — a QR code (SVG) of any short text, e.g. a seat link to move to another
  phone; the text travels in the body, never in a URL (URLs end up in access logs).
* ``GET /api/tables/{id}/chips`` — every player's chips after each hand (for a chart).
* ``POST /api/tables/{id}/hands`` — the finished hands as the table showed them, to review;
  with a seat token, that seat's own hole cards too.
* ``GET /api/tables/{id}/fairness`` — the verifiable shuffle's series export
  (``feltro-fair-export/1``, ``docs/fairness.md``), with only what may be revealed so far.
* ``POST /api/tables/{id}/histories`` — a player's own finished hands as PHH (``.phhs``), other
  players' unshown cards as ``??``; the seat token goes in the JSON body.
"""

from __future__ import annotations

import contextlib
import io
import logging
from collections.abc import Iterator
from typing import Any, Final

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import PlainTextResponse, Response
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from feltro import __version__
from feltro.errors import FeltroError, HistoryError, StoreError
from feltro.series_log import SeriesStore
from feltro.server.archive import ArchivedTable
from feltro.server.budgets import Refusal, TableRefusedError
from feltro.server.downloads import fair_export, player_histories
from feltro.server.fairplay import FairPlay
from feltro.server.hand_review import reviewed_hands
from feltro.server.protocol import (
    MAX_MESSAGE_BYTES,
    PROTOCOL_VERSION,
    CreateTable,
    ErrorCode,
    ProtocolError,
)
from feltro.server.room import Room
from feltro.server.rooms import RoomManager
from feltro.server.routes import base_url, config_of, creators_of, manager_of, room_of
from feltro.server.security import TokenBucket, hash_token
from feltro.server.table_settings import TableSettings
from feltro.server.views import chips_view, summary_view

__all__ = ["HandsRequest", "HistoriesRequest", "QrRequest", "router"]

router = APIRouter()
LOOPBACK_CREATION_FACTOR: Final = 6
"""Loopback's table-creation budget, in multiples of an address's."""
log = logging.getLogger("feltro.server")

_LOOPBACK: Final = frozenset({"127.0.0.1", "::1"})


class HistoriesRequest(BaseModel):
    """``POST /api/tables/{id}/histories``: the seat token (in the body, never in a URL)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    token: str = Field(min_length=16, max_length=128)


class QrRequest(BaseModel):
    """``POST /api/qr``."""

    model_config = ConfigDict(extra="forbid", strict=True)
    text: str = Field(min_length=1, max_length=512)


@router.get("/healthz", response_class=PlainTextResponse)
async def healthz() -> str:
    return "ok"


@router.get("/api/info")
async def info(request: Request) -> dict[str, Any]:
    return {"server": "feltro", "version": __version__, "protocol": PROTOCOL_VERSION,
            "boot": manager_of(request).boot, "max_message_bytes": MAX_MESSAGE_BYTES}


REFUSED: Final[dict[Refusal, str]] = {
    "server_full": "this server holds too many tables; finish or leave one first",
    "address_full": "this address holds too many tables; finish or leave one first",
    "data_full": "this server's data folder is full; the host must free space first",
}
"""The log's words for a refused table (people read ``create_refused.<code>``)."""


@router.post("/api/tables", status_code=201)
async def create_table(request: Request) -> dict[str, Any]:
    _limit_creation(request)
    body = await request.body()
    if len(body) > MAX_MESSAGE_BYTES:
        raise HTTPException(413, "request too large")
    try:
        choices = CreateTable.model_validate_json(body or b"{}")
        settings = TableSettings.from_request(choices)
        creator = request.client.host if request.client else "?"
        room, token = manager_of(request).create_table(settings, creator=creator)
    except ValidationError as exc:
        first = exc.errors(include_url=False, include_input=False)[0]
        where = ".".join(str(part) for part in first["loc"]) or "body"
        raise HTTPException(422, f"{where}: {first['msg']}") from None
    except ProtocolError as exc:
        raise HTTPException(422 if exc.code is ErrorCode.INVALID else 503, exc.reason) from None
    except TableRefusedError as exc:  # the page words it from the code
        raise HTTPException(503, {"error": REFUSED[exc.refusal], "code": exc.refusal}) from None
    except StoreError as exc:  # the details (with paths) go to the log, not to the page
        log.error("a new table cannot be saved: %s", exc)
        raise HTTPException(503, "the server cannot save a new table right now; try again "
                            "in a moment") from None
    table_id = room.table.table_id
    base = base_url(request)
    return {"table_id": table_id, "host_token": token,
            "host_url": f"{base}host/{table_id}#{token}",
            "join_url": f"{base}join/{table_id}",
            "table_url": f"{base}table/{table_id}",
            "qr_url": f"{base}api/tables/{table_id}/qr.svg",
            "ws_url": f"{base.replace('http', 'ws', 1)}ws/{table_id}"}


def _limit_creation(request: Request) -> None:
    """Refuse (429) an address that created too many tables lately, or that holds too many
    lobbies nobody has started. Loopback (the host's own machine, but also everyone behind a
    tunnel) gets a larger budget, never an endless one."""
    client = request.client.host if request.client else "?"
    config = config_of(request)
    per_minute = config.create_per_minute * (LOOPBACK_CREATION_FACTOR if client in _LOOPBACK
                                             else 1)
    bucket = creators_of(request).setdefault(
        client, TokenBucket(per_minute / 60, per_minute, config.clock.monotonic))
    if not bucket.take():
        raise HTTPException(429, "too many tables created from this address; wait a bit")
    if client not in _LOOPBACK and \
            manager_of(request).lobbies_of(client) >= config.max_lobbies_per_address:
        raise HTTPException(429, "this address already has tables nobody has started; start "
                            "or leave one of them first")


@router.get("/api/tables")
async def list_tables(request: Request) -> list[dict[str, Any]]:
    return [_summary(room) for room in manager_of(request).rooms.values()]


@router.get("/api/tables/{table_id}")
async def table_summary(table_id: str, request: Request) -> dict[str, Any]:
    archived = manager_of(request).archive.get(table_id)
    if archived is not None and table_id not in manager_of(request).rooms:
        return dict(archived.summary)
    room = room_of(request, table_id)
    async with room.lock:
        summary = _summary(room)
    summary["join_url"] = f"{base_url(request)}join/{table_id}"
    summary["settings"] = room.table.settings.to_dict()
    return summary


@router.get("/api/tables/{table_id}/qr.svg")
async def table_qr(table_id: str, request: Request) -> Response:
    room_of(request, table_id)
    return Response(qr_svg(f"{base_url(request)}join/{table_id}"), media_type="image/svg+xml")


@router.post("/api/qr")
async def any_qr(body: QrRequest) -> Response:
    return Response(qr_svg(body.text), media_type="image/svg+xml",
                    headers={"Cache-Control": "no-store"})


@router.post("/api/tables/{table_id}/histories")
async def histories(table_id: str, body: HistoriesRequest, request: Request) -> Response:
    manager = manager_of(request)
    archived = manager.archive.get(table_id)
    if archived is not None and table_id not in manager.rooms:
        seat = archived.seat_of(hash_token(body.token))
        if seat is None:
            raise HTTPException(403, "that is not a seat token of this table")
        text = _archived_histories(manager, archived, seat)
    else:
        room = room_of(request, table_id)
        async with room.lock:  # a table's step runs in a writer thread: read between steps
            table = room.table
            identity = table.lobby.identify(body.token)
            if identity is None or identity.role != "player" or identity.seat is None:
                raise HTTPException(403, "that is not a seat token of this table")
            if table.store is None:
                raise HTTPException(409, "the series has not started")
            seat = identity.seat
            try:
                text = player_histories(table.store, seat, table.fairplay)
            except HistoryError as exc:
                raise HTTPException(409, str(exc)) from None
    name = f"feltro-{table_id}-seat{seat}.phhs"
    return Response(text, media_type="text/plain; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="{name}"',
                             "Cache-Control": "no-store"})


class HandsRequest(BaseModel):
    """``POST /api/tables/{id}/hands``: optionally a seat token (in the body, never in a URL),
    for that seat's own hole cards."""

    model_config = ConfigDict(extra="forbid", strict=True)
    token: str | None = Field(default=None, min_length=16, max_length=128)


@router.post("/api/tables/{table_id}/hands")
async def hands(table_id: str, body: HandsRequest, request: Request) -> dict[str, Any]:
    """The finished hands as the table showed them (public logs), oldest first; with a seat
    token, that seat's own hole cards too (:mod:`feltro.server.hand_review`)."""
    manager = manager_of(request)
    archived = manager.archive.get(table_id)
    if archived is not None and table_id not in manager.rooms:
        seat = archived.seat_of(hash_token(body.token)) if body.token else None
        with _archived_store(manager, archived) as (store, _fair):
            return {"hands": reviewed_hands(store.series, seat)}
    room = room_of(request, table_id)
    async with room.lock:
        table = room.table
        identity = table.lobby.identify(body.token) if body.token else None
        seat = identity.seat if identity is not None and identity.role == "player" else None
        if table.store is None:
            return {"hands": []}
        return {"hands": reviewed_hands(table.store.series, seat)}


@router.get("/api/tables/{table_id}/chips")
async def chips(table_id: str, request: Request) -> dict[str, Any]:
    manager = manager_of(request)
    archived = manager.archive.get(table_id)
    if archived is not None and table_id not in manager.rooms:
        return dict(archived.chips)
    room = room_of(request, table_id)
    async with room.lock:
        return chips_view(room.table.snapshot())


@router.get("/api/tables/{table_id}/fairness")
async def fairness(table_id: str, request: Request) -> dict[str, Any]:
    """The ``feltro-fair-export/1`` series export: only what may be revealed so far."""
    manager = manager_of(request)
    archived = manager.archive.get(table_id)
    if archived is not None and table_id not in manager.rooms:
        if archived.fair is None:
            raise HTTPException(409, "this table has no verifiable shuffle to export")
        with _archived_store(manager, archived) as (store, fair):
            assert fair is not None
            return fair_export(store, fair)
    room = room_of(request, table_id)
    async with room.lock:  # a table's step runs in a writer thread: read between steps
        table = room.table
        if table.store is None or table.fairplay is None:
            raise HTTPException(409, "this table has no verifiable shuffle to export (its "
                                     "series has not started, or started before the fair "
                                     "dealer)")
        return fair_export(table.store, table.fairplay)


def _archived_histories(manager: RoomManager, archived: ArchivedTable, seat: int) -> str:
    """A player's hand histories from an archived table's series log (opened for the
    moment of the download)."""
    with _archived_store(manager, archived) as (store, fair):
        try:
            return player_histories(store, seat, fair)
        except FeltroError as exc:
            log.error("histories of an archived table: %s", exc)
            raise HTTPException(409, "the hand histories of this table cannot be read") from None


@contextlib.contextmanager
def _archived_store(manager: RoomManager, archived: ArchivedTable
                    ) -> Iterator[tuple[SeriesStore, FairPlay | None]]:
    """An archived table's series log, replayed with the decks it was dealt (its fair dealer,
    if it had one)."""
    if archived.series_file is None:
        raise HTTPException(409, "the series never started")
    fair = (FairPlay(archived.table_id, "hand" if archived.fair == "hand" else "series")
            if archived.fair is not None else None)
    if fair is not None and archived.fair_record is not None:  # its values deal its decks
        fair.restore_archive(archived.fair_record)
    try:
        store = SeriesStore.open(manager.folder / "tables" / archived.series_file,
                                 seal=manager.seal,
                                 deck_source=fair.deck_source if fair is not None else None)
    except (FeltroError, OSError) as exc:
        log.error("the series log of an archived table: %s", exc)
        raise HTTPException(409, "the hand histories of this table cannot be read") from None
    try:
        yield store, fair
    finally:
        store.close()


def _summary(room: Room) -> dict[str, Any]:
    """A table's summary, without waiting: while a step runs in a writer thread (its lock is
    held), the state last sent to its players; else the table as it is."""
    latest = room.latest
    snap = latest[1] if room.lock.locked() and latest is not None else room.table.snapshot()
    return summary_view(snap, room.table.created_at)


def qr_svg(text: str) -> bytes:
    """*text* as a QR code: a standalone SVG document (with its xmlns), so that it works as an
    ``<img>`` and as a download."""
    import segno

    qr = segno.make(text, error="m")
    out = io.BytesIO()
    qr.save(out, kind="svg", scale=6, border=2, xmldecl=False)
    return out.getvalue()
