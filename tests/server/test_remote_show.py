"""``feltro join``'s M and V keys (P8, D11) against the in-process server: the screen's keys
send ``show`` and ``show_losers`` as the phones do, the server applies them, and a refusal comes
back as words from its data. The remote seat's frames are carried by a scripted phone (the
kit's websocket), so the server is the real one and nothing here is mocked on its side."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from srvkit import Frame, Phone, cards_in, drive, harness_at, passive, seat_table
from textual.widgets import Static

from feltro.errors import Refusal
from feltro.i18n import refusal_words, t
from feltro.remote.app import JoinApp
from feltro.remote.client import Phase, RemoteSeat
from feltro.remote.link import parse_link


def _won_by_folds(frame: Frame) -> bool:
    hand = frame["table"]["hand"]
    return hand is not None and hand["number"] == 1 and hand["over"]


def _bridged(phone: Phone, table_id: str, seat_number: int, lang: str) -> RemoteSeat:
    """A remote seat whose messages go out through *phone* (frames come in by :func:`_pump`)."""
    seat = RemoteSeat(parse_link(f"http://127.0.0.1:9/join/{table_id}"), "Ana", lang)
    seat.phase, seat.seat = Phase.SEATED, seat_number

    async def send(message: dict[str, Any]) -> None:
        phone.send(**message)

    seat._send = send  # type: ignore[method-assign]
    assert phone.state is not None
    seat._receive(phone.state)
    return seat


def _pump(phone: Phone, seat: RemoteSeat) -> list[Frame]:
    frames = phone.drain(0.1)
    for frame in frames:
        seat._receive(frame)
    return frames


def _screen(app: JoinApp) -> str:
    parts = [str(widget.render()) for widget in app.table_screen.query(Static)]
    return " ".join(" ".join(parts).split())


def test_join_m_shows_a_hand_won_uncontested_and_v_chooses_to_show_losers_P8(
        tmp_path: Path) -> None:
    with harness_at(tmp_path / "data") as h:
        created, host, players = seat_table(h, ["Ana", "Bruno"], between_hands_seconds=60)
        h.clock.advance(1)  # the first deal is due at once
        drive(host, players, passive, _won_by_folds)  # the first to act folds
        for phone in players.values():
            phone.drain(0.1)
        winner = next(s for s, p in players.items()
                      if p.state is not None and p.state["you"].get("may_show"))
        loser = next(s for s in players if s != winner)
        phone = players[winner]
        seat = _bridged(phone, created["table_id"], winner, "en")
        hole = seat.state["you"]["hole"]  # type: ignore[index]
        app = JoinApp(seat, "en", connect=False)

        async def scenario() -> None:
            async with app.run_test(size=(100, 30)) as pilot:
                await pilot.pause()
                assert t("tui.show.key_hint", "en") in _screen(app)
                assert t("tui.show_losers.key_off", "en") in _screen(app)
                await pilot.press("m")
                await pilot.pause()
                assert any(f.get("type") == "ack" for f in _pump(phone, seat))
                await pilot.pause()
                assert not seat.may_show
                assert t("tui.show.key_hint", "en") not in _screen(app)
                await pilot.press("m")  # no longer offered: nothing is sent (nor refused)
                await pilot.pause()
                assert _pump(phone, seat) == []
                await pilot.press("v")
                for _ in range(50):  # the server's answer, however busy the machine (up to ~5 s)
                    await pilot.pause()
                    _pump(phone, seat)
                    if seat.show_losers:
                        break
                await pilot.pause()
                assert seat.show_losers
                assert t("tui.show_losers.key_on", "en") in _screen(app)
                assert t("tui.show_losers.now_on", "en") in _screen(app)

        asyncio.run(scenario())
        other = players[loser]
        shown = other.current(lambda f: f["type"] == "state"
                              and set(hole) <= cards_in(f["table"]["hand"]))
        assert any(e["kind"] == "show" and e["seat"] == winner
                   for e in shown["table"]["hand"]["log"])
        assert h.game(created["table_id"]).store.series.show_losers == {winner}


def test_join_a_refused_show_is_worded_from_its_rule_P8(tmp_path: Path) -> None:
    # The loser of a hand everybody else folded has nothing to show: the server refuses, and
    # the screen says why in the player's language, from the refusal's data.
    with harness_at(tmp_path / "data") as h:
        created, host, players = seat_table(h, ["Ana", "Bruno"], between_hands_seconds=60)
        h.clock.advance(1)
        drive(host, players, passive, _won_by_folds)
        for phone in players.values():
            phone.drain(0.1)
        loser = next(s for s, p in players.items()
                     if p.state is not None and not p.state["you"].get("may_show"))
        phone = players[loser]
        seat = _bridged(phone, created["table_id"], loser, "pt-PT")
        app = JoinApp(seat, "pt-PT", connect=False)

        async def scenario() -> dict[str, Any]:
            async with app.run_test(size=(100, 30)) as pilot:
                await pilot.pause()
                await seat.send("show")  # what M would send, were it offered
                errors = [f for f in _pump(phone, seat) if f.get("type") == "error"]
                assert len(errors) == 1, errors
                await pilot.pause()
                refusal = errors[0]["refusal"]
                words = refusal_words(Refusal(refusal["rule"], refusal["reason"],
                                              refusal.get("params", {})), "pt-PT")
                assert words in _screen(app)
                assert refusal["rule"] in words
                result: dict[str, Any] = refusal
                return result

        refusal = asyncio.run(scenario())
        assert refusal["rule"] in ("P2", "P8")
