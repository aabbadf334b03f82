"""A new link for a seat (issue 23): the host reissues a seat's token when a player lost theirs
(a new phone, a cleared browser). The old token stops working at once (its connections are told
``revoked``); the new one is journaled as a hash only and handed to the host, once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from feltro.server.protocol import ErrorCode, ProtocolError
from feltro.server.security import hash_token, new_token

if TYPE_CHECKING:
    from feltro.server.live_table import LiveTable

__all__ = ["reissue_seat", "restorable", "restore_seat"]


def restorable(table: LiveTable, seat: int) -> bool:
    """Whether the host may still undo *seat*'s removal: no hand was dealt since."""
    state = table.lobby.seats.get(seat)
    return (state is not None and state.removed and state.removed_hand is not None
            and table.store is not None and not table.is_over
            and table.store.series.hand_number == state.removed_hand)


def restore_seat(table: LiveTable, seat: int) -> None:
    """Undo the host's removal of *seat* (its player's link works again), until the next
    hand is dealt.

    :raises ProtocolError: ``wrong_seat`` (not a removed seat), ``not_now`` (a hand was dealt
        since, or the series is over).
    """
    state = table.lobby.occupied(seat)
    if not state.removed:
        raise ProtocolError(ErrorCode.WRONG_SEAT, f"seat {seat} is not removed")
    if not restorable(table, seat):
        raise ProtocolError(ErrorCode.NOT_NOW, "a hand was dealt since the removal: it stays")
    table.log("restored", {"seat": seat})


def reissue_seat(table: LiveTable, seat: int) -> str:
    """A fresh token for *seat*'s player, the old one revoked; returns the new token.

    :raises ProtocolError: ``wrong_seat`` (empty seat, a bot, a removed player), ``not_now``
        once the series is over, or the table's own refusals (broken, stalled).
    """
    state = table.lobby.occupied(seat)
    if table.problem is not None or table.stalled:
        raise ProtocolError(ErrorCode.NOT_NOW, "the table cannot change now")
    if table.is_over:
        raise ProtocolError(ErrorCode.NOT_NOW, "the series is over")
    if state.bot is not None or state.removed or state.token_hash is None:
        raise ProtocolError(ErrorCode.WRONG_SEAT, f"seat {seat} has no player's link to reissue")
    token = new_token()
    table.log("reissued", {"seat": seat, "token_hash": hash_token(token)})
    return token
