"""The PHH hand-history format: records, reading and writing TOML text.

A PHH file (``.phh``) is a TOML document describing one hand; a ``.phhs`` file holds many as
tables (``[1]``, ``[2]``, ...). This module is pure: it turns text into :class:`HandRecord`
values and back; one action line's grammar is :mod:`feltro.history.action_lines` (its names
are re-exported here). It knows the *format* only; whether the actions are legal under
RULES.md is decided by :mod:`feltro.history.replay`.

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
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from feltro.errors import HistoryError, ParseError
from feltro.history.action_lines import (
    Amount,
    PhhAction,
    Verb,
    format_amount,
    format_phh_cards,
    parse_action,
    parse_phh_cards,
)

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
# Numbers


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


# Real files repeat the same lines ('d dh p1 ????', 'p3 f') millions of times; a parsed line is
# a frozen value, so corpus jobs share them (errors are not cached: they raise every time).
_parse_action_cached = functools.lru_cache(maxsize=16384)(parse_action)


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


class _Problems:
    """What a lenient read steps over (kept in :attr:`HandRecord.errors`); strict raises."""

    def __init__(self, strict: bool) -> None:
        self.strict = strict
        self.found: list[str] = []

    def __call__(self, message: str) -> None:
        if self.strict:
            raise HistoryError(message)
        self.found.append(message)


def _record_from_mapping(data: Mapping[str, Any], strict: bool) -> HandRecord:
    problem = _Problems(strict)
    kwargs = _required_fields(data, problem)
    count = len(kwargs["starting_stacks"])
    user: dict[str, Any] = {}
    skip = {*REQUIRED_FIELDS[kwargs["variant"]], *_STAKE_FIELDS, *_HOLDEM_ONLY_FIELDS}
    for name, value in data.items():
        if name in skip:
            continue
        if name.startswith("_"):
            user[name] = value
        elif name not in _OPTIONAL_READERS:
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
            problem.found.append(str(exc))
    return replace(record, errors=tuple(problem.found)) if problem.found else record


def _required_fields(data: Mapping[str, Any], problem: _Problems) -> dict[str, Any]:
    """The variant, its required fields and its stakes, checked.

    :raises HistoryError: for a missing or wrong one (even when reading leniently).
    """
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
    kwargs: dict[str, Any] = {"variant": variant, "actions": tuple(actions)}
    for name in ("antes", "blinds_or_straddles", "starting_stacks"):
        kwargs[name] = _amounts(data[name], name)
    for name in _STAKE_FIELDS:
        if name in REQUIRED_FIELDS[variant]:
            kwargs[name] = _amount(data[name], name)
        elif name in data:
            problem(f"{name}: not a field of variant {variant!r}; ignored")
    return kwargs


# --- the optional fields, one reader per kind of value (each raises HistoryError) ------------


def _flag(name: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise HistoryError(f"{name}: expected true or false, got {value!r}")
    return value


def _text(name: str, value: Any) -> str:
    if not isinstance(value, str):
        raise HistoryError(f"{name}: expected a string, got {value!r}")
    return value


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _integer(name: str, value: Any) -> int:
    if not _whole(value):
        raise HistoryError(f"{name}: expected an integer, got {value!r}")
    return int(value)


def _integer_or_text(name: str, value: Any) -> int | str:
    if not _whole(value) and not isinstance(value, str):
        raise HistoryError(f"{name}: expected an integer or a string, got {value!r}")
    return value  # type: ignore[no-any-return]


def _local_time(name: str, value: Any) -> datetime.time:
    if not isinstance(value, datetime.time):
        raise HistoryError(f"{name}: expected a TOML local time (12:34:56), got {value!r}")
    return value


def _names(name: str, value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise HistoryError(f"{name}: expected an array of strs, got {value!r}")
    return tuple(value)


def _seat_numbers(name: str, value: Any) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(_whole(v) for v in value):
        raise HistoryError(f"{name}: expected an array of ints, got {value!r}")
    return tuple(value)


_OPTIONAL_READERS: Mapping[str, Callable[[str, Any], Any]] = MappingProxyType({
    "ante_trimming_status": _flag,
    **dict.fromkeys(_STRING_FIELDS, _text),
    **dict.fromkeys(_INT_FIELDS, _integer),
    **dict.fromkeys(_INT_OR_STRING_FIELDS, _integer_or_text),
    "time": _local_time,
    "time_limit": lambda name, value: _amount(value, name),
    "players": _names,
    "seats": _seat_numbers,
    **dict.fromkeys(("finishing_stacks", "winnings", "time_banks"),
                    lambda name, value: _amounts(value, name)),
})
assert set(_OPTIONAL_READERS) == set(OPTIONAL_FIELDS)


def _optional_value(name: str, value: Any, count: int) -> Any:
    """Check and normalise one optional field (a per-player array has *count* entries).

    :raises HistoryError: naming the field when its type or length is wrong.
    """
    result = _OPTIONAL_READERS[name](name, value)
    if name in _PER_PLAYER_FIELDS and len(result) != count:
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
        return format_amount(value)
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
