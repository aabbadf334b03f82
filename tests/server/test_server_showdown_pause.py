"""A showdown stays on the table long enough to read (issue 23, item 1): the pause before the
next deal grows with the hands shown, a pot won uncontested keeps the host's pause."""

from __future__ import annotations

import pytest

from feltro.server.protocol import CreateTable
from feltro.server.table_settings import TableSettings
from feltro.server.turn_clock import SHOWDOWN_EXTRA_MAX, TurnClock


def _clock(between: float) -> TurnClock:
    return TurnClock(TableSettings.from_request(CreateTable(between_hands_seconds=between)))


@pytest.mark.parametrize(("shown", "pause"), [(0, 4.0), (1, 6.0), (2, 8.0), (3, 10.0)])
def test_next_deal_waits_longer_after_a_showdown(shown: int, pause: float) -> None:
    clock = _clock(4.0)
    clock.follow(100.0, key=None, over=False, hands_dealt=3, to_act_connected=False,
                 shown=shown)
    assert clock.next_deal_at == pytest.approx(100.0 + pause)


def test_showdown_extra_is_bounded_and_nothing_before_the_first_hand() -> None:
    clock = _clock(60.0)
    assert clock.pause(9) == 60.0 + SHOWDOWN_EXTRA_MAX
    clock.follow(5.0, key=None, over=False, hands_dealt=0, to_act_connected=False, shown=2)
    assert clock.next_deal_at == 5.0
    assert _clock(0.0).pause(4) == 0.0
