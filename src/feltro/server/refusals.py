"""Refusals for the players of a table: the engine's :class:`~feltro.errors.Refusal` (rule,
reason code, numbers) with hand positions turned into seats, its error code, and its words.

The engine names hand positions in a refusal's numbers (``position``, ``to_act``); a table's
players know seats. :func:`seat_refusal` maps them on the data (``position`` becomes ``seat``,
``to_act`` becomes ``to_act_seat``, the names a session uses for seats); nothing here reads
an English sentence. The words come from the shared catalogue (:mod:`feltro.i18n`, keys
``refusal.<rule>.<reason>``), the same catalogue the web pages word the refusal with in the
reader's language.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from feltro.errors import Refusal
from feltro.i18n import t
from feltro.server.protocol import ErrorCode

__all__ = ["SEAT_REFUSALS", "error_code", "refusal_words", "seat_refusal"]

_POSITION_PARAMS: Final = {"position": "seat", "to_act": "to_act_seat"}
"""Numbers that name a hand position, and the name of the same number as a seat."""

SEAT_REFUSALS: Final = (
    ("B2", "not-your-turn"),
    ("B3", "owes"),
    ("B5", "betting-over"),
    ("B5", "hand-over"),
    ("B5", "nobody-can-call"),
    ("B6", "whole-chips"),
    ("B6", "not-positive"),
    ("B6", "not-a-raise"),
    ("B6", "above-stack"),
    ("B6", "above-pot-limit"),
    ("B6", "below-min"),
    ("B7", "no-chips"),
    ("B8", "not-reopened"),
    ("B10", "capped"),
    ("B10", "fixed-size"),
)
"""The refusals a player's action at a table can meet (the series deals the cards itself):
each has its sentence in every catalogue (``refusal.<rule>.<reason>``); any other is worded as
``refusal.other``."""

_CODES: Final = {
    "not-your-turn": ErrorCode.NOT_YOUR_TURN,
    "owes": ErrorCode.ILLEGAL_CHECK,
    "no-chips": ErrorCode.RAISE_CLOSED,
    "nobody-can-call": ErrorCode.RAISE_CLOSED,
    "not-reopened": ErrorCode.RAISE_CLOSED,
    "capped": ErrorCode.RAISE_CLOSED,
    "whole-chips": ErrorCode.ILLEGAL_AMOUNT,
    "not-positive": ErrorCode.ILLEGAL_AMOUNT,
    "not-a-raise": ErrorCode.ILLEGAL_AMOUNT,
    "above-stack": ErrorCode.ILLEGAL_AMOUNT,
    "above-pot-limit": ErrorCode.ILLEGAL_AMOUNT,
    "below-min": ErrorCode.ILLEGAL_AMOUNT,
    "fixed-size": ErrorCode.ILLEGAL_AMOUNT,
}


def seat_refusal(refusal: Refusal, order: Sequence[int]) -> Refusal:
    """*refusal* with its hand positions as seats (*order*: position -> seat).

    >>> seat_refusal(Refusal("B2", "not-your-turn", {"position": 1, "to_act": 0}), (4, 7))
    Refusal(rule='B2', reason='not-your-turn', params={'seat': 7, 'to_act_seat': 4})
    """
    params: dict[str, int] = {}
    for name, value in refusal.params.items():
        seat_name = _POSITION_PARAMS.get(name)
        if seat_name is not None and 0 <= value < len(order):
            params[seat_name] = order[value]
        else:
            params[name] = value
    return Refusal(refusal.rule, refusal.reason, params)


def error_code(refusal: Refusal) -> ErrorCode:
    """The protocol's error code for *refusal* (``illegal_action`` for any rule without one)."""
    return _CODES.get(refusal.reason, ErrorCode.ILLEGAL_ACTION)


def refusal_words(refusal: Refusal, lang: str = "en") -> str:
    """*refusal* (seats already seats) as a sentence in *lang*, from the shared catalogue.

    >>> refusal_words(Refusal("B3", "owes", {"owed": 4}))
    "You can't check: there is a bet to you, 4 to call (B3)."
    """
    try:
        return t(f"refusal.{refusal.rule}.{refusal.reason}", lang, **refusal.params)
    except KeyError:
        return t("refusal.other", lang, rule=refusal.rule, detail=refusal.reason)
