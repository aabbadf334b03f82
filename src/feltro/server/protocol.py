"""The websocket protocol, version 1: every message a client may send, validated with pydantic,
the error codes, and the HTTP body that creates a table.

Messages are JSON objects keyed by ``type`` (``docs/protocol.md`` shows each one with an
example). Client messages are parsed with :func:`parse_client_message`, which refuses anything
that is not exactly one of the models below (unknown fields, wrong types, out-of-range numbers,
over-long strings). What the server sends is described in :mod:`feltro.server.outgoing`.
"""

from __future__ import annotations

import json
from enum import StrEnum
from typing import Annotated, Any, Final, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    model_validator,
)

from feltro.actions import CALL, CHECK, FOLD, Action, Raise
from feltro.errors import Refusal
from feltro.i18n import LANGUAGES
from feltro.jsondepth import nesting_depth
from feltro.playernames import clean_name, name_key

__all__ = [
    "MAX_JSON_DEPTH",
    "MAX_MESSAGE_BYTES",
    "PROTOCOL_VERSION",
    "ClientMessage",
    "CreateTable",
    "ErrorCode",
    "ProtocolError",
    "clean_name",
    "error_frame",
    "frame_bytes",
    "guess_ref",
    "json_depth",
    "name_key",
    "parse_client_message",
]

PROTOCOL_VERSION: Final = 1
"""Sent in ``welcome`` and required in ``hello``; bumped on any incompatible change."""

MAX_MESSAGE_BYTES: Final = 4096
MAX_JSON_DEPTH: Final = 8
"""The deepest nesting a client message may have (the protocol's own messages use 2)."""
"""Client messages longer than this are refused (``too_large``) without being parsed."""


def _known_language(code: str) -> str:
    if code not in LANGUAGES:
        raise ValueError(f"use one of {', '.join(LANGUAGES)}")
    return code


Lang = Annotated[str, AfterValidator(_known_language)]
"""A language of :data:`feltro.i18n.LANGUAGES` (the one list of them)."""
Seat = Annotated[int, Field(ge=1, le=10)]
Name = Annotated[str, Field(min_length=1, max_length=24), AfterValidator(clean_name)]
Ident = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.:-]+$")]
Token = Annotated[str, Field(min_length=16, max_length=128)]
Chips = Annotated[int, Field(ge=1, le=1_000_000_000)]


class ErrorCode(StrEnum):
    """Why the server refused a message. The message changed nothing.

    Each code has its words in every language of the catalogue (``error.<code>``,
    :mod:`feltro.i18n`): a client shows those, in its reader's language, and a rule's refusal
    from its data (the frame's ``refusal``); the frame's ``reason`` is English for logs.
    """

    BAD_JSON = "bad_json"
    """The frame is not a JSON object."""
    TOO_LARGE = "too_large"
    """The frame is longer than :data:`MAX_MESSAGE_BYTES`."""
    UNKNOWN_TYPE = "unknown_type"
    """No ``type``, or a ``type`` this protocol does not have."""
    INVALID = "invalid"
    """A known type with missing, extra or out-of-range fields."""
    UNSUPPORTED_PROTOCOL = "unsupported_protocol"
    """``hello`` asked for a protocol version this server does not speak."""
    HELLO_FIRST = "hello_first"
    """Anything but ``hello`` (or ``ping``) before ``hello``."""
    ALREADY_IDENTIFIED = "already_identified"
    """A second ``hello`` on the same connection."""
    BAD_TOKEN = "bad_token"
    """The token belongs to no seat, request or host of this table (or was revoked)."""
    NOT_HOST = "not_host"
    """A host command from a connection without the host role."""
    NOT_SEATED = "not_seated"
    """A player command from a connection that holds no seat."""
    WRONG_SEAT = "wrong_seat"
    """The message names a seat that is not the sender's, or a seat that cannot be used so."""
    SEAT_TAKEN = "seat_taken"
    """The seat asked for is occupied."""
    NAME_TAKEN = "name_taken"
    """``join`` or ``sit`` with a name already at the table (or in a pending request)."""
    TABLE_FULL = "table_full"
    """Every seat is occupied."""
    NO_SUCH_REQUEST = "no_such_request"
    """``accept``/``refuse`` named a request that is not pending."""
    TOO_MANY_REQUESTS = "too_many_requests"
    """Too many seat requests are pending at this table, or this connection already has one."""
    NOT_NOW = "not_now"
    """Not in this phase of the table (joining after the start, pausing in the lobby...)."""
    NO_HAND = "no_hand"
    """An action while no hand is being played."""
    NOT_YOUR_TURN = "not_your_turn"
    """An action from a seat that is not the one to act (B2)."""
    STALE = "stale"
    """An action for a turn that is over (``hand``/``turn`` do not match): it was not applied."""
    ILLEGAL_CHECK = "illegal_check"
    """A check facing a bet (B3)."""
    ILLEGAL_AMOUNT = "illegal_amount"
    """A bet or raise total outside the legal range (B6, B7, B10)."""
    RAISE_CLOSED = "raise_closed"
    """Raising is not open to this player now (B7 no chips, B8 not reopened, B10 capped)."""
    ILLEGAL_ACTION = "illegal_action"
    """Another rule refused the action; ``rule`` says which."""
    BAD_BOT = "bad_bot"
    """``add_bot`` named a bot kind the server does not have."""
    RATE_LIMITED = "rate_limited"
    """Too many messages on this connection; this one was dropped."""
    BROKEN_TABLE = "broken_table"
    """The table's log could not be resumed; it is read-only (the reason says why)."""
    STALLED = "stalled"
    """The table cannot save right now (its file is locked by another program, or the disk is
    full): nothing was applied; it resumes by itself when it can save again."""
    INTERNAL = "internal"
    """An unexpected server error; it was logged, nothing changed."""


class ProtocolError(Exception):
    """A refusal to send back to the client as an ``error`` message.

    A client words it from its *code* (``error.<code>`` in the catalogue) or, for a rule's
    refusal, from *refusal* (its rule, reason code and numbers, seats as seats:
    ``refusal.<rule>.<reason>``). *reason* is an English line for logs and scripts, like
    ``str(exc)``: no client shows it to a person or reads it.
    """

    def __init__(self, code: ErrorCode, reason: str, *, refusal: Refusal | None = None) -> None:
        super().__init__(f"{code}: {reason}")
        self.code = code
        self.reason = reason
        self.refusal = refusal

    @property
    def rule(self) -> str | None:
        """The RULES.md id of a rule's refusal."""
        return self.refusal.rule if self.refusal is not None else None


# --- client -> server ----------------------------------------------------------------------


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    id: Ident | None = None
    """Chosen by the client; echoed as ``ref`` in the ``ack`` or ``error`` that answers."""


class Hello(_In):
    """First message on every connection: who is this?"""

    type: Literal["hello"]
    protocol: int
    role: Literal["player", "host", "spectator"]
    token: Token | None = None
    """The seat token (``player``) or the host token (``host``); none for a spectator."""
    lang: Lang = "en"

    @model_validator(mode="after")
    def _token_for_role(self) -> Hello:
        if self.role == "spectator" and self.token is not None:
            raise ValueError("a spectator sends no token")
        if self.role != "spectator" and self.token is None:
            raise ValueError(f"role {self.role!r} needs a token")
        return self


class SetLang(_In):
    """Change the language of hand names for this connection."""

    type: Literal["set_lang"]
    lang: Lang


class Join(_In):
    """Ask for a seat (before the start). The host's own request is accepted at once."""

    type: Literal["join"]
    name: Name
    seat: Seat | None = None


class Act(_In):
    """Play an action for the sender's seat. ``id`` is required: a resent ``id`` applies once."""

    type: Literal["act"]
    id: Ident
    hand: Annotated[int, Field(ge=1, le=10_000_000)]
    turn: Annotated[int, Field(ge=0, le=100_000)]
    """From the ``legal`` block of the state the decision was made on."""
    action: Literal["fold", "check", "call", "raise"]
    to: Chips | None = None
    """The total for this street ("raise to"); required for ``raise`` (a first bet too)."""
    seat: Seat | None = None
    """Optional; when given it must be the sender's seat."""

    @model_validator(mode="after")
    def _amount_for_raise(self) -> Act:
        if (self.action == "raise") != (self.to is not None):
            raise ValueError("'to' is required for a raise and only for a raise")
        return self

    def engine_action(self) -> Action:
        """The engine's action for this message (the engine judges whether it is legal)."""
        if self.to is not None:
            return Raise(self.to)
        return {"fold": FOLD, "check": CHECK, "call": CALL}[self.action]


class StepAway(_In):
    """The sender's seat goes away: blinds still posted, it checks or folds."""

    type: Literal["away"]


class ComeBack(_In):
    """The sender's seat is back."""

    type: Literal["back"]


class ShowCards(_In):
    """The sender shows the hand it won uncontested, before the next deal (P8); refused
    otherwise with the rule's refusal."""

    type: Literal["show"]


class ShowLosers(_In):
    """The sender's choice to show even a losing hand at the showdown from the next deal
    (P8, D11); off (muck it) by default."""

    type: Literal["show_losers"]
    on: bool


REACTIONS: Final = ("👍", "😂", "😮", "😬", "👏", "🔥")
"""The quick reactions a player may send (issue 23); words for each in ``web.react.*``."""


class React(_In):
    """A seated player's quick reaction, shown on the table screen and the phones (when the
    table allows them; at most one every :data:`REACTION_GAP_SECONDS` per seat)."""

    type: Literal["react"]
    emoji: Literal["👍", "😂", "😮", "😬", "👏", "🔥"]


REACTION_GAP_SECONDS: Final = 3.0


class Contribute(_In):
    """A player's device adds fresh randomness to the next hand's deck (``docs/fairness.md``):
    ``value`` (1..64 bytes as hexadecimal), or first a ``seal`` (the SHA-256 contribution
    commitment) and later the ``value``."""

    type: Literal["contribute"]
    hand: Annotated[int, Field(ge=1, le=10_000_000)]
    value: Annotated[str, Field(min_length=2, max_length=128,
                                pattern=r"^(?:[0-9a-f]{2})+$")] | None = None
    seal: Annotated[str, Field(min_length=64, max_length=64, pattern=r"^[0-9a-f]{64}$")] \
        | None = None


class FairAlarm(_In):
    """A player's device found the deal failing one of its live checks (``docs/fairness.md``):
    its own value or seal not used (``contribution``, ``seal``), a card from a position the
    dealing rule does not give it (``position``), a card unlike its commitment (``card``), or
    a chain link it computes differently (``chain``). Announced to everyone, kept in the
    night's record."""

    type: Literal["fair_alarm"]
    hand: Annotated[int, Field(ge=1, le=10_000_000)]
    check: Literal["contribution", "seal", "position", "card", "chain"]


class Ping(_In):
    """Keep-alive; answered with ``pong``."""

    type: Literal["ping"]
    t: Annotated[int, Field(ge=0, le=2**53)] | None = None


class Accept(_In):
    """Host: seat a pending request (in the seat asked for, *seat*, or the first free one)."""

    type: Literal["accept"]
    request_id: Ident
    seat: Seat | None = None


class Refuse(_In):
    """Host: refuse a pending request."""

    type: Literal["refuse"]
    request_id: Ident


class AddBot(_In):
    """Host, before the start: seat a bot of *kind*."""

    type: Literal["add_bot"]
    kind: Annotated[str, Field(min_length=1, max_length=24, pattern=r"^[a-z0-9_-]+$")]
    seat: Seat | None = None
    name: Name | None = None


class RemoveBot(_In):
    """Host: remove a bot (before the start: the seat is freed; later: it checks or folds)."""

    type: Literal["remove_bot"]
    seat: Seat


class RemovePlayer(_In):
    """Host: remove a player (before the start: the seat is freed; later: the seat is away for
    good, its token revoked; its chips stay in play, no stack edits)."""

    type: Literal["remove_player"]
    seat: Seat


class ReissueSeat(_In):
    """Host: a new link for a seated player (the old one stops working); answered with a
    ``seat_link`` frame to the host only."""

    type: Literal["reissue_seat"]
    seat: Seat


class RestoreSeat(_In):
    """Host: undo the removal of a seat, until the next hand is dealt."""

    type: Literal["restore_seat"]
    seat: Seat


class MarkAway(_In):
    """Host: mark a player away."""

    type: Literal["mark_away"]
    seat: Seat


class Reenter(_In):
    """Host: the busted player in *seat* takes a fresh starting stack (G8, the re-entry
    period); they are dealt in when the big blind reaches them (D8)."""

    type: Literal["reenter"]
    seat: Seat


class PassHost(_In):
    """Host: give the host role to the player in *seat* (their seat token becomes the host's)."""

    type: Literal["pass_host"]
    seat: Seat


class Start(_In):
    """Host: start the series (two or more seats occupied)."""

    type: Literal["start"]


class Pause(_In):
    """Host: pause before the next hand (the hand in progress is finished)."""

    type: Literal["pause"]


class Resume(_In):
    """Host: resume after a pause."""

    type: Literal["resume"]


class EndSeries(_In):
    """Host: end the series when the hand in progress ends (G6: biggest stack wins)."""

    type: Literal["end"]


ClientMessage = Annotated[
    Hello | SetLang | Join | Act | Contribute | FairAlarm | StepAway | ComeBack | React | ShowCards
    | ShowLosers | Ping
    | Accept | Refuse | AddBot
    | RemoveBot | RemovePlayer | ReissueSeat | RestoreSeat | MarkAway | PassHost | Start | Pause
    | Resume | EndSeries | Reenter,
    Field(discriminator="type"),
]
HOST_TYPES: Final = frozenset({"accept", "refuse", "add_bot", "remove_bot", "remove_player",
                               "reissue_seat", "restore_seat", "mark_away", "pass_host",
                               "start", "pause", "resume", "end", "reenter"})
CLIENT_TYPES: Final = HOST_TYPES | {"hello", "set_lang", "join", "act", "contribute", "away",
                                    "back", "react", "show", "show_losers", "ping",
                                    "fair_alarm"}

_CLIENT = TypeAdapter[Any](ClientMessage)


def parse_client_message(text: str | bytes) -> BaseModel:
    """One client message, validated.

    :raises ProtocolError: ``too_large``, ``bad_json``, ``unknown_type`` or ``invalid``.
    """
    if frame_bytes(text) > MAX_MESSAGE_BYTES:
        raise ProtocolError(ErrorCode.TOO_LARGE,
                            f"messages are limited to {MAX_MESSAGE_BYTES} bytes")
    if json_depth(text) > MAX_JSON_DEPTH:
        raise ProtocolError(ErrorCode.BAD_JSON,
                            f"messages nest at most {MAX_JSON_DEPTH} levels deep")
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise ProtocolError(ErrorCode.BAD_JSON, "not JSON") from None
    if not isinstance(data, dict):
        raise ProtocolError(ErrorCode.BAD_JSON, "a message is a JSON object")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in CLIENT_TYPES:
        shown = kind[:32] if isinstance(kind, str) else kind if kind is None else "?"
        raise ProtocolError(ErrorCode.UNKNOWN_TYPE, f"unknown message type {shown!r}")
    try:
        message: BaseModel = _CLIENT.validate_python(data)
    except ValidationError as exc:
        first = exc.errors(include_url=False, include_input=False)[0]
        where = ".".join(str(part) for part in first["loc"][1:]) or kind
        raise ProtocolError(ErrorCode.INVALID, f"{kind}: {where}: {first['msg']}") from None
    return message


def frame_bytes(text: str | bytes) -> int:
    """The size of a frame in bytes (UTF-8), as the limit counts it, not in characters."""
    if isinstance(text, bytes) or len(text) * 4 <= MAX_MESSAGE_BYTES or text.isascii():
        return len(text)
    return len(text.encode("utf-8", "surrogatepass"))


def json_depth(text: str | bytes) -> int:
    """How deeply the JSON text nests arrays and objects (brackets inside strings ignored).

    Read before parsing: ``json.loads`` recurses once per level and a 4 KiB frame of ``[``
    would otherwise end in a RecursionError. Frames with few brackets skip the scan.
    """
    raw = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    if raw.count(b"[") + raw.count(b"{") <= MAX_JSON_DEPTH:
        return raw.count(b"[") + raw.count(b"{")
    return nesting_depth(raw)


def guess_ref(text: str | bytes) -> str | None:
    """The ``id`` of a refused message, when one can be read, to echo as ``ref``."""
    if frame_bytes(text) > MAX_MESSAGE_BYTES or json_depth(text) > MAX_JSON_DEPTH:
        return None
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None
    ref = data.get("id") if isinstance(data, dict) else None
    if isinstance(ref, str) and 0 < len(ref) <= 64 and ref.isprintable():
        return ref
    return None


def error_frame(code: ErrorCode, reason: str, *, ref: str | None = None,
                refusal: Refusal | None = None) -> str:
    """The JSON text of an ``error`` message (a rule's refusal as data: ``rule`` and
    ``refusal``)."""
    body: dict[str, Any] = {"type": "error", "code": code.value, "reason": reason}
    if ref is not None:
        body["ref"] = ref
    if refusal is not None:
        body["rule"] = refusal.rule
        body["refusal"] = {"rule": refusal.rule, "reason": refusal.reason,
                           "params": dict(refusal.params)}
    return json.dumps(body, separators=(",", ":"))


# --- HTTP -------------------------------------------------------------------------------------


class CreateTable(BaseModel):
    """``POST /api/tables``: the host's choices. Defaults are the house rules (G2)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    name: Name = "Home game"
    seats: Annotated[int, Field(ge=2, le=10)] = 6
    stack: Annotated[int, Field(ge=1, le=1_000_000)] = 200
    small_blind: Annotated[int, Field(ge=1, le=100_000)] = 1
    big_blind: Annotated[int, Field(ge=1, le=100_000)] = 2
    ante: Annotated[int, Field(ge=0, le=100_000)] = 0
    structure: Literal["no-limit", "pot-limit", "fixed-limit"] = "no-limit"
    stop_at: Annotated[str, Field(max_length=40)] | None = None
    """ISO 8601 with a time zone, e.g. ``"2026-05-01T23:30:00+01:00"``."""
    max_hands: Annotated[int, Field(ge=1, le=100_000)] | None = None
    action_seconds: Annotated[int, Field(ge=5, le=600)] | None = 30
    """Seconds per decision; ``null`` for an untimed kitchen-table game."""
    bank_seconds: Annotated[int, Field(ge=0, le=3600)] = 60
    """The time bank each player starts with."""
    bank_refill_seconds: Annotated[int, Field(ge=0, le=600)] = 5
    """Added to every bank at each new hand, up to ``bank_max_seconds``."""
    bank_max_seconds: Annotated[int, Field(ge=0, le=3600)] = 120
    disconnect_grace_seconds: Annotated[int, Field(ge=0, le=600)] = 30
    """Extra time for a player whose connection dropped during their turn."""
    between_hands_seconds: Annotated[float, Field(ge=0, le=60)] = 4.0
    bot_seconds: Annotated[float, Field(ge=0, le=30)] = 1.0
    """How long bots (and away seats) seem to think."""
    reveal: Literal["hand", "series"] = "series"
    reactions: bool = True
    """Whether players may send quick reactions (a few emoji) to the table screen and the
    phones (issue 23)."""
    """When the dealer's secrets are revealed (``docs/fairness.md``): at the end of the series
    (mucked and folded hands stay private during play), or as each hand ends."""
    # A re-entry period (G8) and late seats (G9), off by default (G4): up to `reentries`
    # fresh stacks per player until the end of level `reentry_level` or `reentry_minutes`.
    reentries: Annotated[int, Field(ge=1, le=10)] | None = None
    reentry_level: Annotated[int, Field(ge=1, le=40)] | None = None
    reentry_minutes: Annotated[int, Field(ge=1, le=1440)] | None = None
    late_seats: bool = False
    # Blind levels (G7), off by default (G5): a ready structure's name or custom levels
    # "1/2, 2/4, 5/10/1", each level lasting level_length hands or minutes.
    levels: Annotated[str, Field(min_length=1, max_length=1000)] | None = None
    level_unit: Literal["hands", "minutes"] = "hands"
    level_length: Annotated[int, Field(ge=1, le=10_000)] = 10
    antes_from: Annotated[int, Field(ge=1, le=40)] | None = None

    @model_validator(mode="after")
    def _blinds(self) -> CreateTable:
        if self.big_blind < self.small_blind:
            raise ValueError("the big blind cannot be smaller than the small blind")
        if self.bank_max_seconds < self.bank_seconds:
            raise ValueError("bank_max_seconds cannot be below bank_seconds")
        return self
