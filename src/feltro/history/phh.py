"""The PHH hand-history format: records, action lines, reading and writing TOML text.

A PHH file (``.phh``) is a TOML document describing one hand; a ``.phhs`` file holds many as
tables (``[1]``, ``[2]``, ...). This module is pure: it turns text into :class:`HandRecord`
values and back. It knows the *format* only; whether the actions are legal under RULES.md is
decided by :mod:`feltro.history.replay`.

Reading accepts what real files contain: both TOML quote styles, comments, whole-number floats
(``9900.0`` reads as ``9900``), half chips (``10112.5``, kept as floats), ``inf`` (unknown
stack), ``????`` unknown cards, one or two cards per ``d dh`` line, commentary after ``#`` and
empty action lines. Player ``pN`` is position ``N - 1`` (see ``docs/design.md``).

>>> record = loads('''
... variant = 'NT'
... antes = [0, 0]
... blinds_or_straddles = [1, 2]
... min_bet = 2
... starting_stacks = [200, 200]
... actions = ['d dh p1 AsKs', 'd dh p2 ????', 'p2 f']
... ''')
>>> record.player_count, parse_action(record.actions[2])
(2, PhhAction(verb=<Verb.FOLD: 'f'>, player=1, cards=(), amount=None))
>>> loads(dumps(record)) == record
True
"""

from __future__ import annotations

import datetime
import functools
import json
import math
import re
import tomllib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from types import MappingProxyType
from typing import Any, TypeAlias

from feltro.cards import RANK_CHARS, SUIT_CHARS, Card
from feltro.errors import HistoryError, ParseError

__all__ = [
    "OPTIONAL_FIELDS",
    "REQUIRED_FIELDS",
    "Amount",
    "HandRecord",
    "PhhAction",
    "Verb",
    "dumps",
    "dumps_all",
    "format_phh_cards",
    "loads",
    "loads_all",
    "parse_action",
    "parse_phh_cards",
]

Amount: TypeAlias = int | float
"""A chip amount as PHH writes it. Whole numbers are always ``int`` (``9900.0`` reads as
``9900``); a ``float`` is a fraction (``10112.5``) or ``inf`` (an unknown stack)."""

# Fields every hand of a variant must have (PHH ``required.rst``); feltro plays hold'em only.
REQUIRED_FIELDS: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "NT": ("variant", "antes", "blinds_or_straddles", "min_bet", "starting_stacks", "actions"),
    "FT": ("variant", "antes", "blinds_or_straddles", "small_bet", "big_bet", "starting_stacks",
           "actions"),
})

# The optional fields of PHH ``optional.rst``, in the order the writer puts them.
OPTIONAL_FIELDS: tuple[str, ...] = (
    "ante_trimming_status", "author", "event", "url", "venue", "address", "city", "region",
    "postal_code", "country", "time", "time_zone", "time_zone_abbreviation", "day", "month",
    "year", "hand", "level", "seats", "seat_count", "table", "players", "finishing_stacks",
    "winnings", "currency", "currency_symbol", "time_limit", "time_banks",
)

_STRING_FIELDS = frozenset({
    "author", "event", "url", "venue", "address", "city", "region", "postal_code", "country",
    "time_zone", "time_zone_abbreviation", "currency", "currency_symbol",
})
_INT_FIELDS = frozenset({"day", "month", "year", "level", "seat_count"})
_INT_OR_STRING_FIELDS = frozenset({"hand", "table"})
# Per-player arrays: their length must be the number of players.
_PER_PLAYER_FIELDS = ("antes", "blinds_or_straddles", "starting_stacks", "seats", "players",
                      "finishing_stacks", "winnings", "time_banks")
_STAKE_FIELDS = ("min_bet", "small_bet", "big_bet")
_HOLDEM_ONLY_FIELDS = ("bring_in",)  # stud fields; a hold'em record must not have them


# --------------------------------------------------------------------------------------------
# Numbers and cards


def _amount(value: object, where: str) -> Amount:
    """A TOML number as an :data:`Amount`; whole floats become ints.

    :raises HistoryError: if *value* is not a number (booleans are not numbers here).
    """
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise HistoryError(f"{where}: expected a number, got {value!r}")
    if isinstance(value, float):
        if math.isnan(value):
            raise HistoryError(f"{where}: NaN is not an amount")
        if math.isfinite(value) and value.is_integer():
            return int(value)
    return value


def _amounts(value: object, where: str) -> tuple[Amount, ...]:
    if not isinstance(value, list | tuple):
        raise HistoryError(f"{where}: expected an array of numbers, got {value!r}")
    return tuple(_amount(item, f"{where}[{i}]") for i, item in enumerate(value))


def _parse_amount_text(text: str) -> Amount:
    """An amount written in an action line (``'6'``, ``'6.0'``, ``'516.95'``, ``'1,000'``)."""
    cleaned = text.replace(",", "").replace("_", "")
    try:
        return int(cleaned)
    except ValueError:
        pass
    try:
        number = float(cleaned)
    except ValueError:
        raise ParseError(f"amount {text!r} is not a number") from None
    if not math.isfinite(number):
        raise ParseError(f"amount {text!r} is not a finite number")
    return int(number) if number.is_integer() else number


_PHH_CARD = {r + s: Card.from_id(i * 4 + j)
             for i, r in enumerate(RANK_CHARS) for j, s in enumerate(SUIT_CHARS)}


def parse_phh_cards(text: str) -> tuple[Card | None, ...]:
    """Cards as PHH writes them: two characters each, no separator; ``??`` is unknown.

    >>> parse_phh_cards("AsKd"), parse_phh_cards("????")
    ((Card('As'), Card('Kd')), (None, None))

    :raises ParseError: if *text* is empty, of odd length, or holds something not a card.
    """
    if not text or len(text) % 2:
        raise ParseError(f"{text!r} is not PHH cards (two characters per card, e.g. 'AsKd')")
    cards: list[Card | None] = []
    for start in range(0, len(text), 2):
        chunk = text[start:start + 2]
        card = _PHH_CARD.get(chunk)
        if card is None:
            # Real files are case-exact, but be kind to hand-written ones ('as', 'TD').
            card = _PHH_CARD.get(chunk[0].upper() + chunk[1].lower())
        if card is None and chunk != "??":
            raise ParseError(f"{chunk!r} in {text!r} is not a card (rank 2-9TJQKA, "
                             f"suit cdhs, or ?? for an unknown card)")
        cards.append(card)
    return tuple(cards)


def format_phh_cards(cards: Iterable[int | None]) -> str:
    """The PHH spelling of *cards*; ``None`` is written ``??``.

    >>> format_phh_cards([Card.parse("Td"), None])
    'Td??'
    """
    return "".join("??" if c is None else str(Card.from_id(c)) for c in cards)


# --------------------------------------------------------------------------------------------
# Action lines


class Verb(StrEnum):
    """What an action line does; the value is the PHH notation."""

    DEAL_HOLE = "dh"
    DEAL_BOARD = "db"
    FOLD = "f"
    CHECK_OR_CALL = "cc"
    BET_OR_RAISE_TO = "cbr"
    SHOW_OR_MUCK = "sm"
    NO_OP = ""


_PLAYER_TOKEN = re.compile(r"p([1-9][0-9]*)")
_NOT_HOLDEM = {"sd": "stand pat/discard", "pb": "bring-in"}


@dataclass(frozen=True, slots=True)
class PhhAction:
    """One parsed line of ``actions``.

    *player* is a 0-based position (``p1`` is 0) or ``None`` for board deals and no-ops.
    *cards* holds ``None`` for each unknown card (``??``). A ``sm`` line with no cards is a
    muck; ``sm -`` (show the cards already dealt) has *shows_dealt* set and no cards.
    *amount* is the "raise to" total of a ``cbr`` line.
    """

    verb: Verb
    player: int | None = None
    cards: tuple[Card | None, ...] = ()
    amount: Amount | None = None
    shows_dealt: bool = field(default=False, repr=False)
    commentary: str | None = field(default=None, repr=False)

    @property
    def is_muck(self) -> bool:
        """A ``pN sm`` line without cards: the player gives up the hand."""
        return self.verb is Verb.SHOW_OR_MUCK and not self.cards and not self.shows_dealt

    def __str__(self) -> str:
        words: list[str]
        if self.verb is Verb.NO_OP:
            words = []
        elif self.verb in (Verb.DEAL_HOLE, Verb.DEAL_BOARD):
            words = ["d", self.verb.value]
            if self.verb is Verb.DEAL_HOLE:
                words.append(f"p{(self.player or 0) + 1}")
            words.append(format_phh_cards(self.cards))
        else:
            words = [f"p{(self.player or 0) + 1}", self.verb.value]
            if self.verb is Verb.BET_OR_RAISE_TO:
                words.append(_format_number(self.amount if self.amount is not None else 0))
            elif self.shows_dealt:
                words.append("-")
            elif self.cards:
                words.append(format_phh_cards(self.cards))
        if self.commentary is not None:
            words += ["#", self.commentary] if self.commentary else ["#"]
        return " ".join(words)


def parse_action(text: str) -> PhhAction:
    """Parse one ``actions`` entry, e.g. ``'p3 cbr 6'`` or ``'d dh p1 7s'``.

    Grammar (PHH ``required.rst``): ``[actor verb [args]][ # commentary]`` with words separated
    by any whitespace; an empty entry or a lone comment is a no-op.

    :raises ParseError: if the line does not follow the grammar of a hold'em action.
    """
    body, hash_sign, comment = text.partition("#")
    commentary = comment.strip() if hash_sign else None
    words = body.split()
    if not words:
        return PhhAction(Verb.NO_OP, commentary=commentary)
    actor = words[0]
    if actor == "d":
        return _parse_dealer(words, text, commentary)
    match = _PLAYER_TOKEN.fullmatch(actor)
    if match is None:
        raise ParseError(f"{text!r}: the actor must be 'd' or p1, p2, ..., not {actor!r}")
    player = int(match.group(1)) - 1
    verb_text = words[1] if len(words) > 1 else ""
    args = words[2:]
    if verb_text in ("f", "cc") and not args:
        return PhhAction(Verb(verb_text), player, commentary=commentary)
    if verb_text == "cbr" and len(args) == 1:
        try:
            amount = _parse_amount_text(args[0])
        except ParseError as exc:
            raise ParseError(f"{text!r}: {exc}") from None
        if amount <= 0:
            raise ParseError(f"{text!r}: a bet or raise-to amount must be positive")
        return PhhAction(Verb.BET_OR_RAISE_TO, player, amount=amount, commentary=commentary)
    if verb_text == "sm" and len(args) <= 1:
        if not args:
            return PhhAction(Verb.SHOW_OR_MUCK, player, commentary=commentary)
        if args[0] == "-":
            return PhhAction(Verb.SHOW_OR_MUCK, player, shows_dealt=True, commentary=commentary)
        return PhhAction(Verb.SHOW_OR_MUCK, player, _cards_of(args[0], text),
                         commentary=commentary)
    if verb_text in _NOT_HOLDEM:
        raise ParseError(f"{text!r}: {verb_text!r} ({_NOT_HOLDEM[verb_text]}) is not a "
                         f"hold'em action")
    raise ParseError(f"{text!r}: expected 'f', 'cc', 'cbr AMOUNT' or 'sm [CARDS|-]' "
                     f"after {actor}")


# Real files repeat the same lines ('d dh p1 ????', 'p3 f') millions of times; a parsed line is
# a frozen value, so corpus jobs share them (errors are not cached: they raise every time).
_parse_action_cached = functools.lru_cache(maxsize=16384)(parse_action)


def _parse_dealer(words: list[str], text: str, commentary: str | None) -> PhhAction:
    if len(words) == 3 and words[1] == "db":
        return PhhAction(Verb.DEAL_BOARD, cards=_cards_of(words[2], text),
                         commentary=commentary)
    if len(words) == 4 and words[1] == "dh":
        match = _PLAYER_TOKEN.fullmatch(words[2])
        if match is None:
            raise ParseError(f"{text!r}: {words[2]!r} is not a player (p1, p2, ...)")
        return PhhAction(Verb.DEAL_HOLE, int(match.group(1)) - 1, _cards_of(words[3], text),
                         commentary=commentary)
    raise ParseError(f"{text!r}: a dealer line is 'd db CARDS' or 'd dh pN CARDS'")


def _cards_of(token: str, text: str) -> tuple[Card | None, ...]:
    try:
        return parse_phh_cards(token)
    except ParseError as exc:
        raise ParseError(f"{text!r}: {exc}") from None


# --------------------------------------------------------------------------------------------
# The record


@dataclass(frozen=True, kw_only=True, slots=True)
class HandRecord:
    """One hand history: every PHH field of a hold'em hand, checked for type and length.

    Arrays are tuples in position order (``p1`` first). Actions are kept as written (lossless
    round trip); :meth:`parsed_actions` gives them typed. Fields starting with ``_`` are user
    fields and kept in :attr:`user_fields`. A lenient read (the default) records problems it
    could step over in :attr:`errors` instead of raising.

    :raises HistoryError: (on construction) for a missing or mistyped required field, an
        unsupported variant or a per-player array whose length is not the number of players.
    """

    variant: str
    antes: tuple[Amount, ...]
    blinds_or_straddles: tuple[Amount, ...]
    starting_stacks: tuple[Amount, ...]
    actions: tuple[str, ...]
    min_bet: Amount | None = None
    small_bet: Amount | None = None
    big_bet: Amount | None = None
    ante_trimming_status: bool | None = None
    author: str | None = None
    event: str | None = None
    url: str | None = None
    venue: str | None = None
    address: str | None = None
    city: str | None = None
    region: str | None = None
    postal_code: str | None = None
    country: str | None = None
    time: datetime.time | None = None
    time_zone: str | None = None
    time_zone_abbreviation: str | None = None
    day: int | None = None
    month: int | None = None
    year: int | None = None
    hand: int | str | None = None
    level: int | None = None
    seats: tuple[int, ...] | None = None
    seat_count: int | None = None
    table: int | str | None = None
    players: tuple[str, ...] | None = None
    finishing_stacks: tuple[Amount, ...] | None = None
    winnings: tuple[Amount, ...] | None = None
    currency: str | None = None
    currency_symbol: str | None = None
    time_limit: Amount | None = None
    time_banks: tuple[Amount, ...] | None = None
    user_fields: Mapping[str, Any] = field(default_factory=dict, hash=False)
    errors: tuple[str, ...] = field(default=(), compare=False)

    def __post_init__(self) -> None:
        if self.variant not in REQUIRED_FIELDS:
            raise HistoryError(f"variant: {self.variant!r} is not supported; feltro reads "
                               f"hold'em, 'NT' (no-limit) or 'FT' (fixed-limit)")
        for name in _STAKE_FIELDS:
            value = getattr(self, name)
            required = name in REQUIRED_FIELDS[self.variant]
            if value is None:
                if required:
                    raise HistoryError(f"{name}: required for variant {self.variant!r}")
            elif not required:
                raise HistoryError(f"{name}: not a field of variant {self.variant!r}")
            elif not 0 < value < math.inf:
                raise HistoryError(f"{name}: {value!r} must be a positive number")
        count = len(self.starting_stacks)
        if count < 2:
            raise HistoryError(f"starting_stacks: a hand needs at least 2 players, got {count}")
        for name in _PER_PLAYER_FIELDS:
            value = getattr(self, name)
            if value is not None and len(value) != count:
                raise HistoryError(f"{name}: has {len(value)} entries but starting_stacks "
                                   f"has {count} players")
        for name in ("antes", "blinds_or_straddles"):
            if any(x < 0 for x in getattr(self, name)):
                raise HistoryError(f"{name}: amounts must not be negative")
        if any(not x > 0 for x in self.starting_stacks):
            raise HistoryError("starting_stacks: every stack must be positive")
        if not all(isinstance(a, str) for a in self.actions):
            raise HistoryError("actions: every entry must be a string")
        object.__setattr__(self, "user_fields", MappingProxyType(dict(self.user_fields)))

    @property
    def player_count(self) -> int:
        """The number of players (the length of ``starting_stacks``)."""
        return len(self.starting_stacks)

    def parsed_actions(self) -> list[PhhAction]:
        """Every action line, parsed.

        :raises ParseError: naming the index of the first line that does not parse or names a
            player beyond ``p{player_count}``.
        """
        count = self.player_count
        return [_parse_line(text, index, count) for index, text in enumerate(self.actions)]

    def to_mapping(self) -> dict[str, Any]:
        """The record as the plain TOML mapping it is written as (``None`` fields left out)."""
        data: dict[str, Any] = {}
        for name in REQUIRED_FIELDS[self.variant]:
            data[name] = _plain(getattr(self, name))
        for name in OPTIONAL_FIELDS:
            value = getattr(self, name)
            if value is not None:
                data[name] = _plain(value)
        data.update(self.user_fields)
        return data

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], *, strict: bool = False) -> HandRecord:
        """Build a record from a parsed TOML mapping.

        Lenient (default): unknown fields without ``_`` are kept as user fields, optional fields
        of the wrong type or length are dropped and action lines that do not parse are kept as
        written; each of these is noted in :attr:`errors`. With *strict* each raises.

        :raises HistoryError: for a missing or wrong required field (always), or any of the
            problems above when *strict*.
        :raises ParseError: when *strict*, for an action line that does not parse.
        """
        return _record_from_mapping(data, strict)


_RECORD_FIELDS = frozenset(f.name for f in fields(HandRecord)) - {"user_fields", "errors"}


def _parse_line(text: str, index: int, count: int) -> PhhAction:
    """Parse ``actions[index]`` of a hand of *count* players.

    :raises ParseError: naming the index, for a malformed line or a player beyond ``pcount``.
    """
    try:
        action = _parse_action_cached(text)
    except ParseError as exc:
        raise ParseError(f"actions[{index}]: {exc}") from None
    if action.player is not None and action.player >= count:
        raise ParseError(f"actions[{index}]: {text!r} names p{action.player + 1} but the hand "
                         f"has {count} players")
    return action


def _record_from_mapping(data: Mapping[str, Any], strict: bool) -> HandRecord:
    errors: list[str] = []

    def problem(message: str) -> None:
        if strict:
            raise HistoryError(message)
        errors.append(message)

    variant = data.get("variant")
    if not isinstance(variant, str):
        raise HistoryError("variant: required, a string such as 'NT'" if variant is None
                           else f"variant: expected a string, got {variant!r}")
    if variant not in REQUIRED_FIELDS:
        raise HistoryError(f"variant: {variant!r} is not supported; feltro reads hold'em, "
                           f"'NT' (no-limit) or 'FT' (fixed-limit)")
    for name in REQUIRED_FIELDS[variant]:
        if name not in data:
            raise HistoryError(f"{name}: required field missing (variant {variant!r})")
    for name in _HOLDEM_ONLY_FIELDS:
        if name in data:
            problem(f"{name}: not a hold'em field; ignored")
    actions = data["actions"]
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise HistoryError("actions: expected an array of strings")
    kwargs: dict[str, Any] = {
        "variant": variant,
        "antes": _amounts(data["antes"], "antes"),
        "blinds_or_straddles": _amounts(data["blinds_or_straddles"], "blinds_or_straddles"),
        "starting_stacks": _amounts(data["starting_stacks"], "starting_stacks"),
        "actions": tuple(actions),
    }
    for name in _STAKE_FIELDS:
        if name in REQUIRED_FIELDS[variant]:
            kwargs[name] = _amount(data[name], name)
        elif name in data:
            problem(f"{name}: not a field of variant {variant!r}; ignored")
    count = len(kwargs["starting_stacks"])
    user: dict[str, Any] = {}
    for name, value in data.items():
        if name in REQUIRED_FIELDS[variant] or name in _STAKE_FIELDS + _HOLDEM_ONLY_FIELDS:
            continue
        if name.startswith("_"):
            user[name] = value
        elif name not in _RECORD_FIELDS:
            problem(f"{name}: unknown field (user-defined fields start with '_'); kept")
            user[name] = value
        else:
            try:
                kwargs[name] = _optional_value(name, value, count)
            except HistoryError as exc:
                problem(f"{exc}; ignored")
    record = HandRecord(**kwargs, user_fields=user)  # checks the fields before the lines
    for index, text in enumerate(record.actions):
        try:
            _parse_line(text, index, count)
        except ParseError as exc:
            if strict:
                raise
            errors.append(str(exc))
    return replace(record, errors=tuple(errors)) if errors else record


def _optional_value(name: str, value: Any, count: int) -> Any:
    """Check and normalise one optional field.

    :raises HistoryError: naming the field when its type or length is wrong.
    """
    if name == "ante_trimming_status":
        if not isinstance(value, bool):
            raise HistoryError(f"{name}: expected true or false, got {value!r}")
        return value
    if name in _STRING_FIELDS:
        if not isinstance(value, str):
            raise HistoryError(f"{name}: expected a string, got {value!r}")
        return value
    if name in _INT_FIELDS or name in _INT_OR_STRING_FIELDS:
        ok = isinstance(value, int) and not isinstance(value, bool)
        if not ok and name in _INT_OR_STRING_FIELDS and isinstance(value, str):
            ok = True
        if not ok:
            kind = "an integer or a string" if name in _INT_OR_STRING_FIELDS else "an integer"
            raise HistoryError(f"{name}: expected {kind}, got {value!r}")
        return value
    if name == "time":
        if not isinstance(value, datetime.time):
            raise HistoryError(f"{name}: expected a TOML local time (12:34:56), got {value!r}")
        return value
    if name == "time_limit":
        return _amount(value, name)
    if name in ("players", "seats"):
        item_type: type = str if name == "players" else int
        if (not isinstance(value, list) or
                not all(isinstance(v, item_type) and not isinstance(v, bool) for v in value)):
            raise HistoryError(f"{name}: expected an array of {item_type.__name__}s, "
                               f"got {value!r}")
        result: tuple[Any, ...] = tuple(value)
    else:  # finishing_stacks, winnings, time_banks
        result = _amounts(value, name)
    if len(result) != count:
        raise HistoryError(f"{name}: has {len(result)} entries but starting_stacks has "
                           f"{count} players")
    return result


def _plain(value: Any) -> Any:
    """Tuples become lists, for TOML-shaped output."""
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


# --------------------------------------------------------------------------------------------
# Reading and writing text


def _toml(text: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ParseError(f"not a PHH file (TOML): {exc}") from None


def loads(text: str, *, strict: bool = False) -> HandRecord:
    """Read one hand from ``.phh`` text.

    :raises ParseError: if the text is not TOML, or (when *strict*) an action line is malformed.
    :raises HistoryError: for a missing or wrong field (see :meth:`HandRecord.from_mapping`).
    """
    return HandRecord.from_mapping(_toml(text), strict=strict)


def loads_all(text: str, *, strict: bool = False) -> list[tuple[str, HandRecord]]:
    """Read every hand of ``.phhs`` text: ``(table name, record)`` pairs in file order.

    :raises ParseError: if the text is not TOML or a top-level value is not a table.
    :raises HistoryError: for a wrong hand, naming its table.
    """
    hands: list[tuple[str, HandRecord]] = []
    for name, table in _toml(text).items():
        if not isinstance(table, dict):
            raise ParseError(f"[{name}]: a .phhs file holds one table per hand, "
                             f"not a top-level {name!r} = {table!r}")
        try:
            hands.append((name, HandRecord.from_mapping(table, strict=strict)))
        except HistoryError as exc:
            raise HistoryError(f"[{name}] {exc}") from None
        except ParseError as exc:
            raise ParseError(f"[{name}] {exc}") from None
    return hands


def dumps(record: HandRecord) -> str:
    """Write *record* as ``.phh`` text (TOML; actions one per line).

    :raises HistoryError: if a user field holds a value TOML cannot write.
    """
    lines: list[str] = []
    for name, value in record.to_mapping().items():
        if name == "actions":
            lines.append("actions = [")
            lines.extend(f"  {_toml_value(a)}," for a in value)
            lines.append("]")
        else:
            lines.append(f"{_toml_key(name)} = {_toml_value(value)}")
    return "\n".join(lines) + "\n"


def dumps_all(records: Iterable[HandRecord] | Mapping[str, HandRecord]) -> str:
    """Write several hands as ``.phhs`` text; tables are named ``1``, ``2``, ... unless a
    mapping gives the names.

    :raises HistoryError: if a user field holds a value TOML cannot write.
    """
    named: Iterator[tuple[str, HandRecord]]
    if isinstance(records, Mapping):
        named = iter(records.items())
    else:
        named = ((str(i), r) for i, r in enumerate(records, 1))
    return "\n".join(f"[{_toml_key(name)}]\n{dumps(record)}" for name, record in named)


_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def _toml_key(key: str) -> str:
    return key if _BARE_KEY.fullmatch(key) else json.dumps(key, ensure_ascii=False)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return _format_number(value)
    if isinstance(value, str):
        # Literal strings like real files ('p1 cbr 6') when nothing needs escaping.
        if "'" not in value and value.isprintable():
            return f"'{value}'"
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, Sequence):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, Mapping):
        pairs = (f"{_toml_key(str(k))} = {_toml_value(v)}" for k, v in value.items())
        return "{" + ", ".join(pairs) + "}"
    raise HistoryError(f"cannot write {value!r} ({type(value).__name__}) as TOML")


def _format_number(value: Amount) -> str:
    if isinstance(value, bool):
        raise HistoryError(f"{value!r} is not a number")
    if isinstance(value, int):
        return str(value)
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    if math.isnan(value):
        return "nan"
    text = repr(value)
    return text if any(c in text for c in ".en") else text + ".0"
