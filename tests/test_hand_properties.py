"""Property tests: random hands of 2-10 players with mixed and very short stacks.

Each example plays one hand to the end, choosing among the offered actions, and at every
step checks the invariants and tries illegal actions, which must be refused with
:class:`IllegalActionError` and leave the hand exactly as it was.
"""


from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from feltro.actions import CALL, CHECK, FOLD, Action, Raise
from feltro.cards import Deck
from feltro.config import Structure
from feltro.errors import IllegalActionError
from feltro.events import (
    ActionTaken,
    AntePosted,
    BlindPosted,
    CardsMucked,
    CardsShown,
    UncalledReturned,
)
from feltro.hand import Hand, HandConfig
from feltro.handstate import HandState

SETTINGS = settings(max_examples=120, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

stack_sizes = st.one_of(st.sampled_from([1, 2, 3, 4, 5]), st.integers(1, 60),
                        st.integers(150, 400))


@st.composite
def configs(draw: st.DrawFn) -> HandConfig:
    stacks = draw(st.lists(stack_sizes, min_size=2, max_size=10))
    structure = draw(st.sampled_from([Structure.NO_LIMIT] * 3 + [Structure.POT_LIMIT,
                                                                  Structure.FIXED_LIMIT]))
    ante = draw(st.sampled_from([0, 0, 0, 1, 2]))
    config = HandConfig.standard(stacks, ante=ante, structure=structure)
    if draw(st.booleans()) and len(stacks) > 2:
        # Dead small blind: only a big blind (D8 can leave no small blind).
        config = config.replace(blinds=(2,) + (0,) * (len(stacks) - 1))
    if ante and draw(st.booleans()):
        config = config.replace(ante_trimming=True)
    return config


def snapshot(hand: Hand) -> tuple[Any, ...]:
    return tuple(copy.deepcopy(getattr(hand.state, name)) for name in HandState.__slots__
                 if name != "config")


def offered(hand: Hand, rng: random.Random) -> list[Action]:
    legal = hand.legal
    actions = list(legal)
    low, high = legal.min_raise_to, legal.max_raise_to
    if low is not None and high is not None and high > low + 1:
        actions.append(Raise(rng.randint(low + 1, high - 1)))
    return actions


def illegal(hand: Hand) -> list[tuple[Action, int | None]]:
    """Actions the rules forbid now, with the position to claim."""
    legal = hand.legal
    p = legal.position
    assert p is not None
    n = hand.players
    out: list[tuple[Action, int | None]] = [
        (CALL, (p + 1) % n),  # out of turn
        (Raise(-1), None),
        (Raise(0), None),
        (Raise(2.5), None),  # type: ignore[arg-type]
    ]
    if not legal.can_check:
        out.append((CHECK, None))
    low, high = legal.min_raise_to, legal.max_raise_to
    if low is None or high is None:
        out.append((Raise(hand.current_bet + 1), None))
        out.append((Raise(hand.current_bet + 10_000), None))
    else:
        out.append((Raise(high + 1), None))  # above the stack (or the limit)
        if low - 1 > hand.current_bet and low < high:
            out.append((Raise(low - 1), None))  # below the minimum raise, not all-in
        out.append((Raise(hand.current_bet), None))  # raises nothing
    return out


def check_invariants(hand: Hand, total: int) -> None:
    assert all(s >= 0 for s in hand.stacks)
    assert sum(hand.stacks) + hand.pot == total
    pots = hand.pots()
    assert sum(p.amount for p in pots) == hand.pot
    for pot in pots:
        assert all(not hand.folded[i] for i in pot.eligible)


def play_random(config: HandConfig, deck: Deck, data: st.DataObject,
                rng: random.Random, *, probe: bool) -> tuple[Hand, list[Action]]:
    hand = Hand.start(config, deck)
    total = sum(config.stacks)
    played: list[Action] = []
    for _ in range(400):
        check_invariants(hand, total)
        if hand.to_act is None:
            break
        choices = offered(hand, rng)
        if probe:
            # Every offered action applies (on a copy); every illegal one is refused and
            # changes nothing.
            for action in choices:
                hand.copy().apply(action)
            before = snapshot(hand)
            for action, position in illegal(hand):
                with pytest.raises(IllegalActionError) as info:
                    hand.apply(action, position)
                assert str(info.value).startswith(f"{info.value.rule}: ")
                assert snapshot(hand) == before
        action = data.draw(st.sampled_from(choices), label="action")
        hand.apply(action)
        played.append(action)
    assert hand.is_over, "every hand ends"
    result = hand.result()
    assert sum(result.stacks) == total
    # The pots hold exactly the chips the log says went in, less what came back (B7).
    put_in = sum(e.amount for e in hand.events if isinstance(e, AntePosted | BlindPosted))
    put_in += sum(e.chips for e in hand.events if isinstance(e, ActionTaken))
    back = sum(e.amount for e in hand.events if isinstance(e, UncalledReturned))
    assert sum(p.amount for p in result.pots) == put_in - back
    assert sum(result.returned) == back
    for pot in result.pots:
        assert sum(pot.shares) == pot.amount
        assert set(pot.winners) <= set(pot.eligible)
        assert all(not hand.folded[w] for w in pot.winners)
        assert max(pot.shares) - min(pot.shares) <= 1
    return hand, played


@SETTINGS
@given(configs(), st.randoms(use_true_random=False), st.data())
def test_random_hands_keep_every_invariant__B3_P1(config: HandConfig, rng: random.Random,
                                                 data: st.DataObject) -> None:
    deck = Deck.shuffled(rng)
    play_random(config, deck, data, rng, probe=True)


@SETTINGS
@given(configs(), st.randoms(use_true_random=False), st.data())
def test_same_deck_and_actions_give_the_same_events(config: HandConfig, rng: random.Random,
                                                    data: st.DataObject) -> None:
    deck = Deck.shuffled(rng)
    hand, played = play_random(config, deck, data, rng, probe=False)
    again = Hand.start(config, deck)
    for action in played:
        again.apply(action)
    assert again.events == hand.events
    assert again.result() == hand.result()


@SETTINGS
@given(configs(), st.randoms(use_true_random=False), st.data())
def test_dealing_by_hand_replays_the_same_hand__D4_D5(config: HandConfig, rng: random.Random,
                                                      data: st.DataObject) -> None:
    deck = Deck.shuffled(rng)
    hand, played = play_random(config, deck, data, rng, probe=False)
    n = config.players
    manual = Hand.start(config)
    for p in range(n):
        manual.deal_hole(p, [deck[p], deck[n + p]])
    board = list(hand.board)
    sizes = iter((3, 1, 1))
    actions = iter(played)
    showdown = [e for e in hand.events if isinstance(e, CardsShown | CardsMucked)]
    while not manual.is_over:
        if manual.to_act is not None:
            manual.apply(next(actions))
        elif showdown and (manual.to_show is not None or len(manual.board) == 5):
            event = showdown.pop(0)
            if isinstance(event, CardsShown):
                manual.show(event.position)
            else:
                manual.muck(event.position)
        else:
            size = next(sizes)
            manual.deal_board(board[:size])
            board = board[size:]
    assert manual.result().stacks == hand.result().stacks
    assert manual.result().pots == hand.result().pots


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from([1, 2, 3]), min_size=2, max_size=10),
       st.randoms(use_true_random=False), st.data())
def test_tiny_stacks_all_in_by_the_blinds_end_cleanly__D10(
    stacks: list[int], rng: random.Random, data: st.DataObject
) -> None:
    play_random(HandConfig.standard(stacks), Deck.shuffled(rng), data, rng, probe=True)


def test_copy_branches_independently() -> None:
    hand = Hand.start(HandConfig.standard([200] * 3), Deck.shuffled(random.Random(3)))
    branch = hand.copy()
    branch.apply(FOLD)
    assert hand.to_act == 2
    assert hand.folded == (False, False, False)
    assert branch.folded == (False, False, True)
    assert len(hand.events) < len(branch.events)
