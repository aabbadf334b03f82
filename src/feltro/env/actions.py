"""Action numbers <-> engine actions, with exact masks: :class:`ExactActions`, :class:`PotActions`.

Two encodings, chosen by ``EnvConfig.actions``:

* ``"exact"`` (:class:`ExactActions`): ``0`` fold, ``1`` check or call, and ``k >= 2`` bet or
  raise **to** ``k - 1`` chips (a total for the street, as everywhere in feltro). Every legal
  raise has its own number, so the space has ``total chips + 2`` actions.
* ``"discrete"`` (:class:`PotActions`): ``0`` fold, ``1`` check or call, then one action per
  pot fraction (raise to ``current bet + fraction x (pot + owed)``, clipped into the legal
  range), and last all-in (the largest legal raise). They map only to legal amounts.

Masks are exact: an action is 1 in the mask if and only if the engine accepts it now. Folding
is always legal (the engine allows it even when checking is free, B3).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from feltro.actions import CALL, CHECK, FOLD, Action, Raise
from feltro.errors import IllegalActionError, Refusal
from feltro.legal import LegalActions

__all__ = ["ActionCodec", "ExactActions", "PotActions", "legal_info"]

Mask = npt.NDArray[np.int8]


def legal_info(legal: LegalActions) -> dict[str, object]:
    """The exact legal actions as plain data (``infos[agent]["legal"]``).

    ``{"to_act": bool, "fold": bool, "check": bool, "call": chips to call (0 when checking),
    "min_raise_to": int | None, "max_raise_to": int | None}``; amounts are street totals.
    """
    acting = legal.position is not None
    return {"to_act": acting, "fold": acting, "check": legal.can_check,
            "call": legal.call_amount, "min_raise_to": legal.min_raise_to,
            "max_raise_to": legal.max_raise_to}


class ActionCodec(ABC):
    """The common part of both encodings."""

    size: int
    """How many action numbers there are (``Discrete(size)``)."""

    @abstractmethod
    def mask(self, legal: LegalActions) -> Mask:
        """1 for each legal action number, 0 elsewhere (all 0 when nobody is to act)."""

    @abstractmethod
    def decode(self, action: int, legal: LegalActions, pot: int, current_bet: int) -> Action:
        """The engine action for *action* (*pot* and *current_bet* as the hand has them now).

        :raises IllegalActionError: for a number outside the space or one the rules refuse now.
        """

    def _bad(self, action: object) -> IllegalActionError:
        return IllegalActionError(Refusal("B3", "not-in-space", {"size": self.size}),
                                  f"action {action!r} is not a number in 0..{self.size - 1} "
                                  f"(0 fold, 1 check or call, then raises)")


class ExactActions(ActionCodec):
    """``0`` fold, ``1`` check/call, ``k >= 2`` raise to ``k - 1`` (see the module docstring)."""

    def __init__(self, total_chips: int) -> None:
        self.size = total_chips + 2
        self._masks: dict[tuple[int | None, int | None] | None, Mask] = {}

    def mask(self, legal: LegalActions) -> Mask:
        """See :meth:`ActionCodec.mask` (masks are kept by raise range and copied)."""
        key = (legal.min_raise_to, legal.max_raise_to) if legal.position is not None else None
        cached = self._masks.get(key)
        if cached is None:
            cached = np.zeros(self.size, dtype=np.int8)
            if key is not None:
                cached[0] = 1
                cached[1] = 1
                low, high = key
                if low is not None:
                    assert high is not None
                    cached[low + 1:high + 2] = 1
            if len(self._masks) > 4096:
                self._masks.clear()
            self._masks[key] = cached
        return cached.copy()

    def decode(self, action: int, legal: LegalActions, pot: int, current_bet: int) -> Action:
        """See :meth:`ActionCodec.decode`; the engine refuses illegal raises with their rule."""
        if action == 1:
            return CHECK if legal.can_check else CALL
        if action == 0:
            return FOLD
        try:
            to = int(action)
        except (TypeError, ValueError):
            raise self._bad(action) from None
        if not 2 <= to < self.size or to != action:
            raise self._bad(action)
        return Raise(to - 1)

    @staticmethod
    def raise_to(amount: int) -> int:
        """The action number that bets or raises to *amount*."""
        return amount + 1


class PotActions(ActionCodec):
    """Fold, check/call, one raise per pot fraction, all-in (see the module docstring)."""

    def __init__(self, fractions: Sequence[float]) -> None:
        self.fractions = tuple(fractions)
        self.size = 3 + len(self.fractions)

    def mask(self, legal: LegalActions) -> Mask:
        """See :meth:`ActionCodec.mask`: every raise number is legal when raising is open."""
        mask = np.zeros(self.size, dtype=np.int8)
        if legal.position is not None:
            mask[0] = 1
            mask[1] = 1
            if legal.min_raise_to is not None:
                mask[2:] = 1
        return mask

    def amount(self, action: int, legal: LegalActions, pot: int, current_bet: int) -> int:
        """The raise-to amount of raise number *action* (>= 2), inside the legal range."""
        low, high = legal.min_raise_to, legal.max_raise_to
        assert low is not None
        assert high is not None
        if action == self.size - 1:
            return high
        fraction = self.fractions[action - 2]
        target = current_bet + int(fraction * (pot + legal.call_amount))
        return low if target < low else high if target > high else target

    def decode(self, action: int, legal: LegalActions, pot: int, current_bet: int) -> Action:
        """See :meth:`ActionCodec.decode`."""
        if action == 1:
            return CHECK if legal.can_check else CALL
        if action == 0:
            return FOLD
        if type(action) is not int and not isinstance(action, np.integer):
            raise self._bad(action)
        if not 2 <= action < self.size:
            raise self._bad(action)
        if legal.min_raise_to is None:
            refusal = legal.refusal_details.get("raise") or Refusal("B7", "no-chips", {})
            raise IllegalActionError(refusal, f"cannot raise now: "
                                     f"{legal.refusal_message('raise') or 'raising is closed'}")
        return Raise(self.amount(int(action), legal, pot, current_bet))
