"""feltro's error hierarchy.

Every error a caller can cause is a :class:`FeltroError`; those caused by bad input are also
:class:`ValueError`, so ``except ValueError`` keeps working (as in python-chess).
"""

from __future__ import annotations


class FeltroError(Exception):
    """Base class of every error feltro raises on purpose."""


class ParseError(FeltroError, ValueError):
    """Text that names no card, action or record (``"1x"``, ``"raise banana"``)."""


class CardError(FeltroError, ValueError):
    """Cards that are well formed but unusable: duplicates, ids outside 0..51, wrong counts."""


class ConfigError(FeltroError, ValueError):
    """An impossible configuration (too few seats, a blind that is not a positive integer...)."""


class IllegalActionError(FeltroError, ValueError):
    """A well-formed action the rules forbid now.

    :attr:`rule` is the RULES.md id that forbids it (``"B8"``), :attr:`seat` the acting seat.
    """

    def __init__(self, message: str, *, rule: str, seat: int | None = None) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.seat = seat


class HandNotOverError(FeltroError, RuntimeError):
    """A result was asked of a hand that has not ended."""


class SeriesError(FeltroError, RuntimeError):
    """An operation the series cannot do now (acting with no hand in progress, dealing a new
    hand while one is being played)."""


class HistoryError(FeltroError, ValueError):
    """A hand history (PHH) that cannot be read or replayed."""


class StoreError(FeltroError, RuntimeError):
    """A durable series log that is corrupted, truncated or already open elsewhere."""
