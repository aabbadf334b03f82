"""Nothing in the repository points outside it, every Markdown link resolves, and every rule id
that a message, catalogue, page script, error, document or test name cites is a rule that the
rules document (``src/feltro/rules/*.md``) defines.

Each checker is a plain function over text, so the tests at the bottom can prove that it fails
on a broken link, an outside path and an undefined id.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

from feltro.i18n import LANGUAGES, catalogue
from feltro.rules import RULE_ID_PATTERN, RULE_IDS

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "feltro"
_SKIP_DIRS = {".git", ".venv", "venv", "node_modules", "build", "dist", "__pycache__",
              "__snapshots__", ".mypy_cache", ".ruff_cache", ".pytest_cache", ".hypothesis"}

# Words that look like rule ids on purpose: examples of an id the document does not define.
NOT_RULES = {
    ("src/feltro/rules/__init__.py", "X12"),
    ("src/feltro/server/static/js/rulelinks.js", "X99"),
    ("tests/test_rules_cli.py", "X12"),
    *(("tests/test_links_and_rule_ids.py", rule) for rule in ("P9", "B12", "X12", "X99")),
}

# A path or name outside the repository: the shared rules, the seeds, the PHH notes.
OUTSIDE = re.compile(r"\.\./shared|shared/(?:RULES|PHH)|\bPHH\.md\b|\bseeds?/|\bseed 0\d\d\b",
                     re.IGNORECASE)


def _files(patterns: Iterable[str]) -> Iterator[Path]:
    for pattern in patterns:
        for path in sorted(ROOT.glob(pattern)):
            parts = path.relative_to(ROOT).parts
            if path.is_file() and not any(p in _SKIP_DIRS or p.endswith(".egg-info")
                                          for p in parts):
                yield path


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


# --- Markdown links ----------------------------------------------------------------------------

_LINK = re.compile(r"!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_FENCE = re.compile(r"^\s*(```|~~~)")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_HTML_ID = re.compile(r"""\bid=["']([^"']+)["']""")


def _prose(text: str) -> Iterator[tuple[int, str]]:
    """The lines of a Markdown text outside fenced code blocks, with their numbers."""
    fenced = False
    for number, line in enumerate(text.splitlines(), 1):
        if _FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            yield number, line


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to hyphens.

    >>> slug("B8 · A short all-in does not reopen the betting")
    'b8--a-short-all-in-does-not-reopen-the-betting'
    >>> slug("`feltro replay FILE [FILE ...]`")
    'feltro-replay-file-file-'
    """
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(text: str) -> set[str]:
    """Every anchor a Markdown text defines: its headings (numbered when repeated) and ids."""
    found: set[str] = set()
    seen: dict[str, int] = {}
    for _, line in _prose(text):
        heading = _HEADING.match(line)
        if heading:
            base = slug(heading.group(2))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
        found.update(_HTML_ID.findall(line))
    return found


def broken_links(path: Path, text: str, root: Path = ROOT) -> list[str]:
    """The links of Markdown *text* (the file *path*) that do not resolve inside *root*."""
    problems = []
    for number, line in _prose(text):
        for target in _LINK.findall(line):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE):  # https:, mailto:
                continue
            file_part, _, anchor = target.partition("#")
            where = (path.parent / file_part).resolve() if file_part else path.resolve()
            if root.resolve() not in (where, *where.parents):
                problems.append(f"{path.name}:{number}: {target} points outside the repository")
                continue
            if not where.exists():
                problems.append(f"{path.name}:{number}: {target} does not exist")
                continue
            if anchor and where.suffix == ".md" and anchor not in anchors(
                    where.read_text(encoding="utf-8")):
                problems.append(f"{path.name}:{number}: {target}: no heading #{anchor}")
    return problems


MARKDOWN = list(_files(["*.md", "**/*.md"]))


def test_the_walk_finds_the_documents() -> None:
    names = {_rel(p) for p in MARKDOWN}
    assert {"README.md", "RULES.md", "docs/design.md", "docs/history.md",
            "src/feltro/rules/en.md", "src/feltro/rules/pt-PT.md",
            "src/feltro/rules/pt-BR.md"} <= names


@pytest.mark.parametrize("path", MARKDOWN, ids=_rel)
def test_every_markdown_link_resolves_inside_the_repository(path: Path) -> None:
    assert broken_links(path, path.read_text(encoding="utf-8")) == []


def test_the_link_checker_fails_on_broken_links(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "b.md").write_text("# Real heading\n", encoding="utf-8")
    page = tmp_path / "docs" / "a.md"
    text = ("[ok](b.md#real-heading) [web](https://example.org/x) [self](#top)\n# Top\n"
            "[gone](missing.md) [out](../../shared/RULES.md) [anchor](b.md#nowhere)\n"
            "```\n[in code](ignored.md)\n```\n")
    page.write_text(text, encoding="utf-8")
    problems = broken_links(page, text, root=tmp_path)
    assert len(problems) == 3
    assert problems[0] == "a.md:3: missing.md does not exist"
    assert "points outside the repository" in problems[1]
    assert "no heading #nowhere" in problems[2]


# --- nothing points outside ----------------------------------------------------------------------

def _catalogue_files() -> list[Path]:
    return list((SRC / "i18n").glob("*.toml"))


def outside_pointers(text: str) -> list[str]:
    """Mentions of paths or documents outside the repository."""
    return OUTSIDE.findall(text)


def test_no_document_message_or_source_points_outside() -> None:
    files = [*MARKDOWN, *_catalogue_files(),
             *_files(["src/**/*.py", "src/**/*.js", "src/**/*.html"])]
    found = {_rel(p): outside_pointers(p.read_text(encoding="utf-8")) for p in files}
    assert {name: hits for name, hits in found.items() if hits} == {}


def test_the_outside_check_sees_the_old_pointers() -> None:
    assert outside_pointers("see [RULES](../shared/RULES.md), PHH.md §4 and seed 004") == [
        "../shared", "PHH.md", "seed 004"]
    assert outside_pointers("41 seeds, seeded RNG, `--seed 7`") == []


# --- rule ids ------------------------------------------------------------------------------------

_TEST_NAME = re.compile(r"def (test_\w+?)__(\w+)\(")


def undefined_ids(text: str, where: str = "") -> set[str]:
    """The rule ids *text* cites that the rules document does not define (ids in test names
    such as ``test_x__B8_P1`` included); *where* names the file for :data:`NOT_RULES`."""
    cited = set(RULE_ID_PATTERN.findall(text))
    for _, suffix in _TEST_NAME.findall(text):
        cited |= {part for part in suffix.split("_") if re.fullmatch(r"[GDBPX]\d{1,2}", part)}
    return {rule for rule in cited if rule not in RULE_IDS and (where, rule) not in NOT_RULES}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_rule_id_in_the_catalogues_is_defined(lang: str) -> None:
    shared = catalogue(lang)
    assert "(B8)" in shared["refusal.B8.not-reopened"]  # the scan sees the refusals
    cited = {key: undefined_ids(f"{key} {text}") for key, text in shared.items()}
    assert {key: ids for key, ids in cited.items() if ids} == {}


def test_every_rule_id_in_sources_pages_and_errors_is_defined() -> None:
    # Error raise sites (rule="B8", "B8: ..." reasons), docstrings, page scripts, pages.
    files = list(_files(["src/**/*.py", "src/**/*.js", "src/**/*.html"]))
    raise_sites = sum(len(re.findall(r"""rule=["'][GDBPX]\d|["'][GDBPX]\d{1,2}:""",
                                     p.read_text(encoding="utf-8"))) for p in files)
    assert raise_sites > 20  # the scan does see the errors' rule ids
    found = {_rel(p): undefined_ids(p.read_text(encoding="utf-8"), _rel(p)) for p in files}
    assert {name: ids for name, ids in found.items() if ids} == {}


def test_every_rule_id_in_documents_tests_and_golden_names_is_defined() -> None:
    files = [*MARKDOWN, *_files(["tests/**/*.py", "benchmarks/**/*.py"])]
    found = {_rel(p): undefined_ids(p.read_text(encoding="utf-8"), _rel(p)) for p in files}
    names = " ".join(p.name.replace("-", " ") for p in _files(["tests/golden/**/*.phh",
                                                               "tests/data/**/*.txt"]))
    found["golden file names"] = undefined_ids(names)
    assert {name: ids for name, ids in found.items() if ids} == {}


def test_the_rule_id_check_fails_on_an_undefined_id() -> None:
    assert undefined_ids("Not allowed (P9): no such rule; B8 and X4 are fine") == {"P9"}
    assert undefined_ids("def test_something__B8_B12(") == {"B12"}
    assert undefined_ids("refusal.B12.capped = 'x'") == {"B12"}
    assert undefined_ids("One player has every chip (G4), G1-G6") == set()


def test_every_language_defines_every_rule_the_code_cites() -> None:
    # The web page, the terminal and the command line all fetch by id: no gaps in any language.
    from feltro.rules import rules

    for lang in LANGUAGES:
        assert tuple(rules(lang)) == RULE_IDS
