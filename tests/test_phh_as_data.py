"""PHH is kept as data until it is written: no code of feltro reads PHH text it wrote back.

A record is built from the hand (:func:`feltro.history.record_of`, with ``visible_to`` for a
player's own view) and written once; a caller that needs the cards or the board asks the hand
(its events), never the lines. Only the history package reads PHH action lines (that is its
job: files people give it); it parses them with :mod:`feltro.history.action_lines`.

Two checks over ``src/feltro`` outside ``history/``:

* **No regex over PHH lines**: no regular expression that matches a whole PHH action line.
* **No string surgery on action lines**: no ``split``/``startswith``/regex call on a value
  taken from a record's ``actions`` (a loop or comprehension over ``X.actions``, or
  ``X.actions[i]``).

The negative controls run the checks on the four parse-backs this replaced (server downloads,
fair-play exports, the fair-play salts, the environment's observation) and see each fail.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "feltro"
READER = SRC / "history"
"""The package that reads and writes PHH; everything else keeps records as data."""

SAMPLE_LINES = ("d dh p1 AsKs", "d dh p2 ????", "d dh p3 7c", "d db 7h8h9h", "d db Tc",
                "p1 f", "p2 cc", "p3 cbr 6", "p1 sm AsKs", "p2 sm", "p2 cbr 6 # all in")
_RE_FUNCTIONS = {"compile", "match", "fullmatch", "search", "sub", "subn", "split", "findall",
                 "finditer"}
_SURGERY = {"split", "rsplit", "partition", "rpartition", "startswith", "endswith", "strip",
            "lstrip", "rstrip", "find", "rfind", "index", "rindex", "replace", "removeprefix",
            "removesuffix", "count", "match", "fullmatch", "search", "sub", "subn", "findall",
            "finditer"}


def _regex_problems(tree: ast.AST) -> list[str]:
    """Patterns passed to ``re`` that match a whole PHH action line."""
    found: list[str] = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "re"
                and node.func.attr in _RE_FUNCTIONS and node.args):
            continue
        pattern = node.args[0]
        if not (isinstance(pattern, ast.Constant) and isinstance(pattern.value, str)):
            continue
        try:
            compiled = re.compile(pattern.value)
        except re.error:
            continue
        hits = [line for line in SAMPLE_LINES if compiled.fullmatch(line)]
        if hits:
            found.append(f"line {node.lineno}: regex {pattern.value!r} reads PHH lines "
                         f"({hits[0]!r})")
    return found


def _reads_actions(node: ast.AST) -> bool:
    """Whether *node* takes something out of a record's ``actions``."""
    return any(isinstance(n, ast.Attribute) and n.attr == "actions" for n in ast.walk(node))


def _names(target: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}


def _line_names(tree: ast.AST) -> set[str]:
    """Names bound, by a loop or a comprehension, to values taken from ``X.actions``."""
    bound: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.For | ast.comprehension) and _reads_actions(node.iter):
            bound |= _names(node.target)
    return bound


def _is_line(node: ast.AST, lines: set[str]) -> bool:
    """*node* is an action line: a name bound to one, or ``X.actions[i]``."""
    if isinstance(node, ast.Name):
        return node.id in lines
    return isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) \
        and node.value.attr == "actions"


def _surgery_problems(tree: ast.AST) -> list[str]:
    """String methods or regex calls on PHH action lines."""
    lines = _line_names(tree)
    found: list[str] = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        subject = node.func.value
        on_line = node.func.attr in _SURGERY and _is_line(subject, lines)
        line_argument = node.func.attr in _RE_FUNCTIONS and any(
            _is_line(arg, lines) for arg in node.args)
        if on_line or line_argument:
            found.append(f"line {node.lineno}: .{node.func.attr}() on a PHH action line")
    return found


def problems(source: str) -> list[str]:
    tree = ast.parse(source)
    return _regex_problems(tree) + _surgery_problems(tree)


def _product_modules() -> dict[str, str]:
    return {str(path.relative_to(SRC)): path.read_text(encoding="utf-8")
            for path in sorted(SRC.rglob("*.py")) if READER not in path.parents}


def test_no_phh_text_is_parsed_back_outside_the_history_package() -> None:
    modules = _product_modules()
    assert "server/downloads.py" in modules
    assert "env/game.py" in modules
    assert "history/phh.py" not in modules
    found = [f"{name}: {problem}" for name, text in modules.items()
             for problem in problems(text)]
    assert found == []


def test_the_reader_itself_is_seen_by_the_checks() -> None:
    # The history package does read lines (files people give it): the checks see it there.
    text = (READER / "replay.py").read_text(encoding="utf-8") + \
        (READER / "action_lines.py").read_text(encoding="utf-8")
    assert problems(text) != []


# --- negative controls: the code this replaced ------------------------------------------------

OLD_DOWNLOAD = '''
_DEAL = re.compile(r"^d dh p(\\d+) (\\S+)(.*)$")

def redact_record(record, position):
    actions = []
    for line in record.actions:
        match = _DEAL.match(line)
        if match and int(match.group(1)) - 1 != position:
            line = f"d dh p{match.group(1)} {'??' * (len(match.group(2)) // 2)}{match.group(3)}"
        actions.append(line)
    return actions
'''
OLD_FAIR_CARDS = '''
_DEAL_LINE = re.compile(r"^d (dh) p(\\d+) (\\S+)|^d (db) (\\S+)")

def phh_dealt_cards(record):
    for line in record.actions:
        match = _DEAL_LINE.match(line.split("#")[0].strip())
'''
OLD_FAIR_SALTS = '''
def phh(self, record, number, players, position):
    cards = sum(len(line.split()[2]) // 2 for line in record.actions
                if line.startswith("d db "))
'''
OLD_OBSERVATION = '''
def observation_dict(self, agent):
    record = record_of(hand)
    lines = []
    for line in record.actions:
        words = line.split()
        if words[:2] == ["d", "dh"] and words[2] != f"p{p + 1}":
            line = f"d dh {words[2]} " + "??" * (len(words[3]) // 2)
        lines.append(line)
'''
OLD_INDEXED = '''
def board_of(record):
    return record.actions[4].split()[2]
'''


def test_the_checks_see_each_old_parse_back() -> None:
    assert len(problems(OLD_DOWNLOAD)) == 2  # the regex, and its match on a line
    assert len(problems(OLD_FAIR_CARDS)) == 2  # the regex, and split of a line
    assert len(problems(OLD_FAIR_SALTS)) == 2  # split and startswith in a comprehension
    assert len(problems(OLD_OBSERVATION)) == 1  # split of a line
    assert len(problems(OLD_INDEXED)) == 1


def test_the_checks_let_records_be_built_and_written() -> None:
    fine = '''
def download(store, seat, position):
    record = store.export_phh(3, visible_to=position)
    text = dumps(record)
    for action in record.parsed_actions():
        if action.verb is Verb.DEAL_BOARD:
            board = action.cards
    count = len(record.actions)
    return text.split("\\n"), "p1 f".startswith("p")
'''
    assert problems(fine) == []
