"""Run feltro's benchmarks and collect their output.

Usage::

    python benchmarks/run.py                 # every benchmarks/bench_*.py
    python benchmarks/run.py evaluator       # only bench_evaluator.py
    python benchmarks/run.py --quick         # smaller samples (a smoke run; figures are rougher)

Each benchmark runs in a fresh interpreter (so import costs and caches do not leak between
them), prints a readable table, and writes a Markdown table to ``benchmarks/results/<name>.md``.
The runner echoes their output as it comes and ends with a summary.

The helpers below (:func:`text_table`, :func:`markdown_table`, :func:`machine_info`,
:func:`write_results`) are shared by the ``bench_*.py`` scripts, which import this module.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import importlib.metadata
import os
import platform
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"

Row = Sequence[object]


@dataclass
class Section:
    """One table of a benchmark's results."""

    title: str
    headers: Sequence[str]
    rows: Sequence[Row] = ()
    notes: Sequence[str] = ()


def _cells(headers: Sequence[str], rows: Sequence[Row]) -> list[list[str]]:
    return [list(headers)] + [[str(cell) for cell in row] for row in rows]


def _is_numeric(text: str) -> bool:
    stripped = text.replace(",", "").replace(".", "").replace("×", "").replace(" ", "")
    stripped = stripped.removesuffix("ms").removesuffix("s").removesuffix("/s")
    return stripped[:1].isdigit() or stripped[:2].lstrip("-").isdigit()


def text_table(headers: Sequence[str], rows: Sequence[Row]) -> str:
    """A plain-text table, numbers right-aligned."""
    cells = _cells(headers, rows)
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    lines = []
    for n, row in enumerate(cells):
        parts = [
            cell.rjust(w) if n and _is_numeric(cell) else cell.ljust(w)
            for cell, w in zip(row, widths, strict=True)
        ]
        lines.append("  ".join(parts).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def markdown_table(headers: Sequence[str], rows: Sequence[Row]) -> str:
    """A GitHub-flavoured Markdown table, numbers right-aligned."""
    cells = _cells(headers, rows)
    numeric = [
        all(_is_numeric(row[i]) or row[i] in ("", "—") for row in cells[1:]) and len(cells) > 1
        for i in range(len(headers))
    ]
    out = ["| " + " | ".join(cells[0]) + " |"]
    out.append("|" + "|".join("---:" if num else "---" for num in numeric) + "|")
    out.extend("| " + " | ".join(row) + " |" for row in cells[1:])
    return "\n".join(out)


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def machine_info(packages: Sequence[str] = ()) -> dict[str, str]:
    """Where the figures come from: Python, CPU, core count and package versions."""
    info = {
        "date": _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "platform": platform.platform(terse=True),
        "cpu": _cpu_model(),
        "cores": str(os.cpu_count()),
    }
    for name in packages:
        try:
            info[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            info[name] = "not installed"
    return info


def print_section(section: Section) -> None:
    """Print one section as a readable table."""
    print(f"\n## {section.title}\n")
    print(text_table(section.headers, section.rows))
    for note in section.notes:
        print(f"  * {note}")
    sys.stdout.flush()


def write_results(
    name: str,
    title: str,
    sections: Sequence[Section],
    info: dict[str, str],
    command: str,
) -> Path:
    """Write ``benchmarks/results/<name>.md`` and return its path."""
    RESULTS.mkdir(exist_ok=True)
    parts = [f"# {title}", "", f"Command: `{command}`", ""]
    parts.append(", ".join(f"{k}: {v}" for k, v in info.items()))
    for section in sections:
        parts += ["", f"## {section.title}", "", markdown_table(section.headers, section.rows)]
        if section.notes:
            parts.append("")
            parts.extend(f"- {note}" for note in section.notes)
    path = RESULTS / f"{name}.md"
    path.write_text("\n".join(parts) + "\n", encoding="utf-8")
    return path


def _discover(names: Sequence[str]) -> list[Path]:
    available = sorted(HERE.glob("bench_*.py"))
    if not names:
        return available
    chosen = []
    for name in names:
        stem = Path(name).stem
        stem = stem if stem.startswith("bench_") else f"bench_{stem}"
        path = HERE / f"{stem}.py"
        if not path.exists():
            known = ", ".join(p.stem.removeprefix("bench_") for p in available)
            raise SystemExit(f"no benchmark {name!r} (known: {known})")
        chosen.append(path)
    return chosen


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="benchmarks to run (default: all)")
    parser.add_argument("--quick", action="store_true", help="smaller samples")
    args = parser.parse_args(argv)

    summary: list[Row] = []
    for path in _discover(args.names):
        command = [sys.executable, str(path)] + (["--quick"] if args.quick else [])
        print(f"\n===== {path.name} =====", flush=True)
        start = time.perf_counter()
        with subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1
        ) as proc:
            assert proc.stdout is not None
            for line in proc.stdout:
                print(line, end="", flush=True)
            code = proc.wait()
        elapsed = time.perf_counter() - start
        result = RESULTS / f"{path.stem.removeprefix('bench_')}.md"
        shown = result.relative_to(HERE.parent) if result.exists() else "—"
        status = "ok" if code == 0 else f"exit {code}"
        summary.append((path.name, status, f"{elapsed:.1f} s", shown))

    print("\n===== summary =====")
    print(text_table(("benchmark", "status", "wall time", "results"), summary))
    return 0 if all(row[1] == "ok" for row in summary) else 1


if __name__ == "__main__":
    raise SystemExit(main())
