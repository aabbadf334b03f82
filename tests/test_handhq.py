"""Real online hands (the HandHQ sample in ``tests/data/phh/handhq``) replay exactly.

Decimal stakes are played in whole cents, unknown cards leave pots undetermined instead of
guessed, a courtesy show changes nothing, a returning player's dead blind is refused under the
house rules (D3) and played as dead money under ``--rules casino``, one bad hand never stops a
file, and every result the sites wrote that can be compared (``winnings``, OnGame's
``finishing_stacks``) agrees with the replay.
"""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest

from feltro.errors import HistoryError
from feltro.history import load
from feltro.history.corpus import Summary, replay_file, replay_text, run_files
from feltro.history.decimal_scale import read_tables, scale_hand
from feltro.history.site_replay import replay_site

HANDHQ = Path(__file__).parent / "data" / "phh" / "handhq"
GOLDEN = Path(__file__).parent / "golden" / "hands"
SITES = sorted(HANDHQ.glob("*.phhs"))

# What the sample gives, pinned: a change in the data or the replay cannot pass unseen.
# (hands, winnings compared, undetermined pots, pots settled from winnings, refusals under the
# house rules by rule: D3 a returning player's post, D6 a heads-up button posting the big blind).
# Pots are counted as a dealer forms them (P1: one pot per set of contenders), so a hand
# whose cards nobody knows has one undetermined pot, not one per folded player's level.
EXPECTED: dict[str, tuple[int, int, int, int, dict[str, int]]] = {
    "absolute.phhs": (309, 262, 22, 0, {"D6": 1}),
    "fulltilt.phhs": (324, 79, 9, 1, {}),
    "ipoker.phhs": (337, 0, 28, 0, {"D3": 7}),
    "ongame.phhs": (319, 312, 0, 6, {"D3": 4}),
    "partypoker.phhs": (300, 281, 0, 19, {"D3": 1}),
    "pokerstars.phhs": (308, 84, 30, 0, {"D3": 3}),
}


def _summary(path: Path, rules: str) -> Summary:
    summary = Summary()
    summary.add(replay_file(path, rules))  # type: ignore[arg-type]
    return summary


def test_the_sample_has_every_site() -> None:
    assert [p.name for p in SITES] == sorted(EXPECTED)
    assert (HANDHQ / "LICENSE").read_text().startswith("MIT License")


@pytest.mark.parametrize("path", SITES, ids=lambda p: p.stem)
def test_every_hand_replays_under_casino_rules_and_agrees_with_winnings(path: Path) -> None:
    hands, compared, undetermined, settled, _ = EXPECTED[path.name]
    summary = _summary(path, "casino")
    assert summary.hands == summary.replayed == hands, dict(summary.refused)
    assert summary.winnings_compared == compared
    assert summary.winnings_agree == compared, summary.disagreements
    assert summary.undetermined_pots == undetermined
    assert summary.settled_from_winnings == settled


@pytest.mark.parametrize("path", SITES, ids=lambda p: p.stem)
def test_under_house_rules_the_only_refusals_are_named_site_rules__D3_D6(path: Path) -> None:
    *_, refusals = EXPECTED[path.name]
    summary = _summary(path, "house")
    assert dict(summary.refused) == refusals
    assert summary.replayed == summary.hands - sum(refusals.values())


# OnGame hands whose finishing_stacks contradict the file itself (each proved below).
ONGAME_FILE_ERRORS = [80, 92, 134, 143, 178, 200, 248]


def test_ongame_finishing_stacks_agree_after_the_rake_but_where_the_file_is_wrong() -> None:
    summary = _summary(HANDHQ / "ongame.phhs", "casino")
    assert summary.finishing_compared == EXPECTED["ongame.phhs"][0]
    assert summary.finishing_agree == summary.finishing_compared - len(ONGAME_FILE_ERRORS)
    assert summary.disagreements == [f"{HANDHQ / 'ongame.phhs'}[{hand}]: finishing"
                                     for hand in ONGAME_FILE_ERRORS]


@pytest.mark.parametrize(
    ("hand", "winner", "before_rake", "rake", "loser", "loser_left", "next_hand", "seat"),
    [(80, 1, 2224, 3, 2, 0, 84, 0), (92, 2, 2052, 2, 0, 0, 103, 1),
     (134, 3, 3726, 2, 1, 0, 142, 1), (143, 2, 2030, 2, 0, 2704, 144, 1),
     (200, 1, 2387, 3, 4, 0, 203, 0), (248, 2, 2010, 2, 0, 559, 258, 1)])
def test_the_finishing_stack_disagreements_are_the_files_own_errors(
        hand: int, winner: int, before_rake: int, rake: int, loser: int, loser_left: int,
        next_hand: int, seat: int) -> None:
    """In these all-in hands OnGame's finishing_stacks read as if (almost) nothing had been
    won, against the file's own winnings. The replay gives the winner the pot (before rake) and
    the loser what the all-in left them; the table's next hand seats the winner with exactly
    that less the rake the winnings show."""
    tables = dict(read_tables((HANDHQ / "ongame.phhs").read_text()))
    played = json.loads(replay_file(HANDHQ / "ongame.phhs")[hand - 1].json)
    assert played["finishing_stacks"][winner] == before_rake
    assert played["finishing_stacks"][loser] == loser_left
    theirs = tables[str(hand)]["finishing_stacks"]
    assert theirs[loser] > loser_left  # the file has the loser keep (nearly) all their chips
    pot = sum(p["amount"] for p in played["pots"])
    assert tables[str(hand)]["winnings"][winner] == pot - rake
    assert tables[str(next_hand)]["starting_stacks"][seat] == before_rake - rake


def test_a_split_pot_the_file_writes_no_winnings_for_is_its_own_error() -> None:
    """OnGame [178]: p3 and p4 show the same hand and split a pot of 445; the file's winnings
    are all zero, yet its finishing_stacks (and the table's next hand, [179]) give each of them
    half the pot less a rake of 1.50. The replay splits it evenly, before rake."""
    tables = dict(read_tables((HANDHQ / "ongame.phhs").read_text()))
    played = json.loads(replay_file(HANDHQ / "ongame.phhs")[177].json)
    assert played["pots"] == [{"amount": 445, "eligible": [3, 4], "winners": [3, 4],
                               "shares": [222.5, 222.5]}]
    assert played["finishing_stacks"][2:4] == [733.5, 2397.5]
    assert tables["178"]["winnings"] == [0] * 5
    assert tables["178"]["finishing_stacks"][2:4] == [732, 2396]
    assert tables["179"]["starting_stacks"][1:3] == [732, 2396]


def test_decimal_stakes_are_played_in_whole_units_and_reported_exactly() -> None:
    report = replay_file(HANDHQ / "absolute.phhs")[0]
    assert json.loads(report.json) == {
        "scale": 100,  # the amounts need tenths; the dollar's smallest coin is a cent
        "chip": 0.01,
        "finishing_stacks": [201.3, 80.6, 197],
        "pots": [{"amount": 2, "eligible": [1], "winners": [1], "shares": [2]}],
    }
    hand = scale_hand(read_tables((HANDHQ / "partypoker.phhs").read_text())[2][1])
    assert hand.scale == 100
    assert hand.record.starting_stacks == (102000, 214316, 136555, 20404, 185690)
    assert "p3 cbr 133555" in hand.record.actions


def test_a_split_pot_is_split_to_the_cent__P7() -> None:
    """Full Tilt [128], $5/$10 in whole dollars (currency_symbol '$'): a pot of $185 split
    two ways is $92.50 each (the odd chip is a cent, not a dollar); iPoker [125], in dimes
    (currency 'USD'), splits $33.50 into 16.75 each."""
    hands = replay_file(HANDHQ / "fulltilt.phhs")
    [pot] = json.loads(hands[127].json)["pots"]
    assert (pot["amount"], pot["winners"], pot["shares"]) == (185, [5, 6], [92.5, 92.5])
    assert json.loads(hands[127].json)["chip"] == 0.01
    assert hands[127].chip == "0.01 (currency_symbol $)"
    [pot] = json.loads(replay_file(HANDHQ / "ipoker.phhs")[124].json)["pots"]
    assert pot["shares"] == [16.75, 16.75]
    # A chip unit given overrides the currency: in dollar chips the odd dollar goes to p5.
    [pot] = json.loads(replay_file(HANDHQ / "fulltilt.phhs", chip_unit=Decimal(1))[127].json)[
        "pots"]
    assert pot["shares"] == [93, 92]


def test_the_chip_comes_from_the_option_the_currency_its_symbol_or_the_amounts() -> None:
    head = ("variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [0.5, 1]\nmin_bet = 1\n"
            "starting_stacks = [100, 100]\nactions = []\n")
    for extra, given, expected in (
            ("currency = 'JPY'\n", None, (Decimal(1), "currency JPY", 10)),
            ("currency = 'EUR'\n", None, (Decimal("0.01"), "currency EUR", 100)),
            ("currency = 'XYZ'\ncurrency_symbol = '€'\n", None,
             (Decimal("0.01"), "currency_symbol €", 100)),
            ("", None, (Decimal("0.1"), "amounts", 10)),
            ("currency = 'USD'\n", Decimal("0.25"), (Decimal("0.25"), "--chip-unit", 100))):
        hand = scale_hand(read_tables(head + extra)[0][1], given)
        assert (hand.chip_unit, hand.chip_source, hand.scale) == expected, extra
    with pytest.raises(HistoryError, match="positive"):
        scale_hand(read_tables(head)[0][1], Decimal(0))


def test_scaling_changes_no_result_of_a_golden_hand() -> None:
    """X2 with every amount divided by 100, written as decimals, replays to the same stacks
    divided by 100 (played in hundredths)."""
    record = load(GOLDEN / "X2-allin-20-50-80-side-pots.phh")
    text = (GOLDEN / "X2-allin-20-50-80-side-pots.phh").read_text()
    plain = json.loads(replay_text(text, "x2", bulk=False)[0].json)

    def cents(n: int) -> str:
        return str(Decimal(n) / 100)

    scaled = text
    for field in ("starting_stacks", "blinds_or_straddles", "finishing_stacks"):
        values = getattr(record, field)
        old = f"{field} = [{', '.join(str(v) for v in values)}]"
        assert old in scaled
        scaled = scaled.replace(old, f"{field} = [{', '.join(cents(v) for v in values)}]")
    scaled = scaled.replace("min_bet = 2", "min_bet = 0.02")
    for line in record.actions:
        words = line.split()
        if len(words) == 3 and words[1] == "cbr":
            scaled = scaled.replace(f"'{line}'", f"'{words[0]} cbr {cents(int(words[2]))}'")
    decimal = json.loads(replay_text(scaled, "x2", bulk=False)[0].json)
    assert decimal.pop("scale") == 100
    assert [Decimal(str(x)) * 100 for x in decimal["finishing_stacks"]] == \
        plain["finishing_stacks"]
    assert [[p["winners"], p["eligible"]] for p in decimal["pots"]] == \
        [[p["winners"], p["eligible"]] for p in plain["pots"]]


def test_unknown_cards_at_showdown_leave_the_pot_undetermined__D11() -> None:
    data = json.loads(replay_file(HANDHQ / "absolute.phhs")[1].json)
    # p1 shows 8dAs, p2 and p3 show ????: nobody can say who won.
    assert data["undetermined"] == len(data["pots"]) == 1
    assert all(pot["winners"] is None and pot["shares"] is None for pot in data["pots"])
    assert data["finishing_stacks"][:3] == [None, None, None]
    assert data["finishing_stacks"][3:] == [96.5, 55.5]


def test_unknown_cards_are_settled_from_consistent_winnings__D11() -> None:
    # PartyPoker [14]: p3 shows TsKs, p2 shows ????; winnings say p3 collected 402.
    report = replay_file(HANDHQ / "partypoker.phhs")[13]
    data = json.loads(report.json)
    assert data["settled_from"] == "winnings"
    assert [pot["winners"] for pot in data["pots"]] == [[3]] * len(data["pots"])
    assert report.settled
    assert report.winnings is None


def test_inconsistent_winnings_settle_nothing__D11() -> None:
    tables = read_tables((HANDHQ / "partypoker.phhs").read_text())
    table = dict(tables[13][1])
    table["winnings"] = [Decimal(0), Decimal(0), Decimal(0), Decimal(9), Decimal(0), Decimal(0)]
    outcome = replay_site(scale_hand(table))
    assert outcome.undetermined
    assert not outcome.settled_from_winnings


def test_a_courtesy_show_after_everybody_folded_changes_nothing__B5() -> None:
    text = (HANDHQ / "absolute.phhs").read_text()
    shown = replay_file(HANDHQ / "absolute.phhs")[36]
    assert shown.ok
    without = text.replace(", 'p3 f', 'p4 sm JsJh']", ", 'p3 f']")
    assert without != text
    assert json.loads(replay_text(without, "x", bulk=True)[36].json) == json.loads(shown.json)


def test_a_returning_players_post_is_refused_under_house_rules__D3() -> None:
    refused = json.loads(replay_file(HANDHQ / "ongame.phhs")[1].json)
    assert refused["action"] is None
    assert refused["error"].startswith("D3: blinds_or_straddles[2] is -5, the post of a player "
                                       "returning to the game")
    assert "--rules casino" in refused["error"]


def test_a_post_below_the_big_blind_is_dead_money_under_casino_rules__D3() -> None:
    played = json.loads(replay_file(HANDHQ / "ongame.phhs", "casino")[1].json)
    # OnGame's finishing stacks [709, 1064, 953, ...] are after a 3-dollar rake on p2's pot of
    # 94: p3's 5 went in dead, and p3 still called the whole big blind.
    assert played["finishing_stacks"] == [709, 1067, 953, 1244, 3324]
    assert sum(pot["amount"] for pot in played["pots"]) == 94
    assert played["pots"][-1]["winners"] == [2]


def test_a_post_of_the_big_blind_is_live_under_casino_rules__D3() -> None:
    """PartyPoker [61]: p4 returns posting 10 at 5/10, raises to 20 and folds to p6's 76.

    Played live (p4's 10 is part of the raise to 20), p6 collects a pot of 55 and 56 back:
    111, the file's winnings to the cent (no rake without a flop); the table's next hand starts
    with exactly these stacks (p4 289.94, p6 3138). Played dead it would be 121.
    """
    played = json.loads(replay_file(HANDHQ / "partypoker.phhs", "casino")[60].json)
    assert played["finishing_stacks"] == [1000, 1122, 199, 289.94, 1088, 3138]
    assert sum(pot["amount"] for pot in played["pots"]) == 55


BUTTON_BIG_BLIND = """\
variant = 'NT'
ante_trimming_status = false
antes = [0, 0]
blinds_or_straddles = [1, 0.50]
min_bet = 1
starting_stacks = [40, 50]
actions = ['d dh p1 ????', 'd dh p2 ????', 'p1 cc', 'p2 cc', 'd db 7hTdQh', 'p1 cbr 2', 'p2 f']
"""


def test_a_button_that_posts_the_big_blind_heads_up_is_refused_under_house_rules__D6() -> None:
    """Absolute Poker [128]: the table falls to two players and the button posts the big blind
    (``[1, 0.50]``, applied reversed); p1, who posted the small blind, folds first."""
    refused = json.loads(replay_file(HANDHQ / "absolute.phhs")[127].json)
    assert refused["action"] is None
    assert refused["error"].startswith("D6: heads-up the button (p2) posts the big blind")
    assert "--rules casino" in refused["error"]


def test_a_button_that_posts_the_big_blind_heads_up_plays_as_posted_under_casino_rules__D6(
        ) -> None:
    played = json.loads(replay_file(HANDHQ / "absolute.phhs", "casino")[127].json)
    # p1's 0.50 folded; p2's uncalled 0.50 comes back: the file's winnings [0, 1.50].
    assert played["finishing_stacks"] == [42.9, 406.25]
    assert played["pots"] == [{"amount": 1, "eligible": [2], "winners": [2], "shares": [1]}]
    # p1, after the big blind, acts first preflop and after the flop; p2 may not act first.
    flop = json.loads(replay_text(BUTTON_BIG_BLIND, "x", bulk=False, rules="casino")[0].json)
    assert flop["finishing_stacks"] == [41, 49]
    early = BUTTON_BIG_BLIND.replace("'p1 cc', 'p2 cc'", "'p2 cc', 'p1 cc'")
    assert "B2" in json.loads(replay_text(early, "x", bulk=False, rules="casino")[0].json)["error"]


CORRUPTIONS = {
    3: ("min_bet = 1\n", "min_bet = 0\n"),
    7: ("starting_stacks = [80.60, 197, 201.30]", "starting_stacks = [80.60, 0, 201.30]"),
    12: ("blinds_or_straddles = [0.50, 1, 0, 0, 0, 0, 0]\n",
         "blinds_or_straddles = [0.50, 1, 0, 0, 0, 0, 0\n"),
    20: ("'p4 cbr 1', 'p2 f']", "'p4 cbr 1', 'p2 raises']"),
}


def test_one_corrupted_hand_affects_only_itself(tmp_path: Path) -> None:
    text = (HANDHQ / "absolute.phhs").read_text()
    sections = text.split("\n[")
    for number, (old, new) in CORRUPTIONS.items():
        index = number - 1
        assert old in sections[index], number
        sections[index] = sections[index].replace(old, new, 1)
    broken = tmp_path / "broken.phhs"
    broken.write_text("\n[".join(sections))
    good = replay_file(HANDHQ / "absolute.phhs")
    bad = replay_file(broken)
    assert len(bad) == len(good) == EXPECTED["absolute.phhs"][0]
    for number, (before, after) in enumerate(zip(good, bad, strict=True), 1):
        if number in CORRUPTIONS:
            assert not after.ok, number
            assert "error" in json.loads(after.json), number
        else:
            assert after.json == before.json, number
    errors = {n: json.loads(bad[n - 1].json)["error"] for n in CORRUPTIONS}
    assert errors[3] == "min_bet: 0 must be a positive number"
    assert errors[7] == "starting_stacks: every stack must be positive"
    assert errors[12].startswith("not a PHH hand (TOML)")
    assert "'p2 raises'" in errors[20]


def test_every_backend_gives_the_same_results() -> None:
    serial = [[r.json for r in file] for file in run_files(SITES, workers=1)]
    parallel = [[r.json for r in file] for file in run_files(SITES, workers=2)]
    assert parallel == serial


@pytest.mark.slow
def test_ray_gives_the_same_results() -> None:
    pytest.importorskip("ray")
    serial = [[r.json for r in file] for file in run_files(SITES[:2], workers=1)]
    on_ray = [[r.json for r in file] for file in run_files(SITES[:2], ray_address="")]
    assert on_ray == serial


def test_whole_chip_histories_give_the_strict_replays_json() -> None:
    """The site replay adds nothing to histories in whole chips: the same JSON as ``replay``.
    The televised hand is in whole dollars (``currency = "USD"``): played in cents, it says so
    and gives the same results."""
    from feltro.history import ReplayError, read_hands, replay

    data = Path(__file__).parent / "data" / "phh"
    for path in (data / "wsop.phhs", data / "dwan-ivey-2009.phh"):
        strict = []
        for _, record in read_hands(path):
            try:
                strict.append(replay(record).to_dict())
            except ReplayError as exc:
                strict.append(exc.to_dict())
        site = [json.loads(r.json) for r in replay_file(path)]
        if path.name.startswith("dwan"):
            assert [(d.pop("scale"), d.pop("chip")) for d in site] == [(100, 0.01)]
        assert site == strict


ALL_IN_UNKNOWN_STACK = """
variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [0.50, 1, 0]
min_bet = 1
starting_stacks = [inf, inf, inf]
actions = ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'p3 cbr 3', 'p1 f', 'p2 cbr 63.47',
           'p3 cc', 'p2 sm ????', 'p3 sm ????', 'd db 8sJd2d', 'd db 4c', 'd db 9h',
           'p3 sm AsAd', 'p2 sm KsKd']
"""


def test_an_unknown_stack_the_history_shows_all_in_is_inferred__P2() -> None:
    """iPoker writes every stack as ``inf``: a player who raised all-in then acts no more, and
    the shows come before the rest of the board (P2). The stack is what p2 had put in."""
    data = json.loads(replay_text(ALL_IN_UNKNOWN_STACK, "x", bulk=False)[0].json)
    assert data["all_in_inferred"] == [2]
    assert sum(Decimal(str(pot["amount"])) for pot in data["pots"]) == Decimal("127.44")
    assert {w for pot in data["pots"] for w in pot["winners"]} == {3}
    assert data["finishing_stacks"] == [None, None, None]


LIVE_POST_UNKNOWN_STACK = """\
variant = 'NT'
antes = [0, 0, 0, 0]
blinds_or_straddles = [1, 2, 0, -2]
min_bet = 2
starting_stacks = [inf, 100, 100, 100]
actions = ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'd dh p4 ????',
           'p3 f', 'p4 cc', 'p1 cbr 50', 'p2 cc', 'p4 cc',
           'd db AsKd7c', 'p2 cbr 20', 'p4 f', 'd db 2h', 'd db 3s']
"""


def test_an_inferred_stack_keeps_a_live_posts_big_blind_in_place__B2_D3() -> None:
    """p4 returns posting the big blind live; p1's unknown stack is inferred (all-in for 50)
    and the hand played again: the big blind must stay p2's then too, so p3 still acts first
    preflop (B2), as on the first try."""
    report = replay_text(LIVE_POST_UNKNOWN_STACK, "x", bulk=False, rules="casino")[0]
    data = json.loads(report.json)
    assert report.ok, data
    assert data["all_in_inferred"] == [1]
    assert data["rules"] == "casino"
