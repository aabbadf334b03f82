"""Browser tests: the real server in its own process, Debian's Chromium driven by Playwright.

Everything listens on 127.0.0.1 only. When Playwright or Chromium is missing the tests are
skipped with the reason, unless ``FELTRO_WEB_REQUIRED=1`` or ``CI`` is set (CI runs
``scripts/ci-browser-setup.sh`` through ``make test``), which turns the skip into a failure.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browserkit import CHROMIUM, CHROMIUM_FLAGS, STRAY_SEEN, Server, missing

from playkit import running


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    reason = missing()
    if reason is None:
        return
    required = os.environ.get("FELTRO_WEB_REQUIRED") == "1"
    if required or os.environ.get("CI", "") not in ("", "0", "false"):
        raise pytest.UsageError(f"browser tests required but {reason}")
    skip = pytest.mark.skip(reason=reason)
    for item in items:
        if "tests/web/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def no_stray_values() -> Iterator[None]:
    """No page of the test ever shows a script's value printed by mistake ("null"...,
    ``browserkit.STRAY``) or throws an error its script does not catch, in whatever state the
    test takes it through."""
    STRAY_SEEN.clear()
    yield
    seen = list(dict.fromkeys(STRAY_SEEN))
    STRAY_SEEN.clear()
    assert seen == [], f"what the pages got wrong: {seen}"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    """A fresh feltro server (its own port and data folder) for one test."""
    with running(Server(tmp_path / "data")) as srv:
        yield srv


@pytest.fixture(scope="session")
def pw() -> Iterator[Any]:
    """Playwright (named so as not to clash with the pytest-playwright plugin's fixtures)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def chromium(pw: Any) -> Iterator[Any]:
    """Debian's Chromium, headless, launched by path (``playwright install`` is not used)."""
    browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True,
                                         args=CHROMIUM_FLAGS)
    try:
        yield browser
    finally:
        browser.close()
