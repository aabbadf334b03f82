"""The Rules page in the browser, and rule ids on the other pages as links to it in the
reader's language."""

from __future__ import annotations

from typing import Any

from browserkit import Server, new_context, wait_until


def test_rule_ids_on_a_page_link_to_the_rule_in_the_readers_language__B8(
        chromium: Any, server: Server) -> None:
    context = new_context(chromium, phone=True, lang="pt-PT")
    page = context.new_page()
    page.goto(f"{server.url}/?lang=pt-PT")
    wait_until(lambda: page.evaluate("document.documentElement.lang") == "pt-PT",
               what="the page in pt-PT")  # (wait_for_function evaluates strings: the CSP refuses)
    # Any text that appears later (a refusal, a toast, the results) is linked too.
    page.evaluate("""() => {
        const p = document.createElement("p");
        p.id = "said";
        p.textContent = "Não pode aumentar: o all-in curto para 15 não reabre as apostas (B8).";
        document.querySelector("main").append(p);
    }""")
    link = page.locator("#said a.rule-link")
    link.wait_for()
    assert link.inner_text() == "B8"
    assert link.get_attribute("href") == "/rules/pt-PT#B8"
    assert page.locator("#said").inner_text().startswith("Não pode aumentar")

    rules = context.new_page()
    rules.goto(f"{server.url}/rules/pt-PT#B8")
    section = rules.locator("section#B8")
    assert "Um all-in curto não reabre as apostas" in section.inner_text()
    assert rules.evaluate("location.hash") == "#B8"
    assert section.evaluate("el => el.matches(':target')")
    top = section.bounding_box()
    assert top is not None
    assert top["y"] < 200  # scrolled to the rule
    rules.click("section#B8 a[href='#X3']")
    assert rules.evaluate("location.hash") == "#X3"
    context.close()
