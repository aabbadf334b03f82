"""The words a new player reads (issue 10, part 5): Portuguese hand names, one colon, natural
pt-PT words for the showdown and for mucking, tens written one way, no literal backticks."""

from __future__ import annotations

import re

import pytest

from feltro import evaluate
from feltro.i18n import LANGUAGES, catalogue, t
from feltro.names import describe_class
from feltro.tui.text import cards_text, rank_label


@pytest.mark.parametrize("lang", ["pt-PT", "pt-BR"])
def test_pairs_of_threes_and_sixes_in_portuguese(lang: str) -> None:
    assert describe_class(1, (1,), lang) == "Par de três"
    assert describe_class(1, (4,), lang) == "Par de seis"
    assert "treses" not in describe_class(2, (1, 0), lang)
    assert describe_class(2, (4, 1), lang) == "Dois pares, seis e três"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_you_have_a_high_card_with_one_colon(lang: str) -> None:
    said = t("table.you_have", lang, hand=evaluate("4h 2c 3d 9s Jc").describe(lang).lower())
    assert said.count(":") == 1, said


def test_pt_pt_says_showdown_and_muck_in_portuguese() -> None:
    pt = catalogue("pt-PT")
    assert pt["log.showdown"] == "Mostrar as cartas"
    assert pt["result.showdown_title"].endswith("mostrar as cartas")
    assert "descarta sem mostrar" in pt["log.mucks"]
    assert pt["seat.mucked"] == "não mostrou"
    assert not any("confronto" in v.lower() for v in pt.values())


def test_tens_are_written_10_in_human_text() -> None:
    assert rank_label(8) == "10"
    assert cards_text([evaluate("Ts 9h 8c 7d 6s").best_five[0]]).plain == "10♠"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_literal_backticks_in_any_message(lang: str) -> None:
    assert not [k for k, v in catalogue(lang).items() if "`" in v]


def test_evaluate_prints_tens_as_10(capsys: pytest.CaptureFixture[str]) -> None:
    from feltro.cli import main

    with pytest.raises(SystemExit) as done:
        main(["evaluate", "Ts", "Js", "Qs", "Ks", "As", "--lang", "en"])
    out = capsys.readouterr().out
    assert done.value.code == 0
    assert "10♠" in out
    assert not re.search(r"\bT♠", out)
