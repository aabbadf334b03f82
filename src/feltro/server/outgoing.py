"""The messages the server sends (protocol version 1): one pydantic model per message and per
part of the ``state`` message, as ``docs/protocol.md`` describes them.

:mod:`feltro.server.views` builds the ``state`` message as these models (serialized with only
the fields each view sets); the short frames (``ack``, ``error``...) are plain JSON, and the
tests validate every frame the server sends against :data:`SERVER_MESSAGE`. What a client may
send is in :mod:`feltro.server.protocol`.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, TypeAdapter

from feltro.server.protocol import ErrorCode

__all__ = [
    "SERVER_MESSAGE",
    "AckOut",
    "ByeOut",
    "EliminationOut",
    "ErrorOut",
    "FairCardOut",
    "FairHandOut",
    "FairNextOut",
    "FairOut",
    "FairOwnOut",
    "HandOut",
    "LegalOut",
    "OutcomeOut",
    "PongOut",
    "PotOut",
    "ReactionOut",
    "RefusalOut",
    "RequestOut",
    "SeatLinkOut",
    "SeatOut",
    "SeatRequestOut",
    "SeriesEnd",
    "ServerMessage",
    "ShowOut",
    "StandingOut",
    "StateOut",
    "StopOut",
    "TableOut",
    "TableStatus",
    "TimerOut",
    "WelcomeOut",
    "YouOut",
]



class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid")


class WelcomeOut(_Out):
    type: Literal["welcome"]
    protocol: int
    table_id: str
    role: Literal["player", "host", "spectator", "pending"]
    seat: int | None
    host: bool
    boot: str
    """Changes when the server restarts (versions start again)."""
    ref: str | None = None


class SeatRequestOut(_Out):
    type: Literal["seat_request"]
    request_id: str
    status: Literal["pending", "accepted", "refused"]
    seat: int | None
    token: str | None = None
    """Only in the first answer to ``join``, only to the connection that asked: keep it."""
    ref: str | None = None


class SeatLinkOut(_Out):
    """The answer to the host's ``reissue_seat``, to the host's connection only: the seat's new
    token (the old one no longer works)."""

    type: Literal["seat_link"]
    ref: str | None
    seat: int
    token: str


class ReactionOut(_Out):
    """A seated player's quick reaction, to everybody at the table."""

    type: Literal["reaction"]
    seat: int
    emoji: str


class AckOut(_Out):
    type: Literal["ack"]
    ref: str | None
    duplicate: bool = False


class RefusalOut(_Out):
    """A rule's refusal as data: the client words it (``refusal.<rule>.<reason>`` in the shared
    catalogue, filled with *params*). Seats are seats (``seat``, ``to_act_seat``)."""

    rule: str
    reason: str
    params: dict[str, int]


class ErrorOut(_Out):
    """Worded by the client from ``code`` (``error.<code>``) or ``refusal``; ``reason`` is an
    English line for logs and scripts, never shown to a person."""

    type: Literal["error"]
    code: ErrorCode
    reason: str
    ref: str | None = None
    rule: str | None = None
    refusal: RefusalOut | None = None


class PongOut(_Out):
    type: Literal["pong"]
    t: int | None
    server_time: int


class ByeOut(_Out):
    """Worded by the client from ``code`` (``bye.<code>``); ``reason`` is an English line for
    logs and scripts, never shown to a person."""

    type: Literal["bye"]
    reason: str
    code: Literal["revoked", "behind", "flooding", "stopping", "replaced", "crowded",
                  "hello_timeout"]
    """Why, for programs: ``revoked`` (the token is no longer valid here), ``behind`` (too far
    behind), ``flooding``, ``stopping`` (the server is stopping; reconnect), ``replaced`` (the
    same seat was opened on more devices than allowed: do not reconnect by yourself),
    ``crowded`` (too many connections had not said hello; reconnect), ``hello_timeout`` (no
    ``hello`` in time)."""


class SeatOut(_Out):
    seat: int
    occupied: bool
    name: str | None = None
    bot: str | None = None
    stack: int | None = None
    bet: int | None = None
    committed: int | None = None
    in_hand: bool = False
    has_cards: bool = False
    folded: bool = False
    all_in: bool = False
    out: bool = False
    place: int | None = None
    away: bool = False
    removed: bool = False
    restorable: bool = False
    connected: bool = False
    host: bool = False
    button: bool = False
    small_blind: bool = False
    big_blind: bool = False
    shown: list[str] | None = None
    mucked: bool = False
    last_action: dict[str, Any] | None = None


class PotOut(_Out):
    amount: int
    eligible: list[int]
    winners: list[int] | None = None
    shares: list[int] | None = None


class ShowOut(_Out):
    seat: int
    cards: list[str] | None
    mucked: bool
    hand_name: str | None


class HandOut(_Out):
    number: int
    street: str
    board: list[str]
    pots: list[PotOut]
    pot_total: int
    current_bet: int
    to_act: int | None
    turn: int
    button: int
    button_is_dead: bool
    small_blind: int | None
    big_blind: int
    log: list[dict[str, Any]]
    showdown: list[ShowOut]
    over: bool
    returned: dict[str, int] | None
    net: dict[str, int] | None
    level: dict[str, Any] | None = None


class TimerOut(_Out):
    seat: int
    hand: int
    turn: int
    started_at: int
    action_ends_at: int
    ends_at: int
    bank_ms: int
    grace: bool
    server_time: int


class StandingOut(_Out):
    place: int
    seat: int
    name: str
    bot: str | None
    stack: int
    out_in_hand: int | None
    reentries: int = 0
    """Fresh stacks taken in the re-entry period (G8)."""


class EliminationOut(_Out):
    seat: int
    name: str
    place: int
    hand: int


class StopOut(_Out):
    at: str | None
    remaining_s: int | None
    requested: bool
    last_hand: bool


SeriesEnd = Literal["last_player", "stopped", "ended"]
"""How a series ended: ``last_player`` (G4), ``stopped`` at the agreed time or hand count,
``ended`` by the host (G6); clients word it as ``series.end_<end>``."""


class OutcomeOut(_Out):
    end: SeriesEnd
    winners: list[int]
    names: list[str]
    stacks: dict[str, int]
    hands: int


TableStatus = Literal["lobby", "playing", "paused", "over", "broken", "stalled"]


class FairCardOut(_Out):
    index: int
    card: str
    salt: str


class FairNextOut(_Out):
    hand: int
    commitment: str
    phase: Literal["seal", "reveal"]
    sealed: dict[str, str]
    contributed: list[int]


class FairHandOut(_Out):
    number: int
    commitment: str
    contributions: dict[str, str]
    sealed: dict[str, str]
    withheld: list[int]
    positions: list[str]
    chain: str
    previous: str
    seats: list[int]
    board: list[FairCardOut]
    secret: str | None = None
    seed: str | None = None


class FairAlarmOut(_Out):
    hand: int
    seat: int
    check: Literal["contribution", "seal", "position", "card", "chain"]


class FairOut(_Out):
    alarms: list[FairAlarmOut] = []
    scheme: str
    table: str
    reveal: Literal["hand", "series"]
    next: FairNextOut | None
    hand: FairHandOut | None
    fingerprint: str | None


class FairOwnOut(_Out):
    hand: int
    cards: list[FairCardOut]


class TableOut(_Out):
    id: str
    name: str
    status: TableStatus
    settings: dict[str, Any]
    seats: list[SeatOut]
    hand: HandOut | None
    timer: TimerOut | None
    standings: list[StandingOut]
    eliminations: list[EliminationOut]
    stop: StopOut
    outcome: OutcomeOut | None
    paused: bool
    pause_pending: bool
    next_hand_at: int | None
    hands_played: int
    problem: str | None
    fair: FairOut | None = None
    level: dict[str, Any] | None = None
    """The blind level now, the next and the countdown (G7); ``null`` with fixed blinds."""
    entries: dict[str, Any] | None = None
    """The re-entry period (G8, G9); ``null`` for a freezeout (G4)."""


class LegalOut(_Out):
    hand: int
    turn: int
    fold: bool
    check: bool
    call: int
    raise_: dict[str, int] | None = Field(validation_alias=AliasChoices("raise", "raise_"),
                                          serialization_alias="raise")
    refusal_details: dict[str, RefusalOut]
    call_all_in: bool = False
    """Calling puts the player all in (for less than the bet when short, B7)."""
    bet: bool = False
    """A raise here is the street's first bet (worded "bet to", not "raise to")."""
    sizes: dict[str, int] | None = None
    """Quick "to" totals inside ``raise``: ``min``, ``half_pot``, ``pot``, ``all_in`` (only
    ``all_in`` when that is the one raise open); ``null`` when raising is closed."""


class RequestOut(_Out):
    request_id: str
    name: str
    seat: int | None


class YouOut(_Out):
    role: Literal["player", "host", "spectator", "pending"]
    seat: int | None
    name: str | None
    host: bool
    lang: str
    hole: list[str] | None
    hand_name: str | None
    legal: LegalOut | None
    away: bool
    bank_ms: int | None
    timeouts: int
    request: dict[str, Any] | None
    requests: list[RequestOut] | None
    bots: list[str] | None
    fair: FairOwnOut | None = None
    may_show: bool = False
    show_losers: bool = False


class StateOut(_Out):
    type: Literal["state"]
    version: int
    boot: str
    server_time: int
    table: TableOut
    you: YouOut


ServerMessage = Annotated[
    WelcomeOut | SeatRequestOut | SeatLinkOut | ReactionOut | AckOut | ErrorOut | PongOut
    | ByeOut | StateOut,
    Field(discriminator="type"),
]
SERVER_MESSAGE = TypeAdapter[Any](ServerMessage)
"""Validates a server frame (used by the tests on every frame)."""
