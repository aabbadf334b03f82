"""The words a new player reads (issue 10, part 5): Portuguese hand names, one colon, natural
pt-PT words for the showdown and for mucking, tens written one way, no literal backticks."""

from __future__ import annotations

import re
from pathlib import Path

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


# --- the command line's words -------------------------------------------------------------------

def _help(capsys: pytest.CaptureFixture[str], *command: str) -> str:
    from feltro.cli import main

    with pytest.raises(SystemExit) as done:
        main([*command, "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    return " ".join(out.replace("│", " ").split())  # Rich's box wraps lines


COMMANDS = [("play",), ("history",), ("simulate",), ("evaluate",), ("equity",), ("replay",),
            ("serve",), ("bench", "engine"), ()]


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_help_shows_flags_without_a_value_and_no_backticks(
        command: tuple[str, ...], capsys: pytest.CaptureFixture[str]) -> None:
    text = _help(capsys, *command)
    assert "<bool>" not in text
    assert "`" not in text


def test_one_list_of_bots_everywhere(capsys: pytest.CaptureFixture[str]) -> None:
    from feltro.bots import BOT_KINDS
    from feltro.bots.levels import ALL_KINDS
    from feltro.cli.language import BOT_NAMES

    assert BOT_NAMES == ", ".join(BOT_KINDS) == ", ".join(ALL_KINDS)
    assert BOT_NAMES in _help(capsys, "play")
    assert BOT_NAMES in _help(capsys, "simulate")


def _fails(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    from feltro.cli import main

    with pytest.raises(SystemExit) as done:
        main(list(args))
    assert done.value.code != 0
    return capsys.readouterr().err


def test_equity_help_agrees_with_its_errors(capsys: pytest.CaptureFixture[str]) -> None:
    helped = _help(capsys, "equity")
    assert "0, 3, 4 or 5 cards" in helped
    assert "x>=1" in helped
    assert "0, 3, 4 or 5 cards" in _fails(capsys, "equity", "AsAh", "KsKh", "--board", "2c")
    assert "at least 1" in _fails(capsys, "equity", "AsAh", "??", "--trials", "-5")
    assert "two cards each" in helped
    assert "exactly two cards" in _fails(capsys, "equity", "AsAh", "Ks")


def test_a_path_is_said_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    damaged = tmp_path / "hand.phh"
    damaged.write_bytes(b"\xff\xfe not text")
    from feltro.cli import main

    with pytest.raises(SystemExit):
        main(["replay", str(damaged)])
    out = capsys.readouterr().out
    assert out.count(str(damaged)) == 1, out
    err = _fails(capsys, "simulate", "--log", str(tmp_path / "no" / "x.jsonl"), "--seed", "1")
    assert err.count(str(tmp_path / "no" / "x.jsonl")) == 1, err


def test_history_and_the_game_say_the_same_win(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """The game says "Bruno wins 5" and "Main pot 5: Bruno +5": history lists "+5" too (what
    the winner collects), not the profit."""
    from feltro.cli.play import _create, save_hand
    from feltro.session import Player
    from feltro.tui import render
    from feltro.tui.datadir import new_series_folder
    from feltro.tui.historyview import print_hands

    monkeypatch.setenv("COLUMNS", "200")
    seats = [Player(1, "Ana", "rules"), Player(2, "Rui", "rules"), Player(3, "Eva", "rules")]
    folder = new_series_folder(tmp_path, __import__("datetime").datetime(2030, 1, 1))
    session, store = _create(folder, seats, 5, None, None, 200, "en")
    said = []
    try:
        for _ in range(4):
            session.next_hand()
            session.play_bots()
            save_hand(folder, session)
            said.append(" ".join(str(line) for line in render.result_lines(session, "en")))
    finally:
        store.close()
    print_hands(folder, "en")
    listed = capsys.readouterr().out
    for game in said:
        for _name, amount in re.findall(r"(\w+) (?:\(bot\) )?(?:wins |\+)(\d+)", game):
            assert f"+{amount}" in listed, (game, listed)


def test_card_errors_in_the_chosen_language(capsys: pytest.CaptureFixture[str]) -> None:
    err = _fails(capsys, "evaluate", "Xx", "Kd", "Qh", "Js", "Ts", "--lang", "pt-PT")
    assert "“Xx” não é uma carta" in err
    assert "mostra as opções" in err
    assert "exatamente duas cartas" in _fails(capsys, "equity", "AsAh", "Ks", "--lang", "pt-BR")
    assert "as cartas comunitárias são 0, 3, 4 ou 5, não 1" in _fails(
        capsys, "equity", "AsAh", "KsKh", "--board", "2c", "--lang", "pt-PT")


def test_simulate_speaks_the_chosen_language(capsys: pytest.CaptureFixture[str]) -> None:
    from feltro.cli import main

    with pytest.raises(SystemExit) as done:
        main(["simulate", "--players", "2", "--seed", "3", "--stop-after-hands", "2",
              "--lang", "pt-BR"])
    out = capsys.readouterr().out
    assert done.value.code == 0
    assert "Parado (vence a maior pilha), mãos jogadas: 2" in out
    assert "Fichas" in out
    assert "Vencedor" in out


def test_the_command_line_words_refusals_and_card_errors_from_their_data() -> None:
    """A refusal that reaches the command line (a replayed history's included) is said in the
    chosen language from its data, not in feltro's English line."""
    from feltro.cli.failure import error_words
    from feltro.errors import CardError, Refusal
    from feltro.history import ReplayError

    refused = ReplayError("B8: ... [actions[5] = 'p2 cbr 30']", action=5,
                          refusal=Refusal("B8", "not-reopened", {"current_bet": 15}))
    assert refused.rule == "B8"
    assert error_words(refused, "pt-BR") == (
        "Você não pode aumentar: o all-in curto para 15 não reabre as apostas (B8).")
    card = CardError("duplicate card As in As As", reason="duplicate", params={"card": "As"})
    assert error_words(card, "pt-PT") == "a carta As aparece duas vezes."
    assert error_words(ValueError("plain"), "pt-PT") == "plain"


def test_a_replayed_history_keeps_the_refusal_as_data() -> None:
    from feltro.history import ReplayError, loads, replay

    text = ("variant = 'NT'\nante_trimming_status = true\nantes = [0, 0]\n"
            "blinds_or_straddles = [1, 2]\nmin_bet = 2\nstarting_stacks = [200, 200]\n"
            "actions = ['d dh p1 AsAh', 'd dh p2 KsKh', 'p2 cc', 'p1 cbr 3']\n")
    with pytest.raises(ReplayError) as refused:
        replay(loads(text))
    refusal = refused.value.refusal
    assert refusal is not None
    assert refused.value.action == 3
    assert (refusal.rule, refusal.reason) == ("B6", "below-min")
    assert refusal.params == {"to": 3, "min_to": 4}
