"""The messages of a seat's device (and the host's link reissue) that act on no turn: a fair
deal's seal or value and a failed check of the deal, stepping away and back, a new link for a
seat, a quick reaction. Each is a :class:`~feltro.server.room.Room` handler (see its
``_HANDLERS``): it answers the sender and says whether everyone's view changed."""

from __future__ import annotations

from typing import TYPE_CHECKING

from feltro.server import protocol as p
from feltro.server.connection import Connection, dumps
from feltro.server.protocol import ErrorCode, ProtocolError
from feltro.server.seat_links import reissue_seat

if TYPE_CHECKING:
    from feltro.server.room import Room

__all__ = ["come_back", "contribute", "fair_alarm", "react", "reissue", "show_cards", "show_losers",
           "step_away"]


async def contribute(room: Room, conn: Connection, message: p.Contribute, now: float) -> bool:
    room.table.contribute(room.own_seat(conn, None), message.hand,
                          bytes.fromhex(message.value) if message.value else None,
                          bytes.fromhex(message.seal) if message.seal else None)
    conn.push(dumps({"type": "ack", "ref": message.id}))
    return False  # nothing to show anyone yet: the deal publishes it


async def fair_alarm(room: Room, conn: Connection, message: p.FairAlarm, now: float) -> bool:
    seat, table = room.own_seat(conn, None), room.table
    if table.fairplay is None or table.store is None:
        raise ProtocolError(ErrorCode.NOT_NOW, "this table deals without the fair dealer")
    body = table.fairplay.alarm_record(seat, message.hand, message.check,
                                       dealt=table.store.series.hand_number)
    if body is not None:  # journaled like the contributions, shown to everyone
        await room.write(table.log, "contributed", body)
    conn.push(dumps({"type": "ack", "ref": message.id}))
    return body is not None


async def step_away(room: Room, conn: Connection, message: p.StepAway, now: float) -> bool:
    await room.write(room.table.mark_away, room.own_seat(conn, None), "stepped_away")
    conn.push(dumps({"type": "ack", "ref": message.id}))
    return True


async def come_back(room: Room, conn: Connection, message: p.ComeBack, now: float) -> bool:
    await room.write(room.table.come_back, room.own_seat(conn, None))
    conn.push(dumps({"type": "ack", "ref": message.id}))
    return True


async def reissue(room: Room, conn: Connection, message: p.ReissueSeat, now: float) -> bool:
    if not room.table.lobby.is_host(conn.identity):
        raise ProtocolError(ErrorCode.NOT_HOST, "only the host may do that")
    token = await room.write(reissue_seat, room.table, message.seat)
    conn.push(dumps({"type": "seat_link", "ref": message.id, "seat": message.seat,
                     "token": token}))
    return True


async def show_cards(room: Room, conn: Connection, message: p.ShowCards, now: float) -> bool:
    """The sender shows the hand it won uncontested (P8): logged in the series log first, then
    on the hand's public log; everyone's view changes."""
    await room.write(room.table.show_won_hand, room.own_seat(conn, None))
    conn.push(dumps({"type": "ack", "ref": message.id}))
    return True


async def show_losers(room: Room, conn: Connection, message: p.ShowLosers, now: float) -> bool:
    """The sender's choice to show losing hands at the showdown (P8, D11): in the series log
    before the ack; it applies from the next deal."""
    await room.write(room.table.choose_show_losers, room.own_seat(conn, None), message.on)
    conn.push(dumps({"type": "ack", "ref": message.id}))
    return True


async def react(room: Room, conn: Connection, message: p.React, now: float) -> bool:
    """A quick reaction: to every connection at the table at once (no state change)."""
    seat = room.own_seat(conn, None)
    if not room.table.settings.reactions:
        raise ProtocolError(ErrorCode.NOT_NOW, "reactions are off at this table")
    last = room.reacted.get(seat)
    if last is not None and now - last < p.REACTION_GAP_SECONDS:
        raise ProtocolError(ErrorCode.RATE_LIMITED, "one reaction every few seconds")
    room.reacted[seat] = now
    frame = dumps({"type": "reaction", "seat": seat, "emoji": message.emoji})
    for other in room.connections:
        if other.hello and not other.closing:
            other.push(frame)
    conn.push(dumps({"type": "ack", "ref": message.id}))
    return False
