"""``feltro arena``: duplicate deals, identical results on every backend, the output files."""

from __future__ import annotations

import csv
import json
import multiprocessing
import threading
from pathlib import Path

import pytest
from typer.testing import CliRunner

from feltro.arena import MatchConfig, load_bot, play_chunk, play_deals, summarise
from feltro.arena.backends import MAX_CHUNK, MIN_CHUNK, _context, chunks, run_match
from feltro.arena.chart import svg_chart
from feltro.cli import app, bare_options
from feltro.errors import ConfigError

runner = CliRunner()


def test_same_numbers_with_one_worker_two_processes_and_ray() -> None:
    match = MatchConfig(bots=("rules", "tight", "random"), hands=240, seed=5)
    whole = play_deals(match, 0, match.deals)  # one piece, in this process
    one = run_match(match, workers=1)
    two = run_match(match, workers=2)
    assert len(chunks(match.deals, 2)) > 2  # both processes get work
    assert one == two == whole
    assert len(one) == match.deals == 80
    pytest.importorskip("ray")
    on_ray = run_match(match, workers=2, use_ray=True)  # starts and stops a local Ray
    assert on_ray == one


def test_processes_are_not_forked_from_a_process_running_threads() -> None:
    # A thread (a progress bar, a server) could hold a lock when the process forks: the pool
    # then starts its workers from a fork server, with the same numbers.
    if "forkserver" not in multiprocessing.get_all_start_methods():
        pytest.skip("no fork server on this system")
    match = MatchConfig(bots=("rules", "random"), hands=60, seed=6)
    running = threading.Event()
    thread = threading.Thread(target=running.wait)
    thread.start()
    try:
        assert _context().get_start_method() == "forkserver"
        two = run_match(match, workers=2)
    finally:
        running.set()
        thread.join()
    assert two == play_deals(match, 0, match.deals)


def test_any_cut_of_the_deals_gives_the_same_rows() -> None:
    match = MatchConfig(bots=("rules", "random", "station"), hands=90, seed=8)
    whole = play_chunk(match, 0, match.deals)
    for cut in (1, 7, 29):
        assert play_chunk(match, 0, cut) + play_chunk(match, cut, match.deals - cut) == whole
    assert play_deals(match, 5, 2) == [whole[15:18].tolist(), whole[18:21].tolist()]


def test_chunks_cover_every_deal_once() -> None:
    for deals in (1, 7, 100, 1001, 100_000):
        for workers in (1, 2, 16):
            pieces = chunks(deals, workers)
            covered = [d for first, count in pieces for d in range(first, first + count)]
            assert covered == list(range(deals))
            assert all(count <= MAX_CHUNK for _, count in pieces)
            assert all(count >= MIN_CHUNK for _, count in pieces[:-1])
    # big pieces first (few tasks), small ones last (the workers finish together)
    sizes = [count for _, count in chunks(20_000, 16)]
    assert sizes == sorted(sizes, reverse=True)
    assert sizes[0] == MAX_CHUNK
    assert sizes[-2] == MIN_CHUNK
    assert len(sizes) < 20_000 / 64


def test_a_worker_count_must_be_positive() -> None:
    match = MatchConfig(bots=("station", "tight"), hands=2)
    for bad in (0, -1, 1.5):
        with pytest.raises(ConfigError, match="workers must be a positive integer"):
            run_match(match, workers=bad)  # type: ignore[arg-type]


def test_chips_only_move_between_bots__G3() -> None:
    match = MatchConfig(bots=("rules", "station", "tight", "random"), hands=200, seed=2)
    for row in play_deals(match, 0, match.deals):
        assert sum(row) == 0


def test_duplicate_deals_cancel_the_cards_luck() -> None:
    # Two identical deterministic bots: with seats rotated each gets every deal's both sides,
    # so each wins exactly zero; without rotation the cards decide.
    duplicate = MatchConfig(bots=("station", "station"), hands=200, seed=4)
    assert all(row == [0, 0] for row in play_deals(duplicate, 0, duplicate.deals))
    plain = MatchConfig(bots=("station", "station"), hands=200, seed=4, duplicate=False)
    assert any(row != [0, 0] for row in play_deals(plain, 0, plain.deals))


def test_summary_rates_and_intervals() -> None:
    match = MatchConfig(bots=("station", "tight"), hands=4, seed=0)
    rows = [[10, -10], [-2, 2]]  # two deals of two hands each
    summary = summarise(match, rows)
    first = summary.bots[0]
    # mean 4 chips a deal = 2 chips a hand = 1 bb a hand = 100 bb/100
    assert first.bb_per_100 == pytest.approx(100.0)
    # sd of (10, -2) is 8.485; half width 1.96 * 8.485 / sqrt(2) = 11.76 chips a deal
    assert first.ci95[0] == pytest.approx(100 - 11.76 * 25, abs=0.1)
    assert first.ci95[1] == pytest.approx(100 + 11.76 * 25, abs=0.1)
    assert summary.hands == 4
    assert summary.bots[1].bb_per_100 == pytest.approx(-100.0)


def test_bots_by_module_and_class() -> None:
    import random

    bot = load_bot("feltro.bots.basic:CallingStationBot", random.Random(1))
    assert bot.name == "station"
    with pytest.raises(ConfigError, match="cannot import"):
        load_bot("no_such_module_here:Bot", random.Random(1))
    with pytest.raises(ConfigError, match="has no"):
        load_bot("feltro.bots.basic:Nothing", random.Random(1))
    with pytest.raises(ConfigError, match="not a bot"):
        load_bot("builtins:object", random.Random(1))
    with pytest.raises(ConfigError, match="could not be created"):
        load_bot("feltro.cards:Deck", random.Random(1))
    with pytest.raises(ConfigError, match="unknown bot"):
        load_bot("grandmaster", random.Random(1))


def test_match_needs_two_to_ten_bots__G1() -> None:
    with pytest.raises(ConfigError, match="G1"):
        MatchConfig(bots=("rules",), hands=10)
    with pytest.raises(ConfigError, match="G1"):
        MatchConfig(bots=("rules",) * 11, hands=10)


def test_cli_writes_json_csv_and_chart(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    table = tmp_path / "r.csv"
    chart = tmp_path / "r.svg"
    result = runner.invoke(app, ["arena", "rules", "station", "--hands", "60", "--workers",
                                 "1", "--seed", "3", "--json", str(out), "--csv", str(table),
                                 "--chart", str(chart)])
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert data["hands"] == 60
    assert [bot["name"] for bot in data["bots"]] == ["rules", "station"]
    for bot in data["bots"]:
        low, high = bot["ci95"]
        assert low <= bot["bb_per_100"] <= high
    rows = list(csv.DictReader(table.open()))
    assert [row["name"] for row in rows] == ["rules", "station"]
    assert float(rows[0]["bb_per_100"]) == pytest.approx(data["bots"][0]["bb_per_100"])
    svg = chart.read_text()
    assert svg.startswith("<svg")
    assert svg.count("<polyline") == 2


def test_cli_refuses_an_unknown_bot() -> None:
    result = runner.invoke(app, ["arena", "rules", "grandmaster", "--hands", "10"])
    assert result.exit_code != 0
    assert "unknown bot 'grandmaster'" in result.output
    assert "Traceback" not in result.output


def test_bare_ray_flag_means_a_local_instance() -> None:
    assert bare_options(["arena", "a", "b", "--ray"]) == ["arena", "a", "b", "--ray", "local"]
    assert bare_options(["arena", "a", "--ray", "--json", "x"]) == [
        "arena", "a", "--ray", "local", "--json", "x"]
    assert bare_options(["arena", "a", "--ray", "10.0.0.1:6379"]) == [
        "arena", "a", "--ray", "10.0.0.1:6379"]


def test_chart_has_a_band_for_every_bot() -> None:
    svg = svg_chart(["a", "b"], [[4, -4], [-2, 2], [6, -6]], 2, 2)
    assert svg.count("<polygon") == 2


def test_cli_says_when_ray_cannot_be_reached() -> None:
    pytest.importorskip("ray")
    result = runner.invoke(app, ["arena", "rules", "station", "--hands", "4", "--ray",
                                 "nonsense"])
    assert result.exit_code != 0
    text = " ".join(result.output.replace("│", " ").split())  # the message as one line
    assert "could not start or reach the Ray cluster at nonsense" in text
    assert "Traceback" not in result.output
