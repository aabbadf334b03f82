"""feltro: No-Limit Texas Hold'em for home games, and a library for researchers and bot writers.

>>> import feltro
>>> feltro.evaluate("As Kd Qh Js Ts 2c 3d").describe()
'Straight, ace high'
"""

from feltro.cards import Card, Deck, Rank, Suit, card_ids, parse_cards
from feltro.equity import EquityResult, exact_equity, monte_carlo_equity
from feltro.errors import (
    CardError,
    ConfigError,
    FeltroError,
    HandNotOverError,
    HistoryError,
    IllegalActionError,
    ParseError,
    StoreError,
)
from feltro.evaluator import Category, HandValue, evaluate, evaluate_many, hand_strength, nuts

__version__ = "0.1.0"

__all__ = [
    "Card",
    "CardError",
    "Category",
    "ConfigError",
    "Deck",
    "EquityResult",
    "FeltroError",
    "HandNotOverError",
    "HandValue",
    "HistoryError",
    "IllegalActionError",
    "ParseError",
    "Rank",
    "StoreError",
    "Suit",
    "__version__",
    "card_ids",
    "evaluate",
    "evaluate_many",
    "exact_equity",
    "hand_strength",
    "monte_carlo_equity",
    "nuts",
    "parse_cards",
]
