"""The simple built-in bots: legal over thousands of decisions, their characters, and the
check-else-fold fallback for an illegal answer."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from feltro.actions import CHECK, FOLD, Action, Call, Check, Fold, Raise
from feltro.bots import BOT_KINDS, Bot, checked_action, make_bot
from feltro.bots.basic import CallingStationBot, RandomBot, TightBot
from feltro.cards import Deck
from feltro.hand import Hand, HandConfig, LegalActions, SeatView


def _random_hand(rng: random.Random) -> Hand:
    players = rng.randint(2, 10)
    stacks = [rng.choice([1, 2, 3, 5, 20, 200, 1000]) for _ in range(players)]
    return Hand.start(HandConfig.standard(stacks), Deck.shuffled(rng))


@pytest.mark.parametrize("kind", BOT_KINDS)
def test_every_answer_is_legal_over_thousands_of_decisions(kind: str) -> None:
    rng = random.Random(kind)
    bot = make_bot(kind, random.Random(1))
    assert isinstance(bot, Bot)
    decisions = 0
    seen: Counter[str] = Counter()
    while decisions < 3000:
        hand = _random_hand(rng)
        while not hand.is_over:
            position = hand.to_act
            assert position is not None
            view = hand.view(position)
            assert view.legal == hand.legal
            action = bot.act(view, hand.legal)
            assert action in hand.legal, (kind, action, hand.legal)
            seen[type(action).__name__] += 1
            hand.apply(action, position)
            decisions += 1
    if kind == "station":
        assert set(seen) <= {"Check", "Call"}
    else:
        assert {"Fold", "Raise"} <= set(seen)


def _preflop(holes: list[str], stacks: list[int] | None = None) -> Hand:
    count = len(holes)
    return Hand.start(HandConfig.standard(stacks or [200] * count), Deck.for_deal(holes))


def _view(hand: Hand) -> tuple[SeatView, LegalActions]:
    position = hand.to_act
    assert position is not None
    return hand.view(position), hand.legal


def test_tight_bot_raises_big_pairs_and_folds_junk_to_a_raise() -> None:
    tight = TightBot(random.Random(0))
    hand = _preflop(["2c3d", "4h5s", "AsAh"])           # p3 (the button) acts first
    action = tight.act(*_view(hand))
    assert isinstance(action, Raise)
    assert action.to >= 6
    hand.apply(action)
    assert tight.act(*_view(hand)) == FOLD              # p1 with 3-2 offsuit facing a raise


def test_tight_bot_bets_two_pair_and_checks_air_after_the_flop() -> None:
    tight = TightBot(random.Random(0))
    tight.bluff_rate = 0.0
    hand = Hand.start(HandConfig.standard([200, 200]),
                      Deck.for_deal(["KsQd", "7c2d"], "Kd Qh 3c 9s 8h"))
    hand.apply(Call())                                  # the button completes
    hand.apply(Check())                                 # the big blind checks: flop
    action = tight.act(*_view(hand))                    # p1 has kings and queens
    assert isinstance(action, Raise)
    hand.apply(action)
    hand.apply(Call())
    hand2 = Hand.start(HandConfig.standard([200, 200]),
                       Deck.for_deal(["7c2d", "KsQd"], "Kd Qh 3c 9s 8h"))
    hand2.apply(Call())
    hand2.apply(Check())
    assert tight.act(*_view(hand2)) == CHECK            # p1 has nothing


def test_calling_station_calls_everything() -> None:
    station = CallingStationBot(random.Random(0))
    hand = _preflop(["2c3d", "4h5s", "AsAh"])
    hand.apply(Raise(200))                              # all-in
    assert station.act(*_view(hand)) == Call()


def test_random_bot_is_reproducible_and_never_folds_for_free() -> None:
    def answers(seed: int) -> list[Action]:
        bot = RandomBot(random.Random(seed))
        rng = random.Random(5)
        out: list[Action] = []
        for _ in range(200):
            hand = _random_hand(rng)
            while not hand.is_over:
                view, legal = _view(hand)
                action = bot.act(view, legal)
                if legal.can_check:
                    assert not isinstance(action, Fold)
                out.append(action)
                hand.apply(action)
        return out

    assert answers(1) == answers(1)
    assert answers(1) != answers(2)


class _Cheater:
    name = "cheater"

    def act(self, view: SeatView, legal: LegalActions) -> Action:
        return Raise(1)


def test_an_illegal_answer_becomes_check_else_fold() -> None:
    hand = _preflop(["2c3d", "4h5s", "AsAh"])
    action, why = checked_action(_Cheater(), *_view(hand))
    assert action == FOLD                               # facing the big blind: cannot check
    assert why is not None
    assert "cheater" in why
    hand.apply(Call())
    hand.apply(Call())
    action, why = checked_action(_Cheater(), *_view(hand))   # the big blind's option
    assert action == CHECK
    assert why is not None
    assert checked_action(CallingStationBot(random.Random(0)), *_view(hand)) == (CHECK, None)


def test_unknown_bot_kind() -> None:
    with pytest.raises(ValueError, match="unknown bot 'shark'"):
        make_bot("shark", random.Random(0))
