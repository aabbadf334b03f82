"""Blind levels (G7) at the web table: chosen when the table is created, refused there when
wrong, and the level, the next and the countdown sent to phones and the TV with every state."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from srvkit import drive, harness_at, passive, seat_table

from feltro.server.clock import FakeClock


def test_levels_by_hands_reach_the_phones_and_the_hands_G7(tmp_path: Path) -> None:
    with harness_at(tmp_path / "data", clock=FakeClock()) as h:
        created, host, players = seat_table(h, ["Ana"], bots=("station", "station"),
                                            levels="turbo", level_length=2, antes_from=2,
                                            max_hands=5)
        first = host.until(lambda f: f["type"] == "state" and f["table"]["hand"] is not None)
        level = first["table"]["level"]
        assert level["level"] == 1
        assert level["blinds"] == {"small_blind": 1, "big_blind": 2, "ante": 0}
        assert level["next"] == {"small_blind": 2, "big_blind": 4, "ante": 1}
        assert level["hands_left"] == 1
        final = drive(host, players, passive, lambda f: f["table"]["status"] == "over")
        assert final["table"]["level"]["level"] == 3  # hands 5 is at level 3 (2 hands a level)
        series = h.game(created["table_id"]).store.series
        assert [s.level for s in series.summaries] == [1, 1, 2, 2, 3]
        assert [s.hand.config.big_blind for s in series.summaries] == [2, 2, 4, 4, 10]


def test_every_hand_carries_the_level_it_was_dealt_at_G7(tmp_path: Path) -> None:
    """``hand.level`` is the level of that hand (what its log names at its start), the same
    in every state sent while the hand is played and once it is over."""
    seen: dict[int, set[tuple[int, int, int, int]]] = {}

    def note(frame: dict[str, Any]) -> bool:
        table = frame["table"]
        hand = table["hand"]
        if hand is not None:
            level = hand["level"]
            blinds = level["blinds"]
            seen.setdefault(hand["number"], set()).add(
                (level["level"], blinds["small_blind"], blinds["big_blind"], blinds["ante"]))
        return bool(table["status"] == "over")

    with harness_at(tmp_path / "data", clock=FakeClock()) as h:
        created, host, players = seat_table(h, ["Ana"], bots=("station", "station"),
                                            levels="turbo", level_length=2, antes_from=2,
                                            max_hands=5)
        drive(host, players, passive, note)
        reviewed = h.client.post(f"/api/tables/{created['table_id']}/hands", json={}).json()
    # The hands to review (issue 23) carry each hand's level as well.
    assert {hand["number"]: hand["level"]["level"] for hand in reviewed["hands"]} == {
        1: 1, 2: 1, 3: 2, 4: 2, 5: 3}
    assert reviewed["hands"][2]["level"]["blinds"] == {"small_blind": 2, "big_blind": 4,
                                                       "ante": 1}
    assert seen == {1: {(1, 1, 2, 0)}, 2: {(1, 1, 2, 0)}, 3: {(2, 2, 4, 1)},
                    4: {(2, 2, 4, 1)}, 5: {(3, 5, 10, 1)}}


def test_fixed_blinds_send_no_level_G5(tmp_path: Path) -> None:
    with harness_at(tmp_path / "data", clock=FakeClock()) as h:
        _, host, _ = seat_table(h, ["Ana"], bots=("station",), max_hands=1)
        state = host.until(lambda f: f["type"] == "state" and f["table"]["hand"] is not None)
        assert state["table"]["level"] is None
        assert "level" not in state["table"]["hand"]  # the hand's fields as before levels


def test_wrong_levels_are_refused_when_the_table_is_created_G7(tmp_path: Path) -> None:
    with harness_at(tmp_path / "data", clock=FakeClock()) as h:
        for body in ({"levels": "1/2, banana"}, {"levels": "turbo", "antes_from": 20},
                     {"levels": "x" * 1001}, {"levels": "turbo", "level_unit": "days"}):
            response = h.client.post("/api/tables", json=body)
            assert response.status_code in (400, 422), (body, response.text)
