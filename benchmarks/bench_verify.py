"""How long verifying a night of the verifiable shuffle takes (docs/fairness.md, issue 12).

Usage::

    python benchmarks/bench_verify.py            # 7 runs of each
    python benchmarks/bench_verify.py --quick    # 3 runs

One 300-hand night (4 players, 3 of them contributing sealed randomness, everybody checking or
calling; :func:`feltro.fairdeal.sample_night`) is exported to JSON and verified:

* in Python, in process: parsing the JSON and :func:`feltro.fairness.verify_hands`;
* as a user runs it: the whole ``feltro verify FILE`` command in a fresh interpreter
  (start-up and imports included);
* in the browser: ``verifySeries`` of ``static/js/verify.js`` (WebCrypto) in Debian's Chromium,
  headless, in a 360x740 phone context, timed inside the page with ``performance.now()``
  (skipped with a note when Playwright or Chromium is missing).

Goals (issue 12): ``feltro verify`` under 1 s, the browser under 3 s. Figures are medians.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from feltro.fairdeal import sample_night
from feltro.fairness import read_export, verify_hands
from run import Section, machine_info, print_section, write_results

ROOT = Path(__file__).resolve().parents[1]
VERIFY_JS = ROOT / "src" / "feltro" / "server" / "static" / "js" / "verify.js"
CHROMIUM = os.environ.get("FELTRO_CHROMIUM", "/usr/bin/chromium")
HANDS = 300


def _cpu() -> float:
    """CPU seconds of this process and its finished children (user + system)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _median_ms(run: Callable[[], object], repeat: int) -> tuple[str, str, str]:
    """Median wall, worst wall and median CPU time of *repeat* runs."""
    walls, cpus = [], []
    for _ in range(repeat):
        start, cpu = time.perf_counter(), _cpu()
        run()
        walls.append(time.perf_counter() - start)
        cpus.append(_cpu() - cpu)
    return (f"{statistics.median(walls) * 1000:.0f} ms", f"{max(walls) * 1000:.0f} ms",
            f"{statistics.median(cpus) * 1000:.0f} ms")


def _python(text: str) -> None:
    verdict = verify_hands(*read_export(json.loads(text)))
    assert verdict.ok, verdict


def _command(path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run([sys.executable, "-m", "feltro", "verify", str(path), "--lang", "en"],
                          capture_output=True, text=True, env=env, check=False)
    assert done.returncode == 0, done.stderr


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


def _browser(text: str, repeat: int) -> tuple[str, str, str] | str:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return "playwright is not installed"
    if not Path(CHROMIUM).exists():
        return f"no Chromium at {CHROMIUM}"
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "static" / "js").mkdir(parents=True)
        shutil.copy(VERIFY_JS, Path(folder) / "static" / "js" / "verify.js")
        (Path(folder) / "index.html").write_text(
            '<!doctype html><meta charset="utf-8"><script type="module">import * as v from '
            '"./static/js/verify.js"; window.verify = v; window.ready = true;</script>')
        httpd = http.server.ThreadingHTTPServer(
            ("127.0.0.1", 0), functools.partial(_Quiet, directory=folder))
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                            args=["--no-sandbox", "--disable-gpu"])
                context = browser.new_context(viewport={"width": 360, "height": 740},
                                              is_mobile=True, has_touch=True,
                                              device_scale_factor=2)
                page = context.new_page()
                page.goto(f"http://127.0.0.1:{httpd.server_address[1]}/index.html")
                page.wait_for_function("window.ready === true")
                times = []
                for _ in range(repeat):
                    result = page.evaluate("""async (text) => {
                        const start = performance.now();
                        const r = await window.verify.verifySeries(text);
                        return { ms: performance.now() - start, ok: r.ok };
                    }""", text)
                    assert result["ok"], result
                    times.append(result["ms"])
                browser.close()
        finally:
            httpd.shutdown()
            httpd.server_close()
    return f"{statistics.median(times):.0f} ms", f"{max(times):.0f} ms", "-"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer runs")
    args = parser.parse_args(argv)
    repeat = 3 if args.quick else 7
    text = json.dumps(sample_night(HANDS)[0].export())
    rows: list[tuple[str, ...]] = []
    notes = [f"one {HANDS}-hand night, {len(text) / 1e6:.2f} MB of JSON; median and worst of "
             f"{repeat} runs",
             "goals (issue 12): `feltro verify` under 1 s; the browser under 3 s",
             "CPU = user + system time of the process (and of the `feltro verify` child): the "
             "figure a loaded machine does not inflate; the browser's is its wall time in the "
             "page (performance.now)"]
    rows.append(("Python, in process (parse + verify_hands)", *_median_ms(
        functools.partial(_python, text), repeat)))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "night.json"
        path.write_text(text)
        rows.append(("`feltro verify FILE` (whole command, fresh interpreter)", *_median_ms(
            functools.partial(_command, path), repeat)))
    browser = _browser(text, repeat)
    if isinstance(browser, str):
        notes.append(f"browser skipped: {browser}")
    else:
        rows.append(("Chromium verify.js, 360x740 phone context (WebCrypto)", *browser))
    headers = ("verifier", "median wall", "worst wall", "median CPU")
    section = Section(f"Verifying a {HANDS}-hand night", headers, rows, notes)
    print_section(section)
    command = "python benchmarks/bench_verify.py" + (" --quick" if args.quick else "")
    write_results("verify", "Verifiable shuffle benchmark", [section],
                  machine_info(["playwright"]), command)
    return 0


if __name__ == "__main__":
    sys.exit(main())
