"""Seasons (``docs/seasons.md``): a night's facts from a finished series, the standings over
nights, the durable season log (restarts, ``kill -9``, damage), the seasons folder and CSV."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import MappingProxyType

import pytest

from feltro.cards import Deck
from feltro.cli.simulate import play_bots
from feltro.hand import Hand, HandConfig
from feltro.season import (
    Night,
    NightPlayer,
    Season,
    SeasonError,
    add_night,
    add_player,
    find_season,
    list_seasons,
    new_season,
    night_of,
    parse_points,
    read_season,
    remove_night,
    season_csv,
    set_points,
    slug_of,
    standings,
)
from feltro.season.night import collected_of, knockouts_of
from feltro.seating import first_seating
from feltro.series import HandSummary, Series, SeriesConfig

# --- a night's facts ---------------------------------------------------------------------------


def _summary(stacks: list[int], holes: list[str], board: str) -> HandSummary:
    """One hand of seats 1, 2, 3 (seat 3 on the button) where seat 3 moves all in and both
    others call all-in (or call, when covered), dealt *holes* and *board*."""
    seating = first_seating((1, 2, 3), 3)
    assert seating.order == (1, 2, 3)
    hand = Hand.start(HandConfig.standard(stacks), Deck.for_deal(holes, board=board))
    hand.apply(f"raise {stacks[2]}")
    while not hand.is_over:
        hand.apply("call")
    result = hand.result()
    after = dict(zip((1, 2, 3), result.stacks, strict=True))
    return HandSummary(1, 0, seating, MappingProxyType(dict(zip((1, 2, 3), stacks, strict=True))),
                       MappingProxyType(after), tuple(s for s in (1, 2, 3) if after[s] == 0),
                       result, hand)


def test_the_knockout_goes_to_the_winner_of_the_last_pot_the_busted_could_win__P1_X2() -> None:
    # X2: A all-in 20, B all-in 50, C 80; A best, C second: A takes the main pot, C the side
    # pot, which held B's last chips: C knocked B out, not A.
    summary = _summary([20, 50, 80], ["AsAh", "7c2d", "KsKh"], "Qd 9s 4c 3h 8d")
    assert [pot.amount for pot in summary.result.pots] == [60, 60]
    assert summary.eliminated == (2,)
    assert knockouts_of(summary) == [(3, 2)]
    assert collected_of(summary) == {1: 60, 3: 60}  # C's 30 returned uncalled is not won (B7)


def test_a_split_pot_credits_each_winner_with_the_knockout__P7() -> None:
    summary = _summary([20, 80, 80], ["7c2d", "AsKs", "AhKh"], "Ts Jd Qh 2c 3s")
    assert summary.eliminated == (1,)
    assert sorted(knockouts_of(summary)) == [(2, 1), (3, 1)]


def _bot_series(seed: int, stack: int = 30) -> Series:
    config = SeriesConfig(players={1: "Ana", 2: "Rui", 3: "Eva", 4: "Bot"}, seat_count=4,
                          starting_stack=stack)
    series = Series(config, seed)
    play_bots(series, {1: "rules", 2: "random", 3: "montecarlo", 4: "random"})
    return series


def test_a_night_counts_every_hand_and_bust_of_its_series__G4() -> None:
    series = _bot_series(3)
    night = night_of(series, key="terminal:x", label="x", date="2026-01-09", bots={4})
    by_seat = {p.seat: p for p in night.players}
    assert night.hands == len(series.summaries)
    assert by_seat[4].bot
    assert not by_seat[1].bot
    for seat in (1, 2, 3, 4):
        assert by_seat[seat].hands == sum(seat in s.seating.order for s in series.summaries)
    # Every bust is somebody's knock-out (no pot is split in this series).
    busts = sum(len(s.eliminated) for s in series.summaries)
    assert sum(len(p.knockouts) for p in night.players) == busts == 3
    assert sorted(p.place for p in night.players) == [1, 2, 3, 4]
    assert {p.place for p in night.players if p.seat in series.outcome.winners} == {1}


def test_a_night_needs_a_finished_series() -> None:
    series = Series(SeriesConfig.with_players(2), 1)
    series.next_hand()
    with pytest.raises(SeasonError) as refused:
        night_of(series, key="k", label="tonight", date="2026-01-09")
    assert refused.value.reason == "not-over"
    assert refused.value.params == {"series": "tonight"}


# --- standings ---------------------------------------------------------------------------------


def _night(key: str, date: str, *places: tuple[str, int], bots: tuple[str, ...] = ()) -> Night:
    players = tuple(NightPlayer(name, seat, name in bots, place, 10, 5 * seat, ())
                    for seat, (name, place) in enumerate(places, 1))
    return Night(key, key, date, 10, "last_player", players)


def test_points_per_place_and_shared_places_share_the_better_points__G4_G6() -> None:
    season = Season("Fridays", ("Ana", "Rui", "Eva", "Zé"), (10, 6, 4))
    nights = [
        _night("a", "2026-01-02", ("Ana", 1), ("Rui", 2), ("Eva", 3), ("Zé", 4)),
        _night("b", "2026-01-09", ("Rui", 1), ("Eva", 1), ("Ana", 3)),  # co-winners (G6)
    ]
    lines = {line.name: line for line in standings(season, nights)}
    assert (lines["Ana"].points, lines["Rui"].points, lines["Eva"].points) == (14, 16, 14)
    assert (lines["Rui"].wins, lines["Eva"].wins, lines["Ana"].wins) == (1, 1, 1)
    assert lines["Zé"].points == 0
    assert lines["Zé"].series == 1
    assert lines["Rui"].place == 1
    assert lines["Ana"].place == lines["Eva"].place == 2  # equal points and wins share
    assert lines["Zé"].place == 4
    assert lines["Eva"].places == (3, 1)


def test_names_match_as_seats_do_and_bots_and_guests_never_count() -> None:
    season = Season("Fridays", ("Ana", "Rui"))
    night = _night("a", "2026-01-02", ("Guest", 1), ("ＡＮＡ", 2), ("Rui", 3),
                   bots=("Rui",))
    lines = {line.name: line for line in standings(season, [night])}
    assert lines["Ana"].points == 7
    assert lines["Ana"].places == (2,)
    assert lines["Rui"].series == 0  # the bot called Rui is not Rui
    assert "Guest" not in lines


@pytest.mark.parametrize(("players", "points", "reason"), [
    (("Ana",), "10", "too-few-players"),
    (("Ana", "ana "), "10", "same-player"),
    (("Ana", "\u200bRui"), "10", "bad-name"),
    (("Ana", "R" * 25), "10", "name-too-long"),
    (("Ana", "Rui"), "5,7", "points-order"),
    (("Ana", "Rui"), "10,x", "bad-points"),
    (("Ana", "Rui"), "", "bad-points"),
    (("Ana", "Rui"), "10,9,8,7,6,5,4,3,2,1,0", "too-many-points"),
    (("Ana", "Rui"), "1001", "bad-points"),
])
def test_a_bad_season_is_refused_with_its_reason(players: tuple[str, ...], points: str,
                                                 reason: str) -> None:
    with pytest.raises(SeasonError) as refused:
        Season("Fridays", players, parse_points(points))
    assert refused.value.reason == reason


# --- the log -----------------------------------------------------------------------------------


def test_the_log_keeps_every_change_and_reads_it_back(tmp_path: Path) -> None:
    book = new_season(tmp_path, Season("Sextas à noite", ("Ana", "Rui")))
    assert book.slug == "sextas-a-noite"
    assert slug_of("!!") == "season"
    path = find_season(tmp_path, "SEXTAS À NOITE")
    assert path == find_season(tmp_path, "sextas-a-noite") == book.path
    first = _night("server:t1", "2026-01-09", ("Ana", 1), ("Rui", 2))
    early = _night("terminal:x", "2026-01-02", ("Rui", 1), ("Ana", 2))
    add_night(path, first)
    add_night(path, early)
    add_player(path, "Eva")
    set_points(path, "3,2,1")
    book = read_season(path)
    assert [n.key for n in book.nights] == ["terminal:x", "server:t1"]  # by date
    assert book.season.players == ("Ana", "Rui", "Eva")
    assert book.season.points == (3, 2, 1)
    assert book.night("server:t1") == first
    assert remove_night(path, "terminal:x").joined == (first,)
    for change, reason in [(lambda: add_night(path, first), "night-exists"),
                           (lambda: remove_night(path, "nope"), "no-night"),
                           (lambda: add_player(path, "ana"), "player-exists"),
                           (lambda: add_night(path, _night("o", "2026-01-01", ("Zé", 1))),
                            "no-members"),
                           (lambda: new_season(tmp_path, Season("sextas à NOITE", ("A", "B"))),
                            "season-exists"),
                           (lambda: find_season(tmp_path, "nope"), "no-season")]:
        with pytest.raises(SeasonError) as refused:
            change()
        assert refused.value.reason == reason
    assert read_season(path).joined == (first,)  # refusals changed nothing


def test_a_damaged_or_foreign_file_is_named_not_read(tmp_path: Path) -> None:
    book = new_season(tmp_path, Season("Fridays", ("Ana", "Rui")))
    add_night(book.path, _night("a", "2026-01-02", ("Ana", 1), ("Rui", 2)))
    data = book.path.read_bytes()
    book.path.write_bytes(data.replace(b'"Rui"', b'"Ruy"', 1))  # no longer its checksum
    with pytest.raises(SeasonError) as refused:
        read_season(book.path)
    assert refused.value.reason == "damaged"
    with pytest.raises(SeasonError) as refused:
        add_player(book.path, "Eva")
    assert refused.value.reason == "damaged"
    (tmp_path / "junk.season.sqlite").write_bytes(b"not a database" * 50)
    entries = {e.slug: e for e in list_seasons(tmp_path)}
    assert entries["junk"].problem is not None
    assert entries["junk"].problem.reason == "damaged"


def test_a_damaged_page_under_the_query_is_a_store_error_not_a_crash(tmp_path: Path) -> None:
    # Negative control: on sqlitelog before this change the query itself raised
    # sqlite3.DatabaseError ("database disk image is malformed"), which no caller catches.
    book = new_season(tmp_path, Season("Fridays", ("Ana", "Rui")))
    data = bytearray(book.path.read_bytes())
    data[-200:] = random.Random(1).randbytes(200)
    book.path.write_bytes(bytes(data))
    with pytest.raises(SeasonError) as refused:
        read_season(book.path)
    assert refused.value.reason == "damaged"


_WRITER = """
import sys
from pathlib import Path
from feltro.season import Night, NightPlayer, add_night
path = Path(sys.argv[1])
for n in range(10_000):
    add_night(path, Night(f"terminal:{n}", str(n), "2026-01-02", 1, "last_player",
                          (NightPlayer("Ana", 1, False, 1, 1, 3, ()),)))
    print(n, flush=True)
"""


def test_every_acknowledged_change_survives_kill_9(tmp_path: Path) -> None:
    book = new_season(tmp_path, Season("Fridays", ("Ana", "Rui")))
    writer = subprocess.Popen([sys.executable, "-c", _WRITER, str(book.path)],
                              stdout=subprocess.PIPE, text=True)
    assert writer.stdout is not None
    acknowledged = -1
    deadline = time.monotonic() + 60
    while acknowledged < 15 and time.monotonic() < deadline:
        acknowledged = int(writer.stdout.readline())
    os.kill(writer.pid, signal.SIGKILL)
    writer.wait()
    after = read_season(book.path)  # whole: never a half change
    assert len(after.joined) >= acknowledged + 1
    assert [n.key for n in after.joined] == [f"terminal:{n}" for n in range(len(after.joined))]
    add_player(book.path, "Eva")  # the lock died with the writer


# --- CSV ---------------------------------------------------------------------------------------


def test_csv_has_one_line_per_player_and_a_column_per_night(tmp_path: Path) -> None:
    book = new_season(tmp_path, Season("Fridays", ("Ana", "@Rui")))
    add_night(book.path, _night("a", "2026-01-02", ("Ana", 1), ("@Rui", 2)))
    text = season_csv(read_season(book.path))
    assert text.splitlines() == [
        "place,player,points,series,wins,hands,biggest_pot,knockouts,2026-01-02 a",
        "1,Ana,10,1,1,10,5,0,1",
        "2,'@Rui,7,1,0,10,10,0,2",
    ]


def test_a_writer_waits_for_another_then_says_busy(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from feltro.filelock import FileLock
    from feltro.season import log

    book = new_season(tmp_path, Season("Fridays", ("Ana", "Rui")))
    monkeypatch.setattr(log, "LOCK_WAIT", 0.2)
    held = FileLock(book.path.with_name(book.path.name + ".lock"), str)
    try:
        with pytest.raises(SeasonError) as refused:
            add_player(book.path, "Eva")
        assert refused.value.reason == "busy"
    finally:
        held.release()
    assert add_player(book.path, "Eva").season.players[-1] == "Eva"


def test_a_folder_that_cannot_be_written_is_said(tmp_path: Path) -> None:
    book = new_season(tmp_path, Season("Fridays", ("Ana", "Rui")))
    lock = book.path.with_name(book.path.name + ".lock")
    lock.unlink()
    lock.mkdir()  # the lock file cannot be opened
    with pytest.raises(SeasonError) as refused:
        add_player(book.path, "Eva")
    assert refused.value.reason == "unavailable"


# --- every refusal has its words ---------------------------------------------------------------


def _season_errors(source: str) -> list[tuple[str, set[str]]]:
    """``(reason, keyword names)`` of every ``SeasonError("reason", ..., k=...)`` in *source*."""
    import ast

    found = []
    for node in ast.walk(ast.parse(source)):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id == "SeasonError" and node.args
                and isinstance(node.args[0], ast.Constant)):
            found.append((str(node.args[0].value), {k.arg for k in node.keywords if k.arg}))
    return found


def test_every_season_error_is_worded_in_every_language() -> None:
    from feltro.i18n import LANGUAGES, catalogue, placeholders

    src = Path(__file__).resolve().parents[1] / "src" / "feltro"
    raised = [error for path in src.rglob("*.py")
              for error in _season_errors(path.read_text(encoding="utf-8"))]
    assert len({reason for reason, _ in raised}) >= 25
    for lang in LANGUAGES:
        words = catalogue(lang)
        for reason, given in raised:
            key = f"season.error.{reason}"
            assert key in words, (lang, key)
            assert placeholders(words[key]) <= given, (lang, key, given)
    # Negative control: a refusal without words, or missing a value its words need.
    assert _season_errors('SeasonError("nope", "x", name=1)') == [("nope", {"name"})]
    assert "season.error.nope" not in catalogue("en")
    assert placeholders(catalogue("en")["season.error.csv-path"]) - {"path"} == {"problem"}
