"""The rules core stays pure and light: no interface, network, clock or numpy imports."""

from __future__ import annotations

import json
import subprocess
import sys

CORE = [
    "feltro",
    "feltro.cards",
    "feltro.errors",
    "feltro.evaluator",
    "feltro.names",
    "feltro.pots",
    "feltro.actions",
    "feltro.events",
    "feltro.config",
    "feltro.legal",
    "feltro.view",
    "feltro.handstate",
    "feltro.dealing",
    "feltro.showdown",
    "feltro.hand",
    "feltro.table",
    "feltro.series",
    "feltro.history",
    "feltro.fairness",
    "feltro.fairdeal",
]
FORBIDDEN = ["asyncio", "numpy", "typer", "rich", "textual", "fastapi", "starlette", "uvicorn",
             "sqlite3", "socket"]


def _modules_after_import(names: list[str]) -> set[str]:
    code = (
        "import importlib, json, sys\n"
        f"for name in {names!r}:\n"
        "    importlib.import_module(name)\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(json.loads(out.stdout))


def test_core_imports_nothing_heavy() -> None:
    loaded = _modules_after_import(CORE)
    leaked = sorted(m for m in loaded if m.split(".")[0] in FORBIDDEN)
    assert leaked == []


def test_the_checker_sees_a_heavy_import() -> None:
    # Proves the check above can fail: the numpy evaluator does pull numpy in.
    loaded = _modules_after_import(["feltro.evaluator_np"])
    assert "numpy" in loaded
