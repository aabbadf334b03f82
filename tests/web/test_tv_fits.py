"""The table screen fits the TV (issue 23, item 4): 2, 6 and 10 seats at 1280x720 with no seat
box cut by the window's edge or the oval's curve, nothing clipped or poking out of its box (the
time-bank label included), no two seats on top of each other, and everything larger at
1920x1080 and 3840x2160; the same with 10 seats in Portuguese (pt-PT and pt-BR), whose words
are longer."""

from __future__ import annotations

from typing import Any

import pytest
from browserkit import Server, shot
from flows import add_bots, host_page, join, seat_players, start_game, table_screen

SIZES = [(1280, 720), (1920, 1080), (3840, 2160)]

MEASURE = """() => {
  const problems = [];
  const vw = window.innerWidth, vh = window.innerHeight;
  const oval = document.querySelector(".oval");
  if (!oval) return { problems: ["no oval"], width: 0, font: 0 };
  const f = oval.getBoundingClientRect();
  if (f.bottom > vh + 1 || f.right > vw + 1 || f.top < 0 || f.left < 0)
    problems.push(["the oval leaves the window", f.toJSON(), vw, vh]);
  if (document.scrollingElement.scrollHeight > vh + 1)
    problems.push(["the page scrolls", document.scrollingElement.scrollHeight, vh]);
  const cx = f.left + f.width / 2, cy = f.top + f.height / 2;
  const rx = f.width / 2, ry = 0.45 * f.height, straight = f.height / 2 - ry;
  const onFelt = (x, y) => {
    const dy = Math.max(0, Math.abs(y - cy) - straight);
    return ((x - cx) / rx) ** 2 + (dy / ry) ** 2 <= 1 && Math.abs(y - cy) <= f.height / 2;
  };
  const seats = [...oval.querySelectorAll(".seat")];
  const boxes = seats.map((s) => s.getBoundingClientRect());
  seats.forEach((seat, i) => {
    const b = boxes[i];
    const name = seat.querySelector(".seat-name")?.textContent;
    const points = [[b.left + 3, b.top + 3], [b.right - 3, b.top + 3], [b.left + 3, b.bottom - 3],
                    [b.right - 3, b.bottom - 3], [(b.left + b.right) / 2, b.top],
                    [(b.left + b.right) / 2, b.bottom], [b.left, (b.top + b.bottom) / 2],
                    [b.right, (b.top + b.bottom) / 2]];
    const off = points.filter(([x, y]) => !onFelt(x, y));
    if (off.length) problems.push(["seat off the felt", name, b.toJSON(), off]);
    if (b.bottom > vh || b.right > vw) problems.push(["seat cut by the window", name, b.toJSON()]);
    if (seat.scrollHeight > seat.clientHeight + 1 || seat.scrollWidth > seat.clientWidth + 1)
      problems.push(["seat content clipped", name, seat.scrollHeight, seat.clientHeight]);
    for (const el of seat.querySelectorAll("*")) {
      const r = el.getBoundingClientRect();
      if (!r.width && !r.height) continue;
      if (r.left < b.left - 1 || r.right > b.right + 1
          || r.top < b.top - 1 || r.bottom > b.bottom + 1)
        problems.push(["element out of its seat box", name, el.className, el.textContent,
                       r.toJSON(), b.toJSON()]);
    }
    boxes.forEach((o, j) => {
      if (j <= i) return;
      if (b.left < o.right - 1 && o.left < b.right - 1
          && b.top < o.bottom - 1 && o.top < b.bottom - 1)
        problems.push(["seats overlap", name, seats[j].querySelector(".seat-name")?.textContent]);
    });
    const board = oval.querySelector(".board").getBoundingClientRect();
    if (b.left < board.right && board.left < b.right
        && b.top < board.bottom && board.top < b.bottom)
      problems.push(["seat over the board", name]);
  });
  const width = boxes.reduce((sum, b) => sum + b.width, 0) / Math.max(1, boxes.length);
  const font = parseFloat(getComputedStyle(seats[0]).fontSize);
  return { problems, width, font, seats: seats.length };
}"""


BANK = {"en": "time bank", "pt-PT": "reserva de tempo", "pt-BR": "banco de tempo"}


def _check_sizes(screen: Any, seats: int, lang: str = "en") -> None:
    widths: list[float] = []
    fonts: list[float] = []
    for width, height in SIZES:
        screen.set_viewport_size({"width": width, "height": height})
        screen.wait_for_timeout(300)
        result = screen.evaluate(MEASURE)
        if width == 1280:
            suffix = "" if lang == "en" else f"-{lang}"
            shot(screen, f"tv-{seats}-seats{suffix}-{width}x{height}")
        assert result["seats"] == seats, result
        assert not result["problems"], (seats, width, height, result["problems"][:4])
        widths.append(result["width"])
        fonts.append(result["font"])
    # Larger on a larger screen: the boxes and their words grow with the window.
    assert widths[1] > 1.3 * widths[0], widths
    assert widths[2] > 1.8 * widths[1], widths
    assert fonts[1] > 1.3 * fonts[0], fonts
    assert fonts[2] > 1.8 * fonts[1], fonts


def test_tv_fits_2_6_10_seats_at_720p_and_scales(chromium: Any, server: Server) -> None:
    for seats in (10, 6, 2):
        table = server.create_table(seats=seats, stack=200, action_seconds=5, bank_seconds=60,
                                    bot_seconds=0.2)
        host, _frames, _errors = host_page(chromium, server, table)
        add_bots(host, [f"Robo{n}" for n in range(seats - 1)])
        phone = join(chromium, server, table, "Bruno")
        seat_players(host, ["Bruno"])
        screen = table_screen(chromium, server, table, viewport={"width": 1280, "height": 720})
        start_game(host)
        # Bruno never acts: his turn runs into his time bank, whose label is the longest
        # thing a seat box shows.
        label = screen.locator(".oval .seat .timer.phase-bank .timer-text")
        label.wait_for(timeout=40_000)
        assert "time bank" in label.inner_text()
        _check_sizes(screen, seats)
        for page_context in (screen.context, phone.context, host.context):
            page_context.close()


@pytest.mark.parametrize("lang", ["pt-PT", "pt-BR"])
def test_tv_fits_10_seats_in_portuguese(chromium: Any, server: Server, lang: str) -> None:
    seats = 10
    table = server.create_table(seats=seats, stack=200, action_seconds=5, bank_seconds=60,
                                bot_seconds=0.2)
    host, _frames, _errors = host_page(chromium, server, table)  # the host reads English
    add_bots(host, [f"Robo{n}" for n in range(seats - 1)])
    phone = join(chromium, server, table, "Bruno", lang=lang)
    seat_players(host, ["Bruno"])
    screen = table_screen(chromium, server, table, viewport={"width": 1280, "height": 720},
                          lang=lang)
    start_game(host)
    # The longest thing a seat box shows, in the longer language: the time-bank label.
    label = screen.locator(".oval .seat .timer.phase-bank .timer-text")
    label.wait_for(timeout=40_000)
    assert BANK[lang] in label.inner_text()
    assert screen.evaluate("document.documentElement.lang") == lang
    _check_sizes(screen, seats, lang)
    for page_context in (screen.context, phone.context, host.context):
        page_context.close()
