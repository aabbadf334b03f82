"""Rebuilding a table from its logs after a restart (or a stall): :func:`restore`.

A table's journal is replayed record by record through :meth:`LiveTable.apply
<feltro.server.live_table.LiveTable.apply>`, the function every live change goes through, then
its series log is reopened and the two are reconciled: what a crash interrupted between the
journal and the series log is finished (a ``stop`` the series did not get yet; a timeout whose
check or fold is missing). Timers are rebased: the player to act gets a fresh action timer and
the bank they had (the downtime is nobody's fault).

A table whose records or series log cannot be read comes back *broken* (its ``problem`` says
why): visible, read-only, never half-resumed (:func:`quarantined` shows one from its
``created`` record alone).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from pathlib import Path

from feltro.errors import StoreUnavailableError
from feltro.seal import SeedSeal
from feltro.series_log import SeriesStore
from feltro.server.clock import Clock
from feltro.server.journal import Journal, JournalRecord
from feltro.server.live_table import LiveTable
from feltro.server.table_settings import TableSettings

__all__ = ["quarantined", "restore"]

log = logging.getLogger("feltro.server")


def restore(table_id: str, records: Iterable[JournalRecord], journal: Journal, folder: Path,
            clock: Clock, *, seal: SeedSeal | None = None) -> LiveTable:
    """The table *table_id* as its journal *records* and its series log have it.

    :raises ValueError: if the first record is not a ``created`` record.
    """
    items = list(records)
    if not items or items[0].kind != "created":
        raise ValueError(f"table {table_id}: the first record is not 'created'")
    table = LiveTable(table_id, TableSettings.from_dict(items[0].body["settings"]), journal,
                      folder, clock)
    table.seal = seal
    try:
        for record in items:
            if record.kind == "corrupt":
                raise ValueError(f"server log record {record.seq} is damaged")
            table.apply(record.kind, record.body)
            if record.kind == "created":
                table.created_at = record.at
    except (KeyError, TypeError, ValueError) as exc:
        log.error("table %s: its server log cannot be replayed: %s", table_id, exc)
        table.problem = "damaged"
        return table
    if table.series_file is not None:
        _reopen_series(table, folder / table.series_file)
    return table


def _reopen_series(table: LiveTable, path: Path) -> None:
    """Open *table*'s series log, seat its people, finish what a crash interrupted."""
    fair = table.fairplay
    try:
        store = SeriesStore.open(path, seal=table.seal,
                                 deck_source=fair.deck_source if fair is not None else None)
    except StoreUnavailableError as exc:  # cannot be read now: retried by the room
        log.warning("table %s: its series log cannot be read now: %s", table.table_id, exc)
        table.stalled = True
        return
    except Exception as exc:  # any damage quarantines this table, never the server
        log.error("table %s: its series log cannot be resumed: %s", table.table_id, exc)
        table.problem = "damaged" if path.is_file() else "missing"
        return
    try:
        table.open_series(store)
        _reconcile(table)
        table.follow_series(table.clock.monotonic(), fresh_deal_delay=True)
    except BaseException:
        table.close()
        raise


def _reconcile(table: LiveTable) -> None:
    """Finish what a crash interrupted between the journal and the series log."""
    seated = table.seated
    assert seated is not None
    assert table.store is not None
    if table.stop_logged and not seated.series.stop_requested:
        table.store.request_stop()
    if table.last_timeout is not None and seated.series.in_hand:
        seat, hand_no, turn = table.last_timeout
        if seated.turn_key == (hand_no, turn) and seated.series.to_act == seat:
            table.log_public(seated.play_default(seat), timeout=True)


def quarantined(table_id: str, created: JournalRecord, journal: Journal, folder: Path,
                clock: Clock, problem: str) -> LiveTable:
    """A table whose logs cannot be read, shown read-only from its ``created`` record.

    :raises KeyError, TypeError, ValueError: if *created* is not a readable ``created``.
    """
    if created.kind != "created":
        raise ValueError(f"table {table_id}: the first record is not 'created'")
    table = LiveTable(table_id, TableSettings.from_dict(created.body["settings"]), journal,
                      folder, clock)
    table.apply("created", created.body)  # its host can still open it and read why
    table.created_at = created.at
    table.problem = problem
    return table
