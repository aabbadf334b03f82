"""One vocabulary per language (issue 23): the glossary (``docs/glossary.md``) names the one word
for each concept in en, pt-PT and pt-BR and the synonyms not to use; every catalogue message and
page keeps to it, and the buttons and labels say the chosen words."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

import pytest

from feltro.i18n import LANGUAGES, catalogue

ROOT = Path(__file__).resolve().parents[1]
GLOSSARY = ROOT / "docs" / "glossary.md"
PAGES = [ROOT / "src" / "feltro" / "server" / "static" / "shell.html"]

# Where each concept's word must be read: the buttons, tags and labels people see most.
ANCHORS = {
    "fold": ["act.fold", "log.folds", "seat.folded", "web.seat.folded"],
    "check": ["act.check", "log.checks", "web.announce.options_check"],
    "call": ["act.call", "log.calls", "web.announce.options_call"],
    "bet": ["act.bet_to", "log.bets"],
    "raise": ["act.raise_to", "log.raises"],
    "pot": ["pot.main", "web.hand.pot"],
    "side pot": ["pot.side"],
    "board": ["table.board", "web.hand.board", "history.board"],
    "betting round": ["web.act.amount", "refusal.B10.capped"],
    "series": ["series.over_title", "web.host.start", "web.host.end", "web.status.over"],
    "table": ["web.tabs.table", "web.index.table_name"],
    "seat": ["web.join.seat", "web.seat.empty"],
    "showdown": ["log.showdown", "web.street.showdown", "web.showdown.title"],
    "muck": ["log.mucks", "web.showdown.mucks"],
    "out of the series": ["seat.out", "web.seat.out", "web.over.eliminated"],
    "time bank": ["web.turn.bank"],
    "host": ["web.seat.host", "error.not_host"],
    "away": ["web.seat.away"],
    "button": ["web.seat.button"],
}


def glossary(text: str | None = None) -> dict[str, dict[str, tuple[str, list[str]]]]:
    """``concept -> lang -> (word, synonyms not to use)`` from the glossary's table."""
    text = GLOSSARY.read_text("utf-8") if text is None else text
    rows: dict[str, dict[str, tuple[str, list[str]]]] = {}
    for line in text.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 4 or cells[0] in ("concept", "---") or not line.startswith("|"):
            continue
        concept, *words = cells
        rows[concept] = {}
        for lang, cell in zip(LANGUAGES, words, strict=True):
            word, _, never = cell.partition("≠")
            rows[concept][lang] = (word.strip(),
                                   [w.strip() for w in never.split(",") if w.strip()])
    return rows


def _pattern(phrase: str) -> re.Pattern[str]:
    """A whole-word, case-insensitive pattern; a trailing ``*`` makes the last word a stem."""
    end = r"\w*" if phrase.endswith("*") else r"(?!\w)"
    return re.compile(r"(?<!\w)" + re.escape(phrase.rstrip("*")) + end, re.IGNORECASE)


def strays(messages: Mapping[str, str], lang: str,
           rows: dict[str, dict[str, tuple[str, list[str]]]] | None = None) -> list[str]:
    """``key: synonym (concept)`` for every message that says a synonym not to use."""
    found = []
    for concept, langs in (rows or glossary()).items():
        for never in langs[lang][1]:
            pattern = _pattern(never)
            found += [f"{key}: {never} ({concept})" for key, text in messages.items()
                      if pattern.search(text)]
    return sorted(found)


def _stems(word: str) -> re.Pattern[str]:
    """The chosen word however it is conjugated: each word of it cut to its stem."""
    parts = [w[:max(3, len(w) - 2)] if len(w) > 4 else w for w in word.split()]
    return re.compile(r"\w*\s+".join(re.escape(p) for p in parts), re.IGNORECASE)


def test_the_glossary_is_read() -> None:
    rows = glossary()
    assert {"fold", "check", "call", "bet", "raise", "all-in", "pot", "side pot", "blind",
            "button", "stack", "chips", "series", "table", "seat", "showdown", "muck",
            "out of the series", "time bank", "timeout", "host"} <= set(rows)
    assert rows["call"]["pt-PT"] == ("pagar", ["iguala*"])
    assert set(ANCHORS) <= set(rows)


def _pages() -> dict[str, str]:
    return {path.name: path.read_text("utf-8") for path in PAGES}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_stray_synonym_in_the_catalogue_or_the_pages(lang: str) -> None:
    assert strays({**catalogue(lang), **_pages()}, lang) == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_buttons_and_labels_say_the_chosen_words(lang: str) -> None:
    words = catalogue(lang)
    rows = glossary()
    wrong = {}
    for concept, keys in ANCHORS.items():
        chosen = rows[concept][lang][0].split(",")[0].split("(")[0].strip()
        pattern = _stems(chosen)
        said = {key: words.get(key, words.get(f"{key}.other", "")) for key in keys}
        wrong |= {key: (chosen, text) for key, text in said.items() if not pattern.search(text)}
    assert wrong == {}


def test_the_check_sees_the_old_words() -> None:
    """Negative control: messages the catalogues and pages said before (issue 23)."""
    old_pt_br = {"web.seat.folded": "Largou", "web.act.keys": "F largar, C mesa/pagar",
                 "web.announce.options_check": "Mesa ou apostar",
                 "log.showdown": "Confronto",
                 "web.over.eliminated": "{name} eliminado na mão {n}",
                 "web.turn.bank": "banco de tempo"}
    assert strays(old_pt_br, "pt-BR") == [
        "log.showdown: confronto (showdown)",
        "web.act.keys: largar* (fold)",
        "web.act.keys: mesa/pagar (check)",
        "web.announce.options_check: mesa ou apostar (check)",
        "web.over.eliminated: eliminad* (out of the series)",
        "web.seat.folded: largou (fold)",
    ]
    old_pt_pt = {"web.act.keys": "C passar/igualar",
                 "web.act.amount": "Quantia (total nesta volta)",
                 "web.host.start": "Começar o jogo"}
    assert strays(old_pt_pt, "pt-PT") == [
        "web.act.amount: nesta volta (betting round)",
        "web.act.keys: iguala* (call)",
        "web.host.start: começar o jogo (series)",
    ]
    assert strays({"web.status.over": "Game over"}, "en") == [
        "web.status.over: game over (series)"]
    # Whole words only: "passar" is not "largar", "Largura" is not a fold.
    assert strays({"x": "Passar", "y": "correto"}, "pt-BR") == []
