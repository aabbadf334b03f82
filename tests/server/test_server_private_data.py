"""The server's data folder is readable by the host's OS user alone (0700 / 0600)."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import pytest
from srvkit import harness_at

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions")


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_server_data_folder_is_owner_only(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        with harness_at(tmp_path / "data") as h:
            created = h.create_table()
            host = h.phone(created["table_id"])
            host.hello("host", created["host_token"])
            host.send(type="add_bot", kind="station", id="b1")
            host.send(type="add_bot", kind="station", id="b2")
            host.send(type="start", id="go")
            host.reply("go")
            modes = {p: (p.is_dir(), _mode(p)) for p in [h.data_dir, *h.data_dir.rglob("*")]}
    finally:
        os.umask(old)
    assert any(p.name.endswith(".journal.sqlite") for p in modes)
    assert any(p.suffix == ".sqlite" and p.parent.name == "tables" for p in modes)
    for path, (is_dir, mode) in modes.items():
        assert mode == (0o700 if is_dir else 0o600), path


def test_series_logs_hold_no_seed_in_clear_and_resume_with_the_key(tmp_path: Path) -> None:
    import sqlite3

    from srvkit import seat_table

    from feltro.seal import SeedSeal, new_key

    key = new_key()
    with harness_at(tmp_path / "data", seal=SeedSeal(key)) as h:
        created, host, _players = seat_table(h, [], bots=("station", "station"))
        host.until(lambda f: f["type"] == "state" and f["table"]["hand"] is not None)
        game = h.game(created["table_id"])
        seed = game.store.series.series_seed
        hand_seed = game.store.series.hand_seed
        log = game.store.path
    db = sqlite3.connect(log)
    text = " ".join(row[0] for row in db.execute("SELECT body FROM log"))
    db.close()
    assert str(seed) not in text
    assert str(hand_seed) not in text
    with harness_at(tmp_path / "data", seal=SeedSeal(key)) as h:
        assert h.game(created["table_id"]).problem is None
        assert h.game(created["table_id"]).store.series.series_seed == seed
    with harness_at(tmp_path / "data", seal=SeedSeal(new_key())) as h:
        problem = h.game(created["table_id"]).problem
        assert problem is not None
