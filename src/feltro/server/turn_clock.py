"""A table's clock: when the next hand is dealt, how long the player to act has, what is due.

:class:`TurnClock` follows the series (:meth:`TurnClock.follow` after every change): a new turn
starts its timer, a hand's end sets the next deal. :meth:`TurnClock.due` is the one question
the server's ticker asks: *what is due at this moment?* — a deal, an away seat's check-or-fold,
a timeout, a bot's decision, or nothing. It only reads; the table does what is due.

A decision's time is the action time, then the player's time bank, then (once, if their
connection dropped during the turn) the disconnect grace. Banks refill at every new hand, up to
their maximum (:meth:`TurnClock.bank_ms`). Times are monotonic seconds, passed in.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from feltro.server.lobby import SeatState
from feltro.server.table_settings import TableSettings

__all__ = ["SHOWDOWN_EXTRA", "SHOWDOWN_EXTRA_MAX", "Due", "TurnClock"]

SHOWDOWN_EXTRA = 0.5
"""Each hand shown at a showdown adds this share of the pause between hands."""
SHOWDOWN_EXTRA_MAX = 30.0
"""At most this many seconds are added for a showdown."""

Due = Literal["deal", "auto", "timeout", "bot", "forfeit"]
"""What is due: ``deal`` the next hand, ``auto`` (check or fold for an away seat),
``timeout`` (the player to act ran out of time), ``bot`` (a bot's decision), ``forfeit`` (the
seat to act withheld its sealed value: its hand is folded, RULES D1)."""


@dataclass
class TurnClock:
    """The timers of one table (see the module docstring)."""

    settings: TableSettings
    turn_key: tuple[int, int] | None = None
    """The turn in progress: ``(hand number, decisions taken so far)``."""
    started: float = 0.0
    """When it started."""
    grace: bool = False
    """Whether it earned the disconnect grace (its player's connection dropped)."""
    next_deal_at: float | None = None
    """When the next hand is dealt (between hands)."""

    def follow(self, now: float, *, key: tuple[int, int] | None, over: bool,
               hands_dealt: int, to_act_connected: bool, fresh_deal_delay: bool = False,
               shown: int = 0) -> None:
        """Follow the series after a change: *key* is the turn now (``None`` between hands),
        *over* whether the series has ended, *hands_dealt* its hand number, *shown* how many
        hands the last hand's showdown showed (each one lengthens the pause: :meth:`pause`)."""
        if over:
            self.turn_key = self.next_deal_at = None
            return
        if key is not None:
            if key != self.turn_key:
                self.turn_key, self.started, self.grace = key, now, not to_act_connected
            return
        self.turn_key = None
        if self.next_deal_at is None or fresh_deal_delay:
            self.next_deal_at = now + (self.pause(shown) if hands_dealt else 0.0)

    def pause(self, shown: int) -> float:
        """Seconds between a hand's end and the next deal: the host's pause, and half of it
        again for every hand shown at the showdown (cards, hand names and who won which pot take
        longer to read than a pot won uncontested), at most :data:`SHOWDOWN_EXTRA_MAX` more."""
        base = self.settings.between_hands_seconds
        return base + min(SHOWDOWN_EXTRA_MAX, base * SHOWDOWN_EXTRA * shown)

    def bank_ms(self, seat: SeatState, hand_number: int) -> int:
        """*seat*'s time bank at hand *hand_number* (refilled at every new hand up to the
        maximum)."""
        settings = self.settings
        refills = max(0, hand_number - seat.bank_hand)
        return min(max(seat.bank_ms, settings.bank_max_seconds * 1000),
                   seat.bank_ms + refills * settings.bank_refill_seconds * 1000)

    def deadlines(self, seat: SeatState, bank_ms: int) -> tuple[float, float] | None:
        """``(end of the action time, final deadline)`` of the turn in progress for *seat*, the
        seat to act, or ``None`` when it has no timer (untimed table, bot, away seat)."""
        action_seconds = self.settings.action_seconds
        if action_seconds is None or self.turn_key is None or seat.bot is not None or seat.away:
            return None
        action_ends = self.started + action_seconds
        ends = action_ends + bank_ms / 1000
        if self.grace:
            ends += self.settings.disconnect_grace_seconds
        return action_ends, ends

    def due(self, now: float, *, to_act: SeatState | None, bank_ms: int, paused: bool,
            bot_asked: bool) -> Due | None:
        """What is due at *now* (read-only). *to_act*: the seat to act, ``None`` between
        hands; *bank_ms* its bank; *bot_asked*: this turn's bot decision is already being
        made."""
        if to_act is None:
            if paused or self.next_deal_at is None or now < self.next_deal_at:
                return None
            return "deal"
        thinking_done = now >= self.started + self.settings.bot_seconds
        if to_act.away:
            return "auto" if thinking_done else None
        if to_act.bot is not None:
            return "bot" if thinking_done and not bot_asked else None
        limits = self.deadlines(to_act, bank_ms)
        return "timeout" if limits is not None and now >= limits[1] else None
