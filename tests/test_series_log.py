"""The durable series log: resume, commit-before-return, one writer, damaged logs, PHH export."""



from __future__ import annotations

import json
import random
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from feltro.actions import Action, Fold, Raise
from feltro.cards import Deck
from feltro.errors import HistoryError, IllegalActionError, StoreError
from feltro.events import HoleCardDealt
from feltro.hand import Structure
from feltro.history import dumps, loads, replay
from feltro.series import Series, SeriesConfig
from feltro.series_log import SeriesStore, read_records, series_hand_record
from feltro.sqlitelog import chain_link as _chain

CONFIG = SeriesConfig(players={1: "Ana", 3: "Rui", 4: "Zé", 7: "Inês"}, seat_count=8,
                      starting_stack=100)


def _step(store: SeriesStore, rng: random.Random) -> bool:
    """One move: deal a hand or act with a random legal action. False once the series is over."""
    series = store.series
    hand = series.hand
    if hand is None or hand.is_over:
        return store.next_hand() is not None
    legal = hand.legal
    choices: list[Action] = [legal.passive]
    weights = [8.0]
    if legal.call_amount:  # facing a bet: fold more often the bigger it is
        choices.append(Fold())
        weights.append(2.0 if legal.call_amount < 20 else 30.0)
    if legal.min_raise_to is not None and legal.max_raise_to is not None:
        choices += [Raise(legal.min_raise_to), Raise(legal.max_raise_to)]
        weights += [2, 0.3]
    store.act(rng.choices(choices, weights)[0])
    return True


def _snapshot(series: Series) -> dict[str, Any]:
    hand = series.hand
    return {
        "hand_number": series.hand_number,
        "to_act": series.to_act,
        "stacks": dict(series.stacks),
        "seating": series.seating,
        "events": hand.events if hand else None,
        "legal": hand.legal if hand else None,
        "outcome": series.outcome,
        "standings": series.standings(),
    }


def _new(path: Path, seed: int = 1, config: SeriesConfig = CONFIG) -> SeriesStore:
    return SeriesStore.create(path, config, random.Random(seed))


# --- resume ------------------------------------------------------------------------------------


def test_resume_mid_hand_gives_the_same_hand_cards_stacks_and_player_to_act(
        tmp_path: Path) -> None:
    rng = random.Random(3)
    path = tmp_path / "series.db"
    resumed_mid_hand = 0
    with _new(path) as store:
        pass
    for _ in range(25):  # close and reopen after a random number of moves, 25 times
        with SeriesStore.open(path) as store:
            for _ in range(rng.randrange(1, 15)):
                if not _step(store, rng):
                    break
            before = _snapshot(store.series)
        with SeriesStore.open(path) as again:
            assert _snapshot(again.series) == before
            resumed_mid_hand += again.series.in_hand
    assert resumed_mid_hand >= 10


def test_resume_continues_with_the_same_cards__D1(tmp_path: Path) -> None:
    """The deck of every hand comes from the stored series seed, so a resumed series deals
    exactly what an uninterrupted one deals."""
    path = tmp_path / "series.db"
    reference = Series(CONFIG, 12345)
    with SeriesStore.create(path, CONFIG, series_seed=12345) as store:
        for _ in range(3):
            assert store.next_hand() is not None
            assert reference.next_hand() is not None
            while store.series.in_hand:
                action = store.series.hand.legal.passive  # type: ignore[union-attr]
                store.act(action)
                reference.act(action)
    with SeriesStore.open(path) as store:
        for _ in range(3):
            assert store.next_hand() is not None
            assert reference.next_hand() is not None
            assert store.series.hand.events == reference.hand.events  # type: ignore[union-attr]
            while store.series.in_hand:
                action = store.series.hand.legal.passive  # type: ignore[union-attr]
                store.act(action)
                reference.act(action)


def test_each_hand_record_stores_its_shuffle_seed__D1_D2(tmp_path: Path) -> None:
    path = tmp_path / "series.db"
    rng = random.Random(5)
    with _new(path, 5) as store:
        while store.series.hand_number < 6 and _step(store, rng):
            pass
        hands = {s.number: s.hand for s in store.series.summaries}
    records = read_records(path)
    head = records[0].body
    assert head["button"] in (1, 3, 4, 7)                       # D2: the draw is recorded
    assert set(head["button_draw"]) == {"1", "3", "4", "7"}
    for record in records:
        if record.kind == "hand" and record.body["hand"] in hands:
            deck = Deck.shuffled(random.Random(int(record.body["seed"])))
            dealt = [e.card for e in hands[record.body["hand"]].events
                     if isinstance(e, HoleCardDealt)]
            assert dealt == list(deck[:len(dealt)])


def test_every_change_is_committed_before_it_is_returned(tmp_path: Path) -> None:
    path = tmp_path / "series.db"
    rng = random.Random(8)
    with _new(path, 8) as store:
        for _ in range(60):
            if not _step(store, rng):
                break
            # Another connection (as after a crash) already sees the change.
            records = read_records(path)
            last_hand = [r for r in records if r.kind == "hand"][-1]
            assert last_hand.body["hand"] == store.series.hand_number
            actions = [r for r in records if r.kind == "action"
                       and r.body["hand"] == store.series.hand_number]
            assert [(r.body["seat"], r.body["action"]) for r in actions] == \
                store.hand_actions(store.series.hand_number)


def test_an_illegal_action_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "series.db"
    with _new(path) as store:
        store.next_hand()
        count = len(read_records(path))
        with pytest.raises(IllegalActionError):
            store.act(Raise(1))
        assert len(read_records(path)) == count


def test_stop_and_end_are_logged_and_replayed__G6(tmp_path: Path) -> None:
    path = tmp_path / "series.db"
    rng = random.Random(2)
    with _new(path, 2) as store:
        store.next_hand()
        store.request_stop()
        while store.series.in_hand:
            _step(store, rng)
        assert store.next_hand() is None
        outcome = store.series.outcome
    kinds = [r.kind for r in read_records(path)]
    assert "stop" in kinds
    assert kinds[-1] == "series_end"
    count = len(kinds)
    with SeriesStore.open(path) as store:
        assert store.series.outcome == outcome
        assert store.next_hand() is None                # nothing more is written
    assert len(read_records(path)) == count


def test_freezeout_to_the_end_then_resume_is_over__G4(tmp_path: Path) -> None:
    path = tmp_path / "series.db"
    rng = random.Random(4)
    with _new(path, 4) as store:
        while _step(store, rng):
            pass
        outcome = store.series.outcome
    assert outcome is not None
    assert read_records(path)[-1].body["winners"] == list(outcome.winners)
    with SeriesStore.open(path) as store:
        assert store.series.outcome == outcome
        assert store.series.is_over


# --- one writer -------------------------------------------------------------------------------


def test_a_second_writer_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "series.db"
    with _new(path):
        with pytest.raises(StoreError, match="already open for writing"):
            SeriesStore.open(path)
        code = ("import sys\nfrom feltro.series_log import SeriesStore\n"
                "try:\n    SeriesStore.open(sys.argv[1])\n"
                "except Exception as e:\n    print(type(e).__name__, e)\n")
        other = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True,
                               text=True, check=True, timeout=60)
        assert other.stdout.startswith("StoreError")
        assert "already open for writing" in other.stdout
    with SeriesStore.open(path):  # closed: the lock is free again
        pass


def test_reading_needs_no_lock(tmp_path: Path) -> None:
    path = tmp_path / "series.db"
    with _new(path) as store:
        store.next_hand()
        assert [r.kind for r in read_records(path)][:2] == ["series", "hand"]


# --- bad logs: a clear error naming the record, no partial resume, no damage --------------------


def _rows(path: Path) -> list[tuple[int, str, str, str]]:
    with sqlite3.connect(path) as connection:
        return connection.execute("SELECT seq, kind, body, chain FROM log ORDER BY seq").fetchall()


def _played(tmp_path: Path, moves: int = 80) -> Path:
    path = tmp_path / "series.db"
    rng = random.Random(6)
    with _new(path, 6) as store:
        for _ in range(moves):
            if not _step(store, rng):
                break
    return path


def _open_fails(path: Path, match: str, *, by_the_rules: bool = False) -> None:
    before = path.read_bytes()
    with pytest.raises(StoreError, match=match):
        SeriesStore.open(path)
    assert path.read_bytes() == before                  # nothing written
    if not by_the_rules:  # read_records checks integrity; only a replay applies the rules
        with pytest.raises(StoreError, match=match):
            read_records(path)


def test_a_changed_record_is_named(tmp_path: Path) -> None:
    path = _played(tmp_path)
    seq = next(seq for seq, kind, _, _ in _rows(path) if kind == "action" and seq > 10)
    with sqlite3.connect(path) as connection:
        body = connection.execute("SELECT body FROM log WHERE seq = ?", (seq,)).fetchone()[0]
        connection.execute("UPDATE log SET body = ? WHERE seq = ?",
                           (body.replace('"seat":', '"seat": '), seq))
    _open_fails(path, f"record {seq} \\(action\\) is corrupted")


def test_a_missing_record_is_named(tmp_path: Path) -> None:
    path = _played(tmp_path)
    with sqlite3.connect(path) as connection:
        connection.execute("DELETE FROM log WHERE seq = 12")
    _open_fails(path, "record 12 is missing")


def test_a_cut_tail_is_refused(tmp_path: Path) -> None:
    path = _played(tmp_path)
    count = len(_rows(path))
    with sqlite3.connect(path) as connection:
        connection.execute("DELETE FROM log WHERE seq > ?", (count - 3,))
    _open_fails(path, f"truncated: it should hold {count} records but holds {count - 3}")


def test_a_truncated_file_is_refused(tmp_path: Path) -> None:
    path = _played(tmp_path, 300)
    data = path.read_bytes()
    assert len(data) > 8192
    path.write_bytes(data[: len(data) // 2])
    _open_fails(path, "damaged or truncated")


def _rewrite(path: Path, seq: int, body: dict[str, Any]) -> None:
    """Replace record *seq* with a well-formed one (checksums recomputed): only the rules can
    tell it is wrong."""
    rows = _rows(path)
    previous = rows[seq - 2][3] if seq > 1 else "0" * 64
    with sqlite3.connect(path) as connection:
        for number, kind, text, _ in rows[seq - 1:]:
            if number == seq:
                text = json.dumps(body, separators=(",", ":"), sort_keys=True)
            previous = _chain(previous, number, kind, text)
            connection.execute("UPDATE log SET body = ?, chain = ? WHERE seq = ?",
                               (text, previous, number))


def test_a_record_the_rules_refuse_is_named(tmp_path: Path) -> None:
    path = _played(tmp_path)
    rows = _rows(path)
    seq, _, text, _ = next(r for r in rows if r[1] == "action" and r[0] > 10)
    body = json.loads(text)
    body["action"] = "r 1"                      # below the minimum raise
    _rewrite(path, seq, body)
    _open_fails(path, f"record {seq} \\(action\\) cannot be replayed: .*B6", by_the_rules=True)


def test_a_result_that_does_not_match_the_replay_is_named(tmp_path: Path) -> None:
    path = _played(tmp_path)
    rows = _rows(path)
    seq, _, text, _ = next(r for r in rows if r[1] == "hand_end")
    body = json.loads(text)
    first = next(iter(body["stacks_after"]))
    body["stacks_after"][first] += 1
    _rewrite(path, seq, body)
    _open_fails(path, f"record {seq} \\(hand_end\\): the result does not match",
                by_the_rules=True)


def test_not_a_series_log(tmp_path: Path) -> None:
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not sqlite at all" * 100)
    _open_fails(junk, "not a feltro series log")
    with pytest.raises(StoreError, match="no such series log"):
        SeriesStore.open(tmp_path / "missing.db")


def test_create_never_overwrites(tmp_path: Path) -> None:
    path = _played(tmp_path, 10)
    before = path.read_bytes()
    with pytest.raises(StoreError, match="already there"):
        _new(path)
    assert path.read_bytes() == before


def test_a_closed_store_refuses_to_write(tmp_path: Path) -> None:
    store = _new(tmp_path / "series.db")
    store.close()
    store.close()  # idempotent
    with pytest.raises(StoreError, match="closed"):
        store.next_hand()


# --- PHH export ------------------------------------------------------------------------------


def test_every_hand_exports_as_phh_that_replays_to_the_same_stacks__D8() -> None:
    """Independent check through feltro.history: each exported hand, read back and replayed
    by the PHH reader, ends with the stacks the series recorded."""
    dead_buttons = 0
    config = SeriesConfig(players={2: "Ana", 3: "Rui", 5: "Zé", 6: "Inês", 8: "Bea"},
                          seat_count=9, starting_stack=30)
    for seed in range(8):
        series = Series.start(config, random.Random(seed))
        rng = random.Random(seed)
        while series.next_hand() is not None:
            while series.in_hand:
                legal = series.hand.legal  # type: ignore[union-attr]
                choices: list[Action] = [legal.passive, Fold()]
                if legal.max_raise_to is not None:
                    choices.append(Raise(legal.max_raise_to))
                series.act(rng.choice(choices))
        for summary in series.summaries:
            record = loads(dumps(series_hand_record(series, summary.number)), strict=True)
            assert record.hand == summary.number
            assert record.seats == summary.seating.order
            assert record.seat_count == 9
            assert record.players == tuple(config.players[s] for s in summary.seating.order)
            assert record.user_fields["_button_seat"] == summary.seating.button
            dead_buttons += summary.seating.button not in summary.seating.order
            outcome = replay(record)
            assert outcome.finishing_stacks == summary.result.stacks
            assert record.finishing_stacks == summary.result.stacks
    assert dead_buttons > 0


def test_export_of_a_hand_in_progress_and_unknown_hands(tmp_path: Path) -> None:
    with _new(tmp_path / "series.db") as store:
        with pytest.raises(KeyError):
            store.export_phh()
        store.next_hand()
        record = store.export_phh()
        assert record.finishing_stacks is None
        assert sum(1 for a in record.actions if a.startswith("d dh")) == 8
        with pytest.raises(KeyError, match="hand 5"):
            store.export_phh(5)
        while store.series.in_hand:
            store.act(store.series.hand.legal.passive)  # type: ignore[union-attr]
        finished = store.export_phh(1)
        assert finished.finishing_stacks == replay(finished).finishing_stacks


def test_application_notes_are_logged_in_order_and_replayed(tmp_path: Path) -> None:
    path = tmp_path / "series.db"
    with _new(path) as store:
        store.note("host", {"action": "pause"})
        store.next_hand()
        store.note("away", {"seat": 3})
        with pytest.raises(StoreError, match="not JSON"):
            store.note("bad", {"when": object()})
        with pytest.raises(StoreError, match="label"):
            store.note("")
        written = [(n.seq, n.body) for n in store.notes]
    kinds = [r.kind for r in read_records(path)]
    assert kinds[:4] == ["series", "note", "hand", "note"]
    with SeriesStore.open(path) as store:
        assert [(n.seq, n.body) for n in store.notes] == written
        assert store.series.in_hand


@pytest.mark.parametrize("structure", [Structure.FIXED_LIMIT, Structure.NO_LIMIT])
def test_structures_export_as_their_phh_variant__B10(structure: Structure) -> None:
    config = SeriesConfig.with_players(3, starting_stack=40, structure=structure)
    series = Series.start(config, random.Random(3))
    rng = random.Random(3)
    while series.next_hand() is not None:
        while series.in_hand:
            legal = series.hand.legal  # type: ignore[union-attr]
            options: list[Action] = [legal.passive]
            if legal.min_raise_to is not None:
                options.append(Raise(legal.min_raise_to))
            series.act(rng.choice(options))
    for summary in series.summaries:
        record = loads(dumps(series_hand_record(series, summary.number)), strict=True)
        assert record.variant == ("FT" if structure is Structure.FIXED_LIMIT else "NT")
        assert replay(record).finishing_stacks == summary.result.stacks


def test_pot_limit_has_no_phh_variant() -> None:
    config = SeriesConfig.with_players(3, structure=Structure.POT_LIMIT)
    series = Series.start(config, random.Random(1))
    series.next_hand()
    with pytest.raises(HistoryError, match="pot-limit"):
        series_hand_record(series)


def test_a_series_stopped_by_the_clock_resumes_as_stopped__G6(tmp_path: Path) -> None:
    start = datetime(2025, 5, 1, 21, 0, tzinfo=UTC)
    config = SeriesConfig.with_players(3, stop_at=start + timedelta(hours=1))
    path = tmp_path / "series.db"
    with SeriesStore.create(path, config, random.Random(1)) as store:
        assert store.next_hand(start) is not None
        while store.series.in_hand:
            store.act(store.series.hand.legal.passive)  # type: ignore[union-attr]
        assert store.next_hand(start + timedelta(hours=2)) is None
        outcome = store.series.outcome
    assert outcome is not None
    with SeriesStore.open(path) as store:
        assert store.series.outcome == outcome
        assert store.series.hand_number == 1
