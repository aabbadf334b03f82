"""The actions stay in reach on phones (issue 23, item 3): on the player's turn the action bar
is inside the screen at 360x640, 360x740, 412x915 and 430x932, with 2, 6 and 10 seats, in the
three languages, without the player scrolling; its buttons' words fit them; the tab's title
says it is their turn, and the tone plays when they chose it."""

from __future__ import annotations

from typing import Any

from browserkit import SHOTS, Server, shot
from flows import add_bots, host_page, join, seat_players, start_game

SIZES = [(360, 640), (360, 740), (412, 915), (430, 932)]

IN_VIEW = """() => {
  const panel = document.querySelector("#actions.live");
  if (!panel) return ["no live action bar"];
  const problems = [];
  const vh = window.innerHeight, vw = window.innerWidth;
  const boxes = [panel, ...panel.querySelectorAll("button.act")];
  for (const el of boxes) {
    const r = el.getBoundingClientRect();
    if (r.top < 0 || r.bottom > vh + 0.5 || r.left < 0 || r.right > vw + 0.5)
      problems.push(["outside the screen", el.className, el.textContent, r.toJSON(), vw, vh]);
    if (el.tagName === "BUTTON" && el.scrollWidth > el.clientWidth + 1)
      problems.push(["words wider than the button", el.textContent]);
  }
  return problems;
}"""

TONE = """window.__tones = 0;
const Real = window.AudioContext;
window.AudioContext = class extends Real {
  createOscillator() { window.__tones += 1; return super.createOscillator(); }
};
localStorage.setItem("feltro.turn-sound", "1");"""


def _table(chromium: Any, server: Server, seats: int, lang: str) -> Any:
    table = server.create_table(seats=seats, stack=200, bot_seconds=0.1)
    host, _frames, _errors = host_page(chromium, server, table)
    add_bots(host, [f"Robo{n}" for n in range(seats - 1)])
    phone = join(chromium, server, table, "Bruno", lang=lang)
    seat_players(host, ["Bruno"])
    phone.context.add_init_script(TONE)
    phone.page.reload()
    phone.page.wait_for_selector("#net[data-status='online']")
    start_game(host)
    return phone, host


def test_action_bar_inside_the_phone_screen_on_your_turn(chromium: Any, server: Server) -> None:
    for seats, lang in ((6, "pt-PT"), (10, "en"), (2, "pt-BR")):
        phone, host = _table(chromium, server, seats, lang)
        page = phone.page
        page.set_viewport_size({"width": 360, "height": 740})
        # The turn comes while the player looks at the top of the page: no scrolling by hand.
        page.locator("#actions.live button.act").first.wait_for(timeout=30_000)
        page.wait_for_timeout(300)
        assert page.evaluate(IN_VIEW) == [], (seats, lang, "on arrival")
        assert page.title().startswith("▶ "), page.title()
        # Call (or Check) is the highlighted button, not Raise, and no line says
        # "You can't check" on every turn (the Call button says what is owed).
        assert page.locator("#actions .refusals").count() == 0
        colour = "el => getComputedStyle(el).backgroundColor"
        primary = page.locator("button.act.call, button.act.check").first.evaluate(colour)
        assert primary == "rgb(255, 209, 102)"
        assert page.locator("button.act.raise").evaluate(colour) != primary
        assert page.evaluate("window.__tones") >= 1
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            page.evaluate("window.scrollTo(0, 0)")
            page.wait_for_timeout(200)
            problems = page.evaluate(IN_VIEW)
            assert problems == [], (seats, lang, width, height, problems[:3])
            if height == 640:  # what the player sees, not the whole page
                SHOTS.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(SHOTS / f"phone-actions-{seats}-seats-{lang}-360x640.png"))
        shot(page, f"phone-actions-{seats}-seats-{lang}-430x932")
        page.locator("#actions.live button.act.fold").click()
        page.wait_for_function("() => !document.title.startsWith('▶')")
        phone.close()
        host.context.close()
