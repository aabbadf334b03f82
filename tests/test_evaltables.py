"""The shipped evaluator tables are exactly what the generator builds from the rules."""

from __future__ import annotations

import pytest

from feltro import _evaltables


def test_shipped_tables_equal_a_fresh_build__P4() -> None:
    shipped = _evaltables.load()
    fresh = _evaltables.build()
    assert _evaltables.dumps(fresh) == _evaltables.dumps(shipped)


def test_class_count_per_category__P4() -> None:
    fresh = _evaltables.build()
    strengths = sorted(set(fresh.rank_values[5]) | {v for v in fresh.flush_values if v})
    assert len(strengths) == 7462
    assert strengths == list(range(1, 7463))


def test_table_file_round_trip_detects_damage() -> None:
    blob = _evaltables.dumps(_evaltables.load())
    assert _evaltables.dumps(_evaltables.loads(blob)) == blob
    with pytest.raises(ValueError, match="not a feltro evaluator table file"):
        _evaltables.loads(b"not a table file")


def test_wheel_is_the_lowest_straight__P5() -> None:
    wheel = _evaltables.class_key([12, 3, 2, 1, 0], flush=False)
    six_high = _evaltables.class_key([4, 3, 2, 1, 0], flush=False)
    no_wrap = _evaltables.class_key([12, 11, 1, 0, 2], flush=False)  # K-A-2 does not wrap
    assert wheel == (4, (3,))
    assert six_high > wheel
    assert no_wrap[0] == 0
