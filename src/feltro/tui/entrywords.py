"""Re-entries (G8) and late seats (G9) in words: the offer to a player who is out, and when a
player who came (back) in is dealt in, and why (D8: the big blind reaches their seat)."""

from __future__ import annotations

from datetime import datetime

from feltro.i18n import t
from feltro.series import Series
from feltro.session import Player, Session

__all__ = ["joins_text", "late_player", "late_seat_free", "late_seated", "reentered",
           "reentry_offer"]


def reentry_seat(session: Session, now: datetime) -> int | None:
    """A person at the keyboard who is out and may re-enter at *now* (G8), if any."""
    series = session.series
    rule = series.config.reentry
    if rule is None or not series.entries_open(now):
        return None
    return next((seat for seat in session.humans
                 if series.stacks.get(seat) == 0 and series.reentries(seat) < rule.times), None)


def reentry_offer(session: Session, seat: int, lang: str) -> str:
    """``"Ana is out: press R to re-enter with 200 chips (1 left, G8)"``."""
    series = session.series
    rule = series.config.reentry
    assert rule is not None
    return t("entries.offer", lang, name=series.players[seat],
             stack=series.config.starting_stack, left=rule.times - series.reentries(seat))


def reentered(session: Session, seat: int, lang: str) -> str:
    """What a re-entry did: the fresh stack and the hand the player is dealt in at."""
    series = session.series
    return t("entries.reentered", lang, name=series.players[seat],
             stack=series.config.starting_stack) + " " + joins_text(series, seat, lang)


def late_seat_free(session: Session, now: datetime) -> bool:
    """Whether a late player may sit down now (G9): late seats, the period open, a free seat."""
    series = session.series
    rule = series.config.reentry
    return (rule is not None and rule.late_seats and series.entries_open(now)
            and len(series.players) < series.config.seat_count)


def late_player(session: Session, name: str, now: datetime) -> Player | None:
    """The late player *name* at the first free seat, or ``None`` for an empty name or one
    already at the table (names match as seats do)."""
    name = name.strip()[:20]
    taken = {other.casefold() for other in session.series.players.values()}
    if not name or name.casefold() in taken or not late_seat_free(session, now):
        return None
    series = session.series
    seat = next(s for s in range(1, series.config.seat_count + 1) if s not in series.players)
    return Player(seat, name)


def late_seated(session: Session, seat: int, lang: str) -> str:
    """What a late seat did: the seat, the stack and the hand the player is dealt in at."""
    series = session.series
    return t("entries.late_seated", lang, name=series.players[seat], seat=seat,
             stack=series.config.starting_stack) + " " + joins_text(series, seat, lang)


def joins_text(series: Series, seat: int, lang: str) -> str:
    """Which hand a waiting *seat* is dealt in at and why (D8, G8, G9)."""
    hand = series.joins_in(seat)
    if hand is None:
        return ""
    playing = set(series.alive) - set(series.waiting)
    key = "entries.joins_now" if len(playing) < 2 else "entries.joins_at_big_blind"
    return t(key, lang, hand=hand, seat=seat)
