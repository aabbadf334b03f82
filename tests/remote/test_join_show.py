"""``feltro join``'s M (show a hand won uncontested) and V (show my cards at the showdown even
when I lose) keys, driven by Pilot over states as the server sends them (P8, D11): what each
key sends, what the screen offers, in every language. ``tests/server/test_remote_show.py``
plays the same keys against the in-process server."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from test_remote_app import state_facing_a_bet
from textual.widgets import Static

from feltro.i18n import LANGUAGES, t
from feltro.remote.app import JoinApp
from feltro.remote.client import Phase, RemoteSeat
from feltro.remote.link import parse_link


def _won_uncontested(show_losers: bool = False) -> dict[str, Any]:
    """Rui (seat 2) has just won hand 3: Ana folded; the server offers him to show."""
    state = state_facing_a_bet()
    hand = state["table"]["hand"]
    hand.update(over=True, to_act=None)
    hand["log"].append({"kind": "action", "seat": 1, "street": "preflop", "action": "fold",
                        "chips": 0, "all_in": False, "to": 6, "bet": False})
    you = state["you"]
    del you["legal"]
    you["may_show"] = True
    if show_losers:
        you["show_losers"] = True
    return state


async def _run(state: dict[str, Any], lang: str, *keys: str
               ) -> tuple[list[dict[str, Any]], str]:
    seat = RemoteSeat(parse_link("http://127.0.0.1:9/join/T"), "Rui", lang)
    seat.state, seat.phase, seat.seat = state, Phase.SEATED, 2
    sent: list[dict[str, Any]] = []

    async def fake_send(message: dict[str, Any]) -> None:
        sent.append(message)

    seat._send = fake_send  # type: ignore[method-assign]
    app = JoinApp(seat, lang, connect=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        for key in keys:
            await pilot.press(key)
            await pilot.pause()
        text = " ".join(str(w.render()) for w in app.table_screen.query(Static))
    return sent, " ".join(text.split())


@pytest.mark.parametrize("lang", LANGUAGES)
def test_m_sends_show_when_offered_P8(lang: str) -> None:
    sent, shown = asyncio.run(_run(_won_uncontested(), lang))
    assert sent == []
    assert t("tui.show.key_hint", lang) in shown
    assert t("tui.show_losers.key_off", lang) in shown
    sent, _ = asyncio.run(_run(_won_uncontested(), lang, "m"))
    assert [(m["type"], set(m) - {"type", "id"}) for m in sent] == [("show", set())]


def test_m_sends_nothing_when_not_offered_P8() -> None:
    state = _won_uncontested()
    del state["you"]["may_show"]
    sent, shown = asyncio.run(_run(state, "en", "m"))
    assert sent == []
    assert t("tui.show.key_hint", "en") not in shown


@pytest.mark.parametrize("lang", LANGUAGES)
def test_v_sends_the_opposite_of_the_servers_choice_P8(lang: str) -> None:
    sent, shown = asyncio.run(_run(state_facing_a_bet(), lang, "v"))
    assert [(m["type"], m["on"]) for m in sent] == [("show_losers", True)]
    assert t("tui.show_losers.now_on", lang) in shown
    sent, shown = asyncio.run(_run(_won_uncontested(show_losers=True), lang))
    assert t("tui.show_losers.key_on", lang) in shown
    sent, shown = asyncio.run(_run(_won_uncontested(show_losers=True), lang, "v"))
    assert [(m["type"], m["on"]) for m in sent] == [("show_losers", False)]
    assert t("tui.show_losers.now_off", lang) in shown


def test_v_is_not_a_watchers_key_P8() -> None:
    state = state_facing_a_bet()
    state["you"] = {"role": "spectator", "lang": "en"}
    sent, shown = asyncio.run(_run(state, "en", "v"))
    assert sent == []
    assert t("tui.show_losers.key_off", "en") not in shown
