"""Adversarial nights on a server table (issue 21, RULES D1: the shuffle): a host-player who
grinds his own contribution with everything in the data and config folders (committing first,
revealing last, withholding when that suits him), and a player who tries to knock out the
others' values with his seal. Before commit-then-reveal the grinder was dealt pocket aces in
every attacked hand and the honest phones' values were refused; now his aces come at chance
(a withheld value gives at most one visible bit: two decks to choose from, not millions) and
every honest value is used. ``benchmarks/fair_attack.py`` plays 200 attacked hands."""

from __future__ import annotations

from fairattack import attacked_night
from srvkit import Harness

HANDS = 30


def test_a_host_player_grinding_with_the_servers_files_gets_aces_at_chance_only_D1(
        harness: Harness) -> None:
    outcome = attacked_night(harness, HANDS)
    assert outcome.attacked == HANDS
    # Chance is about 1 in 221 a hand: 0.14 in 30 hands; more than 2 happens about once in
    # 2000 nights. Before commit-then-reveal: 30 of 30.
    assert outcome.aces <= 2, outcome
    assert outcome.played_dead == 0, outcome  # a hand he withheld is folded for him
    assert outcome.named == outcome.withheld  # every withheld value is named in the record


def test_a_seal_knocks_out_nobody_and_no_value_is_refused_silently_D1(
        harness: Harness) -> None:
    outcome = attacked_night(harness, 8)
    assert outcome.honest_used == outcome.attacked == 8  # both honest values in every deck
    assert outcome.honest_refused == []
