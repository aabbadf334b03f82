"""What a stranger can leave running on the server, bounded: :class:`Budgets`.

A table created from another machine plays at human pace (a few seconds between hands, a
second per bot decision) and for a bounded number of hands; a started table nobody is connected
to pauses (:meth:`Budgets.paused`) and goes on when someone comes back. Every table in memory —
finished ones too, and archived ones its creator left — counts against the creator's budget and
the server's, and a few places stay for the host's own machine. The data folder has a quota:
once it is full, new tables are refused (running tables and their logs carry on), and archived
tables' files are deleted after :attr:`Budgets.archive_retention` seconds.

The decisions are pure functions of numbers (tested on their own); the room manager applies
them (:class:`~feltro.server.rooms.RoomManager`).
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal

from feltro.server.table_settings import TableSettings

__all__ = ["GIB", "Budgets", "Refusal", "TableRefusedError", "folder_bytes"]

GIB: Final = 1024 ** 3
Refusal = Literal["server_full", "address_full", "data_full"]
"""Why a new table is refused (the words are ``create_refused.<refusal>`` in the catalogue)."""


class TableRefusedError(Exception):
    """A new table refused: :attr:`refusal` says why."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal)
        self.refusal: Refusal = refusal


@dataclass(frozen=True, kw_only=True)
class Budgets:
    """Limits on what tables cost, for tables created from other machines above all."""

    pause_unwatched_after: float | None = 60.0
    """Seconds a started table runs with nobody connected before it pauses (``None``: never)."""
    remote_between_hands: float = 3.0
    """The shortest pause between hands of a table created from another machine (seconds)."""
    remote_bot_seconds: float = 1.0
    """The shortest time a bot takes to decide at such a table (seconds)."""
    remote_max_hands: int | None = 500
    """The most hands such a table plays (``None``: no limit)."""
    max_tables_per_address: int = 20
    """Tables one address (not the host's machine) may hold: lobbies, games, finished tables
    and archived ones still remembered."""
    reserved_for_host: int = 20
    """Places of the server's table limit that only the host's machine may take."""
    data_quota_bytes: int = 2 * GIB
    """The most the data folder may hold before new tables are refused."""
    archive_retention: float = 30 * 86400.0
    """Seconds an archived table's files are kept (``0``: for ever)."""

    def paced(self, settings: TableSettings, *, remote: bool) -> TableSettings:
        """*settings* at human pace and with a hand limit when *remote* (unchanged from the
        host's machine)."""
        if not remote:
            return settings
        hands, limit = settings.max_hands, self.remote_max_hands
        if limit is not None:
            hands = limit if hands is None else min(hands, limit)
        return dataclasses.replace(
            settings,
            between_hands_seconds=max(settings.between_hands_seconds, self.remote_between_hands),
            bot_seconds=max(settings.bot_seconds, self.remote_bot_seconds), max_hands=hands)

    def paused(self, *, started: bool, unwatched_for: float | None) -> bool:
        """Whether a table stands still: started, and nobody connected for long enough."""
        limit = self.pause_unwatched_after
        return (started and limit is not None and unwatched_for is not None
                and unwatched_for >= limit)

    def refusal(self, *, remote: bool, held: int, held_by_address: int, max_tables: int,
                data_bytes: int) -> Refusal | None:
        """Why one more table may not be created now, or ``None``.

        *held*: tables in memory (finished ones too); *held_by_address*: those of the creator's
        address, archived ones still remembered included.
        """
        if data_bytes >= self.data_quota_bytes:
            return "data_full"
        if held >= max_tables or (remote and held >= max_tables - self.reserved_for_host):
            return "server_full"
        if remote and held_by_address >= self.max_tables_per_address:
            return "address_full"
        return None

    def expired(self, *, archived_for: float) -> bool:
        """Whether an archived table's files are past their retention."""
        return self.archive_retention > 0 and archived_for > self.archive_retention


def folder_bytes(folder: Path) -> int:
    """The bytes the files under *folder* take (files that vanish while counted count 0)."""
    total = 0
    stack = [folder]
    while stack:
        current = stack.pop()
        try:
            entries = list(os.scandir(current))
        except OSError:
            continue
        for entry in entries:
            try:
                if entry.is_dir(follow_symlinks=False):
                    stack.append(Path(entry.path))
                elif entry.is_file(follow_symlinks=False):
                    total += entry.stat(follow_symlinks=False).st_size
            except OSError:
                continue
    return total
