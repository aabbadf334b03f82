"""Seats, the button and the blinds from one hand to the next (D2, D3, D6-D9).

The table has fixed seats numbered ``1..seat_count`` (at most 10); clockwise is increasing seat
number, wrapping from the highest seat to seat 1. This module is pure seat logic: it decides, for
each hand, which seat has the button, which seats post the blinds and which seat holds each hand
*position* (``order[p]`` is the seat at position ``p``; position 0 is the first live player left
of the button, see ``docs/design.md``). It knows nothing of chips or cards, except the button
draw, which deals one card per player.

How the button and the blinds move (the choices where the rules leave room are marked *choice*):

* **First hand (D2, D3, D6).** The button goes to the seat drawn at random (:func:`draw_button`:
  one card each, the highest takes it; suits break rank ties in id order, spades highest —
  *choice*, D2 only says the highest card, aces high). With three or more players the small
  blind is the next player clockwise, the big blind the one after. Heads-up the button posts
  the small blind and the other player the big blind.
* **Every later hand with three or more players (D7, D8).** The big blind is the *big-blind
  rule*: the next surviving player clockwise after the previous big blind's seat. The small
  blind is posted from the previous big blind's seat, by its player if they survive; if they
  were eliminated there is no small blind that hand (dead small blind). The button goes to the
  seat where the previous small blind was due, occupied or not (dead button on an empty seat).
  This is the classic dead-button rule (D8): the next survivor to the left of the previous big
  blind posts it; there may be no small blind and the button may sit on an empty seat. Nobody
  ever skips the big blind, and nobody posts it twice in a row.
* **Heads-up after more players (D6, D9).** The big blind still follows the big-blind rule (the
  next surviving player after the previous big blind, i.e. the player who did not post it last
  hand whenever that is possible); the button goes to the other player, who posts the small
  blind. This is D9, move the button if needed so that nobody posts the big blind twice in a
  row: the button is moved, never the big blind (*choice*: when the previous big
  blind busted, the big blind goes to the first survivor clockwise from that seat, exactly as
  with more players).

A hand that *starts* heads-up uses heads-up positions (D6); when players fold down to two inside
a hand nothing changes (D6) — that is the hand engine's business, not this module's.

>>> first = first_seating([1, 2, 3, 4], button=1)
>>> first.button, first.small_blind, first.big_blind, first.order
(1, 2, 3, (2, 3, 4, 1))
>>> after = next_seating(first, alive=[1, 3, 4])        # the small blind (seat 2) busted
>>> after.button, after.small_blind, after.big_blind, after.order, after.button_is_dead
(2, 3, 4, (3, 4, 1), True)
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from feltro.cards import Card, Deck
from feltro.errors import ConfigError

__all__ = [
    "MAX_SEATS",
    "ButtonDraw",
    "Seating",
    "draw_button",
    "first_seating",
    "hands_to_wait",
    "joins_next",
    "next_seating",
    "validate_seats",
]

MAX_SEATS = 10
"""A table has at most ten seats (G1)."""


@dataclass(frozen=True, slots=True)
class Seating:
    """Button, blinds and the seat of every position for one hand.

    Build it with :func:`first_seating` or :func:`next_seating`, not by hand.
    """

    button: int
    """The button's seat. With a dead button (D8) this seat is empty or its player is out."""
    small_blind_seat: int
    """The seat the small blind is due from, whether or not anyone there posts it. Heads-up
    this is the button. Kept because the button moves to it next hand (D8)."""
    big_blind: int
    """The seat that posts the big blind."""
    order: tuple[int, ...]
    """Live seats in deal order: ``order[p]`` is the seat at hand position ``p`` (position 0 is
    the first live player left of the button, the last is the button or the last live player
    before an empty button seat)."""

    @property
    def heads_up(self) -> bool:
        """Whether the hand starts with two players (D6: the button posts the small blind)."""
        return len(self.order) == 2

    @property
    def small_blind(self) -> int | None:
        """The seat that posts the small blind, or ``None`` for a dead small blind (D8)."""
        return self.small_blind_seat if self.small_blind_seat in self.order else None

    @property
    def button_is_dead(self) -> bool:
        """Whether the button sits on a seat with no live player (D8)."""
        return self.button not in self.order

    def position_of(self, seat: int) -> int:
        """The hand position of *seat*.

        :raises ValueError: if *seat* has no live player in this hand.
        """
        try:
            return self.order.index(seat)
        except ValueError:
            raise ValueError(f"seat {seat} is not in this hand (seats {self.order})") from None

    def seat_of(self, position: int) -> int:
        """The seat at hand *position*."""
        return self.order[position]

    def blinds(self, small_blind: int, big_blind: int) -> tuple[int, ...]:
        """Nominal blinds per position, as ``HandConfig.blinds`` wants them.

        Normal ``(sb, bb, 0, ...)``; dead small blind ``(bb, 0, ...)``; heads-up ``(bb, sb)``
        (position 0 is the big blind, the button posts the small blind, D6).
        """
        blinds = [0] * len(self.order)
        blinds[self.order.index(self.big_blind)] = big_blind
        small = self.small_blind
        if small is not None:
            blinds[self.order.index(small)] = small_blind
        return tuple(blinds)


@dataclass(frozen=True, slots=True)
class ButtonDraw:
    """The result of the draw for the button (D2), kept in the series log."""

    button: int
    """The seat that won the draw."""
    cards: Mapping[int, Card]
    """The card each seat drew."""


def validate_seats(seats: Iterable[int], seat_count: int = MAX_SEATS) -> tuple[int, ...]:
    """Check a set of occupied seats and return them sorted.

    :raises ConfigError: if *seat_count* is not in 2..10, a seat is not an integer in
        ``1..seat_count``, a seat is repeated, or there are fewer than 2 or more than 10.
    """
    if type(seat_count) is not int or not 2 <= seat_count <= MAX_SEATS:
        raise ConfigError(f"seat_count must be an integer in 2..{MAX_SEATS}, got {seat_count!r}")
    listed = list(seats)
    for seat in listed:
        if type(seat) is not int or not 1 <= seat <= seat_count:
            raise ConfigError(f"seat {seat!r} is not a seat number in 1..{seat_count}")
    if len(set(listed)) != len(listed):
        raise ConfigError(f"a seat is listed twice: {sorted(listed)}")
    if not 2 <= len(listed) <= MAX_SEATS:
        raise ConfigError(f"a series needs 2..{MAX_SEATS} players, got {len(listed)}")
    return tuple(sorted(listed))


def draw_button(seats: Iterable[int], rng: random.Random) -> ButtonDraw:
    """Draw for the button (D2): one card to each seat in seat order, the highest card wins.

    Cards compare by id (rank first, then suit clubs < diamonds < hearts < spades), so there are
    no ties.

    :raises ConfigError: if *seats* is not a valid set of seats (see :func:`validate_seats`).
    """
    ordered = validate_seats(seats)
    deck = Deck.shuffled(rng)
    cards = {seat: deck[i] for i, seat in enumerate(ordered)}
    winner = max(ordered, key=lambda seat: int(cards[seat]))
    return ButtonDraw(button=winner, cards=MappingProxyType(cards))


def first_seating(seats: Collection[int], button: int) -> Seating:
    """The seating of the first hand with the button on seat *button* (D3, D6).

    :raises ConfigError: if *seats* is not valid or *button* is not one of them.
    """
    alive = validate_seats(seats)
    if button not in alive:
        raise ConfigError(f"the button must start on an occupied seat, not seat {button}")
    if len(alive) == 2:
        big = _next_alive(button, alive)
        return Seating(button=button, small_blind_seat=button, big_blind=big,
                       order=(big, button))
    small = _next_alive(button, alive)
    big = _next_alive(small, alive)
    return Seating(button=button, small_blind_seat=small, big_blind=big,
                   order=_deal_order(button, alive))


def next_seating(previous: Seating, alive: Collection[int],
                 waiting: Collection[int] = ()) -> Seating:
    """The seating of the hand after *previous*, with *alive* the seats still in the series
    and *waiting* the seats that came back or arrived (a re-entry G8, a late seat G9).

    See the module docstring for the rule (D7, D8, D9). A waiting seat counts for the big
    blind's rotation but is dealt in only when the big blind reaches it, as the big blind
    (:func:`joins_next`): nobody skips the big blind or posts it twice in a row.

    :raises ConfigError: if fewer than two seats can play, or a seat is alive that was not
        in *previous* and is not waiting (eliminated players never return, G4).
    """
    joiner = joins_next(previous, alive, waiting)
    survivors = tuple(sorted(set(alive) | ({joiner} if joiner is not None else set())))
    if len(survivors) < 2:
        raise ConfigError(f"a hand needs two players; only seats {list(survivors)} are left")
    returning = set(survivors) - set(previous.order) - {joiner}
    if returning:
        raise ConfigError(f"seats {sorted(returning)} were not in the previous hand (G4)")
    big = _next_alive(previous.big_blind, survivors)
    if len(survivors) == 2:
        # D9: the big blind keeps its rotation; the button moves to the other player.
        button = survivors[0] if survivors[1] == big else survivors[1]
        return Seating(button=button, small_blind_seat=button, big_blind=big,
                       order=(big, button))
    button = previous.small_blind_seat
    seating = Seating(button=button, small_blind_seat=previous.big_blind, big_blind=big,
                      order=_deal_order(button, survivors))
    # Nobody can sit between the button and the blinds: the blind seats were adjacent among
    # the live players of the previous hand, and players never come back.
    first_blind = seating.small_blind if seating.small_blind is not None else big
    assert seating.order[0] == first_blind, (previous, survivors)
    return seating


def joins_next(previous: Seating, alive: Collection[int],
               waiting: Collection[int]) -> int | None:
    """The waiting seat dealt in next hand, as its big blind, or ``None`` (G8, G9, D8).

    The big blind moves to the next seat clockwise after the previous big blind among the
    live *and* waiting seats; when that seat is waiting, its player joins there.
    """
    candidates = tuple(sorted(set(alive) | set(waiting)))
    if not waiting or len(candidates) < 2:
        return None
    if len(set(alive)) < 2:  # nobody to wait with: the first waiting seat joins now
        return _next_alive(previous.big_blind, tuple(sorted(set(waiting) - set(alive))))
    big = _next_alive(previous.big_blind, candidates)
    return big if big in waiting and big not in alive else None


def hands_to_wait(previous: Seating, seats: Collection[int], seat: int) -> int:
    """How many hands a waiting *seat* sits out before it posts the big blind, if nobody is
    eliminated meanwhile: the other live or waiting *seats* the big blind reaches first
    (G8, G9, D8)."""
    return sum(1 for other in set(seats) - {seat}
               if _clockwise_between(previous.big_blind, other, seat))


def _clockwise_between(start: int, seat: int, end: int) -> bool:
    """Whether *seat* is strictly after *start* and before *end* going clockwise."""
    if start < end:
        return start < seat < end
    return seat > start or seat < end


def _next_alive(seat: int, alive: tuple[int, ...]) -> int:
    """The first live seat strictly clockwise after *seat* (which may itself be empty)."""
    for candidate in alive:
        if candidate > seat:
            return candidate
    return alive[0]


def _deal_order(button: int, alive: tuple[int, ...]) -> tuple[int, ...]:
    """Live seats clockwise starting left of the *button* seat, the button's seat last."""
    after = tuple(seat for seat in alive if seat > button)
    return after + tuple(seat for seat in alive if seat <= button)
