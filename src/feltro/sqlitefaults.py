"""What a failed SQLite write means, and whether a log file is still the one that was opened.

Shared by the series log (:mod:`feltro.series_log`) and the server journal
(:mod:`feltro.server.journal`):

* :data:`BUSY_SECONDS`: how long a write waits for a lock held by another program before it
  gives up (SQLite's default is 5 s, which would freeze a server's event loop that long);
* :func:`store_error`: a failed write as a :class:`~feltro.errors.StoreUnavailableError` when it
  may succeed later (file locked, disk full, I/O error) or a plain
  :class:`~feltro.errors.StoreError` when it will not (a damaged file);
* :class:`FileIdentity`: a file deleted or replaced while open keeps taking writes that no
  one will ever read again; checking its identity before each commit turns that into an error.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from feltro.errors import StoreError, StoreUnavailableError

__all__ = ["BUSY_SECONDS", "FileIdentity", "is_transient", "store_error"]

BUSY_SECONDS = 0.05
"""Seconds a write waits for another program's lock before it fails (and is retried later)."""

_TRANSIENT_CODES = frozenset(
    getattr(sqlite3, name) for name in ("SQLITE_BUSY", "SQLITE_LOCKED", "SQLITE_FULL",
                                        "SQLITE_IOERR", "SQLITE_CANTOPEN")
    if hasattr(sqlite3, name))
_TRANSIENT_WORDS = ("locked", "busy", "disk is full", "disk i/o", "unable to open")


def is_transient(exc: BaseException) -> bool:
    """Whether *exc* is a fault that may clear by itself (lock, full disk, I/O error)."""
    if isinstance(exc, StoreUnavailableError):
        return True
    if isinstance(exc, OSError):
        return True
    if not isinstance(exc, sqlite3.Error):
        return False
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int) and code & 0xFF in _TRANSIENT_CODES:
        return True
    text = str(exc).lower()
    return any(word in text for word in _TRANSIENT_WORDS)


def store_error(message: str, exc: BaseException) -> StoreError:
    """The error to raise for a failed write: *message* plus SQLite's words."""
    kind = StoreUnavailableError if is_transient(exc) else StoreError
    return kind(f"{message} ({exc})")


class FileIdentity:
    """The device and inode of the file at *path* when it was opened."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._key = self._stat()

    def _stat(self) -> tuple[int, int] | None:
        try:
            st = os.stat(self.path)
        except OSError:
            return None
        return st.st_dev, st.st_ino

    def check(self) -> None:
        """:raises StoreError: if the file is gone or another file took its name."""
        if self._key is None or self._stat() != self._key:
            raise StoreError(f"{self.path}: the file was deleted or replaced while it was "
                             f"open; nothing more can be kept in it")
