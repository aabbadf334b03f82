"""Replay real site histories: exact decimal stakes, unknown cards, courtesy shows, site rules.

:func:`replay_site` plays a :class:`~feltro.history.decimal_scale.ScaledHand` through the
same engine and the same line-by-line checks as :func:`feltro.history.replay.replay`, and adds
what data recorded at one seat of an online site needs:

* **Unknown cards.** ``'p2 sm ????'`` says that p2 showed, but the history does not know the
  cards. The hand goes on legally; a later ``'p2 sm AhKd'`` fills them in. A pot whose
  contenders include a hand that stays unknown is **undetermined**: its winners are not
  guessed. When the history's ``winnings`` name, among the pot's contenders, who collected,
  and that is consistent (every player with winnings collects at least those winnings, as
  pots are paid before rake), the pot is settled from them and the outcome says so.
* **Courtesy shows.** A show after everybody else folded is voluntary: it changes nothing.
* **Site rules.** ``rules="house"`` (the default) plays RULES.md; a history that needs another
  rule is refused with the rule it differs from. ``rules="casino"`` plays the one site rule
  found so far in real data: the posts of a player returning to the game, written as negative
  ``blinds_or_straddles`` entries, under the common casino reading. A post of less than the
  big blind is **dead** (into the pot, not a bet: OnGame's ``-5`` at 5/10, confirmed by its
  finishing stacks); a post of the big blind or more puts the big blind in **live** (it counts
  as that player's bet, who keeps the option, as PartyPoker's ``-10`` at 5/10, confirmed to the
  cent by its winnings) and the rest dead. The big blind stays where it was: the player after
  it acts first.

  Heads-up, a history whose button posts the big blind (Absolute Poker, when a table falls to
  two players and the player who just paid the big blind would otherwise pay it again:
  ``blinds_or_straddles = [1, 0.50]``, applied reversed as PHH does) is refused under the house
  rules, whose button always posts the small blind and acts first preflop (D6); ``casino``
  plays it as the blinds were posted: the player after the big blind (``p1``) acts first
  preflop, and after the flop too.
* **Unknown stacks** (``inf``, every iPoker hand): played as deeper than anything the hand could
  bet; their finishing stacks are unknown (``None``). When the history then skips such a
  player (they had gone all-in), the stack is taken as what they had put in by their last call
  or raise and the hand is played again; the outcome lists them in ``all_in_inferred``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Literal

from feltro.config import HandConfig
from feltro.errors import CardError, IllegalActionError, ParseError, Refusal
from feltro.evaluator import hand_strength
from feltro.events import UncalledReturned
from feltro.hand import Hand
from feltro.history.decimal_scale import ScaledHand, exact_number, per_position
from feltro.history.phh import HandRecord, PhhAction, Verb, _parse_line
from feltro.history.replay import (
    ReplayError,
    _apply,
    _RefusedError,
    _still_to_act,
    config_of,
    refusal_of,
)
from feltro.pots import split_pot
from feltro.showdown import pot_winners

__all__ = ["RULE_SETS", "Rules", "SiteOutcome", "SitePot", "replay_site"]

Rules = Literal["house", "casino"]
RULE_SETS: tuple[Rules, ...] = ("house", "casino")


@dataclass(frozen=True, slots=True)
class SitePot:
    """One pot, in whole units; ``winners`` and ``shares`` are ``None`` when undetermined."""

    amount: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...] | None
    shares: tuple[int, ...] | None


@dataclass(frozen=True, slots=True)
class SiteOutcome:
    """How a site history ended, in whole units of ``1 / hand.scale`` (positions 0-based).

    ``stacks`` are the finishing stacks, ``None`` where unknown (an unknown starting stack,
    or a contender of an undetermined pot). ``complete`` is False for a history that stops
    before the hand ends (then there are no pots and the stacks are those after its last
    line).
    """

    hand: ScaledHand
    stacks: tuple[int | None, ...]
    pots: tuple[SitePot, ...]
    complete: bool
    settled_from_winnings: bool = False
    rules: Rules = "house"
    returned: tuple[int, ...] = ()
    """Uncalled chips each position got back (B7); some sites count them in ``winnings``."""
    all_in_inferred: tuple[int, ...] = ()
    """Positions with an unknown stack that the history shows all-in (they act no more): their
    stack is taken as what they had put in by their last call or raise, so a pot they called
    all-in for less is at most what is reported."""

    @property
    def undetermined(self) -> int:
        """How many pots depend on cards the history does not know."""
        return sum(pot.winners is None for pot in self.pots)

    def collected(self) -> tuple[int, ...] | None:
        """Chips each position collected from the pots, ``None`` if any pot is undetermined."""
        if self.undetermined or not self.complete:
            return None
        got = [0] * self.hand.record.player_count
        for pot in self.pots:
            assert pot.winners is not None
            assert pot.shares is not None
            for p, share in zip(pot.winners, pot.shares, strict=True):
                got[p] += share
        return tuple(got)

    def agrees_with_winnings(self) -> bool | None:
        """Whether the history's ``winnings`` pay exactly the players who collected pots here
        (or got uncalled chips back, which some sites count as winnings), none more than they
        got: pots are paid before rake. ``None`` when there is nothing to compare: no positive
        winnings, an unfinished or undetermined hand, or pots settled from ``winnings``.
        """
        winnings = self.hand.winnings
        collected = self.collected()
        if winnings is None or collected is None or self.settled_from_winnings:
            return None
        if not any(w is not None and w > 0 for w in winnings):
            return None  # FullTilt and iPoker often write no winnings at all
        return _winnings_fit(collected, self.returned, winnings, self.hand.scale)

    def agrees_with_finishing_stacks(self) -> bool | None:
        """Whether every known finishing stack equals the history's once the rake its
        ``winnings`` show is taken from what each player collected; ``None`` if the history
        has no finishing stacks or the hand is unfinished or undetermined.
        """
        theirs = self.hand.finishing_stacks
        collected = self.collected()
        if theirs is None or collected is None:
            return None
        winnings = self.hand.winnings or (None,) * len(theirs)
        for p, (ours, exact) in enumerate(zip(self.stacks, theirs, strict=True)):
            if ours is None or exact is None:
                continue
            won = winnings[p]
            if collected[p] and won is not None:
                expected = self.hand.units(ours - collected[p]) + won
            else:
                expected = self.hand.units(ours)
            if expected != exact:
                return False
        return True

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape of ``feltro replay`` (players 1-based, amounts in the history's own
        units: see :func:`~feltro.history.decimal_scale.exact_number`)."""
        money = self._money
        data: dict[str, Any] = {}
        if self.hand.scale != 1:
            data["scale"] = self.hand.scale
        if self.hand.chip_unit != 1:
            data["chip"] = exact_number(self.hand.chip_unit)
        data["finishing_stacks"] = [None if x is None else money(x) for x in self.stacks]
        data["pots"] = [
            {
                "amount": money(pot.amount),
                "eligible": [p + 1 for p in pot.eligible],
                "winners": None if pot.winners is None else [p + 1 for p in pot.winners],
                "shares": None if pot.shares is None else [money(s) for s in pot.shares],
            }
            for pot in self.pots
        ]
        if self.undetermined:
            data["undetermined"] = self.undetermined
        if self.settled_from_winnings:
            data["settled_from"] = "winnings"
        if self.rules != "house":
            data["rules"] = self.rules
        if self.all_in_inferred:
            data["all_in_inferred"] = [p + 1 for p in self.all_in_inferred]
        if not self.complete:
            data["complete"] = False
        return data

    def _money(self, amount: int) -> int | float | str:
        if self.hand.scale == 1:
            return amount
        return exact_number(self.hand.units(amount))


def replay_site(scaled: ScaledHand, *, rules: Rules = "house") -> SiteOutcome:
    """Replay *scaled* (see the module docstring).

    :raises ReplayError: for the first line the rules refuse (naming its index and rule), for
        fields feltro cannot play, and, under house rules, for a returning player's post (D3).
    """
    record = scaled.record
    n = record.player_count
    base = config_of(record)
    if scaled.chip != 1:  # odd chips are the currency's smallest coin (P7)
        base = base.replace(chip=scaled.chip)
    posts: tuple[int, ...] | None = None
    if any(scaled.returning_posts):
        if rules == "house":
            p = next(i for i, d in enumerate(scaled.returning_posts) if d)
            amount = exact_number(scaled.units(scaled.returning_posts[p]))
            raise ReplayError(
                f"D3: blinds_or_straddles[{p}] is -{amount}, the post of a player returning to "
                f"the game (dead money, or a live big blind out of position); the house rules "
                f"post only the small and the big blind (D3). Replay with --rules casino to "
                f"play it as casinos do",
                refusal=Refusal("D3", "returning-post", {"player": p + 1}))
        posts = per_position(scaled.returning_posts, n)
    button_big_blind = n == 2 and base.blinds[1] > base.blinds[0]
    if button_big_blind and rules == "house":
        raise ReplayError(
            "D6: heads-up the button (p2) posts the big blind "
            f"(blinds_or_straddles = [{', '.join(_amounts(scaled, base.blinds))}]); the "
            "house rules have the button post the small blind and act first preflop (D6). "
            "Replay with --rules casino to play the blinds as they were posted",
            refusal=Refusal("D6", "button-big-blind", {}))
    unknown = set(scaled.unknown_stacks)
    inferred: list[int] = []
    while True:
        # The posts go on last: HandConfig.replace would move a live post's big blind.
        config = base if posts is None else _with_posts(base, posts)
        if button_big_blind:
            config = _button_big_blind(config)
        try:
            hand = _play(config, record, unknown - set(inferred))
        except _AllInError as exc:
            # An unknown stack that the history shows all-in: it was what the player had put
            # in at their last call or raise. Play again with that stack.
            inferred.append(exc.position)
            stacks = list(base.stacks)
            stacks[exc.position] = exc.stack
            base = base.replace(stacks=tuple(stacks))
            continue
        outcome = _outcome(hand, scaled, rules)
        if inferred:
            outcome = dataclasses.replace(outcome, all_in_inferred=tuple(sorted(inferred)))
        return outcome


class _AllInError(Exception):
    """A player with an unknown stack acts no more in the history: they were all-in."""

    def __init__(self, position: int, stack: int) -> None:
        super().__init__(position, stack)
        self.position = position
        self.stack = stack


def _play(config: HandConfig, record: HandRecord, unknown: set[int]) -> Hand:
    """Play every line of *record* from *config*.

    :raises _AllInError: when the engine waits for a player of *unknown* (unknown stack, deep
        enough to bet anything) whom the history skips: that player had gone all-in.
    :raises ReplayError: as :func:`replay_site`.
    """
    n = record.player_count
    hand = Hand.start(config)
    for index, text in enumerate(record.actions):
        try:
            action = _parse_line(text, index, n)
        except ParseError as exc:
            raise ReplayError(str(exc), action=index) from None
        waiting = hand.to_act
        try:
            _step(hand, action)
        except (IllegalActionError, CardError, _RefusedError) as exc:
            if (waiting is not None and waiting in unknown and action.player != waiting
                    and hand.committed[waiting] > 0):
                raise _AllInError(waiting, hand.committed[waiting]) from None
            raise ReplayError(f"{exc} [actions[{index}] = {text!r}]", action=index,
                              rule=exc.rule, refusal=refusal_of(exc)) from None
    return hand


def _with_posts(config: HandConfig, posts: tuple[int, ...]) -> HandConfig:
    """*config* with returning players' *posts* (by position) played the casino way: up to the
    big blind live, where the big blind stays; below it, or beyond it, dead (as antes)."""
    big = config.big_blind
    live = tuple(big if post >= big else 0 for post in posts)
    dead = tuple(post - lv for post, lv in zip(posts, live, strict=True))
    antes = config.antes or (0,) * len(posts)
    # The engine takes the last largest blind for the big blind; a live post of the same
    # size out of position must not move it (the player after the big blind acts first).
    return config.replace(
        blinds=tuple(b + lv for b, lv in zip(config.blinds, live, strict=True)),
        antes=tuple(a + d for a, d in zip(antes, dead, strict=True)),
        ante_trimming=config.ante_trimming and not any(dead),
        big_blind_at=config.big_blind_position if any(live) else config.big_blind_at)


def _amounts(scaled: ScaledHand, blinds: tuple[int, ...]) -> list[str]:
    """The record's heads-up blinds as it writes them (PHH order: reversed from the engine's)."""
    return [str(exact_number(scaled.units(b))) for b in reversed(blinds)]


def _button_big_blind(config: HandConfig) -> HandConfig:
    """Heads-up *config* whose button (position 1) posted the big blind, played as posted:
    position 0, after the big blind, acts first preflop (and, as always, after the flop)."""
    return config.replace(big_blind_at=1)


def _step(hand: Hand, action: PhhAction) -> None:
    """Play one line. A show of unknown cards is checked like a show but leaves the cards
    unknown (the engine is not asked to show them); a later show with cards fills them in."""
    p = action.player
    if action.verb is Verb.SHOW_OR_MUCK and p is not None and None in action.cards:
        if hand.folded[p]:
            raise _RefusedError(f"p{p + 1} folded and has no hand to show",
                                Refusal("P2", "folded", {"position": p}))
        if hand.is_over:
            return  # a courtesy show of cards the history does not know: nothing changes
        if hand.to_act is not None:
            raise _still_to_act(hand, action.verb)
        if p in hand.mucked:
            raise _RefusedError(f"p{p + 1} has mucked and cannot show",
                                Refusal("P8", "already-mucked", {"position": p}))
        held = hand.hole(p)
        if len(held) == 2 and None not in held and p not in hand.shown:
            hand.show(p)  # the history knows them from the deal
        return
    _apply(hand, action)


def _winnings_fit(collected: tuple[int, ...], returned: tuple[int, ...],
                  winnings: tuple[Decimal | None, ...], scale: int) -> bool:
    paid = {p: w * scale for p, w in enumerate(winnings) if w is not None and w > 0}
    if not paid:
        return False
    got = {p for p, c in enumerate(collected) if c > 0}
    back = returned or (0,) * len(collected)
    return got <= set(paid) and all(collected[p] + back[p] >= w and (collected[p] or back[p])
                                    for p, w in paid.items())


def _returned(hand: Hand) -> tuple[int, ...]:
    back = [0] * hand.players
    for event in hand.events:
        if type(event) is UncalledReturned:
            back[event.position] += event.amount
    return tuple(back)


def _outcome(hand: Hand, scaled: ScaledHand, rules: Rules) -> SiteOutcome:
    unknown_stacks = set(scaled.unknown_stacks)

    def stacks(values: tuple[int, ...], unknown: set[int]) -> tuple[int | None, ...]:
        return tuple(None if p in unknown or p in unknown_stacks else s
                     for p, s in enumerate(values))

    if not hand.is_over and hand.to_show is not None and len(hand.board) == 5:
        if any(None in hand.hole(p) or len(hand.hole(p)) < 2 for p in _contenders(hand)):
            return _undetermined(hand, scaled, rules, stacks)
        hand.settle()
    if hand.is_over:
        result = hand.result()
        pots = tuple(SitePot(p.amount, p.eligible, p.winners, p.shares) for p in result.pots)
        return SiteOutcome(scaled, stacks(result.stacks, set()), pots, True, rules=rules,
                           returned=_returned(hand))
    return SiteOutcome(scaled, stacks(hand.stacks, set()), (), False, rules=rules,
                       returned=_returned(hand))


def _contenders(hand: Hand) -> list[int]:
    folded = hand.folded
    mucked = set(hand.mucked)
    return [p for p in range(hand.players) if not folded[p] and p not in mucked]


def _undetermined(hand: Hand, scaled: ScaledHand, rules: Rules, stacks: Any) -> SiteOutcome:
    """Pay the pots the known cards decide; the others are undetermined or, when consistent,
    settled from the history's ``winnings``."""
    contenders = set(_contenders(hand))
    strengths = _known_strengths(hand, contenders)
    pots = _known_pots(hand, contenders, strengths, scaled.chip)
    returned = _returned(hand)
    settled = _settle_from_winnings(pots, strengths, contenders, scaled, returned)
    final = settled if settled is not None else pots
    behind = list(hand.stacks)
    open_seats: set[int] = set()
    for paid in final:
        if paid.winners is None:
            open_seats.update(p for p in paid.eligible if p in contenders)
            continue
        for p, share in zip(paid.winners, paid.shares or (), strict=True):
            behind[p] += share
    return SiteOutcome(scaled, stacks(tuple(behind), open_seats), tuple(final), True,
                       settled_from_winnings=settled is not None, rules=rules,
                       returned=returned)


def _known_strengths(hand: Hand, contenders: set[int]) -> list[int | None]:
    """The strength of each contender's hand whose cards are known, else ``None``."""
    board = list(hand.board)
    strengths: list[int | None] = [None] * hand.players
    for p in contenders:
        held = hand.hole(p)
        if len(held) == 2 and None not in held:
            strengths[p] = hand_strength([c for c in held if c is not None] + board)
    return strengths


def _known_pots(hand: Hand, contenders: set[int], strengths: list[int | None],
                chip: int) -> list[SitePot]:
    """The pots, paid where every live contender's cards are known (P1, P7), else
    undetermined."""
    mucked_flags = [p in set(hand.mucked) for p in range(hand.players)]
    pots: list[SitePot] = []
    for pot in hand.pots():
        live = [p for p in pot.eligible if p in contenders]
        if len(live) > 1 and any(strengths[p] is None for p in live):
            pots.append(SitePot(pot.amount, pot.eligible, None, None))
            continue
        winners = tuple(live) if len(live) == 1 else pot_winners(
            pot, strengths, mucked_flags, hand.mucked)
        pots.append(SitePot(pot.amount, pot.eligible, winners,
                            split_pot(pot.amount, winners, chip=chip)))
    return pots


def _settle_from_winnings(pots: list[SitePot], strengths: list[int | None],
                          contenders: set[int], scaled: ScaledHand,
                          returned: tuple[int, ...]) -> list[SitePot] | None:
    """The pots with the undetermined ones given to the contenders ``winnings`` pays, or
    ``None`` when the history has no winnings or they do not fit."""
    winnings = scaled.winnings
    if winnings is None:
        return None
    paid = {p for p, w in enumerate(winnings) if w is not None and w > 0}
    if not paid:
        return None
    out: list[SitePot] = []
    for pot in pots:
        if pot.winners is not None:
            out.append(pot)
            continue
        winners = _paid_contenders(pot, strengths, contenders, paid)
        if not winners:
            return None
        out.append(SitePot(pot.amount, pot.eligible, winners,
                           split_pot(pot.amount, winners, chip=scaled.chip)))
    if not _winnings_fit(_collected(out, len(strengths)), returned, winnings, scaled.scale):
        return None
    return out


def _paid_contenders(pot: SitePot, strengths: list[int | None], contenders: set[int],
                     paid: set[int]) -> tuple[int, ...]:
    """The contenders of an undetermined *pot* that the winnings pay and no known hand beats."""
    live = [p for p in pot.eligible if p in contenders]
    best = max((s for p in live if (s := strengths[p]) is not None), default=-1)
    return tuple(p for p in live if p in paid
                 and (strengths[p] is None or (strengths[p] or 0) >= best))


def _collected(pots: list[SitePot], n: int) -> tuple[int, ...]:
    """What each position collects from *pots* (all determined)."""
    got = [0] * n
    for pot in pots:
        for p, share in zip(pot.winners or (), pot.shares or (), strict=True):
            got[p] += share
    return tuple(got)
