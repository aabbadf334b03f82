"""A seated player's choice to show even a losing hand at the showdown, over the protocol
(P8, D11): journaled in the series log, in the player's own ``you``, the same after a restart;
refused for a watcher."""

from __future__ import annotations

from pathlib import Path

from srvkit import Frame, drive, harness_at, passive, seat_table


def _first_hand_over(frame: Frame) -> bool:
    hand = frame["table"]["hand"]
    return hand is not None and hand["number"] == 1 and hand["over"]


def test_the_choice_is_journaled_and_reaches_only_the_chooser_P8_D11(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with harness_at(data) as h:
        created, host, players = seat_table(h, ["Ana", "Bruno", "Carla"],
                                            between_hands_seconds=60)
        h.clock.advance(1)  # the first deal is due at once
        chooser = min(players)
        players[chooser].send(type="show_losers", id="on", on=True)
        assert players[chooser].reply("on")["type"] == "ack"
        watcher = h.phone(created["table_id"])
        watcher.hello()
        watcher.send(type="show_losers", id="w", on=True)
        assert watcher.reply("w")["code"] == "not_seated"
        drive(host, players, passive, _first_hand_over)
        assert h.game(created["table_id"]).store.series.show_losers == {chooser}
        for seat, phone in players.items():
            phone.drain(0.1)
            state = phone.state
            assert state is not None
            assert state["you"].get("show_losers", False) == (seat == chooser)
    with harness_at(data) as h:  # restarted: the series log replays the choice
        assert h.game(created["table_id"]).store.series.show_losers == {chooser}
