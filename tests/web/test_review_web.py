"""The night's hands to review (issue 23, item 7): on the results page a hand list and a
replayer, street by street, that shows the player their own cards and everyone the cards that
were shown, never a mucked card (checked against the frames the phone received); the share
link of a hand opens it on the table screen with the shown cards only."""

from __future__ import annotations

import contextlib
from typing import Any

from browserkit import Frames, Server, new_context, wait_until
from flows import add_bots, host_page, join, seat_players, start_game


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


def test_replayer_shows_own_and_shown_cards_never_a_mucked_one(chromium: Any,
                                                                 server: Server) -> None:
    table = server.create_table(seats=2, stack=200, max_hands=3)
    host, _frames, _errors = host_page(chromium, server, table)
    add_bots(host, ["Robo"])
    bruno = join(chromium, server, table, "Bruno")
    seat_players(host, ["Bruno"])
    start_game(host)
    page = bruno.page

    def play_until(done: Any, what: str) -> None:
        def step() -> bool:
            if done():
                return True
            button = page.locator("#actions.live button.act.check, "
                                  "#actions.live button.act.call")
            if button.count():
                with contextlib.suppress(Exception):  # the turn moved on while clicking
                    button.first.click(timeout=1000)
            return False
        wait_until(step, 60, what=what)

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
        screen.goto(f"{server.url}/table/{table['table_id']}#hand-1")
        screen.wait_for_selector("#review-box[open] #replayer[data-hand='1']")
        assert screen.locator("#replayer .review-hole").count() == 0
        screen.context.close()
    play_until(ended, "the end of the series")
    if page.locator("#see-results").count():
        page.click("#see-results")
    page.wait_for_selector("#review button[data-hand]")
    numbers = [int(n) for n in page.locator("#review button[data-hand]").evaluate_all(
        "els => els.map(e => e.dataset.hand)")]
    assert numbers == [1, 2, 3]
    mine = _seen(bruno.frames, own=True)
    public = _seen(bruno.frames, own=False)
    assert mine
    for number in numbers:
        cards = _replay(page, number)
        assert page.locator("#replayer .review-hole [data-card]").count() == 2
        if number in mine:
            assert cards <= mine[number], number
    # The share link: the table screen, no token, the shown cards only.
    link = page.locator("#review-share").get_attribute("href")
    assert link is not None
    assert link.endswith("#hand-3")
    screen = new_context(chromium, phone=False).new_page()
    screen.goto(link)
    screen.wait_for_selector("#replayer[data-hand='3']")
    shared = set(screen.locator("#replayer [data-card]").evaluate_all(
        "els => els.map(e => e.dataset.card)"))
    assert screen.locator("#replayer .review-hole").count() == 0
    if 3 in public:
        assert shared <= public[3]
    bruno.close()
