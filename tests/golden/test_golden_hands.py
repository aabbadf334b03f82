"""Golden hands: the RULES.md examples and rule cases as PHH files, replayed strictly.

Each ``hands/*.phh`` file is named after the rule ids it pins (``B8-short-allin-...``) and holds
its expected outcome as data: ``finishing_stacks`` and ``_expected_pots`` (players 1-based, as
``feltro replay`` prints them), or ``_expected_error = {action = N, rule = 'B8'}`` for a history
the rules refuse at line N. The test id is the file name, so a failure shows the rule.

X8 and X11 are not here: they compare five-card hands in isolation (most X8 pairs cannot share
one board) and are pinned by the evaluator tests.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from feltro.history import HandRecord, ReplayError, load, replay

HANDS = sorted((Path(__file__).parent / "hands").glob("*.phh"))


def _expected_error(record: HandRecord) -> dict[str, object] | None:
    value = record.user_fields.get("_expected_error")
    assert value is None or isinstance(value, dict)
    return value


@pytest.mark.parametrize("path", HANDS, ids=[p.stem for p in HANDS])
def test_golden_hand(path: Path) -> None:
    record = load(path, strict=True)
    expected_error = _expected_error(record)
    if expected_error is not None:
        with pytest.raises(ReplayError) as caught:
            replay(record)
        assert (caught.value.action, caught.value.rule) == (expected_error["action"],
                                                            expected_error["rule"])
        assert str(caught.value).startswith(f"{expected_error['rule']}: ")
        return
    outcome = replay(record)
    assert outcome.complete
    assert outcome.finishing_stacks == record.finishing_stacks
    assert outcome.to_dict()["pots"] == record.user_fields["_expected_pots"]
    assert sum(outcome.finishing_stacks) == sum(record.starting_stacks)


def test_golden_files_name_their_rules_and_cover_the_examples() -> None:
    rule_id = re.compile(r"(?:[GDBPX][0-9]+-)+[a-z]")
    assert all(rule_id.match(p.name) for p in HANDS), [p.name for p in HANDS]
    examples = {m.group(1) for p in HANDS if (m := re.match(r"(X[0-9]+)-", p.name))}
    assert examples == {f"X{i}" for i in range(1, 11)} - {"X8"}
    rules = {r for p in HANDS for r in re.findall(r"([DBP][0-9]+)-", p.name)}
    assert {"D6", "D8", "D10", "D11", "B2", "B5", "B6", "B8", "P1", "P7"} <= rules


def test_every_expected_outcome_is_stated_once() -> None:
    for path in HANDS:
        record = load(path, strict=True)
        has_error = _expected_error(record) is not None
        has_result = record.finishing_stacks is not None and "_expected_pots" in record.user_fields
        assert has_error != has_result, path.name
