"""Fixtures for the server tests (helpers live in ``srvkit``)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from realserver import ServerProcess
from srvkit import Harness, harness_at

from playkit import running


@pytest.fixture
def harness(tmp_path: Path) -> Iterator[Harness]:
    """A fresh server on a fake clock with its own data folder."""
    with harness_at(tmp_path / "data") as h:
        yield h


@pytest.fixture
def limited(tmp_path: Path) -> Iterator[Harness]:
    """A server with the production rate limits (20 messages a second, bursts of 40)."""
    with harness_at(tmp_path / "data", burst=40.0) as h:
        yield h


@pytest.fixture
def live(tmp_path: Path) -> Iterator[ServerProcess]:
    """A real ``feltro serve`` process (its own port and data folder) for one test."""
    with running(ServerProcess(tmp_path / "data")) as server:
        yield server


@pytest.fixture
def closing() -> Iterator[contextlib.ExitStack]:
    """What a test opens (phones, clients, terminals, processes), closed when it ends, passed
    or not, the last opened first. Asked for after ``live``, it closes them before the server
    stops."""
    with contextlib.ExitStack() as stack:
        yield stack
