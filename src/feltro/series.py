"""A whole freezeout series over the hand engine (G1-G9, D1, D2, D7-D10).

A :class:`Series` seats 2-10 players in fixed seats, draws the button (D2), and plays hands one
after another: it asks :mod:`feltro.seating` where the button and blinds go (D7-D9), builds the
:class:`~feltro.hand.HandConfig` (short blinds are the engine's business, D10), shuffles a fresh
deck for every hand (D1), applies each result, eliminates busted players (G4) and ends the series
with one player left, or at the agreed stop (G6).

It is pure: no clock (the stop check takes ``now`` as an argument), no I/O (the durable log
is :mod:`feltro.series_log`), no global random. All chance comes from one *series seed*: the
button draw and each hand's deck use seeds derived from it with BLAKE2b (:func:`derive_seed`),
so a series is replayed exactly from its seed and the actions, and a crash-resumed series deals
the same cards it would have dealt without the crash. Real play picks the series seed from
:class:`random.SystemRandom`.

Finishing order (G4, *choice* where the seeds are silent): players busted in the same hand are
ranked by their stacks when that hand started, the bigger stack finishing higher; equal starting
stacks share the better place (standard competition ranking, e.g. two players out together in
4th-5th with equal stacks are both 4th and nobody is 5th). When the series stops (G6), the players
still in are ranked by stack the same way, and all players with the biggest stack are winners.

>>> import random
>>> from feltro.series import Series, SeriesConfig
>>> series = Series.start(SeriesConfig.with_players(3, max_hands=2), random.Random(1))
>>> hand = series.next_hand()
>>> while not series.is_over:
...     if series.hand is not None and not series.hand.is_over:
...         _ = series.act(series.hand.legal.passive)
...     else:
...         _ = series.next_hand()
>>> series.outcome.end.value, sum(series.stacks.values())
('stopped', 600)
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from types import MappingProxyType

from feltro.actions import Action
from feltro.cards import Deck
from feltro.errors import ConfigError, EntryError, IllegalActionError, Refusal, SeriesError
from feltro.events import Event
from feltro.hand import Hand, HandConfig
from feltro.levels import Countdown, Level
from feltro.seating import (
    ButtonDraw,
    Seating,
    draw_button,
    first_seating,
    hands_to_wait,
    next_seating,
)
from feltro.seriesconfig import SeriesConfig
from feltro.seriesdata import End, HandSummary, Outcome, Standing, rank_by_stack

__all__ = [
    "End",
    "HandSummary",
    "Outcome",
    "Series",
    "SeriesConfig",
    "SeriesError",
    "Standing",
    "derive_seed",
    "level_field",
    "rank_by_stack",
]


def derive_seed(series_seed: int, purpose: str) -> int:
    """A 128-bit seed for *purpose* (``"button"``, ``"hand 12"``) derived from the series seed.

    BLAKE2b makes the derived seeds independent of each other and of Python's ``hash``.
    """
    digest = hashlib.blake2b(f"{series_seed}:{purpose}".encode(), digest_size=16).digest()
    return int.from_bytes(digest, "big")


@dataclass
class _Finish:
    hand: int
    stack_before: int
    """Chips when that hand started: who busts in the same hand finishes by them (G4)."""


@dataclass
class _Current:
    """The hand being played (or the last one, once over)."""

    number: int
    seed: int
    seating: Seating
    stacks_before: dict[int, int]
    hand: Hand
    level: int = 1
    settled: bool = False


class Series:
    """A freezeout series. Mutable; drive it with :meth:`next_hand` and :meth:`act`.

    Build it with :meth:`start` (draws a fresh series seed from an RNG) or directly from a
    known series seed (replay, resume).

    *deck_source*, if given, supplies each hand's deck instead of the seeded shuffle: it is
    called with the hand number when the hand is dealt (a verifiable shuffle,
    :class:`feltro.fairdeal.FairDealer`). The button draw still comes from the series seed.

    :raises ConfigError: if *config* is not a :class:`SeriesConfig`.
    """

    def __init__(self, config: SeriesConfig, series_seed: int, *,
                 deck_source: Callable[[int], Deck] | None = None) -> None:
        if not isinstance(config, SeriesConfig):
            raise ConfigError("Series needs a SeriesConfig")
        if type(series_seed) is not int or series_seed < 0:
            raise ConfigError(f"the series seed must be a non-negative integer, "
                              f"got {series_seed!r}")
        self.config = config
        self.series_seed = series_seed
        self._deck_source = deck_source
        self.draw: ButtonDraw = draw_button(
            config.players, random.Random(derive_seed(series_seed, "button")))
        self._stacks = dict.fromkeys(config.players, config.starting_stack)
        self._finishes: dict[int, _Finish] = {}
        self._names = dict(config.players)
        self._waiting: set[int] = set()
        self._show_losers: set[int] = set()
        self._reentries: dict[int, int] = {}
        self._current: _Current | None = None
        self._summaries: list[HandSummary] = []
        self._stop_requested = False
        self._level = 1
        self._clock_start: datetime | None = None
        self.outcome: Outcome | None = None

    @classmethod
    def start(cls, config: SeriesConfig, rng: random.Random) -> Series:
        """A new series whose seed comes from *rng* (use :class:`random.SystemRandom` for real
        play, ``random.Random(seed)`` for reproducible simulations).

        :raises ConfigError: if *config* is not a :class:`SeriesConfig`.
        """
        return cls(config, rng.getrandbits(128))

    # --- what anyone may ask ----------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        """Whether the series has ended (one player left, or stopped)."""
        return self.outcome is not None

    @property
    def hand(self) -> Hand | None:
        """The hand in progress, or the last hand once it is over; ``None`` before the first."""
        return self._current.hand if self._current else None

    @property
    def hand_number(self) -> int:
        """The number of the current (or last) hand; 0 before the first."""
        return self._current.number if self._current else 0

    @property
    def hand_seed(self) -> int | None:
        """The shuffle seed of the current (or last) hand."""
        return self._current.seed if self._current else None

    @property
    def seating(self) -> Seating | None:
        """Button, blinds and positions of the current (or last) hand."""
        return self._current.seating if self._current else None

    @property
    def level(self) -> int:
        """The blind level of the current (or last) hand, 1 before the first (G7)."""
        return self._level

    @property
    def blinds(self) -> Level:
        """The forced bets of the current level (the fixed blinds without levels, G5)."""
        if self.config.levels is not None:
            return self.config.levels.level(self._level)
        return Level(self.config.small_blind, self.config.big_blind, self.config.ante)

    def level_of(self, number: int) -> int:
        """The blind level hand *number* was dealt at (G7).

        :raises KeyError: if hand *number* has not been dealt.
        """
        if number == self.hand_number and number:
            return self._level
        summary = next((s for s in self._summaries if s.number == number), None)
        if summary is None:
            raise KeyError(f"hand {number} has not been dealt (hands 1..{self.hand_number})")
        return summary.level

    @property
    def clock_start(self) -> datetime | None:
        """When the first hand was dealt (the ``now`` passed then): levels by time count from
        it (G7). ``None`` before, or when no clock was passed."""
        return self._clock_start

    def countdown(self, now: datetime | None = None) -> Countdown | None:
        """The level now, the next and how far away it is (G7), or ``None`` with fixed blinds.
        *now* is the caller's clock (levels by time)."""
        schedule = self.config.levels
        if schedule is None:
            return None
        return schedule.countdown(self._level, self.hand_number, self._clock_start, now)

    @property
    def in_hand(self) -> bool:
        """Whether a hand is being played (started and not over)."""
        return self._current is not None and not self._current.hand.is_over

    @property
    def to_act(self) -> int | None:
        """The seat to act in the hand in progress, or ``None``."""
        if self._current is None or self._current.hand.is_over:
            return None
        position = self._current.hand.to_act
        return None if position is None else self._current.seating.order[position]

    @property
    def stacks_before(self) -> Mapping[int, int]:
        """Seat -> chips when the current (or last) hand started, for the seats in it."""
        if self._current is None:
            return MappingProxyType({})
        return MappingProxyType({seat: self._current.stacks_before[seat]
                                 for seat in self._current.seating.order})

    @property
    def stacks(self) -> Mapping[int, int]:
        """Seat -> chips after the last finished hand (every seat; 0 when out)."""
        return MappingProxyType(self._stacks)

    @property
    def alive(self) -> tuple[int, ...]:
        """Seats still in the series (waiting ones too, G8, G9), in seat order."""
        return tuple(sorted(seat for seat, chips in self._stacks.items() if chips > 0))

    @property
    def players(self) -> Mapping[int, str]:
        """Seat -> name: the series' players and the late seats (G9)."""
        return MappingProxyType(self._names)

    @property
    def waiting(self) -> tuple[int, ...]:
        """Seats that re-entered or sat down late and wait for the big blind (G8, G9, D8)."""
        return tuple(sorted(self._waiting))

    def reentries(self, seat: int) -> int:
        """Fresh starting stacks *seat* took (G8)."""
        return self._reentries.get(seat, 0)

    def joins_in(self, seat: int) -> int | None:
        """The hand a waiting *seat* is dealt in at, posting the big blind, if nobody is
        eliminated meanwhile (D8, G8, G9); ``None`` when it is not waiting."""
        if seat not in self._waiting:
            return None
        if self._current is None:
            return 1
        playing = set(self.alive) - self._waiting
        if len(playing) < 2:
            return self.hand_number + 1
        return self.hand_number + 1 + hands_to_wait(self._current.seating,
                                                    set(self.alive), seat)

    @property
    def summaries(self) -> Sequence[HandSummary]:
        """Every finished hand, in order."""
        return tuple(self._summaries)

    @property
    def stop_requested(self) -> bool:
        """Whether :meth:`request_stop` was called."""
        return self._stop_requested

    def standings(self) -> tuple[Standing, ...]:
        """The standings now: players still in by stack, then the eliminated by place.

        Stacks are those after the last finished hand; a hand in progress does not count yet.
        """
        alive = {seat: chips for seat, chips in self._stacks.items() if chips > 0}
        places = rank_by_stack(alive)
        # The eliminated: later out finishes higher; out together, the bigger stack (G4).
        out = {seat: (-finish.hand, -finish.stack_before)
               for seat, finish in self._finishes.items()}
        ordered = sorted(out, key=lambda seat: (out[seat], seat))
        for index, seat in enumerate(ordered):
            tied = index > 0 and out[ordered[index - 1]] == out[seat]
            places[seat] = places[ordered[index - 1]] if tied else len(alive) + 1 + index
        rows = [Standing(places[seat], seat, self._names[seat], chips, None,
                         self.reentries(seat)) for seat, chips in alive.items()]
        rows += [Standing(places[seat], seat, self._names[seat], 0, finish.hand,
                          self.reentries(seat)) for seat, finish in self._finishes.items()]
        return tuple(sorted(rows, key=lambda r: (r.place, -r.stack, r.seat)))

    def should_stop(self, now: datetime | None = None) -> bool:
        """Whether the next hand must not start: a stop was requested, *max_hands* are played,
        or *now* is at or past the stop time (G6). ``now=None`` skips the clock.

        :raises ConfigError: if *now* and the stop time are not both naive or both aware.
        """
        if self._stop_requested:
            return True
        if self.config.max_hands is not None and self.hand_number >= self.config.max_hands:
            return True
        if now is not None and self.config.stop_at is not None:
            try:
                return now >= self.config.stop_at
            except TypeError:
                raise ConfigError("the stop time and 'now' must both have a time zone or "
                                  "both have none") from None
        return False

    # --- what drives it ---------------------------------------------------------------------

    @property
    def show_losers(self) -> frozenset[int]:
        """Seats that chose to show even a losing hand at the showdown (P8, D11)."""
        return frozenset(self._show_losers)

    def set_show_losers(self, seat: int, on: bool) -> None:
        """From the next deal *seat* shows its hand at the showdown even when it cannot win
        (*on*), or mucks such a hand (P8, D11: the default).

        :raises SeriesError: if *seat* is not in the series.
        """
        if seat not in self._names:
            raise SeriesError(f"seat {seat} is not in this series")
        (self._show_losers.add if on else self._show_losers.discard)(seat)

    def request_stop(self) -> None:
        """End the series before the next hand (G6: a hand in progress is finished first)."""
        self._stop_requested = True

    def next_hand(self, now: datetime | None = None) -> Hand | None:
        """Deal the next hand, or end the series and return ``None``.

        The series ends here when one player is left (already decided when the last hand ended)
        or :meth:`should_stop` says so. A hand that needs no decision at all (everyone all-in
        from the blinds) is over as soon as it is dealt, and already settled.

        :raises SeriesError: if the current hand is not over.
        :raises ConfigError: see :meth:`should_stop`.
        """
        if self.outcome is not None:
            return None
        if self._current is not None and not self._current.settled:
            raise SeriesError(f"hand {self._current.number} is not over yet")
        if self.should_stop(now):
            self._end(End.STOPPED)
            return None
        number = self.hand_number + 1
        level = self._next_level(now)
        if self._current is None:
            seating = first_seating(self.alive, self.draw.button)
        else:
            playing = set(self.alive) - self._waiting
            seating = next_seating(self._current.seating, playing, self._waiting)
        self._waiting -= set(seating.order)
        seed = derive_seed(self.series_seed, f"hand {number}")
        self._level = level
        bets = self.blinds
        config = HandConfig(
            stacks=tuple(self._stacks[seat] for seat in seating.order),
            blinds=seating.blinds(bets.small_blind, bets.big_blind),
            big_blind=bets.big_blind,
            antes=(bets.ante,) * len(seating.order) if bets.ante else (),
            structure=self.config.structure,
        )
        deck = (Deck.shuffled(random.Random(seed)) if self._deck_source is None
                else self._deck_source(number))
        showing = [p for p, seat in enumerate(seating.order) if seat in self._show_losers]
        hand = Hand.start(config, deck, show_losers=showing)
        self._current = _Current(number, seed, seating, dict(self._stacks), hand, level)
        if hand.is_over:
            self._settle()
        return hand

    def act(self, action: Action, seat: int | None = None) -> tuple[Event, ...]:
        """Apply *action* for the player to act (pass *seat* to insist on who that is).

        Returns the engine's events. When the action ends the hand, the result is applied,
        busted players are eliminated (G4), and the series ends if one player is left.

        :raises SeriesError: if no hand is in progress.
        :raises IllegalActionError: from the engine, with :attr:`~IllegalActionError.seat` set
            to the seat of its position (B2 with seats for a *seat* dealt no cards in this
            hand); nothing changes.
        """
        current = self._current
        if current is None or current.hand.is_over:
            raise SeriesError("no hand is in progress; call next_hand()")
        order = current.seating.order
        if seat is not None and seat not in order:
            to_act = current.hand.to_act
            params = {"seat": seat} if to_act is None else {"seat": seat,
                                                           "to_act_seat": order[to_act]}
            raise IllegalActionError(Refusal("B2", "not-your-turn", params),
                                     f"seat {seat} is not in this hand (seats {order})",
                                     seat=seat)
        position = None if seat is None else current.seating.position_of(seat)
        try:
            events = current.hand.apply(action, position)
        except IllegalActionError as exc:
            if exc.position is not None:  # the refusal as data, with the seat it concerns
                exc.seat = current.seating.order[exc.position]
            raise
        if current.hand.is_over:
            self._settle()
        return tuple(events)

    # --- re-entries and late seats (G8, G9) --------------------------------------------------

    def entries_open(self, now: datetime | None = None) -> bool:
        """Whether the re-entry period is open (G8): a re-entry rule, the series not over, and
        the level or the time (*now*, the caller's clock) not past its end."""
        rule = self.config.reentry
        if rule is None or self.outcome is not None:
            return False
        elapsed = (now - self._clock_start
                   if now is not None and self._clock_start is not None else None)
        return rule.is_open(level=self._level, elapsed=elapsed)

    def reenter(self, seat: int, now: datetime | None = None) -> None:
        """A busted player takes a fresh starting stack (G8, the host having approved) and
        waits for the big blind (D8, :meth:`joins_in`). Chips enter only here, and never into
        a hand being played (G3): during a hand the player is not in it.

        :raises EntryError: why not, as a :class:`Refusal` (``G8``, see its table).
        """
        self._check_entry("G8", now)
        if self._stacks.get(seat) != 0 or seat not in self._finishes:
            raise EntryError(Refusal("G8", "not-out", {"seat": seat}),
                             f"seat {seat} has no player out of chips")
        assert self.config.reentry is not None
        if self.reentries(seat) >= self.config.reentry.times:
            raise EntryError(Refusal("G8", "used-up", {"seat": seat,
                                                       "times": self.config.reentry.times}),
                             f"seat {seat} took every re-entry allowed")
        del self._finishes[seat]
        self._reentries[seat] = self.reentries(seat) + 1
        self._stacks[seat] = self.config.starting_stack
        self._waiting.add(seat)

    def seat_late(self, seat: int, name: str, now: datetime | None = None) -> None:
        """A player arriving in the re-entry period sits at free *seat* with a starting stack
        (G9) and waits for the big blind (D8, :meth:`joins_in`).

        :raises EntryError: why not, as a :class:`Refusal` (``G9``, see its table).
        :raises ConfigError: for a name that is empty or over 40 characters.
        """
        self.check_late_seat(seat, name, now)
        self._names[seat] = name
        self._stacks[seat] = self.config.starting_stack
        self._waiting.add(seat)

    def check_late_seat(self, seat: int, name: str, now: datetime | None = None) -> None:
        """Whether :meth:`seat_late` would seat *name* at *seat* now; changes nothing.

        :raises EntryError: why not (``G9``). :raises ConfigError: for a bad name.
        """
        self._check_entry("G9", now)
        if type(seat) is not int or not 1 <= seat <= self.config.seat_count:
            raise EntryError(Refusal("G9", "no-such-seat",
                                     {"seat": seat if type(seat) is int else 0,
                                      "seats": self.config.seat_count}),
                             f"there is no seat {seat!r} (seats 1..{self.config.seat_count})")
        if seat in self._names:
            raise EntryError(Refusal("G9", "seat-taken", {"seat": seat}),
                             f"seat {seat} is taken")
        if not isinstance(name, str) or not name.strip() or len(name) > 40:
            raise ConfigError(f"seat {seat}: a player needs a name of 1..40 characters")

    def _check_entry(self, rule: str, now: datetime | None) -> None:
        reentry = self.config.reentry
        if reentry is None or (rule == "G9" and not reentry.late_seats):
            raise EntryError(Refusal(rule, "not-offered", {}),
                             "this table has no re-entry period" if rule == "G8"
                             else "this table takes no late seats")
        if not self.entries_open(now):
            raise EntryError(Refusal(rule, "closed", {"level": self._level}),
                             "the re-entry period is over")

    # --- internals --------------------------------------------------------------------------

    def _settle(self) -> None:
        current = self._current
        assert current is not None
        assert not current.settled
        result = current.hand.result()
        for position, seat in enumerate(current.seating.order):
            self._stacks[seat] = result.stacks[position]
        # G3: chips only move between the players of the hand (an entry meanwhile is not in it).
        assert sum(result.stacks) == sum(current.stacks_before[s] for s in current.seating.order)
        busted = [seat for seat in current.seating.order if self._stacks[seat] == 0]
        survivors = len(self.alive)  # waiting seats (G8, G9) are still in
        before = {seat: current.stacks_before[seat] for seat in busted}
        places = rank_by_stack(before, first_place=survivors + 1)
        for seat in busted:
            self._finishes[seat] = _Finish(current.number, before[seat])
        current.settled = True
        self._summaries.append(HandSummary(
            number=current.number,
            seed=current.seed,
            seating=current.seating,
            stacks_before=MappingProxyType(dict(current.stacks_before)),
            stacks_after=MappingProxyType(dict(self._stacks)),
            eliminated=tuple(sorted(places, key=lambda s: (places[s], s))),
            result=result,
            hand=current.hand,
            level=current.level,
        ))
        if survivors == 1:
            self._end(End.LAST_PLAYER)

    def _next_level(self, now: datetime | None) -> int:
        """The level of the hand about to be dealt: levels change only between hands (G7).
        The clock starts with the first hand dealt with a *now*."""
        if self._clock_start is None and now is not None:
            self._clock_start = now
        schedule = self.config.levels
        if schedule is None:
            return 1
        elapsed: timedelta | None = None
        if now is not None and self._clock_start is not None:
            try:
                elapsed = now - self._clock_start
            except TypeError:
                raise ConfigError("the clock must always have a time zone or never") from None
        return schedule.due(self.hand_number, elapsed, self._level)

    def _end(self, end: End) -> None:
        alive = {seat: chips for seat, chips in self._stacks.items() if chips > 0}
        top = max(alive.values())
        winners = tuple(seat for seat, chips in alive.items() if chips == top)
        self.outcome = Outcome(end, winners, MappingProxyType(dict(self._stacks)),
                               self.hand_number)
        self._stop_requested = self._stop_requested or end is End.STOPPED


def level_field(series: Series, number: int) -> dict[str, int]:
    """The PHH ``level`` field of hand *number* with blind levels (G7); nothing without.

    :raises KeyError: if hand *number* has not been dealt.
    """
    return {} if series.config.levels is None else {"level": series.level_of(number)}
