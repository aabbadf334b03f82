"""The message catalogues: complete in every language, same placeholders, every key used
exists, and the locale picks the language."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from feltro.i18n import (
    LANGUAGES,
    catalogue,
    check_language,
    language_from_environment,
    placeholders,
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
    "refusal.check.B3", "refusal.raise.B7", "refusal.raise.B8", "refusal.raise.B10",
    "key.fold", "key.passive", "key.amount",
    "status.hand_over", "status.hand_over_last", "result.continue_over",
    "series.end_last_player", "series.end_stopped", "act.bet_to", "act.raise_to",
    "act.bet_prompt", "act.raise_prompt", "quit.not_saved", "quit.saved",
    "input.empty", "input.not_a_number", "input.below_min", "input.above_stack",
    "input.closed",
    *(f"join.phase.{p}" for p in ("connecting", "pending", "reconnecting", "refused", "lobby",
                                   "paused")),
    *(f"join.bye.{code}" for code in ("revoked", "replaced")),
    *(f"join.code.{code}" for code in ("not_now", "rate_limited", "broken_table")),
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
    assert sorted(used - set(catalogue("en"))) == []


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
