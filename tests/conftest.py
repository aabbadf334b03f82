"""Every test keeps feltro's secrets in its own folder, never in the user's config folder."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _private_config_dir(tmp_path_factory: pytest.TempPathFactory,
                        monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path_factory.mktemp("config")
    monkeypatch.setenv("FELTRO_CONFIG_DIR", str(folder))
    return folder


@pytest.fixture
def global_random_forbidden(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every drawing function of the global ``random`` module raises while the test runs;
    afterwards the module's state must be as it was (nothing drew from it)."""
    state = random.getstate()

    def forbidden(*args: object, **kwargs: object) -> None:
        raise AssertionError("the global random module was used")

    for name in ("shuffle", "random", "randrange", "randint", "choice", "sample",
                 "getrandbits", "seed"):
        monkeypatch.setattr(random, name, forbidden)
    yield
    monkeypatch.undo()
    assert random.getstate() == state
