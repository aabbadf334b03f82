"""``feltro verify FILE``: a series export or a player's PHH download; one summary line and exit
0 when every hand verifies, exit 1 naming the first hand and what failed, never a traceback."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from feltro.cli import app
from feltro.fairdeal import FairDealer, phh_dealt_cards, proofs_from_phh, with_fair_fields
from feltro.fairness import Check, verify_hands
from feltro.history import HandRecord, dumps_all, read_hands
from feltro.history.record import seated_record
from feltro.series import Series

runner = CliRunner()


@pytest.fixture(scope="module")
def night() -> tuple[FairDealer, Series]:
    from feltro.fairdeal import sample_night

    return sample_night(8, players=3, seed=5, sealed=False)


def _verify(path: Path, *extra: str) -> tuple[int, str]:
    result = runner.invoke(app, ["verify", str(path), *extra])
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        result.exception
    return result.exit_code, result.output


def download(dealer: FairDealer, series: Series, seat: int, *, reveal: bool,
             skip: tuple[int, ...] = ()) -> str:
    """The ``.phhs`` download of *seat*: its hands, redacted, with the ``_fair`` field."""
    records: dict[str, HandRecord] = {}
    for summary in series.summaries:
        if summary.number in skip:
            continue
        position = summary.seating.position_of(seat)
        players = len(summary.seating.order)
        seating = summary.seating
        record = seated_record(summary.hand, seating.order, seating.button,
                               series.config.players, hand_number=summary.number,
                               seat_count=series.config.seat_count,
                               visible_to=position)  # every other hole card "??"
        salts = dealer.seen_salts(summary.number, players, position, len(summary.hand.board))
        records[f"hand-{summary.number}"] = with_fair_fields(
            record, dealer.proof(summary.number, reveal=reveal), dealer.table, salts)
    return dumps_all(records)


def test_a_series_export_verifies_in_one_line(tmp_path: Path,
                                              night: tuple[FairDealer, Series]) -> None:
    path = tmp_path / "night.json"
    path.write_text(json.dumps(night[0].export()))
    status, output = _verify(path)
    assert status == 0
    fingerprint = night[0].export()["fingerprint"]
    assert output == f"All 8 hands verify. Fingerprint of the night: {fingerprint}\n"


@pytest.mark.parametrize(("lang", "words"), [("en", "Hand 4 FAILS"), ("pt-PT", "A mão 4 FALHA"),
                                             ("pt-BR", "A mão 4 FALHOU")])
def test_a_changed_card_names_the_hand(tmp_path: Path, night: tuple[FairDealer, Series],
                                       lang: str, words: str) -> None:
    export: dict[str, Any] = night[0].export()
    dealt = export["hands"][3]["dealt"][2]
    dealt["card"] = "2c" if dealt["card"] != "2c" else "3c"
    path = tmp_path / "night.json"
    path.write_text(json.dumps(export))
    status, output = _verify(path, "--lang", lang)
    assert status == 1
    assert output.startswith(words)
    assert "Traceback" not in output


def test_unreadable_files_get_a_sentence(tmp_path: Path) -> None:
    status, output = _verify(tmp_path / "missing.json")
    assert status == 2
    assert output.startswith("Cannot read")
    (tmp_path / "x.json").write_text("{not json")
    status, output = _verify(tmp_path / "x.json")
    assert status == 1
    assert "not a fairness export" in output
    (tmp_path / "x.phh").write_text("variant = 'NT'\n")
    status, output = _verify(tmp_path / "x.phh")
    assert status == 1
    assert "not a fairness export" in output
    (tmp_path / "x.bin").write_bytes(b"\xff\xfe\x00")
    status, output = _verify(tmp_path / "x.bin")
    assert status == 2


def test_a_players_download_verifies(tmp_path: Path, night: tuple[FairDealer, Series]) -> None:
    dealer, series = night
    path = tmp_path / "mine.phhs"
    path.write_text(download(dealer, series, 2, reveal=True))
    status, output = _verify(path)
    assert status == 0, output
    # A download ends where its player went out: its last link is not the night's fingerprint
    # unless that was the last hand, and the line says which hand it follows.
    assert output.startswith("All 8 hands verify. Fingerprint after hand 8: ")


def test_a_download_with_a_hand_cut_out_of_the_middle_fails(
        tmp_path: Path, night: tuple[FairDealer, Series]) -> None:
    dealer, series = night
    path = tmp_path / "mine.phhs"
    path.write_text(download(dealer, series, 2, reveal=True, skip=(3,)))
    status, output = _verify(path)
    assert status == 1, output
    assert output.startswith("Hand 4 FAILS: the hands are missing, repeated or out of order")


def test_an_export_with_zero_hands_or_no_fingerprint_fails(tmp_path: Path) -> None:
    from feltro.fairdeal import sample_night

    export = sample_night(2)[0].export()
    path = tmp_path / "night.json"
    for change, words in (({"hands": [], "fingerprint": None}, "holds no hand"),
                          ({"fingerprint": None}, "claims no fingerprint")):
        path.write_text(json.dumps({**export, **change}))
        status, output = _verify(path)
        assert status == 1, output
        assert words in output


def test_a_download_knows_which_cards_its_player_saw(night: tuple[FairDealer, Series]) -> None:
    dealer, series = night
    text = download(dealer, series, 1, reveal=True)
    hands = list(read_hands_text(text))
    summary = series.summaries[0]
    position = summary.seating.position_of(1)
    dealt = dict(phh_dealt_cards(hands[0][1]))
    players = len(summary.seating.order)
    assert dealt[position] == int(summary.hand.hole(position)[0])
    assert dealt[players + position] == int(summary.hand.hole(position)[1])
    assert len(dealt) == 2 + len(summary.hand.board)


def read_hands_text(text: str) -> list[tuple[str, HandRecord]]:
    from feltro.history import loads_all

    return loads_all(text)


def test_a_download_before_the_reveal_checks_the_cards_seen(
        tmp_path: Path, night: tuple[FairDealer, Series]) -> None:
    dealer, series = night
    text = download(dealer, series, 3, reveal=False)
    table, proofs = proofs_from_phh(read_hands_text(text))
    verdict = verify_hands(table, proofs, gaps=True)
    assert verdict.failure is not None
    assert verdict.failure.check is Check.SECRET
    # A card changed in the download is caught by its salted commitment, secret or not.
    changed = re.sub(r"(d db )(\w\w)", lambda m: m.group(1) + ("2c" if m.group(2) != "2c"
                                                              else "3c"), text, count=1)
    table, proofs = proofs_from_phh(read_hands_text(changed))
    verdict = verify_hands(table, proofs, gaps=True)
    assert verdict.failure is not None
    assert verdict.failure.check is Check.CARD
    assert verdict.failure.hand == 1


def _first_hand_last(text: str) -> str:
    first, rest = text.split("\n[hand-2]", 1)
    return "[hand-2]" + rest + "\n" + first


@pytest.mark.parametrize(("change", "check"), [
    (lambda t: re.sub(r"(d dh p\d )(\w\w)", lambda m: m.group(1) + ("2c" if m.group(2) != "2c"
                                                                   else "3c"), t, count=1),
     "a dealt card is not the card committed"),
    (lambda t: re.sub(r"secret = '(.)", lambda m: "secret = '" + ("1" if m.group(1) == "0"
                                                                  else "0"), t, count=1),
     "the revealed secret is not the one committed"),
    (lambda t: re.sub(r"contributions = \['(\d):(.)", lambda m: f"contributions = ['{m.group(1)}:"
                      + ("1" if m.group(2) == "0" else "0"), t, count=1),
     "the deck seed does not follow"),
    (lambda t: _first_hand_last(t), "out of order"),
    (lambda t: t.replace("hand = 1\n", "hand = 9\n"), "out of order"),
    (lambda t: re.sub(r"chain = '(.)", lambda m: "chain = '" + ("1" if m.group(1) == "0"
                                                                else "0"), t, count=1),
     "hash chain"),
])
def test_a_tampered_download_fails(tmp_path: Path, night: tuple[FairDealer, Series],
                                   change: Any, check: str) -> None:
    dealer, series = night
    text = download(dealer, series, 1, reveal=True)
    changed = change(text)
    assert changed != text
    path = tmp_path / "mine.phhs"
    path.write_text(changed)
    status, output = _verify(path)
    assert status == 1, output
    assert check in output


def test_the_phh_fields_are_valid_phh(night: tuple[FairDealer, Series], tmp_path: Path) -> None:
    # A PHH reader that ignores user fields still replays the download (PHH: '_' fields).
    from feltro.history import replay

    dealer, series = night
    path = tmp_path / "mine.phhs"
    path.write_text(download(dealer, series, 1, reveal=True))
    for _label, record in read_hands(path):
        assert "_fair" in record.user_fields
        replay(record)


def test_a_simulation_dealt_fairly_verifies(tmp_path: Path) -> None:
    path = tmp_path / "sim.json"
    result = runner.invoke(app, ["simulate", "--players", "4", "--seed", "11",
                                 "--stop-after-hands", "25", "--fair", str(path)])
    assert result.exit_code == 0, result.output
    export = json.loads(path.read_text())
    assert export["fingerprint"] in result.output
    status, output = _verify(path)
    assert status == 0, output
    assert output.startswith("All 25 hands verify.")
    # The same seed deals the same night; the export is reproducible.
    again = tmp_path / "again.json"
    runner.invoke(app, ["simulate", "--players", "4", "--seed", "11", "--stop-after-hands",
                        "25", "--fair", str(again)])
    assert json.loads(again.read_text()) == export


def test_simulate_refuses_fair_with_a_durable_log(tmp_path: Path) -> None:
    result = runner.invoke(app, ["simulate", "--fair", str(tmp_path / "x.json"), "--db",
                                 str(tmp_path / "x.db")])
    assert result.exit_code == 2
    assert "--fair" in result.output
