"""The bot levels: always legal over thousands of decisions, fast, reproducible, and the
stronger level really is stronger than random."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from feltro.actions import Raise
from feltro.bots.levels import ALL_KINDS, DEFAULT_LEVEL, LEVELS, make_level
from feltro.bots.montecarlo import MonteCarloBot, estimate_equity, opponent_range
from feltro.bots.reading import Made, chen_score, has_draw, made_hand, range_threshold
from feltro.cards import Deck, parse_cards
from feltro.hand import Hand, HandConfig
from playkit import assert_legal_and_quick, bot_series


@pytest.mark.parametrize("level", ["random", "rules"])
def test_cheap_levels_are_always_legal_over_thousands_of_decisions(level: str) -> None:
    total = 0
    seed = 0
    while total < 3000 and seed < 100:
        n = 2 + seed % 5 * 2  # 2, 4, 6, 8, 10 players
        mix = [level] * (n // 2) + ["random"] * (n - n // 2)
        decisions, _slowest, series = bot_series(mix, seed, [level], make_level, max_hands=150)
        total += decisions
        assert sum(series.stacks.values()) == n * 200
        seed += 1
    assert total >= 3000


def test_montecarlo_is_always_legal_and_acts_within_200_ms() -> None:
    # Measured in this thread's CPU time, so that other jobs on a shared machine do not count;
    # benchmarks/bench_bots.py reports wall-clock latencies.
    assert_legal_and_quick([
        ["montecarlo"] * 10,                                # nine opponents: the slowest
        ["montecarlo", "random", "rules", "montecarlo", "random", "rules"],
        ["montecarlo", "montecarlo"],
    ], ["montecarlo"], 1000, make=make_level, max_hands=50)


def test_bots_are_reproducible_from_their_rng() -> None:
    hand = Hand.start(HandConfig.standard([200] * 4), Deck.shuffled(random.Random(3)))
    view, legal = hand.view(hand.to_act or 0), hand.legal
    for level in LEVELS:
        first = [make_level(level, random.Random(9)).act(view, legal) for _ in range(3)]
        assert len(set(first)) == 1


def test_registry_knows_every_level() -> None:
    assert LEVELS == ("random", "rules", "montecarlo", "expert")
    assert set(LEVELS) <= set(ALL_KINDS)
    assert DEFAULT_LEVEL in LEVELS
    assert LEVELS[-1] != DEFAULT_LEVEL  # new players do not meet the hardest first
    for kind in ALL_KINDS:
        assert make_level(kind, random.Random(1)).name == kind
    with pytest.raises(ValueError, match="unknown bot level"):
        make_level("shark", random.Random(1))


def test_montecarlo_beats_random() -> None:
    chips: Counter[str] = Counter()
    for seed in range(4):
        levels = ["montecarlo", "random"] if seed % 2 else ["random", "montecarlo"]
        _d, _s, series = bot_series(levels, 100 + seed, [], make_level, max_hands=150)
        for i, seat in enumerate(series.config.players):
            chips[levels[i]] += series.stacks[seat]
    assert chips["montecarlo"] > chips["random"]


def test_equity_against_ranges() -> None:
    rng = random.Random(1)
    aces = estimate_equity(parse_cards("AsAh"), (), [(1.0, 0.0)], 1500, rng)
    assert 0.80 < aces < 0.89  # exact: 85.2% against a random hand
    seven_deuce = estimate_equity(parse_cards("7c2d"), (), [(0.1, 0.0)], 1500, rng)
    assert seven_deuce < 0.3  # against the top 10% it is hopeless (exact: about 25%)
    nuts = estimate_equity(parse_cards("AsKs"), parse_cards("QsJsTs"), [(1.0, 0.85)] * 3, 300,
                           rng)
    assert nuts == 1.0


def test_ranges_narrow_with_aggression() -> None:
    hand = Hand.start(HandConfig.standard([200] * 4), Deck.shuffled(random.Random(5)))
    hand.apply(Raise(8))  # the first to act raises
    raiser = 2
    view = hand.view(hand.to_act or 0)
    assert opponent_range(view, raiser) == (0.15, 0.0)
    assert range_threshold(0.15) > range_threshold(0.5) > range_threshold(1.0)


def test_montecarlo_folds_bad_odds_and_raises_big_equity() -> None:
    hand = Hand.start(HandConfig.standard([200] * 3), Deck.shuffled(random.Random(2)))
    hand.apply(Raise(60))
    view, legal = hand.view(hand.to_act or 0), hand.legal
    bot = MonteCarloBot(random.Random(1))
    assert str(bot.decide(view, legal, 0.10)) == "f"
    assert isinstance(bot.decide(view, legal, 0.95), Raise)


def test_reading_helpers() -> None:
    assert chen_score(*parse_cards("AsAh")) == 20
    assert chen_score(*parse_cards("7c2d")) == -1
    assert made_hand(parse_cards("AsKd"), parse_cards("Ah7c2d")) == Made.TOP_PAIR
    assert made_hand(parse_cards("3s4d"), parse_cards("5h6c7d")) == Made.MONSTER
    assert made_hand(parse_cards("Qs4d"), parse_cards("AhAcKd")) == Made.NOTHING
    assert has_draw(parse_cards("AsKs"), parse_cards("2s7s9d"))
    assert not has_draw(parse_cards("2s3d"), parse_cards("Kh9c5d"))


def test_the_expert_level_is_offered_by_every_interface() -> None:
    # The strongest level: in the terminal game's choices (feltro play --level/--bots), the
    # table's standings labels, the server's list (tests/server: the host's "bots"), and
    # named in every language.
    from feltro.bots import BOT_KINDS
    from feltro.cli.language import BOT_NAMES
    from feltro.cli.play import choose_players
    from feltro.i18n import LANGUAGES, catalogue

    assert LEVELS[-1] == "expert"
    assert "expert" in BOT_KINDS
    assert "expert" in BOT_NAMES.split(", ")
    seats = choose_players(humans=["Ana"], players=3, bots=None, level="expert")
    assert [p.bot for p in seats] == [None, "expert", "expert"]
    seats = choose_players(humans=["Ana"], players=None, bots="rules,expert", level="rules")
    assert [p.bot for p in seats] == [None, "rules", "expert"]
    names = {lang: catalogue(lang)["bot.level.expert"] for lang in LANGUAGES}
    assert names == {"en": "expert", "pt-PT": "perito", "pt-BR": "especialista"}


def test_the_tui_labels_every_kind_of_bot() -> None:
    from feltro.tui import render

    assert render.ALL_KINDS is ALL_KINDS  # the standings label any level the game offers
    assert {"expert", "tag"} <= set(ALL_KINDS)
