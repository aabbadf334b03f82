"""Differential test against PokerKit 0.7.7: the same cards and actions, the same hand.

Random hands (2-9 players, deep and very short stacks, blinds 1/2) are played by feltro with a
random policy; every action and card goes to PokerKit too. For every hand we compare, at each
decision, what each engine allows (check or the call amount, the smallest and largest raise),
then the order of the shows and the final stacks.

PokerKit differs from RULES.md in known ways. Hands where one of those situations arises are
**detected from the hand itself** and counted per reason, never compared; every other hand must
agree exactly. Each reason must also be seen to make a real difference at least once, so that
no exclusion silences nothing. The known differences:

* ``D10``: PokerKit lets the others call only what a short big blind posted; D10 says they face
  the full big blind (heads-up, where the button is the only other player, both give the
  button no decision: B5).
* ``B8-preflop``: pre-flop PokerKit takes an all-in that raises by less than a full increment
  (e.g. all-in for 3 over the big blind) as a full raise, reopening the betting; B6/B8 say it is
  short.
* ``B8-short-bet``: likewise after the flop, an all-in *bet* below the minimum bet reopens the
  betting in PokerKit for players who checked before it; B8 says it does not. (Found by this
  test; not in the issue's list.)
* ``P7``: PokerKit merges pots after discarding losers and gives a remainder of two or more
  chips to one winner; P7 hands odd chips out one at a time, on each pot as P1 forms it (a new
  pot only where the contenders change). Since feltro forms pots that way, fewer hands differ:
  of these 2000, 14 are excluded for P7 (13 of them really differ), against 17 (16) when every
  contribution level was a pot of its own.
* ``P8``: when the hands are tabled together (an all-in run-out, or every live hand all-in at
  the showdown) PokerKit shows the last aggressor's hand first; P8 (seed 004) lists them from
  the first player to go all-in, clockwise. (Otherwise the show order is compared.)

Both engines refuse a raise nobody can call (B5), and the random policy tries every raise
feltro offers. Where feltro gives no decision to a player who owes nothing because nobody can
bet against them (B5), PokerKit sometimes still asks for a check (three-handed, when the button
folds and the small blind calls all-in, it asks the big blind; heads-up it does not); the test
answers PokerKit's check for it (no chips move) and counts it.
"""

from __future__ import annotations

import random
import warnings
from collections import Counter
from dataclasses import dataclass, field

from pokerkit import Automation, HoleCardsShowingOrMucking, NoLimitTexasHoldem, State

import pokerkit_oracle
from feltro.actions import CALL, FOLD, Action, Fold, Raise
from feltro.cards import Deck
from feltro.config import HandConfig
from feltro.events import (
    ActionTaken,
    BoardDealt,
    CardsMucked,
    CardsShown,
    Street,
    UncalledReturned,
)
from feltro.hand import Hand

HANDS = 2000
MIN_COMPARED = 1500

AUTOMATIONS = (
    *pokerkit_oracle.AUTOMATIONS,  # posts, burns, collects and shows
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
    Automation.RUNOUT_COUNT_SELECTION,
)

REASONS = ("D10", "B8-preflop", "B8-short-bet", "P7", "P8")


@dataclass
class Trial:
    """One hand played by both engines and what differed."""

    hand: Hand
    differences: list[str] = field(default_factory=list)
    show_order_difference: str | None = None
    pokerkit_checks: int = 0  # checks PokerKit asks for and B5 does not (nothing moves)


def random_config(rng: random.Random) -> HandConfig:
    n = rng.randint(2, 9)
    stacks = [rng.randint(1, 12) if rng.random() < 0.35 else rng.randint(13, 400)
              for _ in range(n)]
    return HandConfig.standard(stacks)


def nobody_can_bet_against(state: State, player: int) -> bool:
    """Every other player PokerKit still has in the hand is all-in."""
    return all(not state.stacks[q] for q in range(state.player_count)
               if q != player and state.statuses[q])


def random_action(hand: Hand, rng: random.Random) -> Action:
    """Check/call mostly; fold (facing a bet), the smallest, largest or any raise sometimes."""
    legal = hand.legal
    assert legal.position is not None
    options: list[tuple[Action, int]] = [(CALL, 6)]
    if not legal.can_check:
        options.append((FOLD, 1))
    low, high = legal.min_raise_to, legal.max_raise_to
    if low is not None and high is not None:
        options += [(Raise(low), 2), (Raise(high), 1), (Raise(rng.randint(low, high)), 1)]
    actions, weights = zip(*options, strict=True)
    return rng.choices(actions, weights)[0]


class PokerKitMirror:
    """PokerKit fed the same cards and actions as a feltro hand."""

    def __init__(self, hand: Hand) -> None:
        config = hand.config
        n = config.players
        self.hand = hand
        self.state: State = NoLimitTexasHoldem.create_state(
            AUTOMATIONS, True, 0, (1, 2), 2, config.stacks, n)
        for k in range(2):  # D4: first cards round the table, then second cards
            for p in range(n):
                self.state.deal_hole(str(hand.hole(p)[k]))
        self.board_dealt = 0
        self.pokerkit_checks = 0

    def catch_up(self) -> None:
        """Deal the board cards feltro has dealt, and answer PokerKit's pointless checks."""
        state = self.state
        hand = self.hand
        while True:
            if state.can_deal_board():
                size = 3 if self.board_dealt == 0 else 1
                cards = hand.board[self.board_dealt:self.board_dealt + size]
                if len(cards) < size:
                    return
                state.deal_board("".join(map(str, cards)))
                self.board_dealt += size
            elif (state.actor_index is not None and state.actor_index != hand.to_act
                  and state.checking_or_calling_amount == 0
                  and nobody_can_bet_against(state, state.actor_index)):
                state.check_or_call()  # a check B5 does not ask for: nothing moves
                self.pokerkit_checks += 1
            else:
                return

    def legal_differences(self, position: int) -> list[str]:
        """What the two engines allow *position* now, where they differ."""
        state = self.state
        legal = self.hand.legal
        if state.actor_index != position:
            return [f"p{position + 1} to act in feltro, {state.actor_index} in PokerKit"]
        mine = (legal.call_amount, legal.min_raise_to, legal.max_raise_to)
        if state.can_complete_bet_or_raise_to():
            raises = (state.min_completion_betting_or_raising_to_amount,
                      state.max_completion_betting_or_raising_to_amount)
        else:
            raises = (None, None)
        theirs = (state.checking_or_calling_amount, *raises)
        if mine != theirs:
            return [f"p{position + 1} may call/raise {mine} in feltro, {theirs} in PokerKit"]
        return []

    def apply(self, action: Action) -> list[str]:
        try:
            if isinstance(action, Fold):
                self.state.fold()
            elif isinstance(action, Raise):
                self.state.complete_bet_or_raise_to(action.to)
            else:
                self.state.check_or_call()
        except ValueError as exc:
            return [f"PokerKit refused {action}: {exc}"]
        return []

    def showdown_order(self) -> list[int]:
        return [op.player_index for op in self.state.operations
                if isinstance(op, HoleCardsShowingOrMucking)]


def play_both(seed: int) -> Trial:
    rng = random.Random(seed)
    hand = Hand.start(random_config(rng), Deck.shuffled(rng))
    mirror = PokerKitMirror(hand)
    trial = Trial(hand)
    while hand.to_act is not None:
        position = hand.to_act
        mirror.catch_up()
        trial.differences += mirror.legal_differences(position)
        action = random_action(hand, rng)
        hand.apply(action)
        if not trial.differences:
            trial.differences += mirror.apply(action)
        if trial.differences:  # the two hands have parted: finish feltro's alone
            while hand.to_act is not None:
                hand.apply(random_action(hand, rng))
            return trial
    mirror.catch_up()
    trial.pokerkit_checks = mirror.pokerkit_checks
    if mirror.state.status:
        trial.differences.append("PokerKit's hand is not over")
        return trial
    result = hand.result()
    if tuple(mirror.state.stacks) != result.stacks:
        trial.differences.append(f"stacks {result.stacks} in feltro, "
                                 f"{tuple(mirror.state.stacks)} in PokerKit")
    # Who shows or mucks, in order (P8). Whether a hand that cannot win is shown or mucked is
    # each engine's choice (seed 004 allows either), so only the order is compared.
    ours = [e.position for e in hand.events if isinstance(e, CardsShown | CardsMucked)]
    if ours != mirror.showdown_order():
        trial.show_order_difference = (f"showdown order {ours} in feltro, "
                                       f"{mirror.showdown_order()} in PokerKit")
    return trial


def situations(hand: Hand) -> set[str]:
    """The known PokerKit differences that this hand runs into, read from the hand alone."""
    config = hand.config
    found: set[str] = set()
    if config.stacks[config.big_blind_position] < config.big_blind:
        found.add("D10")
    street: Street | None = None
    to_match = increment = 0
    board = 0
    acted: set[int] = set()  # who has acted in this street
    short: str | None = None  # a short all-in this street that PokerKit takes as full
    before_short: set[int] = set()
    all_in = {p for p in range(hand.players) if config.stacks[p] <= config.blinds[p]}
    for event in hand.events:
        if isinstance(event, BoardDealt):
            board += len(event.cards)
        elif isinstance(event, CardsShown) and board < 5:
            found.add("P8")  # an all-in run-out: hands are shown before the board is complete
        elif isinstance(event, UncalledReturned):
            all_in.discard(event.position)
        elif isinstance(event, ActionTaken):
            if event.all_in:
                all_in.add(event.position)
            if event.street is not street:
                street = event.street
                to_match = config.big_blind if street is Street.PREFLOP else 0
                increment = config.big_blind
                acted, short, before_short = set(), None, set()
            if short is not None and event.position in before_short:
                found.add(short)  # the betting came back to a player who acted before it
            if isinstance(event.action, Raise):
                raised_by = event.action.to - to_match
                if raised_by < increment and event.all_in:
                    if street is Street.PREFLOP:
                        short, before_short = "B8-preflop", set(acted)
                    elif to_match == 0:
                        short, before_short = "B8-short-bet", set(acted)
                increment = max(increment, raised_by)
                to_match = max(to_match, event.action.to)
            acted.add(event.position)
    live = {p for p in range(hand.players) if not hand.folded[p]}
    if len(live) > 1 and live <= all_in:
        found.add("P8")  # every live hand all-in at the showdown: tabled together
    remainders = [pot.amount % len(pot.winners) for pot in hand.result().pots
                  if len(pot.winners) > 1]
    if any(r >= 2 for r in remainders) or sum(1 for r in remainders if r) >= 2:
        found.add("P7")
    return found


def test_feltro_agrees_with_pokerkit_except_where_rules_md_differs() -> None:
    compared = 0
    pokerkit_checks = 0
    excluded: Counter[str] = Counter()  # hands not compared, by reason
    excluded_and_different: Counter[str] = Counter()
    failures: list[str] = []
    with warnings.catch_warnings():
        # PokerKit warns when told which card to deal instead of dealing from its own deck.
        warnings.simplefilter("ignore", UserWarning)
        for seed in range(HANDS):
            trial = play_both(seed)
            pokerkit_checks += trial.pokerkit_checks
            reasons = situations(trial.hand)
            # P8 only excuses the show order of a run-out; the rest of such a hand is compared.
            if "P8" in reasons:
                excluded["P8"] += 1
                if trial.show_order_difference:
                    excluded_and_different["P8"] += 1
            elif trial.show_order_difference:
                trial.differences.append(trial.show_order_difference)
            whole = reasons - {"P8"}
            if whole:
                excluded.update(whole)
                if trial.differences:
                    excluded_and_different.update(whole)
                continue
            compared += 1
            if trial.differences:
                failures.append(f"seed {seed}: {trial.differences[0]}")
    print(f"compared {compared} of {HANDS}; excluded {dict(excluded)}, of which different "
          f"{dict(excluded_and_different)}; checks PokerKit asked for and B5 does not: "
          f"{pokerkit_checks}")
    assert failures == []
    assert compared >= MIN_COMPARED, (compared, excluded)
    # Every exclusion is real: it happens, and it does change something at least once.
    assert set(excluded) == set(REASONS), excluded
    assert set(excluded_and_different) == set(REASONS), excluded_and_different
