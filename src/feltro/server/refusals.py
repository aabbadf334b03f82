"""Refusals for the players of a table: the engine's :class:`~feltro.errors.Refusal` (rule,
reason code, numbers), its error code, and its words.

The engine names hand positions in a refusal's numbers (``position``, ``to_act``); a table's
players know seats, and the seated series maps them on the data
(:func:`feltro.session.seat_refusal`: ``position`` becomes ``seat``, ``to_act`` becomes
``to_act_seat``). Nothing here judges a rule or reads an English sentence. The words come
from the one catalogue (:mod:`feltro.i18n`, keys ``refusal.<rule>.<reason>``,
:func:`~feltro.i18n.refusal_words`), the same catalogue the web pages and ``feltro join`` word
the refusal with in the reader's language.
"""

from __future__ import annotations

from typing import Final

from feltro.errors import Refusal
from feltro.i18n import refusal_words
from feltro.server.protocol import ErrorCode, ProtocolError
from feltro.session import seat_refusal

__all__ = ["SEAT_REFUSALS", "error_code", "refusal_error", "refusal_words", "seat_refusal"]

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
    ("P2", "folded"),
    ("P8", "betting-not-over"),
    ("P8", "already-shown"),
)
"""The refusals a player's action (or show after winning uncontested, P8) at a table can meet
(the series deals the cards itself).
Every refusal has its sentence in every catalogue (``refusal.<rule>.<reason>``,
:func:`feltro.i18n.refusal_words`)."""

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


def error_code(refusal: Refusal) -> ErrorCode:
    """The protocol's error code for *refusal* (``illegal_action`` for any rule without one)."""
    return _CODES.get(refusal.reason, ErrorCode.ILLEGAL_ACTION)


def refusal_error(refusal: Refusal) -> ProtocolError:
    """The engine's *refusal* (seats already seats: :meth:`feltro.session.Session.act`) as it
    reaches a player: its error code and its words. Nothing is judged here: the engine did.

    >>> refusal_error(Refusal("B3", "owes", {"owed": 4})).code
    <ErrorCode.ILLEGAL_CHECK: 'illegal_check'>
    """
    return ProtocolError(error_code(refusal), refusal_words(refusal), refusal=refusal)
