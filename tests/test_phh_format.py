"""The PHH format: reading what real files contain, strict and lenient reads, writing, round trips.

Whether the actions are legal is the replay's business (tests/golden, tests/test_real_hands.py);
these tests pin the format only.
"""

from __future__ import annotations

import datetime
from functools import cache
from pathlib import Path

import pytest

from feltro.cards import Card
from feltro.errors import HistoryError, ParseError
from feltro.history import (
    HandRecord,
    PhhAction,
    Verb,
    dump,
    dumps,
    dumps_all,
    load,
    loads,
    loads_all,
    parse_action,
    read_hands,
    write_hands,
)
from feltro.history.phh import format_phh_cards, parse_phh_cards

DATA = Path(__file__).parent / "data" / "phh"

MINIMAL = """
variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [200, 200, 200]
actions = ['d dh p1 AsKs', 'd dh p2 ????', 'd dh p3 7h6h', 'p3 f', 'p1 cc', 'p2 cc']
"""


def record_with(**changes: object) -> HandRecord:
    """The minimal record with some fields replaced (through the mapping, like a file)."""
    data = loads(MINIMAL).to_mapping()
    data.update(changes)
    return HandRecord.from_mapping(data, strict=True)


# ------------------------------------------------------------------------------ real files


@cache
def pluribus() -> list[tuple[str, HandRecord]]:
    """The 10,000 Pluribus hands, read once for the tests that need them."""
    return read_hands(DATA / "pluribus.phhs.xz")


def test_reads_the_famous_hand_with_comments_unknown_cards_and_double_quotes() -> None:
    record = load(DATA / "dwan-ivey-2009.phh", strict=True)
    assert record.variant == "NT"
    assert record.ante_trimming_status is True
    assert record.antes == (500, 500, 500)
    assert record.starting_stacks == (1125600, 2000000, 553500)
    assert record.players == ("Phil Ivey", "Patrik Antonius", "Tom Dwan")
    assert record.currency == "USD"
    assert record.year == 2009
    actions = record.parsed_actions()
    assert actions[1] == PhhAction(Verb.DEAL_HOLE, 1, (None, None))
    # Shows come before the river in an all-in; the reader keeps the order as written.
    assert [a.verb for a in actions[-3:]] == [Verb.SHOW_OR_MUCK] * 2 + [Verb.DEAL_BOARD]


def test_reads_every_wsop_hand_strictly_with_big_blind_antes() -> None:
    hands = read_hands(DATA / "wsop.phhs", strict=True)
    assert len(hands) == 11
    for name, record in hands:
        assert name.startswith(str(DATA / "wsop.phhs") + "[wsop/2023/43/5/")
        assert record.ante_trimming_status is False
        assert record.antes[1] > 0
        assert sum(record.antes) == record.antes[1]
        assert record.finishing_stacks is not None
        assert sum(record.finishing_stacks) == sum(record.starting_stacks)


def test_reads_the_compressed_pluribus_file_with_whole_and_half_chip_floats() -> None:
    hands = pluribus()
    assert len(hands) == 10_000
    assert not any(record.errors for _, record in hands)
    finishing = [r.finishing_stacks for _, r in hands if r.finishing_stacks is not None]
    assert len(finishing) == 10_000
    # Files with a half chip write every stack as a float; whole ones read back as ints.
    halves = [s for s in finishing if any(isinstance(x, float) for x in s)]
    assert 0 < len(halves) < 20
    for stacks in halves:
        assert all(isinstance(x, int) or (x * 2).is_integer() for x in stacks)
        assert any(isinstance(x, int) for x in stacks)  # e.g. 9900.0 became 9900


def test_whole_number_floats_read_as_ints_and_fractions_stay_floats() -> None:
    record = loads(MINIMAL.replace("[200, 200, 200]", "[200.0, 516.95, inf]"))
    assert record.starting_stacks == (200, 516.95, float("inf"))
    assert type(record.starting_stacks[0]) is int


def test_one_card_per_deal_line_as_in_wsop_files() -> None:
    assert parse_action("d dh p1 7s") == PhhAction(Verb.DEAL_HOLE, 0, (Card.parse("7s"),))
    assert parse_action("d dh p5 ??") == PhhAction(Verb.DEAL_HOLE, 4, (None,))


# ------------------------------------------------------------------------------ action lines


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("d db 7h8h9h", PhhAction(Verb.DEAL_BOARD, None, tuple(Card.parse(c)
                                                              for c in ("7h", "8h", "9h")))),
        ("d dh p10 AsKd", PhhAction(Verb.DEAL_HOLE, 9, (Card.parse("As"), Card.parse("Kd")))),
        ("d dh p2 As??", PhhAction(Verb.DEAL_HOLE, 1, (Card.parse("As"), None))),
        ("p3 f", PhhAction(Verb.FOLD, 2)),
        ("p3 cc", PhhAction(Verb.CHECK_OR_CALL, 2)),
        ("p3 cbr 6", PhhAction(Verb.BET_OR_RAISE_TO, 2, amount=6)),
        ("p3 cbr 6.0", PhhAction(Verb.BET_OR_RAISE_TO, 2, amount=6)),
        ("p3 cbr 516.95", PhhAction(Verb.BET_OR_RAISE_TO, 2, amount=516.95)),
        ("p1 sm AsKs", PhhAction(Verb.SHOW_OR_MUCK, 0, (Card.parse("As"), Card.parse("Ks")))),
        ("p1 sm", PhhAction(Verb.SHOW_OR_MUCK, 0)),
        ("p1 sm -", PhhAction(Verb.SHOW_OR_MUCK, 0, shows_dealt=True)),
        ("", PhhAction(Verb.NO_OP)),
        ("   p2    cbr   40  ", PhhAction(Verb.BET_OR_RAISE_TO, 1, amount=40)),
    ],
)
def test_parses_each_kind_of_action_line(text: str, expected: PhhAction) -> None:
    assert parse_action(text) == expected


def test_commentary_is_kept_apart_from_the_action() -> None:
    action = parse_action("p2 cbr 40 # a big raise")
    assert (action.verb, action.amount, action.commentary) == (Verb.BET_OR_RAISE_TO, 40,
                                                               "a big raise")
    assert parse_action("# the flop").verb is Verb.NO_OP
    assert parse_action("# the flop").commentary == "the flop"
    assert str(action) == "p2 cbr 40 # a big raise"


def test_muck_and_show_are_told_apart() -> None:
    assert parse_action("p1 sm").is_muck
    assert not parse_action("p1 sm -").is_muck
    assert not parse_action("p1 sm AsKs").is_muck


@pytest.mark.parametrize(
    "text",
    ["d dh p1 AsKs", "d dh p2 ????", "d db Jc3d5c", "p3 f", "p3 cc", "p3 cbr 7000", "p1 sm Ac2d",
     "p1 sm", "p1 sm -", "p1 cc # calls", ""],
)
def test_str_of_a_parsed_line_parses_back_to_the_same_action(text: str) -> None:
    action = parse_action(text)
    assert parse_action(str(action)) == action
    assert str(action) == text


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        ("x3 f", "actor must be 'd' or p1"),
        ("p0 f", "actor must be 'd' or p1"),
        ("p1 raise 6", "expected 'f', 'cc'"),
        ("p1 cbr", "expected 'f', 'cc'"),
        ("p1 cbr six", "not a number"),
        ("p1 cbr -4", "must be positive"),
        ("p1 cbr 0", "must be positive"),
        ("p1 f now", "expected 'f', 'cc'"),
        ("p1 sd", "not a hold'em action"),
        ("p1 pb", "not a hold'em action"),
        ("d dh p1 AsK", "two characters per card"),
        ("d dh p1 AsXx", "'Xx' in 'AsXx' is not a card"),
        ("d db", "a dealer line is"),
        ("d dh 1 AsKs", "is not a player"),
        ("d deal p1 AsKs", "a dealer line is"),
    ],
)
def test_malformed_lines_are_refused_with_the_reason(text: str, complaint: str) -> None:
    with pytest.raises(ParseError, match=complaint.replace("(", r"\(")):
        parse_action(text)


def test_cards_helpers_round_trip_and_accept_lower_case() -> None:
    cards = parse_phh_cards("AsKd??Tc")
    assert format_phh_cards(cards) == "AsKd??Tc"
    assert parse_phh_cards("askd") == parse_phh_cards("AsKd")


# ------------------------------------------------------------------------------ fields


@pytest.mark.parametrize(
    ("field", "value", "complaint"),
    [
        ("antes", [0, 0], "antes: has 2 entries but starting_stacks has 3 players"),
        ("blinds_or_straddles", [1, 2, 0, 0], "blinds_or_straddles: has 4 entries"),
        ("finishing_stacks", [200, 200], "finishing_stacks: has 2 entries"),
        ("players", ["a", "b"], "players: has 2 entries"),
        ("seats", [1, 2, 3, 4], "seats: has 4 entries"),
        ("winnings", [0], "winnings: has 1 entries"),
        ("time_banks", [1, 2], "time_banks: has 2 entries"),
        ("starting_stacks", [200], "at least 2 players"),
        ("starting_stacks", [200, 0, 200], "every stack must be positive"),
        ("antes", [0, -1, 0], "antes: amounts must not be negative"),
        ("min_bet", 0, "min_bet: 0 must be a positive number"),
        ("min_bet", "2", "min_bet: expected a number"),
        ("antes", [0, True, 0], r"antes\[1\]: expected a number"),
        ("actions", "p1 f", "actions: expected an array of strings"),
        ("variant", "PO", "'PO' is not supported"),
        ("variant", 3, "variant: expected a string"),
    ],
)
def test_wrong_fields_are_refused_naming_the_field(field: str, value: object,
                                                    complaint: str) -> None:
    with pytest.raises(HistoryError, match=complaint):
        record_with(**{field: value})


@pytest.mark.parametrize("field", ["variant", "antes", "blinds_or_straddles", "min_bet",
                                   "starting_stacks", "actions"])
def test_a_missing_required_field_is_named(field: str) -> None:
    data = loads(MINIMAL).to_mapping()
    del data[field]
    with pytest.raises(HistoryError, match=f"{field}: required"):
        HandRecord.from_mapping(data)


def test_fixed_limit_needs_small_and_big_bet_instead_of_min_bet() -> None:
    data = loads(MINIMAL).to_mapping()
    del data["min_bet"]
    data.update(variant="FT", small_bet=2)
    with pytest.raises(HistoryError, match="big_bet: required field missing"):
        HandRecord.from_mapping(data)
    data["big_bet"] = 4
    record = HandRecord.from_mapping(data, strict=True)
    assert (record.small_bet, record.big_bet, record.min_bet) == (2, 4, None)
    assert "small_bet = 2\nbig_bet = 4" in dumps(record)
    assert loads(dumps(record)) == record


def test_lenient_reading_notes_what_strict_reading_refuses() -> None:
    text = MINIMAL + "unknown_field = 1\nyear = 'last year'\n_note = 'kept'\n"
    text = text.replace("'p2 cc'", "'p2 cc', 'p7 f', 'p1 raise 3'")
    lenient = loads(text)
    assert lenient.errors == (
        "unknown_field: unknown field (user-defined fields start with '_'); kept",
        "year: expected an integer, got 'last year'; ignored",
        "actions[6]: 'p7 f' names p7 but the hand has 3 players",
        "actions[7]: 'p1 raise 3': expected 'f', 'cc', 'cbr AMOUNT' or 'sm [CARDS|-]' after p1",
    )
    assert lenient.year is None
    assert dict(lenient.user_fields) == {"unknown_field": 1, "_note": "kept"}
    assert lenient.actions[-1] == "p1 raise 3"  # kept as written
    with pytest.raises(HistoryError, match="unknown_field: unknown field"):
        loads(text, strict=True)
    with pytest.raises(ParseError, match=r"actions\[6\]: 'p7 f' names p7"):
        loads(text.replace("unknown_field = 1\nyear = 'last year'\n", ""), strict=True)


def test_parsed_actions_names_the_index_of_a_bad_line() -> None:
    record = loads(MINIMAL.replace("'p3 f'", "'p3 fold'"))
    with pytest.raises(ParseError, match=r"^actions\[3\]: 'p3 fold'"):
        record.parsed_actions()


def test_text_that_is_not_toml_is_a_parse_error() -> None:
    with pytest.raises(ParseError, match="not a PHH file"):
        loads("variant = 'NT\n")


def test_stud_fields_are_not_hold_em() -> None:
    with pytest.raises(HistoryError, match="bring_in: not a hold'em field"):
        loads(MINIMAL + "bring_in = 1\n", strict=True)
    assert loads(MINIMAL + "bring_in = 1\n").errors == ("bring_in: not a hold'em field; ignored",)


def test_ante_trimming_status_defaults_to_absent_and_round_trips() -> None:
    assert loads(MINIMAL).ante_trimming_status is None
    for value in (True, False):
        record = record_with(ante_trimming_status=value, antes=[5, 5, 5])
        assert loads(dumps(record)).ante_trimming_status is value
    with pytest.raises(HistoryError, match="ante_trimming_status: expected true or false"):
        record_with(ante_trimming_status="yes")


# ------------------------------------------------------------------------------ writing


def test_every_optional_and_user_field_round_trips() -> None:
    record = record_with(
        ante_trimming_status=True, author="Ana", event="Home game", url="https://x.org",
        venue="Kitchen", address="Rua 1", city="Porto", region="Norte", postal_code="4000",
        country="Portugal", time=datetime.time(21, 30), time_zone="Europe/Lisbon",
        time_zone_abbreviation="WET", day=3, month=2, year=2025, hand="seventeen", level=1,
        seats=[2, 5, 9], seat_count=10, table=1, players=["Ana", "Rui's", 'Zé "Z"'],
        finishing_stacks=[200, 201.5, 198.5], winnings=[0, 3.5, 0], currency="EUR",
        currency_symbol="€", time_limit=30, time_banks=[60, 60.5, 0],
        _expected_pots=[{"amount": 3, "eligible": [1, 2], "winners": [2], "shares": [3]}],
        _note="multi\nline", _when=datetime.date(2025, 2, 3), _flag=False,
        **{"_odd key": 1.0e20},
    )
    text = dumps(record)
    again = loads(text, strict=True)
    assert again == record
    assert again.user_fields["_expected_pots"][0]["shares"] == [3]
    assert "'d dh p1 AsKs'," in text  # literal strings, one action per line, like real files


def test_dump_and_load_through_files(tmp_path: Path) -> None:
    record = loads(MINIMAL)
    dump(record, tmp_path / "one.phh")
    assert load(tmp_path / "one.phh") == record
    with (tmp_path / "one.phh").open("rb") as handle:
        assert load(handle) == record


def test_phhs_tables_round_trip_in_order_and_compressed(tmp_path: Path) -> None:
    first = loads(MINIMAL)
    second = record_with(starting_stacks=[100, 300, 200], hand=2)
    text = dumps_all([first, second])
    assert text.startswith("[1]\n")
    assert loads_all(text) == [("1", first), ("2", second)]
    named = dumps_all({"pluribus/1/2": first})
    assert loads_all(named) == [("pluribus/1/2", first)]
    for name in ("hands.phhs", "hands.phhs.gz", "hands.phhs.xz", "hands.phhs.bz2"):
        write_hands(tmp_path / name, [first, second])
        assert [r for _, r in read_hands(tmp_path / name)] == [first, second]


def test_a_phhs_error_names_its_table() -> None:
    text = dumps_all([loads(MINIMAL)]) + "\n[2]\nvariant = 'NT'\n"
    with pytest.raises(HistoryError, match=r"^\[2\] antes: required field missing"):
        loads_all(text)
    with pytest.raises(ParseError, match="one table per hand"):
        loads_all("variant = 'NT'\n")


def test_real_files_round_trip_through_the_writer() -> None:
    hands = read_hands(DATA / "wsop.phhs") + read_hands(DATA / "dwan-ivey-2009.phh")
    hands += pluribus()[::20]
    for name, record in hands:
        assert loads(dumps(record), strict=True) == record, name
