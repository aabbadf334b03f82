"""Small words the pages get right: a seat box names its player once (its last action reads
"calls 2", not "Robo calls 2": the name is the box's first line), no page prints a script's
value ("null") where words belong, the results' chart labels its hands up to the last one, and
the standings' chips heading stands over its numbers."""

from __future__ import annotations

import random
import re
from typing import Any

from browserkit import Server, shot, stray_values, wait_until
from flows import add_bots, host_page, join, play_turn, seat_players, start_game, table_screen

from feltro.i18n import catalogue

SEAT_BOXES = """els => els.map(e => [e.querySelector('.seat-name')?.textContent ?? '',
                                  e.querySelector('.seat-last')?.textContent ?? ''])"""


def _seat_words(lang: str) -> re.Pattern[str]:
    """Any of the seat box's last-action words in *lang*, amounts as numbers."""
    words = catalogue(lang)
    forms = [re.escape(text).replace(re.escape("{amount}"), r"\d+")
             for key, text in words.items() if key.startswith("seat.last.")]
    assert len(forms) == 11
    return re.compile("|".join(f"(?:{form})" for form in forms))


def test_a_seat_box_says_its_last_action_without_the_name(chromium: Any, server: Server) -> None:
    table = server.create_table(seats=3, stack=200, max_hands=2)
    host, _frames, _errors = host_page(chromium, server, table)
    add_bots(host, ["Robo", "Rita"])
    bruno = join(chromium, server, table, "Bruno", lang="pt-PT")
    seat_players(host, ["Bruno"])
    screen = table_screen(chromium, server, table, viewport={"width": 1280, "height": 720})
    start_game(host)
    rng = random.Random(3)
    seen: dict[str, list[tuple[str, str]]] = {"en": [], "pt-PT": []}

    def boxes_seen() -> bool:
        play_turn(bruno, rng, aggressive=0.0)
        for lang, page in (("en", screen), ("pt-PT", bruno.page)):
            seen[lang] += [(name, last) for name, last in
                           page.locator(".seat").evaluate_all(SEAT_BOXES) if last]
        names = {name for pairs in seen.values() for name, _ in pairs}
        return {"Robo", "Rita"} <= names and bool(seen["pt-PT"])

    wait_until(boxes_seen, 60, what="the bots' last actions in their seat boxes")
    shot(screen, "seat-last-action-tv-1280x720")
    shot(bruno.page, "seat-last-action-phone-pt-PT-360x740")
    for page in (screen, bruno.page, host):
        assert stray_values(page) == [], page.url
    for lang, pairs in seen.items():
        pattern = _seat_words(lang)
        for name, last in pairs:
            assert name not in last, (lang, name, last)
            assert pattern.fullmatch(last), (lang, last)
    bruno.close()


CHART = """async (last) => {
  const { lineChart } = await import("/static/js/linechart.js");
  const points = Array.from({ length: last + 1 }, (_, n) => [n, 100 + n]);
  const svg = lineChart([{ label: "Ana", points }],
                        { id: "t", title: "t", desc: "d", xLabel: "x" });
  return [...svg.querySelectorAll(".axis text[text-anchor='middle']")]
    .map((e) => e.textContent).filter((text) => /^[0-9]+$/.test(text)).map(Number);
}"""


def test_the_chart_labels_its_hands_to_the_last(chromium: Any, server: Server) -> None:
    table = server.create_table(seats=2)
    page = table_screen(chromium, server, table)
    assert page.evaluate(CHART, 7) == [0, 1, 2, 3, 4, 5, 6, 7]  # a short night: every hand
    assert page.evaluate(CHART, 143) == [0, 20, 40, 60, 80, 100, 120, 143]
    assert page.evaluate(CHART, 13) == list(range(14))
    assert page.evaluate(CHART, 40) == [0, 5, 10, 15, 20, 25, 30, 35, 40]


def test_the_chips_heading_stands_over_its_numbers(chromium: Any, server: Server) -> None:
    table = server.create_table(seats=2, stack=200, max_hands=1)
    host, _frames, _errors = host_page(chromium, server, table)
    add_bots(host, ["Robo"])
    bruno = join(chromium, server, table, "Bruno")
    seat_players(host, ["Bruno"])
    start_game(host)
    rng = random.Random(5)

    def results_shown() -> bool:
        play_turn(bruno, rng, aggressive=0.0)
        if bruno.page.locator("#see-results").count():
            bruno.page.locator("#see-results").click()
        return bool(bruno.page.locator(".results .standings").count())

    wait_until(results_shown, 60, what="the results")
    shot(bruno.page, "results-chips-heading-360x740")
    for page in (bruno.page, host):
        assert stray_values(page) == [], page.url
    # On the phone the chart fits the page (no scrolling sideways), its words 12 px, its hands
    # labelled to the last.
    bruno.page.wait_for_selector(".results svg.chart .axis text")
    box = bruno.page.locator(".results .chart-box")
    assert box.evaluate("e => e.scrollWidth <= e.clientWidth")
    axis = bruno.page.locator(".results svg.chart .axis text")
    sizes = axis.evaluate_all("els => els.map(e => { const svg = e.ownerSVGElement; return "
                              "parseFloat(getComputedStyle(e).fontSize) * "
                              "svg.getBoundingClientRect().width / svg.viewBox.baseVal.width; })")
    assert min(sizes) >= 11, sizes
    hands = axis.evaluate_all("els => els.filter(e => e.getAttribute('text-anchor') === 'middle')"
                              ".map(e => e.textContent)")
    assert [text for text in hands if text.isdigit()][-1] == "1"
    standings = bruno.page.locator(".results .standings table")
    heading = standings.locator("thead th").nth(2)
    numbers = standings.locator("tbody td:nth-child(3)")
    assert numbers.count() == 2
    # Where the words end, not the cells (a column's cells share their edges whatever the text).
    text_right = "e => { const r = document.createRange(); r.selectNodeContents(e); " \
                 "const cell = e.getBoundingClientRect(); " \
                 "return cell.right - r.getBoundingClientRect().right; }"
    gaps = [heading.evaluate(text_right), *numbers.evaluate_all(f"els => els.map({text_right})")]
    assert max(gaps) - min(gaps) <= 2, gaps
    bruno.close()
