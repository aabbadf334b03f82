"""feltro: No-Limit Texas Hold'em for home games, and a library for researchers and bot writers."""

from feltro.cards import Card, Deck, Rank, Suit, card_ids, parse_cards
from feltro.errors import (
    CardError,
    ConfigError,
    FeltroError,
    HandNotOverError,
    IllegalActionError,
    ParseError,
)

__version__ = "0.1.0"

__all__ = [
    "Card",
    "CardError",
    "ConfigError",
    "Deck",
    "FeltroError",
    "HandNotOverError",
    "IllegalActionError",
    "ParseError",
    "Rank",
    "Suit",
    "__version__",
    "card_ids",
    "parse_cards",
]
