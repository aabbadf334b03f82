"""The rules core stays pure and light: no interface, network, clock or numpy imports; and
imports inside the package go one way: core <- series <- interfaces."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

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
    "feltro.betting",
    "feltro.rounds",
    "feltro.dealing",
    "feltro.showdown",
    "feltro.hand",
    "feltro.seating",
    "feltro.series",
    "feltro.levels",
    "feltro.entries",
    "feltro.history",
    "feltro.fairness",
    "feltro.fairness_scheme",
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


# --- import direction inside the package: core <- series <- interfaces ------------------------

# Each module's layer, by its name under ``feltro`` (a package counts for all its modules). A
# module may import from its own layer and the ones below, never from one above. A new module
# must be placed here (the test fails on an unknown one).
LAYERS: dict[str, int] = {
    **dict.fromkeys(["", "_evaltables", "actions", "betting", "cards", "config", "dealing",
                     "equity", "errors", "evaluator", "evaluator_np", "events", "hand",
                     "handstate", "legal", "names", "pots", "rounds", "showdown", "view",
                     "fairness", "fairness_scheme", "languages"], 0),
    **dict.fromkeys(["bots", "courtesy", "filelock", "history", "series", "session",
                     "series_log", "seating",
                     "fairdeal", "seal", "paths", "sqlitefaults", "sqlitelog", "levels",
                     "seriesconfig", "seriesdata", "entries", "serieshistory", "jsondepth"], 1),
    **dict.fromkeys(["__main__", "cli", "i18n", "server", "tui", "rules", "env",
                     "arena", "remote"], 2),
    **dict.fromkeys(["playernames"], 0), **dict.fromkeys(["season"], 1),
}
LAYER_NAMES = ("core", "series", "interfaces")
SOURCE = Path(__file__).resolve().parents[1] / "src" / "feltro"


def _layer(module: str) -> int | None:
    parts = module.split(".")
    assert parts[0] == "feltro"
    return LAYERS.get(parts[1] if len(parts) > 1 else "")


def _imported(tree: ast.AST, known: set[str]) -> set[str]:
    """The feltro modules *tree* imports, anywhere (functions and TYPE_CHECKING included)."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == "feltro")
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module.split(".")[0] != "feltro":
                continue
            found.add(node.module)
            # ``from feltro import hand`` imports the module feltro.hand.
            found.update(f"{node.module}.{a.name}" for a in node.names
                         if f"{node.module}.{a.name}" in known)
    return found


def _violations(sources: dict[str, str]) -> list[str]:
    known = set(sources)
    problems: list[str] = []
    for module, text in sorted(sources.items()):
        mine = _layer(module)
        if mine is None:
            problems.append(f"{module}: not placed in a layer (add it to LAYERS)")
            continue
        for target in sorted(_imported(ast.parse(text), known)):
            theirs = _layer(target)
            if theirs is not None and theirs > mine:
                problems.append(f"{module} ({LAYER_NAMES[mine]}) imports {target} "
                                f"({LAYER_NAMES[theirs]})")
    return problems


def _package_sources() -> dict[str, str]:
    sources: dict[str, str] = {}
    for path in SOURCE.rglob("*.py"):
        parts = list(path.relative_to(SOURCE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        sources[".".join(parts)] = path.read_text(encoding="utf-8")
    return sources


def test_imports_go_one_way_core_series_interfaces() -> None:
    sources = _package_sources()
    assert "feltro.hand" in sources
    assert "feltro.server.app" in sources
    assert _violations(sources) == []


def test_the_layer_checker_sees_a_wrong_way_import() -> None:
    # Proves the check above can fail, for each kind of wrong direction and import form.
    sources = {
        "feltro.hand": "def f():\n    from feltro.series_log import SeriesStore\n",
        "feltro.showdown": "from feltro import session\n",
        "feltro.series": "import feltro.tui.app\n",
        "feltro.series_log": "from feltro.hand import Hand\n",  # downwards: fine
        "feltro.session": "", "feltro.tui.app": "", "feltro.newthing": "",
    }
    assert _violations(sources) == [
        "feltro.hand (core) imports feltro.series_log (series)",
        "feltro.newthing: not placed in a layer (add it to LAYERS)",
        "feltro.series (series) imports feltro.tui.app (interfaces)",
        "feltro.showdown (core) imports feltro.session (series)",
    ]
