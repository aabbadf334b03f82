"""Refusals and errors travel as data: no code of feltro reads English message text back.

Two checks, each over the whole product (``src/feltro`` Python and the web pages' scripts):

* **Regular expressions are deliberate.** Every pattern in the product is listed below with
  what it reads (cards, actions, PHH, tokens, catalogue placeholders...). A new one fails until
  it is listed, so that a regex over a message ("B8: ...", "p2", "call 4 more") cannot slip
  in: word the message from its data instead (``Refusal``: rule, reason code, numbers).
* **No string surgery on messages.** No ``split``/``partition``/``startswith``/regex call whose
  subject or argument is message text: ``str(exc)`` of a caught exception, or anything named
  ``reason``/``message``/``refusals`` (Python), ``.reason``/``.message`` (JavaScript).

The negative controls at the end run the checks on the code this replaced and see them fail.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "feltro"
SCRIPTS = SRC / "server" / "static" / "js"

ALLOWED_PY = {
    ("actions.py", r"[0-9]+"): "amounts in typed actions",
    ("actions.py", r"(r|b|raise|bet|cbr)([0-9]+)"): "typed raises",
    ("cards.py", r"(10|[2-9TJQKA])([cdhs♣♦♥♠♧♢♡♤])"): "typed cards",
    ("cards.py", r"[\s,;]*"): "separators between typed cards",
    ("cli/play.py", r"([01]?[0-9]|2[0-3])[:h.]([0-5][0-9])"): "a typed stop time",
    ("cli/failure.py",
     r"Input should be greater than or equal to (?P<limit>\S+?)\.?$"):
        "Click's usage errors (third-party English)",
    ("cli/failure.py",
     r"Input should be less than or equal to (?P<limit>\S+?)\.?$"):
        "Click's usage errors (third-party English)",
    ("cli/failure.py",
     r"Input should be a valid integer"):
        "Click's usage errors (third-party English)",
    ("cli/failure.py",
     r"Input should be a valid number"):
        "Click's usage errors (third-party English)",
    ("cli/failure.py",
     r"No such option: (?P<option>\S+)"):
        "Click's usage errors (third-party English)",
    ("cli/failure.py",
     r"No such command '(?P<command>[^']*)'"):
        "Click's usage errors (third-party English)",
    ("cli/failure.py",
     r"Option '(?P<option>[^']+)' requires an argument"):
        "Click's usage errors (third-party English)",
    ("cli/failure.py",
     r"Option '(?P<option>[^']+)' does not take a value"):
        "Click's usage errors (third-party English)",
    ("cli/failure.py",
     r"Missing argument '(?P<argument>[^']+)'"):
        "Click's usage errors (third-party English)",
    ("cli/failure.py",
     r"Missing option '(?P<option>[^']+)'"):
        "Click's usage errors (third-party English)",
    ("cli/failure.py",
     r"Got unexpected extra arguments? \((?P<extra>.*)\)"):
        "Click's usage errors (third-party English)",
    ("cli/failure.py", r"Missing command"): "Click's usage errors (third-party English)",
    ("rules/__init__.py", r"\b([GDBPX]\d{1,2})\b"): "rule ids in the rules document",
    ("rules/__init__.py", r"^(#{1,3}) "): "headings of the rules document",
    ("rules/__init__.py", r"^### ([GDBPX]\d{1,2}) · (.+?)\s*$"):
        "rule headings of the rules document",
    ("history/action_lines.py", r"p([1-9][0-9]*)"): "PHH player tokens",
    ("server/journal.py", r"[A-Za-z0-9_-]{1,64}"): "table ids in journal file names",
    ("history/phh.py", r"[A-Za-z0-9_-]+"): "PHH bare keys",
    ("history/decimal_scale.py", r"^\[[^\[\]]+\]\s*(#.*)?$"):
        "table headers of a .phhs file (read table by table when its TOML is broken)",
    ("server/security.py", r"[A-Za-z0-9_-]{32,}"): "tokens redacted from log lines",
    ("remote/link.py",
     r"^(?P<prefix>/.*?)?/(?P<kind>join|play|table|ws|host)/(?P<table>[A-Za-z0-9_-]{1,64})/?$"):
        "the path of a table link (feltro join URL)",
    ("cli/season.py", r"(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})"):
        "a terminal series' id (when it started)",
    ("season/folder.py", r"[a-z0-9]+(?:-[a-z0-9]+)*"): "a season's slug (file name, address)",
    ("season/folder.py", r"[a-z0-9]+"): "the words of a season's name, made its slug",
    ("server/security.py", r"(?i)(token\W{0,4})[A-Za-z0-9_-]+"):
        "what follows a token key in a log line, redacted",
    ("server/security.py", r"^(TEXT|BINARY|CONT) .*(\[\d+ bytes(?:, continued)?\])$"):
        "a websocket frame as the websockets library logs it (its body cut from the log)",
    ("remote/lan.py", r"^[A-Za-z0-9_-]{1,32}$"): "a table id announced on the LAN",
}
ALLOWED_JS = {
    ("i18n.js", r"\{(\w+)\}"): "catalogue placeholders",
    ("net.js", r"^#"): "the link's fragment",
    ("rulelinks.js", r"\b([GDBPX]\d{1,2})\b"): "rule ids on a page, made links (never read)",
    ("ui.js", r"<svg[^>]*xmlns="): "the QR code's SVG",
    ("ui.js", r'width="(\d+)"'): "the QR code's SVG",
    ("ui.js", r'height="(\d+)"'): "the QR code's SVG",
    ("season.js", r"^\d{1,4}$"): "a typed points table",
    ("season.js", r"^feltro\.(host|seat)\.([A-Za-z0-9_-]{1,64})$"):
        "the tables whose tokens this device keeps",
}

_RE_FUNCTIONS = {"compile", "match", "fullmatch", "search", "sub", "subn", "split", "findall",
                 "finditer"}
_SURGERY = {"split", "rsplit", "partition", "rpartition", "removeprefix", "removesuffix",
            "startswith", "endswith", "find", "rfind", "index", "rindex", "match", "fullmatch",
            "search", "sub", "subn", "findall", "finditer"}
_MESSAGE_NAMES = {"reason", "message", "refusals", "refusal_message"}


# --- Python ---------------------------------------------------------------------------------


def python_patterns(name: str, source: str) -> Iterator[tuple[str, str | None, int]]:
    """``(file, pattern, line)`` of every ``re`` call (pattern ``None`` when not a literal)."""
    for node in ast.walk(ast.parse(source)):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "re"
                and node.func.attr in _RE_FUNCTIONS):
            first = node.args[0] if node.args else None
            literal = first.value if isinstance(first, ast.Constant) else None
            yield name, literal if isinstance(literal, str) else None, node.lineno


def _caught_names(tree: ast.AST) -> set[str]:
    return {h.name for h in ast.walk(tree) if isinstance(h, ast.ExceptHandler) and h.name}


def _is_message(node: ast.AST, caught: set[str]) -> bool:
    for part in ast.walk(node):
        if isinstance(part, ast.Name) and part.id in _MESSAGE_NAMES:
            return True
        if isinstance(part, ast.Attribute) and part.attr in _MESSAGE_NAMES:
            return True
        if (isinstance(part, ast.Call) and isinstance(part.func, ast.Name)
                and part.func.id == "str" and part.args
                and isinstance(part.args[0], ast.Name) and part.args[0].id in caught):
            return True
    return False


def python_surgery(name: str, source: str) -> Iterator[tuple[str, int]]:
    """``(file, line)`` of every string or regex operation on message text."""
    tree = ast.parse(source)
    caught = _caught_names(tree)
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in _SURGERY):
            continue
        subjects = [node.func.value, *node.args]
        if any(_is_message(subject, caught) for subject in subjects):
            yield name, node.lineno


def _python_files() -> Iterator[tuple[str, str]]:
    for path in sorted(SRC.rglob("*.py")):
        yield path.relative_to(SRC).as_posix(), path.read_text("utf-8")


# --- JavaScript -----------------------------------------------------------------------------

_REGEX_BEFORE = set("(,=:[!&|?{};+-*%<>~^")
_KEYWORDS_BEFORE = ("return", "typeof", "case", "of", "in")


def js_regexes(source: str) -> Iterator[tuple[str, int]]:
    """``(pattern, line)`` of every regex literal: a small scanner that skips strings, template
    literals and comments, and tells a regex from a division by what stands before it."""
    i, n, line = 0, len(source), 1
    last = ""  # the last significant code character or word
    stack: list[str] = []  # "`" inside a template literal, "{" inside its ${...}
    while i < n:
        c = source[i]
        if c == "\n":
            line += 1
        if stack and stack[-1] == "`":
            if c == "\\":
                i += 2
                continue
            if c == "`":
                stack.pop()
                last = "x"
            elif source.startswith("${", i):
                stack.append("{")
                i += 2
                last = "("
                continue
            i += 1
            continue
        if c in "\"'":
            j = i + 1
            while j < n and source[j] != c:
                j += 2 if source[j] == "\\" else 1
            i, last = j + 1, "x"
            continue
        if c == "`":
            stack.append("`")
            i += 1
            continue
        if c == "}" and stack and stack[-1] == "{":
            stack.pop()
            i += 1
            continue
        if c == "{" and stack:
            stack.append("{")
        if source.startswith("//", i):
            i = source.find("\n", i)
            i = n if i < 0 else i
            continue
        if source.startswith("/*", i):
            end = source.find("*/", i + 2)
            line += source.count("\n", i, end)
            i = end + 2
            continue
        if c == "/" and (last in _REGEX_BEFORE or last in _KEYWORDS_BEFORE or not last):
            j, in_class = i + 1, False
            while j < n and (in_class or source[j] != "/"):
                if source[j] == "\\":
                    j += 1
                elif source[j] == "[":
                    in_class = True
                elif source[j] == "]":
                    in_class = False
                j += 1
            yield source[i + 1:j], line
            j += 1
            while j < n and source[j].isalpha():
                j += 1
            i, last = j, "x"
            continue
        if c.isalnum() or c in "_$":
            j = i
            while j < n and (source[j].isalnum() or source[j] in "_$"):
                j += 1
            last = source[i:j]
            i = j
            continue
        if not c.isspace():
            last = c
        i += 1


_JS_SURGERY = re.compile(
    r"(?:\.(?:reason|message)\s*(?:\|\|\s*\"\"\s*)?\)?\s*"
    r"\.(?:split|replace|replaceAll|match|matchAll|search|startsWith|endsWith|indexOf|slice)\()"
    r"|(?:\.(?:test|exec|match|matchAll|split|replace|replaceAll)\([^)]*\.(?:reason|message)\b)")


def js_surgery(source: str) -> Iterator[int]:
    """Lines where a string or regex operation takes an error's ``.reason``/``.message``."""
    for number, text in enumerate(source.splitlines(), 1):
        if _JS_SURGERY.search(text):
            yield number


def _scripts() -> Iterator[tuple[str, str]]:
    for path in sorted(SCRIPTS.glob("*.js")):
        yield path.name, path.read_text("utf-8")


# --- the checks -----------------------------------------------------------------------------


def _unlisted_python(files: list[tuple[str, str]]) -> list[str]:
    return [f"{name}:{line}: {pattern!r}" for name, source in files
            for _, pattern, line in python_patterns(name, source)
            if pattern is None or (name, pattern) not in ALLOWED_PY]


def _unlisted_js(files: list[tuple[str, str]]) -> list[str]:
    return [f"{name}:{line}: /{pattern}/" for name, source in files
            for pattern, line in js_regexes(source) if (name, pattern) not in ALLOWED_JS]


def _surgery(py: list[tuple[str, str]], js: list[tuple[str, str]]) -> list[str]:
    found = [f"{name}:{line}" for name, source in py for _, line in python_surgery(name, source)]
    found += [f"{name}:{line}" for name, source in js for line in js_surgery(source)]
    return found


def test_every_regex_in_the_python_is_a_listed_one() -> None:
    files = list(_python_files())
    assert not _unlisted_python(files), "regexes not listed (over message text?)"
    used = {(name, pattern) for name, source in files
            for _, pattern, _line in python_patterns(name, source)}
    assert not set(ALLOWED_PY) - used, "listed regexes that are gone: unlist them"


def test_every_regex_in_the_pages_is_a_listed_one() -> None:
    files = list(_scripts())
    assert not _unlisted_js(files), "regexes not listed (over message text?)"
    used = {(name, pattern) for name, source in files for pattern, _ in js_regexes(source)}
    assert not set(ALLOWED_JS) - used, "listed regexes that are gone: unlist them"


def test_no_string_surgery_on_messages() -> None:
    assert not _surgery(list(_python_files()), list(_scripts()))


# --- negative controls: the code this replaced --------------------------------------------

OLD_MODEL = r'''
import re
_POSITION = re.compile(r"\bp(\d{1,2})\b")

def precheck(action, legal):
    reason = legal.refusals.get("check", "B3: cannot check facing a bet")
    raise ProtocolError(1, reason, rule=reason.split(":", 1)[0])
'''
OLD_REPLAY = '''
def rule_of(exc):
    try:
        pass
    except ValueError as exc2:
        return str(exc2).partition(":")[0]
'''
OLD_UI = r'''
const REFUSAL_PATTERNS = {
  B3: [/call (\d+) more/, ["owed"]],
  B8: [/all-in to (\d+) /, ["bet"]],
};
export function ruleReason(text, kind) {
  const match = /^([A-Z]\d+):\s*(.*)$/s.exec(text || "");
  return t(`refusal.${kind}`, match);
}
const half = width / 2, other = (a) / 3;
'''
OLD_NET = '''
      } else if (msg.type === "bye" && /no longer valid/.test(msg.reason || "")) {
'''


def test_the_checks_catch_the_old_refusal_parsing() -> None:
    py = [("server/model.py", OLD_MODEL), ("history/replay.py", OLD_REPLAY)]
    assert _unlisted_python(py) == [r"server/model.py:3: '\\bp(\\d{1,2})\\b'"]
    assert _surgery(py, []) == ["server/model.py:7", "history/replay.py:6"]
    js = [("ui.js", OLD_UI), ("net.js", OLD_NET)]
    assert [entry.split(": ", 1)[1] for entry in _unlisted_js(js)] == [
        r"/call (\d+) more/", r"/all-in to (\d+) /", r"/^([A-Z]\d+):\s*(.*)$/",
        "/no longer valid/"]
    assert _surgery([], js) == ["net.js:2"]
