"""The hands the batched engine plays, as PHH on demand: :class:`ActionLog`, :class:`FinishedHand`.

The array engine keeps no events. :class:`ActionLog` records every table's actions in one array
(one number per decision: ``-1`` fold, ``0`` check or call, ``k > 0`` bet or raise to *k*), and
a finished hand becomes a :class:`FinishedHand`: a read-only mapping whose ``"phh"`` entry is
written when first read, by replaying the deal and the actions through
:class:`~feltro.hand.Hand` (which also checks the array engine's result). Reading nothing costs
nothing.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from feltro.actions import CALL, FOLD, Action, Raise
from feltro.env.env_config import EnvConfig
from feltro.hand import Hand
from feltro.history.record import HandTextWriter

__all__ = ["ActionLog", "FinishedHand"]

Ints = npt.NDArray[np.int64]


class ActionLog:
    """The actions of every table's current hand (see the module docstring)."""

    def __init__(self, num_tables: int) -> None:
        self.actions: Ints = np.zeros((num_tables, 32), dtype=np.int64)
        self.lengths: Ints = np.zeros(num_tables, dtype=np.int64)
        self._rows = np.arange(num_tables, dtype=np.int64)

    def record(self, codes: Ints) -> None:
        """One decision at every table (codes as in the module docstring)."""
        lengths = self.lengths
        if int(lengths.max()) >= self.actions.shape[1]:
            self.actions = np.concatenate([self.actions, np.zeros_like(self.actions)], axis=1)
        self.actions[self._rows, lengths] = codes
        lengths += 1

    def clear(self, rows: Ints) -> None:
        """Start new hands at *rows*."""
        self.lengths[rows] = 0

    def of(self, row: int) -> Ints:
        """A copy of table *row*'s actions so far."""
        return self.actions[row, :self.lengths[row]].copy()


@dataclass(eq=False, repr=False)
class FinishedHand(Mapping[str, object]):
    """A finished hand of the batched engine: ``{"phh": [text]}``, written when read.

    :raises RuntimeError: on reading, if the hand engine's replay ends with other stacks than
        the array engine's (a bug in one of them).
    """

    config: EnvConfig
    agents: Ints
    """The agent at each position."""
    deck: Ints
    actions: Ints
    """The hand's actions, coded as :class:`ActionLog` codes them."""
    final_stacks: Ints
    """The array engine's stacks at the end, by position."""
    writer: HandTextWriter
    _phh: list[str] | None = field(default=None, init=False)

    def __getitem__(self, key: str) -> object:
        if key != "phh":
            raise KeyError(key)
        if self._phh is None:
            self._phh = [self.text()]
        return self._phh

    def __iter__(self) -> Iterator[str]:
        return iter(("phh",))

    def __len__(self) -> int:
        return 1

    def hand(self) -> Hand:
        """The hand replayed through the hand engine."""
        order = tuple(self.agents.tolist())
        hand = Hand.start(self.config.hand_config(order), self.deck.tolist())
        for code in self.actions.tolist():
            action: Action = FOLD if code < 0 else CALL if code == 0 else Raise(code)
            hand.apply(action)
        return hand

    def text(self) -> str:
        """The PHH text (seats are the agents' numbers plus one)."""
        hand = self.hand()
        final = self.final_stacks.tolist()
        if not hand.is_over or list(hand.result().stacks) != final:
            raise RuntimeError(f"the array engine ended the hand with {final}, the hand "
                               f"engine with {list(hand.stacks)}")
        return self.writer.text(hand, tuple(a + 1 for a in self.agents.tolist()))
