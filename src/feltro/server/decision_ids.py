"""A decision is applied once: :class:`DecisionIds` remembers each seat's last action ids.

A phone that lost its connection resends the action it got no answer for; the protocol promises
that the same id for the same turn is a harmless retry (``duplicate`` in its ``ack``) and the
same id for another turn a mistake (``invalid``).
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Final

from feltro.server.protocol import ErrorCode, ProtocolError

__all__ = ["RECENT_IDS", "DecisionIds"]

RECENT_IDS: Final = 64
"""Action ids remembered per seat."""


class DecisionIds:
    """Each seat's last action ids: a decision sent again (a retry after a reconnect) is
    applied once."""

    def __init__(self) -> None:
        self._recent: dict[int, OrderedDict[str, tuple[int, int]]] = {}

    def seen(self, seat: int, action_id: str, turn: tuple[int, int]) -> bool:
        """Whether *seat* already played *action_id* for *turn*.

        :raises ProtocolError: ``invalid`` for an id used for another turn.
        """
        recent = self._recent.get(seat)
        used = recent.get(action_id) if recent is not None else None
        if used is None or used == turn:
            return used is not None
        raise ProtocolError(ErrorCode.INVALID, f"action id {action_id!r} was already used for "
                            f"hand {used[0]} turn {used[1]}; send each decision with a new id")

    def note(self, seat: int, action_id: str, turn: tuple[int, int]) -> None:
        """*seat* played *action_id* for *turn*."""
        recent = self._recent.setdefault(seat, OrderedDict())
        recent[action_id] = turn
        if len(recent) > RECENT_IDS:
            recent.popitem(last=False)
