"""``feltro join`` at 80x24 in every language shows what a phone shows (issue 24): every key up
to Q, whole column headers, the table's own stack and only the keys a remote seat has under
``?``, each hand's name at the showdown, the pot a hand was played for, the lobby's seats; and a
server it cannot use (an untrusted certificate, nothing listening) is one line, no screen."""

from __future__ import annotations

import asyncio
import copy
import io
from typing import Any

import pytest
from rich.console import Console
from test_remote_app import _seat, state_facing_a_bet
from textual.widgets import Static

from feltro.i18n import LANGUAGES, t
from feltro.remote import words
from feltro.remote.app import JoinApp
from feltro.remote.client import Phase, Problem, RemoteSeat, first_contact
from feltro.remote.link import parse_link


def crowded_table() -> dict[str, Any]:
    """Six seats, long names, big stacks, an all-in: the widest table a phone shows."""
    state = state_facing_a_bet()
    state["table"]["settings"].update(seats=6, stack=1500)
    names = ["Ana Beatriz", "Rui", "Tomé", "Bia", "Caio", "Inês"]
    seats = [_seat(i + 1, name, stack=10000 + i, bot="tight" if i > 1 else None)
             for i, name in enumerate(names)]
    seats[0].update(big_blind=True, bet=6, stack=9994)
    seats[1].update(button=True, small_blind=True, bet=1)
    seats[3].update(all_in=True, stack=0, bet=1500)
    state["table"]["seats"] = seats
    return state


def _lines(app: JoinApp) -> list[str]:
    return [strip.text for strip in app.screen._compositor.render_strips()]


def _panel_words(app: JoinApp) -> list[str]:
    """The text of every widget of the screen on top, one line each, however it wraps."""
    console = Console(width=1000, file=io.StringIO())
    texts = []
    for widget in app.screen.query(Static):
        with console.capture() as captured:
            console.print(widget.content)
        texts.append(" ".join(captured.get().split()))
    return texts


async def _screen(state: dict[str, Any], lang: str, *keys: str,
                  size: tuple[int, int] = (80, 24), words_of: Any = _lines) -> list[str]:
    seat = RemoteSeat(parse_link("http://127.0.0.1:9/join/T"), "Rui", lang)
    seat.state, seat.phase, seat.seat = state, Phase.SEATED, 2
    app = JoinApp(seat, lang, connect=False)
    async with app.run_test(size=size) as pilot:
        for _ in range(3):  # the log scrolls to its end after a refresh
            await pilot.pause()
        for key in keys:
            await pilot.press(key)
            await pilot.pause()
        lines: list[str] = words_of(app)
        return lines


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_key_and_whole_headers_at_80x24(lang: str) -> None:
    lines = asyncio.run(_screen(crowded_table(), lang))
    keys = lines[-1]
    assert "Q " in keys, keys  # the last key, leaving, is not cut off
    assert "…" not in keys
    header = lines[1]
    for column in ("seat.name", "seat.stack", "seat.bet", "seat.cards"):
        assert t(column, lang) in header, header
    assert "…" not in header
    seats = "\n".join(lines[2:8])
    assert "Tomé (bot)" in seats
    assert "10005" in seats


@pytest.mark.parametrize("lang", LANGUAGES)
def test_help_shows_this_table_and_only_the_keys_of_a_remote_seat(lang: str) -> None:
    state = state_facing_a_bet()
    state["table"]["settings"].update(stack=100, small_blind=5, big_blind=10)
    shown = "\n".join(asyncio.run(_screen(state, lang, "question_mark",
                                          words_of=_panel_words)))
    def said(key: str, **fields: object) -> str:
        return " ".join(t(key, lang, **fields).split())

    assert said("help.rules", stack=100, small=5, big=10) in shown
    assert said("help.rules", stack=200, small=1, big=2) not in shown
    for key in ("help.next", "help.log", "help.quit"):  # not the game's Enter, L, or Q
        assert said(key) not in shown, key
    assert said("help.leave_seat") in shown


def _after_showdown() -> dict[str, Any]:
    state = state_facing_a_bet()
    table = state["table"]
    table["seats"][0].update(shown=["Qs", "6s"], has_cards=False, bet=0, stack=190)
    table["seats"][1].update(shown=["As", "Td"], has_cards=False, bet=0, stack=210)
    hand = table["hand"]
    hand.update(over=True, to_act=None, pot_total=0, board=["2s", "9s", "Ks", "3d", "4c"],
                pots=[{"amount": 20, "eligible": [1, 2], "winners": [1], "shares": [20]}],
                showdown=[{"seat": 2, "cards": ["As", "Td"], "mucked": False,
                           "hand_name": "High card, ace"},
                          {"seat": 1, "cards": ["Qs", "6s"], "mucked": False,
                           "hand_name": "Flush, king high"}])
    hand["log"] += [{"kind": "show", "seat": 2, "cards": ["As", "Td"]},
                    {"kind": "show", "seat": 1, "cards": ["Qs", "6s"]},
                    {"kind": "pot", "index": 0, "amount": 20, "winners": [1], "shares": [20]}]
    state["you"].update(legal=None)
    return state


def test_the_showdown_names_each_hand() -> None:
    log = [line.plain for line in words.log_lines(_after_showdown(), "en")]
    assert any("Ana shows" in line and "Flush, king high" in line for line in log), log
    assert any("Rui shows" in line and "High card, ace" in line for line in log), log


def test_after_a_hand_the_pot_is_what_it_was_played_for() -> None:
    assert "Pot 20" in words.board_line(_after_showdown(), "en").plain


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_lobby_counts_the_seats_taken(lang: str) -> None:
    state = state_facing_a_bet()
    table = state["table"]
    table.update(status="lobby", hand=None)
    table["settings"]["seats"] = 6
    header = words.header_line(state, lang).plain
    assert "2/6" in header, header
    empty = copy.deepcopy(state)
    empty["table"]["seats"] = []
    assert "0/6" in words.header_line(empty, lang).plain


def test_a_refusal_before_any_state_ends_the_screen() -> None:
    async def scenario() -> str | None:
        seat = RemoteSeat(parse_link("http://127.0.0.1:9/join/T"), "Rui", "en")
        app = JoinApp(seat, "en", connect=False)
        async with app.run_test(size=(80, 24)) as pilot:
            seat._end("join.refused_handshake", status=404)
            app.refresh_all()
            await pilot.pause()
            await pilot.pause()
            return app.return_value

    assert asyncio.run(scenario()) == Phase.ENDED


def test_first_contact_with_nothing_listening() -> None:
    problem = first_contact(parse_link("http://127.0.0.1:9/join/T"), timeout=5)
    assert problem is not None
    assert problem.key == "join.nothing_there"
    assert "127.0.0.1:9" in words.problem_text(problem, "pt-PT").plain


def test_an_untrusted_certificate_names_ssl_cert_file() -> None:
    problem = Problem("join.certificate", {"why": "unknown_authority", "detail": "x"})
    for lang in LANGUAGES:
        text = words.problem_text(problem, lang).plain
        assert "SSL_CERT_FILE" in text
        assert t("join.cert_why.unknown_authority", lang) in text


def test_the_last_line_of_a_long_hand_is_in_view() -> None:
    state = _after_showdown()
    hand = state["table"]["hand"]
    calls = [{"kind": "action", "seat": 1 + i % 2, "street": "flop", "action": "check",
              "chips": 0, "all_in": False} for i in range(16)]
    hand["log"] = hand["log"][:4] + calls + hand["log"][4:]
    lines = asyncio.run(_screen(state, "pt-PT"))
    last = words.log_lines(state, "pt-PT")[-1].plain
    assert any(last[:25] in line for line in lines), (last, lines)


def test_a_remote_seat_shows_the_blind_level_and_words_its_blinds_by_it_G7() -> None:
    state = state_facing_a_bet()
    table = state["table"]
    table["level"] = {"level": 3, "blinds": {"small_blind": 5, "big_blind": 10, "ante": 1},
                      "next": {"small_blind": 10, "big_blind": 20, "ante": 2},
                      "hands_left": 2, "seconds_left": None, "due_at": None}
    header = words.header_line(state, "en").plain
    assert "Level 3: 5/10 ante 1 · next 10/20 ante 2 after 2 more hands" in header, header
    table["hand"]["log"] = [{"kind": "blind", "seat": 1, "amount": 5},
                            {"kind": "blind", "seat": 2, "amount": 10}]
    lines = [line.plain for line in words.log_lines(state, "en")]
    assert any("small blind 5" in line for line in lines), lines
    assert any("big blind 10" in line for line in lines), lines


def test_a_remote_seats_log_opens_with_the_hands_level_G7() -> None:
    state = state_facing_a_bet()
    hand = state["table"]["hand"]
    fixed = [line.plain for line in words.log_lines(state, "en")]
    assert not any("level" in line for line in fixed), fixed  # fixed blinds: as before (G5)
    hand["level"] = {"level": 3, "blinds": {"small_blind": 5, "big_blind": 10, "ante": 1}}
    for lang, line in (("en", "Hand 3 is at level 3: 5/10 ante 1"),
                       ("pt-BR", "A mão 3 é do nível 3: 5/10 ante 1")):
        lines = [text.plain for text in words.log_lines(state, lang)]
        assert lines[1] == line, lines
