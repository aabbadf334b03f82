"""What one position (or a spectator) may see of a hand: :class:`SeatView`.

A view holds only public information, the viewer's own private cards, and cards shown at
the showdown; never another player's unshown cards or the burn cards. Bots, the terminal and
the server are given views, never the :class:`~feltro.hand.Hand` itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from feltro.cards import Card
from feltro.events import STREETS, Event, HoleCardDealt, Street
from feltro.handstate import HandState
from feltro.legal import LegalActions
from feltro.showdown import HandResult

__all__ = ["SeatView", "seat_view"]


@dataclass(frozen=True, slots=True)
class SeatView:
    """A snapshot of a hand as *position* sees it (``position is None``: a spectator)."""

    position: int | None
    """The viewer, or ``None`` for the public view."""
    players: int
    button: int
    street: Street
    to_act: int | None
    board: tuple[Card, ...]
    stacks: tuple[int, ...]
    bets: tuple[int, ...]
    """Chips bet in this street, by position."""
    committed: tuple[int, ...]
    """Chips put in during the whole hand, by position."""
    folded: tuple[bool, ...]
    all_in: tuple[bool, ...]
    pot: int
    """All chips in the middle, this street's bets included."""
    current_bet: int
    """The total to match in this street."""
    hole: tuple[Card | None, ...] | None
    """The viewer's own private cards (``None`` for a spectator)."""
    shown: Mapping[int, tuple[Card, ...]] = field(hash=False)
    """Cards shown at the showdown, by position."""
    mucked: tuple[int, ...]
    legal: LegalActions | None
    """The viewer's legal actions when it is the viewer's turn, else ``None``."""
    events: tuple[Event, ...]
    """The log, with other players' private cards hidden (``card=None``)."""
    result: HandResult | None
    """The result once the hand is over (public: pots and shown cards only)."""

    @property
    def is_over(self) -> bool:
        """Whether the hand has ended."""
        return self.result is not None

    @property
    def my_turn(self) -> bool:
        """Whether the viewer is the position to act."""
        return self.position is not None and self.position == self.to_act


def seat_view(state: HandState, position: int | None, legal: LegalActions | None) -> SeatView:
    """What *position* (``None``: a spectator) may see of the hand in *state*; *legal* are the
    legal actions when it is *position*'s turn."""
    events: list[Event] = []
    for event in state.events:
        if type(event) is HoleCardDealt and event.position != position:
            event = HoleCardDealt(event.position, None)
        events.append(event)
    return SeatView(
        position=position,
        players=state.n,
        button=state.n - 1,
        street=STREETS[state.street],
        to_act=state.to_act,
        board=tuple(state.board),
        stacks=tuple(state.stacks),
        bets=tuple(state.bets),
        committed=tuple(state.committed),
        folded=tuple(state.folded),
        all_in=state.all_in(),
        pot=sum(state.committed),
        current_bet=state.to_match,
        hole=None if position is None else tuple(state.holes[position]),
        shown=state.shown_cards(),
        mucked=tuple(state.muck_order),
        legal=legal,
        events=tuple(events),
        result=state.result,
    )
