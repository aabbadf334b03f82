"""The PHH text of a finished hand, fast: :class:`PhhWriter`.

Environments write every hand's history, so this matters for their speed. The text is exactly
``dumps(record_of(hand, seats=...))`` (a test compares them on thousands of hands): the fields
before and after the action lines depend only on the configuration and the seats, so they are
made once by the general writer and kept; the action lines are written from the events here.
"""

from __future__ import annotations

from typing import Final

from feltro.actions import KIND_CALL, KIND_CHECK, KIND_FOLD, KIND_RAISE
from feltro.cards import Card
from feltro.config import HandConfig, Structure
from feltro.errors import HistoryError
from feltro.events import ActionTaken, BoardDealt, CardsMucked, CardsShown
from feltro.hand import Hand
from feltro.history import dumps, record_of

__all__ = ["PhhWriter"]

_TEXT: Final = tuple(str(Card.from_id(i)) for i in range(52))
# The fixed lines and line starts, by position (p1 is position 0) and by action kind.
_DEALT: Final = tuple(f"  'd dh p{p + 1} " for p in range(10))
_WORDS: Final = {KIND_FOLD: "f", KIND_CHECK: "cc", KIND_CALL: "cc"}
_PLAIN: Final = tuple(tuple(f"  'p{p + 1} {_WORDS[kind]}',\n" for p in range(10))
                      for kind in range(len(_WORDS)))  # by action kind, then position
_SHOWS: Final = tuple(f"  'p{p + 1} sm " for p in range(10))
_MUCKS: Final = tuple(f"  'p{p + 1} sm',\n" for p in range(10))
_KEEP: Final = 64  # templates kept (a series changes its configuration every hand)


class PhhWriter:
    """Writes finished hands as PHH text, keeping the fixed parts per configuration."""

    def __init__(self) -> None:
        self._templates: dict[tuple[HandConfig, tuple[int, ...]], tuple[str, str]] = {}

    def text(self, hand: Hand, seats: tuple[int, ...]) -> str:
        """The PHH text of *hand* (players at *seats*); a comment for pot-limit (no PHH)."""
        config = hand.config
        if config.structure is Structure.POT_LIMIT:
            return "# no PHH: PHH has no pot-limit hold'em variant\n"
        key = (config, seats)
        template = self._templates.get(key)
        if template is None:
            template = self._template(hand, seats)
            if len(self._templates) >= _KEEP:
                self._templates.clear()
            self._templates[key] = template
        head, tail = template
        lines = [head]
        append = lines.append
        state = hand.state
        holes = state.holes
        text = _TEXT
        for p in range(state.n):
            hole = holes[p]
            append(f"{_DEALT[p]}{text[hole[0]]}{text[hole[1]]}',\n")  # type: ignore[index]
        for event in state.events:
            kind = type(event)
            if kind is ActionTaken:
                action = event.action  # type: ignore[attr-defined]
                code = action.kind
                if code == KIND_RAISE:
                    append(f"  'p{event.position + 1} cbr {action.to}',\n")  # type: ignore[attr-defined]
                else:
                    append(_PLAIN[code][event.position])  # type: ignore[attr-defined]
            elif kind is BoardDealt:
                cards = "".join([text[c] for c in event.cards])  # type: ignore[attr-defined]
                append(f"  'd db {cards}',\n")
            elif kind is CardsShown:
                cards = "".join([text[c] for c in event.cards])  # type: ignore[attr-defined]
                append(f"{_SHOWS[event.position]}{cards}',\n")  # type: ignore[attr-defined]
            elif kind is CardsMucked:
                append(_MUCKS[event.position])  # type: ignore[attr-defined]
        append(tail)
        append(f"finishing_stacks = [{', '.join(map(str, state.stacks))}]\n")
        return "".join(lines)

    @staticmethod
    def _template(hand: Hand, seats: tuple[int, ...]) -> tuple[str, str]:
        full = dumps(record_of(hand, seats=seats))
        start = full.index("actions = [\n") + len("actions = [\n")
        end = full.index("\n]\n", start) + len("\n]\n")
        finish = full.index("finishing_stacks = ", end)
        if not full.endswith("]\n") or "\n" in full[finish:-1]:
            raise HistoryError("unexpected PHH layout after finishing_stacks")
        return full[:start], "]\n" + full[end:finish]
