"""B5 to the last chip: nobody is asked to act when nobody could bet against them, a raise
nobody can call is not offered, and a fold never hands an all-in player more than it covered.

The cases are the smallest ones issue 20 found (by replaying the environments' hands in
PokerKit and by a second rules implementation): each failed on the engine before B5 read so.
Both engines play them: :class:`~feltro.hand.Hand` here, the array engine through the same
deals (:func:`batch_plays`).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from feltro.actions import Action, Raise
from feltro.bots import BOT_KINDS, make_bot
from feltro.cards import Deck
from feltro.config import HandConfig, Structure
from feltro.env import EnvConfig
from feltro.env.batch import BatchTables
from feltro.errors import IllegalActionError
from feltro.hand import Hand
from playkit import play

AA, KK, QQ = "AsAh", "KsKh", "QsQh"
BOARD = "2c 5d 8h 9c Jd"


def start(stacks: list[int], holes: list[str], **kwargs: Any) -> Hand:
    return Hand.start(HandConfig.standard(stacks, **kwargs), Deck.for_deal(holes, BOARD))


def test_a_fold_leaves_the_last_player_with_chips_unasked__B5_P1() -> None:
    # Stacks [3, 56, 48], blinds 1/2: p3 raises to 13, p1 calls all-in (3), p2 raises to 45,
    # p3 calls. On the flop p2 folds: p3 owes nothing and nobody could bet against it, so it is
    # not asked (it used to be, and its fold paid p1 93 chips for the 3 it put in). p1 wins at
    # most the 9 it covered (P1).
    hand = start([3, 56, 48], [AA, QQ, KK])
    play(hand, "r 13", "c", "r 45", "c", "f")
    assert hand.to_act is None
    assert hand.is_over
    result = hand.result()
    assert result.stacks == (9, 11, 87)
    assert [(pot.amount, pot.eligible) for pot in result.pots] == [(9, (0, 2)), (84, (2,))]


def test_a_fold_against_a_short_all_in_does_not_overpay_it__B5_P1() -> None:
    # [SB 100, BB 100, button 10], blinds 1/2: the button goes all-in for 10, the small blind
    # raises to 50, the big blind calls; on the flop the small blind folds. The big blind is not
    # asked to act; the button (aces) wins the 30 it covered: [50, 130, 30] (a fold by the big
    # blind used to give [50, 50, 110]).
    hand = start([100, 100, 10], [QQ, KK, AA])
    play(hand, "r 10", "r 50", "c", "f")
    assert hand.to_act is None
    assert hand.result().stacks == (50, 130, 30)


def test_heads_up_big_blind_has_no_option_when_the_button_is_all_in_by_its_blind__B5() -> None:
    # Heads-up [BB 100, button 1], blinds 1/2: the button's small blind puts it all-in. The big
    # blind used to be offered fold, check or raise; now nobody acts and its extra chip returns.
    hand = start([100, 1], [KK, AA])
    assert hand.to_act is None
    assert hand.result().returned == (1, 0)
    assert hand.result().stacks == (99, 2)


def test_heads_up_big_blind_may_only_call_or_fold_a_shove__B5() -> None:
    # Heads-up [200, 50]: the button raises all-in to 50; the big blind may call 48 or fold,
    # not raise (it used to be offered 98..200).
    hand = start([200, 50], [KK, AA])
    play(hand, "r 50")
    legal = hand.legal
    assert (legal.position, legal.call_amount, legal.min_raise_to, legal.max_raise_to) == (
        0, 48, None, None)
    refusal = legal.refusal_details["raise"]
    assert (refusal.rule, refusal.reason, dict(refusal.params)) == (
        "B5", "nobody-can-call", {"current_bet": 50})
    assert legal.refusals["raise"].startswith("B5: nobody left can put in more than the bet")
    with pytest.raises(IllegalActionError) as info:
        hand.apply(Raise(98))
    assert info.value.refusal == refusal
    assert hand.legal == legal  # refused, nothing changed


def test_a_raise_is_closed_when_the_others_left_cannot_go_beyond_the_bet__B5() -> None:
    # Stacks [300, 60, 100, 300]: p3 raises all-in to 100; the deep button p4 may raise (p1 is
    # deep too) but folds. p1 faces 100, and the others left cannot put in more than that: p3 is
    # all-in for it and p2, still to act, has only 60. So p1 may only call or fold, and so may p2.
    hand = start([300, 60, 100, 300], [AA, KK, QQ, "7c7d"])
    play(hand, "r 100")
    assert hand.legal.min_raise_to == 198
    play(hand, "f")
    assert (hand.legal.position, hand.legal.min_raise_to) == (0, None)
    assert hand.legal.refusal_details["raise"].reason == "nobody-can-call"
    play(hand, "c")
    assert (hand.legal.position, hand.legal.call_amount, hand.legal.min_raise_to) == (1, 58, None)
    assert hand.legal.refusal_details["raise"].reason == "no-chips"  # B7 comes first
    play(hand, "c")
    assert hand.is_over


def test_fixed_limit_raise_over_a_short_all_in_is_closed__B5_B10() -> None:
    hand = start([100, 3], [KK, AA], structure=Structure.FIXED_LIMIT)
    play(hand, "r 3")
    assert hand.legal.min_raise_to is None
    assert hand.legal.refusal_details["raise"].reason == "nobody-can-call"


def test_antes_all_in_player_and_the_big_blind_option__B5_B11() -> None:
    # Antes of 1: the small blind (2 chips) is all-in after its ante and blind; the button
    # folds. The big blind is the only one left with chips and owes nothing: no option.
    hand = start([2, 200, 200], [AA, KK, QQ], ante=1)
    play(hand, "f")
    assert hand.to_act is None
    assert hand.is_over
    # With another short all-in on its ante, the button facing the big blind still decides.
    hand = start([1, 3, 200, 200], [AA, KK, QQ, "7c7d"], ante=1)
    play(hand, "f")
    legal = hand.legal
    assert (legal.position, legal.call_amount, legal.min_raise_to) == (3, 2, None)


@pytest.mark.parametrize("seed", range(6))
def test_no_fold_ever_pays_an_all_in_player_beyond_its_levels__B5_P1(seed: int) -> None:
    # Random hands, short and deep stacks: whenever one player wins by folds, nobody put in
    # more than the winner (what was beyond it came back, B7), so the winner never collects
    # beyond the levels it covered (P1).
    rng = random.Random(seed)
    checked = 0
    for _ in range(400):
        n = rng.randint(2, 6)
        stacks = [rng.choice([rng.randint(1, 12), rng.randint(13, 300)]) for _ in range(n)]
        hand = Hand.start(HandConfig.standard(stacks), Deck.shuffled(rng))
        while hand.to_act is not None:
            legal = hand.legal
            options: list[Action | str] = ["f", "c"]
            if legal.min_raise_to is not None and legal.max_raise_to is not None:
                options += [Raise(legal.min_raise_to), Raise(legal.max_raise_to)]
            hand.apply(rng.choice(options))
        if hand.folded.count(False) != 1:
            continue
        result = hand.result()
        won = [sum(s for pot in result.pots for w, s in zip(pot.winners, pot.shares,
                                                              strict=True) if w == p)
               for p in range(n)]
        put_in = [stacks[p] - result.stacks[p] + won[p] for p in range(n)]
        winner = hand.folded.index(False)
        assert max(put_in) == put_in[winner], (stacks, put_in, hand.events)
        checked += 1
    assert checked > 50


def batch_plays(stacks: list[int], actions: list[int]) -> BatchTables:
    """One table of the array engine, no rotation, fed *actions* (exact action numbers)."""
    tables = BatchTables(1, EnvConfig(players=len(stacks), stacks=stacks, rotate=False), 1)
    tables.reset()
    for action in actions:
        tables.step(np.array([action]))
    return tables


def test_the_array_engine_closes_the_raise_and_asks_nobody__B5() -> None:
    # Heads-up [200, 50]: the button (agent 1, position 1) raises all-in to 50; the big blind
    # may call or fold only. Three-handed [3, 56, 48]: after the flop fold nobody is asked.
    tables = batch_plays([200, 50], [51])  # raise to 50: action 50 + 1
    assert (int(tables.to_act[0]), int(tables.call_amount[0]), int(tables.min_raise_to[0])) == (
        0, 48, 0)
    tables = BatchTables(1, EnvConfig(players=3, stacks=[3, 56, 48], rotate=False), 1)
    tables.reset()
    for action in (14, 1, 46, 1):  # p3 raises to 13, p1 calls, p2 raises to 45, p3 calls
        assert not tables.step(np.array([action]))[0]
    ended = tables.step(np.array([0]))  # p2 folds on the flop: the hand runs out at once
    assert ended[0]
    assert int(tables.final_stacks[0, 0]) <= 9


@pytest.mark.parametrize("kind", BOT_KINDS)
def test_bots_never_choose_a_raise_nobody_can_call__B5(kind: str) -> None:
    # Short, uneven stacks and two random players who shove put the bots again and again in
    # front of a bet nobody else could go beyond: every answer must be one the engine offers
    # (no fallback needed).
    rng = random.Random(5)
    bots = [make_bot(kind, random.Random(1)), make_bot(kind, random.Random(2)),
            make_bot("random", random.Random(3)), make_bot("random", random.Random(4))]
    closed = 0
    for _ in range(60 if kind in ("montecarlo", "expert") else 300):
        stacks = [rng.choice([rng.randint(2, 15), rng.randint(40, 300)]) for _ in range(4)]
        hand = Hand.start(HandConfig.standard(stacks), Deck.shuffled(rng))
        while hand.to_act is not None:
            p = hand.to_act
            legal = hand.legal
            answer = bots[p].act(hand.view(p), legal)
            assert answer in legal, (kind, answer, legal)
            if p < 2 and "raise" in legal.refusal_details:
                closed += legal.refusal_details["raise"].reason == "nobody-can-call"
            hand.apply(answer)
    assert closed >= 5
