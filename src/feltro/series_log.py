"""The durable series log: an append-only event log in SQLite that survives ``kill -9``.

One SQLite file holds one series. Every change to the series goes through a
:class:`SeriesStore`, which appends the change as a record **and commits it before returning**,
so nothing a caller shows anyone (a dealt hand, an action, a result) can be lost by a crash.
Resuming (:meth:`SeriesStore.open`) replays the log through :class:`~feltro.series.Series`:
the same hand, the same cards (each hand's shuffle seed is derived from the series seed and
stored), the same stacks and the same player to act.

Records (``kind``: JSON body):

* ``series``: ``format``, ``config`` (:meth:`SeriesConfig.to_dict`), ``series_seed``,
  ``button_draw`` (seat -> card drawn, D2) and the drawn ``button``. Always record 1.
* ``hand``: ``hand`` number, shuffle ``seed``, ``button``, ``small_blind`` (``null`` when dead),
  ``big_blind``, ``order`` (seats by position) and ``stacks_before`` (seat -> chips); with blind
  levels (G7) also the ``level`` and, for levels by time, ``at`` (the clock the caller passed,
  ISO 8601): the replay deals with that clock, so it reaches the same level without reading one.
* ``action``: ``hand``, ``seat``, ``action`` in feltro's short notation (``"r 25"``).
* ``hand_end``: ``hand``, ``stacks_after``, ``eliminated`` (seats, best place first).
* ``show``: ``hand``, ``seat``: the winner of a hand won uncontested showed it (P8);
  ``show_losers``: ``seat``, ``on``: its choice to show even losing hands at the showdown.
* ``stop``: the host asked to end the series before the next hand (G6).
* ``reentry``: ``seat`` took a fresh starting stack (G8); ``late_seat``: ``seat`` and ``name``
  sat down in the re-entry period (G9); both with ``at`` (the caller's clock, ISO 8601) when
  one was passed, so the replay judges the period by the same clock.
* ``series_end``: ``end`` (``"last_player"`` or ``"stopped"``), ``winners``, ``stacks``.
* ``note``: ``label`` and ``data`` of an application's own record (a host action, a player
  stepping away...), kept in order with the game; the series ignores it (:meth:`SeriesStore.note`).

Derived records (``hand_end``, ``series_end``) are written in the same transaction as the
record that caused them, and checked against the replay when the log is opened.

The file is a :class:`~feltro.sqlitelog.SqliteLog` (WAL, full fsync, private, faults as
errors) with a checksum chain. Integrity: records are numbered ``1, 2, 3...`` with no gaps;
each carries a SHA-256 chained over the previous record's, and the ``meta`` table keeps the
number of records, updated in the same transaction. A changed, reordered, missing or
unreadable record, a log whose tail was cut, or a record the rules refuse on replay stops
:meth:`SeriesStore.open` with a :class:`StoreError` naming the record; nothing is resumed
partially and nothing is written.

One writer at a time: an exclusive OS lock (``flock``) on ``<file>.lock``, released when the
process dies; a second writer gets a :class:`StoreError` naming the holder's pid.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from types import TracebackType
from typing import Any

from feltro.actions import Action
from feltro.cards import Deck
from feltro.courtesy import show_after_win
from feltro.errors import FeltroError, StoreError
from feltro.events import Event
from feltro.hand import Hand
from feltro.history.phh import HandRecord
from feltro.history.record import Visible
from feltro.levels import LevelUnit
from feltro.seal import SeedSeal
from feltro.series import Series, SeriesConfig
from feltro.serieshistory import played_hand, series_hand_record
from feltro.sqlitelog import LogFormat, Row, SqliteLog, json_object, read_log

__all__ = [
    "FORMAT",
    "Record",
    "SeriesStore",
    "played_hand",
    "read_records",
    "series_hand_record",
]

FORMAT = "feltro-series-log/1"
"""The ``format`` written in the ``meta`` table and in the ``series`` record."""

_KINDS = frozenset({"series", "hand", "action", "hand_end", "stop", "series_end", "note",
                    "reentry", "late_seat", "show", "show_losers"})
LOG_FORMAT = LogFormat(FORMAT, "series log", "log", "chain")
"""The file's layout: table ``log`` (``seq``, ``kind``, ``body``, ``chain``) and ``meta``."""


@dataclass(frozen=True, slots=True)
class Record:
    """One record of the log."""

    seq: int
    """1 for the first record, no gaps."""
    kind: str
    body: Mapping[str, Any]

    def describe(self) -> str:
        """``"record 12 (action)"``, as errors name records."""
        return f"record {self.seq} ({self.kind})"


def _seat_map(stacks: Mapping[int, int]) -> dict[str, int]:
    return {str(seat): chips for seat, chips in sorted(stacks.items())}


# --- reading and checking ----------------------------------------------------------------------


def _writer_busy(log_path: Path) -> Callable[[str], str]:
    """The refusal of a second writer (given the holder's pid)."""
    return lambda holder: (f"{log_path}: the series is already open for writing (by pid "
                           f"{holder}); close it there first")


def _checked(path: Path, rows: Sequence[Row]) -> list[Record]:
    """The records of *rows* (already checked for numbering, checksums and count), checked
    for their kind and JSON.

    :raises StoreError: naming the first bad record.
    """
    records: list[Record] = []
    for row in rows:
        if row.kind not in _KINDS:
            raise StoreError(f"{path}: record {row.seq} has an unknown kind {row.kind!r}")
        body = json_object(row.body)
        if body is None:
            raise StoreError(f"{path}: record {row.seq} ({row.kind}) is not a JSON object")
        records.append(Record(row.seq, row.kind, body))
    if not records or records[0].kind != "series":
        raise StoreError(f"{path}: record 1 must be the series record")
    return records


def read_records(path: str | Path) -> list[Record]:
    """Every record of the log at *path*, checked (see the module docstring); takes no lock.

    :raises StoreError: if the file is missing, not a series log, or a record is bad.
    """
    path = Path(path)
    return _checked(path, read_log(path, LOG_FORMAT))


# --- the store -------------------------------------------------------------------------------

DeckSourceFactory = Callable[[int], Callable[[int], Deck]]
"""Given the series seed, the series' ``deck_source`` (hand number -> deck)."""


def _decks(factory: DeckSourceFactory | None, series_seed: int) -> Callable[[int], Deck] | None:
    return None if factory is None else factory(series_seed)


def _at(now: datetime | None) -> dict[str, str]:
    return {} if now is None else {"at": now.isoformat()}


def _read_at(body: Mapping[str, Any]) -> datetime | None:
    """The caller's clock a record kept (``at``), or ``None``."""
    at = body.get("at")
    return datetime.fromisoformat(at) if isinstance(at, str) else None


@dataclass
class _LoggedHand:
    seed: int
    stacks_before: dict[int, int]
    actions: list[tuple[int, str]]


class SeriesStore:
    """A :class:`~feltro.series.Series` whose every change is committed to SQLite first.

    Use :meth:`create` or :meth:`open`, drive it with :meth:`next_hand`, :meth:`act` and
    :meth:`request_stop`, read it through :attr:`series` (never change :attr:`series`
    directly: the log would not know), and :meth:`close` it (or use ``with``).
    """

    def __init__(self, log: SqliteLog, series: Series) -> None:
        self.path = log.path
        self.series = series
        self._log = log
        self._hands: dict[int, _LoggedHand] = {}
        self._sealed = False  # the log keeps its seed sealed (then no hand's seed either)
        self._end_logged = False  # a series_end record has been read or written
        self.notes: list[Record] = []  # the ``note`` records, in order (see :meth:`note`)

    # --- opening ------------------------------------------------------------------------------

    @classmethod
    def create(cls, path: str | Path, config: SeriesConfig,
               rng: random.Random | None = None, *, series_seed: int | None = None,
               seal: SeedSeal | None = None,
               deck_source: DeckSourceFactory | None = None) -> SeriesStore:
        """Start a new series logged at *path* (which must not exist).

        The series seed is *series_seed* if given, else drawn from *rng*, else from
        :class:`random.SystemRandom` (real play, D1). With *seal* the log keeps the seed only
        sealed with that key (:mod:`feltro.seal`), and no hand's seed: the file alone does not
        tell the cards; :meth:`open` then needs the same seal.

        *deck_source(series_seed)*, if given, makes the series' deck source (a verifiable
        shuffle); :meth:`open` then needs the same one to deal the same cards again.

        :raises StoreError: if *path* exists or cannot be created.
        :raises ConfigError: for a bad *config* or seed.
        """
        path = Path(path)
        if path.exists():
            raise StoreError(f"{path}: a file is already there; resume it with "
                             f"SeriesStore.open or choose another name")
        if series_seed is None:
            series_seed = (rng or random.SystemRandom()).getrandbits(128)
        series = Series(config, series_seed, deck_source=_decks(deck_source, series_seed))
        sealed = seal is not None
        seed_field: dict[str, Any] = ({"series_seed_sealed": seal.seal(series_seed)}
                                      if seal is not None
                                      else {"series_seed": str(series_seed)})
        # The file is made with its series record, in one transaction: no half log.
        log = SqliteLog.create(path, LOG_FORMAT, [("series", {
            "format": FORMAT,
            "config": config.to_dict(),
            **seed_field,
            "button_draw": {str(seat): str(card) for seat, card in series.draw.cards.items()},
            "button": series.draw.button,
        })], writer=_writer_busy(path))
        store = cls(log, series)
        store._sealed = sealed
        return store

    @classmethod
    def open(cls, path: str | Path, *, seal: SeedSeal | None = None,
             deck_source: DeckSourceFactory | None = None) -> SeriesStore:
        """Resume the series logged at *path*, exactly where the log ends (*seal*: the key
        a sealed log was created with; *deck_source*: as given to :meth:`create`).

        :raises StoreError: if the file is missing, not a series log, open for writing
            elsewhere, or any record is damaged, missing or refused by the rules on replay
            (the message names the record). Nothing is written in that case.
        """
        path = Path(path)
        log, rows = SqliteLog.open(path, LOG_FORMAT, writer=_writer_busy(path))
        try:
            return cls._replay(log, _checked(path, rows), seal, deck_source)
        except BaseException:
            log.close()
            raise

    @classmethod
    def _replay(cls, log: SqliteLog, records: Sequence[Record], seal: SeedSeal | None,
                deck_source: DeckSourceFactory | None = None) -> SeriesStore:
        path = log.path
        head = records[0]
        try:
            config = SeriesConfig.from_dict(head.body["config"])
            sealed = head.body.get("series_seed_sealed")
            if sealed is not None and seal is None:
                raise StoreError("the series seed is sealed; open it with the key it was "
                                 "created with")
            seed = (seal.unseal(sealed) if sealed is not None and seal is not None
                    else int(head.body["series_seed"]))
            series = Series(config, seed, deck_source=_decks(deck_source, seed))
        except StoreError as exc:  # from the seal, which does not know the file
            raise StoreError(f"{path}: {exc}") from None
        except (KeyError, TypeError, ValueError) as exc:
            raise StoreError(f"{path}: {head.describe()} is not a valid series header "
                             f"({exc})") from None
        if head.body.get("button") != series.draw.button:
            raise StoreError(f"{path}: {head.describe()}: the button draw does not match the "
                             f"series seed")
        store = cls(log, series)
        store._sealed = sealed is not None
        for record in records[1:]:
            try:
                store._apply(record)
            except StoreError:
                raise
            except (FeltroError, KeyError, TypeError, ValueError) as exc:
                raise StoreError(f"{path}: {record.describe()} cannot be replayed: "
                                 f"{exc}") from None
        store._check_complete(records[-1])
        return store

    def _apply(self, record: Record) -> None:
        """Replay one record into the series, checking every derived value."""
        if self._end_logged and record.kind not in ("note", "show"):
            raise StoreError(f"{self.path}: {record.describe()} comes after the series ended")
        replayer = _REPLAYERS.get(record.kind)
        if replayer is None:  # pragma: no cover - "series" after record 1 is refused here
            raise StoreError(f"{self.path}: {record.describe()} may only be record 1")
        replayer(self, record)

    def _refused(self, record: Record, why: str) -> StoreError:
        return StoreError(f"{self.path}: {record.describe()}: {why}")

    def _mismatch(self, record: Record, what: str) -> StoreError:
        return self._refused(record, f"{what} does not match the replay of the log")

    def _replay_hand(self, record: Record) -> None:
        series = self.series
        if series.in_hand:
            raise self._refused(record, f"hand {series.hand_number} is not over yet")
        now = _read_at(record.body)
        if series.next_hand(now) is None:
            raise self._refused(record, "the series had ended")
        if self._hand_body(now) != record.body:
            raise self._mismatch(record, f"hand {record.body.get('hand')}")
        self._remember_hand()

    def _replay_action(self, record: Record) -> None:
        series, body = self.series, record.body
        if not series.in_hand or body["hand"] != series.hand_number:
            raise self._refused(record, f"no hand {body['hand']} is in progress")
        series.act(Action.parse(body["action"]), int(body["seat"]))
        self._hands[series.hand_number].actions.append((int(body["seat"]), body["action"]))

    def _replay_hand_end(self, record: Record) -> None:
        series, body = self.series, record.body
        summary = series.summaries[-1] if series.summaries else None
        if summary is None or summary.number != body["hand"] or series.in_hand:
            raise self._refused(record, f"hand {body['hand']} has not ended in the replay")
        if self._hand_end_body() != body:
            raise self._mismatch(record, "the result")

    def _replay_show(self, record: Record) -> None:
        if record.body["hand"] != self.series.hand_number:
            raise self._refused(record, f"hand {record.body['hand']} is not the last hand")
        show_after_win(self.series, int(record.body["seat"]))

    def _replay_reentry(self, record: Record) -> None:
        self.series.reenter(int(record.body["seat"]), _read_at(record.body))

    def _replay_late_seat(self, record: Record) -> None:
        body = record.body
        self.series.seat_late(int(body["seat"]), str(body["name"]), _read_at(body))

    def _replay_stop(self, record: Record) -> None:
        self.series.request_stop()

    def _replay_note(self, record: Record) -> None:
        body = record.body
        if not isinstance(body.get("label"), str) or not isinstance(body.get("data"), dict):
            raise StoreError(f"{self.path}: {record.describe()} needs a label and data")
        self.notes.append(record)

    def _replay_series_end(self, record: Record) -> None:
        series, body = self.series, record.body
        if not series.is_over and body.get("end") == "stopped" and not series.in_hand:
            # A stop at the agreed time (G6) came from the clock, which a replay does not
            # read: the record itself is the stop.
            series.request_stop()
            series.next_hand()
        if not series.is_over:
            raise self._refused(record, "the series has not ended in the replay")
        if self._series_end_body() != body:
            raise self._mismatch(record, "the outcome")
        self._end_logged = True

    def _check_complete(self, last: Record) -> None:
        """A derived record that should follow the last one but is missing means truncation."""
        series = self.series
        if series.hand_number and not series.in_hand and last.kind in ("hand", "action"):
            raise StoreError(f"{self.path}: the log is truncated after {last.describe()}: "
                             f"hand {series.hand_number} ended but its hand_end record is "
                             f"missing")
        if series.outcome is not None and not self._end_logged:
            raise StoreError(f"{self.path}: the log is truncated after {last.describe()}: "
                             f"the series ended but its series_end record is missing")

    # --- driving the series -------------------------------------------------------------------

    def next_hand(self, now: datetime | None = None) -> Hand | None:
        """Deal the next hand (logged before it is returned) or end the series (G4, G6).

        :raises StoreError: if the store is closed or the write fails.
        :raises SeriesError: if the current hand is not over.
        """
        self._writable()
        series = self.series
        if series.is_over:
            return None
        hand = series.next_hand(now)
        if hand is None:  # stopped (G6); a freezeout's end is logged with its last hand
            self._append([("series_end", self._series_end_body())])
            return None
        self._remember_hand()
        batch: list[tuple[str, dict[str, Any]]] = [("hand", self._hand_body(now))]
        batch += self._endings()
        self._append(batch)
        return hand

    def act(self, action: Action, seat: int | None = None) -> tuple[Event, ...]:
        """Apply *action* for the player to act; committed before the events are returned.

        :raises StoreError: if the store is closed or the write fails.
        :raises SeriesError: if no hand is in progress.
        :raises IllegalActionError: if the rules refuse it (nothing is written).
        """
        self._writable()
        series = self.series
        actor = series.to_act if seat is None else seat
        events = series.act(action, seat)
        assert actor is not None
        self._hands[series.hand_number].actions.append((actor, str(action)))
        batch: list[tuple[str, dict[str, Any]]] = [
            ("action", {"hand": series.hand_number, "seat": actor, "action": str(action)})]
        self._append(batch + self._endings())
        return events

    def show(self, seat: int) -> tuple[Event, ...]:
        """*seat* shows the hand it won uncontested (P8, :func:`feltro.courtesy.show_after_win`);
        logged before the events are returned.

        :raises IllegalActionError: if the rules refuse it (nothing is written).
        :raises StoreError: if the store is closed or the write fails.
        """
        self._writable()
        events = show_after_win(self.series, seat)
        self._append([("show", {"hand": self.series.hand_number, "seat": seat})])
        return events

    def set_show_losers(self, seat: int, on: bool) -> None:
        """*seat*'s choice to show losing hands (:meth:`Series.set_show_losers`); logged."""
        self._writable()
        self.series.set_show_losers(seat, on)
        self._append([("show_losers", {"seat": seat, "on": on})])

    def request_stop(self) -> None:
        """End the series before the next hand (logged; the hand in progress finishes, G6).

        :raises StoreError: if the store is closed or the write fails.
        """
        self._writable()
        if not self.series.stop_requested and not self.series.is_over:
            self.series.request_stop()
            self._append([("stop", {})])

    def reenter(self, seat: int, now: datetime | None = None) -> None:
        """A busted player re-enters (G8, see :meth:`Series.reenter`); logged first.

        :raises EntryError: if the rules refuse it (nothing is written).
        :raises StoreError: if the store is closed or the write fails.
        """
        self._writable()
        self.series.reenter(seat, now)
        self._append([("reentry", {"seat": seat, **_at(now)})])

    def seat_late(self, seat: int, name: str, now: datetime | None = None) -> None:
        """A late player sits down (G9, see :meth:`Series.seat_late`); logged first.

        :raises EntryError: if the rules refuse it (nothing is written).
        :raises ConfigError: for a bad name (nothing is written).
        :raises StoreError: if the store is closed or the write fails.
        """
        self._writable()
        self.series.seat_late(seat, name, now)
        self._append([("late_seat", {"seat": seat, "name": name, **_at(now)})])

    def note(self, label: str, data: Mapping[str, Any] | None = None) -> Record:
        """Log an application record (``"host paused"``, ``"seat 3 away"``...) in order with the
        game, committed before returning. The series ignores notes; :attr:`notes` has them.

        :raises StoreError: if the store is closed, the write fails, or *data* is not JSON.
        """
        self._writable()
        if not isinstance(label, str) or not label:
            raise StoreError("a note needs a label")
        body = {"label": label, "data": dict(data or {})}
        try:
            json.dumps(body)
        except (TypeError, ValueError) as exc:
            raise StoreError(f"note {label!r}: data is not JSON ({exc})") from None
        seq = self._append([("note", body)])[-1]
        record = Record(seq, "note", body)
        self.notes.append(record)
        return record

    def probe(self) -> None:
        """Check that the log can be written now: its file is still there, and a write that
        changes nothing (``UPDATE meta SET value = value``) commits.

        :raises StoreUnavailableError: while another program holds the lock or the disk is full.
        :raises StoreError: if the store is closed or the file vanished.
        """
        self._writable()
        self._log.probe()

    def export_phh(self, number: int | None = None, *, visible_to: Visible = None) -> HandRecord:
        """Hand *number* (default: the current or last hand) as a PHH record, with every hole
        card or only those of *visible_to* (see :func:`~feltro.history.record_of`).

        :raises KeyError: if hand *number* has not been dealt.
        :raises HistoryError: for a pot-limit series (PHH has no pot-limit hold'em variant).
        """
        return series_hand_record(self.series, number, visible_to=visible_to)

    def hand_actions(self, number: int) -> list[tuple[int, str]]:
        """``(seat, action)`` of every action of hand *number*, in order.

        :raises KeyError: if hand *number* was not dealt.
        """
        return list(self._hands[number].actions)

    def close(self) -> None:
        """Close the database and release the writer lock (idempotent)."""
        self._log.close()

    def __enter__(self) -> SeriesStore:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

    # --- internals ----------------------------------------------------------------------------

    def _writable(self) -> None:
        if self._log.closed:
            raise StoreError(f"{self.path}: the series store is closed")

    def _remember_hand(self) -> None:
        series = self.series
        assert series.hand_seed is not None
        self._hands[series.hand_number] = _LoggedHand(series.hand_seed,
                                                      dict(series.stacks_before), [])

    def _endings(self) -> list[tuple[str, dict[str, Any]]]:
        """The derived records due now: the hand's end, and the series' end with it."""
        series = self.series
        if series.in_hand:
            return []
        batch: list[tuple[str, dict[str, Any]]] = [("hand_end", self._hand_end_body())]
        if series.outcome is not None:
            batch.append(("series_end", self._series_end_body()))
        return batch

    def _hand_body(self, now: datetime | None) -> dict[str, Any]:
        series = self.series
        seating = series.seating
        assert seating is not None
        schedule = series.config.levels
        levels: dict[str, Any] = {}
        if schedule is not None:
            levels["level"] = series.level
            if schedule.unit is LevelUnit.MINUTES and now is not None:
                levels["at"] = now.isoformat()
        return {
            "hand": series.hand_number,
            **({} if self._sealed else {"seed": str(series.hand_seed)}),
            "button": seating.button,
            "small_blind": seating.small_blind,
            "big_blind": seating.big_blind,
            "order": list(seating.order),
            "stacks_before": _seat_map(series.stacks_before),
            **levels,
        }

    def _hand_end_body(self) -> dict[str, Any]:
        summary = self.series.summaries[-1]
        return {
            "hand": summary.number,
            "stacks_after": _seat_map(summary.stacks_after),
            "eliminated": list(summary.eliminated),
        }

    def _series_end_body(self) -> dict[str, Any]:
        outcome = self.series.outcome
        assert outcome is not None
        return {
            "end": outcome.end.value,
            "winners": list(outcome.winners),
            "stacks": _seat_map(outcome.stacks),
        }

    def _append(self, batch: Sequence[tuple[str, Mapping[str, Any]]]) -> list[int]:
        """Append *batch* in one transaction, committed (fsync'd) before returning.

        :raises StoreError: if the write fails; the store is closed then, because the series
            in memory is ahead of the log (resume from the log with :meth:`open`).
        """
        self._writable()
        try:
            return self._log.append(batch)
        except StoreError:
            self.close()
            raise


# How each kind of record after the first is replayed (:meth:`SeriesStore._apply`).
_REPLAYERS: dict[str, Callable[[SeriesStore, Record], None]] = {
    "hand": SeriesStore._replay_hand,
    "action": SeriesStore._replay_action,
    "hand_end": SeriesStore._replay_hand_end,
    "stop": SeriesStore._replay_stop,
    "show": SeriesStore._replay_show,
    "show_losers": lambda store, r: store.series.set_show_losers(r.body["seat"], r.body["on"]),
    "reentry": SeriesStore._replay_reentry,
    "late_seat": SeriesStore._replay_late_seat,
    "note": SeriesStore._replay_note,
    "series_end": SeriesStore._replay_series_end,
}
