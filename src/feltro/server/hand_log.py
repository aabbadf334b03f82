"""The public log of the hand in progress, kept from the events :meth:`Hand.apply` returns.

:class:`~feltro.server.live_table.LiveTable` feeds it the events of each deal and each action as
they happen (and, once, a resumed hand's events after a restart), so the views never walk the
hand's history again: they read the entries, each seat's last action and the showdown so far.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Final

from feltro import events as ev
from feltro.cards import Card

__all__ = ["HandLog", "cards_json"]

_ACTION_WORDS: Final = {0: "fold", 1: "check", 2: "call", 3: "raise"}


def cards_json(cards: Sequence[Card | None]) -> list[str]:
    """Cards as two-character strings (``"As"``); unknown cards left out."""
    return [str(card) for card in cards if card is not None]


class HandLog:
    """One hand's public log; *order* maps hand positions to seats."""

    __slots__ = ("_raised", "_street", "entries", "last_actions", "order", "shows")

    def __init__(self, order: tuple[int, ...], events: Iterable[ev.Event] = ()) -> None:
        self.order = order
        self.entries: list[dict[str, Any]] = []
        """The log entries (``docs/protocol.md``: ``hand.log``), oldest first."""
        self.last_actions: dict[int, dict[str, Any]] = {}
        """Seat -> its last action (the entry without ``kind`` and ``seat``)."""
        self.shows: list[tuple[int, tuple[Card, ...] | None]] = []
        """The showdown in show order (P8): seat and cards, ``None`` for a muck."""
        self._street = ev.Street.PREFLOP
        self._raised = False
        self.extend(events)

    @property
    def shown(self) -> int:
        """How many hands the showdown showed so far (mucks not counted)."""
        return sum(1 for _seat, cards in self.shows if cards is not None)

    def extend(self, events: Iterable[ev.Event], *, timeout: bool = False,
               withheld: bool = False) -> None:
        """Add what *events* show publicly (private cards are never logged); *timeout*: their
        action was played for a player whose time ran out (``timeout: true`` on the entry);
        *withheld*: it is the fold of a hand made dead by a withheld value (``withheld: true``,
        RULES D1)."""
        for event in events:
            entry = _ENTRY.get(type(event), _private)(event, self.order)
            if entry is None:
                continue
            if isinstance(event, ev.ActionTaken):
                if timeout:
                    entry["timeout"] = True
                if withheld:
                    entry["withheld"] = True
                self._note_action(event, entry)
            elif isinstance(event, ev.CardsShown):
                self.shows.append((entry["seat"], event.cards))
            elif isinstance(event, ev.CardsMucked):
                self.shows.append((entry["seat"], None))
            self.entries.append(entry)

    def _note_action(self, event: ev.ActionTaken, entry: dict[str, Any]) -> None:
        if event.street != self._street:
            self._street, self._raised = event.street, False
        if entry["action"] == "raise":
            entry["bet"] = self._street != ev.Street.PREFLOP and not self._raised
            self._raised = True
        self.last_actions[entry["seat"]] = {k: v for k, v in entry.items()
                                            if k not in ("kind", "seat")}


def _action(event: ev.ActionTaken, order: tuple[int, ...]) -> dict[str, Any]:
    entry: dict[str, Any] = {"kind": "action", "seat": order[event.position],
                             "street": event.street.value,
                             "action": _ACTION_WORDS[event.action.kind],
                             "chips": event.chips, "all_in": event.all_in}
    to = getattr(event.action, "to", None)
    if to is not None:
        entry["to"] = to
    return entry


def _blind(event: ev.BlindPosted, order: tuple[int, ...]) -> dict[str, Any]:
    return {"kind": "blind", "seat": order[event.position], "amount": event.amount}


def _ante(event: ev.AntePosted, order: tuple[int, ...]) -> dict[str, Any]:
    return {"kind": "ante", "seat": order[event.position], "amount": event.amount}


def _board(event: ev.BoardDealt, order: tuple[int, ...]) -> dict[str, Any]:
    return {"kind": "board", "street": event.street.value, "cards": cards_json(event.cards)}


def _show(event: ev.CardsShown, order: tuple[int, ...]) -> dict[str, Any]:
    return {"kind": "show", "seat": order[event.position], "cards": cards_json(event.cards)}


def _muck(event: ev.CardsMucked, order: tuple[int, ...]) -> dict[str, Any]:
    return {"kind": "muck", "seat": order[event.position]}


def _returned(event: ev.UncalledReturned, order: tuple[int, ...]) -> dict[str, Any]:
    return {"kind": "returned", "seat": order[event.position], "amount": event.amount}


def _pot(event: ev.PotAwarded, order: tuple[int, ...]) -> dict[str, Any]:
    return {"kind": "pot", "index": event.index, "amount": event.amount,
            "winners": [order[p] for p in event.winners], "shares": list(event.shares)}


def _end(event: ev.HandEnded, order: tuple[int, ...]) -> dict[str, Any]:
    return {"kind": "end"}


def _private(event: ev.Event, order: tuple[int, ...]) -> None:
    return None  # HoleCardDealt: private, never in the public log


_ENTRY: Final[dict[type, Any]] = {
    ev.ActionTaken: _action, ev.BlindPosted: _blind, ev.AntePosted: _ante,
    ev.BoardDealt: _board, ev.CardsShown: _show, ev.CardsMucked: _muck,
    ev.UncalledReturned: _returned, ev.PotAwarded: _pot, ev.HandEnded: _end,
}
