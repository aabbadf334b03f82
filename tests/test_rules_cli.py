"""``feltro rules [ID] [--lang L]`` and the library every interface reads the rules through."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from feltro.cli import app
from feltro.i18n import LANGUAGES
from feltro.rules import (
    RULE_IDS,
    UnknownRuleError,
    blocks,
    document,
    id_ranges,
    rule_text,
    rule_title,
    rules,
)

runner = CliRunner()


def test_one_rule_in_the_chosen_language__B8() -> None:
    result = runner.invoke(app, ["rules", "B8", "--lang", "pt-PT"])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == "### B8 · Um all-in curto não reabre as apostas"
    assert "Ver X3" in result.stdout
    assert "### B9" not in result.stdout  # one rule, not the rest of the document


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_whole_document_without_an_id(lang: str) -> None:
    result = runner.invoke(app, ["rules", "--lang", lang])
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == document(lang).strip()  # plain when not a terminal


def test_ids_are_case_insensitive__G4() -> None:
    result = runner.invoke(app, ["rules", "g4", "--lang", "en"])
    assert result.exit_code == 0
    assert result.stdout.startswith("### G4 · Freezeout")


@pytest.mark.parametrize(("lang", "words"), [("en", "There is no rule Z9"),
                                             ("pt-PT", "Não existe a regra Z9"),
                                             ("pt-BR", "Não existe a regra Z9")])
def test_an_unknown_id_is_one_line_in_the_language_and_exit_1(lang: str, words: str) -> None:
    result = runner.invoke(app, ["rules", "Z9", "--lang", lang])
    assert result.exit_code == 1
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(words)
    assert "G1–G9, D1–D11, B1–B11, P1–P8, X1–X11" in lines[0]
    assert "Traceback" not in result.output


def test_every_language_defines_the_same_rules_in_the_same_order() -> None:
    assert id_ranges(RULE_IDS) == "G1–G9, D1–D11, B1–B11, P1–P8, X1–X11"
    for lang in LANGUAGES:
        assert tuple(rules(lang)) == RULE_IDS
        for rule_id in RULE_IDS:
            body = rules(lang)[rule_id].body
            assert len(body) > 40, (lang, rule_id)


def test_blocks_give_back_the_whole_document() -> None:
    for lang in LANGUAGES:
        joined = "\n\n".join(markdown for _, markdown in blocks(lang))
        assert joined.split() == document(lang).split()


def test_the_library_refuses_an_unknown_id_and_language() -> None:
    with pytest.raises(UnknownRuleError, match="X12"):
        rule_text("X12", "en")
    with pytest.raises(ValueError, match="unknown language"):
        rule_text("B8", "fr")


def test_the_worked_examples_keep_their_figures__X4_X2_X3_X5() -> None:
    # The updated P1: D and E's two levels are one pot of 1050.
    for lang in LANGUAGES:
        x4 = rule_text("X4", lang)
        for figure in ("300", "1000", "400", "450", "600", "2750", "1050", "1450"):
            assert figure in x4, (lang, figure)
        assert all(f in rule_text("X2", lang) for f in ("20", "50", "80", "30", "60"))
        assert all(f in rule_text("X3", lang) for f in ("10", "15", "25", "20", "30"))
        assert all(f in rule_text("X5", lang) for f in ("1000", "340", "330"))


def test_heads_up_button_posts_the_small_blind_whatever_the_amounts__D6() -> None:
    assert "2 and 2" in rule_text("D6", "en")
    assert "2 e 2" in rule_text("D6", "pt-PT")
    assert "2 e 2" in rule_text("D6", "pt-BR")


def test_portuguese_documents_differ_where_the_languages_do() -> None:
    assert "ecrã" in document("pt-PT")
    assert "tela" not in document("pt-PT")
    assert "tela" in document("pt-BR")
    assert "ecrã" not in document("pt-BR")
    assert rule_title("D1", "pt-PT") == rule_title("D1", "pt-BR") == "O baralho"


def test_the_rules_ship_in_the_package() -> None:
    import tomllib
    from pathlib import Path

    pyproject = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml")
                              .read_text("utf-8"))
    assert "rules/*.md" in pyproject["tool"]["setuptools"]["package-data"]["feltro"]
