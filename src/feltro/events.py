"""The frozen events a hand records, one per thing that happened, in order.

Every change to a :class:`~feltro.hand.Hand` appends events to ``hand.events``;
``Hand.apply`` returns the ones it caused. A user interface animates them, a store persists
them, a history writer turns them into PHH. Positions are hand positions (0 = first player
left of the button). Events are cheap on purpose (the engine makes thousands per second):
plain fields, cards as :class:`~feltro.cards.Card` (``int`` subclasses).

Burn cards (D5) leave no event: they are never shown to players; a :class:`BoardDealt`
always follows exactly one burn when the deck deals.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any, TypeVar

from feltro.actions import Action
from feltro.cards import Card

__all__ = [
    "ActionTaken",
    "AntePosted",
    "BlindPosted",
    "BoardDealt",
    "CardsMucked",
    "CardsShown",
    "Event",
    "HandEnded",
    "HoleCardDealt",
    "PotAwarded",
    "Street",
    "UncalledReturned",
]


class Street(StrEnum):
    """The betting rounds (B1), then the showdown. Values are the wire spellings."""

    PREFLOP = "preflop"
    FLOP = "flop"
    TURN = "turn"
    RIVER = "river"
    SHOWDOWN = "showdown"


STREETS: tuple[Street, ...] = tuple(Street)
"""Streets by index: 0 preflop .. 3 river, 4 showdown (the engine keeps the index)."""


class Event:
    """Base class of every hand event."""

    __slots__ = ()


_E = TypeVar("_E", bound=type[Event])


def _fast_init(cls: _E) -> _E:
    """Give a frozen slotted dataclass a faster ``__init__`` (measured: about 2x).

    The generated frozen ``__init__`` goes through ``object.__setattr__`` by name for every
    field; setting the slots through their descriptors skips the name lookups. Instances stay
    frozen (assignment still raises) and equal, hashable and printable as before.
    """
    names = [f.name for f in fields(cls)]  # type: ignore[arg-type]
    namespace: dict[str, Any] = {f"_set_{n}": getattr(cls, n).__set__ for n in names}
    body = "".join(f"    _set_{n}(self, {n})\n" for n in names)
    exec(f"def __init__(self, {', '.join(names)}):\n{body}", namespace)
    init: Callable[..., None] = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    cls.__init__ = init  # type: ignore[method-assign]
    return cls


@_fast_init
@dataclass(frozen=True, slots=True)
class AntePosted(Event):
    """A position posted an ante (B11); ``amount`` is less than the ante when short (all-in)."""

    position: int
    amount: int


@_fast_init
@dataclass(frozen=True, slots=True)
class BlindPosted(Event):
    """A position posted a blind (D3); ``amount`` below the blind means all-in (D10)."""

    position: int
    amount: int


@_fast_init
@dataclass(frozen=True, slots=True)
class HoleCardDealt(Event):
    """One private card to a position (D4: one at a time from the button's left).

    ``card`` is ``None`` when it is unknown (a replayed history with ``??``) or, in a
    :class:`~feltro.hand.SeatView`, when it belongs to somebody else.
    """

    position: int
    card: Card | None


@_fast_init
@dataclass(frozen=True, slots=True)
class ActionTaken(Event):
    """A player acted. ``chips`` moved from the stack into the bet; ``all_in`` if none remain.

    ``action`` is normalised: a call with nothing owed is recorded as ``Check()``.
    """

    position: int
    action: Action
    street: Street
    chips: int
    all_in: bool


@_fast_init
@dataclass(frozen=True, slots=True)
class UncalledReturned(Event):
    """The part of a bet nobody matched went back to its owner (B7)."""

    position: int
    amount: int


@_fast_init
@dataclass(frozen=True, slots=True)
class BoardDealt(Event):
    """Community cards of ``street`` were dealt (after a burn when the deck deals, D5)."""

    street: Street
    cards: tuple[Card, ...]


@_fast_init
@dataclass(frozen=True, slots=True)
class CardsShown(Event):
    """A position showed both private cards at the showdown (D11, P8)."""

    position: int
    cards: tuple[Card, ...]


@_fast_init
@dataclass(frozen=True, slots=True)
class CardsMucked(Event):
    """A position gave up its claim without showing (P8): it cannot win (D11)."""

    position: int


@_fast_init
@dataclass(frozen=True, slots=True)
class PotAwarded(Event):
    """One pot was paid (P1, P7). ``index`` 0 is the main pot.

    ``shares[i]`` goes to ``winners[i]``; odd chips one at a time from the first winner left
    of the button, clockwise.
    """

    index: int
    amount: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...]
    shares: tuple[int, ...]


@_fast_init
@dataclass(frozen=True, slots=True)
class HandEnded(Event):
    """The hand is over; ``stacks`` are the final stacks by position."""

    stacks: tuple[int, ...]
