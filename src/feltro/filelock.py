"""One writer at a time: an exclusive, non-blocking OS lock on a file that dies with its process.

Used by the series log (:mod:`feltro.series_log`) and the server's data folder. The lock file holds
the owner's pid, so the refusal can say who holds it.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import IO

from feltro.errors import StoreError

__all__ = ["FileLock"]


class FileLock:
    """Hold an exclusive lock on *path* until :meth:`release` (or the process ends).

    :raises StoreError: ``busy(holder_pid)`` when another process holds it, or when the lock
        file cannot be opened.
    """

    def __init__(self, path: Path, busy: Callable[[str], str]) -> None:
        self.path = path
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o600)
            handle: IO[str] = open(fd, "a+", encoding="utf-8")  # noqa: SIM115 (held open)
        except OSError as exc:
            raise StoreError(f"cannot open the lock file {path} ({exc.strerror})") from None
        try:
            _lock(handle)
        except OSError:
            handle.seek(0)
            holder = handle.read().strip() or "unknown"
            handle.close()
            raise StoreError(busy(holder)) from None
        handle.seek(0)
        handle.truncate()
        handle.write(str(os.getpid()))
        handle.flush()
        self._handle: IO[str] | None = handle

    def release(self) -> None:
        """Let go of the lock (closing the descriptor releases it)."""
        if self._handle is not None:
            self._handle.close()
            self._handle = None


if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
    import msvcrt

    def _lock(handle: IO[str]) -> None:
        msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)
else:
    import fcntl

    def _lock(handle: IO[str]) -> None:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
