"""One table being played at the server, synchronously: a seated series with a lobby, a host,
a clock and a journal around it.

:class:`LiveTable` adapts the seated series (:class:`feltro.session.Session`: seats, bots,
check-else-fold, the series and its log) to a server table. Around it: its people
(:class:`~feltro.server.lobby.Lobby`), its clock (:class:`~feltro.server.turn_clock.TurnClock`:
what is due now), the verifiable shuffle (:class:`~feltro.server.fairplay.FairPlay`) and the
table's journal. No asyncio, no sockets: time is passed in. Every method either refuses with a
:class:`~feltro.server.protocol.ProtocolError` and changes nothing, or changes the table and has
committed the change to disk before it returns: the cards and chips through
:class:`feltro.series_log.SeriesStore` (the series log), everything else as a journal record
(:class:`~feltro.server.journal.Journal`). :mod:`feltro.server.room` holds one lock around each
call and sends the new views only after it returns.

State is event-sourced: a change is a journal record applied by :meth:`LiveTable.apply`, the
same function that rebuilds a table after a restart (:mod:`feltro.server.restore`). Where one
step writes both logs, the order is chosen so that a crash between the two writes is harmless:

* a timeout is journaled first (``timeout``), then its check or fold is played; on restart a
  timeout whose action is missing is played again;
* a manual action is played first, then its time-bank use is journaled (``timing``); a crash in
  between gives the player their bank time back, never takes time away;
* the host's "end" is journaled, then passed to the series; restart passes it again if needed.

Whose turn it is and what is legal are the engine's to judge: :meth:`LiveTable.act` hands the
action to the seated series and passes the engine's refusal through
(:func:`~feltro.server.refusals.refusal_error`).
"""

from __future__ import annotations

import logging
import random
from collections import Counter
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path
from typing import Any, Final

from feltro.actions import FOLD, Action
from feltro.bots import make_bot
from feltro.errors import IllegalActionError, StoreError
from feltro.events import Event
from feltro.seal import SeedSeal
from feltro.series_log import SeriesStore
from feltro.server import entries
from feltro.server.archive import UNKNOWN_CREATOR
from feltro.server.clock import Clock
from feltro.server.fairplay import FIRST_DEAL_WAIT, FairPlay, Reveal
from feltro.server.hand_log import HandLog
from feltro.server.journal import Journal
from feltro.server.lobby import Lobby, SeatRequest, SeatState
from feltro.server.outgoing import TableStatus
from feltro.server.problems import problem_text
from feltro.server.protocol import ErrorCode, ProtocolError
from feltro.server.refusals import refusal_error
from feltro.server.security import hash_token, new_id, new_token
from feltro.server.snapshot import FinishedHand, TableSnapshot
from feltro.server.snapshot_of import table_snapshot
from feltro.server.table_records import apply_record
from feltro.server.table_settings import TableSettings
from feltro.server.turn_clock import Due, TurnClock
from feltro.session import BotAnswer, BotTurn, Player, Session

__all__ = ["TIMEOUTS_TO_AWAY", "LiveTable"]

log = logging.getLogger("feltro.server")

TIMEOUTS_TO_AWAY: Final = 3
"""Timeouts in a row after which a player is marked away."""


class LiveTable:
    """One table (see the module docstring). Build it with :meth:`create`, or rebuild it from
    its journal with :func:`feltro.server.restore.restore`."""

    def __init__(self, table_id: str, settings: TableSettings, journal: Journal,
                 folder: Path, clock: Clock) -> None:
        self.table_id = table_id
        self.settings = settings
        self.journal = journal
        self.folder = folder
        self.clock = clock
        self.lobby = Lobby(settings, self.log)
        self.timer = TurnClock(settings)
        self.series_file: str | None = None
        self.store: SeriesStore | None = None
        self.seated: Session | None = None
        """The seated series, once started (its driver is :attr:`store`)."""
        self.paused = False
        self.stop_logged = False
        self.problem: str | None = None
        """Why the table could not be resumed (it is then read-only): ``"damaged"`` or
        ``"missing"`` (see :data:`feltro.server.problems.PROBLEMS`)."""
        self.stalled = False
        """Its logs cannot be written now (locked by another program, disk full): it refuses
        every change and the room retries until they can (then it resumes by itself)."""
        self.created_at = ""
        self.creator = UNKNOWN_CREATOR
        """The address that created it (journaled: it counts against that address's budget)."""
        self.last_timeout: tuple[int, int, int] | None = None
        """The last ``timeout`` record: ``(seat, hand, turn)`` (a restart plays it if its
        check or fold is missing)."""
        self.connected: Counter[int] = Counter()
        """Seat -> its open connections (told by the room; not journaled)."""
        self.hand_log: HandLog | None = None
        self.finished_hands: list[FinishedHand] = []
        """The chips of the hands played, as snapshots show them (added to as hands end)."""
        self.seal: SeedSeal | None = None
        """The key its series log's seed is sealed with; ``None``: in clear (tests)."""
        self.fairplay: FairPlay | None = None
        """The verifiable shuffle; ``None`` for a series started before the server had one
        (it keeps its seeded shuffle)."""
        self._bot_asked: tuple[int, int] | None = None

    @classmethod
    def create(cls, settings: TableSettings, journal: Journal, folder: Path,
               clock: Clock, *, seal: SeedSeal | None = None,
               creator: str = UNKNOWN_CREATOR) -> tuple[LiveTable, str]:
        """A new table in the lobby; returns it and the host token (shown once, never stored).

        *seal*: the key its series log's seed is sealed with (:mod:`feltro.seal`); *creator*:
        the address that asked for it.
        """
        table = cls(new_id(6), settings, journal, folder, clock)
        table.seal = seal
        token = new_token()
        table.log("created", {"settings": settings.to_dict(), "host_hash": hash_token(token),
                              "creator": creator})
        return table, token

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

    def log(self, kind: str, body: Mapping[str, Any]) -> None:
        """Journal a record (committed before it returns), then apply it."""
        at = self.clock.wall().isoformat()
        self.journal.append(self.table_id, kind, body, at)
        if kind == "created":
            self.created_at = at
        self.apply(kind, body)

    def apply(self, kind: str, body: Mapping[str, Any]) -> None:
        """Apply one journal record (live as it is written, or replaying after a restart):
        :func:`feltro.server.table_records.apply_record`. :raises ValueError: for a kind no
        server wrote."""
        apply_record(self, kind, body)

    # --- reading ------------------------------------------------------------------------------

    @property
    def seats(self) -> dict[int, SeatState]:
        """Seat -> its state (:attr:`Lobby.seats <feltro.server.lobby.Lobby.seats>`)."""
        return self.lobby.seats

    @property
    def turn_key(self) -> tuple[int, int] | None:
        """The turn in progress: ``(hand number, decisions taken so far)``."""
        return self.timer.turn_key

    @property
    def started(self) -> bool:
        """Whether the series has started."""
        return self.series_file is not None

    @property
    def is_over(self) -> bool:
        """Whether the series has ended."""
        return self.store is not None and self.store.series.is_over

    @property
    def in_hand(self) -> bool:
        """Whether a hand is being played."""
        return self.store is not None and self.store.series.in_hand

    @property
    def status(self) -> TableStatus:
        """``lobby``, ``playing``, ``paused`` (between hands), ``over``, ``stalled`` or
        ``broken``."""
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

    def is_last_hand(self, wall_now: datetime) -> bool:
        """Whether the hand in progress is the series' last by its stop conditions."""
        return (self.store is not None and self.store.series.in_hand
                and self.store.series.should_stop(wall_now))

    def bank_ms(self, seat: int) -> int:
        """*seat*'s time bank now (refilled at every new hand up to the maximum)."""
        hand_no = self.store.series.hand_number if self.store is not None else 0
        return self.timer.bank_ms(self.lobby.seats[seat], hand_no)

    def deadlines(self) -> tuple[float, float] | None:
        """``(end of the action time, final deadline)`` of the turn in progress (monotonic
        seconds), or ``None`` when it has no timer (untimed table, bot, away seat)."""
        seat = self.store.series.to_act if self.store is not None else None
        if seat is None:
            return None
        return self.timer.deadlines(self.lobby.seats[seat], self.bank_ms(seat))

    def snapshot(self, mono_now: float | None = None,
                 wall_now: datetime | None = None) -> TableSnapshot:
        """What the views need now, as plain data (times default to the table's clock)."""
        mono = self.clock.monotonic() if mono_now is None else mono_now
        wall = self.clock.wall() if wall_now is None else wall_now
        return table_snapshot(self, mono, wall)

    # --- what is due, and doing it -------------------------------------------------------------

    def due(self, now: float) -> Due | None:
        """What is due at *now* (:meth:`TurnClock.due <feltro.server.turn_clock.TurnClock.due>`;
        read-only and cheap: the room runs :meth:`run_due`, which may write, only then)."""
        seated = self.seated
        if (self.problem is not None or self.stalled or seated is None
                or seated.series.is_over):
            return None
        seat = seated.series.to_act
        if seat is not None and not self.paused and seat in self.dead_seats():
            return "forfeit"
        state = self.lobby.seats[seat] if seat is not None else None
        bank = self.bank_ms(seat) if seat is not None else 0
        return self.timer.due(now, to_act=state, bank_ms=bank, paused=self.paused,
                              bot_asked=self._bot_asked is not None
                              and self._bot_asked == self.timer.turn_key)

    def dead_seats(self) -> frozenset[int]:
        """The seats whose hand in progress is dead: they sealed a value for it and withheld
        it (:meth:`FairPlay.withheld <feltro.server.fairplay.FairPlay.withheld>`)."""
        seated = self.seated
        if self.fairplay is None or seated is None or not seated.series.in_hand:
            return frozenset()
        return self.fairplay.withheld(seated.series.hand_number)

    def run_due(self, now: float) -> bool:
        """Do what is due at *now* but a bot's decision (:meth:`bot_turn`): deal, play an away
        seat's check or fold, time out, fold a dead hand. Returns whether the table changed."""
        due = self.due(now)
        if due is None or due == "bot":
            return False
        seated = self._seated()
        if due == "deal":
            fair, series = self.fairplay, seated.series
            step = "deal" if fair is None else fair.before_deal(series.hand_number + 1, now,
                                                                series.alive)
            if step != "deal":  # the seals close first, then the sealed values come in
                return step == "close"
            self.timer.next_deal_at = None
            self._deal()
        else:
            seat = seated.series.to_act
            assert seat is not None
            assert self.timer.turn_key is not None
            if due == "timeout":
                hand_no, turn = self.timer.turn_key
                away = self.lobby.seats[seat].timeouts + 1 >= TIMEOUTS_TO_AWAY
                self.log("timeout", {"seat": seat, "hand": hand_no, "turn": turn,
                                      "away": away and not self.lobby.seats[seat].away})
            events = seated.act(seat, FOLD) if due == "forfeit" else seated.play_default(seat)
            self.log_public(events, timeout=due == "timeout", withheld=due == "forfeit")
        self.follow_series(now)
        return True

    def bot_turn(self, now: float) -> BotTurn | None:
        """The bot decision due now, if any (each turn is handed out once)."""
        if self.due(now) != "bot":
            return None
        turn = self._seated().bot_turn()
        if turn is not None:
            self._bot_asked = turn.key
        return turn

    def bot_act(self, turn: BotTurn, answer: BotAnswer, now: float) -> bool:
        """Play a bot's answer if its turn is still the current one. Returns whether the table
        changed."""
        if self._bot_asked == turn.key:
            self._bot_asked = None
        if self.problem is not None or self.stalled or self.seated is None:
            return False
        events = self.seated.play_bot(turn, answer)
        if events is None:
            return False
        self.log_public(events)
        self.follow_series(now)
        return True

    def _deal(self) -> None:
        """Deal the next hand and start its public log from the deal's events."""
        store = self._store()
        self._journal_fair()
        hand = store.next_hand(self.clock.wall())
        seating = store.series.seating
        if hand is not None and seating is not None:
            self.hand_log = HandLog(seating.order, hand.events)

    def log_public(self, events: tuple[Event, ...], *, timeout: bool = False,
                   withheld: bool = False) -> None:
        """Events the series returned go on the public log (*timeout*: played for a player
        whose time ran out; *withheld*: the fold of a dead hand)."""
        if self.hand_log is not None:
            self.hand_log.extend(events, timeout=timeout, withheld=withheld)

    def follow_series(self, now: float, *, fresh_deal_delay: bool = False) -> None:
        """Let the clock follow the series (a new turn, a hand's end, the series' end)."""
        seated = self._seated()
        series = seated.series
        to_act = series.to_act
        self.timer.follow(now, key=seated.turn_key, over=series.is_over,
                          hands_dealt=series.hand_number,
                          to_act_connected=to_act is not None and self.connected[to_act] > 0,
                          fresh_deal_delay=fresh_deal_delay,
                          shown=self.hand_log.shown if self.hand_log is not None else 0)

    def note_connections(self, seat: int, count: int) -> None:
        """The room tells how many connections *seat* has; a drop during its turn earns the
        disconnect grace once."""
        self.connected[seat] = count
        if count == 0 and self.in_hand and self._store().series.to_act == seat:
            self.timer.grace = True

    # --- playing ------------------------------------------------------------------------------

    def act(self, seat: int, turn: tuple[int, int], action: Action, now: float) -> None:
        """Play *action* for *seat*, a decision for *turn* (``(hand number, decisions so
        far)``, from the legal actions the player was sent).

        :raises ProtocolError: ``not_now``, ``no_hand``, ``stale`` (a decision for another
            turn), or the engine's refusal (``not_your_turn``, ``illegal_check``,
            ``raise_closed``, ``illegal_amount``, ``illegal_action``).
        """
        self._require_play()
        seated = self._seated()
        if not seated.series.in_hand:
            raise ProtocolError(ErrorCode.NO_HAND, "no hand is being played")
        if turn != self.timer.turn_key:
            now_hand, now_turn = self.timer.turn_key or (0, 0)
            raise ProtocolError(ErrorCode.STALE, f"that decision was for hand {turn[0]} turn "
                                f"{turn[1]}; the turn now is hand {now_hand} turn {now_turn}")
        try:
            events = seated.act(seat, action)
        except IllegalActionError as exc:
            raise refusal_error(exc.refusal) from None
        self.log_public(events)
        self._note_own_decision(seat, turn[0], now)
        self.follow_series(now)

    def show_won_hand(self, seat: int) -> None:
        """*seat* shows the hand it won uncontested, before the next deal (P8).

        :raises ProtocolError: the rule's refusal (:func:`feltro.courtesy.show_after_win`)."""
        self._require_intact()
        try:
            events = self._seated().show(seat)
        except IllegalActionError as exc:
            raise refusal_error(exc.refusal) from None
        self.log_public(events)

    def choose_show_losers(self, seat: int, on: bool) -> None:
        """*seat* shows even its losing hands at the showdown from the next deal (P8, D11),
        or mucks them (the default); journaled in the series log."""
        self._require_intact()
        self._seated().set_show_losers(seat, on)

    def _note_own_decision(self, seat: int, hand_no: int, now: float) -> None:
        """Journal what a player's own decision changed: bank time spent (the timer runs the
        action time, then the bank, then any disconnect grace, which is free), the timeouts
        count reset, and the return of an away player."""
        state = self.lobby.seats[seat]
        bank = self.bank_ms(seat)
        used = 0
        if self.settings.action_seconds is not None:
            over_ms = int((now - self.timer.started - self.settings.action_seconds) * 1000)
            used = max(0, min(bank, over_ms))
        if state.away:
            self.log("back", {"seat": seat})
        if used or state.timeouts:
            self.log("timing", {"seat": seat, "hand": hand_no, "bank_ms": bank - used,
                                 "timeouts": 0})

    def contribute(self, seat: int, hand: int, value: bytes | None, seal: bytes | None) -> None:
        """*seat*'s device seals or reveals its randomness for hand *hand*; kept until the
        deal, which journals it first. :raises ProtocolError: ``not_now`` (no series),
        ``wrong_seat`` (out of the series), or :meth:`FairPlay.check`'s refusal."""
        self._require_play()
        store = self._store()
        if self.fairplay is None:
            raise ProtocolError(ErrorCode.NOT_NOW, "this table's series deals without "
                                "contributions (it started before the fair dealer)")
        if seat not in store.series.alive:
            raise ProtocolError(ErrorCode.WRONG_SEAT, f"seat {seat} is out of the series")
        self.fairplay.check(hand, seat, store.series.hand_number + 1, value=value, seal=seal,
                            in_hand=store.series.in_hand)
        self.fairplay.take(hand, seat, value=value, seal=seal)

    def _journal_fair(self) -> None:
        """Journal the next hand's contributions before the deal uses them."""
        if self.fairplay is not None and self.store is not None:
            body = self.fairplay.to_journal(self.store.series.hand_number + 1)
            if body is not None:
                self.log("contributed", body)

    # --- lobby --------------------------------------------------------------------------------

    def join(self, name: str, seat: int | None, *, by_host: bool) -> tuple[SeatRequest, str]:
        """:meth:`Lobby.join <feltro.server.lobby.Lobby.join>` before the start.
        :raises ProtocolError: ``not_now`` after the start, or the lobby's refusal."""
        self._require_lobby()
        return self.lobby.join(name, seat, by_host=by_host)

    def accept(self, request_id: str, seat: int | None) -> None:
        """:meth:`Lobby.accept <feltro.server.lobby.Lobby.accept>` before the start.
        :raises ProtocolError: ``not_now`` after the start, or the lobby's refusal."""
        self._require_lobby()
        self.lobby.accept(request_id, seat)

    def refuse(self, request_id: str) -> None:
        """:meth:`Lobby.refuse <feltro.server.lobby.Lobby.refuse>`.
        :raises ProtocolError: ``no_such_request``."""
        self._require_intact()
        self.lobby.refuse(request_id)

    def add_bot(self, kind: str, seat: int | None, name: str | None) -> int:
        """:meth:`Lobby.add_bot <feltro.server.lobby.Lobby.add_bot>` before the start.
        :raises ProtocolError: ``not_now`` after the start, or the lobby's refusal."""
        self._require_lobby()
        return self.lobby.add_bot(kind, seat, name)

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
        if seat == self.lobby.host_seat:
            raise ProtocolError(ErrorCode.WRONG_SEAT, "that is the host's seat: pass the host "
                                "role first")
        if not self.started:
            self.log("freed", {"seat": seat})
            return
        self._require_play()
        if state.removed:
            raise ProtocolError(ErrorCode.WRONG_SEAT, f"seat {seat} is already removed")
        self.log("removed", {"seat": seat, "hand": self._store().series.hand_number})

    def pass_host(self, seat: int) -> None:
        """:meth:`Lobby.pass_host <feltro.server.lobby.Lobby.pass_host>`.
        :raises ProtocolError: ``wrong_seat``."""
        self._require_intact()
        self.lobby.pass_host(seat)

    def start(self, now: float) -> None:
        """Start the series with the seated players (their seats are fixed from now on).

        :raises ProtocolError: ``not_now`` after the start or with fewer than two seats taken.
        """
        self._require_lobby()
        seats = self.lobby.seats
        if len(seats) < 2:
            raise ProtocolError(ErrorCode.NOT_NOW, "a series needs at least two players")
        settings = self.settings
        config = settings.series_config({seat: state.name for seat, state in seats.items()})
        # The series log is created first and only then journaled: a crash in between leaves
        # an unused file and a table still in its lobby, never a table without its series.
        name = f"{self.table_id}.{new_id(4)}.series.sqlite"
        reveal: Reveal = "hand" if settings.reveal == "hand" else "series"
        self.fairplay = FairPlay(self.table_id, reveal)
        store = SeriesStore.create(self.folder / name, config, seal=self.seal,
                                   deck_source=self.fairplay.deck_source)
        try:
            self.log("started", {"series": name, "fair": {"reveal": reveal}})
        except StoreError:
            store.close()
            self.fairplay = None
            raise
        self.open_series(store)
        for request in self.lobby.pending_requests():  # seats are fixed from now on
            self.log("refused", {"request_id": request.request_id})
        # The first hand waits a moment (at most the pause between hands) for the phones'
        # randomness: its commitment is public now, their contributions follow at once.
        self.timer.next_deal_at = now + min(FIRST_DEAL_WAIT, settings.between_hands_seconds)

    def open_series(self, store: SeriesStore) -> None:
        """Seat the people and bots of this table at *store*'s series (on start and restart).
        Bots draw from fresh system randomness."""
        seed = random.SystemRandom()
        seats = self.lobby.seats
        self.store = store
        entries.reconcile(self)  # a late seat cut in two by a crash (G9)
        if self.fairplay is not None:
            self.fairplay.humans = {seat for seat, state in seats.items() if state.bot is None}
        self.seated = Session(
            store, [Player(seat, state.name, state.bot) for seat, state in seats.items()],
            bots={seat: make_bot(state.bot, random.Random(seed.getrandbits(64)))
                  for seat, state in seats.items() if state.bot is not None})
        series = store.series
        if series.hand is not None and series.seating is not None:
            self.hand_log = HandLog(series.seating.order, series.hand.events)

    # --- host controls during play ------------------------------------------------------------

    def pause(self) -> None:
        """Pause before the next hand. :raises ProtocolError: ``not_now``."""
        self._require_play()
        if not self.paused:
            self.log("paused", {})

    def resume(self, now: float) -> None:
        """Resume after a pause. :raises ProtocolError: ``not_now``."""
        self._require_play()
        if self.paused:
            self.log("resumed", {})
            if not self.in_hand:
                self.timer.next_deal_at = now

    def end(self, now: float) -> None:
        """End the series after the hand in progress (G6). :raises ProtocolError: ``not_now``."""
        self._require_play()
        if not self.stop_logged:
            self.log("stop", {})
        self._store().request_stop()
        if not self.in_hand:
            self.timer.next_deal_at = now

    def mark_away(self, seat: int, reason: str) -> None:
        """:meth:`Lobby.mark_away <feltro.server.lobby.Lobby.mark_away>` during play.
        :raises ProtocolError: ``not_now`` before the start, ``wrong_seat``."""
        self._require_play()
        self.lobby.mark_away(seat, reason)

    def come_back(self, seat: int) -> None:
        """:meth:`Lobby.come_back <feltro.server.lobby.Lobby.come_back>` during play.
        :raises ProtocolError: ``not_now`` before the start, ``wrong_seat``."""
        self._require_play()
        self.lobby.come_back(seat)

    # --- guards -------------------------------------------------------------------------------

    def _store(self) -> SeriesStore:
        if self.store is None:
            raise ProtocolError(ErrorCode.NOT_NOW, "the series has not started")
        return self.store

    def _seated(self) -> Session:
        if self.seated is None:
            raise ProtocolError(ErrorCode.NOT_NOW, "the series has not started")
        return self.seated

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

    def _occupied(self, seat: int) -> SeatState:
        self._require_intact()
        return self.lobby.occupied(seat)
