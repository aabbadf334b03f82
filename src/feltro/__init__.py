"""feltro: No-Limit Texas Hold'em for home games, and a library for researchers and bot writers.

>>> import feltro
>>> feltro.evaluate("As Kd Qh Js Ts 2c 3d").describe()
'Straight, ace high'
"""

from feltro.actions import CALL, CHECK, FOLD, Action, Call, Check, Fold, Raise, parse_action
from feltro.cards import Card, Deck, Rank, Suit, card_ids, parse_cards
from feltro.config import HandConfig, Structure
from feltro.equity import EquityResult, exact_equity, monte_carlo_equity
from feltro.errors import (
    CardError,
    ConfigError,
    FeltroError,
    HandNotOverError,
    HistoryError,
    IllegalActionError,
    ParseError,
    SeriesError,
    StoreError,
)
from feltro.evaluator import Category, HandValue, evaluate, evaluate_many, hand_strength, nuts
from feltro.events import Street
from feltro.hand import Hand, HandResult, LegalActions, PotResult, SeatView

__version__ = "0.1.0"

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
