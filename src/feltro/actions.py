"""Player actions: :class:`Fold`, :class:`Check`, :class:`Call` and :class:`Raise`.

Actions are tiny frozen values. Amounts are **totals for this street** ("raise to 25"), the
way a player announces action and total before moving chips (B6, B9); a first bet is a
:class:`Raise` too. Text notation, in the short form that :func:`str` gives, the long form
people type, or PHH:

>>> Action.parse("r 25"), Action.parse("raise to 25"), Action.parse("cbr 25")
(Raise(to=25), Raise(to=25), Raise(to=25))
>>> Action.parse("f"), Action.parse("check"), Action.parse("call"), Action.parse("cc")
(Fold(), Check(), Call(), Call())
>>> str(Raise(25)), Raise(25).phh(), str(Check()), Check().phh()
('r 25', 'cbr 25', 'x', 'cc')

``Call()`` when nothing is owed is a check (as PHH ``cc``, "check or call").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar, Final

from feltro.errors import ParseError

__all__ = [
    "CALL",
    "CHECK",
    "FOLD",
    "Action",
    "Call",
    "Check",
    "Fold",
    "Raise",
    "parse_action",
]

# Kind codes: the engine dispatches on these small ints instead of isinstance chains.
KIND_FOLD: Final = 0
KIND_CHECK: Final = 1
KIND_CALL: Final = 2
KIND_RAISE: Final = 3


class Action:
    """Base class of the four actions; use :meth:`parse` to read text."""

    __slots__ = ()
    kind: ClassVar[int]
    _phh: ClassVar[str]

    @staticmethod
    def parse(text: str) -> Action:
        """Read one action: ``"f"``, ``"x"``, ``"c"``, ``"r 25"``, long words or PHH.

        :raises ParseError: if *text* names no action or has a malformed amount.
        """
        return parse_action(text)

    def phh(self) -> str:
        """The PHH spelling without the actor (``"f"``, ``"cc"``, ``"cbr 25"``)."""
        return self._phh


@dataclass(frozen=True, slots=True)
class Fold(Action):
    """Leave the hand (B3). Always allowed for the player to act, even when checking is free."""

    kind: ClassVar[int] = KIND_FOLD
    _phh: ClassVar[str] = "f"

    def __str__(self) -> str:
        return "f"


@dataclass(frozen=True, slots=True)
class Check(Action):
    """Pass without betting; only when nothing is owed (B3)."""

    kind: ClassVar[int] = KIND_CHECK
    _phh: ClassVar[str] = "cc"

    def __str__(self) -> str:
        return "x"


@dataclass(frozen=True, slots=True)
class Call(Action):
    """Match the current bet, or put in the whole stack when it is short (B7).

    With nothing owed it is a check, like PHH ``cc``.
    """

    kind: ClassVar[int] = KIND_CALL
    _phh: ClassVar[str] = "cc"

    def __str__(self) -> str:
        return "c"


@dataclass(frozen=True, slots=True)
class Raise(Action):
    """Bet or raise **to** a total for this street (B6); a first bet is a raise from 0."""

    to: int
    """The player's total bet in this street after the action, blinds included."""

    kind: ClassVar[int] = KIND_RAISE

    def __str__(self) -> str:
        return f"r {self.to}"

    def phh(self) -> str:
        """The PHH spelling, ``"cbr 25"``."""
        return f"cbr {self.to}"


FOLD: Final = Fold()
CHECK: Final = Check()
CALL: Final = Call()

_SIMPLE: dict[str, Action] = {
    "f": FOLD,
    "fold": FOLD,
    "x": CHECK,
    "k": CHECK,
    "check": CHECK,
    "c": CALL,
    "call": CALL,
    "cc": CALL,
}
_RAISE_WORDS = frozenset({"r", "raise", "b", "bet", "cbr"})
_AMOUNT = re.compile(r"[0-9]+")


def parse_action(text: str) -> Action:
    """Read one action from text (see the module docstring for the notation).

    :raises ParseError: if *text* names no action or has a malformed amount.
    """
    if not isinstance(text, str):
        raise ParseError(f"an action must be text, not {type(text).__name__}")
    words = text.strip().lower().split()
    if len(words) == 1 and words[0] in _SIMPLE:
        return _SIMPLE[words[0]]
    if words and words[0] in _RAISE_WORDS:
        rest = words[1:]
        if rest[:1] == ["to"]:
            rest = rest[1:]
        if len(rest) == 1 and _AMOUNT.fullmatch(rest[0]):
            return Raise(int(rest[0]))
        raise ParseError(f"not an action: {text!r} (a raise needs a whole-chip total, "
                         f"e.g. 'r 25')")
    # "r25" without a space.
    match = re.fullmatch(r"(r|b|raise|bet|cbr)([0-9]+)", "".join(words))
    if match:
        return Raise(int(match.group(2)))
    raise ParseError(f"not an action: {text!r} (write f, x, c, 'r 25', or PHH f / cc / cbr 25)")
