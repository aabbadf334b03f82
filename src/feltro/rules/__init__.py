"""The house rules as feltro's own document, in English, pt-PT and pt-BR, one rule at a time.

The rules live next to this module as Markdown, one file per language (``en.md``,
``pt-PT.md``, ``pt-BR.md``). Every rule is a ``### ID · Title`` section under a ``## `` group
(G the game, D dealing, B betting, P pots and showdown, X worked examples); the text of a rule
runs to the next heading. Every interface reads the rules through this module: ``feltro rules``,
the terminal game's Rules screen and the web app's Rules page.

>>> rule_title("B8", "en")
'A short all-in does not reopen the betting'
>>> rule_text("b8", "pt-PT").splitlines()[0]
'### B8 · Um all-in curto não reabre as apostas'
>>> "D11" in RULE_IDS, "Z9" in RULE_IDS
(True, False)
>>> find_rule_ids("One player has every chip (G4); see also G1-G3 and X12.")
('G4', 'G1', 'G3', 'X12')
>>> id_ranges(("G1", "G2", "G3", "B1", "B3"))
'G1–G3, B1, B3'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import Final

from feltro.i18n import check_language

__all__ = [
    "GROUPS",
    "RULE_IDS",
    "RULE_ID_PATTERN",
    "Rule",
    "UnknownRuleError",
    "blocks",
    "document",
    "find_rule_ids",
    "id_ranges",
    "normalize_id",
    "rule",
    "rule_text",
    "rule_title",
    "rules",
]

GROUPS: Final = ("G", "D", "B", "P", "X")
"""The rule groups in the order of the document."""

RULE_ID_PATTERN: Final = re.compile(r"\b([GDBPX]\d{1,2})\b")
"""What looks like a rule id inside any text ("(B8)", "G1-G4")."""

_HEADING = re.compile(r"^(#{1,3}) ")
_RULE_HEADING = re.compile(r"^### ([GDBPX]\d{1,2}) · (.+?)\s*$")


class UnknownRuleError(KeyError):
    """An id that the rules document does not define; :attr:`rule_id` is what was asked."""

    def __init__(self, rule_id: str) -> None:
        super().__init__(rule_id)
        self.rule_id = rule_id

    def __str__(self) -> str:
        return f"unknown rule {self.rule_id!r}; the rules are {id_ranges(RULE_IDS)}"


@dataclass(frozen=True, slots=True)
class Rule:
    """One rule of one language: its id, title and Markdown (the heading line included)."""

    id: str
    title: str
    group: str
    markdown: str

    @property
    def body(self) -> str:
        """The rule's text without its heading."""
        return self.markdown.split("\n", 1)[1].strip() if "\n" in self.markdown else ""


@cache
def document(lang: str = "en") -> str:
    """The whole rules document of *lang* (Markdown).

    :raises ValueError: for a language feltro does not speak.
    """
    check_language(lang)
    return resources.files(__package__).joinpath(f"{lang}.md").read_text(encoding="utf-8")


@cache
def blocks(lang: str = "en") -> tuple[tuple[str | None, str], ...]:
    """The document of *lang* cut at its headings: ``(rule id or None, Markdown)`` in order.

    A rule's block runs from its ``### ID · Title`` heading to the next heading; the title,
    the introduction and the group headings are blocks without an id.
    """
    out: list[tuple[str | None, str]] = []
    current: str | None = None
    lines: list[str] = []
    for line in document(lang).splitlines():
        if _HEADING.match(line):
            if lines and "\n".join(lines).strip():
                out.append((current, "\n".join(lines).strip()))
            heading = _RULE_HEADING.match(line)
            current = heading.group(1) if heading else None
            lines = [line]
        else:
            lines.append(line)
    if "\n".join(lines).strip():
        out.append((current, "\n".join(lines).strip()))
    return tuple(out)


@cache
def rules(lang: str = "en") -> MappingProxyType[str, Rule]:
    """Every rule of *lang*, by id, in the document's order.

    :raises ValueError: when the document defines an id twice.
    """
    found: dict[str, Rule] = {}
    for rule_id, markdown in blocks(lang):
        if rule_id is None:
            continue
        if rule_id in found:
            raise ValueError(f"{lang}.md defines {rule_id} twice")
        heading = _RULE_HEADING.match(markdown.split("\n", 1)[0])
        assert heading is not None
        found[rule_id] = Rule(rule_id, heading.group(2), rule_id[0], markdown)
    return MappingProxyType(found)


RULE_IDS: Final[tuple[str, ...]] = tuple(rules("en"))
"""Every rule id, in the document's order (the English document is the reference; every
language defines the same ids, ``tests/test_links_and_rule_ids.py`` checks it)."""


def normalize_id(rule_id: str) -> str:
    """*rule_id* as the document writes it (``" b8 "`` → ``"B8"``).

    :raises UnknownRuleError: when the document has no such rule.
    """
    wanted = rule_id.strip().upper()
    if wanted not in RULE_IDS:
        raise UnknownRuleError(rule_id.strip())
    return wanted


def rule(rule_id: str, lang: str = "en") -> Rule:
    """The rule *rule_id* in *lang*.

    :raises UnknownRuleError: for an id the document does not define.
    :raises ValueError: for a language feltro does not speak.
    """
    return rules(lang)[normalize_id(rule_id)]


def rule_text(rule_id: str, lang: str = "en") -> str:
    """The Markdown of one rule in *lang*, starting with its ``### ID · Title`` heading."""
    return rule(rule_id, lang).markdown


def rule_title(rule_id: str, lang: str = "en") -> str:
    """The short title of one rule in *lang*."""
    return rule(rule_id, lang).title


def find_rule_ids(text: str) -> tuple[str, ...]:
    """Everything in *text* that looks like a rule id, in order, known or not."""
    return tuple(RULE_ID_PATTERN.findall(text))


def id_ranges(ids: tuple[str, ...] | list[str]) -> str:
    """Ids written short: runs of consecutive numbers in one group as ``G1–G6``."""
    parts: list[str] = []
    run: list[tuple[str, int]] = []

    def flush() -> None:
        if run:
            first, last = run[0], run[-1]
            parts.append(f"{first[0]}{first[1]}" if first == last
                         else f"{first[0]}{first[1]}–{last[0]}{last[1]}")
            run.clear()

    for rule_id in ids:
        group, number = rule_id[0], int(rule_id[1:])
        if run and not (run[-1][0] == group and run[-1][1] + 1 == number):
            flush()
        run.append((group, number))
    flush()
    return ", ".join(parts)

