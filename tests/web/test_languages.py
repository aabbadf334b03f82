"""Portuguese and English at one table: each person's own language, switchable, with hand
names and refusals in it too."""

from __future__ import annotations

from typing import Any

from browserkit import Server, check_secrecy, shot, wait_until
from flows import host_page, join, start_game


def test_each_player_in_their_language(chromium: Any, server: Server) -> None:
    table = server.create_table(seats=4, stack=100)
    host, _, _ = host_page(chromium, server, table, lang="pt-PT")
    assert "Convidar jogadores" in host.locator("body").inner_text()
    host.click("#bot-form button[type=submit]")
    pt = join(chromium, server, table, "Joana", lang="pt-PT")
    br = join(chromium, server, table, "Thiago", lang="pt-BR")
    en = join(chromium, server, table, "Kate", lang="en")
    pt.page.get_by_text("À espera de que o anfitrião aceite o seu pedido").wait_for()
    br.page.get_by_text("Esperando o anfitrião aceitar você").wait_for()
    for name in ("Joana", "Thiago", "Kate"):
        button = host.get_by_role("button", name=f"Aceitar {name}")
        button.wait_for()
        button.click()
        host.locator(".admin-seats strong", has_text=name).wait_for()
    start_game(host)
    for phone in (pt, br, en):
        phone.page.wait_for_selector(".hole .card[data-card]")

    # Hand names come from the server in each connection's language.
    wait_until(lambda: pt.page.locator(".hand-name").count() > 0, what="a hand name")
    assert pt.page.locator(".hand-name").inner_text().startswith("Tem: ")
    assert br.page.locator(".hand-name").inner_text().startswith("Você tem: ")
    assert en.page.locator(".hand-name").inner_text().startswith("You have: ")
    label = pt.page.locator(".hole .card").first.get_attribute("aria-label") or ""
    assert label.count(" de ") == 1  # "Ás de espadas"

    # Whoever's turn it is sees the actions in their words; the others wait in theirs.
    words = {pt.name: ("Desistir", "É a sua vez"), br.name: ("Desistir", "Sua vez"),
             en.name: ("Fold", "Your turn")}

    def someone_to_act() -> bool:
        return any(p.page.locator("#actions.live").count() for p in (pt, br, en))

    wait_until(someone_to_act, 30, what="a turn")
    for phone in (pt, br, en):
        if phone.page.locator("#actions.live").count():
            fold, turn = words[phone.name]
            assert phone.page.locator("button.act.fold").inner_text() == fold
            assert turn in phone.page.locator("#me").inner_text()
            refusals = phone.page.locator(".refusals")
            refusal = refusals.inner_text() if refusals.count() else ""
            if refusal:
                assert ("B3" in refusal) or ("B7" in refusal) or ("B8" in refusal)
            shot(phone.page, f"phone-turn-{phone.name}-360x740")
    shot(pt.page, "phone-pt-PT-360x740")
    shot(br.page, "phone-pt-BR-360x740")

    # Kate switches to Portuguese (Brazil) on her phone: the page and the hand name follow.
    page = en.page
    page.click("#settings-button")
    page.select_option("#lang-select", "pt-BR")
    page.keyboard.press("Escape")
    wait_until(lambda: page.locator(".hand-name").inner_text().startswith("Você tem: "), 10,
               what="the hand name in Portuguese")
    assert page.evaluate("document.documentElement.lang") == "pt-BR"
    assert "Histórico" in page.locator("body").inner_text()
    # It is remembered on this device, not for the others.
    page.reload()
    page.wait_for_selector(".hand-name")
    assert page.locator(".hand-name").inner_text().startswith("Você tem: ")
    assert pt.page.locator(".hand-name").inner_text().startswith("Tem: ")
    for phone in (pt, br, en):
        assert not phone.errors, phone.errors
        check_secrecy(phone.frames, may_hold_cards=True)
