"""What a series reports: how it ended (:class:`End`, :class:`Outcome`), each finished hand
(:class:`HandSummary`) and the standings (:class:`Standing`, :func:`rank_by_stack`).

Re-exported by :mod:`feltro.series`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from feltro.hand import Hand, HandResult
from feltro.seating import Seating

__all__ = ["End", "HandSummary", "Outcome", "Standing", "rank_by_stack"]


class End(StrEnum):
    """How a series ended."""

    LAST_PLAYER = "last_player"
    """One player has every chip (G4)."""
    STOPPED = "stopped"
    """The agreed stop came first (G6): the biggest stack wins, equal stacks co-win."""


@dataclass(frozen=True, slots=True)
class HandSummary:
    """One finished hand, as the series saw it."""

    number: int
    """1 for the first hand of the series."""
    seed: int
    """The shuffle seed: ``Deck.shuffled(random.Random(seed))`` is this hand's deck (unless the
    series has a ``deck_source``)."""
    seating: Seating
    stacks_before: Mapping[int, int]
    """Seat -> chips when the hand started (every seat of the series, 0 when out)."""
    stacks_after: Mapping[int, int]
    """Seat -> chips after the pots were paid."""
    eliminated: tuple[int, ...]
    """Seats busted by this hand, best finishing place first."""
    result: HandResult
    hand: Hand
    """The finished hand itself, with every card and event (for hand histories)."""
    level: int = 1
    """The blind level it was dealt at (G7; always 1 with fixed blinds)."""


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's line in the standings."""

    place: int
    """1 = first. Players still in are ranked by stack (provisional until the end)."""
    seat: int
    name: str
    stack: int
    """Chips at the end of the last finished hand."""
    out_in_hand: int | None
    """The hand that eliminated the player, or ``None`` while they are still in."""
    reentries: int = 0
    """Fresh starting stacks the player took in the re-entry period (G8)."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """How the series ended."""

    end: End
    winners: tuple[int, ...]
    """The winning seats: one after a freezeout, possibly several on equal stacks (G6)."""
    stacks: Mapping[int, int]
    """Seat -> final chips, every seat of the series."""
    hands: int
    """Hands played."""


def rank_by_stack(stacks: Mapping[int, int], first_place: int = 1) -> dict[int, int]:
    """Places for *stacks* (seat -> chips), bigger first, equal stacks sharing a place.

    >>> rank_by_stack({1: 50, 2: 80, 3: 50, 4: 10}, first_place=3)
    {2: 3, 1: 4, 3: 4, 4: 6}
    """
    ordered = sorted(stacks, key=lambda seat: (-stacks[seat], seat))
    places: dict[int, int] = {}
    for index, seat in enumerate(ordered):
        previous = ordered[index - 1] if index else None
        tied = previous is not None and stacks[previous] == stacks[seat]
        places[seat] = places[previous] if tied and previous is not None else first_place + index
    return places
