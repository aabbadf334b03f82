"""What the game says: cards, hand names, bet sizes, typed amounts, refusals, the hand log.

Pure functions from views and legal actions to Rich text in the chosen language (every word
comes from :mod:`feltro.i18n`); the widgets only lay them out. Kept apart from Textual so that
they are tested without running an app.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from rich.text import Text

from feltro.actions import Call, Check, Fold, Raise
from feltro.cards import RANK_LABELS, SUIT_SYMBOLS
from feltro.evaluator import evaluate
from feltro.events import (
    ActionTaken,
    AntePosted,
    BlindPosted,
    BoardDealt,
    CardsMucked,
    CardsShown,
    Event,
    PotAwarded,
    Street,
    UncalledReturned,
)
from feltro.hand import LegalActions, PotResult
from feltro.i18n import refusal_words, t
from feltro.names import describe_class
from feltro.session import raise_sizes  # the sizes the phones are offered too

__all__ = [
    "AmountError",
    "LogContext",
    "card_text",
    "cards_text",
    "hand_name",
    "log_lines",
    "parse_amount",
    "pot_name",
    "raise_sizes",
    "rank_label",
    "refusal",
]

_RANKS = RANK_LABELS  # as people read them: "10", not "T"
_SUITS = SUIT_SYMBOLS
_RED = "bold red"
_BLACK = "bold"


def card_text(card: int | None) -> Text:
    """One card as ``A♠`` (red for hearts and diamonds); ``▒▒`` for a hidden card."""
    if card is None:
        return Text("▒▒", style="dim")
    suit = card & 3
    return Text(_RANKS[card >> 2] + _SUITS[suit], style=_RED if suit in (1, 2) else _BLACK)


def rank_label(rank: int) -> str:
    """A rank 0..12 as people write it: ``"2"`` .. ``"10"``, ``"J"``, ``"Q"``, ``"K"``, ``"A"``
    (tens are "10" in every interface's human text; "T" is only the notation typed in)."""
    return _RANKS[rank]


def cards_text(cards: Iterable[int | None], *, slots: int = 0) -> Text:
    """Cards separated by spaces, padded with ``··`` up to *slots* (the board to come)."""
    out = Text()
    shown = list(cards)
    for i, card in enumerate(shown):
        if i:
            out.append(" ")
        out.append_text(card_text(card))
    for i in range(len(shown), slots):
        if i:
            out.append(" ")
        out.append("··", style="dim")
    return out


def plain_cards(cards: Iterable[int]) -> str:
    """Cards as plain text (``A♠ 10♦``), for messages."""
    return " ".join(_RANKS[c >> 2] + _SUITS[c & 3] for c in cards)


def hand_name(hole: Sequence[int | None] | None, board: Sequence[int], lang: str) -> str | None:
    """The name of the best hand *hole* makes with *board*, or ``None`` without two cards.

    Before the flop: a pair, or the high card (``"Pair of aces"``, ``"High card, king"``).
    """
    if not hole or len(hole) != 2 or hole[0] is None or hole[1] is None:
        return None
    a, b = int(hole[0]), int(hole[1])
    if len(board) < 3:
        if a >> 2 == b >> 2:
            return describe_class(1, (a >> 2,), lang)
        return describe_class(0, (max(a >> 2, b >> 2),), lang)
    return evaluate([a, b, *board]).describe(lang)


def lower_first(text: str) -> str:
    """``"Pair of aces"`` -> ``"pair of aces"``, to follow "You have:"."""
    return text[:1].lower() + text[1:]


# --- bet sizes and typed amounts --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AmountError:
    """Why a typed amount was refused: a message key and its parameters."""

    key: str
    params: Mapping[str, object]

    def text(self, lang: str) -> str:
        """The message in *lang*."""
        return t(self.key, lang, **self.params)


def parse_amount(text: str, legal: LegalActions) -> int | AmountError:
    """A typed "bet or raise to" total, checked against *legal*; or why it is refused.

    Refused: below zero, not a whole number, below the minimum (B6; an all-in for less is the only
    exception, B7), above the stack, or raising closed (the refusal's rule).
    """
    raw = text.strip().replace(" ", "")
    low, high = legal.min_raise_to, legal.max_raise_to
    if low is None or high is None:
        return AmountError("input.closed", {})
    if not raw:
        return AmountError("input.empty", {"min": low, "max": high})
    if raw.startswith("-") and raw[1:].isdigit() and int(raw[1:]) > 0:
        return AmountError("input.below_zero", {"text": raw[:12], "min": low})
    if not raw.isdigit():
        return AmountError("input.not_a_number", {"text": text.strip()[:12]})
    amount = int(raw)
    if amount > high:
        return AmountError("input.above_stack", {"amount": amount, "max": high})
    if amount < low:
        return AmountError("input.below_min", {"amount": amount, "min": low})
    return amount


def refusal(kind: str, legal: LegalActions, lang: str) -> str | None:
    """Why *kind* (``"check"`` or ``"raise"``) is not offered, citing the rule; else ``None``.

    The rule, reason code and numbers come from the engine's :attr:`LegalActions.refusal_details`;
    the sentence from the catalogue (``refusal.<rule>.<reason>``, as on every interface).
    """
    detail = legal.refusal_details.get(kind)
    return None if detail is None else refusal_words(detail, lang)


# --- the hand log -----------------------------------------------------------------------------


def pot_name(index: int, lang: str) -> str:
    """``"Main pot"`` or ``"Side pot 2"``."""
    return t("pot.main", lang) if index == 0 else t("pot.side", lang, number=index)


@dataclass(frozen=True, slots=True)
class LogContext:
    """What the log needs beyond the events: names by position and who posted which blind."""

    names: Sequence[str]
    """Display names by position (bots already labelled)."""
    small_blind: int | None
    """The small blind's position, if any."""
    big_blind: int


def log_lines(
    events: Sequence[Event],
    context: LogContext,
    lang: str,
    notes: Mapping[int, Sequence[str]] | None = None,
    *,
    board: Sequence[int] = (),
) -> list[Text]:
    """One line per event worth telling, in *lang*.

    *notes* are extra lines to put before the event of each index (bots' illegal answers);
    *board* is the final board, to name the hands shown.
    """
    lines: list[Text] = []
    current = 0
    name = context.names.__getitem__
    awarded: list[PotAwarded] = []
    for index, event in _blinds_in_posting_order(events, context):
        for note in (notes or {}).get(index, ()):
            lines.append(Text(note, style="yellow"))
        if isinstance(event, PotAwarded):
            awarded.append(event)
            continue
        if awarded:
            lines += pot_lines(awarded, name, lang)
            awarded = []
        line = _event_line(event, name, context, lang, current, board)
        if isinstance(event, BlindPosted):
            current = max(current, event.amount)
        elif isinstance(event, BoardDealt):
            current = 0
        elif isinstance(event, ActionTaken) and isinstance(event.action, Raise):
            current = event.action.to
        if line is not None:
            lines.append(line)
    if awarded:
        lines += pot_lines(awarded, name, lang)
    for note in (notes or {}).get(len(events), ()):
        lines.append(Text(note, style="yellow"))
    return lines


def _blinds_in_posting_order(events: Sequence[Event], context: LogContext,
                             ) -> list[tuple[int, Event]]:
    """*events* with their indexes, the opening blinds told small blind first: heads-up the
    engine lists the big blind's position first, but the button posts the small blind (D6)
    and people say it first."""
    indexed = list(enumerate(events))
    start = 0
    while start < len(indexed) and isinstance(indexed[start][1], AntePosted):
        start += 1
    end = start
    while end < len(indexed) and isinstance(indexed[end][1], BlindPosted):
        end += 1
    blinds = sorted(indexed[start:end], key=lambda item: (
        0 if item[1].position == context.small_blind  # type: ignore[attr-defined]
        and item[1].position != context.big_blind else 1))  # type: ignore[attr-defined]
    return indexed[:start] + blinds + indexed[end:]


def pot_lines(pots: Sequence[PotAwarded | PotResult], name: Callable[[int], str], lang: str
              ) -> list[Text]:
    """``"Main pot 40: Ana +20, Rui +20"`` for each pot as the engine formed it (P1, P7)."""
    lines = []
    for index, pot in enumerate(pots):
        shares = ", ".join(f"{name(w)} +{s}" for w, s in zip(pot.winners, pot.shares,
                                                                strict=True))
        lines.append(Text(t("log.pot", lang, pot=pot_name(index, lang), amount=pot.amount,
                            shares=shares), style="bold green"))
    return lines


def _event_line(
    event: Event,
    name: Callable[[int], str],
    context: LogContext,
    lang: str,
    current: int,
    board: Sequence[int],
) -> Text | None:
    if isinstance(event, BlindPosted):
        which = "small_blind" if event.position == context.small_blind else "big_blind"
        if event.position == context.big_blind:
            which = "big_blind"
        return Text(t(f"log.posts_{which}", lang, name=name(event.position),
                      amount=event.amount), style="dim")
    if isinstance(event, AntePosted):
        return Text(t("log.posts_ante", lang, name=name(event.position), amount=event.amount),
                    style="dim")
    if isinstance(event, ActionTaken):
        return Text(_action_line(event, name(event.position), lang, current))
    if isinstance(event, BoardDealt):
        line = Text(t(f"log.{event.street.value}", lang) + " ", style="bold cyan")
        line.append_text(cards_text(event.cards))
        return line
    if isinstance(event, UncalledReturned):
        return Text(t("log.returned", lang, name=name(event.position), amount=event.amount),
                    style="dim")
    if isinstance(event, CardsShown):
        line = Text(t("log.shows", lang, name=name(event.position)) + " ")
        line.append_text(cards_text(event.cards))
        named = hand_name(event.cards, board, lang) if len(board) == 5 else None
        if named:
            line.append(f" · {named}", style="italic")
        return line
    if isinstance(event, CardsMucked):
        return Text(t("log.mucks", lang, name=name(event.position)))
    return None


def _action_line(event: ActionTaken, who: str, lang: str, current: int) -> str:
    action = event.action
    suffix = "_all_in" if event.all_in else ""
    if isinstance(action, Fold):
        return t("log.folds", lang, name=who)
    if isinstance(action, Check):
        return t("log.checks", lang, name=who)
    if isinstance(action, Call):
        return t(f"log.calls{suffix}", lang, name=who, amount=event.chips)
    if isinstance(action, Raise):
        verb = "bets" if current == 0 and event.street is not Street.PREFLOP else "raises"
        return t(f"log.{verb}{suffix}", lang, name=who, amount=action.to)
    return str(action)  # pragma: no cover - four kinds of action
