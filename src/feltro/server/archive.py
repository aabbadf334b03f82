"""Tables that are over, kept small: what their players may still ask for once a table leaves
memory (:class:`ArchivedTable`), and when a table leaves it (:class:`Lifecycle`).

A table is live while it is in its lobby or being played. Every table in memory, and every
archived table a stranger's address created, counts against the server's limit
(:mod:`feltro.server.budgets`); the creating address is journaled with the table and kept in
its archive record, so a restart forgets none of it. A table that is over is archived after
:attr:`Lifecycle.finished_after` seconds; one whose every connection has been gone for
:attr:`Lifecycle.abandoned_after` is archived as it stands (its series log stays, so its players
keep their standings, chart and hand histories); a lobby nobody is connected to is dropped after
:attr:`Lifecycle.lobby_after`.
The decision is a pure function of the table's state and the clock, so it is tested on its own.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal

__all__ = ["MAX_ARCHIVED", "UNKNOWN_CREATOR", "ArchivedTable", "Fate", "Lifecycle", "creator_of"]

MAX_ARCHIVED: Final = 10_000
"""Archived tables remembered in memory (the oldest are forgotten first; their files stay)."""

Fate = Literal["keep", "archive", "drop"]

UNKNOWN_CREATOR: Final = "?"
"""The creator of a table whose records name none (written before the address was kept)."""
_MAX_ADDRESS: Final = 64


def creator_of(body: Mapping[str, Any]) -> str:
    """The address a ``created`` or ``archived`` record names as the table's creator
    (:data:`UNKNOWN_CREATOR` when it names none, or nothing like an address)."""
    creator = body.get("creator")
    if isinstance(creator, str) and 0 < len(creator) <= _MAX_ADDRESS:
        return creator
    return UNKNOWN_CREATOR


@dataclass(frozen=True, kw_only=True)
class Lifecycle:
    """How long tables stay in memory (seconds)."""

    finished_after: float = 6 * 3600.0
    """A table whose series is over, after it ended."""
    abandoned_after: float = 24 * 3600.0
    """A started table that nobody has been connected to."""
    lobby_after: float = 2 * 3600.0
    """A table never started that nobody has been connected to."""

    def fate(self, *, status: str, over_for: float | None, idle_for: float | None) -> Fate:
        """What to do with a table now.

        *over_for*: seconds since its series was seen over (``None``: not over); *idle_for*:
        seconds since its last connection closed (``None``: someone is connected).
        """
        if status == "lobby":
            return "drop" if idle_for is not None and idle_for > self.lobby_after else "keep"
        if over_for is not None and over_for > self.finished_after:
            return "archive"
        if idle_for is not None and idle_for > self.abandoned_after:
            return "archive"
        return "keep"


@dataclass(frozen=True)
class ArchivedTable:
    """An archived table: its public summary and chips chart, who held which seat (token
    hashes only), and its series log's file name (for the players' hand histories)."""

    table_id: str
    summary: Mapping[str, Any]
    chips: Mapping[str, Any]
    seats: Mapping[str, int]
    series_file: str | None
    fair: str | None = None
    """The reveal mode of its verifiable shuffle (``"series"`` or ``"hand"``); ``None`` for a
    series dealt without one: its log is replayed with the same decks."""
    fair_record: Mapping[str, Any] | None = None
    """Its fair dealer's :meth:`~feltro.server.fairplay.FairPlay.archive_record`: every hand's
    seals and values (the decks depend on them), who was asked, the alarms."""
    archived_at: str | None = None
    """When it was archived (ISO 8601): its files are deleted after the retention."""
    creator: str = UNKNOWN_CREATOR
    """The address that created it (counts against that address's budget, and a stranger's
    against the server's)."""

    def seat_of(self, token_hash: str) -> int | None:
        """The seat a player's token held, or ``None``."""
        return self.seats.get(token_hash)

    def to_record(self) -> dict[str, Any]:
        """The journal body that brings it back after a restart."""
        record = {"summary": dict(self.summary), "chips": dict(self.chips),
                  "seats": dict(self.seats), "series": self.series_file,
                  "creator": self.creator}
        if self.fair is not None:
            record["fair"] = self.fair
        if self.fair_record is not None:
            record["fair_record"] = dict(self.fair_record)
        return record

    @classmethod
    def from_record(cls, table_id: str, body: Mapping[str, Any],
                    at: str | None = None) -> ArchivedTable:
        """The table :meth:`to_record` described, archived *at*.

        :raises KeyError, TypeError: if damaged."""
        seats = {str(k): int(v) for k, v in dict(body["seats"]).items()}
        series = body.get("series")
        fair = body.get("fair")
        extra = body.get("fair_record")
        return cls(table_id, dict(body["summary"]), dict(body["chips"]), seats,
                   series if isinstance(series, str) else None,
                   fair if fair in ("series", "hand") else None,
                   dict(extra) if isinstance(extra, Mapping) else None, archived_at=at,
                   creator=creator_of(body))
