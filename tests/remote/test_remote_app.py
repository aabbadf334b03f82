"""``feltro join``'s Textual interface, driven by Pilot over a state as the server sends it:
refusals are worded from their data (rule, reason, numbers) in the player's language — the
server's English ``reason`` is never shown nor parsed — and the keys send the turn's action."""

from __future__ import annotations

import asyncio
from typing import Any

from textual.widgets import Static

from feltro.remote.app import JoinApp
from feltro.remote.client import Phase, Problem, RemoteSeat
from feltro.remote.link import parse_link
from feltro.remote.words import action_options, log_lines, quick_sizes


def _seat(number: int, name: str, **fields: Any) -> dict[str, Any]:
    base = {"seat": number, "occupied": True, "name": name, "bot": None, "away": False,
            "removed": False, "connected": True, "host": False, "stack": 190, "out": False,
            "place": None, "in_hand": True, "bet": 0, "committed": 0, "folded": False,
            "all_in": False, "has_cards": True, "button": False, "small_blind": False,
            "big_blind": False, "shown": None, "mucked": False, "last_action": None}
    base.update(fields)
    return base


def state_facing_a_bet() -> dict[str, Any]:
    """Rui (seat 2) faces Ana's raise to 6 before the flop."""
    log = [{"kind": "blind", "seat": 2, "amount": 1}, {"kind": "blind", "seat": 1, "amount": 2},
           {"kind": "action", "seat": 1, "street": "preflop", "action": "raise", "chips": 4,
            "all_in": False, "to": 6, "bet": False}]
    return {
        "type": "state", "version": 7, "boot": "b", "server_time": 0,
        "table": {
            "id": "T", "name": "Sexta", "status": "playing",
            "settings": {"small_blind": 1, "big_blind": 2},
            "seats": [_seat(1, "Ana", stack=194, bet=6, big_blind=True),
                      _seat(2, "Rui", stack=199, bet=1, button=True, small_blind=True)],
            "hand": {"number": 3, "street": "preflop", "board": [], "pots": [],
                     "pot_total": 7, "current_bet": 6, "to_act": 2, "turn": 3, "button": 2,
                     "log": log, "showdown": [], "over": False},
            "standings": [], "stop": {"last_hand": False}, "outcome": None,
            "hands_played": 2},
        "you": {"role": "player", "seat": 2, "name": "Rui", "host": False, "lang": "pt-PT",
                "hole": ["As", "Td"], "hand_name": "Carta alta, ás",
                "legal": {"hand": 3, "turn": 3, "fold": True, "check": False, "call": 5,
                          "raise": {"min": 10, "max": 200}}},
    }


def _app(lang: str) -> tuple[JoinApp, RemoteSeat]:
    seat = RemoteSeat(parse_link("http://127.0.0.1:9/join/T"), "Rui", lang)
    seat.state, seat.phase, seat.seat = state_facing_a_bet(), Phase.SEATED, 2
    return JoinApp(seat, lang, connect=False), seat


def test_refusal_is_worded_from_its_data_in_portuguese() -> None:
    async def scenario() -> None:
        app, seat = _app("pt-PT")
        async with app.run_test(size=(100, 30)) as pilot:
            seat.problem = Problem("join.error", {"code": "illegal_check"},
                               code="illegal_check",
                               refusal={"rule": "B3", "reason": "owes", "params": {"owed": 5}})
            app.refresh_all()
            await pilot.pause()
            shown = str(app.table_screen.query_one("#message", Static).render())
            assert shown == "Não pode passar: há uma aposta, 5 para pagar (B3)."
            status = str(app.table_screen.query_one("#status", Static).render())
            assert status == "Rui, é a sua vez."

    asyncio.run(scenario())


def test_keys_send_the_turn_action_and_typed_amounts_are_checked() -> None:
    async def scenario() -> None:
        app, seat = _app("en")
        sent: list[dict[str, Any]] = []

        async def fake_send(message: dict[str, Any]) -> None:
            sent.append(message)

        seat._send = fake_send  # type: ignore[method-assign]
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.press("r", "4")
            await pilot.press("enter")
            shown = str(app.table_screen.query_one("#message", Static).render())
            assert shown == "4 is below the minimum of 10 (B6): type at least 10."
            assert sent == []
            await pilot.press("backspace", "1", "2", "enter")
            await pilot.pause()
            assert sent[-1] == {"type": "act", "id": "t3-3", "hand": 3, "turn": 3,
                                "action": "raise", "to": 12}
            await pilot.press("c")
            await pilot.pause()
            assert sent[-1]["action"] == "call"

    asyncio.run(scenario())


def test_words_of_the_state() -> None:
    state = state_facing_a_bet()
    assert quick_sizes(state) == [("min", 10), ("half_pot", 12), ("pot", 18), ("all_in", 200)]
    assert "Pagar 5" in action_options(state, "pt-BR").plain
    assert [line.plain for line in log_lines(state, "en")] == [
        "— Hand 3 · button: Rui", "Rui: small blind 1", "Ana: big blind 2",
        "Ana raises to 6"]


def test_a_small_terminal_is_asked_to_grow() -> None:
    async def scenario() -> None:
        app, _ = _app("en")
        async with app.run_test(size=(70, 20)) as pilot:
            await pilot.pause()
            assert type(app.screen).__name__ == "TooSmallScreen"
            await pilot.resize_terminal(100, 30)
            await pilot.pause()
            assert app.screen is app.table_screen

    asyncio.run(scenario())
