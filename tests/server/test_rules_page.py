"""The Rules page and the rule ids API, through the FastAPI TestClient."""

from __future__ import annotations

import re

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from srvkit import Harness

from feltro.i18n import LANGUAGES
from feltro.rules import RULE_IDS, rule_title
from feltro.server.rules_page import router


@pytest.fixture(scope="module")
def client() -> TestClient:
    app = FastAPI()
    app.include_router(router)
    return TestClient(app)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_rule_is_a_section_in_the_language(client: TestClient, lang: str) -> None:
    for url in (f"/rules?lang={lang}", f"/rules/{lang}"):
        response = client.get(url)
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/html")
        assert response.headers["content-language"] == lang
        page = response.text
        assert f'<html lang="{lang}">' in page
        sections = re.findall(r'<section id="([A-Z]\d+)" class="rule">', page)
        assert tuple(sections) == RULE_IDS
        assert rule_title("B8", lang) in page


def test_the_rule_a_link_points_at_is_there__B8(client: TestClient) -> None:
    page = client.get("/rules?lang=pt-PT").text
    b8 = page.split('<section id="B8" class="rule">', 1)[1].split("</section>", 1)[0]
    assert "Um all-in curto não reabre as apostas" in b8
    assert '<a href="#X3">X3</a>' in b8  # ids inside the rules link to their section


def test_the_browser_language_when_none_is_asked(client: TestClient) -> None:
    page = client.get("/rules", headers={"accept-language": "pt-BR,pt;q=0.9"}).text
    assert '<html lang="pt-BR">' in page
    assert "tela" in page
    assert '<html lang="pt-PT">' in client.get(
        "/rules", headers={"accept-language": "pt"}).text
    assert '<html lang="en">' in client.get("/rules?lang=fr").text


def test_an_unknown_language_is_404_naming_the_ones_there_are(client: TestClient) -> None:
    response = client.get("/rules/fr")
    assert response.status_code == 404
    assert all(f'href="/rules/{code}"' in response.text for code in LANGUAGES)


def test_the_ids_and_titles_for_scripts(client: TestClient) -> None:
    data = client.get("/api/rules?lang=pt-BR").json()
    assert data["lang"] == "pt-BR"
    assert tuple(data["rules"]) == RULE_IDS
    assert data["rules"]["G4"] == "Freezeout"


def test_the_page_escapes_nothing_it_should_not(client: TestClient) -> None:
    page = client.get("/rules/en").text
    assert "<script" not in page
    assert "A♣ K♦ Q♥ J♠ 10♣" in page


def test_the_server_serves_the_rules_page(harness: Harness) -> None:
    response = harness.client.get("/rules/pt-PT")
    assert response.status_code == 200
    assert 'id="G4"' in response.text
    assert harness.client.get("/api/rules").json()["lang"] == "en"
    script = harness.client.get("/static/js/rulelinks.js")
    assert script.status_code == 200
    assert "export function linkRules" in script.text
