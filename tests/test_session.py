"""The game session between the series and an interface: who sits where, bots asked and
checked, views only, hands as PHH, reproducible from the seed, resumable from the log."""

from __future__ import annotations

from pathlib import Path

import pytest

from feltro.actions import Action, Raise
from feltro.errors import ConfigError, IllegalActionError, SeriesError
from feltro.hand import LegalActions, SeatView
from feltro.history import dumps, loads, replay
from feltro.series import Series, SeriesConfig
from feltro.series_log import SeriesStore
from feltro.session import MemoryDriver, Player, Session
from playkit import finish_hand


def _players(n: int, humans: int = 1, level: str = "rules") -> list[Player]:
    return [Player(s, f"P{s}", bot=None if s <= humans else level) for s in range(1, n + 1)]


def _config(n: int, **options: object) -> SeriesConfig:
    return SeriesConfig(players={s: f"P{s}" for s in range(1, n + 1)}, **options)  # type: ignore[arg-type]


def _session(n: int = 4, seed: int = 7, humans: int = 1, **options: object) -> Session:
    return Session(MemoryDriver(Series(_config(n, **options), seed)), _players(n, humans))


def test_players_must_match_the_series() -> None:
    series = Series(_config(3), 1)
    with pytest.raises(ConfigError, match="seats"):
        Session(MemoryDriver(series), _players(2))
    with pytest.raises(ConfigError, match="name"):
        Session(MemoryDriver(series), [Player(1, "X"), *_players(3)[1:]])
    with pytest.raises(ConfigError, match="unknown bot level"):
        Session(MemoryDriver(series), [Player(1, "P1"), Player(2, "P2", bot="genius"),
                                       Player(3, "P3")])


def test_a_person_acts_only_in_turn__B2() -> None:
    session = _session(humans=1)
    assert session.next_hand()
    session.play_bots()
    seat = session.human_to_act
    assert seat == 1
    with pytest.raises(IllegalActionError, match="not a person"):
        session.act(2, session.legal().passive)
    hand_events = len(session.public_view().events)
    with pytest.raises(IllegalActionError):
        session.act(1, Raise(1))  # below the minimum: refused, nothing changes
    assert len(session.public_view().events) == hand_events
    session.act(1, session.legal().passive)


def test_views_hide_other_players_cards() -> None:
    session = _session(humans=2)
    session.next_hand()
    view = session.view(1)
    assert view.hole is not None
    assert None not in view.hole
    others = [e for e in view.events if getattr(e, "position", 0) != view.position
              and type(e).__name__ == "HoleCardDealt"]
    assert others
    assert all(e.card is None for e in others)
    assert session.public_view().hole is None


class _Cheater:
    name = "cheater"

    def act(self, view: SeatView, legal: LegalActions) -> Action:
        return Raise(1)  # never legal: below the minimum bet (B6)


class _Crasher:
    name = "crasher"

    def act(self, view: SeatView, legal: LegalActions) -> Action:
        raise RuntimeError("boom")


@pytest.mark.parametrize("bot", [_Cheater(), _Crasher()])
def test_an_illegal_bot_answer_becomes_check_else_fold(bot: object) -> None:
    config = _config(2)
    session = Session(MemoryDriver(Series(config, 3)),
                      [Player(1, "P1", bot="rules"), Player(2, "P2", bot="x")],
                      bots={2: bot})  # type: ignore[dict-item]
    for _ in range(5):
        if not session.next_hand():
            break
        finish_hand(session)
    assert session.notes, "the replaced answers are noted for the log"
    for note in session.notes:
        assert note.seat == 2
        assert note.played in ("x", "f")
    assert sum(session.series.stacks.values()) == 400


def test_same_seed_same_deals_and_same_bot_decisions() -> None:
    def play(seed: int) -> list[str]:
        session = Session(MemoryDriver(Series(_config(4, max_hands=6), seed)),
                          _players(4, humans=0, level="montecarlo"))
        while session.next_hand():
            finish_hand(session)
        return [dumps(session.hand_record())]

    assert play(11) == play(11)
    assert play(11) != play(12)


def test_hand_record_replays_to_the_same_result() -> None:
    session = _session(n=5, humans=0)
    for _ in range(8):
        if not session.next_hand():
            break
        finish_hand(session)
        record = loads(dumps(session.hand_record(event="test")))
        summary = session.last_summary
        assert summary is not None
        assert replay(record).finishing_stacks == summary.result.stacks
        seating = session.series.seating
        assert seating is not None
        assert record.seats == seating.order
        assert record.players == tuple(f"P{s}" for s in seating.order)
        assert record.user_fields["_button_seat"] == seating.button


def test_pots_name_seats_and_standings_follow_the_series() -> None:
    session = Session(MemoryDriver(Series(_config(3), 7)), _players(3, humans=0,
                                                                    level="station"))
    session.next_hand()
    assert session.pots() == []  # the blinds are bets in front of the players, no pot yet
    while session.public_view().street.value == "preflop":
        session.bot_act()
    assert session.series.in_hand  # the calling stations see the flop
    view = session.public_view()
    pots = session.pots()
    collected = sum(c - b for c, b in zip(view.committed, view.bets, strict=True))
    assert sum(p.amount for p in pots) == collected
    assert all(set(p.seats) <= {1, 2, 3} for p in pots)
    finish_hand(session)
    assert session.pots()  # the pots as paid
    assert [s.seat for s in session.standings()] != []
    with pytest.raises(SeriesError):
        session.bot_act()


def test_resume_from_the_log_continues_the_same_hand(tmp_path: Path) -> None:
    """Interrupt mid-hand, reopen the durable log: same hand, same player to act, and the
    bots decide exactly as they would have without the interruption."""
    config = _config(4, max_hands=5)
    players = _players(4, humans=0, level="montecarlo")

    straight = Session(MemoryDriver(Series(config, 21)), players)
    while straight.next_hand():
        finish_hand(straight)

    path = tmp_path / "series.sqlite"
    store = SeriesStore.create(path, config, series_seed=21)
    session = Session(store, players)
    session.next_hand()
    session.bot_act()
    session.bot_act()
    store.close()  # the "crash"

    store = SeriesStore.open(path)
    resumed = Session(store, players)
    assert resumed.series.in_hand
    assert resumed.series.hand_number == 1
    finish_hand(resumed)
    while resumed.next_hand():
        finish_hand(resumed)
    store.close()
    assert dict(resumed.series.stacks) == dict(straight.series.stacks)
    assert resumed.series.outcome == straight.series.outcome


def test_stop_time_ends_before_the_next_hand__G6() -> None:
    from datetime import datetime

    stop = datetime(2030, 1, 1, 23, 30)
    session = _session(n=3, humans=0, stop_at=stop)
    assert session.next_hand(datetime(2030, 1, 1, 23, 0))
    finish_hand(session)
    assert not session.next_hand(datetime(2030, 1, 1, 23, 30))
    assert session.series.outcome is not None
    assert session.series.outcome.end.value == "stopped"


def test_bots_are_labelled() -> None:
    session = _session(humans=1)
    assert [p.is_bot for p in session.players.values()] == [False, True, True, True]
    assert session.humans == (1,)
