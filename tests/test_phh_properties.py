"""Property: a hand played by the engine, written to PHH and read back, is the same hand.

Random legal hands (2-10 players, mixed and very short stacks, antes, dead small blinds,
no-limit and fixed-limit, played to the end or cut short) are written with
:func:`feltro.history.record_of`, turned into text with ``dumps``, read with ``loads`` and
replayed strictly: the actions, final stacks and pots must come back unchanged.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from feltro.actions import CALL, FOLD, Action, Raise
from feltro.cards import Deck
from feltro.config import HandConfig, Structure
from feltro.hand import Hand
from feltro.history import dumps, loads, record_of, replay


@st.composite
def configs(draw: st.DrawFn) -> HandConfig:
    n = draw(st.integers(2, 10))
    stacks = tuple(draw(st.lists(st.one_of(st.integers(1, 6), st.integers(7, 300)),
                                 min_size=n, max_size=n)))
    if n == 2:
        blinds: tuple[int, ...] = (2, 1)
    elif draw(st.booleans()):
        blinds = (1, 2) + (0,) * (n - 2)
    else:
        blinds = (2,) + (0,) * (n - 1)  # dead small blind (D8)
    antes: tuple[int, ...] = ()
    if draw(st.integers(0, 3)) == 0:
        antes = draw(st.sampled_from([(1,) * n, (0,) * (n - 1) + (2,)]))
        if n == 2:
            antes = antes[::-1]
    structure = draw(st.sampled_from([Structure.NO_LIMIT, Structure.FIXED_LIMIT]))
    return HandConfig(stacks=stacks, blinds=blinds, big_blind=2, antes=antes,
                      structure=structure, ante_trimming=draw(st.booleans()))


def random_action(hand: Hand, rng: random.Random) -> Action:
    """Fold (only facing a bet), check/call, the smallest or largest raise, or one between."""
    legal = hand.legal
    options: list[Action] = [CALL]
    if not legal.can_check:
        options.append(FOLD)
    low, high = legal.min_raise_to, legal.max_raise_to
    if low is not None and high is not None:
        options += [Raise(low), Raise(high), Raise(rng.randint(low, high))]
    return rng.choice(options)


def play(config: HandConfig, seed: int, cut: int | None) -> Hand:
    """A hand from a shuffled deck, played at random to the end or for *cut* actions."""
    rng = random.Random(seed)
    hand = Hand.start(config, Deck.shuffled(rng))
    actions = 0
    while hand.to_act is not None and (cut is None or actions < cut):
        hand.apply(random_action(hand, rng))
        actions += 1
    return hand


@settings(max_examples=300, deadline=None)
@given(config=configs(), seed=st.integers(0, 2**32), cut=st.none() | st.integers(0, 12),
       one_card_per_line=st.booleans())
def test_write_then_read_gives_the_same_hand(config: HandConfig, seed: int, cut: int | None,
                                             one_card_per_line: bool) -> None:
    hand = play(config, seed, cut)
    record = record_of(hand, one_card_per_line=one_card_per_line, _seed=seed)
    again = loads(dumps(record), strict=True)
    assert again == record
    outcome = replay(again, settle=False)
    assert outcome.complete == hand.is_over
    assert outcome.finishing_stacks == hand.stacks
    if hand.is_over:
        assert outcome.pots == hand.result().pots
    # The replayed hand writes back the very same lines.
    assert record_of(outcome.hand, one_card_per_line=one_card_per_line).actions == record.actions
