"""The message catalogue: complete in every language, same placeholders, every key used
exists, one key layout (every error code, bye code, refusal and card error worded under its one
key in every language), counting messages in two forms, and the locale picks the language."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from feltro.i18n import (
    LANGUAGES,
    catalogue,
    check_language,
    has_key,
    language_from_environment,
    placeholders,
    refusal_words,
    t,
)

SRC = Path(__file__).resolve().parents[1] / "src" / "feltro"

# Keys built at run time (f-strings) in the interface code, spelled out.
DYNAMIC_KEYS = [
    *(f"act.size_{s}" for s in ("min", "half_pot", "pot", "all_in")),
    *(f"bot.level.{b}" for b in ("random", "rules", "montecarlo", "expert", "station",
                                         "tight", "tag")),
    *(f"help.{k}" for k in ("fold", "check_call", "sizes", "amount", "next", "standings",
                            "log", "quit")),
    "log.calls", "log.calls_all_in", "log.bets", "log.bets_all_in", "log.raises",
    "log.raises_all_in", "log.posts_small_blind", "log.posts_big_blind",
    "log.flop", "log.turn", "log.river",
    "key.fold", "key.passive", "key.amount",
    "status.hand_over", "status.hand_over_last", "result.continue_over",
    "series.end_last_player", "series.end_stopped", "series.end_ended", "act.bet_to",
    "act.raise_to",
    "act.bet_prompt", "act.raise_prompt", "quit.not_saved", "quit.saved",
    "input.empty", "input.not_a_number", "input.below_min", "input.above_stack",
    "input.closed",
    *(f"join.phase.{p}" for p in ("connecting", "pending", "reconnecting", "refused", "lobby",
                                   "paused")),
    *(f"bye.{code}" for code in ("revoked", "replaced")),
    "join.refused", "join.token_forgotten", "join.bad_token", "join.join_refused",
    "join.certificate", "join.refused_handshake", "join.failed",
    *(f"verify.check.{c}" for c in ("format", "order", "contribution", "secret", "commitment",
                                    "seed", "position", "card", "chain", "fingerprint")),
]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_language_has_every_key(lang: str) -> None:
    english = set(catalogue("en"))
    other = set(catalogue(lang))
    assert sorted(english - other) == [], f"missing in {lang}"
    assert sorted(other - english) == [], f"only in {lang}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_placeholders_are_the_same_in_every_language(lang: str) -> None:
    english = catalogue("en")
    different = {key: (sorted(placeholders(english[key])), sorted(placeholders(text)))
                 for key, text in catalogue(lang).items()
                 if placeholders(text) != placeholders(english[key])}
    assert different == {}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_messages_are_ui_neutral(lang: str) -> None:
    # No Rich/Textual markup and no empty messages: the web client reuses these texts.
    for key, text in catalogue(lang).items():
        assert text.strip(), key
        assert not re.search(r"\[/?(bold|red|b|i|dim)\]", text), key


def test_portuguese_is_portuguese() -> None:
    assert t("table.you_have", "en", hand="pair of aces") == "You have: pair of aces"
    assert t("table.you_have", "pt-PT", hand="par de ases") == "Tem: par de ases"
    assert t("table.you_have", "pt-BR", hand="par de ases") == "Você tem: par de ases"
    assert t("privacy.hint", "pt-PT", name="Ana").endswith("ecrã.")
    assert t("privacy.hint", "pt-BR", name="Ana").endswith("tela.")


def _keys_used_in_source() -> set[str]:
    found: set[str] = set()
    for path in [*SRC.joinpath("tui").glob("*.py"), *SRC.joinpath("remote").glob("*.py"),
                 SRC / "cli" / "play.py", SRC / "cli" / "verify.py", SRC / "cli" / "join.py",
                 SRC / "cli" / "serve.py"]:
        found |= set(re.findall(r"\bt\(\s*\"([a-z_]+(?:\.[A-Za-z0-9_]+)+)\"",
                                path.read_text(encoding="utf-8")))
    return found


def test_every_key_the_code_uses_exists() -> None:
    used = _keys_used_in_source() | set(DYNAMIC_KEYS)
    assert len(used) > 80  # the scan finds the literal keys
    assert sorted(key for key in used if not has_key(key)) == []


def test_t_fills_placeholders_and_rejects_unknown_keys() -> None:
    assert t("act.call", "pt-BR", amount=4) == "Pagar 4"
    with pytest.raises(KeyError):
        t("no.such.key", "en")
    with pytest.raises(KeyError):
        t("act.call", "en", other=1)  # {amount} has no value
    with pytest.raises(KeyError):
        t("act.call", "en")


def test_placeholders_refuse_format_specs() -> None:
    assert placeholders("{name} calls {amount}") == {"name", "amount"}
    with pytest.raises(ValueError, match="placeholders"):
        placeholders("{amount:,}")
    with pytest.raises(ValueError, match="placeholders"):
        placeholders("{0}")


@pytest.mark.parametrize(("env", "lang"), [
    ({"LANG": "pt_PT.UTF-8"}, "pt-PT"),
    ({"LANG": "pt_BR.UTF-8"}, "pt-BR"),
    ({"LC_ALL": "pt_BR", "LANG": "en_US.UTF-8"}, "pt-BR"),
    ({"LANG": "en_GB.UTF-8"}, "en"),
    ({"LANG": "C", "LANGUAGE": "pt"}, "pt-PT"),
    ({}, "en"),
    ({"LANG": "fr_FR.UTF-8"}, "en"),
])
def test_language_from_the_locale(env: dict[str, str], lang: str) -> None:
    assert language_from_environment(env) == lang


def test_unknown_language_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown language"):
        check_language("fr")
    with pytest.raises(ValueError, match="unknown language"):
        catalogue("es")


# --- one key layout: every error code, refusal and card error has its words --------------------

def reason_table(doc: str) -> dict[tuple[str, str], frozenset[str]]:
    """``(rule, reason) -> the params a row names`` from a reason table in a docstring (rows
    ``B3    ``owes``    ``owed``: ...``, continued on indented lines)."""
    rows: dict[tuple[str, str], frozenset[str]] = {}
    key: tuple[str, str] | None = None
    for line in doc.splitlines():
        row = re.match(r"^    ([A-Z][0-9]+) +``([a-z-]+)`` +(.*)$", line)
        if row:
            key = (row.group(1), row.group(2))
            rows[key] = frozenset(re.findall(r"``(\w+)``", row.group(3)))
        elif key is not None and re.match(r"^ {20,}\S", line):
            rows[key] |= frozenset(re.findall(r"``(\w+)``", line))
        else:
            key = None
    return rows


def refusal_cases() -> dict[tuple[str, str], frozenset[str]]:
    """Every refusal the rules can give: the engine's (:class:`Refusal`), the replay's and the
    re-entries' and late seats' (:class:`EntryError`) and the fair dealer's (a seal or value
    refused, D1)."""
    import inspect

    from feltro.errors import EntryError, Refusal
    from feltro.history.replay import ReplayError
    from feltro.server.fairplay import FairPlay

    return (reason_table(Refusal.__doc__ or "") | reason_table(ReplayError.__doc__ or "")
            | reason_table(EntryError.__doc__ or "")
            | reason_table(inspect.cleandoc(FairPlay.check.__doc__ or "").replace("\n", "\n    ")))


def error_codes() -> list[str]:
    from feltro.server.protocol import ErrorCode

    return [code.value for code in ErrorCode]


def bye_codes() -> list[str]:
    from typing import get_args

    from feltro.server.outgoing import ByeOut

    return list(get_args(ByeOut.model_fields["code"].annotation))


def card_reasons() -> set[str]:
    """The reason codes the source gives card and parse errors (``reason="not-a-card"``)."""
    import ast

    found: set[str] = set()
    for path in SRC.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in ("CardError", "ParseError")):
                found |= {k.value.value for k in node.keywords if k.arg == "reason"
                          and isinstance(k.value, ast.Constant)}
    return found


def unworded(words: dict[str, str] | object) -> list[str]:
    """The keys every error code, bye code, refusal and card error needs that *words* (a flat
    catalogue) lacks."""
    assert isinstance(words, dict)
    needed = [f"error.{code}" for code in error_codes()]
    needed += [f"bye.{code}" for code in bye_codes()]
    needed += [f"refusal.{rule}.{reason}" for rule, reason in refusal_cases()]
    needed += [f"card.{reason}" for reason in sorted(card_reasons())]
    return [key for key in needed if key not in words]


def test_the_tables_are_read() -> None:
    cases = refusal_cases()
    assert len(cases) >= 39
    assert cases[("B8", "not-reopened")] == {"current_bet", "raised_since", "full_increment"}
    assert cases[("B2", "not-your-turn")] == {"position", "to_act", "seat", "to_act_seat"}
    assert cases[("D10", "decision-skipped")] == {"player", "big_blind_player", "posted",
                                                 "big_blind"}
    assert len(error_codes()) >= 29
    assert "not_host" in error_codes()
    assert "revoked" in bye_codes()
    assert {"not-a-card", "duplicate", "board-size"} <= card_reasons()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_error_code_refusal_and_card_error_has_words(lang: str) -> None:
    """Issue 19: a pt-PT phone showed "Recusado: only the host may do that" because 19 of 28
    error codes had no words; the terminal and the web each had their own keys for some."""
    assert unworded(dict(catalogue(lang))) == []


def test_the_words_check_sees_a_missing_key() -> None:
    # Negative control: the catalogue without one code's words, and the old layout, fail.
    words = dict(catalogue("pt-PT"))
    del words["error.not_host"]
    assert unworded(words) == ["error.not_host"]
    old_web = {f"web.err.{code}": "x" for code in ("not_your_turn", "stale", "illegal_amount",
               "illegal_action", "illegal_check", "raise_closed", "seat_taken", "table_full",
               "rate_limited")}
    assert len([k for k in unworded(old_web) if k.startswith("error.")]) == len(error_codes())


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_kind_of_error_has_one_key_layout(lang: str) -> None:
    """``error.<code>``, ``bye.<code>``, ``refusal.<rule>.<reason>`` and ``card.<reason>``:
    nothing else words them (the terminal's ``refusal.raise.B8`` and the pages'
    ``web.err.*`` are gone), and nothing stale is left under those prefixes."""
    keys = set(catalogue(lang))

    def under(prefix: str) -> set[str]:
        return {key for key in keys if key.startswith(prefix)}

    assert under("error.") == {f"error.{code}" for code in error_codes()}
    assert under("bye.") == {f"bye.{code}" for code in bye_codes()}
    assert under("refusal.") == {f"refusal.{rule}.{reason}" for rule, reason in refusal_cases()
                                 } | {"refusal.fallback"}
    assert under("card.") == {f"card.{reason}" for reason in card_reasons()}
    assert not [key for key in keys if re.search(r"\.(err|code|cards|bye)\.", key)]


def test_the_pages_load_the_one_catalogue() -> None:
    static = SRC / "server" / "static"
    assert not (static / "i18n").exists(), "a second catalogue for the pages"
    script = (static / "js" / "i18n.js").read_text("utf-8")
    assert "/static/i18n/${code}.json" in script
    assert "shared" not in script


@pytest.mark.parametrize("lang", LANGUAGES)
def test_refusal_words_need_only_the_numbers_the_refusal_has(lang: str) -> None:
    words = catalogue(lang)
    extra = {f"{rule}.{reason}": sorted(placeholders(words[f"refusal.{rule}.{reason}"]) - params)
             for (rule, reason), params in refusal_cases().items()}
    assert {case: names for case, names in extra.items() if names} == {}


def test_a_refusal_is_worded_from_its_data() -> None:
    from feltro.errors import Refusal

    assert refusal_words(Refusal("B8", "not-reopened", {"current_bet": 15}), "pt-PT") == (
        "Não pode aumentar: o all-in curto para 15 não reabre as apostas (B8).")
    # A reason without words (or without its numbers) says its rule and code.
    assert refusal_words(Refusal("B5", "new-case", {}), "en") == "Not allowed: new-case (B5)"
    assert refusal_words(Refusal("B3", "owes", {}), "pt-BR") == (
        "Não é permitido: owes (B3)")


# --- counting messages --------------------------------------------------------------------------

@pytest.mark.parametrize("lang", LANGUAGES)
def test_counting_messages_have_both_forms_with_the_same_placeholders(lang: str) -> None:
    words = catalogue(lang)
    counting = {key.rsplit(".", 1)[0] for key in words if key.endswith((".one", ".other"))}
    assert len(counting) >= 8
    for key in counting:
        one, other = words.get(f"{key}.one"), words.get(f"{key}.other")
        assert one is not None, key
        assert other is not None, key
        assert placeholders(one) == placeholders(other), key
        assert key not in words, key


@pytest.mark.parametrize(("lang", "hands", "said"), [
    ("en", 1, "One player has every chip, after 1 hand."),
    ("en", 2, "One player has every chip, after 2 hands."),
    ("pt-PT", 1, "Um jogador tem todas as fichas, ao fim de 1 mão."),
    ("pt-PT", 0, "Um jogador tem todas as fichas, ao fim de 0 mãos."),
    ("pt-BR", 1, "Um jogador tem todas as fichas, depois de 1 mão."),
    ("pt-BR", 12, "Um jogador tem todas as fichas, depois de 12 mãos."),
])
def test_counts_are_said_properly(lang: str, hands: int, said: str) -> None:
    """Issue 23: "ao fim de 1 mãos"."""
    assert t("series.end_last_player", lang, hands=hands) == said


def test_the_count_is_the_last_number() -> None:
    from feltro.i18n import plural_form

    assert plural_form("{number}. {table}: {hands} hands", {"number": 1, "table": "Casa",
                                                           "hands": 4}) == "other"
    assert plural_form("{number}. {table}: {hands} hands", {"number": 4, "table": "Casa",
                                                           "hands": 1}) == "one"
    assert t("verify.ok", "en", hands=1, fingerprint="ab12").startswith("1 hand verifies")
