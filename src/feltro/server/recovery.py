"""Bringing a stalled table back: :class:`StorageRetry`.

When a write fails (:meth:`Room.fault <feltro.server.room.Room.fault>`) the table stops at once.
The ticker then reloads it from its logs in a worker thread, and checks in a worker thread that
its files can be written; when they can, it resumes. A file locked or a disk full waits
(:data:`RETRY_FIRST`, doubling up to :data:`RETRY_MAX`); a file gone or damaged quarantines the
table. The event loop never waits for the disk here.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING, Final

from feltro.errors import StoreUnavailableError

if TYPE_CHECKING:
    from feltro.server.room import Room

__all__ = ["RETRY_FIRST", "RETRY_MAX", "StorageRetry"]

log = logging.getLogger("feltro.server")

RETRY_FIRST: Final = 0.2
"""Seconds before a table whose logs could not be written first tries again."""
RETRY_MAX: Final = 2.0
"""The longest wait between two tries (the wait doubles from :data:`RETRY_FIRST`)."""


class StorageRetry:
    """One room's tries to resume (see the module docstring)."""

    def __init__(self) -> None:
        self.due = 0.0
        self.wait = RETRY_FIRST
        self.reload = False
        self.task: asyncio.Task[None] | None = None

    def reset(self, now: float) -> None:
        """A fault just happened: reload at the next tick."""
        self.due, self.wait, self.reload = now, RETRY_FIRST, True

    def start(self, room: Room) -> None:
        """Try again if it is time and no try is running."""
        if self.task is not None and not self.task.done():
            return
        if room.manager.clock.monotonic() < self.due:
            return
        self.task = asyncio.get_running_loop().create_task(self._attempt(room))

    async def stop(self) -> None:
        """Stop a try in progress."""
        if self.task is not None and not self.task.done():
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task

    async def _attempt(self, room: Room) -> None:
        async with room.lock:
            table_id = room.table.table_id
            try:
                if self.reload:
                    fresh = await asyncio.to_thread(room.manager.reload_table, table_id)
                    fresh.stalled = True
                    if fresh.problem is None and (fresh.store is not None
                                                  or fresh.series_file is None):
                        self.reload = False
                    room.swap(fresh)
                    if fresh.problem is not None:
                        room.changed()  # quarantined: restore found the logs damaged
                        return
                    if self.reload:
                        raise StoreUnavailableError(f"table {table_id}: series log unreadable")
                await asyncio.to_thread(room.table.probe)
            except StoreUnavailableError as exc:
                now = room.manager.clock.monotonic()
                log.warning("table %s still cannot save (%s); next try in %.1f s", table_id,
                            exc, self.wait)
                self.due, self.wait = now + self.wait, min(self.wait * 2, RETRY_MAX)
                room.changed()
                return
            except Exception as exc:  # gone or damaged: it stops for good
                log.error("table %s is quarantined: %s", table_id, exc)
                room.table.problem = room.manager.problem_of(room.table)
                room.changed()
                return
            room.table.stalled = False
            log.warning("table %s saves again; it resumes", table_id)
            room.changed()
        room.schedule_bot()
