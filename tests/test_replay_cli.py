"""``feltro replay``: JSON per file, PATH<TAB>JSON for several, errors with rule and line index."""


from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from feltro.cli import app
from feltro.history import dump, load, write_hands

GOLDEN = Path(__file__).parent / "golden" / "hands"
DATA = Path(__file__).parent / "data" / "phh"
X2 = GOLDEN / "X2-allin-20-50-80-side-pots.phh"
HANDHQ_FULLTILT = Path(__file__).parent / "data" / "phh" / "handhq" / "fulltilt.phhs"
X3_B8 = GOLDEN / "X3-B8-bettor-may-not-raise-after-short-allin.phh"

runner = CliRunner()

HEADS_UP = """
variant = 'NT'
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [200, 200]
actions = ['d dh p1 ????', 'd dh p2 ????', {line}]
"""


def run(*paths: Path) -> tuple[int, list[str]]:
    result = runner.invoke(app, ["replay", *map(str, paths)])
    return result.exit_code, result.stdout.splitlines()


def test_one_file_prints_one_json_object_with_1_based_players__X2() -> None:
    code, lines = run(X2)
    assert code == 0
    assert len(lines) == 1
    assert json.loads(lines[0]) == {
        "finishing_stacks": [60, 0, 90],
        "pots": [
            {"amount": 60, "eligible": [1, 2, 3], "winners": [1], "shares": [60]},
            {"amount": 60, "eligible": [2, 3], "winners": [3], "shares": [60]},
        ],
    }


def test_several_files_print_path_tab_json_and_an_error_does_not_stop_the_rest__B8() -> None:
    code, lines = run(X2, X3_B8, X2)
    assert code == 1
    assert [line.split("\t")[0] for line in lines] == [str(X2), str(X3_B8), str(X2)]
    first, refused, last = (json.loads(line.split("\t", 1)[1]) for line in lines)
    assert first == last == {"finishing_stacks": [60, 0, 90], "pots": first["pots"]}
    assert refused["action"] == 16
    assert refused["error"].startswith("B8: the short all-in to 15 does not reopen raising "
                                       "for p1")
    assert set(refused) == {"error", "action"}


def test_every_golden_file_gives_its_expected_json(tmp_path: Path) -> None:
    paths = sorted(GOLDEN.glob("*.phh"))
    code, lines = run(*paths)
    assert code == 1  # some golden files are refused on purpose
    assert len(lines) == len(paths)
    for path, line in zip(paths, lines, strict=True):
        label, text = line.split("\t")
        assert label == str(path)
        data = json.loads(text)
        record = load(path)
        expected_error = record.user_fields.get("_expected_error")
        if expected_error is not None:
            assert data["action"] == expected_error["action"], path.name
            assert data["error"].startswith(expected_error["rule"] + ":"), path.name
        else:
            assert data == {"finishing_stacks": list(record.finishing_stacks or ()),
                            "pots": record.user_fields["_expected_pots"]}, path.name


def test_a_phhs_file_replays_each_hand_named_by_its_table(tmp_path: Path) -> None:
    code, lines = run(DATA / "wsop.phhs")
    assert code == 0
    assert len(lines) == 11
    label, text = lines[0].split("\t")
    assert label == f"{DATA / 'wsop.phhs'}[wsop/2023/43/5/1]"
    assert json.loads(text)["finishing_stacks"] == [7340000, 3775000, 5110000, 8935000, 4545000]


def test_a_malformed_line_is_an_error_at_its_index(tmp_path: Path) -> None:
    path = tmp_path / "bad.phh"
    path.write_text(HEADS_UP.format(line="'p2 raise 6'"))
    code, lines = run(path)
    assert code == 1
    data = json.loads(lines[0])
    assert data["action"] == 2
    assert "actions[2]: 'p2 raise 6'" in data["error"]


def test_a_decimal_amount_is_played_in_scaled_units_and_reported_exactly(
        tmp_path: Path) -> None:
    path = tmp_path / "cents.phh"
    path.write_text(HEADS_UP.format(line="'p2 cbr 6.5', 'p1 f'"))
    code, lines = run(path)
    assert code == 0
    # Played in tenths: 2000 units each, p2 raises to 65, p1 folds its 20 (the big blind).
    assert json.loads(lines[0]) == {
        "scale": 10, "chip": 0.1, "finishing_stacks": [198, 202],
        "pots": [{"amount": 4, "eligible": [2], "winners": [2], "shares": [4]}]}


def test_out_of_turn_heads_up_is_refused__D6_B2(tmp_path: Path) -> None:
    path = tmp_path / "turn.phh"
    path.write_text(HEADS_UP.format(line="'p1 cc'"))
    code, lines = run(path)
    assert code == 1
    assert json.loads(lines[0]) == {"error": "B2: it is p2's turn, not p1's "
                                             "[actions[2] = 'p1 cc']", "action": 2}


def test_a_field_problem_has_no_action_index(tmp_path: Path) -> None:
    path = tmp_path / "zero.phh"
    path.write_text(HEADS_UP.format(line="'p2 f'").replace("[200, 200]", "[200, 0]"))
    code, lines = run(path)
    assert code == 1
    assert json.loads(lines[0]) == {
        "error": "starting_stacks: every stack must be positive", "action": None}


def test_unreadable_files_are_reported_and_the_rest_go_on(tmp_path: Path) -> None:
    broken = tmp_path / "broken.phh"
    broken.write_text("variant = 'NT\n")
    missing = tmp_path / "missing.phh"
    code, lines = run(missing, broken, X2)
    assert code == 1
    errors = [json.loads(line.split("\t", 1)[1]) for line in lines]
    assert errors[0]["error"].startswith(f"cannot read {missing}")
    assert "not a PHH file (TOML)" in errors[1]["error"]
    assert errors[0]["action"] is errors[1]["action"] is None
    assert "finishing_stacks" in errors[2]


def test_a_damaged_compressed_file_is_reported_and_the_rest_go_on(tmp_path: Path) -> None:
    import gzip

    xz = tmp_path / "garbage.phh.xz"
    xz.write_bytes(b"not xz at all")
    cut = tmp_path / "cut.phh.gz"
    cut.write_bytes(gzip.compress(X2.read_bytes())[:30])
    code, lines = run(xz, cut, X2)
    assert code == 1
    errors = [json.loads(line.split("\t", 1)[1]) for line in lines]
    assert errors[0]["error"].startswith(f"cannot read {xz}: damaged compressed data")
    assert errors[1]["error"].startswith(f"cannot read {cut}: damaged compressed data")
    assert "finishing_stacks" in errors[2]


def test_an_unfinished_history_reports_the_stacks_so_far(tmp_path: Path) -> None:
    path = tmp_path / "partial.phh"
    path.write_text(HEADS_UP.format(line="'p2 cbr 6'"))
    code, lines = run(path)
    assert code == 0
    assert json.loads(lines[0]) == {"finishing_stacks": [198, 194], "pots": [],
                                    "complete": False}


def test_a_history_that_stops_before_the_shows_is_settled__P8(tmp_path: Path) -> None:
    record = load(GOLDEN / "X7-trips-beat-two-pair.phh")
    assert record.actions[-2:] == ("p1 sm Ac7s", "p2 sm 8c8d")
    path = tmp_path / "no-shows.phh"
    dump(replace(record, actions=record.actions[:-2]), path)
    code, lines = run(path)
    assert code == 0
    assert json.loads(lines[0])["finishing_stacks"] == [196, 204]


def test_compressed_files_are_read(tmp_path: Path) -> None:
    target = tmp_path / "x2.phhs.gz"
    write_hands(target, {"x2": load(X2)})
    code, lines = run(target)
    assert code == 0
    assert lines[0].startswith(f"{target}[x2]\t")


HANDHQ = DATA / "handhq"
# The HandHQ sample's figures under --rules casino (test_handhq pins them site by site).
HANDHQ_HANDS = 1897
HANDHQ_WINNINGS_COMPARED = 1018
HANDHQ_ONGAME_HANDS = 319  # every OnGame hand has finishing_stacks
HANDHQ_ONGAME_ERRORS = 7
HANDHQ_UNDETERMINED_POTS = 89
# The hands the house rules refuse: a returning player's post (D3), a heads-up button posting
# the big blind (D6).
HANDHQ_HOUSE_REFUSED = {"absolute.phhs": [128], "ipoker.phhs": [33, 194, 206, 229, 231, 265, 314],
                        "ongame.phhs": [2, 126, 176, 205], "partypoker.phhs": [61],
                        "pokerstars.phhs": [110, 206, 298]}
HANDHQ_HOUSE_BY_RULE = {"D3": 15, "D6": 1}


def test_a_folder_replays_every_hand_one_line_each_and_fails_on_any_refusal__D3() -> None:
    code, lines = run(HANDHQ)
    assert code == 1  # returning players' posts (D3) and a button's big blind (D6)
    assert len(lines) == HANDHQ_HANDS
    errors = [line for line in lines if '"error"' in line]
    assert [line.split("\t")[0] for line in errors] == [
        f"{HANDHQ / site}[{table}]" for site, tables in HANDHQ_HOUSE_REFUSED.items()
        for table in tables]
    code, lines = run(HANDHQ / "ongame.phhs")
    assert code == 1
    result = runner.invoke(app, ["replay", "--rules", "casino", str(HANDHQ / "ongame.phhs")])
    assert result.exit_code == 0
    assert '"rules": "casino"' in result.stdout


def test_summary_counts_the_corpus_and_results_keeps_the_lines(tmp_path: Path) -> None:
    out = tmp_path / "hands.tsv"
    result = runner.invoke(app, ["replay", "--summary", "--rules", "casino", "--workers", "1",
                                 "--results", str(out), str(HANDHQ)])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["hands_read"] == data["replayed"] == HANDHQ_HANDS
    assert data["refused"] == 0
    assert data["winnings"]["compared"] == data["winnings"]["agree"] == HANDHQ_WINNINGS_COMPARED
    # OnGame's own file errors (finishing stacks that contradict the file, see test_handhq).
    assert data["finishing_stacks"] == {"compared": HANDHQ_ONGAME_HANDS,
                                        "agree": HANDHQ_ONGAME_HANDS - HANDHQ_ONGAME_ERRORS}
    # One undetermined pot per set of contenders (P1).
    assert data["undetermined_pots"] == HANDHQ_UNDETERMINED_POTS
    assert data["backend"] == "serial"
    assert data["hands_per_second"] > 0
    assert len(out.read_text().splitlines()) == HANDHQ_HANDS


def test_summary_counts_refusals_by_rule__D3_D6() -> None:
    result = runner.invoke(app, ["replay", "--summary", "--workers", "1", str(HANDHQ)])
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["refused_by_rule"] == HANDHQ_HOUSE_BY_RULE
    assert data["replayed"] == HANDHQ_HANDS - sum(HANDHQ_HOUSE_BY_RULE.values())


def test_a_chip_unit_that_is_no_amount_is_refused_in_the_users_language() -> None:
    for bad in ("abc", "0", "-1", "inf"):
        result = runner.invoke(app, ["replay", "--chip-unit", bad, "--lang", "pt-BR", str(X2)])
        assert result.exit_code == 2
        assert "não é um valor acima de 0" in result.output


def test_the_summary_names_the_chip_each_hand_was_played_with() -> None:
    result = runner.invoke(app, ["replay", "--summary", "--rules", "casino", "--workers", "1",
                                 str(HANDHQ_FULLTILT), str(X2)])
    summary = json.loads(result.output.strip().splitlines()[-1])
    assert summary["chip"] == {"0.01 (currency_symbol $)": 324, "1 (amounts)": 1}
    result = runner.invoke(app, ["replay", "--summary", "--chip-unit", "0.05", "--workers", "1",
                                 str(X2)])
    assert json.loads(result.output.strip().splitlines()[-1])["chip"] == {
        "0.05 (--chip-unit)": 1}


def test_an_unknown_rule_set_is_refused_in_the_users_language() -> None:
    result = runner.invoke(app, ["replay", "--rules", "vegas", "--lang", "pt-PT", str(X2)])
    assert result.exit_code == 2
    assert "escolha house" in result.output


@pytest.mark.slow
def test_summary_on_a_local_ray_counts_the_same() -> None:
    pytest.importorskip("ray")
    counts = []
    for backend in (["--workers", "1"], ["--ray", "local"]):
        result = runner.invoke(app, ["replay", "--summary", "--rules", "casino", *backend,
                                     str(HANDHQ)])
        assert result.exit_code == 0, result.output
        data = json.loads(result.stdout)
        counts.append({k: v for k, v in data.items()
                       if k not in ("seconds", "hands_per_second", "backend", "workers")})
    assert counts[0] == counts[1]
