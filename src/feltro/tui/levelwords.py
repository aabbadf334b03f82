"""Blind levels (G7) in words for the terminal: the level now, the next and the countdown.

>>> from feltro.levels import BlindSchedule
>>> schedule = BlindSchedule.ready("turbo", length=4, ante_from=3)
>>> level_text(schedule.countdown(2, 5, None, None), "en")
'Level 2: 2/4 · next 5/10 ante 1 after 3 more hands'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from feltro.i18n import t
from feltro.levels import Countdown, Level

__all__ = ["blinds_text", "countdown_of", "level_text"]


def blinds_text(level: Level, lang: str) -> str:
    """``"5/10"``, or ``"5/10 ante 1"`` when the level has an ante."""
    text = f"{level.small_blind}/{level.big_blind}"
    return text + (" " + t("levels.ante", lang, ante=level.ante) if level.ante else "")


def countdown_of(data: Mapping[str, Any]) -> Countdown:
    """The countdown a table state carries (:meth:`Countdown.to_dict`), for a remote seat.

    :raises KeyError, TypeError: for data that is not one.
    """
    following = data.get("next")
    return Countdown(int(data["level"]), Level(**data["blinds"]),
                     None if following is None else Level(**following),
                     data.get("hands_left"), data.get("seconds_left"))


def level_text(countdown: Countdown, lang: str) -> str:
    """The level now and, unless it is the last, the next one and how far away it is."""
    now = t("levels.level", lang, n=countdown.level, blinds=blinds_text(countdown.blinds, lang))
    following = countdown.next_blinds
    if following is None:
        return f"{now} · {t('levels.last', lang)}"
    blinds = blinds_text(following, lang)
    left = countdown.hands_left if countdown.hands_left is not None else countdown.seconds_left
    if left is None:
        return now
    if left == 0:
        return f"{now} · {t('levels.next_now', lang, blinds=blinds)}"
    if countdown.hands_left is not None:
        return f"{now} · {t('levels.next_hands', lang, blinds=blinds, hands=left)}"
    clock = f"{left // 60}:{left % 60:02d}"
    return f"{now} · {t('levels.next_time', lang, blinds=blinds, left=clock)}"
