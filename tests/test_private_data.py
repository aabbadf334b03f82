"""Data at rest: folders 0700 and files 0600, created so — another user of the host's machine
must not read a series log (it holds the deck's seed) or the server's tables."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import pytest

from feltro.paths import private_file, private_folder
from feltro.series import SeriesConfig
from feltro.series_log import SeriesStore

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions")


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_private_folder_and_file_are_created_for_their_owner_only(tmp_path: Path) -> None:
    old = os.umask(0o022)  # the usual umask gives 0755 / 0644
    try:
        folder = private_folder(tmp_path / "a" / "b")
        file = private_file(folder / "x.sqlite")
    finally:
        os.umask(old)
    assert _mode(folder) == 0o700
    assert _mode(file) == 0o600


def test_existing_open_folders_and_files_are_closed(tmp_path: Path) -> None:
    folder = tmp_path / "open"
    folder.mkdir(mode=0o755)
    folder.chmod(0o755)
    file = folder / "log.sqlite"
    file.write_text("x")
    file.chmod(0o644)
    private_folder(folder)
    private_file(file)
    assert (_mode(folder), _mode(file)) == (0o700, 0o600)
    assert file.read_text() == "x"  # nothing truncated


def test_a_series_log_and_its_wal_are_owner_only(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        store = SeriesStore.create(tmp_path / "s.sqlite",
                                   SeriesConfig(players={1: "Ana", 2: "Rui"}, seat_count=2),
                                   series_seed=7)
        store.next_hand()
        modes = {p.name: _mode(p) for p in tmp_path.iterdir()}
        store.close()
    finally:
        os.umask(old)
    assert "s.sqlite-wal" in modes
    assert set(modes.values()) == {0o600}, modes
