"""The tight-aggressive rule bot: always legal, tight (few hands) and aggressive (it raises the
hands it plays), where the ``tight`` bot is tight but passive."""

from __future__ import annotations

import random

from feltro.actions import FOLD, Raise
from feltro.bots import Bot, checked_action, make_bot
from feltro.cards import Deck
from feltro.config import HandConfig
from feltro.events import ActionTaken, Street
from feltro.hand import Hand


def _preflop_style(kind: str, hands: int = 600) -> tuple[float, float, float]:
    """(VPIP, PFR, flop aggression) of *kind* in one seat of 6-max tables of rules bots:
    the share of hands it put chips in voluntarily preflop, the share it raised preflop, and
    the share of its flop actions that were bets or raises."""
    played = raised = flop_actions = flop_raises = 0
    config = HandConfig.standard([200] * 6)
    for deal in range(hands):
        seat = deal % 6
        bots: list[Bot] = [make_bot(kind if i == seat else "rules", random.Random(deal * 8 + i))
                           for i in range(6)]
        hand = Hand.start(config, Deck.shuffled(random.Random(deal)))
        while not hand.is_over:
            p = hand.to_act
            assert p is not None
            action, why = checked_action(bots[p], hand.view(p), hand.legal)
            assert why is None, why  # never an illegal answer
            hand.apply(action)
        mine = [e for e in hand.events if isinstance(e, ActionTaken) and e.position == seat]
        pre = [e for e in mine if e.street is Street.PREFLOP]
        played += any(e.chips > 0 for e in pre)
        raised += any(isinstance(e.action, Raise) for e in pre)
        flop = [e for e in mine if e.street is Street.FLOP]
        flop_actions += len(flop)
        flop_raises += sum(isinstance(e.action, Raise) for e in flop)
    return played / hands, raised / hands, flop_raises / max(flop_actions, 1)


def test_tag_is_tight_and_aggressive_where_tight_is_passive() -> None:
    vpip, pfr, flop = _preflop_style("tag")
    assert 0.08 < vpip < 0.25  # tight: a fifth of the hands or fewer
    assert pfr > 0.8 * vpip  # aggressive: almost every hand it plays, it raises
    tight_vpip, tight_pfr, tight_flop = _preflop_style("tight")
    assert tight_pfr < 0.5 * tight_vpip  # the tight bot mostly calls: passive
    assert flop > 2 * tight_flop  # and bets or raises the flop twice as often


def test_tag_never_limps() -> None:
    config = HandConfig.standard([200] * 2)
    answers = set()
    for seed in range(60):
        hand = Hand.start(config, Deck.shuffled(random.Random(seed)))
        p = hand.to_act
        assert p is not None
        action = make_bot("tag", random.Random(seed)).act(hand.view(p), hand.legal)
        # Heads-up the button opens the top quarter with a raise and folds the rest.
        assert isinstance(action, Raise) or action == FOLD, action
        answers.add(type(action))
    assert answers == {Raise, type(FOLD)}
