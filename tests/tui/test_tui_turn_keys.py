"""The terminal game's turn keys in a spot where nobody can call a raise (issue 20, RULES B5):
every raise key is refused with the rule's own words and id, never played, while call and fold
stay; the same keys raise where the rules allow it (the control). The keys are judged by
:func:`feltro.tui.turn.answer_key`, a pure function of the engine's legal actions."""

from __future__ import annotations

import pytest

from feltro.actions import CALL, FOLD, Raise
from feltro.cards import Deck
from feltro.config import HandConfig
from feltro.hand import Hand
from feltro.tui import turn
from playkit import play

RAISE_KEYS = ("r", "1", "2", "3", "4")


def _heads_up_shove() -> Hand:
    """Heads-up [200, 50]: the button raises all-in to 50; the big blind faces it."""
    hand = Hand.start(HandConfig.standard([200, 50]),
                      Deck.for_deal(["KsKh", "AsAh"], "2c 5d 8h 9c Jd"))
    play(hand, "r 50")
    return hand


@pytest.mark.parametrize("lang", ["en", "pt-PT", "pt-BR"])
def test_no_raise_key_plays_a_raise_nobody_can_call__B5(lang: str) -> None:
    hand = _heads_up_shove()
    legal, view = hand.legal, hand.view(0)
    assert turn.standing_rule(legal) == "B5"  # the bottom line says why raising is closed
    for key in RAISE_KEYS:
        answer = turn.answer_key(key, legal, view, lang)
        assert isinstance(answer, turn.Refused), (key, answer)
        assert answer.rule == "B5"
        assert answer.reason
    assert turn.answer_key(next(iter(turn.keys_for("passive", lang))), legal, view,
                           lang) == CALL
    assert turn.answer_key(next(iter(turn.keys_for("fold", lang))), legal, view,
                           lang) == FOLD
    assert "B5" in turn.standing_reason(view, legal, lang).plain


def test_the_same_keys_raise_where_the_rules_allow_it__B5() -> None:
    hand = Hand.start(HandConfig.standard([200, 200]),
                      Deck.for_deal(["KsKh", "AsAh"], "2c 5d 8h 9c Jd"))
    legal, view = hand.legal, hand.view(hand.legal.position or 0)
    assert turn.standing_rule(legal) is None
    assert turn.answer_key("r", legal, view, "en") == "amount"
    assert turn.answer_key("4", legal, view, "en") == Raise(200)
