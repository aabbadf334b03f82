"""The web pages' words: every key the scripts use exists in every language, with the same
placeholders; the shared catalogue the pages load is ``feltro.i18n``'s TOML, served as JSON.

No browser needed.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from feltro.i18n import LANGUAGES, catalogue, placeholders
from feltro.server.refusals import SEAT_REFUSALS

STATIC = Path(__file__).resolve().parents[2] / "src" / "feltro" / "server" / "static"
SCRIPTS = sorted((STATIC / "js").glob("*.js"))
# Keys built at run time from a prefix and a value the server sends (a rank, a status...).
COMPUTED = {
    "web.rank.": [f"web.rank.{r}" for r in "23456789TJQKA"],
    "web.suit.": [f"web.suit.{s}" for s in "cdhs"],
    "web.street.": [f"web.street.{s}" for s in ("preflop", "flop", "turn", "river", "showdown")],
    "web.status.": [f"web.status.{s}" for s in ("lobby", "playing", "paused", "over", "broken",
                                                     "stalled")],
    "web.net.": [f"web.net.{s}" for s in ("online", "connecting", "offline")],
    "web.err.": [f"web.err.{s}" for s in ("not_your_turn", "stale", "illegal_amount",
                                          "illegal_action", "illegal_check", "raise_closed",
                                          "seat_taken", "table_full", "rate_limited")],
    "series.end_": ["series.end_last_player", "series.end_stopped"],
    # Every refusal a table's player can meet, worded from its data (rule and reason code).
    "refusal.": [f"refusal.{rule}.{reason}" for rule, reason in SEAT_REFUSALS],
    "log.calls": ["log.calls", "log.calls_all_in"],
    "log.": ["log.bets", "log.bets_all_in", "log.raises", "log.raises_all_in"],
    "bot.level.": [],  # falls back to the bot's kind when a level has no name
}


def web_catalogue(lang: str) -> dict[str, str]:
    data: dict[str, str] = json.loads((STATIC / "i18n" / f"{lang}.json").read_text("utf-8"))
    return data


def used_keys() -> tuple[set[str], set[str]]:
    """Literal keys (``t("web.x")``, ``data-i18n``...) and template prefixes (``t(`web.x.${``)."""
    literal: set[str] = set()
    prefixes: set[str] = set()
    for script in SCRIPTS:
        text = script.read_text("utf-8")
        literal |= set(re.findall(r'"((?:web|act|input|table|log|pot|standings|series|refusal|'
                                  r'bot)\.[A-Za-z0-9_.]+)"', text))
        prefixes |= set(re.findall(r"`((?:web|series|refusal|log|bot)\.[a-z_.]*)\$\{", text))
    return literal, prefixes


def test_every_used_key_exists_in_every_language() -> None:
    literal, prefixes = used_keys()
    assert len(literal) > 100
    for prefix in prefixes:
        assert prefix in COMPUTED, f"a key built from {prefix!r}: list its values in COMPUTED"
    needed = literal | {key for prefix in prefixes for key in COMPUTED[prefix]}
    for lang in LANGUAGES:
        known = set(web_catalogue(lang)) | set(catalogue(lang))
        missing = sorted(needed - known)
        assert not missing, f"{lang}: {missing}"


def test_web_keys_are_the_same_in_every_language_with_the_same_placeholders() -> None:
    english = web_catalogue("en")
    literal, prefixes = used_keys()
    needed = literal | {key for prefix in prefixes for key in COMPUTED[prefix]}
    unused = sorted(k for k in english if k not in needed)
    assert not unused, f"keys no script uses: {unused}"
    for lang in LANGUAGES:
        other = web_catalogue(lang)
        assert set(other) == set(english), lang
        for key, text in english.items():
            assert all(k.startswith("web.") for k in other)
            assert placeholders(other[key]) == placeholders(text), (lang, key)
            if lang != "en" and key not in ("web.seat.bot", "web.turn.seconds"):
                assert other[key] or not text, (lang, key)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_shared_catalogue_is_served_from_the_toml(lang: str, tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from feltro.server.app import ServerConfig, create_app

    with TestClient(create_app(ServerConfig(data_dir=tmp_path))) as client:
        response = client.get(f"/static/i18n/shared/{lang}.json")
        assert response.status_code == 200
        assert response.json() == dict(catalogue(lang))
        assert client.get("/static/i18n/shared/xx.json").status_code == 404
