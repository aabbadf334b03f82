"""PHH action lines, one at a time: :func:`parse_action` reads one, ``str(PhhAction)`` writes
it, with the card and amount spellings they use (PHH ``required.rst``).

A line is ``[actor verb [args]][ # commentary]``: the dealer deals (``d dh p1 AsKs``,
``d db 7h8h9h``), a player folds (``p3 f``), checks or calls (``p1 cc``), bets or raises to
(``p2 cbr 6``), shows (``p1 sm AsKs``) or mucks (``p1 sm``). Player ``pN`` is position
``N - 1``. Cards are spelled by :mod:`feltro.cards` (``??`` is an unknown card).

>>> parse_action("p3 cbr 6")
PhhAction(verb=<Verb.BET_OR_RAISE_TO: 'cbr'>, player=2, cards=(), amount=6)
>>> str(parse_action("d  dh p1 AsKd  # first"))
'd dh p1 AsKd # first'
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TypeAlias

from feltro.cards import CARD_TEXT, Card, exact_card
from feltro.errors import HistoryError, ParseError

__all__ = [
    "Amount",
    "PhhAction",
    "Verb",
    "format_amount",
    "format_phh_cards",
    "parse_action",
    "parse_phh_cards",
]

Amount: TypeAlias = int | float
"""A chip amount as PHH writes it. Whole numbers are always ``int`` (``9900.0`` reads as
``9900``); a ``float`` is a fraction (``10112.5``) or ``inf`` (an unknown stack)."""


def _parse_amount_text(text: str) -> Amount:
    """An amount written in an action line (``'6'``, ``'6.0'``, ``'516.95'``, ``'1,000'``)."""
    cleaned = text.replace(",", "").replace("_", "")
    try:
        return int(cleaned)
    except ValueError:
        pass
    try:
        number = float(cleaned)
    except ValueError:
        raise ParseError(f"amount {text!r} is not a number") from None
    if not math.isfinite(number):
        raise ParseError(f"amount {text!r} is not a finite number")
    return int(number) if number.is_integer() else number


def parse_phh_cards(text: str) -> tuple[Card | None, ...]:
    """Cards as PHH writes them: two characters each, no separator; ``??`` is unknown.

    >>> parse_phh_cards("AsKd"), parse_phh_cards("????")
    ((Card('As'), Card('Kd')), (None, None))

    :raises ParseError: if *text* is empty, of odd length, or holds something not a card.
    """
    if not text or len(text) % 2:
        raise ParseError(f"{text!r} is not PHH cards (two characters per card, e.g. 'AsKd')")
    cards: list[Card | None] = []
    for start in range(0, len(text), 2):
        chunk = text[start:start + 2]
        card = exact_card(chunk)
        if card is None:
            # Real files are case-exact, but be kind to hand-written ones ('as', 'TD').
            card = exact_card(chunk[0].upper() + chunk[1].lower())
        if card is None and chunk != "??":
            raise ParseError(f"{chunk!r} in {text!r} is not a card (rank 2-9TJQKA, "
                             f"suit cdhs, or ?? for an unknown card)")
        cards.append(card)
    return tuple(cards)


def format_phh_cards(cards: Iterable[int | None]) -> str:
    """The PHH spelling of *cards*; ``None`` is written ``??``.

    >>> format_phh_cards([Card.parse("Td"), None])
    'Td??'
    """
    return "".join("??" if c is None else CARD_TEXT[c] for c in cards)


# --------------------------------------------------------------------------------------------
# Action lines


class Verb(StrEnum):
    """What an action line does; the value is the PHH notation."""

    DEAL_HOLE = "dh"
    DEAL_BOARD = "db"
    FOLD = "f"
    CHECK_OR_CALL = "cc"
    BET_OR_RAISE_TO = "cbr"
    SHOW_OR_MUCK = "sm"
    NO_OP = ""


_PLAYER_TOKEN = re.compile(r"p([1-9][0-9]*)")
_NOT_HOLDEM = {"sd": "stand pat/discard", "pb": "bring-in"}


@dataclass(frozen=True, slots=True)
class PhhAction:
    """One parsed line of ``actions``.

    *player* is a 0-based position (``p1`` is 0) or ``None`` for board deals and no-ops.
    *cards* holds ``None`` for each unknown card (``??``). A ``sm`` line with no cards is a
    muck; ``sm -`` (show the cards already dealt) has *shows_dealt* set and no cards.
    *amount* is the "raise to" total of a ``cbr`` line.
    """

    verb: Verb
    player: int | None = None
    cards: tuple[Card | None, ...] = ()
    amount: Amount | None = None
    shows_dealt: bool = field(default=False, repr=False)
    commentary: str | None = field(default=None, repr=False)

    @property
    def is_muck(self) -> bool:
        """A ``pN sm`` line without cards: the player gives up the hand."""
        return self.verb is Verb.SHOW_OR_MUCK and not self.cards and not self.shows_dealt

    def __str__(self) -> str:
        words: list[str]
        if self.verb is Verb.NO_OP:
            words = []
        elif self.verb in (Verb.DEAL_HOLE, Verb.DEAL_BOARD):
            words = ["d", self.verb.value]
            if self.verb is Verb.DEAL_HOLE:
                words.append(f"p{(self.player or 0) + 1}")
            words.append(format_phh_cards(self.cards))
        else:
            words = [f"p{(self.player or 0) + 1}", self.verb.value]
            if self.verb is Verb.BET_OR_RAISE_TO:
                words.append(format_amount(self.amount if self.amount is not None else 0))
            elif self.shows_dealt:
                words.append("-")
            elif self.cards:
                words.append(format_phh_cards(self.cards))
        if self.commentary is not None:
            words += ["#", self.commentary] if self.commentary else ["#"]
        return " ".join(words)


def parse_action(text: str) -> PhhAction:
    """Parse one ``actions`` entry, e.g. ``'p3 cbr 6'`` or ``'d dh p1 7s'``.

    Grammar (PHH ``required.rst``): ``[actor verb [args]][ # commentary]`` with words separated
    by any whitespace; an empty entry or a lone comment is a no-op.

    :raises ParseError: if the line does not follow the grammar of a hold'em action.
    """
    body, hash_sign, comment = text.partition("#")
    commentary = comment.strip() if hash_sign else None
    words = body.split()
    if not words:
        return PhhAction(Verb.NO_OP, commentary=commentary)
    actor = words[0]
    if actor == "d":
        return _parse_dealer(words, text, commentary)
    match = _PLAYER_TOKEN.fullmatch(actor)
    if match is None:
        raise ParseError(f"{text!r}: the actor must be 'd' or p1, p2, ..., not {actor!r}")
    player = int(match.group(1)) - 1
    verb_text = words[1] if len(words) > 1 else ""
    args = words[2:]
    if verb_text in ("f", "cc") and not args:
        return PhhAction(Verb(verb_text), player, commentary=commentary)
    if verb_text == "cbr" and len(args) == 1:
        try:
            amount = _parse_amount_text(args[0])
        except ParseError as exc:
            raise ParseError(f"{text!r}: {exc}") from None
        if amount <= 0:
            raise ParseError(f"{text!r}: a bet or raise-to amount must be positive")
        return PhhAction(Verb.BET_OR_RAISE_TO, player, amount=amount, commentary=commentary)
    if verb_text == "sm" and len(args) <= 1:
        if not args:
            return PhhAction(Verb.SHOW_OR_MUCK, player, commentary=commentary)
        if args[0] == "-":
            return PhhAction(Verb.SHOW_OR_MUCK, player, shows_dealt=True, commentary=commentary)
        return PhhAction(Verb.SHOW_OR_MUCK, player, _cards_of(args[0], text),
                         commentary=commentary)
    if verb_text in _NOT_HOLDEM:
        raise ParseError(f"{text!r}: {verb_text!r} ({_NOT_HOLDEM[verb_text]}) is not a "
                         f"hold'em action")
    raise ParseError(f"{text!r}: expected 'f', 'cc', 'cbr AMOUNT' or 'sm [CARDS|-]' "
                     f"after {actor}")


def _parse_dealer(words: list[str], text: str, commentary: str | None) -> PhhAction:
    if len(words) == 3 and words[1] == "db":
        return PhhAction(Verb.DEAL_BOARD, cards=_cards_of(words[2], text),
                         commentary=commentary)
    if len(words) == 4 and words[1] == "dh":
        match = _PLAYER_TOKEN.fullmatch(words[2])
        if match is None:
            raise ParseError(f"{text!r}: {words[2]!r} is not a player (p1, p2, ...)")
        return PhhAction(Verb.DEAL_HOLE, int(match.group(1)) - 1, _cards_of(words[3], text),
                         commentary=commentary)
    raise ParseError(f"{text!r}: a dealer line is 'd db CARDS' or 'd dh pN CARDS'")


def _cards_of(token: str, text: str) -> tuple[Card | None, ...]:
    try:
        return parse_phh_cards(token)
    except ParseError as exc:
        raise ParseError(f"{text!r}: {exc}") from None


def format_amount(value: Amount) -> str:
    """An amount as PHH writes it: ``6``, ``516.95``, ``inf``.

    :raises HistoryError: for a boolean.
    """
    if isinstance(value, bool):
        raise HistoryError(f"{value!r} is not a number")
    if isinstance(value, int):
        return str(value)
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    if math.isnan(value):
        return "nan"
    text = repr(value)
    return text if any(c in text for c in ".en") else text + ".0"
