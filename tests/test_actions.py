"""Action values and their text notation (short, long, PHH)."""


from __future__ import annotations

import pytest

from feltro.actions import CALL, CHECK, FOLD, Action, Call, Check, Fold, Raise, parse_action
from feltro.errors import ParseError


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("f", Fold()),
        ("fold", Fold()),
        ("x", Check()),
        ("check", Check()),
        ("c", Call()),
        ("call", Call()),
        ("cc", Call()),
        ("r 25", Raise(25)),
        ("raise 25", Raise(25)),
        ("raise to 25", Raise(25)),
        ("bet 4", Raise(4)),
        ("cbr 60", Raise(60)),
        ("  R 7 ", Raise(7)),
        ("r25", Raise(25)),
    ],
)
def test_parse_accepts_short_long_and_phh_spellings(text: str, expected: Action) -> None:
    assert parse_action(text) == expected
    assert Action.parse(text) == expected


@pytest.mark.parametrize("text", ["", "raise", "r", "r -5", "r 2.5", "r abc", "fold now", "xx",
                                  "cbr 1e3", "bet 10 20"])
def test_parse_rejects_malformed_text_with_parse_error(text: str) -> None:
    with pytest.raises(ParseError):
        parse_action(text)


def test_parse_rejects_non_text() -> None:
    with pytest.raises(ParseError):
        parse_action(25)  # type: ignore[arg-type]


@pytest.mark.parametrize("action", [Fold(), Check(), Call(), Raise(2), Raise(199)])
def test_str_round_trips_through_parse(action: Action) -> None:
    assert parse_action(str(action)) == action


@pytest.mark.parametrize(
    ("action", "phh"),
    [(Fold(), "f"), (Check(), "cc"), (Call(), "cc"), (Raise(300), "cbr 300")],
)
def test_phh_spelling(action: Action, phh: str) -> None:
    assert action.phh() == phh


def test_raise_amount_is_a_total__B6() -> None:
    # "raise to 25" is stated as the street total, not the increment (B6, B9).
    assert Raise(25).to == 25
    assert str(Raise(25)) == "r 25"


def test_actions_are_frozen_and_hashable() -> None:
    with pytest.raises(AttributeError):
        Raise(10).to = 20  # type: ignore[misc]
    assert len({Raise(10), Raise(10), Fold(), FOLD, CHECK, CALL}) == 4
    assert repr(Raise(10)) == "Raise(to=10)"
    assert eval(repr(Raise(10))) == Raise(10)


def test_constants_equal_fresh_instances() -> None:
    assert Fold() == FOLD
    assert Check() == CHECK
    assert Call() == CALL
    assert CHECK != CALL
