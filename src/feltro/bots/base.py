"""What the card-reading bots share: a random source, and nothing to decide without cards.

:class:`HoleCardBot` keeps the ``random.Random`` a bot is given and answers for a seat whose
hole cards it cannot see (a view between hands, or a seat out of the hand) with
:func:`~feltro.bots.check_or_fold`; a subclass decides only with two known cards, in
:meth:`HoleCardBot.play`.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod

from feltro.actions import Action
from feltro.bots import check_or_fold
from feltro.bots.reading import own_hole
from feltro.cards import Card
from feltro.hand import LegalActions, SeatView


class HoleCardBot(ABC):
    """A bot that decides from its own two hole cards (see the module docstring)."""

    name: str

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def act(self, view: SeatView, legal: LegalActions) -> Action:
        """A decision of :meth:`play`; with no cards to read, check or fold."""
        hole = own_hole(view)
        if hole is None or view.position is None:
            return check_or_fold(legal)
        return self.play(hole, view, legal)

    @abstractmethod
    def play(self, hole: tuple[Card, Card], view: SeatView, legal: LegalActions) -> Action:
        """The decision with *hole* known and the seat in the hand; always one of *legal*."""
