"""Golden button and blind placement: every case in ``tests/data/tables/*.txt`` (format in the
README there), replayed through :mod:`feltro.seating`."""

# Test names end in the rule ids they pin (``__D8``), so N802 (lowercase names) is off here.

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest

from feltro.errors import ConfigError
from feltro.seating import Seating, first_seating, next_seating

TABLES = Path(__file__).parent / "data" / "tables"
RULE_IDS = {"D2", "D3", "D6", "D7", "D8", "D9", "G4"}


@dataclass
class ExpectedHand:
    line: int
    button: int
    small_blind: int | None
    big_blind: int
    order: tuple[int, ...]
    busts: tuple[int, ...] = ()


@dataclass
class Case:
    rules: tuple[str, ...] = ()
    seats: tuple[int, ...] = ()
    button: int = 0
    hands: list[ExpectedHand] = field(default_factory=list)
    over: bool = False


def parse_case(path: Path) -> Case:
    case = Case()
    for number, raw in enumerate(path.read_text().splitlines(), start=1):
        words = raw.split("#", 1)[0].split()
        if not words:
            continue
        key, args = words[0], words[1:]
        if key == "rules":
            case.rules = tuple(args)
        elif key == "seats":
            case.seats = tuple(int(a) for a in args)
        elif key == "button":
            case.button = int(args[0])
        elif key == "hand":
            values = dict(arg.split("=", 1) for arg in args)
            case.hands.append(ExpectedHand(
                line=number,
                button=int(values["button"]),
                small_blind=None if values["sb"] == "-" else int(values["sb"]),
                big_blind=int(values["bb"]),
                order=tuple(int(s) for s in values["order"].split(",")),
            ))
        elif key == "busts":
            case.hands[-1].busts = tuple(int(a) for a in args)
        elif key == "over":
            case.over = True
        else:
            raise AssertionError(f"{path.name}:{number}: unknown line {raw!r}")
    return case


CASES = sorted(TABLES.glob("*.txt"))


def test_golden_cases_exist_and_name_rules() -> None:
    assert len(CASES) >= 15
    for path in CASES:
        rules = set(parse_case(path).rules)
        assert rules, f"{path.name} names no rule id"
        assert rules <= RULE_IDS, f"{path.name}: unknown rule ids {rules - RULE_IDS}"


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_button_and_blinds_golden__D3_D6_D7_D8_D9_G4(path: Path) -> None:
    case = parse_case(path)
    alive = set(case.seats)
    seating: Seating | None = None
    for expected in case.hands:
        seating = (first_seating(case.seats, case.button) if seating is None
                   else next_seating(seating, alive))
        got = (seating.button, seating.small_blind, seating.big_blind, seating.order)
        want = (expected.button, expected.small_blind, expected.big_blind, expected.order)
        assert got == want, f"{path.name}:{expected.line}"
        assert seating.button_is_dead == (expected.button not in expected.order)
        alive -= set(expected.busts)
    assert seating is not None
    if case.over:
        assert len(alive) == 1
        with pytest.raises(ConfigError, match="two players"):
            next_seating(seating, alive)
