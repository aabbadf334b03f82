"""`make play` installs only the game; `make test` is what CI runs (README's first two commands)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _dry_run(target: str) -> str:
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    return subprocess.run(["make", "-n", "-B", target], cwd=ROOT, capture_output=True,
                          text=True, check=True).stdout


def test_make_play_installs_only_the_game() -> None:
    installs = [line for line in _dry_run("play").splitlines() if "pip install" in line
                and "--upgrade pip" not in line]
    assert installs, "make play installs nothing"
    extras = set(re.findall(r"\.\[([a-z,]+)\]", " ".join(installs))[0].split(","))
    assert extras == {"tui"}, installs


def test_make_test_installs_the_rest_and_runs_the_suite() -> None:
    commands = _dry_run("test")
    assert "'.[dev,cli,tui,server]'" in commands
    assert "mypy --strict" in commands
    assert "pytest" in commands


def test_the_game_needs_nothing_beyond_the_tui_extra() -> None:
    """What `make play` runs imports neither the server nor the development tools."""
    code = ("import sys, feltro.cli, feltro.tui.app, feltro.bots.montecarlo, feltro.cli.play;"
            "bad = sorted(m for m in sys.modules if m.split('.')[0] in "
            "{'fastapi','uvicorn','pydantic','segno','pytest','mypy','pokerkit','playwright'});"
            "print(bad)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "[]"


def test_ci_runs_make_test_and_the_readme_says_so() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert re.search(r"^make test$", ci, re.MULTILINE)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    first = re.search(r"```sh\n(.*?)```", readme, re.DOTALL)
    assert first is not None
    assert first.group(1).split() == ["make", "play", "make", "test"]
    assert "exactly as CI does" in readme
    assert ".ci/run" in readme


def test_serve_without_the_server_packages_says_what_to_install(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """After `make play` alone the server's packages are missing: one line, what to run."""
    from feltro.cli import main

    monkeypatch.setitem(sys.modules, "uvicorn", None)  # import fails as if not installed
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    with pytest.raises(SystemExit) as done:
        main(["serve", "--port", "18099"])
    err = capsys.readouterr().err
    assert done.value.code == 1
    assert "make test" in err
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1
