"""Series seeds sealed at rest (feltro.seal): the log alone does not tell the cards, the key
brings the same series back, and a wrong or missing key is a clear error."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from feltro.errors import StoreError
from feltro.seal import SeedSeal, new_key
from feltro.series import SeriesConfig
from feltro.series_log import SeriesStore

CONFIG = SeriesConfig(players={1: "Ana", 2: "Rui", 3: "Zé"}, seat_count=3)


@given(seed=st.integers(0, 2**128 - 1), key=st.binary(min_size=32, max_size=32),
       salt=st.binary(min_size=16, max_size=16))
def test_unseal_inverts_seal(seed: int, key: bytes, salt: bytes) -> None:
    seal = SeedSeal(key)
    box = seal.seal(seed, salt=salt)
    assert seal.unseal(box) == seed


def test_the_same_seed_seals_differently_each_time() -> None:
    seal = SeedSeal(new_key())
    assert seal.seal(7)["sealed"] != seal.seal(7)["sealed"]


def test_bad_keys_and_damage_are_told_apart() -> None:
    box = SeedSeal(bytes(32)).seal(99)
    with pytest.raises(StoreError, match="another key"):
        SeedSeal(b"\x02" * 32).unseal(box)
    with pytest.raises(StoreError, match="damaged"):
        SeedSeal(bytes(32)).unseal({**box, "sealed": "zz"})
    with pytest.raises(ValueError, match="32 bytes"):
        SeedSeal(b"short")
    assert repr(SeedSeal(bytes(32))) == "SeedSeal(<key hidden>)"


def _bodies(path: Path) -> str:
    db = sqlite3.connect(path)
    try:
        return " ".join(row[0] for row in db.execute("SELECT body FROM log"))
    finally:
        db.close()


def test_a_sealed_log_holds_no_seed_and_resumes_with_its_key(tmp_path: Path) -> None:
    seed = 0xFEED_F00D_1234
    key = new_key()
    path = tmp_path / "s.sqlite"
    with SeriesStore.create(path, CONFIG, series_seed=seed, seal=SeedSeal(key)) as store:
        hand = store.next_hand()
        assert hand is not None
        holes = [hand.view(p).hole for p in range(hand.players)]
        hand_seed = store.series.hand_seed
    text = _bodies(path)
    assert str(seed) not in text
    assert str(hand_seed) not in text
    assert '"seed"' not in text
    with SeriesStore.open(path, seal=SeedSeal(key)) as again:
        hand = again.series.hand
        assert hand is not None
        assert [hand.view(p).hole for p in range(hand.players)] == holes
    with pytest.raises(StoreError, match="sealed; open it with the key"):
        SeriesStore.open(path)
    with pytest.raises(StoreError, match="another key"):
        SeriesStore.open(path, seal=SeedSeal(new_key()))


def test_an_unsealed_log_is_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "plain.sqlite"
    with SeriesStore.create(path, CONFIG, series_seed=42) as store:
        store.next_hand()
    assert '"series_seed": "42"' in _bodies(path) or '"series_seed":"42"' in _bodies(path)
