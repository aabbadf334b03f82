"""``feltro season`` (issue 25, "Checked"): a season of five series of the terminal game, its
standings checked against counts made independently from the series' hand histories (PHH),
the chart on screen, CSV, and every bad input one line in the chosen language."""

from __future__ import annotations

import csv
import io
import re
import shutil
from collections import defaultdict
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from feltro.cli.simulate import play_bots
from feltro.filelock import FileLock
from feltro.history import replay
from feltro.i18n import LANGUAGES, catalogue
from feltro.series import SeriesConfig
from feltro.series_log import SeriesStore, series_hand_record
from feltro.session import Player
from feltro.tui.datadir import SeriesFolder, new_series_folder
from playkit import english_data_folder, run_cli

GROUP = ("Ana", "Rui", "Eva", "Zé", "Tó")
PEOPLE = ("Ana", "Rui", "Eva", "Zé")
POINTS = (10, 7, 5, 3, 2, 1)


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return english_data_folder(tmp_path, monkeypatch)


def play_series(root: Path, day: int, seed: int, *, finish: bool = True) -> SeriesFolder:
    """A series of the terminal game as ``feltro play`` keeps it: four people (played by bots
    here) and a bot, every finished hand saved as PHH."""
    folder = new_series_folder(root, datetime(2026, 1, 2) + timedelta(days=day))
    seats = [Player(i, name) for i, name in enumerate(PEOPLE, 1)] + [Player(5, "Bia", "rules")]
    folder.write_players(seats, "en")
    config = SeriesConfig(players={p.seat: p.name for p in seats}, seat_count=5,
                          starting_stack=30, max_hands=None if finish else 1)
    with SeriesStore.create(folder.log, config, series_seed=seed) as store:
        if finish:
            play_bots(store, {1: "rules", 2: "random", 3: "tag", 4: "rules", 5: "random"},
                      on_hand=lambda s: folder.save_hand(
                          s.number, series_hand_record(store.series, s.number)))
        else:
            store.next_hand()
    return folder


def counts_from_phh(folder: SeriesFolder) -> dict[str, dict[str, int]]:
    """Hands, place, knock-outs and biggest pot of each player, from the PHH files alone."""
    facts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    alive: set[str] = set()
    for number in folder.hand_numbers():
        record = folder.load_hand(number)
        assert record.players is not None
        names = record.players
        alive |= set(names)
        outcome = replay(record)
        won: dict[int, int] = defaultdict(int)
        for pot in outcome.pots:
            for position, share in zip(pot.winners, pot.shares, strict=True):
                won[position] += share
        for position, name in enumerate(names):
            facts[name]["hands"] += 1
            facts[name]["biggest_pot"] = max(facts[name]["biggest_pot"], won[position])
        busted = [p for p, chips in enumerate(outcome.finishing_stacks) if chips == 0]
        for position in busted:
            last = [pot for pot in outcome.pots if position in pot.eligible][-1]
            for winner in last.winners:
                facts[names[winner]]["knockouts"] += 1
        alive -= {names[p] for p in busted}
        by_stack = sorted(busted, key=lambda p: -int(record.starting_stacks[p]))
        for rank, position in enumerate(by_stack):
            equal = [q for q in by_stack[:rank]
                     if record.starting_stacks[q] == record.starting_stacks[position]]
            place = facts[names[equal[0]]]["place"] if equal else len(alive) + 1 + rank
            facts[names[position]]["place"] = place
    for winner in alive:  # one, after a whole freezeout (G4)
        facts[winner]["place"] = 1
    return facts


def mismatches(header: list[str], lines: dict[str, dict[str, str]],
               folders: list[SeriesFolder]) -> list[str]:
    """Where the season's CSV lines differ from the counts of the series' PHH files."""
    counted = [counts_from_phh(folder) for folder in folders]
    found = []
    for name in PEOPLE:
        line = lines[name]
        places = [night[name]["place"] for night in counted]
        expected = {
            "Points": sum(POINTS[p - 1] if p <= len(POINTS) else 0 for p in places),
            "Series": len(folders),
            "Wins": places.count(1),
            "Hands": sum(night[name]["hands"] for night in counted),
            "Knock-outs": sum(night[name]["knockouts"] for night in counted),
            "Biggest pot": max(night[name]["biggest_pot"] for night in counted),
            **dict(zip(header[8:], places, strict=True)),
        }
        found += [f"{name} {column}: {line[column]} != {value}"
                  for column, value in expected.items() if int(line[column]) != value]
    return found


def test_a_season_of_five_series_matches_their_hand_histories(
        data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folders = [play_series(data, 7 * n, 100 + n) for n in range(5)]
    code, out, err = run_cli(capsys, "season", "new", "Sextas à noite", "--players",
                          ",".join(GROUP))
    assert code == 0, err
    assert "Sextas à noite" in out
    code, out, err = run_cli(capsys, "season", "add", "sextas à noite",
                          *(f.id for f in reversed(folders)))
    assert code == 0, err
    code, out, err = run_cli(capsys, "season", "show", "sextas-a-noite", "--csv", "-")
    assert code == 0, err
    rows = list(csv.reader(io.StringIO(out)))
    header, lines = rows[0], {row[1]: dict(zip(rows[0], row, strict=True)) for row in rows[1:]}
    assert header[:8] == ["Place", "Player", "Points", "Series", "Wins", "Hands",
                          "Biggest pot", "Knock-outs"]
    assert header[8:] == [f"{f.id[:4]}-{f.id[4:6]}-{f.id[6:8]} {f.id}" for f in folders]
    assert mismatches(header, lines, folders) == []
    # Negative control: the check sees a series that lost its last hand (its last bust).
    last = folders[0].hand_file(folders[0].hand_numbers()[-1])
    text = last.read_text(encoding="utf-8")
    last.unlink()
    assert mismatches(header, lines, folders) != []
    last.write_text(text, encoding="utf-8")
    assert lines["Tó"]["Series"] == "0"  # in the group, never played
    assert "Bia" not in lines  # a bot
    assert sum(int(line["Hands"]) for line in lines.values()) > 100
    ranked = [(int(lines[n]["Points"]), int(lines[n]["Wins"])) for n in lines]
    assert ranked == sorted(ranked, reverse=True)
    # On screen: the standings, the chart (one block per series) and the series.
    code, out, err = run_cli(capsys, "season", "show", "Sextas à noite", "--lang", "pt-PT")
    assert code == 0, err
    assert "Época Sextas à noite" in out
    leader = max(PEOPLE, key=lambda n: (int(lines[n]["Points"]), int(lines[n]["Wins"])))
    bar = next(line for line in out.splitlines() if line.startswith(leader) and "█" in line)
    assert bar.rstrip().endswith(lines[leader]["Points"])
    assert all(f.id in out for f in folders)
    code, out, _err = run_cli(capsys, "season")
    assert "Sextas à noite" in out
    assert leader in out


def test_changes_from_the_terminal(data: Path, capsys: pytest.CaptureFixture[str],
                                   tmp_path: Path) -> None:
    first = play_series(data, 0, 7)
    assert run_cli(capsys, "season", "new", "Fridays", "--players", "Ana,Rui",
                "--points", "3,2,1")[0] == 0
    assert run_cli(capsys, "season", "add", "Fridays", "1")[0] == 0
    code, out, _err = run_cli(capsys, "season", "player", "Fridays", "Eva")
    assert code == 0
    assert "Eva" in out
    code, out, _err = run_cli(capsys, "season", "points", "Fridays", "10,5")
    assert code == 0
    assert "10, 5" in out
    target = tmp_path / "fridays.csv"
    assert run_cli(capsys, "season", "show", "Fridays", "--csv", str(target))[0] == 0
    assert target.read_text(encoding="utf-8").startswith("Place,Player,Points")
    code, out, _err = run_cli(capsys, "season", "remove", "Fridays", first.id)
    assert code == 0
    assert first.id in out
    code, out, _err = run_cli(capsys, "season", "show", "Fridays")
    assert "No series in Fridays yet" in out


BAD: list[tuple[tuple[str, ...], str]] = [
    (("season", "show", "Nope"), "no-season"),
    (("season", "show", "Fridays", "--csv", "/nonexistent/dir/x.csv"), "csv-path"),
    (("season", "new", "Fridays", "--players", "Ana,Rui"), "season-exists"),
    (("season", "new", "Other", "--players", "Ana,ana"), "same-player"),
    (("season", "new", "Other", "--players", "Ana"), "too-few-players"),
    (("season", "new", "Other", "--players", "Ana,Rui", "--points", "5,7"), "points-order"),
    (("season", "new", "\u202e", "--players", "Ana,Rui"), "bad-name"),
    (("season", "add", "Fridays", "NOSERIES"), "no-series"),
    (("season", "add", "Fridays", "UNFINISHED"), "not-over"),
    (("season", "add", "Fridays", "INPLAY"), "series-in-play"),
    (("season", "add", "Fridays", "FINISHED"), "night-exists"),
    (("season", "add", "Damaged", "FINISHED"), "damaged"),
    (("season", "show", "Damaged"), "damaged"),
    (("season", "remove", "Fridays", "9"), "no-night"),
    (("season", "player", "Fridays", "ANA"), "player-exists"),
    (("season", "points", "Fridays", "x"), "bad-points"),
]


@pytest.fixture(scope="module")
def series_made(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """Series of the terminal game, made once: finished, unfinished, and one to hold as being
    played."""
    root = tmp_path_factory.mktemp("made")
    finished = play_series(root, 0, 7)
    unfinished = play_series(root, 1, 8, finish=False)
    playing = play_series(root, 2, 9, finish=False)
    return root, {"NOSERIES": "20990101", "UNFINISHED": unfinished.id, "INPLAY": playing.id,
                  "FINISHED": finished.id}


@pytest.fixture
def prepared(data: Path, series_made: tuple[Path, dict[str, str]],
             capsys: pytest.CaptureFixture[str]) -> dict[str, str]:
    """A season ``Fridays`` holding a finished series, and a damaged season ``Damaged``."""
    root, names = series_made
    shutil.copytree(root, data)
    assert run_cli(capsys, "season", "new", "Fridays", "--players", "Ana,Rui")[0] == 0
    assert run_cli(capsys, "season", "add", "Fridays", names["FINISHED"])[0] == 0
    assert run_cli(capsys, "season", "new", "Damaged", "--players", "Ana,Rui")[0] == 0
    damaged = data / "seasons" / "damaged.season.sqlite"
    damaged.write_bytes(damaged.read_bytes().replace(b"Rui", b"Ruy"))
    return names


def _said(template: str, message: str) -> bool:
    """Whether *message* is *template* with its placeholders filled in."""
    pattern = ".*".join(re.escape(part) for part in re.split(r"\{\w+\}", template))
    return re.fullmatch(pattern, message.strip(), re.DOTALL) is not None


@pytest.mark.parametrize(("args", "reason"), BAD, ids=[" ".join(a) for a, _ in BAD])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_bad_input_is_one_line_in_the_chosen_language(
        args: tuple[str, ...], reason: str, lang: str, prepared: dict[str, str], data: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    held = None
    if "INPLAY" in args:  # a game is playing it
        log = data / "series" / prepared["INPLAY"] / "series.sqlite"
        held = FileLock(log.with_name(log.name + ".lock"), str)
    try:
        code, out, err = run_cli(capsys, *(prepared.get(a, a) for a in args), "--lang", lang)
    finally:
        if held is not None:
            held.release()
    assert code == 1, (out, err)
    assert "Traceback" not in out + err
    assert len(err.strip().splitlines()) == 1, err
    assert _said(catalogue(lang)[f"season.error.{reason}"], err), err


def test_the_language_check_sees_another_language() -> None:
    english = catalogue("en")["season.error.no-season"]
    assert _said(english, "There is no season called Nope.")
    assert not _said(catalogue("pt-BR")["season.error.no-season"],
                     "There is no season called Nope.")
