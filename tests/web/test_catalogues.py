"""The web pages' words: every key the scripts use exists in every language, and the pages load
the one catalogue of every interface (``feltro.i18n``'s TOML, served as JSON), so that no
``web.*`` key is left unused.

No browser needed.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from feltro.i18n import LANGUAGES, catalogue, has_key

STATIC = Path(__file__).resolve().parents[2] / "src" / "feltro" / "server" / "static"
SCRIPTS = sorted((STATIC / "js").glob("*.js"))
ACTION_KEYS = ("folds", "checks", "calls", "calls_all_in", "bets", "bets_all_in", "raises",
               "raises_all_in", "timeout.folds", "timeout.checks", "withheld.folds")
# Keys built at run time from a prefix and a value the server sends (a rank, a status, a code...).
COMPUTED = {
    "web.rank.": [f"web.rank.{r}" for r in "23456789TJQKA"],
    "web.suit.": [f"web.suit.{s}" for s in "cdhs"],
    "web.street.": [f"web.street.{s}" for s in ("preflop", "flop", "turn", "river", "showdown")],
    "web.status.": [f"web.status.{s}" for s in ("lobby", "playing", "paused", "over", "broken",
                                                     "stalled")],
    "web.net.": [f"web.net.{s}" for s in ("online", "connecting", "offline")],
    "web.react.": [f"web.react.{s}" for s in ("thumbs", "laugh", "wow", "grimace", "clap",
                                               "fire")],
    "series.end_": ["series.end_last_player", "series.end_stopped", "series.end_ended"],
    # Every error code and every refusal: tests/test_i18n.py checks that each has its words.
    "error.": [],
    "refusal.": [],
    # An action in words (ui.actionWords): the log's keys, and a seat box's laid out alike.
    "log.": [f"log.{key}" for key in ACTION_KEYS],
    "seat.last.": [f"seat.last.{key}" for key in ACTION_KEYS],
    "bot.level.": [],  # falls back to the bot's kind when a level has no name
    "verify.check.": [],  # the verifier's check names: tests/test_i18n.py lists them
    "levels.ready.": [f"levels.ready.{name}" for name in ("standard", "turbo", "slow")],
}


def used_keys() -> tuple[set[str], set[str]]:
    """Literal keys (``t("web.x")``, ``data-i18n``...) and template prefixes (``t(`web.x.${``)."""
    literal: set[str] = set()
    prefixes: set[str] = set()
    for script in SCRIPTS:
        text = script.read_text("utf-8")
        literal |= set(re.findall(r'"((?:web|act|input|table|log|pot|standings|series|refusal|'
                                  r'bot|error|bye|rules|levels|entries|seat)'
                                  r'\.[A-Za-z0-9_.-]+)"', text))
        prefixes |= set(re.findall(r"`((?:web|series|refusal|log|bot|error|verify|levels|seat)"
                                   r"\.[a-z_.]*)\$\{", text))
    return literal, prefixes


def test_every_used_key_exists_in_every_language() -> None:
    literal, prefixes = used_keys()
    assert len(literal) > 100
    for prefix in prefixes:
        assert prefix in COMPUTED, f"a key built from {prefix!r}: list its values in COMPUTED"
    needed = literal | {key for prefix in prefixes for key in COMPUTED[prefix]}
    for lang in LANGUAGES:
        missing = sorted(key for key in needed if not has_key(key, lang))
        assert not missing, f"{lang}: {missing}"


def test_every_web_key_is_used() -> None:
    literal, prefixes = used_keys()
    needed = literal | {key for prefix in prefixes for key in COMPUTED[prefix]}
    web = {key.removesuffix(".one").removesuffix(".other") for key in catalogue("en")
           if key.startswith("web.")}
    assert sorted(web - needed) == [], "keys no script uses"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_catalogue_is_served_from_the_toml(lang: str, tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from feltro.server.app import ServerConfig, create_app

    with TestClient(create_app(ServerConfig(data_dir=tmp_path))) as client:
        response = client.get(f"/static/i18n/{lang}.json")
        assert response.status_code == 200
        assert response.json() == dict(catalogue(lang))
        assert client.get("/static/i18n/xx.json").status_code == 404
