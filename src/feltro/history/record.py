"""The one writer of a hand's PHH record, for every caller.

:func:`record_of` writes any :class:`~feltro.hand.Hand` (the inverse of
:func:`~feltro.history.replay.replay`); :func:`seated_record` adds what a series knows about
the table (seats, names, the button's seat, the hand number) and is what the store, the
session and the server export. Every path therefore agrees on the variant (``NT`` no-limit,
``FT`` fixed-limit), the stakes, the forced bets (reversed heads-up, as PHH applies them), the
action lines and the user field ``_button_seat``.

PHH has no pot-limit Texas hold'em variant (its ``PO`` is pot-limit *Omaha*), so a pot-limit
hand is refused with a :class:`~feltro.errors.HistoryError` rather than written under a
variant that other tools would replay as no-limit.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from feltro.config import HandConfig, Structure
from feltro.errors import HistoryError
from feltro.events import ActionTaken, BoardDealt, CardsMucked, CardsShown, Event, HoleCardDealt
from feltro.hand import Hand
from feltro.history.phh import HandRecord, format_phh_cards

__all__ = ["BUTTON_FIELD", "record_of", "seated_record", "stakes_of"]

BUTTON_FIELD = "_button_seat"
"""The user field holding the button's seat (which may be an empty seat under D8, and then
is not ``seats[-1]``)."""


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


def _hole(event: Event) -> str:
    assert isinstance(event, HoleCardDealt)
    return f"d dh p{event.position + 1} {format_phh_cards([event.card])}"


def _board(event: Event) -> str:
    assert isinstance(event, BoardDealt)
    return f"d db {format_phh_cards(event.cards)}"


def _action(event: Event) -> str:
    assert isinstance(event, ActionTaken)
    return f"p{event.position + 1} {event.action.phh()}"


def _shown(event: Event) -> str:
    assert isinstance(event, CardsShown)
    return f"p{event.position + 1} sm {format_phh_cards(event.cards)}"


def _mucked(event: Event) -> str:
    assert isinstance(event, CardsMucked)
    return f"p{event.position + 1} sm"


# The action line of each kind of event that has one (forced bets, returns and payouts have
# none: PHH derives them from the fields).
_LINES: dict[type[Event], Callable[[Event], str]] = {
    ActionTaken: _action,
    BoardDealt: _board,
    CardsShown: _shown,
    CardsMucked: _mucked,
}


def _action_lines(hand: Hand, one_card_per_line: bool) -> list[str]:
    lines: list[str] = []
    if one_card_per_line:
        table = {**_LINES, HoleCardDealt: _hole}
    else:
        table = _LINES
        lines.extend(f"d dh p{p + 1} {format_phh_cards(hand.hole(p))}"
                     for p in range(hand.players))
    for event in hand.events:
        line = table.get(type(event))
        if line is not None:
            lines.append(line(event))
    return lines


def record_of(hand: Hand, /, *, one_card_per_line: bool = False, **fields: Any) -> HandRecord:
    """The PHH record of *hand* as played so far (the inverse of
    :func:`~feltro.history.replay.replay`).

    Hole cards are written two per line (``d dh p1 AsKs``), or one per line in deal order with
    *one_card_per_line* (as the WSOP files do); unknown cards as ``??``. ``finishing_stacks``
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
        actions=tuple(_action_lines(hand, one_card_per_line)),
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
    **fields: Any,
) -> HandRecord:
    """A series hand as a PHH record: :func:`record_of`, hole cards one per line in deal order
    (D4), plus ``seats`` (the seat of each position), ``players`` (the names by position),
    ``seat_count`` and ``hand`` when given, and the user field ``_button_seat``.

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
    return record_of(hand, one_card_per_line=True, **extra)
