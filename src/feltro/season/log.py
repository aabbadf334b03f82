"""A season's durable log: one SQLite file per season, kept like the series log.

The file is a :class:`~feltro.sqlitelog.SqliteLog` with a checksum chain (format
``feltro-season-log/1``): every change is one record, committed (WAL, full fsync) before the
call returns, so a season survives restarts and ``kill -9``; a changed, cut or damaged file is
refused with a :class:`~feltro.season.model.SeasonError` (``damaged``), never half read.

Records (``kind``: JSON body):

* ``season``: ``name``, ``players``, ``points`` (always record 1);
* ``player``: ``name`` of a player who joins the group;
* ``points``: the new ``points`` table (every night is scored again with it);
* ``night``: a series that joins the season (:meth:`Night.to_dict`);
* ``night_removed``: the ``key`` of a night that leaves it.

Changes take the file's one-writer lock (``<file>.lock``) for the moment of the change (a
terminal and a server may share a season); reading takes no lock.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from feltro.errors import StoreError, StoreUnavailableError
from feltro.filelock import FileLock
from feltro.season.model import MAX_NIGHTS, Night, Season, SeasonError, parse_points
from feltro.sqlitelog import LogFormat, Row, SqliteLog, json_object, read_log

__all__ = [
    "FORMAT",
    "SUFFIX",
    "SeasonBook",
    "add_night",
    "add_player",
    "create_season",
    "read_season",
    "remove_night",
    "set_points",
]

FORMAT: Final = "feltro-season-log/1"
LOG_FORMAT: Final = LogFormat(FORMAT, "season", "log", "chain")
SUFFIX: Final = ".season.sqlite"
"""A season's file is ``<slug>.season.sqlite``."""
LOCK_WAIT: Final = 2.0
"""Seconds a change waits for another program's change of the same season to end."""


@dataclass(frozen=True, slots=True)
class SeasonBook:
    """A season as its log says it is now."""

    path: Path
    season: Season
    joined: tuple[Night, ...]
    """The nights in the order they joined."""

    @property
    def slug(self) -> str:
        """The file's name without ``.season.sqlite``: the season's address."""
        return _label(self.path)

    @property
    def nights(self) -> tuple[Night, ...]:
        """The nights in the season's order: by date, then as they joined."""
        return tuple(sorted(self.joined, key=lambda night: night.date))

    def night(self, key: str) -> Night | None:
        """The night with *key*, if it is in the season."""
        return next((n for n in self.joined if n.key == key), None)


# --- reading -----------------------------------------------------------------------------------


def _label(path: Path) -> str:
    """How messages name a season's file: its slug."""
    return path.name.removesuffix(SUFFIX)


def _damaged(path: Path, why: str) -> SeasonError:
    return SeasonError("damaged", f"{path}: {why}", name=_label(path))


def _book(path: Path, rows: Sequence[Row]) -> SeasonBook:
    """The season *rows* describe. :raises SeasonError: ``damaged``, naming the record."""
    if not rows or rows[0].kind != "season":
        raise _damaged(path, "record 1 is not the season record")
    season: Season | None = None
    nights: list[Night] = []
    for row in rows:
        body = json_object(row.body)
        replay = _REPLAY.get(row.kind)
        if body is None or replay is None or (row.kind == "season") != (row.seq == 1):
            raise _damaged(path, f"record {row.seq} ({row.kind}) cannot be read")
        try:
            season = replay(season, nights, body)
        except (KeyError, TypeError, ValueError) as exc:  # SeasonError is a ValueError
            raise _damaged(path, f"record {row.seq} ({row.kind}): {exc}") from None
    assert season is not None
    return SeasonBook(path, season, tuple(nights))


def _on_season(season: Season | None, nights: list[Night], body: Mapping[str, Any]) -> Season:
    return Season(body["name"], tuple(body["players"]), tuple(body["points"]))


def _on_player(season: Season | None, nights: list[Night], body: Mapping[str, Any]) -> Season:
    assert season is not None
    return season.with_player(body["name"])


def _on_points(season: Season | None, nights: list[Night], body: Mapping[str, Any]) -> Season:
    assert season is not None
    return Season(season.name, season.players, parse_points(body["points"]))


def _on_night(season: Season | None, nights: list[Night], body: Mapping[str, Any]) -> Season:
    assert season is not None
    night = Night.from_dict(body)
    if any(n.key == night.key for n in nights):
        raise ValueError(f"{night.key} joins twice")
    nights.append(night)
    return season


def _on_removed(season: Season | None, nights: list[Night], body: Mapping[str, Any]) -> Season:
    assert season is not None
    kept = [n for n in nights if n.key != body["key"]]
    if len(kept) == len(nights):
        raise ValueError(f"{body['key']} was never in the season")
    nights[:] = kept
    return season


_Replay = Callable[[Season | None, list[Night], Mapping[str, Any]], Season]
_REPLAY: Final[dict[str, _Replay]] = {
    "season": _on_season, "player": _on_player, "points": _on_points, "night": _on_night,
    "night_removed": _on_removed,
}


def _store_problem(path: Path, exc: StoreError) -> SeasonError:
    if isinstance(exc, StoreUnavailableError):
        return SeasonError("unavailable", f"{path}: {exc}", name=_label(path))
    if not path.is_file():
        return SeasonError("no-season", f"{path}: no such season", name=_label(path))
    return _damaged(path, str(exc))


def read_season(path: Path) -> SeasonBook:
    """The season logged at *path* (no lock taken, nothing written).

    :raises SeasonError: ``no-season``, ``damaged`` or ``unavailable``.
    """
    try:
        rows = read_log(path, LOG_FORMAT)
    except StoreError as exc:
        raise _store_problem(path, exc) from None
    return _book(path, rows)


# --- changing ----------------------------------------------------------------------------------


def create_season(path: Path, season: Season) -> SeasonBook:
    """Start the log of *season* at *path* (which must not exist).

    :raises SeasonError: ``season-exists``, or ``unavailable`` when it cannot be written.
    """
    if path.exists():
        raise SeasonError("season-exists", f"{path}: a season is already there",
                          name=season.name)
    lock = _lock(path)
    try:
        log = SqliteLog.create(path, LOG_FORMAT, [("season", season.to_dict())])
    except StoreError as exc:
        if path.exists():
            raise SeasonError("season-exists", f"{path}: {exc}", name=season.name) from None
        raise SeasonError("unavailable", f"{path}: {exc}", name=_label(path)) from None
    finally:
        lock.release()
    log.close()
    return SeasonBook(path, season, ())


def _lock(path: Path) -> FileLock:
    """The season's writer lock, waiting up to :data:`LOCK_WAIT` for another writer.

    :raises SeasonError: ``busy`` (another writer kept it), ``unavailable`` (the lock file
        cannot be made: a folder this user cannot write).
    """
    deadline = time.monotonic() + LOCK_WAIT
    holders: list[str] = []

    def held_by(holder: str) -> str:  # FileLock's refusal: another writer has it
        holders.append(holder)
        return holder

    while True:
        try:
            return FileLock(path.with_name(path.name + ".lock"), held_by)
        except StoreError as exc:
            if not holders:
                raise SeasonError("unavailable", f"{path}: {exc}", name=_label(path)) from None
            if time.monotonic() >= deadline:
                raise SeasonError("busy", f"{path}: the season is being changed by another "
                                  f"program (pid {holders[-1]})", name=_label(path)) from None
            time.sleep(0.05)


def _change(path: Path, change: Callable[[SeasonBook], tuple[str, dict[str, Any]]]
            ) -> SeasonBook:
    """Apply one change: read the log under its lock, let *change* judge it against the season
    as it is (raising :class:`SeasonError` to refuse), append its record, read back."""
    if not path.is_file():
        raise SeasonError("no-season", f"{path}: no such season", name=_label(path))
    lock = _lock(path)
    try:
        try:
            log, rows = SqliteLog.open(path, LOG_FORMAT)
        except StoreError as exc:
            raise _store_problem(path, exc) from None
        try:
            kind, body = change(_book(path, rows))
            log.append([(kind, body)])
        except StoreError as exc:
            raise _store_problem(path, exc) from None
        finally:
            log.close()
    finally:
        lock.release()
    return read_season(path)


def add_night(path: Path, night: Night) -> SeasonBook:
    """*night* joins the season at *path*.

    :raises SeasonError: ``night-exists`` (it is there already), ``no-members`` (nobody of
        the group played in it), ``too-many-nights``, or as :func:`read_season`.
    """
    def change(book: SeasonBook) -> tuple[str, dict[str, Any]]:
        if book.night(night.key) is not None:
            raise SeasonError("night-exists", f"{night.label} is already in the season",
                              series=night.label, season=book.season.name)
        if not any(book.season.member(p.name) for p in night.people()):
            raise SeasonError("no-members", f"nobody of {book.season.name} played in "
                              f"{night.label}", series=night.label, season=book.season.name)
        if len(book.joined) >= MAX_NIGHTS:
            raise SeasonError("too-many-nights", f"a season holds at most {MAX_NIGHTS} series",
                              max=MAX_NIGHTS)
        return "night", night.to_dict()
    return _change(path, change)


def remove_night(path: Path, key: str) -> SeasonBook:
    """The night *key* leaves the season at *path*.

    :raises SeasonError: ``no-night``, or as :func:`read_season`.
    """
    def change(book: SeasonBook) -> tuple[str, dict[str, Any]]:
        if book.night(key) is None:
            raise SeasonError("no-night", f"{key} is not in the season", series=key,
                              season=book.season.name)
        return "night_removed", {"key": key}
    return _change(path, change)


def add_player(path: Path, name: str) -> SeasonBook:
    """*name* joins the group of the season at *path* (their past nights count at once).

    :raises SeasonError: ``player-exists``, a bad name, or as :func:`read_season`.
    """
    def change(book: SeasonBook) -> tuple[str, dict[str, Any]]:
        season = book.season.with_player(name)
        return "player", {"name": season.players[-1]}
    return _change(path, change)


def set_points(path: Path, points: object) -> SeasonBook:
    """A new points table for the season at *path* (every night is scored again).

    :raises SeasonError: as :func:`~feltro.season.model.parse_points` and :func:`read_season`.
    """
    table = parse_points(points)
    return _change(path, lambda book: ("points", {"points": list(table)}))
