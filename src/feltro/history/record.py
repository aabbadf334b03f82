"""The one writer of a hand's PHH record, for every caller.

:func:`record_of` writes any :class:`~feltro.hand.Hand` (the inverse of
:func:`~feltro.history.replay.replay`), showing every hole card or only those one player may
see (``visible_to``); :func:`seated_record` adds what a series knows about the table (seats,
names, the button's seat, the hand number) and is what the store, the session and the server
export; :class:`HandTextWriter` writes many finished hands' text fast (the learning
environments). Every path therefore agrees on the variant (``NT`` no-limit, ``FT``
fixed-limit), the stakes, the forced bets (reversed heads-up, as PHH applies them), the
action lines and the user field ``_button_seat``. A record stays data until it is written
(:func:`~feltro.history.dumps`): nothing in feltro reads PHH text it wrote back.

PHH has no pot-limit Texas hold'em variant (its ``PO`` is pot-limit *Omaha*), so a pot-limit
hand is refused with a :class:`~feltro.errors.HistoryError` rather than written under a
variant that other tools would replay as no-limit.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any, Final

from feltro.actions import KIND_CALL, KIND_CHECK, KIND_FOLD, KIND_RAISE
from feltro.cards import CARD_TEXT
from feltro.config import HandConfig, Structure
from feltro.errors import HistoryError
from feltro.events import ActionTaken, BoardDealt, CardsMucked, CardsShown, HoleCardDealt
from feltro.hand import Hand
from feltro.history.phh import HandRecord, dumps

__all__ = ["BUTTON_FIELD", "HandTextWriter", "Visible", "action_lines", "record_of",
           "seated_record", "stakes_of"]

BUTTON_FIELD = "_button_seat"
"""The user field holding the button's seat (which may be an empty seat under D8, and then
is not ``seats[-1]``)."""

Visible = int | Collection[int] | None
"""Whose hole cards a record shows: ``None`` every player's (the dealer's record), a
position (a player's own download) or several; ``()`` nobody's (a spectator)."""


def stakes_of(config: HandConfig) -> dict[str, Any]:
    """The variant and its stakes fields: ``NT`` with ``min_bet``, or ``FT`` with
    ``small_bet`` and ``big_bet`` (B10).

    :raises HistoryError: for pot-limit (PHH has no pot-limit hold'em variant), or a nominal
        big blind other than the largest blind (PHH cannot state it).
    """
    if config.structure is Structure.POT_LIMIT:
        raise HistoryError("PHH has no pot-limit hold'em variant (its PO is pot-limit Omaha): "
                           "only no-limit (NT) and fixed-limit (FT) hands can be written")
    if config.big_blind != max(max(config.blinds), 1) and any(config.blinds):
        raise HistoryError(f"PHH cannot state a big blind of {config.big_blind} with blinds "
                           f"{config.blinds}")
    min_bet = config.min_bet if config.min_bet is not None else config.big_blind
    if config.structure is Structure.FIXED_LIMIT:
        big_bet = config.big_bet if config.big_bet is not None else 2 * min_bet
        return {"variant": "FT", "small_bet": min_bet, "big_bet": big_bet}
    return {"variant": "NT", "min_bet": min_bet}


# --- action lines, from the hand's events --------------------------------------------------
# The fixed lines and line starts are made once, by position (p1 is position 0) and by action
# kind: environments write every hand they play, so this is a hot path.

_PLAYERS: Final = range(10)
_DEALT: Final = tuple(f"d dh p{p + 1} " for p in _PLAYERS)
_RAISES: Final = tuple(f"p{p + 1} cbr " for p in _PLAYERS)
_SHOWS: Final = tuple(f"p{p + 1} sm " for p in _PLAYERS)
_MUCKS: Final = tuple(f"p{p + 1} sm" for p in _PLAYERS)
_NONE_HIDDEN: Final = (False,) * len(_PLAYERS)
_PASSIVE: Final = {kind: tuple(f"p{p + 1} {word}" for p in _PLAYERS)
                   for kind, word in ((KIND_FOLD, "f"), (KIND_CHECK, "cc"), (KIND_CALL, "cc"))}


def _visible(visible_to: Visible) -> Collection[int] | None:
    if visible_to is None or not isinstance(visible_to, int):
        return visible_to
    return (visible_to,)


def action_lines(hand: Hand, *, visible_to: Visible = None,
                 one_card_per_line: bool = False) -> list[str]:
    """The ``actions`` of *hand*'s record (see :func:`record_of`), from its events."""
    players = range(hand.players)
    shown = _visible(visible_to)
    hidden = _NONE_HIDDEN if shown is None else [p not in shown for p in players]
    holes = [""] * len(players)  # the hole cards' text by position, two to a line
    lines: list[str] = []
    append = lines.append
    for event in hand.events:
        kind = type(event)  # exact types, the fastest test: events are final dataclasses
        if kind is ActionTaken:
            action, p = event.action, event.position  # type: ignore[attr-defined]
            if action.kind == KIND_RAISE:
                append(f"{_RAISES[p]}{action.to}")
            else:
                append(_PASSIVE[action.kind][p])
        elif kind is HoleCardDealt:
            p, card = event.position, event.card  # type: ignore[attr-defined]
            text = "??" if hidden[p] or card is None else CARD_TEXT[card]
            if one_card_per_line:
                append(_DEALT[p] + text)
            else:
                holes[p] += text
        elif kind is BoardDealt:
            cards = event.cards  # type: ignore[attr-defined]
            append("d db " + "".join([CARD_TEXT[c] for c in cards]))
        elif kind is CardsShown:
            p, cards = event.position, event.cards  # type: ignore[attr-defined]
            append(_SHOWS[p] + "".join([CARD_TEXT[c] for c in cards]))
        elif kind is CardsMucked:
            append(_MUCKS[event.position])  # type: ignore[attr-defined]
    if one_card_per_line:
        return lines
    return [_DEALT[p] + holes[p] for p in players] + lines


def record_of(hand: Hand, /, *, visible_to: Visible = None, one_card_per_line: bool = False,
              **fields: Any) -> HandRecord:
    """The PHH record of *hand* as played so far (the inverse of
    :func:`~feltro.history.replay.replay`).

    Hole cards are written two per line (``d dh p1 AsKs``), or one per line in deal order with
    *one_card_per_line* (as the WSOP files do); unknown cards as ``??``. With *visible_to*
    (see :data:`Visible`) only those positions' hole cards are written, the others' are
    ``??``; cards shown at the showdown are public and always written. ``finishing_stacks``
    are the stacks now unless *fields* says otherwise. Extra *fields* (``players``, ``hand``,
    ``_note``...) are added; those starting with ``_`` become user fields.

    :raises HistoryError: for a configuration PHH cannot say (see :func:`stakes_of`).
    """
    config = hand.config
    stakes = stakes_of(config)
    n = config.players
    blinds = list(config.blinds)
    antes = list(config.antes or (0,) * n)
    if n == 2:  # PHH applies the forced bets reversed heads-up: the button posts the small blind
        blinds.reverse()
        antes.reverse()
    if any(antes):
        fields.setdefault("ante_trimming_status", config.ante_trimming)
    fields.setdefault("finishing_stacks", hand.stacks)
    user = {k: fields.pop(k) for k in list(fields) if k.startswith("_")}
    return HandRecord(
        antes=tuple(antes),
        blinds_or_straddles=tuple(blinds),
        starting_stacks=config.stacks,
        actions=tuple(action_lines(hand, visible_to=visible_to,
                                   one_card_per_line=one_card_per_line)),
        user_fields=user,
        **stakes,
        **fields,
    )


def seated_record(
    hand: Hand,
    seats: Sequence[int],
    button_seat: int,
    names: Mapping[int, str],
    *,
    hand_number: int | None = None,
    seat_count: int | None = None,
    visible_to: Visible = None,
    **fields: Any,
) -> HandRecord:
    """A series hand as a PHH record: :func:`record_of`, hole cards one per line in deal order
    (D4), plus ``seats`` (the seat of each position), ``players`` (the names by position),
    ``seat_count`` and ``hand`` when given, and the user field ``_button_seat``; *visible_to*
    as in :func:`record_of`.

    ``finishing_stacks`` is written once the hand is over. *fields* adds more optional PHH
    fields (``event``, ``day``, ``time``...).

    :raises HistoryError: for a pot-limit hand (see :func:`stakes_of`).
    """
    extra: dict[str, Any] = {
        "seats": tuple(seats),
        "players": tuple(names[seat] for seat in seats),
        "finishing_stacks": hand.result().stacks if hand.is_over else None,
        BUTTON_FIELD: button_seat,
    }
    if seat_count is not None:
        extra["seat_count"] = seat_count
    if hand_number is not None:
        extra["hand"] = hand_number
    extra.update(fields)
    return record_of(hand, visible_to=visible_to, one_card_per_line=True, **extra)


# --- many hands' text, fast ----------------------------------------------------------------

_KEEP: Final = 64  # templates kept (a series changes its configuration every hand)


class HandTextWriter:
    """The PHH text of finished hands, fast: exactly ``dumps(record_of(hand, seats=seats))``.

    The fields before and after the action lines depend only on the configuration and the
    seats, so they are written once by :func:`~feltro.history.dumps` and kept; the action
    lines are :func:`action_lines`; only ``finishing_stacks`` is written each time.
    """

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
        lines = "',\n  '".join(action_lines(hand))
        stacks = ", ".join(map(str, hand.stacks))
        return f"{head}  '{lines}',\n{tail}finishing_stacks = [{stacks}]\n"

    @staticmethod
    def _template(hand: Hand, seats: tuple[int, ...]) -> tuple[str, str]:
        full = dumps(record_of(hand, seats=seats))
        start = full.index("actions = [\n") + len("actions = [\n")
        end = full.index("\n]\n", start) + len("\n]\n")
        finish = full.index("finishing_stacks = ", end)
        if not full.endswith("]\n") or "\n" in full[finish:-1]:
            raise HistoryError("unexpected PHH layout after finishing_stacks")
        return full[:start], "]\n" + full[end:finish]
