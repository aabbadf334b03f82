"""A voluntary show after a hand won uncontested (P8, D11): the series, its log, the session."""

from __future__ import annotations

from pathlib import Path

import pytest

from feltro.actions import Action
from feltro.errors import IllegalActionError
from feltro.events import CardsShown
from feltro.hand import Hand
from feltro.seating import Seating
from feltro.series import Series, SeriesConfig
from feltro.series_log import SeriesStore
from feltro.serieshistory import series_hand_record
from feltro.session import MemoryDriver, Player, Session

CONFIG = SeriesConfig.with_players(3, max_hands=5)


def _session(series: Series) -> Session:
    return Session(MemoryDriver(series), [Player(s, n) for s, n in series.players.items()])


def _deal(series: Series) -> tuple[Hand, Seating]:
    """The next hand of *series* and its seating."""
    series.next_hand()
    hand, seating = series.hand, series.seating
    assert hand is not None
    assert seating is not None
    return hand, seating


def _fold_to_winner(play: Series | SeriesStore) -> tuple[int, int]:
    """Deal a hand, everybody folds to one player: (winner's seat, a folded seat)."""
    play.next_hand()
    series = play if isinstance(play, Series) else play.series
    hand = series.hand
    assert hand is not None
    assert series.seating is not None
    while not hand.is_over:
        play.act(Action.parse("f"))
    order = series.seating.order
    return order[hand.folded.index(False)], order[hand.folded.index(True)]


def test_winner_uncontested_shows_and_everyone_sees_it_P8() -> None:
    store_less = Series(CONFIG, 7)
    winner, _ = _fold_to_winner(store_less)
    session = _session(store_less)
    events = session.show(winner)
    assert len(events) == 1
    assert isinstance(events[0], CardsShown)
    cards = events[0].cards
    hand = store_less.hand
    assert hand is not None
    position = session.position_of(winner)
    assert position is not None
    assert session.public_view().shown == {position: cards}
    for seat in store_less.seating.order if store_less.seating else ():
        assert session.view(seat).shown == {position: cards}
    record = series_hand_record(store_less, visible_to=())
    shown_line = f"p{position + 1} sm {''.join(str(c) for c in cards)}"
    assert record.actions[-1] == shown_line
    assert store_less.stacks[winner] == hand.result().stacks[position]


def test_show_refused_when_not_allowed_changes_nothing_P8_D11() -> None:
    series = Series(CONFIG, 7)
    hand, seating = _deal(series)
    first = seating.order[hand.to_act or 0]
    session = _session(series)
    with pytest.raises(IllegalActionError) as during:
        session.show(first)
    assert (during.value.rule, during.value.refusal.reason) == ("P8", "betting-not-over")
    while not hand.is_over:
        series.act(Action.parse("f"))
    order = seating.order
    folded = order[hand.folded.index(True)]
    winner = order[hand.folded.index(False)]
    with pytest.raises(IllegalActionError) as by_folded:
        session.show(folded)
    assert (by_folded.value.rule, by_folded.value.refusal.params) == ("P2", {"seat": folded})
    session.show(winner)
    with pytest.raises(IllegalActionError) as twice:
        session.show(winner)
    assert (twice.value.rule, twice.value.refusal.reason) == ("P8", "already-shown")
    assert len(hand.shown) == 1
    series.next_hand()
    with pytest.raises(IllegalActionError) as next_deal:
        session.show(winner)
    assert next_deal.value.rule == "P8"


def test_show_after_a_showdown_is_refused_B5_P8() -> None:
    series = Series(CONFIG, 7)
    hand, seating = _deal(series)
    while not hand.is_over:
        series.act(hand.legal.passive)
    at_showdown = [seating.order[p] for p in range(hand.players) if not hand.folded[p]]
    assert len(at_showdown) >= 2
    events_before = len(hand.events)
    for seat in at_showdown:
        with pytest.raises(IllegalActionError) as refused:
            _session(series).show(seat)
        assert (refused.value.rule, refused.value.refusal.reason) == ("B5", "hand-over")
    assert len(hand.events) == events_before


def test_logged_show_survives_a_replay_P8(tmp_path: Path) -> None:
    path = tmp_path / "night.feltro"
    with SeriesStore.create(path, CONFIG, series_seed=99) as store:
        winner, _ = _fold_to_winner(store)
        shown = store.show(winner)
        with pytest.raises(IllegalActionError):
            store.show(winner)  # refused: nothing written
    with SeriesStore.open(path) as again:
        hand = again.series.hand
        assert hand is not None
        assert tuple(hand.shown.values()) == (shown[0].cards,)  # type: ignore[attr-defined]
        assert again.export_phh().actions[-1].endswith(
            "sm " + "".join(str(c) for c in shown[0].cards))  # type: ignore[attr-defined]
        again.next_hand()
    with SeriesStore.open(path) as third:
        assert third.series.hand_number == 2
