"""One PHH record writer for every path: the store's export, the session's record and
:func:`feltro.history.record_of` agree on the variant, the stakes, the button field and the
action lines, and each record replays to the hand's result (B10; PHH has no pot-limit
hold'em, so pot-limit is refused the same way everywhere)."""

from __future__ import annotations

from pathlib import Path

import pytest

from feltro.config import Structure
from feltro.errors import HistoryError
from feltro.history import dumps, loads, record_of, replay
from feltro.history.record import BUTTON_FIELD
from feltro.series import SeriesConfig
from feltro.series_log import SeriesStore
from feltro.session import Player, Session


def _session(path: Path, structure: Structure) -> tuple[SeriesStore, Session]:
    config = SeriesConfig.with_players(3, starting_stack=60, ante=1, structure=structure,
                                       max_hands=6)
    store = SeriesStore.create(path, config, series_seed=5)
    players = [Player(s, f"Player {s}", bot="rules") for s in (1, 2, 3)]
    return store, Session(store, players)


def test_fixed_limit_exports_alike_on_every_path_and_replays__B10(tmp_path: Path) -> None:
    store, session = _session(tmp_path / "fl.db", Structure.FIXED_LIMIT)
    with store:
        hands = 0
        while session.next_hand():
            session.play_bots()
            number = session.series.hand_number
            from_store = store.export_phh(number)
            from_session = session.hand_record()
            assert from_session == from_store
            summary = session.last_summary
            assert summary is not None
            assert summary.number == number
            plain = record_of(summary.hand)
            for record in (from_store, from_session, plain):
                assert record.variant == "FT"
                assert (record.small_bet, record.big_bet) == (2, 4)
                assert record.ante_trimming_status is True
                text = loads(dumps(record), strict=True)
                assert replay(text).finishing_stacks == summary.result.stacks
            assert from_store.user_fields == {BUTTON_FIELD: summary.seating.button}
            hands += 1
        assert hands >= 2


def test_pot_limit_is_refused_alike_on_every_path__B10(tmp_path: Path) -> None:
    store, session = _session(tmp_path / "pl.db", Structure.POT_LIMIT)
    with store:
        assert session.next_hand()
        session.play_bots()
        summary = session.last_summary
        assert summary is not None
        for export in (lambda: store.export_phh(1), session.hand_record,
                       lambda: record_of(summary.hand)):
            with pytest.raises(HistoryError, match="no pot-limit hold'em variant"):
                export()


def test_a_players_own_record_hides_only_the_others_unshown_cards__P8() -> None:
    from feltro.cards import Deck
    from feltro.config import HandConfig
    from feltro.hand import Hand

    deck = Deck.for_deal(["AsKs", "QdQh", "7c2d"], "Td8s3c Jh 2s")
    hand = Hand.start(HandConfig.standard((100, 100, 100)), deck)
    while not hand.is_over:  # everybody checks or calls: the hands are shown (P8)
        hand.apply(hand.legal.passive)
    everything = record_of(hand)
    mine = record_of(hand, visible_to=0)
    nobody = record_of(hand, visible_to=())
    assert everything.actions[:3] == ("d dh p1 AsKs", "d dh p2 QdQh", "d dh p3 7c2d")
    assert mine.actions[:3] == ("d dh p1 AsKs", "d dh p2 ????", "d dh p3 ????")
    assert nobody.actions[:3] == ("d dh p1 ????", "d dh p2 ????", "d dh p3 ????")
    # Everything after the deal is public: the betting, the board, the cards shown.
    assert mine.actions[3:] == nobody.actions[3:] == everything.actions[3:]
    assert "p2 sm QdQh" in mine.actions
    one_by_one = record_of(hand, visible_to=[1, 2], one_card_per_line=True)
    assert one_by_one.actions[:6] == ("d dh p1 ??", "d dh p2 Qd", "d dh p3 7c",
                                      "d dh p1 ??", "d dh p2 Qh", "d dh p3 2d")
    assert replay(loads(dumps(mine))).finishing_stacks == hand.stacks
