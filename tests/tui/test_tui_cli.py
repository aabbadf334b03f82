"""``feltro play`` and ``feltro history`` from the command line: options, the data folder,
hands saved as PHH, resume, and the history listing (the game itself is patched out)."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from feltro.cli import app as cli
from feltro.cli.play import choose_players, parse_stop_at
from feltro.history import replay
from feltro.tui.app import PlayApp
from feltro.tui.datadir import SeriesFolder, data_dir, find_series, list_series
from playkit import english_data_folder, patch_full_screen

runner = CliRunner()


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return english_data_folder(tmp_path, monkeypatch)


@pytest.fixture
def played(monkeypatch: pytest.MonkeyPatch) -> list[PlayApp]:
    """Replace the full-screen game: each run plays two hands (the person checks or calls)
    and leaves, as a player quitting would."""
    return patch_full_screen(monkeypatch, start_another=False)


def test_data_folder_follows_the_platform() -> None:
    assert data_dir({"FELTRO_DATA_DIR": "/x/y"}, "linux") == Path("/x/y")
    assert data_dir({"HOME": "/h", "XDG_DATA_HOME": "/xdg"}, "linux") == Path("/xdg/feltro")
    assert data_dir({"HOME": "/h"}, "linux") == Path("/h/.local/share/feltro")
    assert data_dir({"HOME": "/h", "XDG_DATA_HOME": "rel"}, "linux") == Path(
        "/h/.local/share/feltro")
    assert data_dir({"HOME": "/h"}, "darwin") == Path("/h/Library/Application Support/feltro")
    assert data_dir({"HOME": "/h", "APPDATA": "C:/A"}, "win32") == Path("C:/A/feltro")


def test_choosing_players() -> None:
    default = choose_players(humans=["Ana"], players=None, bots=None, level="rules")
    assert [(p.seat, p.name, p.bot) for p in default] == [
        (1, "Ana", None), (2, "Rui", "rules"), (3, "Eva", "rules"), (4, "Tomé", "rules"),
        (5, "Bia", "rules"), (6, "Caio", "rules")]
    assert len(choose_players(humans=["Ana"], players=3, bots=None, level="random")) == 3
    mixed = choose_players(humans=["Ana"], players=None, bots="random,rules,montecarlo",
                           level="rules")
    assert [p.bot for p in mixed] == [None, "random", "rules", "montecarlo"]
    one_level = choose_players(humans=["Ana"], players=4, bots="montecarlo", level="rules")
    assert [p.bot for p in one_level] == [None, "montecarlo", "montecarlo", "montecarlo"]
    hotseat = choose_players(humans=["Ana", "Rui"], players=None, bots=None, level="rules")
    assert [(p.name, p.bot) for p in hotseat] == [("Ana", None), ("Rui", None)]
    with_bots = choose_players(humans=["Ana", "Rui"], players=None, bots="2", level="rules")
    assert [p.name for p in with_bots] == ["Ana", "Rui", "Eva", "Tomé"]  # no second Rui
    for kwargs, says in [
        ({"players": 11}, "2 to 10"),
        ({"bots": "genius"},
         "no bot “genius”: choose one of random, rules, montecarlo, expert, station"),
        ({"players": 3, "bots": "5"}, "does not add up"), ({"bots": "0"}, "2 to 10"),
    ]:
        options: dict[str, Any] = {"players": None, "bots": None, **kwargs}
        with pytest.raises(typer.BadParameter, match=says):
            choose_players(humans=["Ana"], level="rules", **options)


def test_stop_time_is_the_next_occurrence() -> None:
    evening = datetime(2030, 5, 17, 21, 0)
    assert parse_stop_at("23:30", evening) == datetime(2030, 5, 17, 23, 30)
    assert parse_stop_at("0:30", evening) == datetime(2030, 5, 18, 0, 30)
    assert parse_stop_at("2030-05-18T01:00", evening) == datetime(2030, 5, 18, 1, 0)
    with pytest.raises(typer.BadParameter, match="not a time"):
        parse_stop_at("half past eleven", evening)


def test_play_saves_every_hand_and_resumes(data: Path, played: list[PlayApp]) -> None:
    result = runner.invoke(cli, ["play", "--seed", "42", "--players", "3", "--bots",
                                 "rules", "--name", "Ana", "--lang", "pt-PT"])
    assert result.exit_code == 0, result.output
    assert "feltro play --resume" in result.output
    assert played[0].lang == "pt-PT"
    (folder,) = (data / "series").iterdir()
    series = SeriesFolder(folder)
    assert series.hand_numbers() == [1, 2]
    record = series.load_hand(1)
    assert record.players is not None
    assert record.players[record.seats.index(1) if record.seats else 0] == "Ana"
    assert replay(record).complete
    players, lang = series.read_players()
    assert [p.bot for p in players] == [None, "rules", "rules"]
    assert lang == "pt-PT"

    again = runner.invoke(cli, ["play", "--resume"])
    assert again.exit_code == 0, again.output
    assert played[1].lang == "pt-PT"  # the series' language
    assert played[1].session.series.hand_number == 4
    assert series.hand_numbers() == [1, 2, 3, 4]

    listing = runner.invoke(cli, ["history"])
    assert listing.exit_code == 0
    assert folder.name in listing.output
    assert "Rui (bot)" in listing.output
    hands = runner.invoke(cli, ["history", "1"])
    assert hands.exit_code == 0
    assert "Series" in hands.output
    steps = runner.invoke(cli, ["history", folder.name, "2", "--text"])
    assert steps.exit_code == 0, steps.output
    assert "step 1 of" in steps.output
    assert "Rui (bot)" in steps.output


def test_same_seed_same_cards(data: Path, played: list[PlayApp]) -> None:
    for _ in range(2):
        assert runner.invoke(cli, ["play", "--seed", "7", "--players", "4"]).exit_code == 0
    first, second = (SeriesFolder(p) for p in sorted((data / "series").iterdir()))
    assert first.hand_file(1).read_text() == second.hand_file(1).read_text()


def test_bad_options_and_nothing_to_resume(data: Path, played: list[PlayApp]) -> None:
    for args, says in [
        (["play", "--players", "11"], "less than or equal to 10"),
        (["play", "--bots", "genius"], "no bot “genius”"),
        (["play", "--lang", "fr"], "unknown language"),
        (["play", "--stop-at", "soon"], "not a time"),
        (["play", "--hotseat", "Ana,ana"], "different name"),
    ]:
        result = runner.invoke(cli, args)
        assert result.exit_code != 0, args
        flat = " ".join(result.output.replace("│", " ").split())  # Rich boxes wrap lines
        assert says in flat, (args, result.output)
    result = runner.invoke(cli, ["play", "--resume"])
    assert result.exit_code == 1
    assert "no interrupted series" in result.output
    assert played == []
    assert runner.invoke(cli, ["history", "nope"]).exit_code == 1


def test_history_when_empty(data: Path) -> None:
    result = runner.invoke(cli, ["history"])
    assert result.exit_code == 0
    assert "No series yet" in result.output
    assert list_series(data) == []
    assert find_series(data, None) is None
