"""Who sits at a table: seats, seat requests, the host role and the tokens that prove them.

:class:`Lobby` holds a table's people (its :class:`SeatState` per seat, its
:class:`SeatRequest` per request, who holds the host role) and answers who a token is
(:meth:`Lobby.identify`). It changes only through journal records (:meth:`Lobby.apply`), so a
table rebuilt from its journal after a restart has the same people. Its commands
(:meth:`Lobby.join`, :meth:`Lobby.accept`, :meth:`Lobby.add_bot`, :meth:`Lobby.mark_away`...)
check a request against the seats and journal it through the table's writer, or refuse with a
:class:`~feltro.server.protocol.ProtocolError` and change nothing; the table checks first that it
is in its lobby (:class:`~feltro.server.live_table.LiveTable`).

Secrets never appear here: seats and requests hold only token *hashes*, and those are left out
of ``repr`` so that no log line can carry them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from feltro.bots import BOT_KINDS
from feltro.server.protocol import ErrorCode, ProtocolError, name_key
from feltro.server.security import hash_token, new_id, new_token
from feltro.server.table_settings import TableSettings

__all__ = ["MAX_PENDING_REQUESTS", "SEAT_RECORDS", "Identity", "Lobby", "SeatRequest",
           "SeatState"]

MAX_PENDING_REQUESTS: Final = 20


@dataclass
class SeatState:
    """A seat as the server sees it, above the series (which knows only names and chips)."""

    seat: int
    name: str
    token_hash: str | None = field(default=None, repr=False)
    """SHA-256 of the seat token; ``None`` for bots and removed players."""
    bot: str | None = None
    """The bot kind; always shown to everybody."""
    away: bool = False
    away_reason: str | None = None
    removed: bool = False
    removed_hand: int | None = None
    """The hand number when the host removed the seat: until another hand is dealt, the
    removal can be undone (``restore_seat``)."""
    revoked_hash: str | None = field(default=None, repr=False)
    """The removed player's token hash, given back if the removal is undone."""
    timeouts: int = 0
    """Timeouts in a row (a decision of the player's own resets it)."""
    bank_ms: int = 0
    bank_hand: int = 1
    """:attr:`bank_ms` is the bank at the start of this hand number, before later refills."""


@dataclass
class SeatRequest:
    """Somebody asked for a seat."""

    request_id: str
    name: str
    token_hash: str = field(repr=False)
    seat: int | None
    status: str = "pending"


@dataclass(frozen=True, slots=True)
class Identity:
    """Who a token is at this table."""

    role: str
    """``"host"``, ``"player"`` or ``"pending"`` (a seat request)."""
    seat: int | None = None
    request_id: str | None = None


Write = Callable[[str, Mapping[str, Any]], None]
"""Journals a record (kind, body) and applies it: :meth:`LiveTable.log
<feltro.server.live_table.LiveTable.log>`."""


class Lobby:
    """A table's people (see the module docstring); *write* journals a record."""

    def __init__(self, settings: TableSettings, write: Write) -> None:
        self.settings = settings
        self.write = write
        self.seats: dict[int, SeatState] = {}
        self.requests: dict[str, SeatRequest] = {}
        self.host_hash: str | None = None
        self.host_seat: int | None = None
        self._tokens: dict[str, Identity] = {}

    # --- reading ----------------------------------------------------------------------------

    def identify(self, token: str) -> Identity | None:
        """Who *token* is at this table, or ``None``."""
        return self._tokens.get(hash_token(token))

    def identify_hash(self, token_hash: str) -> Identity | None:
        """Like :meth:`identify` for a token already hashed."""
        return self._tokens.get(token_hash)

    def is_host(self, identity: Identity | None) -> bool:
        """Whether *identity* holds the host role."""
        if identity is None:
            return False
        return identity.role == "host" or (identity.role == "player"
                                           and identity.seat is not None
                                           and identity.seat == self.host_seat)

    def free_seats(self) -> list[int]:
        """Unoccupied seat numbers."""
        return [s for s in range(1, self.settings.seats + 1) if s not in self.seats]

    def pending_requests(self) -> list[SeatRequest]:
        """Requests waiting for the host, oldest first."""
        return [r for r in self.requests.values() if r.status == "pending"]

    # --- commands: checked, then journaled --------------------------------------------------------

    def join(self, name: str, seat: int | None, *, by_host: bool) -> tuple[SeatRequest, str]:
        """Ask for a seat; returns the request and its token, shown once, never stored (the
        host's own request is seated at once).

        :raises ProtocolError: ``wrong_seat``, ``seat_taken``, ``table_full``,
            ``too_many_requests``, ``invalid`` (a name already at the table).
        """
        if seat is not None:
            self._free(seat)
        if not self.free_seats():
            raise ProtocolError(ErrorCode.TABLE_FULL, "every seat is taken")
        if len(self.pending_requests()) >= MAX_PENDING_REQUESTS:
            raise ProtocolError(ErrorCode.TOO_MANY_REQUESTS, "too many requests are waiting "
                                "for the host")
        wanted = name_key(name)
        taken = [s.name for s in self.seats.values()] + [r.name for r in self.pending_requests()]
        if any(name_key(other) == wanted for other in taken):
            raise ProtocolError(ErrorCode.NAME_TAKEN, f"the name {name.strip()!r} is already at "
                                "this table; choose another")
        token, request_id = new_token(), new_id(6)
        self.write("requested", {"request_id": request_id, "name": name.strip(),
                                 "token_hash": hash_token(token), "seat": seat})
        if by_host:
            self.accept(request_id, seat)
        return self.requests[request_id], token

    def accept(self, request_id: str, seat: int | None) -> None:
        """Seat a pending request (in *seat*, else the one it asked for, else the first free
        one).

        :raises ProtocolError: ``no_such_request``, ``wrong_seat``, ``seat_taken``,
            ``table_full``.
        """
        request = self.pending(request_id)
        chosen = self._free(seat if seat is not None else request.seat)
        self.write("granted", {"request_id": request_id, "seat": chosen})

    def refuse(self, request_id: str) -> None:
        """Refuse a pending request. :raises ProtocolError: ``no_such_request``."""
        self.pending(request_id)
        self.write("refused", {"request_id": request_id})

    def add_bot(self, kind: str, seat: int | None, name: str | None) -> int:
        """Seat a bot of *kind* in *seat* (else the first free one); returns its seat.

        :raises ProtocolError: ``bad_bot``, ``wrong_seat``, ``seat_taken``, ``table_full``.
        """
        if kind not in BOT_KINDS:
            raise ProtocolError(ErrorCode.BAD_BOT, f"unknown bot {kind!r}: choose one of "
                                f"{', '.join(BOT_KINDS)}")
        chosen = self._free(seat)
        self.write("bot_added", {"seat": chosen, "kind": kind,
                                 "name": (name or f"{kind.capitalize()} {chosen}").strip()})
        return chosen

    def pass_host(self, seat: int) -> None:
        """Give the host role to the player in *seat*.

        :raises ProtocolError: ``wrong_seat`` for an empty seat, a bot or a removed player.
        """
        state = self.occupied(seat)
        if state.bot is not None or state.token_hash is None:
            raise ProtocolError(ErrorCode.WRONG_SEAT, f"seat {seat} cannot be the host")
        self.write("host_passed", {"seat": seat})

    def mark_away(self, seat: int, reason: str) -> None:
        """Mark *seat* away (``reason``: ``"host"`` or ``"stepped_away"``): its blinds are
        posted and it checks or folds.

        :raises ProtocolError: ``wrong_seat`` for an empty seat, a bot or a removed player.
        """
        state = self.occupied(seat)
        if state.bot is not None or state.removed:
            raise ProtocolError(ErrorCode.WRONG_SEAT, f"seat {seat} cannot be marked away")
        if not state.away:
            self.write("away", {"seat": seat, "reason": reason})

    def come_back(self, seat: int) -> None:
        """*seat* is back: it plays its own decisions again.

        :raises ProtocolError: ``wrong_seat`` for an empty seat or a removed player.
        """
        state = self.occupied(seat)
        if state.removed:
            raise ProtocolError(ErrorCode.WRONG_SEAT, f"seat {seat} was removed by the host")
        if state.away or state.timeouts:
            self.write("back", {"seat": seat})

    def pending(self, request_id: str) -> SeatRequest:
        """The pending request *request_id*. :raises ProtocolError: ``no_such_request``."""
        request = self.requests.get(request_id)
        if request is None or request.status != "pending":
            raise ProtocolError(ErrorCode.NO_SUCH_REQUEST, "no such pending request")
        return request

    def occupied(self, seat: int) -> SeatState:
        """The state of *seat*. :raises ProtocolError: ``wrong_seat`` when it is empty."""
        self.check_seat_number(seat)
        state = self.seats.get(seat)
        if state is None:
            raise ProtocolError(ErrorCode.WRONG_SEAT, f"seat {seat} is empty")
        return state

    def check_seat_number(self, seat: int) -> None:
        """:raises ProtocolError: ``wrong_seat`` for a seat this table does not have."""
        if not 1 <= seat <= self.settings.seats:
            raise ProtocolError(ErrorCode.WRONG_SEAT, f"this table has seats 1 to "
                                f"{self.settings.seats}")

    def _free(self, seat: int | None) -> int:
        """*seat* if it is free, else (``None``) the first free seat.

        :raises ProtocolError: ``wrong_seat``, ``seat_taken``, ``table_full``.
        """
        if seat is None:
            free = self.free_seats()
            if not free:
                raise ProtocolError(ErrorCode.TABLE_FULL, "every seat is taken")
            return free[0]
        self.check_seat_number(seat)
        if seat in self.seats:
            raise ProtocolError(ErrorCode.SEAT_TAKEN, f"seat {seat} is taken")
        return seat

    # --- records ------------------------------------------------------------------------------

    def apply(self, kind: str, body: Mapping[str, Any]) -> None:
        """Apply one journal record about the table's people (see :data:`SEAT_RECORDS`)."""
        SEAT_RECORDS[kind](self, body)

    def _on_created(self, body: Mapping[str, Any]) -> None:
        self.host_hash = body["host_hash"]
        self._reindex()

    def _on_requested(self, body: Mapping[str, Any]) -> None:
        self.requests[body["request_id"]] = SeatRequest(
            body["request_id"], body["name"], body["token_hash"], body.get("seat"))
        self._reindex()

    def _on_granted(self, body: Mapping[str, Any]) -> None:
        request = self.requests[body["request_id"]]
        request.status, request.seat = "accepted", body["seat"]
        self.seats[body["seat"]] = SeatState(body["seat"], request.name, request.token_hash,
                                             bank_ms=self.settings.bank_seconds * 1000)
        self._reindex()

    def _on_refused(self, body: Mapping[str, Any]) -> None:
        self.requests[body["request_id"]].status = "refused"

    def _on_bot_added(self, body: Mapping[str, Any]) -> None:
        self.seats[body["seat"]] = SeatState(body["seat"], body["name"], bot=body["kind"])

    def _on_freed(self, body: Mapping[str, Any]) -> None:
        del self.seats[body["seat"]]
        self._reindex()

    def _on_removed(self, body: Mapping[str, Any]) -> None:
        seat = self.seats[body["seat"]]
        seat.removed, seat.away, seat.away_reason = True, True, "removed"
        seat.removed_hand = body.get("hand")
        seat.revoked_hash, seat.token_hash = seat.token_hash, None
        self._reindex()

    def _on_restored(self, body: Mapping[str, Any]) -> None:
        seat = self.seats[body["seat"]]
        seat.removed, seat.away, seat.away_reason = False, False, None
        seat.token_hash, seat.revoked_hash, seat.removed_hand = seat.revoked_hash, None, None
        self._reindex()

    def _on_reissued(self, body: Mapping[str, Any]) -> None:
        self.seats[body["seat"]].token_hash = body["token_hash"]
        self._reindex()

    def _on_host_passed(self, body: Mapping[str, Any]) -> None:
        self.host_hash, self.host_seat = None, body["seat"]
        self._reindex()

    def _on_away(self, body: Mapping[str, Any]) -> None:
        seat = self.seats[body["seat"]]
        seat.away, seat.away_reason = True, body["reason"]

    def _on_back(self, body: Mapping[str, Any]) -> None:
        seat = self.seats[body["seat"]]
        seat.away, seat.away_reason, seat.timeouts = False, None, 0

    def _on_timeout(self, body: Mapping[str, Any]) -> None:
        seat = self.seats[body["seat"]]
        seat.timeouts += 1
        seat.bank_ms, seat.bank_hand = 0, body["hand"]
        if body["away"]:
            seat.away, seat.away_reason = True, "timeouts"

    def _on_timing(self, body: Mapping[str, Any]) -> None:
        seat = self.seats[body["seat"]]
        seat.bank_ms, seat.bank_hand = body["bank_ms"], body["hand"]
        seat.timeouts = body["timeouts"]

    def _reindex(self) -> None:
        tokens: dict[str, Identity] = {}
        for request in self.requests.values():
            if request.status != "accepted":
                tokens[request.token_hash] = Identity("pending", request_id=request.request_id)
        for seat in self.seats.values():
            if seat.token_hash is not None:
                tokens[seat.token_hash] = Identity("player", seat=seat.seat)
        if self.host_hash is not None:
            tokens[self.host_hash] = Identity("host")
        self._tokens = tokens


SEAT_RECORDS: Final[dict[str, Callable[[Lobby, Mapping[str, Any]], None]]] = {
    "created": Lobby._on_created,
    "requested": Lobby._on_requested,
    "granted": Lobby._on_granted,
    "refused": Lobby._on_refused,
    "bot_added": Lobby._on_bot_added,
    "freed": Lobby._on_freed,
    "removed": Lobby._on_removed,
    "reissued": Lobby._on_reissued,
    "restored": Lobby._on_restored,
    "host_passed": Lobby._on_host_passed,
    "away": Lobby._on_away,
    "back": Lobby._on_back,
    "timeout": Lobby._on_timeout,
    "timing": Lobby._on_timing,
}
"""Journal record kind -> how it changes the table's people (:meth:`Lobby.apply`)."""
