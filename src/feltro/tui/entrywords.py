"""Re-entries (G8) and late seats (G9) in words: the offer to a player who is out, and when a
player who came (back) in is dealt in, and why (D8: the big blind reaches their seat)."""

from __future__ import annotations

from feltro.i18n import t
from feltro.series import Series
from feltro.session import Session

__all__ = ["joins_text", "reentered", "reentry_offer"]


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


def joins_text(series: Series, seat: int, lang: str) -> str:
    """Which hand a waiting *seat* is dealt in at and why (D8, G8, G9)."""
    hand = series.joins_in(seat)
    if hand is None:
        return ""
    playing = set(series.alive) - set(series.waiting)
    key = "entries.joins_now" if len(playing) < 2 else "entries.joins_at_big_blind"
    return t(key, lang, hand=hand, seat=seat)
