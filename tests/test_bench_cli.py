"""``feltro bench engine``: the random policy and the JSON line."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from feltro.cli import app
from feltro.cli.bench import choose, run_engine


@pytest.mark.parametrize(
    ("draw", "facing", "can_raise", "expected"),
    [
        # Facing a bet with raising open: weights 10 / 60 / 20 / 10 out of 100.
        (0.05, True, True, 0),
        (0.50, True, True, 1),
        (0.75, True, True, 2),
        (0.95, True, True, 3),
        # Nothing to call: no fold; 60 / 20 / 10 renormalised over 90.
        (0.00, False, True, 1),
        (0.70, False, True, 2),  # 63 of 90: past the 60 of check
        (0.95, False, True, 3),  # 85.5 of 90
        # Raising closed: fold 10 of 70, else call.
        (0.10, True, False, 0),  # 7 of 70
        (0.99, True, False, 1),
        (0.99, False, False, 1),
    ],
)
def test_policy_weights_renormalised_over_what_is_legal(
    draw: float, facing: bool, can_raise: bool, expected: int
) -> None:
    assert choose(lambda: draw, facing, can_raise) == expected


def test_run_engine_reports_rates_and_is_reproducible() -> None:
    first = run_engine(6, 200, 7)
    second = run_engine(6, 200, 7)
    assert first["hands"] == 200
    assert first["hands_per_second"] > 0
    for key in ("actions_per_hand", "showdown_fraction"):
        assert first[key] == second[key]
    assert 0 <= first["showdown_fraction"] <= 1


def test_run_engine_rejects_bad_sizes() -> None:
    with pytest.raises(ValueError, match="players"):
        run_engine(11, 10, 1)
    with pytest.raises(ValueError, match="hands"):
        run_engine(6, 0, 1)


def test_bench_engine_prints_one_json_line() -> None:
    result = CliRunner().invoke(app, ["bench", "engine", "--players", "3", "--hands", "50",
                                      "--seed", "2"])
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1
    data = json.loads(lines[0])
    assert {"hands_per_second", "actions_per_hand", "showdown_fraction"} <= set(data)
    assert data["players"] == 3
