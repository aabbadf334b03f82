"""How each journal record changes a live table, live as it is written or replayed after a
restart (:meth:`feltro.server.live_table.LiveTable.apply`).

The records about the table's people (seats, requests, the host) are the lobby's
(:data:`feltro.server.lobby.SEAT_RECORDS`); the ones here change the table itself; ``timeout``
is both.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Final

from feltro.server.archive import creator_of
from feltro.server.fairplay import FairPlay
from feltro.server.lobby import SEAT_RECORDS

if TYPE_CHECKING:
    from feltro.server.live_table import LiveTable

__all__ = ["TABLE_RECORDS", "apply_record"]


def apply_record(table: LiveTable, kind: str, body: Mapping[str, Any]) -> None:
    """Apply one journal record of *kind* to *table*.

    :raises ValueError: for a kind no server wrote.
    """
    handler = TABLE_RECORDS.get(kind)
    if handler is None and kind not in SEAT_RECORDS:
        raise ValueError(f"unknown server record kind {kind!r}")
    if kind in SEAT_RECORDS:
        table.lobby.apply(kind, body)
    if handler is not None:
        handler(table, body)


def _created(table: LiveTable, body: Mapping[str, Any]) -> None:
    table.creator = creator_of(body)


def _started(table: LiveTable, body: Mapping[str, Any]) -> None:
    table.series_file = body["series"]
    fair = body.get("fair")
    if isinstance(fair, Mapping) and table.fairplay is None:
        table.fairplay = FairPlay(table.table_id,
                                  "hand" if fair.get("reveal") == "hand" else "series")


def _contributed(table: LiveTable, body: Mapping[str, Any]) -> None:
    if table.fairplay is None:
        raise ValueError("a contribution to a table without the fair dealer")
    table.fairplay.record(body)


def _paused(table: LiveTable, body: Mapping[str, Any]) -> None:
    table.paused = True


def _resumed(table: LiveTable, body: Mapping[str, Any]) -> None:
    table.paused = False


def _stop(table: LiveTable, body: Mapping[str, Any]) -> None:
    table.stop_logged = True


def _timeout(table: LiveTable, body: Mapping[str, Any]) -> None:
    table.last_timeout = (body["seat"], body["hand"], body["turn"])


TABLE_RECORDS: Final[dict[str, Callable[[LiveTable, Mapping[str, Any]], None]]] = {
    "created": _created,
    "started": _started,
    "paused": _paused,
    "resumed": _resumed,
    "stop": _stop,
    "timeout": _timeout,
    "contributed": _contributed,
}
"""Journal record kind -> how it changes the table itself."""
