"""The expert bot: always legal, quick enough, reproducible, and it beats a calling station."""

from __future__ import annotations

import random

from feltro.actions import Raise
from feltro.arena import MatchConfig, play_deals, summarise
from feltro.bots import make_bot
from feltro.cards import Deck
from feltro.hand import Hand, HandConfig
from playkit import assert_legal_and_quick


def test_expert_is_always_legal_and_acts_within_200_ms() -> None:
    assert_legal_and_quick([["expert"] * 10, ["expert", "random", "rules", "station"],
                            ["expert", "expert"], ["expert", "montecarlo", "tight"]],
                           ["expert"], 300, max_hands=25, starting_stack=60)


def test_expert_is_reproducible_from_its_rng() -> None:
    hand = Hand.start(HandConfig.standard([200] * 4), Deck.shuffled(random.Random(3)))
    view, legal = hand.view(hand.to_act or 0), hand.legal
    answers = {make_bot("expert", random.Random(9)).act(view, legal) for _ in range(3)}
    assert len(answers) == 1


def test_expert_beats_a_calling_station_in_duplicate() -> None:
    match = MatchConfig(bots=("expert", "station"), hands=120, seed=11)
    summary = summarise(match, play_deals(match, 0, match.deals))
    expert = summary.bots[0]
    assert expert.ci95[0] > 0, expert


def _open_share(players: int, deals: int = 400) -> float:
    """How often the expert raises as the first to act preflop at a table of *players*."""
    config = HandConfig.standard([200] * players)
    raised = 0
    for deal in range(deals):
        hand = Hand.start(config, Deck.shuffled(random.Random(deal)))
        p = hand.to_act
        assert p is not None
        action = make_bot("expert", random.Random(deal)).act(hand.view(p), hand.legal)
        raised += isinstance(action, Raise)
    return raised / deals


def test_expert_opens_by_seat_wide_heads_up_and_tight_under_the_gun() -> None:
    assert 0.65 < _open_share(2) < 0.9  # the heads-up button: about 80% of hands
    assert 0.1 < _open_share(6) < 0.3  # first of six, five players behind: about 22%
