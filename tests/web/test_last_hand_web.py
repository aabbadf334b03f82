"""The hand that ends the series is shown in full before the results (issue 23, item 1): on the
phone and the table screen the last hand's board, shown cards and pots stay for seconds with a
button to the results, and the results offer "See the last hand". With 2 seats, and with 6 on
a 360x740 phone, where the deciding showdown has several players and the replayer of the
results shows it too."""

from __future__ import annotations

import time
from typing import Any

from browserkit import Server, cards_in, shot, wait_until
from flows import add_bots, host_page, join, seat_players, start_game, table_screen


def _calling_to_the_last_hand(page: Any) -> bool:
    """Check or call when it is the phone's turn; whether the last hand is on the screen."""
    if page.locator("#last-hand").count():
        return True
    button = page.locator("#actions.live button.act.check, #actions.live button.act.call")
    if button.count():
        try:
            button.first.click(timeout=1000)
        except Exception:  # the turn moved on while clicking
            return False
    return False


def test_last_hand_visible_before_the_results(chromium: Any, server: Server) -> None:
    table = server.create_table(seats=2, stack=200, max_hands=1)
    host, _frames, _errors = host_page(chromium, server, table)
    add_bots(host, ["Robo"])
    bruno = join(chromium, server, table, "Bruno", lang="pt-PT")
    seat_players(host, ["Bruno"])
    screen = table_screen(chromium, server, table, viewport={"width": 1280, "height": 720})
    start_game(host)
    page = bruno.page
    page.wait_for_selector(".hole .card[data-card]")

    # Bruno checks and calls to the showdown against a calling station: one hand, the last.
    wait_until(lambda: _calling_to_the_last_hand(page), 40, what="the last hand on the phone")
    seen = time.monotonic()
    # The cards on the last-hand view are the ones the final state showed (a loser may muck,
    # P8): public only, and all of them.
    final = [f for f in bruno.frames.states() if f["table"]["status"] == "over"][-1]["table"]
    shown = {c for s in final["hand"]["showdown"] for c in (s["cards"] or [])}
    assert len(shown) >= 2
    for view in (page, screen):
        view.wait_for_selector("#last-hand .showdown")
        assert view.locator(".results").count() == 0
        assert view.locator("#last-hand .board .card[data-card]").count() == 5
        on_view = set(view.locator("#last-hand .show-order .card[data-card]").evaluate_all(
            "els => els.map(e => e.dataset.card)"))
        assert on_view == shown
        assert view.locator("#last-hand .pot-winners li").count() >= 1
        assert view.locator("#see-results").is_visible()
    assert "A última mão da série" in page.locator("#last-hand-title").inner_text()
    shot(page, "last-hand-phone-pt-PT-360x740")
    shot(screen, "last-hand-tv-1280x720")

    # The results come at once with the button ...
    page.click("#see-results")
    page.wait_for_selector(".results")
    # ... or by themselves after a few seconds (never at once).
    screen.wait_for_selector(".results", timeout=30_000)
    assert time.monotonic() - seen >= 4.0
    # The chart's words are readable on the phone (issue 23): about 11 px and more, not 6.
    page.wait_for_selector(".results svg.chart .axis text")
    heights = page.locator(".results svg.chart text").evaluate_all(
        "els => els.map(e => e.getBoundingClientRect().height)")
    assert heights
    assert min(heights) >= 10, heights
    # The last hand can be seen again from the results.
    assert page.locator("#last-hand").count() == 0
    page.click("#see-last-hand")
    page.wait_for_selector("#last-hand .showdown")
    assert page.locator("#last-hand .show-order .card[data-card]").count() == len(shown)
    bruno.close()


REPLAY_ALL = """async (number) => {
  document.querySelector(`#review button[data-hand='${number}']`).click();
  const seen = new Set();
  const wait = (test) => new Promise((done) => {
    const tick = () => (test() ? done() : setTimeout(tick, 50));
    tick();
  });
  await wait(() => document.querySelector(`#replayer[data-hand='${number}']`));
  for (;;) {
    document.querySelectorAll("#replayer [data-card]").forEach((e) => seen.add(e.dataset.card));
    const next = document.querySelector("#review-next");
    if (!next || next.disabled) return [...seen];
    const step = document.querySelector("#replayer").dataset.step;
    next.click();
    await wait(() => document.querySelector("#replayer")?.dataset.step !== step);
  }
}"""


def test_last_hand_with_6_seats_on_a_phone(chromium: Any, server: Server) -> None:
    table = server.create_table(seats=6, stack=200, max_hands=1)
    host, _frames, _errors = host_page(chromium, server, table)
    add_bots(host, [f"Robo{n}" for n in range(5)])  # calling stations: everyone to the river
    bruno = join(chromium, server, table, "Bruno", lang="pt-BR")
    seat_players(host, ["Bruno"])
    start_game(host)
    page = bruno.page
    assert page.viewport_size == {"width": 360, "height": 740}

    wait_until(lambda: _calling_to_the_last_hand(page), 60, what="the last hand on the phone")
    final = [f for f in bruno.frames.states() if f["table"]["status"] == "over"][-1]["table"]
    showdown = final["hand"]["showdown"]
    shown = {c for s in showdown for c in (s["cards"] or [])}
    own = {c for f in bruno.frames.states() for c in (f["you"].get("hole") or [])}
    board = set(final["hand"]["board"])
    # The deciding hand went to a showdown of several players (stations never fold).
    assert len(showdown) >= 3, showdown
    assert len(shown) >= 2
    page.wait_for_selector("#last-hand .showdown")
    assert page.locator(".results").count() == 0
    assert page.locator("#last-hand .board .card[data-card]").count() == 5
    assert page.locator("#last-hand .show-order li").count() == len(showdown)
    on_view = set(page.locator("#last-hand .show-order .card[data-card]").evaluate_all(
        "els => els.map(e => e.dataset.card)"))
    assert on_view == shown
    assert page.locator("#last-hand .pot-winners li").count() >= 1
    # Every row of the showdown fits the phone's width (nothing to scroll sideways).
    rights = page.locator("#last-hand .show-order li, #last-hand .pot-winners li").evaluate_all(
        "els => els.map(e => e.getBoundingClientRect().right)")
    assert max(rights) <= 360, rights
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 360
    shot(page, "last-hand-phone-6-seats-pt-BR-360x740")

    # The results' replayer shows the same showdown: the shown cards, never another's hidden
    # ones (the stations' mucked hands), and Bruno's own.
    page.click("#see-results")
    page.wait_for_selector("#review button[data-hand='1']")
    replayed = set(page.evaluate(REPLAY_ALL, 1))
    assert shown <= replayed, (shown, replayed)
    assert replayed <= shown | board | own, replayed - shown - board - own
    assert page.locator("#replayer .review-hole [data-card]").count() == 2
    # At its last step, every hand shown at the showdown is listed with its cards.
    assert page.locator("#replayer .review-shown li").count() == sum(
        1 for s in showdown if s["cards"])
    assert set(page.locator("#replayer .review-shown [data-card]").evaluate_all(
        "els => els.map(e => e.dataset.card)")) == shown
    shot(page, "replayer-phone-6-seats-pt-BR-360x740")
    answer = server.api("POST", f"/api/tables/{table['table_id']}/hands", {})
    assert cards_in(answer["hands"][0]) <= shown | board
    bruno.close()
