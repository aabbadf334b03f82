"""The pages word refusals from the data the server sends (rule, reason code, numbers), in the
reader's language, and take their languages from the server (feltro.i18n)."""

from __future__ import annotations

from typing import Any

from browserkit import Server, new_context

from feltro.i18n import LANGUAGES, language_names, t

WORDS = """async (frames) => {
  const ui = await import("/static/js/ui.js");
  return frames.map((msg) => ui.errorText(msg));
}"""


def test_refusals_in_the_readers_language__B6_B8(chromium: Any, server: Server) -> None:
    table = server.create_table(seats=3)
    context = new_context(chromium, lang="pt-PT")
    page = context.new_page()
    page.goto(f"{server.url}/table/{table['table_id']}")
    page.wait_for_selector("#net[data-status='online']")
    frames = [
        {"type": "error", "code": "illegal_amount", "reason": "The minimum is 4, not 3 (B6).",
         "rule": "B6", "refusal": {"rule": "B6", "reason": "below-min",
                                   "params": {"to": 3, "min_to": 4}}},
        {"type": "error", "code": "raise_closed", "reason": "anything at all", "rule": "B8",
         "refusal": {"rule": "B8", "reason": "not-reopened",
                     "params": {"current_bet": 15, "raised_since": 5, "full_increment": 10}}},
        {"type": "error", "code": "illegal_action", "reason": "…", "rule": "D5",
         "refusal": {"rule": "D5", "reason": "newer-reason", "params": {"street": 1}}},
        {"type": "error", "code": "not_host", "reason": "only the host may do that"},
    ]
    assert page.evaluate(WORDS, frames) == [
        "O mínimo é 4, não 3 (B6).",
        "Não pode aumentar: o all-in curto para 15 não reabre as apostas (B8).",
        t("refusal.fallback", "pt-PT", rule="D5", detail="newer-reason"),
        "Só o anfitrião pode fazer isso.",
    ]
    # The language menu lists feltro.i18n's languages, each named in itself.
    page.click("#settings-button")
    options = page.locator("#lang-select option")
    names = language_names()
    assert [options.nth(i).get_attribute("value") for i in range(options.count())] == \
        list(LANGUAGES)
    assert [options.nth(i).inner_text() for i in range(options.count())] == \
        [names[code] for code in LANGUAGES]
    context.close()
