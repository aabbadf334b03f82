"""A lost link is not a lost seat (issue 23, item 6): the host gives a seat a new link; it
opens the seat on a new phone, the old link stops working and its phone shows a clean page
saying what happened. Also on the host page: the invite QR goes once the series starts, and a
bot is added at a sensible level unless another is picked."""

from __future__ import annotations

from typing import Any

from browserkit import Server, new_context, record_frames, shot
from flows import host_page, join, seat_players, start_game


def test_reissued_link_works_and_the_old_one_does_not(chromium: Any, server: Server) -> None:
    table = server.create_table(seats=3, stack=200)
    host, _frames, _errors = host_page(chromium, server, table)
    assert host.locator(".share .qr").is_visible()
    assert host.locator("#bot-kind").input_value() == "tag"  # not "random"
    host.fill("#bot-name", "Robo")
    host.click("#bot-form button[type=submit]")
    host.locator(".admin-seats strong", has_text="Robo").wait_for()
    bruno = join(chromium, server, table, "Bruno", lang="pt-BR")
    seat_players(host, ["Bruno"])
    # The page drops the token from its address bar once read (issue 22) and keeps it on the
    # device: the old link is rebuilt from there.
    old_token = bruno.page.evaluate(f"localStorage.getItem('feltro.seat.{table['table_id']}')")
    assert old_token
    assert old_token not in bruno.page.url
    old_url = f"{server.url}/play/{table['table_id']}#{old_token}"
    start_game(host)
    bruno.page.wait_for_selector(".hole .card[data-card]")
    assert not host.locator(".share .qr").is_visible()  # the invite is for the lobby
    # Mid-hand (blinds posted), the seat list and the standings give the same chips.
    rows = host.locator("#host-standings tbody tr")
    rows.nth(1).wait_for()
    standings = dict(rows.evaluate_all("rows => rows.map(r => [r.children[1].firstChild"
                                       ".textContent.trim(), r.children[2].textContent.trim()])"))
    for name in ("Robo", "Bruno"):
        line = host.locator(".admin-seats li", has_text=name).locator(".seat-stack").inner_text()
        assert line.strip(" ·") == standings[name], (line, standings)

    seat = host.locator(".admin-seats li", has_text="Bruno").get_attribute("data-seat")
    host.click(f"[data-reissue='{seat}']")
    new_url = host.locator(".seat-link input").input_value()
    assert f"/play/{table['table_id']}#" in new_url
    assert new_url != old_url
    qr = host.locator(".seat-link img.qr")
    qr.wait_for()
    host.wait_for_function("() => document.querySelector('.seat-link img.qr').naturalWidth > 0")
    shot(host, "host-new-seat-link-1280x800")

    # The phone with the old link: a clean page that says what happened, no frozen table.
    bruno.page.wait_for_selector("#seat-gone")
    assert bruno.page.locator("#actions").count() == 0
    assert "peça o novo link ao anfitrião" in bruno.page.locator("#seat-gone").inner_text()
    assert bruno.page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth")
    shot(bruno.page, "phone-seat-gone-pt-BR-360x740")

    # The new link opens the seat, cards and all, on another phone.
    context = new_context(chromium, lang="en")
    phone = context.new_page()
    frames = record_frames(phone, "new phone")
    phone.goto(new_url)
    phone.wait_for_selector(".hole .card[data-card]")
    assert frames.states()[-1]["you"]["seat"] == int(seat or 0)

    # The old link, opened anywhere, holds nothing.
    stale = new_context(chromium, lang="en").new_page()
    stale.goto(old_url)
    stale.wait_for_selector("#seat-gone")
    assert stale.locator(".hole .card").count() == 0
    bruno.close()
    context.close()


def test_remove_asks_first_and_can_be_undone(chromium: Any, server: Server) -> None:
    # A long pause between hands: the undo must come before the next deal.
    table = server.create_table(seats=3, stack=200, between_hands_seconds=8)
    host, _frames, _errors = host_page(chromium, server, table)
    host.fill("#bot-name", "Robo")
    host.click("#bot-form button[type=submit]")
    host.locator(".admin-seats strong", has_text="Robo").wait_for()
    phones = [join(chromium, server, table, name) for name in ("Bruno", "Carla")]
    seat_players(host, ["Bruno", "Carla"])
    start_game(host)
    carla = phones[1].page
    carla.wait_for_selector(".hole .card[data-card]")
    seat = host.locator(".admin-seats li", has_text="Carla").get_attribute("data-seat")
    asked: list[str] = []

    # "Cancel": nothing happens.
    def cancel(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.dismiss()

    host.once("dialog", cancel)
    host.click(f"[data-remove='{seat}']")
    host.wait_for_timeout(500)
    assert asked
    assert "Carla" in asked[0]
    assert "undo" in asked[0]
    assert carla.locator("#seat-gone").count() == 0

    # "OK": removed, the phone says so; then the host undoes it and Carla plays on.
    host.once("dialog", lambda dialog: dialog.accept())
    host.click(f"[data-remove='{seat}']")
    carla.wait_for_selector("#seat-gone")
    host.click(f"[data-restore='{seat}']")
    host.locator(f"[data-restore='{seat}']").wait_for(state="detached")
    assert "Removed" not in host.locator(f".admin-seats li[data-seat='{seat}']").inner_text()
    carla.click("#seat-retry")
    carla.wait_for_selector(".hole .card[data-card], .me")
    assert carla.locator("#seat-gone").count() == 0
    for phone in phones:
        phone.close()
