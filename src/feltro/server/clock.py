"""Time for the server, injectable so that tests decide what time it is.

The server needs two kinds of time: a *monotonic* clock for action timers (never jumps when the
laptop's clock is corrected) and a *wall* clock for the agreed stop time (G6) and for deadlines
shown to clients. :class:`SystemClock` reads the real ones; :class:`FakeClock` moves only when a
test calls :meth:`FakeClock.advance`.
"""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime, timedelta
from typing import Protocol, runtime_checkable

__all__ = ["Clock", "FakeClock", "SystemClock", "epoch_ms"]


@runtime_checkable
class Clock(Protocol):
    """Where the server gets its time."""

    def monotonic(self) -> float:
        """Seconds on a clock that never goes back (timers)."""
        ...

    def wall(self) -> datetime:
        """The current date and time, aware, in UTC (stop time, deadlines for clients)."""
        ...


class SystemClock:
    """The real clocks."""

    def monotonic(self) -> float:
        """:func:`time.monotonic`."""
        return time.monotonic()

    def wall(self) -> datetime:
        """``datetime.now(UTC)``."""
        return datetime.now(UTC)


class FakeClock:
    """A clock that stands still until :meth:`advance` moves it (thread-safe: tests advance it
    from their own thread while the server reads it from the event loop)."""

    def __init__(self, start: datetime | None = None) -> None:
        self._lock = threading.Lock()
        self._wall = start or datetime(2026, 1, 1, 20, 0, tzinfo=UTC)
        self._mono = 1000.0

    def monotonic(self) -> float:
        """The fake monotonic time."""
        with self._lock:
            return self._mono

    def wall(self) -> datetime:
        """The fake wall time."""
        with self._lock:
            return self._wall

    def advance(self, seconds: float) -> None:
        """Move both clocks forward by *seconds*."""
        if seconds < 0:
            raise ValueError("a clock only moves forward")
        with self._lock:
            self._mono += seconds
            self._wall += timedelta(seconds=seconds)


def epoch_ms(moment: datetime) -> int:
    """Milliseconds since the Unix epoch, the form deadlines take on the wire."""
    return int(moment.timestamp() * 1000)
