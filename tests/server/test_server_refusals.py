"""A table words every refusal its players can meet from the data (rule, reason code, numbers),
in every language, with seats where the engine has hand positions."""

from __future__ import annotations

import pytest

from feltro.actions import Raise
from feltro.cards import Deck
from feltro.config import HandConfig, Structure
from feltro.errors import IllegalActionError, Refusal
from feltro.hand import Hand
from feltro.i18n import LANGUAGES, catalogue, placeholders, t
from feltro.server.protocol import ErrorCode
from feltro.server.refusals import SEAT_REFUSALS, error_code, refusal_words, seat_refusal

# The numbers each refusal carries (feltro.errors.Refusal), seats already seats.
PARAMS = {
    ("B2", "not-your-turn"): {"seat": 3, "to_act_seat": 5},
    ("B3", "owes"): {"owed": 4},
    ("B5", "betting-over"): {},
    ("B5", "hand-over"): {},
    ("B5", "nobody-can-call"): {"current_bet": 50},
    ("B6", "whole-chips"): {},
    ("B6", "not-positive"): {"to": 0},
    ("B6", "not-a-raise"): {"to": 2, "current_bet": 2, "min_to": 4},
    ("B6", "above-stack"): {"to": 900, "reach": 200},
    ("B6", "above-pot-limit"): {"to": 90, "max_to": 7},
    ("B6", "below-min"): {"to": 3, "min_to": 4},
    ("B7", "no-chips"): {"reach": 30, "current_bet": 40},
    ("B8", "not-reopened"): {"current_bet": 15, "raised_since": 5, "full_increment": 10},
    ("B10", "capped"): {},
    ("B10", "fixed-size"): {"to": 9, "raise_to": 4},
    ("P2", "folded"): {"seat": 3},
    ("P8", "betting-not-over"): {"seat": 3},
    ("P8", "already-shown"): {"seat": 3},
}


def test_every_table_refusal_has_its_sentence_in_every_language() -> None:
    assert set(PARAMS) == set(SEAT_REFUSALS)
    for (rule, reason), params in PARAMS.items():
        for lang in LANGUAGES:
            key = f"refusal.{rule}.{reason}"
            assert placeholders(catalogue(lang)[key]) <= set(params), (lang, key)
            words = refusal_words(Refusal(rule, reason, params), lang)
            assert f"({rule})" in words
            assert "{" not in words


def test_positions_become_seats_on_the_data__B2() -> None:
    refusal = seat_refusal(Refusal("B2", "not-your-turn", {"position": 0, "to_act": 2}),
                           (4, 7, 1))
    assert refusal == Refusal("B2", "not-your-turn", {"seat": 4, "to_act_seat": 1})
    assert refusal_words(refusal) == "It is seat 1's turn, not seat 4's (B2)."
    assert error_code(refusal) is ErrorCode.NOT_YOUR_TURN


def test_an_engine_refusal_is_worded_from_its_data__B6() -> None:
    hand = Hand.start(HandConfig.standard([200, 200, 200]), Deck.standard())
    with pytest.raises(IllegalActionError) as caught:
        hand.apply(Raise(3))
    refusal = seat_refusal(caught.value.refusal, (2, 5, 9))
    assert (refusal.rule, refusal.reason) in SEAT_REFUSALS
    assert error_code(refusal) is ErrorCode.ILLEGAL_AMOUNT
    assert refusal_words(refusal, "pt-PT") == "O mínimo é 4, não 3 (B6)."


def test_a_fixed_limit_raise_of_another_size__B10() -> None:
    config = HandConfig.standard([200, 200, 200], structure=Structure.FIXED_LIMIT)
    hand = Hand.start(config, Deck.standard())
    with pytest.raises(IllegalActionError) as caught:
        hand.apply(Raise(9))
    refusal = seat_refusal(caught.value.refusal, (1, 2, 3))
    assert (refusal.rule, refusal.reason) == ("B10", "fixed-size")
    assert "(B10)" in refusal_words(refusal, "pt-BR")


def test_a_refusal_without_a_sentence_is_shown_with_its_rule() -> None:
    # A reason a newer engine may add before it has words (every known one has them).
    words = refusal_words(Refusal("D5", "newer-reason", {"street": 1}), "pt-BR")
    assert words == t("refusal.fallback", "pt-BR", rule="D5", detail="newer-reason")
    assert "D5" in words
    assert refusal_words(Refusal("D5", "board-not-dealt", {"street": 1}), "pt-BR") == (
        "Primeiro é preciso distribuir as próximas cartas comunitárias (D5).")
