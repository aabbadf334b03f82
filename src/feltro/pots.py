"""Side pots by contribution level, and splitting a pot with odd chips (pure integers).

P1: chips are split by contribution level, folded players' chips included; a player who is
all-in contests only the levels they covered. A new pot starts only where the set of players
who contest it changes: levels with the same contenders are one pot, so a folded player's
level adds chips to the pot it falls in and does not start one (example X4: levels 300 / 1000
/ 400 / 450 / 600, the last two one pot of 1050). Odd chips are then counted on each pot so
formed (P7): a dealer never splits 24 chips between two tied players 13 / 11.

>>> build_pots([20, 50, 50], [False, False, False])   # X2, after C's 30 went back
[Pot(amount=60, eligible=(0, 1, 2)), Pot(amount=60, eligible=(1, 2))]
>>> build_pots([1, 2, 5, 8, 8], [True, True, True, False, False])   # folded levels: one pot
[Pot(amount=24, eligible=(3, 4))]
>>> split_pot(1000, [2, 3, 4], chip=10)               # X5: C, D, E split 1000 in chips of 10
(340, 330, 330)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Pot", "build_pots", "collected_pots", "split_pot", "uncalled"]


@dataclass(frozen=True, slots=True)
class Pot:
    """A main or side pot: its chips and the positions that can win it (not folded)."""

    amount: int
    eligible: tuple[int, ...]


def build_pots(
    contributions: Sequence[int],
    folded: Sequence[bool],
    dead: int = 0,
) -> list[Pot]:
    """The pots made by *contributions* (chips each position put in this hand), main pot first.

    A pot ends at each contribution of a player still in the hand (not *folded*), up to the
    largest: it holds every position's chips between that level and the one below, folded
    chips included, and is eligible to the players still in who reached it. Folded players'
    levels make no pot of their own (their chips fall in the pot around them), so no two
    pots have the same contenders (P1). Folded chips above the top live level (possible only
    after returns) join the top pot. *dead* chips (antes that are not contributions) go to
    the main pot, which every live player contests.

    :raises ValueError: if the two sequences differ in length or no player is live.
    """
    n = len(contributions)
    if len(folded) != n:
        raise ValueError(f"{n} contributions but {len(folded)} folded flags")
    live = [i for i in range(n) if not folded[i]]
    if not live:
        raise ValueError("a pot needs at least one player who has not folded")
    amounts, eligibles = _level_pots(contributions, live)
    if dead:
        # Dead money belongs to the main pot, which every live player contests; a live player
        # who put nothing else in (all-in by the ante alone) contests only that money.
        everyone = tuple(live)
        if amounts and eligibles[0] == everyone:
            amounts[0] += dead
        else:
            amounts.insert(0, dead)
            eligibles.insert(0, everyone)
    return [Pot(a, e) for a, e in zip(amounts, eligibles, strict=True)]


def _level_pots(contributions: Sequence[int],
                live: list[int]) -> tuple[list[int], list[tuple[int, ...]]]:
    """The amounts and contenders of the pots *contributions* make, one per live level."""
    # Only a live player's contribution changes who contests the chips above it.
    levels = sorted({contributions[i] for i in live if contributions[i] > 0})
    amounts: list[int] = []
    eligibles: list[tuple[int, ...]] = []
    previous = 0
    for level in levels:
        amount = 0
        for c in contributions:
            if c > previous:
                amount += (c if c < level else level) - previous
        amounts.append(amount)
        eligibles.append(tuple(i for i in live if contributions[i] >= level))
        previous = level
    above = sum(c - previous for c in contributions if c > previous)
    if above:
        if amounts:
            amounts[-1] += above
        else:
            amounts.append(above)
            eligibles.append(tuple(live))
    return amounts, eligibles


def collected_pots(
    committed: Sequence[int],
    bets: Sequence[int],
    folded: Sequence[bool],
) -> list[Pot]:
    """The pots in the middle during a hand: the chips of the streets already played.

    This street's *bets* stay in front of the players until the round ends, as a dealer
    leaves them: a bet nobody has matched yet (an uncalled all-in) is no side pot (B7), and
    the pots are formed (P1) from what each position *committed* before it.

    >>> collected_pots([2, 200], [2, 200], [False, False])   # heads-up shove, not called
    []
    """
    collected = [c - b for c, b in zip(committed, bets, strict=True)]
    if not any(collected) or all(folded):
        return []
    return build_pots(collected, folded)


def split_pot(amount: int, winners: Sequence[int], *, chip: int = 1) -> tuple[int, ...]:
    """Shares of *amount* for *winners*, given clockwise from the first left of the button.

    P7: equal shares; the odd chips (units of *chip*) go one at a time to the winners in
    the given order. Any remainder smaller than one chip goes to the first winner.

    :raises ValueError: if there are no winners, or *chip* is not positive.
    """
    count = len(winners)
    if count == 0:
        raise ValueError("a pot needs at least one winner")
    if chip < 1:
        raise ValueError(f"the smallest chip must be positive, not {chip}")
    units, crumbs = divmod(amount, chip)
    base, odd = divmod(units, count)
    shares = [(base + (1 if i < odd else 0)) * chip for i in range(count)]
    shares[0] += crumbs
    return tuple(shares)


def uncalled(bets: Sequence[int]) -> tuple[int, int] | None:
    """``(position, excess)`` of the bet nobody matched (B7), or ``None``.

    The largest bet is matched only up to the second largest, folded players' bets included.
    """
    top = -1
    second = -1
    holder = -1
    for i, b in enumerate(bets):
        if b > top:
            second = top
            top = b
            holder = i
        elif b > second:
            second = b
    if holder < 0 or top <= second:
        return None
    return holder, top - max(second, 0)
