"""The pages as a new player found them (issue 10, part 5): the header's settings button has a
space between its icon and its word, the phone's own panel sets the name apart from the stack,
and on the table screen no seat box sits on the oval's edge."""

from __future__ import annotations

from typing import Any

from browserkit import Server, shot
from flows import add_bots, host_page, join, seat_players, start_game, table_screen


def _box(page: Any, selector: str) -> dict[str, float]:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return dict(box)


def _seats_on_the_felt(screen: Any, name: str) -> None:
    """Every seat box of the table screen lies wholly on the felt: inside the oval's edge (a
    box with corner radii of 50% / 45%, as the style sheet draws it)."""
    shot(screen, name)
    felt = _box(screen, ".oval")
    cx, cy = felt["x"] + felt["width"] / 2, felt["y"] + felt["height"] / 2
    rx, ry = felt["width"] / 2, 0.45 * felt["height"]
    straight = felt["height"] / 2 - ry  # the straight part of the sides

    def on_felt(x: float, y: float) -> bool:
        dy = max(0.0, abs(y - cy) - straight)
        return ((x - cx) / rx) ** 2 + (dy / ry) ** 2 <= 1 and abs(y - cy) <= felt["height"] / 2

    seats = screen.locator(".oval .seat").all()
    assert seats
    for seat in seats:
        box = seat.bounding_box()
        if box is None:  # redrawn between the query and the measure
            continue
        x0, y0, x1, y1 = box["x"], box["y"], box["x"] + box["width"], box["y"] + box["height"]
        # Each corner, cut by the box's own rounding (about 8 px), and the edges' middles.
        points = [(x0 + 3, y0 + 3), (x1 - 3, y0 + 3), (x0 + 3, y1 - 3), (x1 - 3, y1 - 3),
                  ((x0 + x1) / 2, y0), ((x0 + x1) / 2, y1), (x0, (y0 + y1) / 2),
                  (x1, (y0 + y1) / 2)]
        outside = [p for p in points if not on_felt(*p)]
        assert not outside, (seat.inner_text(), box, felt, outside)


def test_ten_seats_stay_on_the_felt(chromium: Any, server: Server) -> None:
    table = server.create_table(seats=10, stack=200)
    host, _frames, _errors = host_page(chromium, server, table)
    add_bots(host, [f"Robo{n}" for n in range(9)])
    phone = join(chromium, server, table, "Bruno")
    seat_players(host, ["Bruno"])
    screen = table_screen(chromium, server, table)
    start_game(host)
    screen.wait_for_selector(".seat")
    _seats_on_the_felt(screen, "first-hour-table-10-1280x800")
    phone.close()


def test_first_hour_pages(chromium: Any, server: Server) -> None:
    table = server.create_table(seats=6, stack=200)
    host, _frames, _errors = host_page(chromium, server, table)
    names = ["Ana", "Bruno", "Carla", "Dora", "Edu", "Fabio"]
    phones = [join(chromium, server, table, name) for name in names]
    seat_players(host, names)
    screen = table_screen(chromium, server, table)
    start_game(host)
    bruno = phones[1].page
    bruno.wait_for_selector(".hole .card[data-card]")
    screen.wait_for_selector(".seat")

    # "⚙ Settings": the icon and the word apart (a wide screen shows the word).
    icon = _box(screen, "#settings-button span[aria-hidden]")
    label = _box(screen, "#settings-button .label")
    assert label["x"] - (icon["x"] + icon["width"]) >= 3, (icon, label)

    # The phone's own panel: "Bruno · Your stack 200", not "Bruno Your stack 200".
    line = bruno.locator(".me-line").inner_text()
    assert "Bruno · " in line, line
    shot(bruno, "first-hour-phone-360x740")

    _seats_on_the_felt(screen, "first-hour-table-1280x800")
    for phone in phones:
        phone.close()
