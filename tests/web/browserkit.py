"""Helpers of the browser tests: the real server in its own process, frames, screenshots.

Everything listens on 127.0.0.1 only.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SERVE = Path(__file__).with_name("serve.py")
SHOTS = ROOT / "artifacts" / "screenshots"
CHROMIUM = os.environ.get("FELTRO_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync"]
PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 2}
LAPTOP = {"viewport": {"width": 1280, "height": 800}}

try:
    from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright
except ImportError:  # pragma: no cover - depends on the machine
    sync_playwright = None  # type: ignore[assignment]


def missing() -> str | None:
    if sync_playwright is None:
        return "playwright is not installed (pip install playwright)"
    if not Path(CHROMIUM).exists():
        return f"no Chromium at {CHROMIUM} (apt-get install chromium)"
    return None


# --- the server ----------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass
class Server:
    """A feltro server process on 127.0.0.1 with its own data folder."""

    data: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None
    log: Path | None = None
    patches: tuple[str, ...] = ()
    """Patched servers of ``tests/server/patchedfair.py`` to run (``serve.py``'s PATCH)."""

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.log = self.data.parent / f"server-{self.port}-{time.monotonic_ns()}.log"
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        with self.log.open("wb") as out:
            self.process = subprocess.Popen(
                [sys.executable, str(SERVE), str(self.port), str(self.data), *self.patches],
                stdout=out, stderr=subprocess.STDOUT, env=env, cwd=ROOT)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited: {self.log.read_text()}")
            with contextlib.suppress(OSError), urllib.request.urlopen(
                    f"{self.url}/healthz", timeout=1) as response:
                if response.status == 200:
                    return
            time.sleep(0.1)
        raise RuntimeError("server did not start in 20 s")

    def kill(self) -> None:
        """``kill -9``: no goodbye, no flush beyond what the server committed."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)
        self.process = None

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        self.process = None

    def api(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(f"{self.url}{path}", data=data, method=method,
                                         headers={"content-type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read())

    def create_table(self, **choices: Any) -> dict[str, Any]:
        """A table with quick defaults for tests (the host's choices override them)."""
        body = {"name": "Mesa", "seats": 4, "stack": 20, "action_seconds": None,
                "between_hands_seconds": 0.6, "bot_seconds": 0.15, **choices}
        result: dict[str, Any] = self.api("POST", "/api/tables", body)
        return result


CARD = re.compile(r"^[2-9TJQKA][cdhs]$")


def cards_in(value: Any) -> set[str]:
    """Every string in a JSON value that is a card ("As", "Td")."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if CARD.match(item):
                found.add(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


@dataclass
class Frames:
    """Every websocket frame one page received, parsed."""

    who: str
    frames: list[dict[str, Any]] = field(default_factory=list)

    def states(self) -> list[dict[str, Any]]:
        return [f for f in self.frames if f.get("type") == "state"]


_PAGES: list[Page] = []
"""Pages whose frames are recorded: waiting on one lets Playwright deliver their events (the
sync API handles events only while a Playwright call is running, never during time.sleep)."""


def pump(seconds: float) -> None:
    """Wait *seconds* while Playwright delivers events (frames, console messages)."""
    for page in reversed(_PAGES):
        if not page.is_closed():
            page.wait_for_timeout(seconds * 1000)
            return
    time.sleep(seconds)


def record_frames(page: Page, who: str) -> Frames:
    """Record the frames *page* receives from now on (across reconnections)."""
    frames = Frames(who)
    _PAGES.append(page)

    def on_socket(ws: Any) -> None:
        def on_frame(payload: str | bytes) -> None:
            text = payload.decode() if isinstance(payload, bytes) else payload
            with contextlib.suppress(ValueError):
                frames.frames.append(json.loads(text))
        ws.on("framereceived", on_frame)

    page.on("websocket", on_socket)
    return frames


def check_secrecy(frames: Frames, *, may_hold_cards: bool) -> int:
    """No frame holds a card its receiver may not see: every card in a ``state`` frame is on
    the board, shown at the showdown (in that same frame), or the receiver's own hole card.
    Returns the number of frames checked."""
    for state in frames.states():
        table, you = state["table"], state["you"]
        hand = table.get("hand") or {}
        allowed = set(hand.get("board") or [])
        for seat in table["seats"]:
            allowed |= set(seat.get("shown") or [])
        own = set(you.get("hole") or [])
        if not may_hold_cards:
            assert not own, f"{frames.who} received hole cards {own}"
        seen = cards_in(table) | cards_in(you)
        leaked = seen - allowed - own
        assert not leaked, (f"{frames.who} received hidden cards {sorted(leaked)} in hand "
                            f"{hand.get('number')}")
    return len(frames.states())


AXE = Path(os.environ.get("FELTRO_AXE_DIR", Path.home() / ".cache" / "feltro-web")) / (
    "node_modules/axe-core/axe.min.js")
"""axe-core, installed by ``scripts/ci-browser-setup.sh`` (fetched code is not committed)."""


def serious_violations(page: Page) -> list[dict[str, Any]]:
    """axe-core's serious and critical accessibility violations on *page* as it is now."""
    assert AXE.is_file(), f"axe-core is not installed at {AXE}: run scripts/ci-browser-setup.sh"
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        # Through the debugging protocol, not a <script> tag: the pages' Content-Security-
        # Policy rightly refuses inline scripts, and the test's own tool must not weaken it.
        page.evaluate("(source) => { (0, eval)(source); }", AXE.read_text(encoding="utf-8"))
    found: list[dict[str, Any]] = page.evaluate("""async () => {
        const result = await axe.run(document, { resultTypes: ["violations"] });
        return result.violations.map(v => ({ id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.slice(0, 4).map(n => n.target.join(" ")) }));
    }""")
    return [v for v in found if v["impact"] in ("serious", "critical")]


STRAY = r"\b(null|undefined|NaN)\b|\[object Object\]"
"""A script's value printed by mistake: words people read never contain these."""

# The text nodes and the read-out attributes of a page whose words match STRAY, each with the
# element around it (the pattern comes as ``pattern``).
_FIND_STRAY = """(pattern) => {
  const re = new RegExp(pattern);
  const found = [];
  if (!document.body) return found;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (re.test(node.textContent)) found.push(node.parentElement.outerHTML.slice(0, 200));
  }
  for (const el of document.body.querySelectorAll("[title], [aria-label], [alt], [placeholder]")) {
    for (const name of ["title", "aria-label", "alt", "placeholder"]) {
      const value = el.getAttribute(name);
      if (value !== null && re.test(value)) {
        found.push(`${name}="${value}" on ${el.outerHTML.slice(0, 120)}`);
      }
    }
  }
  return found;
}"""

# Every page of new_context reports what matches STRAY as the page changes (scans at most every
# 100 ms), so that a word printed by mistake in any state of any test is seen, not only in the
# states a test looks at.
_WATCH_STRAY = f"""(() => {{
  const find = {_FIND_STRAY};
  const READ_OUT = ["title", "aria-label", "alt", "placeholder"];
  const told = new Set();
  let due = false;
  const scan = () => {{
    due = false;
    for (const text of find({json.dumps(STRAY)})) {{
      if (!told.has(text)) {{
        told.add(text);
        window.__feltroStray(location.pathname + ": " + text);
      }}
    }}
  }};
  const start = () => new MutationObserver(() => {{
    if (!due) {{ due = true; setTimeout(scan, 100); }}
  }}).observe(document.documentElement, {{ subtree: true, childList: true, characterData: true,
                                           attributeFilter: READ_OUT }});
  if (document.documentElement) start();
  else document.addEventListener("DOMContentLoaded", start);
}})()"""

STRAY_SEEN: list[str] = []
"""What the pages of the test running now printed by mistake, and their uncaught script errors;
``conftest.py`` fails a test that leaves anything here."""


def _watch_errors(page: Page) -> None:
    """Note every error *page*'s scripts throw and do not catch (on feltro's pages: a tab's
    ``about:blank``, before it opens one, runs the tests' own start-up scripts only)."""
    def thrown(error: Any) -> None:
        if not page.url.startswith("about:"):
            STRAY_SEEN.append(f"{page.url}: uncaught {error}")

    page.on("pageerror", thrown)


def stray_values(page: Page) -> list[str]:
    """What *page* shows now that matches :data:`STRAY`, with the element around it."""
    found: list[str] = page.evaluate(_FIND_STRAY, STRAY)
    return found


def shot(page: Page, name: str) -> Path:
    """A full-page screenshot for people to look at, after checking that nothing on the page
    is a script's value printed by mistake (:func:`stray_values`)."""
    stray = stray_values(page)
    assert stray == [], f"{name}: {stray}"
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def wait_until(check: Callable[[], bool], timeout: float = 20.0, step: float = 0.1,
               what: str = "condition") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        pump(step)
    raise AssertionError(f"timed out waiting for {what}")


def new_context(browser: Browser, *, phone: bool = True, lang: str = "en",
                **extra: Any) -> BrowserContext:
    options: dict[str, Any] = dict(PHONE if phone else LAPTOP)
    options.update(extra)
    context = browser.new_context(locale=lang, **options)
    # (about:blank, where every new tab starts, has no localStorage)
    context.add_init_script(f"try {{ if (!localStorage.getItem('feltro.lang')) "
                            f"localStorage.setItem('feltro.lang', {json.dumps(lang)}) }} "
                            f"catch {{}}")
    context.expose_binding("__feltroStray", lambda _source, text: STRAY_SEEN.append(text))
    context.add_init_script(_WATCH_STRAY)
    context.on("page", _watch_errors)
    return context


__all__ = [
    "CHROMIUM",
    "CHROMIUM_FLAGS",
    "LAPTOP",
    "PHONE",
    "STRAY_SEEN",
    "Frames",
    "Server",
    "cards_in",
    "check_secrecy",
    "missing",
    "new_context",
    "pump",
    "record_frames",
    "serious_violations",
    "shot",
    "stray_values",
    "wait_until",
]
