"""Blind levels (G7) in the terminal game: ``feltro play --levels``, the level, the next and
the countdown in the header, the level of each saved hand, and resume at the same level."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from tuikit import NOW, make_app, make_session, plain, screen_text, settle
from typer.testing import CliRunner

from feltro.cli import app as cli
from feltro.entries import ReentryRule
from feltro.levels import BlindSchedule
from feltro.tui.app import PlayApp
from feltro.tui.datadir import SeriesFolder
from feltro.tui.render import hand_log, header_line
from playkit import english_data_folder, patch_full_screen

runner = CliRunner()
SEED = 5


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return english_data_folder(tmp_path, monkeypatch)


@pytest.fixture
def played(monkeypatch: pytest.MonkeyPatch) -> list[PlayApp]:
    """Each run plays three hands, the person checking or calling, and leaves."""
    return patch_full_screen(monkeypatch, start_another=False, hands=3)


def test_play_with_levels_saves_each_hands_level_and_resumes_at_it_G7(
        data: Path, played: list[PlayApp]) -> None:
    result = runner.invoke(cli, ["play", "--seed", "5", "--players", "3", "--bots", "station",
                                 "--levels", "turbo", "--level-hands", "2",
                                 "--antes-from", "2"])
    assert result.exit_code == 0, result.output
    (folder,) = (data / "series").iterdir()
    saved = SeriesFolder(folder)
    assert [saved.load_hand(n).level for n in (1, 2, 3)] == [1, 1, 2]
    assert saved.load_hand(3).antes == (1, 1, 1)
    again = runner.invoke(cli, ["play", "--resume"])
    assert again.exit_code == 0, again.output
    series = played[1].session.series
    assert [s.level for s in series.summaries] == [1, 1, 2, 2, 3, 3]
    assert saved.load_hand(5).level == 3


@pytest.mark.parametrize(("args", "says"), [
    (["--levels", "1/2, oops"], "Blind levels not understood"),
    (["--levels", "turbo", "--antes-from", "9"], "Blind levels not understood"),
    (["--levels", "turbo", "--level-hands", "3", "--level-minutes", "5"], "not both"),
])
def test_bad_levels_are_refused_before_the_game_G7(data: Path, played: list[PlayApp],
                                                   args: list[str], says: str) -> None:
    result = runner.invoke(cli, ["play", *args])
    assert result.exit_code != 0
    assert says in " ".join(result.output.replace("│", " ").split())
    assert played == []


def test_the_header_shows_the_level_the_next_and_the_countdown_G7() -> None:
    schedule = BlindSchedule.ready("standard", unit="minutes", length=20, ante_from=2)
    session = make_session(levels=schedule)
    session.next_hand(NOW)
    assert "Level 1: 1/2 · next 2/4 ante 1 in 20:00" in plain(
        header_line(session, "en", NOW), width=200)
    assert "Nível 1: 1/2 · a seguir 2/4 ante 1 daqui a 5:30" in plain(
        header_line(session, "pt-PT", NOW + timedelta(minutes=14, seconds=30)), width=200)
    assert "next 2/4 ante 1 from the next hand" in plain(
        header_line(session, "en", NOW + timedelta(minutes=25)), width=200)


def test_fixed_blinds_keep_the_old_header_G5() -> None:
    session = make_session()
    session.next_hand(NOW)
    assert "Blinds 1/2" in plain(header_line(session, "en", NOW), width=200)


@pytest.mark.asyncio
async def test_a_player_out_of_chips_presses_r_to_re_enter_G8() -> None:
    session = make_session(bots=("station", "station", "station"), starting_stack=4,
                           seed=SEED, reentry=ReentryRule(times=1, until_minutes=60))
    app = make_app(session)
    async with app.run_test() as pilot:
        for _ in range(200):
            mode = await settle(pilot, app)
            if session.series.stacks.get(1) == 0 and mode == "hand_over":
                if isinstance(app.screen, type(app.table)):
                    break
                await pilot.press("enter")  # the showdown: then the offer waits on the table
                continue
            if mode == "series_over":
                raise AssertionError(f"the series ended before Ana was out: {session.standings()}")
            await pilot.press("c" if mode == "act" else "enter")
        assert "Ana is out: press R to re-enter with 4 chips (1 left, G8)." in screen_text(app)
        await pilot.press("r")
        assert session.series.reentries(1) == 1
        assert session.series.stacks[1] == 4
        text = screen_text(app)
        assert "Ana re-enters with 4 chips (G8)." in text
        assert "Dealt in at hand" in text
        await pilot.press("r")  # once only (times=1): nothing more
        assert session.series.reentries(1) == 1


def test_reentry_options_are_checked_before_the_game_G8(data: Path,
                                                          played: list[PlayApp]) -> None:
    for args, says in [(["--reentries", "1"], "give --reentry-level or --reentry-minutes"),
                       (["--reentries", "1", "--reentry-level", "2"], "needs blind levels")]:
        result = runner.invoke(cli, ["play", *args])
        assert result.exit_code != 0
        assert says in " ".join(result.output.replace("│", " ").split()), result.output
    result = runner.invoke(cli, ["play", "--players", "3", "--bots", "station", "--reentries",
                                 "2", "--reentry-minutes", "30"])
    assert result.exit_code == 0, result.output
    rule = played[0].session.series.config.reentry
    assert rule is not None
    assert (rule.times, rule.until_minutes) == (2, 30)


def test_the_standings_count_reentries_G8() -> None:
    from feltro.tui.render import standings_table

    session = make_session(bots=("station", "station", "station"), starting_stack=4,
                           seed=SEED, reentry=ReentryRule(times=2, until_minutes=60))
    while not session.series.is_over and not any(r.out_in_hand for r in session.standings()):
        _play_hand(session)
    out = next(r.seat for r in session.standings() if r.out_in_hand)
    session.reenter(out, NOW)
    text = plain(standings_table(session.standings(), session, "en"), width=120)
    assert "1 re-entry" in text
    assert "1 reentrada" in plain(standings_table(session.standings(), session, "pt-BR"),
                                  width=120)


@pytest.mark.asyncio
async def test_a_late_player_types_their_name_and_waits_for_the_big_blind_G9_D8() -> None:
    session = make_session(bots=("station", "station"), seed=SEED,
                           reentry=ReentryRule(until_minutes=60, late_seats=True))
    seen: list[str] = []
    app = PlayApp(session, bot_delay=0, clock=lambda: NOW,
                  on_late_player=lambda p: seen.append(p.name))
    async with app.run_test() as pilot:
        await settle(pilot, app)
        assert "J late player (G9)" in screen_text(app)
        await pilot.press("j", "Z", "e", "enter")
        await pilot.pause()
        assert seen == ["Ze"]
        assert session.series.players[4] == "Ze"
        assert session.players[4].bot is None  # a person at this keyboard
        text = screen_text(app)
        assert "Ze sits at seat 4 with 200 chips (G9)." in text
        joins = session.series.joins_in(4)
        assert f"Dealt in at hand {joins}" in text
        await pilot.press("j", "z", "E", "enter")  # the same name again: refused
        await pilot.pause()
        assert "zE is already at the table" in screen_text(app)
        assert len(session.series.players) == 4


def test_play_with_late_seats_resumes_with_the_late_player_G9(
        data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from feltro.session import Player

    apps: list[PlayApp] = []
    late = Player(4, "Zé")

    def run(self: PlayApp, *args: Any, **kwargs: Any) -> None:
        apps.append(self)
        if len(apps) == 1:  # a late player arrives before the first hand, then everyone leaves
            self.late_player(late)  # recorded first, then seated (a crash between is mended)
            self.session.seat_late(late)

    monkeypatch.setattr(PlayApp, "run", run)
    result = runner.invoke(cli, ["play", "--players", "3", "--bots", "station", "--seed", "3",
                                 "--reentries", "1", "--reentry-minutes", "600",
                                 "--late-seats"])
    assert result.exit_code == 0, result.output
    assert apps[0].session.series.config.seat_count == 10  # free seats for late players
    again = runner.invoke(cli, ["play", "--resume"])
    assert again.exit_code == 0, again.output
    assert apps[1].session.players[4] == late
    assert apps[1].session.series.players[4] == "Zé"


def _play_hand(session: Any) -> None:
    session.next_hand(NOW)
    while session.series.in_hand:
        if session.bot_to_act:
            session.bot_act()
        else:
            session.act(1, session.legal().passive)


def test_each_hands_log_opens_with_its_level_G7() -> None:
    schedule = BlindSchedule.ready("turbo", length=2, ante_from=2)
    session = make_session(bots=("station", "station"), levels=schedule)
    seen: dict[int, tuple[str, str]] = {}
    for _ in range(3):
        _play_hand(session)
        seen[session.series.hand_number] = (plain(hand_log(session, "en")[1], width=200).strip(),
                                     plain(hand_log(session, "pt-BR")[1], width=200).strip())
    assert seen == {1: ("Hand 1 is at level 1: 1/2", "A mão 1 é do nível 1: 1/2"),
                    2: ("Hand 2 is at level 1: 1/2", "A mão 2 é do nível 1: 1/2"),
                    3: ("Hand 3 is at level 2: 2/4 ante 1", "A mão 3 é do nível 2: 2/4 ante 1")}


def test_fixed_blinds_keep_the_old_log_G5() -> None:
    session = make_session(bots=("station", "station"))
    _play_hand(session)
    lines = [plain(line, width=200) for line in hand_log(session, "en")]
    assert not any("level" in line for line in lines), lines


@pytest.mark.asyncio
async def test_the_game_screen_log_names_the_hands_level_G7() -> None:
    session = make_session(bots=("station", "station"),
                           levels=BlindSchedule.ready("turbo", length=2))
    app = make_app(session, lang="pt-BR")
    async with app.run_test() as pilot:
        await settle(pilot, app)
        assert "A mão 1 é do nível 1: 1/2" in screen_text(app)
