"""PokerKit 0.7.7 as an oracle in CI: thousands of hands of both engines, each replayed line by
line in PokerKit from the PHH feltro writes, end with the same stacks (``pokerkit_oracle``
explains how and where the two rule books differ). A bigger run:
``python tests/pokerkit_oracle.py --hands 20000``.

Before issue 20 this failed: on 3,000 hands (seed 5) 401 disagreed, nearly all a raise nobody
could call that PokerKit refuses, and a player asked to act when nobody could bet against it.
"""

from __future__ import annotations

import pytest

pytest.importorskip("pokerkit")
pytest.importorskip("numpy")

import feltro.showdown  # (its split_pot is patched below)
from feltro.config import Structure
from pokerkit_oracle import (
    Game,
    Line,
    PokerKitDisagreesError,
    Report,
    check,
    engine_hands,
    game_of_hand,
    replay_in_pokerkit,
    run,
)

HANDS = 1800


def test_every_hand_of_both_engines_replays_in_pokerkit__B5_B7_B8_B10_P1_P7() -> None:
    report = run(HANDS, seed=3)
    print(f"compared {dict(report.compared)}, covered {dict(sorted(report.covered.items()))}, "
          f"checks PokerKit asked for and B5 does not: {report.pokerkit_checks}")
    assert report.failures == []
    assert report.raise_as_call == 0
    assert min(report.compared.values()) >= HANDS // 3
    covered = report.covered
    assert min(covered[s.value] for s in Structure) >= 100
    assert covered["2 players"] >= 50
    assert covered["10 players"] >= 50
    assert covered["antes"] >= 200
    assert covered["someone lost every chip"] >= 200


def _control(patch_target: object, name: str, replacement: object,
             monkeypatch: pytest.MonkeyPatch) -> Report:
    monkeypatch.setattr(patch_target, name, replacement)
    report = Report()
    check(((label, game_of_hand(hand)) for label, hand in engine_hands(300, 11)), "engine",
          report)
    return report


def test_the_oracle_sees_a_decision_b5_does_not_give__B5_P1() -> None:
    # Negative controls: two lines feltro wrote before issue 20. Heads-up, the big blind
    # checks after the button called all-in (PokerKit asks nobody); three-handed, stacks
    # [3, 56, 48], the last player with chips folds after the other bettor folded, which paid
    # the all-in p1 93 chips (PokerKit sees no reason to fold).
    heads_up = Game(Structure.NO_LIMIT, (0, 0), (1, 2), 2, 0, (100, 2), True,
                    (Line("dh", 0, "QsQh"), Line("dh", 1, "KsKh"), Line("cc", 1),
                     Line("cc", 0)), (98, 4))
    with pytest.raises(PokerKitDisagreesError, match="PokerKit has nobody to act"):
        replay_in_pokerkit(heads_up, Report())
    fold = Game(Structure.NO_LIMIT, (0, 0, 0), (1, 2, 0), 2, 0, (3, 56, 48), True,
                (Line("dh", 0, "AsAh"), Line("dh", 1, "QsQh"), Line("dh", 2, "KsKh"),
                 Line("cbr", 2, amount=13), Line("cc", 0), Line("cbr", 1, amount=45),
                 Line("cc", 2), Line("db", cards="2c5d8h"), Line("f", 1), Line("f", 2)),
                (93, 11, 3))
    with pytest.raises(PokerKitDisagreesError, match="no reason for this player to fold"):
        replay_in_pokerkit(fold, Report())


def test_the_oracle_sees_a_wrong_odd_chip(monkeypatch: pytest.MonkeyPatch) -> None:
    # Negative control: odd chips to the last winner instead of the first from the button (P7).
    real = feltro.showdown.split_pot

    def from_the_right(amount: int, winners: tuple[int, ...], **kwargs: int) -> tuple[int, ...]:
        return tuple(reversed(real(amount, winners, **kwargs)))

    report = _control(feltro.showdown, "split_pot", from_the_right, monkeypatch)
    assert any("feltro ends" in failure for failure in report.failures), report.failures[:3]


def test_the_oracle_refuses_a_raise_nobody_can_call__B5() -> None:
    # Negative control at PokerKit's end: heads-up, the button shoves 50 and the big blind
    # raises to 98, the line feltro wrote before issue 20.
    game = Game(Structure.NO_LIMIT, (0, 0), (1, 2), 2, 0, (200, 50), True,
                (Line("dh", 0, "AsAh"), Line("dh", 1, "KsKh"), Line("cbr", 1, amount=50),
                 Line("cbr", 0, amount=98)), (250, 0))
    with pytest.raises(PokerKitDisagreesError, match="no reason to complete, bet, or raise"):
        replay_in_pokerkit(game, Report())
