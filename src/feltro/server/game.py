"""One table, synchronously: lobby, seats, host, absence and timers around a durable series.

:class:`TableGame` is the server's pure-ish core (no asyncio, no sockets; time is passed in).
Every method either refuses with a :class:`~feltro.server.protocol.ProtocolError` and changes
nothing, or changes the table and has committed the change to disk before it returns: the cards
and chips through :class:`feltro.store.SeriesStore` (the series log), everything else as a record
of the server :class:`~feltro.server.journal.Journal`. :mod:`feltro.server.rooms` holds one lock
around each call and sends the new views only after it returns.

State is event-sourced: a change is a journal record applied by :meth:`TableGame._apply`, the
same function that rebuilds a table after a restart. Where one step writes both logs, the order
is chosen so that a crash between the two writes is harmless:

* a timeout is journaled first (``timeout``), then its check or fold is played; on restart a
  timeout whose action is missing is played again (:meth:`_reconcile`);
* a manual action is played first, then its time-bank use is journaled (``timing``); a crash in
  between gives the player their bank time back, never takes time away;
* the host's "end" is journaled, then passed to the series; restart passes it again if needed.

Timers are rebased on restart: the player to act gets a fresh action timer and the bank they
had (the downtime is nobody's fault).
"""

from __future__ import annotations

import logging
import random
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from pathlib import Path
from typing import Any, Final

from feltro.actions import CHECK, FOLD, Action
from feltro.bots import BOT_KINDS, Bot, make_bot
from feltro.errors import (
    ConfigError,
    IllegalActionError,
    Refusal,
    StoreError,
    StoreUnavailableError,
)
from feltro.events import Event
from feltro.i18n import t
from feltro.seal import SeedSeal
from feltro.series import SeriesConfig
from feltro.server.clock import Clock
from feltro.server.fairplay import FIRST_DEAL_WAIT, FairPlay, Reveal
from feltro.server.handlog import HandLog
from feltro.server.journal import Journal, JournalRecord
from feltro.server.model import (
    BotTurn,
    Identity,
    SeatRequest,
    SeatState,
    TableSettings,
    precheck,
    series_has,
    turn_index,
)
from feltro.server.protocol import ErrorCode, ProtocolError, TableStatus, name_key
from feltro.server.refusals import error_code, refusal_words, seat_refusal
from feltro.server.security import hash_token, new_id, new_token
from feltro.server.snapshot import HandSnapshot, SeriesSnapshot, TableSnapshot, TurnClock
from feltro.store import SeriesStore

__all__ = ["PROBLEMS", "TableGame", "problem_text"]

log = logging.getLogger("feltro.server")

PROBLEMS: Final = ("damaged", "missing", "stalled")
"""What :attr:`TableGame.problem` may hold: a key of the ``table_problem`` catalogue section
(the details, with paths, go to the server's log only; players read plain words)."""


def problem_text(problem: str, lang: str = "en") -> str:
    """The public words for a table's *problem* (see :data:`PROBLEMS`), in *lang*."""
    return t(f"table_problem.{problem if problem in PROBLEMS else 'damaged'}", lang)

MAX_PENDING_REQUESTS: Final = 20
TIMEOUTS_TO_AWAY: Final = 3
_RECENT_IDS: Final = 64


class TableGame:
    """One table (see the module docstring). Build it with :meth:`create` or :meth:`restore`."""

    def __init__(self, table_id: str, settings: TableSettings, journal: Journal,
                 folder: Path, clock: Clock) -> None:
        self.table_id = table_id
        self.settings = settings
        self.journal = journal
        self.folder = folder
        self.clock = clock
        self.seats: dict[int, SeatState] = {}
        self.requests: dict[str, SeatRequest] = {}
        self.host_hash: str | None = None
        self.host_seat: int | None = None
        self.series_file: str | None = None
        self.store: SeriesStore | None = None
        self.paused = False
        self.stop_logged = False
        self.problem: str | None = None
        """Why the table could not be resumed (it is then read-only): ``"damaged"`` or
        ``"missing"`` (see :data:`PROBLEMS`)."""
        self.stalled = False
        """Its logs cannot be written now (locked by another program, disk full): it refuses
        every change and the room retries until they can (then it resumes by itself)."""
        self.created_at = ""
        self._tokens: dict[str, Identity] = {}
        self._bots: dict[int, Bot] = {}
        self._last_timeout: tuple[int, int, int] | None = None
        # Runtime only (rebuilt on restart):
        self.connected: Counter[int] = Counter()
        self.turn_key: tuple[int, int] | None = None
        self.turn_started = 0.0
        self.turn_grace = False
        self.next_deal_at: float | None = None
        self._bot_pending: tuple[int, int] | None = None
        self._recent: dict[int, OrderedDict[str, tuple[int, int]]] = {}
        self._hand_log: HandLog | None = None
        self.seal: SeedSeal | None = None
        """The key its series log's seed is sealed with; ``None``: in clear (tests)."""
        self.fairplay: FairPlay | None = None
        """The verifiable shuffle (:mod:`feltro.server.fairplay`); ``None`` for a series
        started before the server had one (it keeps its seeded shuffle)."""

    # --- creation and restart -------------------------------------------------------------

    @classmethod
    def create(cls, settings: TableSettings, journal: Journal, folder: Path,
               clock: Clock, *, seal: SeedSeal | None = None) -> tuple[TableGame, str]:
        """A new table in the lobby; returns it and the host token (shown once, never stored).

        *seal*: the key its series log's seed is sealed with (:mod:`feltro.seal`).
        """
        table_id = new_id(6)
        token = new_token()
        game = cls(table_id, settings, journal, folder, clock)
        game.seal = seal
        game._log("created", {"settings": settings.to_dict(), "host_hash": hash_token(token)})
        return game, token

    @classmethod
    def restore(cls, table_id: str, records: Iterable[JournalRecord], journal: Journal,
                folder: Path, clock: Clock, *, seal: SeedSeal | None = None) -> TableGame:
        """Rebuild a table from its journal records and reopen its series log.

        A table whose records or series log cannot be read comes back *broken*
        (:attr:`problem` says why): visible, read-only, never half-resumed.

        :raises ValueError: if the first record is not a ``created`` record.
        """
        items = list(records)
        if not items or items[0].kind != "created":
            raise ValueError(f"table {table_id}: the first record is not 'created'")
        settings = TableSettings.from_dict(items[0].body["settings"])
        game = cls(table_id, settings, journal, folder, clock)
        game.seal = seal
        try:
            for record in items:
                if record.kind == "corrupt":
                    raise ValueError(f"server log record {record.seq} is damaged")
                game._apply(record.kind, record.body)
                if record.kind == "created":
                    game.created_at = record.at
        except (KeyError, TypeError, ValueError) as exc:
            log.error("table %s: its server log cannot be replayed: %s", table_id, exc)
            game.problem = "damaged"
            return game
        if game.series_file is not None:
            path = folder / game.series_file
            try:
                game.store = SeriesStore.open(path, seal=seal, deck_source=game._fair_decks())
            except StoreUnavailableError as exc:  # cannot be read now: retried by the room
                log.warning("table %s: its series log cannot be read now: %s", table_id, exc)
                game.stalled = True
                return game
            except Exception as exc:  # any damage quarantines this table, never the server
                log.error("table %s: its series log cannot be resumed: %s", table_id, exc)
                game.problem = "damaged" if path.is_file() else "missing"
                return game
            try:
                game._make_bots()
                game._resume_log()
                game._reconcile()
                game._after_series_change(clock.monotonic(), fresh_deal_delay=True)
            except BaseException:
                game.close()
                raise
        return game

    @classmethod
    def quarantined(cls, table_id: str, created: JournalRecord, journal: Journal,
                    folder: Path, clock: Clock, problem: str) -> TableGame:
        """A table whose logs cannot be read, shown read-only from its ``created`` record.

        :raises KeyError, TypeError, ValueError: if *created* is not a readable ``created``.
        """
        if created.kind != "created":
            raise ValueError(f"table {table_id}: the first record is not 'created'")
        game = cls(table_id, TableSettings.from_dict(created.body["settings"]), journal,
                   folder, clock)
        game._on_created(created.body)  # its host can still open it and read why
        game.created_at = created.at
        game.problem = problem
        return game

    def _reconcile(self) -> None:
        """Finish what a crash interrupted between the journal and the series log."""
        store = self._store()
        if self.stop_logged and not store.series.stop_requested:
            store.request_stop()
        if self._last_timeout is not None and store.series.in_hand:
            seat, hand_no, turn = self._last_timeout
            hand = store.series.hand
            if (hand is not None and store.series.hand_number == hand_no
                    and turn_index(hand) == turn and store.series.to_act == seat):
                self._auto_act(seat)

    def _resume_log(self) -> None:
        series = self._store().series
        if series.hand is not None and series.seating is not None:
            self._hand_log = HandLog(series.seating.order, series.hand.events)

    def close(self) -> None:
        """Close the series log (the journal belongs to the manager)."""
        if self.store is not None:
            self.store.close()

    def probe(self) -> None:
        """Check that both logs can be written now (nothing is written).

        :raises StoreUnavailableError: while a file is locked by another program.
        :raises StoreError: if a file vanished.
        """
        self.journal.probe(self.table_id)
        if self.store is not None:
            self.store.probe()

    # --- the journal --------------------------------------------------------------------------

    def _log(self, kind: str, body: Mapping[str, Any]) -> None:
        at = self.clock.wall().isoformat()
        self.journal.append(self.table_id, kind, body, at)
        if kind == "created":
            self.created_at = at
        self._apply(kind, body)

    def _apply(self, kind: str, body: Mapping[str, Any]) -> None:
        """Apply one journal record (live, or replaying after a restart)."""
        handler = _RECORD_HANDLERS.get(kind)
        if handler is None:
            raise ValueError(f"unknown server record kind {kind!r}")
        handler(self, body)

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
        seat.token_hash = None
        self._reindex()

    def _on_host_passed(self, body: Mapping[str, Any]) -> None:
        self.host_hash, self.host_seat = None, body["seat"]
        self._reindex()

    def _on_started(self, body: Mapping[str, Any]) -> None:
        self.series_file = body["series"]
        fair = body.get("fair")
        if isinstance(fair, Mapping) and self.fairplay is None:
            self.fairplay = FairPlay(self.table_id,
                                     "hand" if fair.get("reveal") == "hand" else "series")

    def _on_contributed(self, body: Mapping[str, Any]) -> None:
        if self.fairplay is None:
            raise ValueError("a contribution to a table without the fair dealer")
        self.fairplay.record(body)

    def _on_paused(self, body: Mapping[str, Any]) -> None:
        self.paused = True

    def _on_resumed(self, body: Mapping[str, Any]) -> None:
        self.paused = False

    def _on_stop(self, body: Mapping[str, Any]) -> None:
        self.stop_logged = True

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
        self._last_timeout = (body["seat"], body["hand"], body["turn"])

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

    # --- reading ------------------------------------------------------------------------------

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

    @property
    def started(self) -> bool:
        """Whether the series has started."""
        return self.series_file is not None

    @property
    def is_over(self) -> bool:
        """Whether the series has ended."""
        return self.store is not None and self.store.series.is_over

    @property
    def status(self) -> TableStatus:
        """``lobby``, ``playing``, ``paused`` (between hands), ``over`` or ``broken``."""
        if self.problem is not None:
            return "broken"
        if self.stalled:
            return "stalled"
        if not self.started:
            return "lobby"
        if self.is_over:
            return "over"
        if self.paused and not self.in_hand:
            return "paused"
        return "playing"

    @property
    def in_hand(self) -> bool:
        """Whether a hand is being played."""
        return self.store is not None and self.store.series.in_hand

    def is_last_hand(self, wall_now: datetime) -> bool:
        """Whether the hand in progress is the series' last by its stop conditions."""
        return (self.store is not None and self.store.series.in_hand
                and self.store.series.should_stop(wall_now))

    def bank_ms(self, seat: int) -> int:
        """*seat*'s time bank now (refilled at every new hand up to the maximum)."""
        state = self.seats[seat]
        hand_no = self.store.series.hand_number if self.store is not None else 0
        refills = max(0, hand_no - state.bank_hand)
        settings = self.settings
        return min(max(state.bank_ms, settings.bank_max_seconds * 1000),
                   state.bank_ms + refills * settings.bank_refill_seconds * 1000)

    def deadlines(self) -> tuple[float, float] | None:
        """``(end of the action time, final deadline)`` of the turn in progress (monotonic
        seconds), or ``None`` when it has no timer (untimed table, bot, away seat)."""
        action_seconds = self.settings.action_seconds
        if action_seconds is None or self.turn_key is None or self.store is None:
            return None
        seat_no = self.store.series.to_act
        if seat_no is None:
            return None
        seat = self.seats[seat_no]
        if seat.bot is not None or seat.away:
            return None
        action_ends = self.turn_started + action_seconds
        ends = action_ends + self.bank_ms(seat_no) / 1000
        if self.turn_grace:
            ends += self.settings.disconnect_grace_seconds
        return action_ends, ends

    def free_seats(self) -> list[int]:
        """Unoccupied seat numbers."""
        return [s for s in range(1, self.settings.seats + 1) if s not in self.seats]

    def pending_requests(self) -> list[SeatRequest]:
        """Requests waiting for the host, oldest first."""
        return [r for r in self.requests.values() if r.status == "pending"]

    def snapshot(self, mono_now: float | None = None,
                 wall_now: datetime | None = None) -> TableSnapshot:
        """What the views need now, read-only (times default to the table's clock)."""
        mono = self.clock.monotonic() if mono_now is None else mono_now
        wall = self.clock.wall() if wall_now is None else wall_now
        series = self.store.series if self.store is not None else None
        return TableSnapshot(
            table_id=self.table_id, settings=self.settings, status=self.status,
            seats=dict(self.seats), host_seat=self.host_seat, connected=dict(self.connected),
            requests=dict(self.requests), paused=self.paused, in_hand=self.in_hand,
            stop_logged=self.stop_logged, problem=self.problem, next_deal_at=self.next_deal_at,
            turn_key=self.turn_key, banks={seat: self.bank_ms(seat) for seat in self.seats},
            clock=self._turn_clock(), series=self._series_snapshot(wall),
            hand=self._hand_snapshot(), mono_now=mono, wall_now=wall,
            _hand=series.hand if series is not None else None, fair=self._fair_public(),
            _fair=self.fairplay)

    def _series_snapshot(self, wall: datetime) -> SeriesSnapshot | None:
        if self.store is None:
            return None
        series = self.store.series
        standings = series.standings()
        return SeriesSnapshot(
            in_hand=series.in_hand, hand_number=series.hand_number, to_act=series.to_act,
            stacks=dict(series.stacks), standings=standings,
            places={row.seat: row for row in standings}, outcome=series.outcome,
            players=series.config.players, starting_stack=series.config.starting_stack,
            summaries=tuple(series.summaries), stop_requested=series.stop_requested,
            should_stop=series.in_hand and (self.stop_logged or series.stop_requested
                                            or series.should_stop(wall)))

    def _hand_snapshot(self) -> HandSnapshot | None:
        series = self.store.series if self.store is not None else None
        if series is None or series.hand is None or series.seating is None:
            return None
        log = self._hand_log
        if log is None or log.order != series.seating.order:  # pragma: no cover - kept in step
            log = self._hand_log = HandLog(series.seating.order, series.hand.events)
        turn = self.turn_key[1] if self.turn_key is not None else turn_index(series.hand)
        return HandSnapshot(number=series.hand_number, public=series.hand.public_view(),
                            seating=series.seating, log=tuple(log.entries),
                            last_actions=dict(log.last_actions), shows=tuple(log.shows),
                            turn=turn)

    def _turn_clock(self) -> TurnClock | None:
        limits = self.deadlines()
        if limits is None or self.turn_key is None or self.store is None:
            return None
        seat = self.store.series.to_act
        assert seat is not None
        return TurnClock(seat=seat, hand=self.turn_key[0], turn=self.turn_key[1],
                         started=self.turn_started, action_ends=limits[0], ends=limits[1],
                         bank_ms=self.bank_ms(seat), grace=self.turn_grace)

    # --- the verifiable shuffle (feltro.server.fairplay) ------------------------------------

    def _fair_decks(self) -> Callable[[int], Callable[[int], Any]] | None:
        return self.fairplay.deck_source if self.fairplay is not None else None

    def _fair_public(self) -> dict[str, Any] | None:
        if self.fairplay is None or self.store is None:
            return None
        series = self.store.series
        players = len(series.seating.order) if series.seating is not None else 0
        return self.fairplay.public(series.hand, series.hand_number, in_hand=series.in_hand,
                                    over=series.is_over, players=players)

    def contribute(self, seat: int, hand: int, value: bytes | None, seal: bytes | None) -> None:
        """*seat*'s device adds randomness (or its seal) to hand *hand*; kept until the deal,
        which journals the hand's contributions before it uses them (:meth:`_journal_fair`).

        :raises ProtocolError: ``not_now`` (no series, hand dealt or not committed yet),
            ``wrong_seat`` (a seat out of the series), ``invalid`` (see
            :meth:`FairPlay.check <feltro.server.fairplay.FairPlay.check>`).
        """
        self._require_play()
        store = self._store()
        if self.fairplay is None:
            raise ProtocolError(ErrorCode.NOT_NOW, "this table's series deals without "
                                "contributions (it started before the fair dealer)")
        if seat not in store.series.alive:
            raise ProtocolError(ErrorCode.WRONG_SEAT, f"seat {seat} is out of the series")
        self.fairplay.check(hand, seat, store.series.hand_number + 1, value=value, seal=seal)
        self.fairplay.take(hand, seat, value=value, seal=seal)

    def _journal_fair(self) -> None:
        """Journal the next hand's contributions before the deal uses them."""
        if self.fairplay is not None and self.store is not None:
            body = self.fairplay.to_journal(self.store.series.hand_number + 1)
            if body is not None:
                self._log("contributed", body)

    # --- lobby --------------------------------------------------------------------------------

    def join(self, name: str, seat: int | None, *, by_host: bool) -> tuple[SeatRequest, str]:
        """Ask for a seat; returns the request and its token (the host's own is seated at once).

        :raises ProtocolError: ``not_now`` after the start, ``wrong_seat``, ``seat_taken``,
            ``table_full``, ``too_many_requests``.
        """
        self._require_lobby()
        if seat is not None:
            self._check_seat_number(seat)
            if seat in self.seats:
                raise ProtocolError(ErrorCode.SEAT_TAKEN, f"seat {seat} is taken")
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
        token = new_token()
        request_id = new_id(6)
        self._log("requested", {"request_id": request_id, "name": name.strip(),
                                "token_hash": hash_token(token), "seat": seat})
        if by_host:
            self.accept(request_id, seat)
        return self.requests[request_id], token

    def accept(self, request_id: str, seat: int | None) -> None:
        """Seat a pending request.

        :raises ProtocolError: ``not_now``, ``no_such_request``, ``wrong_seat``, ``seat_taken``,
            ``table_full``.
        """
        self._require_lobby()
        request = self._pending(request_id)
        chosen = seat if seat is not None else request.seat
        if chosen is None:
            free = self.free_seats()
            if not free:
                raise ProtocolError(ErrorCode.TABLE_FULL, "every seat is taken")
            chosen = free[0]
        self._check_seat_number(chosen)
        if chosen in self.seats:
            raise ProtocolError(ErrorCode.SEAT_TAKEN, f"seat {chosen} is taken")
        self._log("granted", {"request_id": request_id, "seat": chosen})

    def refuse(self, request_id: str) -> None:
        """Refuse a pending request.

        :raises ProtocolError: ``no_such_request``.
        """
        self._pending(request_id)
        self._log("refused", {"request_id": request_id})

    def add_bot(self, kind: str, seat: int | None, name: str | None) -> int:
        """Seat a bot before the start; returns its seat.

        :raises ProtocolError: ``not_now``, ``bad_bot``, ``wrong_seat``, ``seat_taken``,
            ``table_full``.
        """
        self._require_lobby()
        if kind not in BOT_KINDS:
            raise ProtocolError(ErrorCode.BAD_BOT, f"unknown bot {kind!r}: choose one of "
                                f"{', '.join(BOT_KINDS)}")
        if seat is None:
            free = self.free_seats()
            if not free:
                raise ProtocolError(ErrorCode.TABLE_FULL, "every seat is taken")
            seat = free[0]
        self._check_seat_number(seat)
        if seat in self.seats:
            raise ProtocolError(ErrorCode.SEAT_TAKEN, f"seat {seat} is taken")
        label = (name or f"{kind.capitalize()} {seat}").strip()
        self._log("bot_added", {"seat": seat, "kind": kind, "name": label})
        return seat

    def remove(self, seat: int, *, bot: bool) -> None:
        """Remove a bot (*bot*) or a player. Before the start the seat is freed; later the seat
        is away for good (blinds posted, checks or folds) and a player's token is revoked.

        :raises ProtocolError: ``wrong_seat`` (empty seat, not that kind, the host's own seat,
            already removed), ``not_now`` once the series is over.
        """
        state = self._occupied(seat)
        if (state.bot is not None) != bot:
            raise ProtocolError(ErrorCode.WRONG_SEAT, f"seat {seat} is "
                                f"{'a player' if bot else 'a bot'}: use "
                                f"{'remove_player' if bot else 'remove_bot'}")
        if seat == self.host_seat:
            raise ProtocolError(ErrorCode.WRONG_SEAT, "that is the host's seat: pass the host "
                                "role first")
        if not self.started:
            self._log("freed", {"seat": seat})
            return
        self._require_play()
        if state.removed:
            raise ProtocolError(ErrorCode.WRONG_SEAT, f"seat {seat} is already removed")
        self._log("removed", {"seat": seat})

    def pass_host(self, seat: int) -> None:
        """Give the host role to the player in *seat*.

        :raises ProtocolError: ``wrong_seat`` for an empty seat, a bot or a removed player.
        """
        state = self._occupied(seat)
        if state.bot is not None or state.token_hash is None:
            raise ProtocolError(ErrorCode.WRONG_SEAT, f"seat {seat} cannot be the host")
        self._log("host_passed", {"seat": seat})

    def start(self, now: float) -> None:
        """Start the series with the seated players (their seats are fixed from now on).

        :raises ProtocolError: ``not_now`` after the start or with fewer than two seats taken.
        """
        self._require_lobby()
        if len(self.seats) < 2:
            raise ProtocolError(ErrorCode.NOT_NOW, "a series needs at least two players")
        settings = self.settings
        options: dict[str, Any] = {
            "players": {seat: state.name for seat, state in sorted(self.seats.items())},
            "seat_count": settings.seats,
            "starting_stack": settings.stack,
            "small_blind": settings.small_blind,
            "big_blind": settings.big_blind,
            "ante": settings.ante,
            "stop_at": settings.stop_at,
            "max_hands": settings.max_hands,
        }
        if series_has("structure"):
            options["structure"] = settings.structure
        try:
            config = SeriesConfig(**options)
        except ConfigError as exc:
            raise ProtocolError(ErrorCode.INVALID, str(exc)) from None
        # The series log is created first and only then journaled: a crash in between leaves
        # an unused file and a table still in its lobby, never a table without its series.
        name = f"{self.table_id}.{new_id(4)}.series.sqlite"
        reveal: Reveal = "hand" if self.settings.reveal == "hand" else "series"
        self.fairplay = FairPlay(self.table_id, reveal)
        store = SeriesStore.create(self.folder / name, config, seal=self.seal,
                                   deck_source=self.fairplay.deck_source)
        try:
            self._log("started", {"series": name, "fair": {"reveal": reveal}})
        except StoreError:
            store.close()
            self.fairplay = None
            raise
        self.store = store
        for request in self.pending_requests():  # seats are fixed from now on
            self._log("refused", {"request_id": request.request_id})
        self._make_bots()
        # The first hand waits a moment (at most the pause between hands) for the phones'
        # randomness: its commitment is public now, their contributions follow at once.
        self.next_deal_at = now + min(FIRST_DEAL_WAIT, self.settings.between_hands_seconds)

    def _make_bots(self) -> None:
        seed = random.SystemRandom()
        self._bots = {seat: make_bot(state.bot, random.Random(seed.getrandbits(64)))
                      for seat, state in self.seats.items() if state.bot is not None}

    # --- host controls during play ------------------------------------------------------------

    def pause(self) -> None:
        """Pause before the next hand. :raises ProtocolError: ``not_now``."""
        self._require_play()
        if not self.paused:
            self._log("paused", {})

    def resume(self, now: float) -> None:
        """Resume after a pause. :raises ProtocolError: ``not_now``."""
        self._require_play()
        if self.paused:
            self._log("resumed", {})
            if not self.in_hand:
                self.next_deal_at = now

    def end(self, now: float) -> None:
        """End the series after the hand in progress (G6). :raises ProtocolError: ``not_now``."""
        self._require_play()
        if not self.stop_logged:
            self._log("stop", {})
        self._store().request_stop()
        if not self.in_hand:
            self.next_deal_at = now

    def mark_away(self, seat: int, reason: str) -> None:
        """Mark *seat* away (``reason``: ``"host"`` or ``"stepped_away"``).

        :raises ProtocolError: ``not_now`` before the start, ``wrong_seat`` for an empty seat,
            a bot or a removed player.
        """
        self._require_play()
        state = self._occupied(seat)
        if state.bot is not None or state.removed:
            raise ProtocolError(ErrorCode.WRONG_SEAT, f"seat {seat} cannot be marked away")
        if not state.away:
            self._log("away", {"seat": seat, "reason": reason})

    def come_back(self, seat: int) -> None:
        """*seat* is back: it plays its own decisions again.

        :raises ProtocolError: ``not_now`` before the start, ``wrong_seat`` if removed.
        """
        self._require_play()
        state = self._occupied(seat)
        if state.removed:
            raise ProtocolError(ErrorCode.WRONG_SEAT, f"seat {seat} was removed by the host")
        if state.away or state.timeouts:
            self._log("back", {"seat": seat})

    # --- playing ------------------------------------------------------------------------------

    def act(self, seat: int, action_id: str, hand_no: int, turn: int, action: Action,
            now: float) -> bool:
        """Play *action* for *seat*; returns ``False`` if *action_id* was already applied.

        :raises ProtocolError: ``not_now``, ``no_hand``, ``not_your_turn``, ``stale``,
            ``illegal_check``, ``raise_closed``, ``illegal_amount``, ``illegal_action``.
        """
        recent = self._recent.setdefault(seat, OrderedDict())
        if action_id in recent:
            if recent[action_id] == (hand_no, turn):
                return False  # the same decision sent again (a retry after a reconnect)
            used_hand, used_turn = recent[action_id]
            raise ProtocolError(ErrorCode.INVALID, f"action id {action_id!r} was already used "
                                f"for hand {used_hand} turn {used_turn}; send each decision "
                                "with a new id")
        self._require_play()
        store = self._store()
        series = store.series
        hand = series.hand
        if not series.in_hand or hand is None:
            raise ProtocolError(ErrorCode.NO_HAND, "no hand is being played")
        to_act = series.to_act
        if seat != to_act:
            wait = Refusal("B2", "not-your-turn", {"seat": seat, "to_act_seat": to_act or 0})
            raise ProtocolError(ErrorCode.NOT_YOUR_TURN, refusal_words(wait), refusal=wait)
        if (hand_no, turn) != self.turn_key:
            now_hand, now_turn = self.turn_key or (0, 0)
            raise ProtocolError(ErrorCode.STALE, f"that decision was for hand {hand_no} turn "
                                f"{turn}; the turn now is hand {now_hand} turn {now_turn}")
        order = series.seating.order if series.seating is not None else ()
        precheck(action, hand.legal, order)
        try:
            self._play(action, seat)
        except IllegalActionError as exc:
            refusal = seat_refusal(exc.refusal, order)
            raise ProtocolError(error_code(refusal), refusal_words(refusal),
                                refusal=refusal) from None
        recent[action_id] = (hand_no, turn)
        if len(recent) > _RECENT_IDS:
            recent.popitem(last=False)
        self._note_own_decision(seat, hand_no, now)
        self._after_series_change(now)
        return True

    def _note_own_decision(self, seat: int, hand_no: int, now: float) -> None:
        """Journal what a player's own decision changed: bank time spent (the timer runs the
        action time, then the bank, then any disconnect grace, which is free), the timeouts
        count reset, and the return of an away player."""
        state = self.seats[seat]
        bank = self.bank_ms(seat)
        used = 0
        if self.settings.action_seconds is not None:
            over_ms = int((now - self.turn_started - self.settings.action_seconds) * 1000)
            used = max(0, min(bank, over_ms))
        if state.away:
            self._log("back", {"seat": seat})
        if used or state.timeouts:
            self._log("timing", {"seat": seat, "hand": hand_no, "bank_ms": bank - used,
                                 "timeouts": 0})

    def tick_due(self, now: float) -> bool:
        """Whether :meth:`tick` at *now* would do something (read-only and cheap: the room
        runs :meth:`tick`, which may write, in a worker thread only then)."""
        if (self.problem is not None or self.stalled or self.store is None
                or self.store.series.is_over):
            return False
        series = self.store.series
        if not series.in_hand:
            return (not self.paused and self.next_deal_at is not None
                    and now >= self.next_deal_at)
        seat_no = series.to_act
        if seat_no is None:  # pragma: no cover - a dealt hand always has someone to act
            return False
        seat = self.seats[seat_no]
        if seat.away:
            return now >= self.turn_started + self.settings.bot_seconds
        if seat.bot is not None:
            return False
        if self.connected[seat_no] == 0 and not self.turn_grace:
            return True
        limits = self.deadlines()
        return limits is not None and now >= limits[1]

    def tick(self, now: float) -> bool:
        """Do what is due at *now*: deal, auto-play away seats, time out. Returns whether the
        table changed (then its views must be sent)."""
        if (self.problem is not None or self.stalled or self.store is None
                or self.store.series.is_over):
            return False
        series = self.store.series
        if not series.in_hand:
            if self.paused or self.next_deal_at is None or now < self.next_deal_at:
                return False
            self.next_deal_at = None
            self._deal()
            self._after_series_change(now)
            return True
        seat_no = series.to_act
        if seat_no is None:  # pragma: no cover - a dealt hand always has someone to act
            return False
        seat = self.seats[seat_no]
        if seat.away:
            if now >= self.turn_started + self.settings.bot_seconds:
                self._auto_act(seat_no)
                self._after_series_change(now)
                return True
            return False
        if seat.bot is not None:
            return False
        if self.connected[seat_no] == 0 and not self.turn_grace:
            self.turn_grace = True
        limits = self.deadlines()
        if limits is None or now < limits[1]:
            return False
        assert self.turn_key is not None
        count = seat.timeouts + 1
        self._log("timeout", {"seat": seat_no, "hand": self.turn_key[0],
                              "turn": self.turn_key[1],
                              "away": count >= TIMEOUTS_TO_AWAY and not seat.away})
        self._auto_act(seat_no)
        self._after_series_change(now)
        return True

    def bot_turn(self, now: float) -> BotTurn | None:
        """The bot decision due now, if any (each turn is handed out once)."""
        if (self.problem is not None or self.stalled or not self.in_hand
                or self.turn_key is None):
            return None
        store = self._store()
        seat_no = store.series.to_act
        if seat_no is None:
            return None
        state = self.seats[seat_no]
        if state.bot is None or state.away or self._bot_pending == self.turn_key:
            return None
        if now < self.turn_started + self.settings.bot_seconds:
            return None
        hand = store.series.hand
        seating = store.series.seating
        assert hand is not None
        assert seating is not None
        self._bot_pending = self.turn_key
        return BotTurn(seat_no, self.turn_key, self._bots[seat_no],
                       hand.view(seating.position_of(seat_no)), hand.legal)

    def bot_act(self, turn: BotTurn, action: Action | None, now: float) -> bool:
        """Apply a bot's decision if its turn is still the current one (an illegal or missing
        answer becomes check, else fold). Returns whether the table changed."""
        if self._bot_pending == turn.key:
            self._bot_pending = None
        if (self.problem is not None or self.stalled or self.turn_key != turn.key
                or not self.in_hand):
            return False
        store = self._store()
        if store.series.to_act != turn.seat:  # pragma: no cover - same key, same actor
            return False
        if action is None or action not in turn.legal:
            action = CHECK if turn.legal.can_check else FOLD
        self._play(action, turn.seat)
        self._after_series_change(now)
        return True

    def _auto_act(self, seat: int) -> None:
        """Check if free, else fold: for timeouts and away seats."""
        store = self._store()
        hand = store.series.hand
        assert hand is not None
        self._play(CHECK if hand.legal.can_check else FOLD, seat)

    def _deal(self) -> None:
        """Deal the next hand and start its public log from the deal's events."""
        store = self._store()
        self._journal_fair()
        hand = store.next_hand(self.clock.wall())
        seating = store.series.seating
        if hand is not None and seating is not None:
            self._hand_log = HandLog(seating.order, hand.events)

    def _play(self, action: Action, seat: int) -> tuple[Event, ...]:
        """Play *action* for *seat* through the series log; the events it returns go on the
        public log."""
        events = self._store().act(action, seat)
        if self._hand_log is not None:
            self._hand_log.extend(events)
        return events

    def _after_series_change(self, now: float, *, fresh_deal_delay: bool = False) -> None:
        store = self._store()
        series = store.series
        if series.is_over:
            self.turn_key = None
            self.next_deal_at = None
            return
        hand = series.hand
        if series.in_hand and hand is not None:
            key = (series.hand_number, turn_index(hand))
            if key != self.turn_key:
                self.turn_key = key
                self.turn_started = now
                to_act = series.to_act
                self.turn_grace = to_act is not None and self.connected[to_act] == 0
            return
        self.turn_key = None
        if self.next_deal_at is None or fresh_deal_delay:
            delay = self.settings.between_hands_seconds if series.hand_number else 0.0
            self.next_deal_at = now + delay

    # --- helpers ------------------------------------------------------------------------------

    def note_connections(self, seat: int, count: int) -> None:
        """The room tells how many connections *seat* has; a drop during its turn earns the
        disconnect grace once."""
        self.connected[seat] = count
        if count == 0 and self.in_hand and self._store().series.to_act == seat:
            self.turn_grace = True

    def _store(self) -> SeriesStore:
        if self.store is None:
            raise ProtocolError(ErrorCode.NOT_NOW, "the series has not started")
        return self.store

    def _require_lobby(self) -> None:
        self._require_intact()
        if self.started:
            raise ProtocolError(ErrorCode.NOT_NOW, "the series has started")

    def _require_play(self) -> None:
        self._require_intact()
        if not self.started:
            raise ProtocolError(ErrorCode.NOT_NOW, "the series has not started")
        if self.is_over:
            raise ProtocolError(ErrorCode.NOT_NOW, "the series is over")

    def _require_intact(self) -> None:
        if self.problem is not None:
            raise ProtocolError(ErrorCode.BROKEN_TABLE, problem_text(self.problem))
        if self.stalled:
            raise ProtocolError(ErrorCode.STALLED, problem_text("stalled"))

    def _check_seat_number(self, seat: int) -> None:
        if not 1 <= seat <= self.settings.seats:
            raise ProtocolError(ErrorCode.WRONG_SEAT, f"this table has seats 1 to "
                                f"{self.settings.seats}")

    def _occupied(self, seat: int) -> SeatState:
        self._require_intact()
        self._check_seat_number(seat)
        state = self.seats.get(seat)
        if state is None:
            raise ProtocolError(ErrorCode.WRONG_SEAT, f"seat {seat} is empty")
        return state

    def _pending(self, request_id: str) -> SeatRequest:
        self._require_intact()
        request = self.requests.get(request_id)
        if request is None or request.status != "pending":
            raise ProtocolError(ErrorCode.NO_SUCH_REQUEST, "no such pending request")
        return request


_RECORD_HANDLERS: Final[dict[str, Callable[[TableGame, Mapping[str, Any]], None]]] = {
    "created": TableGame._on_created,
    "requested": TableGame._on_requested,
    "granted": TableGame._on_granted,
    "refused": TableGame._on_refused,
    "bot_added": TableGame._on_bot_added,
    "freed": TableGame._on_freed,
    "removed": TableGame._on_removed,
    "host_passed": TableGame._on_host_passed,
    "started": TableGame._on_started,
    "paused": TableGame._on_paused,
    "resumed": TableGame._on_resumed,
    "stop": TableGame._on_stop,
    "away": TableGame._on_away,
    "back": TableGame._on_back,
    "timeout": TableGame._on_timeout,
    "timing": TableGame._on_timing,
    "contributed": TableGame._on_contributed,
}
"""Journal record kind -> how it changes the table (:meth:`TableGame._apply`)."""
