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
  ``big_blind``, ``order`` (seats by position) and ``stacks_before`` (seat -> chips).
* ``action``: ``hand``, ``seat``, ``action`` in feltro's short notation (``"r 25"``).
* ``hand_end``: ``hand``, ``stacks_after``, ``eliminated`` (seats, best place first).
* ``stop``: the host asked to end the series before the next hand (G6).
* ``series_end``: ``end`` (``"last_player"`` or ``"stopped"``), ``winners``, ``stacks``.
* ``note``: ``label`` and ``data`` of an application's own record (a host action, a player
  stepping away...), kept in order with the game; the series ignores it (:meth:`SeriesStore.note`).

Derived records (``hand_end``, ``series_end``) are written in the same transaction as the
record that caused them, and checked against the replay when the log is opened.

Integrity: records are numbered ``1, 2, 3...`` with no gaps; each carries a SHA-256 chained over
the previous record's, and the ``meta`` table keeps the number of records, updated in the same
transaction. A changed, reordered, missing or unreadable record, a log whose tail was cut, or a
record the rules refuse on replay stops :meth:`SeriesStore.open` with a :class:`StoreError`
naming the record; nothing is resumed partially and nothing is written.

One writer at a time: opening a series for writing takes an exclusive OS lock (``flock``) on
``<file>.lock``, which the OS releases when the process dies, so a crash never leaves a stale
lock. A second writer gets a :class:`StoreError` naming the holder's pid. Reading
(:func:`read_records`) takes no lock.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import random
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from types import TracebackType
from typing import Any

from feltro.actions import Action
from feltro.cards import Deck
from feltro.errors import FeltroError, StoreError
from feltro.events import Event
from feltro.filelock import FileLock
from feltro.hand import Hand
from feltro.history.phh import HandRecord
from feltro.history.record import Visible, seated_record
from feltro.paths import private_file
from feltro.seal import SeedSeal
from feltro.series import Series, SeriesConfig
from feltro.sqlitefaults import BUSY_SECONDS, FileIdentity, store_error
from feltro.table import Seating

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

_KINDS = frozenset({"series", "hand", "action", "hand_end", "stop", "series_end", "note"})
_GENESIS = "0" * 64

_SCHEMA = (
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE log (seq INTEGER PRIMARY KEY, kind TEXT NOT NULL, body TEXT NOT NULL, "
    "chain TEXT NOT NULL)",
    f"INSERT INTO meta VALUES ('format', '{FORMAT}'), ('records', '0')",
)


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


def _chain(previous: str, seq: int, kind: str, body: str) -> str:
    return hashlib.sha256(f"{previous}|{seq}|{kind}|{body}".encode()).hexdigest()


def _seat_map(stacks: Mapping[int, int]) -> dict[str, int]:
    return {str(seat): chips for seat, chips in sorted(stacks.items())}


# --- the lock ----------------------------------------------------------------------------------


def _writer_lock(log_path: Path) -> FileLock:
    """The one-writer lock of a series log: ``<log>.lock``."""
    return FileLock(
        log_path.with_name(log_path.name + ".lock"),
        lambda holder: (f"{log_path}: the series is already open for writing (by pid {holder}); "
                        f"close it there first"),
    )


# --- reading and checking ----------------------------------------------------------------------


def _connect(path: Path) -> sqlite3.Connection:
    private_file(path)  # the log holds the deck's seed: its owner alone may read it
    # A short busy timeout: a lock held by another program fails the write quickly (the caller
    # retries later) instead of blocking for SQLite's default 5 s. check_same_thread=False: a
    # server reopens a log in a worker thread, then writes from its event loop (one at a time).
    connection = sqlite3.connect(path, isolation_level=None, timeout=BUSY_SECONDS,
                                 check_same_thread=False)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=FULL")
    return connection


def _database_error(path: Path, exc: sqlite3.Error) -> StoreError:
    """The error for a file SQLite cannot read: a damaged log, or not a log at all."""
    try:
        with path.open("rb") as handle:
            is_sqlite = handle.read(16) == b"SQLite format 3\x00"
    except OSError:
        is_sqlite = False
    if is_sqlite:
        return StoreError(f"{path}: the series log is damaged or truncated (SQLite: {exc}); "
                          f"no record can be read, nothing was resumed")
    return StoreError(f"{path}: not a feltro series log ({exc})")


def _read_checked(connection: sqlite3.Connection, path: Path) -> list[Record]:
    """Every record, checked for format, numbering, checksums, JSON and the record count.

    :raises StoreError: naming the first bad record.
    """
    try:
        meta = dict(connection.execute("SELECT key, value FROM meta").fetchall())
    except sqlite3.DatabaseError as exc:
        raise _database_error(path, exc) from None
    if meta.get("format") != FORMAT:
        raise StoreError(f"{path}: not a feltro series log (format {meta.get('format')!r})")
    records: list[Record] = []
    previous = _GENESIS
    cursor = connection.execute("SELECT seq, kind, body, chain FROM log ORDER BY seq")
    while True:
        after = f"after record {records[-1].seq}" if records else "at the first record"
        try:
            row = cursor.fetchone()
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{path}: the log is damaged {after}: {exc}") from None
        if row is None:
            break
        seq, kind, body, chain = row
        expected = len(records) + 1
        if seq != expected:
            raise StoreError(f"{path}: record {expected} is missing (the next one is {seq})")
        if not isinstance(kind, str) or not isinstance(body, str) or \
                chain != _chain(previous, seq, kind, body):
            raise StoreError(f"{path}: record {seq} ({kind}) is corrupted: its checksum does "
                             f"not match")
        if kind not in _KINDS:
            raise StoreError(f"{path}: record {seq} has an unknown kind {kind!r}")
        try:
            parsed = json.loads(body)
        except ValueError:
            raise StoreError(f"{path}: record {seq} ({kind}) is not valid JSON") from None
        if not isinstance(parsed, dict):
            raise StoreError(f"{path}: record {seq} ({kind}) is not a JSON object")
        records.append(Record(seq, kind, parsed))
        previous = chain
    count = meta.get("records")
    if count != str(len(records)):
        raise StoreError(f"{path}: the log is truncated: it should hold {count} records but "
                         f"holds {len(records)} (the last good one is record {len(records)})")
    if not records or records[0].kind != "series":
        raise StoreError(f"{path}: record 1 must be the series record")
    return records


def read_records(path: str | Path) -> list[Record]:
    """Every record of the log at *path*, checked (see the module docstring); takes no lock.

    :raises StoreError: if the file is missing, not a series log, or a record is bad.
    """
    path = Path(path)
    if not path.is_file():
        raise StoreError(f"{path}: no such series log")
    try:
        connection = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise StoreError(f"{path}: cannot open the series log ({exc})") from None
    try:
        return _read_checked(connection, path)
    finally:
        connection.close()


# --- the store -------------------------------------------------------------------------------

DeckSourceFactory = Callable[[int], Callable[[int], Deck]]
"""Given the series seed, the series' ``deck_source`` (hand number -> deck)."""


def _decks(factory: DeckSourceFactory | None, series_seed: int) -> Callable[[int], Deck] | None:
    return None if factory is None else factory(series_seed)



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

    def __init__(self, path: Path, connection: sqlite3.Connection, lock: FileLock,
                 series: Series, records: int, chain: str) -> None:
        self.path = path
        self.series = series
        self._connection: sqlite3.Connection | None = connection
        self._lock = lock
        self._records = records
        self._chain = chain
        self._hands: dict[int, _LoggedHand] = {}
        self._sealed = False
        """Whether the log keeps its seed sealed (then no hand's seed is written either)."""
        self._end_logged = False  # a series_end record has been read or written
        self._identity = FileIdentity(path)
        self.notes: list[Record] = []
        """The ``note`` records, in order (see :meth:`note`)."""

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
        lock = _writer_lock(path)
        try:
            connection = _connect(path)
        except (sqlite3.Error, OSError) as exc:
            lock.release()
            raise StoreError(f"{path}: cannot create the series log ({exc})") from None
        store = cls(path, connection, lock, series, 0, _GENESIS)
        store._sealed = seal is not None
        seed_field: dict[str, Any] = ({"series_seed_sealed": seal.seal(series_seed)}
                                      if seal is not None
                                      else {"series_seed": str(series_seed)})
        # The tables and the series record are one transaction: a crash leaves no half log.
        store._append(prelude=_SCHEMA, batch=[("series", {
            "format": FORMAT,
            "config": config.to_dict(),
            **seed_field,
            "button_draw": {str(seat): str(card) for seat, card in series.draw.cards.items()},
            "button": series.draw.button,
        })])
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
        if not path.is_file():
            raise StoreError(f"{path}: no such series log")
        lock = _writer_lock(path)
        try:
            try:
                connection = _connect(path)
            except sqlite3.DatabaseError as exc:
                raise _database_error(path, exc) from None
            try:
                records = _read_checked(connection, path)
                store = cls._replay(path, connection, lock, records, seal, deck_source)
            except sqlite3.DatabaseError as exc:
                connection.close()
                raise _database_error(path, exc) from None
            except BaseException:
                connection.close()
                raise
        except BaseException:
            lock.release()
            raise
        return store

    @classmethod
    def _replay(cls, path: Path, connection: sqlite3.Connection, lock: FileLock,
                records: Sequence[Record], seal: SeedSeal | None,
                deck_source: DeckSourceFactory | None = None) -> SeriesStore:
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
        last_chain = connection.execute(
            "SELECT chain FROM log WHERE seq = ?", (records[-1].seq,)).fetchone()[0]
        store = cls(path, connection, lock, series, len(records), last_chain)
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
        if self._end_logged and record.kind != "note":
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
        if series.next_hand() is None:
            raise self._refused(record, "the series had ended")
        if self._hand_body() != record.body:
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
        batch: list[tuple[str, dict[str, Any]]] = [("hand", self._hand_body())]
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

    def request_stop(self) -> None:
        """End the series before the next hand (logged; the hand in progress finishes, G6).

        :raises StoreError: if the store is closed or the write fails.
        """
        self._writable()
        if not self.series.stop_requested and not self.series.is_over:
            self.series.request_stop()
            self._append([("stop", {})])

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
        self._append([("note", body)])
        record = Record(self._records, "note", body)
        self.notes.append(record)
        return record

    def probe(self) -> None:
        """Check that the log can be written now: its file is still there, and a write that
        changes nothing (``UPDATE meta SET value = value``) commits.

        :raises StoreUnavailableError: while another program holds the lock or the disk is full.
        :raises StoreError: if the store is closed or the file vanished.
        """
        connection = self._writable()
        self._identity.check()
        try:
            connection.execute("BEGIN IMMEDIATE")
            connection.execute("UPDATE meta SET value = value WHERE key = 'format'")
            connection.execute("COMMIT")
        except sqlite3.Error as exc:
            if connection.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    connection.execute("ROLLBACK")
            raise store_error(f"{self.path}: the series log cannot be written", exc) from None

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
        if self._connection is not None:
            self._connection.close()
            self._connection = None
        self._lock.release()

    def __enter__(self) -> SeriesStore:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

    # --- internals ----------------------------------------------------------------------------

    def _writable(self) -> sqlite3.Connection:
        if self._connection is None:
            raise StoreError(f"{self.path}: the series store is closed")
        return self._connection

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

    def _hand_body(self) -> dict[str, Any]:
        series = self.series
        seating = series.seating
        assert seating is not None
        return {
            "hand": series.hand_number,
            **({} if self._sealed else {"seed": str(series.hand_seed)}),
            "button": seating.button,
            "small_blind": seating.small_blind,
            "big_blind": seating.big_blind,
            "order": list(seating.order),
            "stacks_before": _seat_map(series.stacks_before),
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

    def _append(self, batch: Sequence[tuple[str, Mapping[str, Any]]],
                prelude: Sequence[str] = ()) -> None:
        """Append *batch* in one transaction (after the *prelude* statements), committed
        (fsync'd) before returning.

        :raises StoreError: if the write fails; the store is closed then, because the series
            in memory is ahead of the log (resume from the log with :meth:`open`).
        """
        connection = self._writable()
        chain, count = self._chain, self._records
        rows = []
        for kind, body in batch:
            count += 1
            text = json.dumps(body, separators=(",", ":"), sort_keys=True)
            chain = _chain(chain, count, kind, text)
            rows.append((count, kind, text, chain))
        try:
            connection.execute("BEGIN IMMEDIATE")
            for statement in prelude:
                connection.execute(statement)
            connection.executemany("INSERT INTO log VALUES (?, ?, ?, ?)", rows)
            connection.execute("UPDATE meta SET value = ? WHERE key = 'records'", (str(count),))
            self._identity.check()  # a deleted log would take writes no one can read back
            connection.execute("COMMIT")
        except (sqlite3.Error, StoreError) as exc:
            if connection.in_transaction:
                with contextlib.suppress(sqlite3.Error):  # SQLite may have rolled back
                    connection.execute("ROLLBACK")
            self.close()
            if isinstance(exc, StoreError):
                raise
            raise store_error(f"{self.path}: cannot write to the series log; the store is "
                              f"closed, open it again to resume", exc) from None
        self._chain, self._records = chain, count



# How each kind of record after the first is replayed (:meth:`SeriesStore._apply`).
_REPLAYERS: dict[str, Callable[[SeriesStore, Record], None]] = {
    "hand": SeriesStore._replay_hand,
    "action": SeriesStore._replay_action,
    "hand_end": SeriesStore._replay_hand_end,
    "stop": SeriesStore._replay_stop,
    "note": SeriesStore._replay_note,
    "series_end": SeriesStore._replay_series_end,
}


# --- hand histories ----------------------------------------------------------------------------


def played_hand(series: Series, number: int | None = None) -> tuple[int, Hand, Seating]:
    """Hand *number* of *series* (default: the current or last hand): its number, the hand
    and its seating.

    :raises KeyError: if hand *number* has not been dealt.
    """
    current = series.hand_number
    if number is None or number == current:
        if series.hand is None or series.seating is None:
            raise KeyError("no hand has been dealt yet")
        return current, series.hand, series.seating
    summary = next((s for s in series.summaries if s.number == number), None)
    if summary is None:
        raise KeyError(f"hand {number} has not been dealt (hands 1..{current})")
    return number, summary.hand, summary.seating


def series_hand_record(series: Series, number: int | None = None, *,
                       visible_to: Visible = None) -> HandRecord:
    """Hand *number* of *series* (default: the current or last hand) as a PHH record, with
    every hole card or only those of *visible_to* (see :func:`~feltro.history.record_of`).

    :raises KeyError: if hand *number* has not been dealt.
    :raises HistoryError: for a pot-limit series (see :func:`~feltro.history.record.stakes_of`).
    """
    number, hand, seating = played_hand(series, number)
    config = series.config
    return seated_record(hand, seating.order, seating.button, config.players,
                         hand_number=number, seat_count=config.seat_count,
                         visible_to=visible_to)
