"""The seated series: a series with people and bots in its seats, under every interface.

:class:`Session` is the one core the terminal game and the server's tables
(:mod:`feltro.server.live_table`) drive. It sits between a series
(:class:`~feltro.series.Series`, or a :class:`~feltro.series_log.SeriesStore` that logs every change
first) and an interface. It knows who sits where (a person or a bot of some level), asks the bots
for their decisions, plays the seats nobody decides for (:meth:`Session.play_default`: check,
else fold, :func:`feltro.bots.check_or_fold`), and hands the interface only views: a seat's
:class:`~feltro.hand.SeatView`, the public view, the pots and the standings. It is synchronous,
does no I/O and reads no clock (the caller passes ``now`` for the stop time, G6). Whose turn it
is and what is legal are the engine's to judge: :meth:`Session.act` passes the seat to the
series, and the engine's refusal comes back as it is.

**Bots in another thread.** A bot may think for a while; an interface that must stay responsive
takes the decision due as a frozen :class:`BotTurn` (:meth:`Session.bot_turn`), has it answered
anywhere (:meth:`Session.answer`), and plays the answer if its turn is still the current one
(:meth:`Session.play_bot`). :meth:`Session.bot_act` does the three at once.

**Randomness.** The session owns the one :class:`random.Random` its bots draw from, and reseeds
it before every bot decision from the series seed, the hand number and the number of events so
far. So the same seed plays the same deals (the series derives them) *and* the same bot
decisions, also after the series was interrupted and resumed.

**Illegal bot answers** (or a bot that raises) become check, else fold
(:func:`feltro.bots.check_or_fold`), and a :class:`BotNote` records what happened for the hand
log.

>>> import random
>>> from feltro.series import Series, SeriesConfig
>>> config = SeriesConfig(players={1: "Ana", 2: "Bot Rui"}, max_hands=3)
>>> session = Session(MemoryDriver(Series(config, 7)),
...                   [Player(1, "Ana"), Player(2, "Bot Rui", bot="rules")])
>>> session.next_hand()
True
>>> while session.series.in_hand:
...     if session.bot_to_act:
...         _ = session.bot_act()
...     else:
...         _ = session.act(1, session.legal().passive)
>>> session.series.hand_number, sum(session.series.stacks.values())
(1, 400)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final, Protocol

from feltro.actions import Action
from feltro.bots import Bot, check_or_fold
from feltro.bots.levels import make_level
from feltro.courtesy import show_after_win
from feltro.errors import ConfigError, IllegalActionError, Refusal, SeriesError
from feltro.events import ActionTaken, Event
from feltro.hand import Hand, LegalActions, SeatView
from feltro.history import HandRecord
from feltro.history.record import seated_record
from feltro.pots import collected_pots
from feltro.seating import Seating
from feltro.series import HandSummary, Series, Standing, derive_seed, level_field

__all__ = [
    "BotAnswer",
    "BotNote",
    "BotTurn",
    "MemoryDriver",
    "Player",
    "SeatPot",
    "SeriesDriver",
    "Session",
    "raise_sizes",
    "seat_refusal",
    "turn_index",
]


@dataclass(frozen=True, slots=True)
class Player:
    """Who sits in a seat: a person (``bot is None``) or a bot of a level."""

    seat: int
    name: str
    bot: str | None = None
    """The bot's level (``"random"``, ``"rules"``, ``"montecarlo"``...), ``None`` for a person."""

    @property
    def is_bot(self) -> bool:
        """Whether a bot plays this seat (interfaces always label it as one)."""
        return self.bot is not None


@dataclass(frozen=True, slots=True)
class BotNote:
    """A bot answered something the rules refused; the session played check-else-fold."""

    hand: int
    event_index: int
    """How many events the hand had when the bot was asked (where the note goes in a log)."""
    seat: int
    answer: str
    """The refused answer, in feltro's short notation (``"r 3"``)."""
    played: str
    """What was played instead (``"x"`` or ``"f"``)."""


@dataclass(frozen=True, slots=True)
class BotTurn:
    """A bot's decision to make, frozen: what its seat sees and may do, and which turn it is
    for, so that it can be answered in another thread while the table goes on."""

    seat: int
    key: tuple[int, int]
    """The turn: ``(hand number, decisions taken so far in the hand)``."""
    bot: Bot
    view: SeatView
    legal: LegalActions
    event_index: int
    """How many events the hand had when the bot was asked (where a note goes in a log)."""


@dataclass(frozen=True, slots=True)
class BotAnswer:
    """What a bot's turn plays: its own action, or check-else-fold when the rules refused its
    answer (or the bot raised an exception)."""

    action: Action
    refused: str | None = None
    """The refused answer, in feltro's short notation (``"r 3"``) or as the exception raised."""


_POSITION_PARAMS: Final = {"position": "seat", "to_act": "to_act_seat"}
"""Numbers of a refusal that name a hand position, and the name of the same number as a seat."""


def seat_refusal(refusal: Refusal, order: Sequence[int]) -> Refusal:
    """*refusal* with its hand positions as seats (*order*: position -> seat): ``position``
    becomes ``seat``, ``to_act`` becomes ``to_act_seat``.

    >>> seat_refusal(Refusal("B2", "not-your-turn", {"position": 1, "to_act": 0}), (4, 7))
    Refusal(rule='B2', reason='not-your-turn', params={'seat': 7, 'to_act_seat': 4})
    """
    params: dict[str, int] = {}
    for name, value in refusal.params.items():
        seat_name = _POSITION_PARAMS.get(name)
        if seat_name is not None and 0 <= value < len(order):
            params[seat_name] = order[value]
        else:
            params[name] = value
    return Refusal(refusal.rule, refusal.reason, params)


def turn_index(hand: Hand) -> int:
    """How many decisions were taken in *hand* so far: with the hand number, it names a turn."""
    return sum(1 for event in hand.events if type(event) is ActionTaken)


def raise_sizes(view: SeatView, legal: LegalActions) -> list[tuple[str, int]]:
    """The quick sizes offered for a bet or raise: ``[("min", 4), ("half_pot", 5), ...]``.

    Amounts are "to" totals clipped into the legal range: the minimum (B6), half the pot and
    the pot (the pot after calling, on top of the call) and all-in. When the only raise is an
    all-in for less than a full raise (B7) only ``("all_in", n)`` is offered; none when
    raising is closed. The terminal game and the server's phones offer the same sizes.
    """
    low, high = legal.min_raise_to, legal.max_raise_to
    if low is None or high is None:
        return []
    if low == high:
        return [("all_in", high)]
    pot_after_call = view.pot + legal.call_amount
    half = view.current_bet + pot_after_call // 2
    full = view.current_bet + pot_after_call
    return [
        ("min", low),
        ("half_pot", min(max(half, low), high)),
        ("pot", min(max(full, low), high)),
        ("all_in", high),
    ]


@dataclass(frozen=True, slots=True)
class SeatPot:
    """A main or side pot as the table shows it: chips and the seats that can win it."""

    amount: int
    seats: tuple[int, ...]


class SeriesDriver(Protocol):
    """What drives a series: :class:`MemoryDriver` or :class:`~feltro.series_log.SeriesStore`."""

    @property
    def series(self) -> Series:
        """The series (read it; change it only through the driver)."""
        ...

    def next_hand(self, now: datetime | None = None) -> Hand | None:
        """Deal the next hand or end the series."""
        ...

    def act(self, action: Action, seat: int | None = None) -> tuple[Event, ...]:
        """Apply an action for the player to act."""
        ...

    def request_stop(self) -> None:
        """End the series before the next hand."""
        ...

    def show(self, seat: int) -> tuple[Event, ...]:
        """*seat* shows the hand it won uncontested (P8)."""
        ...

    def set_show_losers(self, seat: int, on: bool) -> None:
        """*seat*'s choice to show even losing hands at the showdown (P8, D11)."""
        ...

    def reenter(self, seat: int, now: datetime | None = None) -> None:
        """A busted player re-enters (G8)."""
        ...

    def seat_late(self, seat: int, name: str, now: datetime | None = None) -> None:
        """A late player sits down (G9)."""
        ...


class MemoryDriver:
    """Drives a :class:`~feltro.series.Series` with no durable log (tests, throwaway games)."""

    def __init__(self, series: Series) -> None:
        self._series = series

    @property
    def series(self) -> Series:
        """The series being driven."""
        return self._series

    def next_hand(self, now: datetime | None = None) -> Hand | None:
        """See :meth:`feltro.series.Series.next_hand`."""
        return self._series.next_hand(now)

    def act(self, action: Action, seat: int | None = None) -> tuple[Event, ...]:
        """See :meth:`feltro.series.Series.act`."""
        return self._series.act(action, seat)

    def request_stop(self) -> None:
        """See :meth:`feltro.series.Series.request_stop`."""
        self._series.request_stop()

    def show(self, seat: int) -> tuple[Event, ...]:
        """See :func:`feltro.courtesy.show_after_win`."""
        return show_after_win(self._series, seat)

    def set_show_losers(self, seat: int, on: bool) -> None:
        """See :meth:`feltro.series.Series.set_show_losers`."""
        self._series.set_show_losers(seat, on)

    def reenter(self, seat: int, now: datetime | None = None) -> None:
        """See :meth:`feltro.series.Series.reenter`."""
        self._series.reenter(seat, now)

    def seat_late(self, seat: int, name: str, now: datetime | None = None) -> None:
        """See :meth:`feltro.series.Series.seat_late`."""
        self._series.seat_late(seat, name, now)


class Session:
    """A series with people and bots (see the module docstring).

    *players* must name exactly the seats of the series, with the series' names. Bots are made
    with *make_bot* (level name, RNG) unless *bots* gives some seats' bots directly.

    :raises ConfigError: if *players* do not match the seats and names of the series, or a bot
        level is unknown.
    """

    def __init__(
        self,
        driver: SeriesDriver,
        players: Iterable[Player],
        *,
        bots: Mapping[int, Bot] | None = None,
        make_bot: Callable[[str, random.Random], Bot] = make_level,
    ) -> None:
        self.driver = driver
        by_seat = {p.seat: p for p in players}
        names = driver.series.players  # late seats too (G9)
        if set(by_seat) != set(names):
            raise ConfigError(f"the players' seats {sorted(by_seat)} are not the series' seats "
                              f"{sorted(names)}")
        for seat, player in by_seat.items():
            if player.name != names[seat]:
                raise ConfigError(f"seat {seat}: {player.name!r} is not the series' name "
                                  f"{names[seat]!r}")
        self.players: dict[int, Player] = dict(sorted(by_seat.items()))
        self._rng = random.Random(0)  # reseeded before every decision (module docstring)
        self._given = dict(bots or {})
        self._make_bot = make_bot
        self._bots: dict[int, Bot] = {}
        for player in self.players.values():
            self._seat_bot(player)
        self.notes: list[BotNote] = []

    def _seat_bot(self, player: Player) -> None:
        if player.bot is None:
            return
        if player.seat in self._given:
            self._bots[player.seat] = self._given[player.seat]
            return
        try:
            self._bots[player.seat] = self._make_bot(player.bot, self._rng)
        except ValueError as exc:
            raise ConfigError(f"seat {player.seat}: {exc}") from None

    # --- reading ---------------------------------------------------------------------------

    @property
    def series(self) -> Series:
        """The series: read its state here (``to_act``, ``hand_number``, ``in_hand``,
        ``is_over``, ``outcome``, ``seating``), change it through the session."""
        return self.driver.series

    @property
    def humans(self) -> tuple[int, ...]:
        """The seats played by people, in seat order."""
        return tuple(seat for seat, p in self.players.items() if not p.is_bot)

    @property
    def turn_key(self) -> tuple[int, int] | None:
        """The decision due now, ``(hand number, decisions taken so far)``, while a hand is
        being played (a remote player's action names the turn it answers)."""
        hand = self.series.hand
        if hand is None or not self.series.in_hand:
            return None
        return self.series.hand_number, turn_index(hand)

    @property
    def bot_to_act(self) -> bool:
        """Whether a bot is to act now."""
        seat = self.series.to_act
        return seat is not None and self.players[seat].is_bot

    @property
    def human_to_act(self) -> int | None:
        """The seat of the person to act now, or ``None``."""
        seat = self.series.to_act
        return seat if seat is not None and not self.players[seat].is_bot else None

    @property
    def last_summary(self) -> HandSummary | None:
        """The last finished hand."""
        summaries = self.series.summaries
        return summaries[-1] if summaries else None

    def _hand(self) -> Hand:
        hand = self.series.hand
        if hand is None:
            raise SeriesError("no hand has been dealt yet")
        return hand

    def _seating(self) -> Seating:
        seating = self.series.seating
        if seating is None:
            raise SeriesError("no hand has been dealt yet")
        return seating

    def seat_of(self, position: int) -> int:
        """The seat at hand *position* in the current (or last) hand."""
        return self._seating().order[position]

    def position_of(self, seat: int) -> int | None:
        """The hand position of *seat*, or ``None`` if it is not in the current hand."""
        order = self._seating().order
        return order.index(seat) if seat in order else None

    def view(self, seat: int) -> SeatView:
        """What *seat* may see of the current (or last) hand.

        :raises ValueError: if *seat* is not in the hand.
        """
        position = self.position_of(seat)
        if position is None:
            raise ValueError(f"seat {seat} is not in hand {self.series.hand_number}")
        return self._hand().view(position)

    def public_view(self) -> SeatView:
        """What a spectator may see of the current (or last) hand."""
        return self._hand().public_view()

    def legal(self) -> LegalActions:
        """The legal actions of the player to act (empty when nobody is)."""
        hand = self.series.hand
        if hand is None or hand.is_over:
            return LegalActions.none()
        return hand.legal

    def pots(self) -> list[SeatPot]:
        """The pots in the middle (P1), main pot first, with the seats that can win each.

        During the hand, the chips of the streets already played: this street's bets are
        still in front of the players, so a bet nobody has matched is no side pot (B7). Once
        the hand is over, the pots as they were paid.
        """
        hand = self._hand()
        order = self._seating().order
        pots = (hand.result().pots if hand.is_over else
                collected_pots(hand.committed, hand.bets, hand.folded))
        return [SeatPot(p.amount, tuple(order[q] for q in p.eligible)) for p in pots]

    def standings(self) -> tuple[Standing, ...]:
        """The standings after the last finished hand."""
        return self.series.standings()

    # --- driving ---------------------------------------------------------------------------

    def next_hand(self, now: datetime | None = None) -> bool:
        """Deal the next hand; ``False`` when the series is over instead (G4, G6).

        :raises SeriesError: if a hand is still being played.
        """
        return self.driver.next_hand(now) is not None

    def act(self, seat: int, action: Action) -> tuple[Event, ...]:
        """*seat*, a person, plays *action*; the engine judges whose turn it is and what is
        legal (its refusal comes back as it is).

        :raises IllegalActionError: if *seat* is no person's, is not to act (B2), or the rules
            refuse the action (the error names the rule); nothing changes.
        :raises SeriesError: if no hand is being played.
        """
        if self.players.get(seat) is None or self.players[seat].is_bot:
            raise IllegalActionError(Refusal("B2", "not-a-person", {"seat": seat}),
                                     f"seat {seat} is not a person's seat", seat=seat)
        try:
            return self.driver.act(action, seat)
        except IllegalActionError as exc:  # the engine's refusal, its positions as seats
            seating = self.series.seating
            exc.refusal = seat_refusal(exc.refusal, seating.order if seating else ())
            raise

    def show(self, seat: int) -> tuple[Event, ...]:
        """*seat* shows the hand it won uncontested, before the next deal (P8); the cards
        then reach every view of the hand.

        :raises IllegalActionError: naming the rule, its positions as seats; nothing changes.
        """
        try:
            return self.driver.show(seat)
        except IllegalActionError as exc:
            seating = self.series.seating
            exc.refusal = seat_refusal(exc.refusal, seating.order if seating else ())
            raise

    def set_show_losers(self, seat: int, on: bool) -> None:
        """From the next deal *seat* shows its hand at the showdown even when it cannot win
        (*on*), or mucks such a hand (the default; P8, D11). Journaled by a durable driver.

        :raises SeriesError: if *seat* is not in the series; nothing changes.
        """
        self.driver.set_show_losers(seat, on)

    def play_default(self, seat: int) -> tuple[Event, ...]:
        """Play check, else fold for *seat*, the seat to act: nobody decides for it (its time
        ran out, its player is away or was removed, the series is ended now).

        :raises IllegalActionError: if *seat* is not to act (B2); nothing changes.
        :raises SeriesError: if no hand is being played.
        """
        return self.driver.act(check_or_fold(self.legal()), seat)

    def bot_turn(self) -> BotTurn | None:
        """The decision the bot to act must make now, frozen; ``None`` when no bot is to act."""
        seat = self.series.to_act
        if seat is None or not self.players[seat].is_bot:
            return None
        hand = self._hand()
        position = self._seating().order.index(seat)
        self._rng.seed(derive_seed(self.series.series_seed,
                                   f"bot {self.series.hand_number} {len(hand.events)}"))
        return BotTurn(seat, (self.series.hand_number, turn_index(hand)), self._bots[seat],
                       hand.view(position), hand.legal, len(hand.events))

    @staticmethod
    def answer(turn: BotTurn) -> BotAnswer:
        """Ask *turn*'s bot (safe in any thread: it reads only the frozen turn). An answer the
        rules refuse, or an exception, becomes check, else fold."""
        answer: object
        try:
            answer = turn.bot.act(turn.view, turn.legal)
        except Exception as exc:  # a crashing bot must not stop the game
            answer = exc
        if isinstance(answer, Action) and answer in turn.legal:
            return BotAnswer(answer)
        shown = str(answer) if isinstance(answer, Action) else repr(answer)
        return BotAnswer(check_or_fold(turn.legal), shown)

    def play_bot(self, turn: BotTurn, answer: BotAnswer) -> tuple[Event, ...] | None:
        """Play *answer* if *turn* is still the decision due; ``None`` (nothing played) when
        the table moved on meanwhile."""
        if turn.key != self.turn_key or turn.seat != self.series.to_act:
            return None
        if answer.refused is not None:
            self.notes.append(BotNote(turn.key[0], turn.event_index, turn.seat, answer.refused,
                                      str(answer.action)))
        return self.driver.act(answer.action, turn.seat)

    def bot_act(self) -> tuple[Event, ...]:
        """Let the bot to act decide and play (:meth:`bot_turn`, :meth:`answer`,
        :meth:`play_bot`).

        :raises SeriesError: if no bot is to act.
        """
        turn = self.bot_turn()
        if turn is None:
            raise SeriesError("no bot is to act now")
        events = self.play_bot(turn, self.answer(turn))
        assert events is not None  # the same turn: nothing happened in between
        return events

    def play_bots(self, limit: int = 1000) -> int:
        """Let bots act until a person is to act or the hand ends; returns how many acted."""
        count = 0
        while self.bot_to_act and count < limit:
            self.bot_act()
            count += 1
        return count

    def request_stop(self) -> None:
        """End the series before the next hand (G6)."""
        self.driver.request_stop()

    def reenter(self, seat: int, now: datetime | None = None) -> None:
        """A busted player takes a fresh starting stack (G8); see :meth:`Series.reenter`.

        :raises EntryError: if the rules refuse it.
        """
        self.driver.reenter(seat, now)

    def seat_late(self, player: Player, now: datetime | None = None) -> None:
        """*player* sits down late (G9); see :meth:`Series.seat_late`.

        :raises EntryError: if the rules refuse it.
        :raises ConfigError: for a bad name or an unknown bot level.
        """
        self.driver.seat_late(player.seat, player.name, now)
        self.players[player.seat] = player
        self.players = dict(sorted(self.players.items()))
        self._seat_bot(player)

    # --- history ---------------------------------------------------------------------------

    def hand_record(self, **fields: Any) -> HandRecord:
        """The current (or last) hand as a PHH record, with every card dealt (see
        :func:`feltro.history.record.seated_record`); *fields* adds optional PHH fields
        (``event``, ``day``, ``time``...).

        :raises HistoryError: for a pot-limit series (PHH has no pot-limit hold'em variant).
        """
        seating = self._seating()
        config = self.series.config
        return seated_record(self._hand(), seating.order, seating.button, self.series.players,
                             hand_number=self.series.hand_number, seat_count=config.seat_count,
                             **level_field(self.series, self.series.hand_number), **fields)
