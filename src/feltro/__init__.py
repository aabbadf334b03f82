"""feltro: No-Limit Texas Hold'em for home games, and a library for researchers and bot writers.

>>> import feltro
>>> feltro.evaluate("As Kd Qh Js Ts 2c 3d").describe()
'Straight, ace high'

Cards, errors and the evaluator load with the package; the hand engine and equity load on
first use (``feltro.Hand``), so that ``import feltro`` stays fast for evaluator users.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from feltro.cards import Card, Deck, Rank, Suit, card_ids, parse_cards
from feltro.errors import (
    CardError,
    ConfigError,
    FeltroError,
    HandNotOverError,
    HistoryError,
    IllegalActionError,
    ParseError,
    Refusal,
    SeriesError,
    StoreError,
)
from feltro.evaluator import Category, HandValue, evaluate, evaluate_many, hand_strength, nuts

if TYPE_CHECKING:
    from feltro.actions import CALL, CHECK, FOLD, Action, Call, Check, Fold, Raise, parse_action
    from feltro.config import HandConfig, Structure
    from feltro.equity import EquityResult, exact_equity, monte_carlo_equity
    from feltro.events import Street
    from feltro.hand import Hand, HandResult, LegalActions, PotResult, SeatView

__version__ = "0.1.0"

# Name -> module for the names loaded on first use (PEP 562).
_LAZY = {
    **dict.fromkeys(
        ("CALL", "CHECK", "FOLD", "Action", "Call", "Check", "Fold", "Raise", "parse_action"),
        "feltro.actions",
    ),
    **dict.fromkeys(("HandConfig", "Structure"), "feltro.config"),
    **dict.fromkeys(("EquityResult", "exact_equity", "monte_carlo_equity"), "feltro.equity"),
    "Street": "feltro.events",
    **dict.fromkeys(
        ("Hand", "HandResult", "LegalActions", "PotResult", "SeatView"), "feltro.hand"
    ),
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'feltro' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


__all__ = [
    "CALL",
    "CHECK",
    "FOLD",
    "Action",
    "Call",
    "Card",
    "CardError",
    "Category",
    "Check",
    "ConfigError",
    "Deck",
    "EquityResult",
    "FeltroError",
    "Fold",
    "Hand",
    "HandConfig",
    "HandNotOverError",
    "HandResult",
    "HandValue",
    "HistoryError",
    "IllegalActionError",
    "LegalActions",
    "ParseError",
    "PotResult",
    "Raise",
    "Rank",
    "Refusal",
    "SeatView",
    "SeriesError",
    "StoreError",
    "Street",
    "Structure",
    "Suit",
    "__version__",
    "card_ids",
    "evaluate",
    "evaluate_many",
    "exact_equity",
    "hand_strength",
    "monte_carlo_equity",
    "nuts",
    "parse_action",
    "parse_cards",
]
