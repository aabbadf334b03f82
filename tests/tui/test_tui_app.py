"""The terminal game driven by keys through Textual's Pilot: whole hands, bet sizes, typed
amounts (good and bad), refusals citing the rule, hot seat privacy, the end of a series, the
stop time, quitting, and the small-terminal guard."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from textual.pilot import Pilot
from tuikit import (
    NOW,
    call_until,
    make_app,
    make_session,
    on_screen,
    play_to_the_end,
    screen_text,
    settle,
)

from feltro.actions import Action, Raise
from feltro.events import ActionTaken
from feltro.hand import LegalActions, SeatView
from feltro.session import Player, Session
from feltro.tui import turn
from feltro.tui.app import PlayApp
from feltro.tui.screens import (
    HelpScreen,
    LogScreen,
    PrivacyScreen,
    QuitScreen,
    SeriesOverScreen,
    ShowdownScreen,
    StandingsScreen,
    TooSmallScreen,
)

pytestmark = pytest.mark.asyncio


def _actions(session: Session) -> list[ActionTaken]:
    return [e for e in session.public_view().events if isinstance(e, ActionTaken)]


async def _next_turn(pilot: Pilot[Any], app: PlayApp, key: str = "c") -> None:
    """Get to the next decision of a person: press Enter through hand ends and showdowns."""
    for _ in range(50):
        mode = await settle(pilot, app)
        if mode == "act" and isinstance(app.screen, type(app.table)):
            return
        if mode == "series_over":
            return
        await pilot.press("enter")
    raise AssertionError("no turn came")


async def test_whole_hands_by_keys() -> None:
    ended: list[int] = []
    session = make_session()
    app = make_app(session, on_hand_end=lambda s: ended.append(s.series.hand_number))
    async with app.run_test(size=(80, 24)) as pilot:
        hands_seen = set()
        for _ in range(40):
            await _next_turn(pilot, app)
            if session.series.is_over or session.series.hand_number > 3:
                break
            hands_seen.add(session.series.hand_number)
            legal = session.legal()
            text = screen_text(app)
            assert "Ana, your turn." in text
            assert "You have:" in text
            assert "[F] Fold" in text
            expected = "Check" if legal.can_check else f"Call {legal.call_amount}"
            assert expected in text
            before = len(_actions(session))
            await pilot.press("c")
            await pilot.pause()
            mine = [a for a in _actions(session)[before:] if a.position ==
                    session.position_of(1)]
            assert mine, "the key played an action"
            assert str(mine[0].action) in ("x", "c")
        assert {1, 2, 3} <= hands_seen
        assert ended[:2] == [1, 2]  # the save hook ran after each hand
        assert sum(session.series.stacks.values()) == 800
        assert "Hand" in screen_text(app)


async def test_quick_sizes_bet_or_raise_to_the_amount_shown() -> None:
    session = make_session(seed=9)
    app = make_app(session)
    async with app.run_test() as pilot:
        await _next_turn(pilot, app)
        legal = session.legal()
        assert legal.min_raise_to is not None
        assert f"Min {legal.min_raise_to}" in screen_text(app)
        await pilot.press("1")
        await pilot.pause()
        mine = [a for a in _actions(session) if a.position == session.position_of(1)]
        assert mine[-1].action == Raise(legal.min_raise_to)


async def test_typed_amounts_bad_input_shows_why_and_prompts_again() -> None:
    session = make_session(seed=9)
    app = make_app(session)
    async with app.run_test() as pilot:
        await _next_turn(pilot, app)
        legal = session.legal()
        low, high = legal.min_raise_to, legal.max_raise_to
        assert low is not None
        assert high is not None
        events = len(session.public_view().events)
        await pilot.press("r")
        assert app.table.mode == "amount"
        assert f"Raise to ({low} to {high})" in screen_text(app)

        for typed, says in [("abc", "is not a number"), (str(low - 1), "below the minimum"),
                            (str(high + 50), "more than you have"), ("", "Type an amount")]:
            await pilot.press(*typed, "enter")
            text = screen_text(app)
            assert says in text, (typed, text)
            assert app.table.mode == "amount"  # the prompt again
            assert len(session.public_view().events) == events  # nothing applied

        await pilot.press("escape")
        assert app.table.mode == "act"
        await pilot.press("r", *str(low + 1), "enter")
        await pilot.pause()
        mine = [a for a in _actions(session) if a.position == session.position_of(1)]
        assert mine[-1].action == Raise(low + 1)


async def test_fold_when_checking_is_free_needs_a_second_press() -> None:
    session = make_session(seed=5)
    app = make_app(session)
    async with app.run_test() as pilot:
        for _ in range(60):
            await _next_turn(pilot, app)
            if session.legal().can_check:
                break
            await pilot.press("c")
        assert session.legal().can_check
        hand = session.series.hand_number
        await pilot.press("f")
        assert app.table.mode == "confirm_fold"
        assert "check for free" in screen_text(app)
        await pilot.press("z")  # anything else: back to the decision
        assert app.table.mode == "act"
        await pilot.press("f", "f")
        await pilot.pause()
        view = session.view(1)
        assert session.series.hand_number > hand or view.folded[view.position or 0]


async def test_a_closed_raise_says_why_citing_the_rule() -> None:
    # Short stacks and random bots: soon the person faces a bet they cannot raise over.
    session = make_session(bots=("random", "random", "random"), seed=2, starting_stack=12)
    app = make_app(session)
    async with app.run_test() as pilot:
        for _ in range(200):
            await _next_turn(pilot, app)
            if session.series.is_over or session.series.stacks[1] == 0:
                pytest.skip("the person busted before facing a closed raise")
            if "raise" in session.legal().refusals:
                break
            await pilot.press("c")
        rule = session.legal().refusals["raise"][:3].rstrip(":")
        text = screen_text(app)
        assert "You can't raise" in text
        assert f"({rule})" in text
        events = len(session.public_view().events)
        await pilot.press("1")
        assert f"({rule})" in screen_text(app)
        assert len(session.public_view().events) == events


async def test_hot_seat_hides_each_players_cards_behind_a_privacy_screen() -> None:
    session = make_session(humans=("Ana", "Rui"), bots=("rules",), seed=3)
    app = make_app(session)
    async with app.run_test() as pilot:
        turns = 0
        while turns < 4:
            mode = await settle(pilot, app)
            if mode == "hand_over":
                await pilot.press("enter")
                continue
            if mode == "series_over":
                break
            seat = session.human_to_act
            assert seat is not None
            if mode == "act":  # the same person again: the keyboard is already theirs
                assert app.table.keyboard == seat
            else:
                assert mode == "privacy"
                assert isinstance(app.screen, PrivacyScreen)
                name = session.players[seat].name
                assert f"Pass the keyboard to {name}" in screen_text(app)
                assert app.table.viewer is None  # nobody's cards behind the privacy screen
                await pilot.press("enter")
                await settle(pilot, app)
            assert app.table.viewer == seat
            other = 3 - seat
            table = screen_text(app)
            mine = session.view(seat).hole
            assert mine is not None
            assert "You have:" in table
            if session.position_of(other) is not None:
                hidden = session.view(other).hole
                assert hidden is not None
                shown = "".join(str(c) for c in hidden)
                assert shown not in table.replace(" ", "")  # never the other's cards
            await pilot.press("c")
            turns += 1
        assert turns == 4


async def test_a_whole_series_to_the_end() -> None:
    ended: list[int] = []
    session = make_session(bots=("montecarlo",), seed=6, starting_stack=20)
    app = make_app(session, on_hand_end=lambda s: ended.append(s.series.hand_number))
    async with app.run_test() as pilot:
        await play_to_the_end(pilot, app, 300)
        assert session.series.is_over
        assert isinstance(app.screen, SeriesOverScreen)
        # Plain words first; the rule is a hint, and ? opens it (G4).
        on_screen(app, "The series is over", "wins the series!",
                  "One player has every chip, after", "? reads rule G4")
        assert ended == list(range(1, session.series.hand_number + 1))
        await pilot.press("enter")
    assert app.return_code == 0


async def test_stop_time_countdown_and_end__G6() -> None:
    clock = [NOW]
    session = make_session(seed=8, stop_at=NOW + timedelta(hours=1, minutes=5))
    app = PlayApp(session, bot_delay=0, clock=lambda: clock[0])
    async with app.run_test() as pilot:
        await _next_turn(pilot, app)
        assert "Stop 22:05 · 1:05:00 left" in screen_text(app)
        clock[0] = NOW + timedelta(hours=2)
        app.table.refresh_all()
        assert "Time is up: last hand" in screen_text(app)
        await call_until(pilot, app, 50)
        assert session.series.hand_number == 1  # the hand in progress finished, no new one
        assert "Stopped as agreed" in screen_text(app)


async def test_quit_asks_and_can_end_the_series_after_this_hand() -> None:
    session = make_session(seed=8)
    app = make_app(session, resumable=True)
    async with app.run_test() as pilot:
        await _next_turn(pilot, app)
        await pilot.press("q")
        assert isinstance(app.screen, QuitScreen)
        assert "--resume" in screen_text(app)
        await pilot.press("n")
        assert not isinstance(app.screen, QuitScreen)
        await pilot.press("q", "e")
        assert session.series.stop_requested
        await call_until(pilot, app, 50)
        assert session.series.hand_number == 1
        assert session.series.outcome is not None


async def test_panels_standings_log_help() -> None:
    app = make_app(make_session(seed=8))
    async with app.run_test() as pilot:
        await _next_turn(pilot, app)
        for key, screen, says in [("s", StandingsScreen, "Standings"),
                                  ("l", LogScreen, "Hand 1"),
                                  ("question_mark", HelpScreen, "Keys")]:
            await pilot.press(key)
            assert isinstance(app.screen, screen)
            assert says in screen_text(app)
            await pilot.press("escape")
            assert app.screen is app.table


async def test_showdown_lists_hands_in_show_order_with_names() -> None:
    session = make_session(bots=("random", "random"), seed=1)
    app = make_app(session)
    async with app.run_test() as pilot:
        await call_until(pilot, app, 200, lambda mode: isinstance(app.screen, ShowdownScreen))
        assert isinstance(app.screen, ShowdownScreen)
        on_screen(app, "showdown", "In the order shown (P8)", "1.", "2.", "Main pot")


async def test_portuguese_words_and_keys() -> None:
    session = make_session(seed=9)
    app = make_app(session, lang="pt-PT")
    async with app.run_test() as pilot:
        await _next_turn(pilot, app)
        text = screen_text(app)
        assert "[D] Desistir" in text
        assert "Tem:" in text
        assert "é a sua vez" in text
        before = len(_actions(session))
        await pilot.press("p")  # "passar" or "pagar"
        await pilot.pause()
        assert len(_actions(session)) > before


class _Cheater:
    name = "cheater"

    def act(self, view: SeatView, legal: LegalActions) -> Action:
        return Raise(1)


async def test_an_illegal_bot_answer_is_replaced_and_logged() -> None:
    base = make_session(bots=("rules",), seed=2)
    players = [Player(1, "Ana"), Player(2, "Rui", bot="rules")]
    session = Session(base.driver, players, bots={2: _Cheater()})
    app = make_app(session)
    async with app.run_test() as pilot:
        await _next_turn(pilot, app)
        while not session.notes:
            await pilot.press("c")
            await _next_turn(pilot, app)
        assert session.notes[0].played in ("x", "f")
        await pilot.press("l")  # the whole log of the hand
        assert "Rui (bot) answered “r 1”, which is not allowed now" in screen_text(app)


async def test_too_small_a_terminal_asks_for_room() -> None:
    app = make_app(make_session(seed=8))
    async with app.run_test(size=(70, 20)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        assert "needs 80×24 and has 70×20" in screen_text(app)
        await pilot.resize_terminal(100, 30)
        await pilot.pause(0.1)
        assert not isinstance(app.screen, TooSmallScreen)
        await pilot.resize_terminal(79, 24)
        await pilot.pause(0.1)
        assert isinstance(app.screen, TooSmallScreen)


async def test_m_shows_a_hand_won_uncontested_P8() -> None:
    # The person raises the pot; when every bot folds, M shows the winning cards to the table.
    session = make_session(seed=3)
    app = make_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(120):
            mode = await settle(pilot, app)
            if mode == "hand_over" and turn.courtesy_seat(session) is not None:
                break
            await pilot.press("3" if mode == "act" else "enter")
        else:
            raise AssertionError("the person never won a hand uncontested")
        assert "M: show your cards" in screen_text(app)
        assert session.public_view().shown == {}
        await pilot.press("m")
        await pilot.pause()
        position = session.position_of(1)
        assert position is not None
        assert session.public_view().shown == {position: session.view(1).hole}
        assert turn.courtesy_seat(session) is None
        assert "M: show your cards" not in screen_text(app)
