"""The night's hands to review (issue 23, item 7): on the results page a hand list and a
replayer, street by street, that shows the player their own cards and everyone the cards that
were shown, never a mucked card (checked against the frames the phone received); the share
link of a hand opens it on the table screen with the shown cards only.

Two phones play, so that the test knows every hole card dealt: Carla folds the first hand and
the others go to the showdown, where the loser mucks (P8). The test checks that both cases
happened before it checks that those cards never reach the API answer or the pages."""

from __future__ import annotations

import contextlib
from typing import Any

from browserkit import Frames, Server, cards_in, new_context, shot, wait_until
from flows import Phone, host_page, join, seat_players, start_game


def _seen(frames: Frames, *, own: bool) -> dict[int, set[str]]:
    """Hand number -> the cards these frames showed (own hole cards only if *own*), for
    the hands whose end they showed."""
    seen: dict[int, set[str]] = {}
    ended: set[int] = set()
    for state in frames.states():
        hand = state["table"]["hand"]
        if not hand:
            continue
        cards = set(hand["board"]) | {c for s in hand["showdown"] for c in s["cards"] or []}
        if own:
            cards |= set(state["you"].get("hole") or [])
        seen.setdefault(hand["number"], set()).update(cards)
        if hand["over"]:
            ended.add(hand["number"])
    return {n: c for n, c in seen.items() if n in ended}


def _holes(phone: Phone) -> dict[int, set[str]]:
    """Hand number -> the hole cards this phone was dealt."""
    holes: dict[int, set[str]] = {}
    for state in phone.frames.states():
        hand = state["table"]["hand"]
        if hand and state["you"].get("hole"):
            holes.setdefault(hand["number"], set()).update(state["you"]["hole"])
    return holes


def _finals(frames: Frames) -> dict[int, dict[str, Any]]:
    """Hand number -> the hand as the last frame that showed it over showed it."""
    finals: dict[int, dict[str, Any]] = {}
    for state in frames.states():
        hand = state["table"]["hand"]
        if hand and hand["over"]:
            finals[hand["number"]] = hand
    return finals


def _replay(page: Any, number: int) -> set[str]:
    """Open hand *number* and step through every street; the cards on the way."""
    page.click(f"#review button[data-hand='{number}']")
    page.wait_for_selector(f"#replayer[data-hand='{number}']")
    cards: set[str] = set()
    while True:
        cards |= set(page.locator("#replayer [data-card]").evaluate_all(
            "els => els.map(e => e.dataset.card)"))
        step = page.locator("#replayer").get_attribute("data-step")
        if page.locator("#review-next").is_disabled():
            return cards
        page.click("#review-next")
        page.wait_for_function(
            f"() => document.querySelector('#replayer')?.dataset.step !== '{step}'")


HANDS = 9
"""Hands played: after Carla's fold, each showdown has about even odds of a muck (the loser
shows second), so 8 of them miss one about once in 256 series."""


def test_replayer_shows_own_and_shown_cards_never_a_mucked_one(chromium: Any,
                                                                 server: Server) -> None:
    table = server.create_table(seats=2, stack=400, max_hands=HANDS)
    table_id = table["table_id"]
    host, _frames, _errors = host_page(chromium, server, table)
    bruno = join(chromium, server, table, "Bruno")
    carla = join(chromium, server, table, "Carla", lang="pt-BR")
    seat_players(host, ["Bruno", "Carla"])
    start_game(host)
    page = bruno.page
    seats: dict[str, int] = {}

    def number(phone: Phone) -> int:
        states = phone.frames.states()
        hand = states[-1]["table"]["hand"] if states else None
        return int(hand["number"]) if hand else 0

    def play_until(done: Any, what: str) -> None:
        def step() -> bool:
            if done():
                return True
            for phone in (bruno, carla):
                # Carla gives up the first hand; then both check and call to the showdown.
                fold = phone is carla and number(phone) == 1
                kind = "fold" if fold else "check, #actions.live button.act.call"
                button = phone.page.locator(f"#actions.live button.act.{kind}")
                if button.count():
                    with contextlib.suppress(Exception):  # the turn moved on while clicking
                        button.first.click(timeout=1000)
            return False
        wait_until(step, 120, what=what)

    def ended() -> bool:
        return page.locator("#last-hand, .results").count() > 0

    # During play, the phone's "hands of the series" box lists the hands already finished.
    play_until(lambda: ended() or "Hand 2" in (page.locator("#log-title").text_content() or ""),
               "the second hand")
    if not ended():
        page.click("#review-box summary")
        page.wait_for_selector("#review-box #review button[data-hand='1']")
        # A hand's share link opens it on the table screen while the series is played.
        screen = new_context(chromium, phone=False).new_page()
        screen.goto(f"{server.url}/table/{table_id}#hand-1")
        screen.wait_for_selector("#review-box[open] #replayer[data-hand='1']")
        assert screen.locator("#replayer .review-hole").count() == 0
        screen.context.close()
    play_until(ended, "the end of the series")
    if page.locator("#see-results").count():
        page.click("#see-results")
    page.wait_for_selector("#review button[data-hand]")
    numbers = [int(n) for n in page.locator("#review button[data-hand]").evaluate_all(
        "els => els.map(e => e.dataset.hand)")]
    assert numbers == list(range(1, HANDS + 1))

    # What was hidden at the table: every hole card (both players are phones) not shown.
    for phone in (bruno, carla):
        seats[phone.name] = phone.frames.states()[-1]["you"]["seat"]
    mine, public = _seen(bruno.frames, own=True), _seen(bruno.frames, own=False)
    finals = _finals(bruno.frames)
    holes_b, holes_c = _holes(bruno), _holes(carla)
    hidden_public = {n: (holes_b.get(n, set()) | holes_c.get(n, set())) - public[n]
                     for n in public}
    hidden_bruno = {n: holes_c.get(n, set()) - mine[n] for n in mine}
    # The cases the test is about happened: Carla's folded hand (1) and a hand mucked at the
    # showdown by one of the two (the loser's, shown cards None).
    assert len(hidden_bruno.get(1, set())) == 2, hidden_bruno
    mucked = [n for n, hand in finals.items()
              if any(s["cards"] is None and s["seat"] in seats.values() for s in hand["showdown"])]
    assert mucked, "no hand was mucked at the showdown"
    assert all(len(hidden_public[n]) >= 2 for n in mucked if n in hidden_public)

    # The API: Bruno's answer (his token) and the public one hold none of the hidden cards.
    token = page.evaluate(f"localStorage.getItem('feltro.seat.{table_id}')")
    assert token
    answers = {"Bruno": server.api("POST", f"/api/tables/{table_id}/hands", {"token": token}),
               "public": server.api("POST", f"/api/tables/{table_id}/hands", {})}
    for who, answer in answers.items():
        hidden = hidden_bruno if who == "Bruno" else hidden_public
        assert [h["number"] for h in answer["hands"]] == numbers
        for hand in answer["hands"]:
            assert not cards_in(hand) & hidden.get(hand["number"], set()), (who, hand["number"])

    # The page: every step of every hand, for Bruno.
    for number_ in numbers:
        cards = _replay(page, number_)
        assert page.locator("#replayer .review-hole [data-card]").count() == 2
        assert not cards & hidden_bruno.get(number_, set()), number_
        if number_ in mine:
            assert cards <= mine[number_], number_
        if number_ == mucked[0]:
            shot(page, "review-phone-mucked-hand-360x740")
    # The share link: the table screen, no token, the shown cards only.
    link = page.locator("#review-share").get_attribute("href")
    assert link is not None
    assert link.endswith(f"#hand-{HANDS}")
    for shared_hand in sorted({mucked[0], 1, HANDS}):
        screen = new_context(chromium, phone=False).new_page()
        screen.goto(f"{server.url}/table/{table_id}#hand-{shared_hand}")
        screen.wait_for_selector(f"#replayer[data-hand='{shared_hand}']")
        assert screen.locator("#replayer .review-hole").count() == 0
        shared: set[str] = set()
        while True:  # every street of it
            shared |= set(screen.locator("#replayer [data-card]").evaluate_all(
                "els => els.map(e => e.dataset.card)"))
            if screen.locator("#review-next").is_disabled():
                break
            step = screen.locator("#replayer").get_attribute("data-step")
            screen.click("#review-next")
            screen.wait_for_function(
                f"() => document.querySelector('#replayer')?.dataset.step !== '{step}'")
        assert not shared & hidden_public.get(shared_hand, set()), shared_hand
        if shared_hand in public:
            assert shared <= public[shared_hand]
        if shared_hand == mucked[0]:
            shot(screen, "review-shared-mucked-hand-1280x800")
        screen.context.close()
    bruno.close()
    carla.close()
