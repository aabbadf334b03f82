"""Seasons on the server (``docs/seasons.md``): the pages and their JSON API.

* ``GET /seasons`` and ``GET /season/{slug}`` — the pages (``static/js/season.js``).
* ``GET /api/seasons`` — every season: name, series, players, leader.
* ``POST /api/seasons`` — start a season (``name``, ``players``, optional ``points``);
  rate-limited per client address like table creation.
* ``GET /api/seasons/{slug}`` — standings, series and the chart's points.
* ``GET /api/seasons/{slug}/csv?lang=`` — the standings as CSV.
* ``POST /api/seasons/{slug}/nights`` — a table joins the season once its series is over:
  ``table_id`` and a token of that table (its host's, or a seated player's), in the body.
* ``POST /api/seasons/{slug}/nights/remove`` — the same, to take it out again.

Seasons live in :attr:`ServerConfig.seasons_dir` (``feltro serve``: the data folder's
``seasons/``, shared with ``feltro season``). A refusal is ``{"error": <English>, "code":
<reason>, "params": {...}}``: the page words it as ``season.error.<code>``.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Final

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from feltro.errors import FeltroError
from feltro.i18n import LANGUAGES, t
from feltro.season import (
    Night,
    SeasonBook,
    SeasonError,
    add_night,
    cumulative_points,
    list_seasons,
    new_season,
    read_season,
    remove_night,
    season_csv,
    standings,
)
from feltro.season.folder import SLUG, SUFFIX
from feltro.season.model import DEFAULT_POINTS, Season
from feltro.server.routes import config_of, creators_of, manager_of
from feltro.server.routes.pages import page
from feltro.server.security import TokenBucket, hash_token, same_hash

if TYPE_CHECKING:
    from feltro.series import Series
    from feltro.server.archive import ArchivedTable
    from feltro.server.live_table import LiveTable
    from feltro.server.rooms import RoomManager

__all__ = ["router", "season_view"]

router = APIRouter()

SEASONS_PER_MINUTE: Final = 10.0
"""Seasons one client address may start per minute."""
_STATUS: Final = {"no-season": 404, "no-table": 404, "not-at-table": 403, "busy": 503,
                  "unavailable": 503, "damaged": 409, "rate-limited": 429,
                  "table-unreadable": 409}
"""The HTTP status of each refusal (others: 422, the request cannot be done as asked)."""

PlayerName = Annotated[str, Field(min_length=1, max_length=24)]


class CreateSeason(BaseModel):
    """``POST /api/seasons``."""

    model_config = ConfigDict(extra="forbid", strict=True)
    name: str = Field(min_length=1, max_length=40)
    players: list[PlayerName] = Field(min_length=2, max_length=40)
    points: list[int] | None = Field(default=None, min_length=1, max_length=10)


class TableNight(BaseModel):
    """``POST /api/seasons/{slug}/nights`` (and ``.../remove``): the token goes in the body,
    never in a URL."""

    model_config = ConfigDict(extra="forbid", strict=True)
    table_id: str = Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")
    token: str = Field(min_length=16, max_length=128)


def refused(error: SeasonError) -> JSONResponse:
    """*error* as the API says it."""
    params = {k: v if isinstance(v, int) else str(v) for k, v in error.params.items()}
    return JSONResponse({"error": str(error), "code": error.reason, "params": params},
                        status_code=_STATUS.get(error.reason, 422))


def _invalid(exc: ValidationError) -> JSONResponse:
    first = exc.errors(include_url=False, include_input=False)[0]
    where = ".".join(str(part) for part in first["loc"]) or "body"
    return refused(SeasonError("bad-request", f"{where}: {first['msg']}", field=where))


def _folder(request: Request) -> Path:
    config = config_of(request)
    return config.seasons_dir or config.data_dir / "seasons"


def _path(request: Request, slug: str) -> Path:
    """The file of season *slug*. :raises SeasonError: ``no-season``."""
    if not SLUG.fullmatch(slug):
        raise SeasonError("no-season", "no such season", name=slug[:40])
    return _folder(request) / f"{slug}{SUFFIX}"


def season_view(book: SeasonBook) -> dict[str, Any]:
    """A season as the page shows it (public: names and numbers, nothing hidden)."""
    nights = book.nights
    return {
        "slug": book.slug, "name": book.season.name, "players": list(book.season.players),
        "points": list(book.season.points),
        "standings": [{"place": line.place, "name": line.name, "points": line.points,
                       "series": line.series, "wins": line.wins, "hands": line.hands,
                       "biggest_pot": line.biggest_pot, "knockouts": line.knockouts,
                       "reentries": line.reentries, "places": list(line.places)}
                      for line in standings(book.season, nights)],
        "nights": [_night_view(night) for night in nights],
        "chart": cumulative_points(book.season, nights),
    }


def _night_view(night: Night) -> dict[str, Any]:
    source, _, ident = night.key.partition(":")
    return {"key": night.key, "source": source, "table_id": ident if source == "server" else None,
            "label": night.label, "date": night.day, "hands": night.hands, "end": night.end,
            "winners": [p.name for p in night.players if p.place == 1],
            "players": [{"name": p.name, "place": p.place, "bot": p.bot}
                        for p in night.players]}


# --- the pages ---------------------------------------------------------------------------------


@router.get("/seasons", include_in_schema=False)
async def seasons_page(request: Request) -> Response:
    return page(request, "season")


@router.get("/season/{slug}", include_in_schema=False)
async def season_page(slug: str, request: Request) -> Response:
    return page(request, "season")


# --- the API -----------------------------------------------------------------------------------


@router.get("/api/seasons")
async def all_seasons(request: Request) -> list[dict[str, Any]]:
    entries = await asyncio.to_thread(list_seasons, _folder(request))
    out: list[dict[str, Any]] = []
    for entry in entries:
        if entry.book is None:
            out.append({"slug": entry.slug, "problem": "damaged"})
            continue
        book = entry.book
        leaders = [line.name for line in standings(book.season, book.nights)
                   if line.place == 1 and line.points]
        out.append({"slug": book.slug, "name": book.season.name, "series": len(book.joined),
                    "players": len(book.season.players), "leaders": leaders})
    return out


@router.post("/api/seasons", status_code=201, response_model=None)
async def start_season(request: Request) -> dict[str, Any] | JSONResponse:
    try:
        if not _creation_allowed(request):
            raise SeasonError("rate-limited", "too many seasons started from this address")
        choice = CreateSeason.model_validate_json(await request.body() or b"{}")
        season = Season(choice.name, tuple(choice.players),
                        tuple(choice.points) if choice.points is not None else DEFAULT_POINTS)
        book = await asyncio.to_thread(new_season, _folder(request), season)
    except ValidationError as exc:
        return _invalid(exc)
    except SeasonError as error:
        return refused(error)
    return season_view(book)


def _creation_allowed(request: Request) -> bool:
    client = request.client.host if request.client else "?"
    clock = config_of(request).clock
    bucket = creators_of(request).setdefault(
        f"season:{client}", TokenBucket(SEASONS_PER_MINUTE / 60, SEASONS_PER_MINUTE,
                                        clock.monotonic))
    return bucket.take()


@router.get("/api/seasons/{slug}", response_model=None)
async def one_season(slug: str, request: Request) -> dict[str, Any] | JSONResponse:
    try:
        book = await asyncio.to_thread(read_season, _path(request, slug))
    except SeasonError as error:
        return refused(error)
    return season_view(book)


@router.get("/api/seasons/{slug}/csv", response_model=None)
async def season_as_csv(slug: str, request: Request, lang: str = "en") -> Response:
    language = lang if lang in LANGUAGES else "en"
    try:
        book = await asyncio.to_thread(read_season, _path(request, slug))
    except SeasonError as error:
        return refused(error)
    text = season_csv(book, lambda key: t(f"season.column.{key}", language))
    return Response(text, media_type="text/csv; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="{book.slug}.csv"',
                             "Cache-Control": "no-store"})


@router.post("/api/seasons/{slug}/nights", status_code=201, response_model=None)
async def add_table(slug: str, request: Request) -> dict[str, Any] | JSONResponse:
    try:
        path = _path(request, slug)
        body = TableNight.model_validate_json(await request.body() or b"{}")
        await asyncio.to_thread(read_season, path)  # a missing season is said first
        night = await table_night(request, body.table_id, body.token)
        book = await asyncio.to_thread(add_night, path, night)
    except ValidationError as exc:
        return _invalid(exc)
    except SeasonError as error:
        return refused(error)
    return season_view(book)


@router.post("/api/seasons/{slug}/nights/remove", response_model=None)
async def remove_table(slug: str, request: Request) -> dict[str, Any] | JSONResponse:
    try:
        path = _path(request, slug)
        body = TableNight.model_validate_json(await request.body() or b"{}")
        await asyncio.to_thread(read_season, path)
        await table_night(request, body.table_id, body.token, finished=False)
        book = await asyncio.to_thread(remove_night, path, f"server:{body.table_id}")
    except ValidationError as exc:
        return _invalid(exc)
    except SeasonError as error:
        return refused(error)
    return season_view(book)


# --- a table's night ---------------------------------------------------------------------------


async def table_night(request: Request, table_id: str, token: str, *,
                      finished: bool = True) -> Night:
    """The night of table *table_id*, for a *token* of its host or one of its players (with
    *finished* false, only the token is checked: an empty night comes back).

    :raises SeasonError: ``no-table``, ``not-at-table``, ``not-over``, ``table-unreadable``.
    """
    manager = manager_of(request)
    room = manager.rooms.get(table_id)
    if room is not None:
        async with room.lock:  # a table's step runs in a writer thread: read between steps
            return _live_night(room.table, token, finished)
    archived = manager.archive.get(table_id)
    if archived is None:
        raise SeasonError("no-table", f"no table {table_id}", table=table_id)
    return await asyncio.to_thread(_archived_night, manager, archived, token, finished)


def _night(table_id: str, name: str, created_at: str, series: Series, bots: set[int]
           ) -> Night:
    from feltro.season import night_of

    return night_of(series, key=f"server:{table_id}", label=name, date=created_at[:19],
                    bots=bots)


def _not_at_table(table_id: str) -> SeasonError:
    return SeasonError("not-at-table", f"that is not a token of table {table_id}",
                       table=table_id)


def _live_night(table: LiveTable, token: str, finished: bool) -> Night:
    """A table in memory (:class:`~feltro.server.live_table.LiveTable`)."""
    identity = table.lobby.identify(token)
    if identity is None or identity.role not in ("host", "player"):
        raise _not_at_table(table.table_id)
    if not finished:
        return _empty(table.table_id)
    if table.store is None or not table.store.series.is_over:
        raise SeasonError("not-over", f"{table.settings.name}: the series is not over yet",
                          series=table.settings.name)
    bots = {seat for seat, state in table.seats.items() if state.bot is not None}
    return _night(table.table_id, table.settings.name, table.created_at, table.store.series, bots)


def _archived_night(manager: RoomManager, archived: ArchivedTable, token: str,
                    finished: bool) -> Night:
    """A table that left memory: its series log is opened for the moment of the reading."""
    from fastapi import HTTPException

    from feltro.server.routes.api import _archived_store

    table_id = archived.table_id
    created = manager.journal.created_record(table_id) if manager.journal else None
    host = created is not None and same_hash(created.body.get("host_hash"), hash_token(token))
    if not host and archived.seat_of(hash_token(token)) is None:
        raise _not_at_table(table_id)
    if not finished:
        return _empty(table_id)
    summary = archived.summary
    bots = {int(p["seat"]) for p in summary.get("players", ()) if p.get("bot")}
    try:
        with _archived_store(manager, archived) as (store, _fair):
            return _night(table_id, str(summary.get("name", table_id)),
                          str(summary.get("created_at", "")), store.series, bots)
    except (HTTPException, FeltroError, OSError) as exc:
        raise SeasonError("table-unreadable", f"table {table_id}: {exc}",
                          table=table_id) from None


def _empty(table_id: str) -> Night:
    return Night(f"server:{table_id}", table_id, "", 0, "", ())
