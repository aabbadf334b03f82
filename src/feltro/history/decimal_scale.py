"""Exact reading of real hand histories: decimal stakes, returning players' posts, unknown stacks.

Online histories write money, not chips: ``starting_stacks = [200.30, 81.60, 197]``,
``'p1 cbr 3.00'``. :func:`scale_hand` reads the TOML numbers as :class:`~decimal.Decimal`
(never floats), finds the smallest power of ten that makes every amount of the play whole
(stacks, forced bets, ``min_bet`` and every ``cbr`` amount) and the smallest chip (P7's odd
chip: the currency's smallest coin, a cent for ``currency = 'USD'`` or
``currency_symbol = '$'``, unless told otherwise), and returns a :class:`ScaledHand`: a
:class:`~feltro.history.phh.HandRecord` in those whole units, plus what turns them back into
the history's own units. ``finishing_stacks`` and ``winnings`` are results, not play, so they
do not choose the scale; they are kept exactly, in the history's units, for comparison.

Two more things real files hold that a house-rules record cannot:

* a **negative** blind (OnGame, PartyPoker, PokerStars, iPoker): what a player returning to
  the game posts out of position. The record gets ``0`` there and
  :attr:`ScaledHand.returning_posts` keeps the amount; how (and whether) it is played is the
  replay's decision (``--rules casino``).
* an ``inf`` stack (iPoker): unknown. The record gets a stack larger than anything the hand
  could bet, and :attr:`ScaledHand.unknown_stacks` names those positions, whose finishing
  stacks are then unknown too.

>>> hand = scale_hand(read_tables('''
... [1]
... variant = 'NT'
... antes = [0, 0, 0]
... blinds_or_straddles = [0.50, 1, 0]
... min_bet = 1
... starting_stacks = [200.30, 81.60, 197]
... actions = ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'p3 f', 'p1 cbr 3.00', 'p2 f']
... ''')[0][1])
>>> hand.scale, hand.record.starting_stacks, hand.record.actions[-2]
(10, (2003, 816, 1970), 'p1 cbr 30')
>>> hand.units(2013)
Decimal('201.3')
"""

from __future__ import annotations

import math
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any, Final

from feltro.errors import HistoryError, ParseError
from feltro.history.phh import REQUIRED_FIELDS, HandRecord

__all__ = ["MINOR_UNITS", "ScaledHand", "exact_number", "per_position", "read_tables",
           "scale_hand"]

_PLAY_ARRAYS = ("antes", "blinds_or_straddles", "starting_stacks")
_STAKES = ("min_bet", "small_bet", "big_bet")
_RESULTS = ("finishing_stacks", "winnings")
# A top-level table header of a .phhs file, e.g. [12] or ["pluribus/100/0"].
_HEADER = re.compile(r"^\[[^\[\]]+\]\s*(#.*)?$", re.MULTILINE)
_INF = Decimal("Infinity")

MINOR_UNITS: Final[Mapping[str, int]] = {
    **dict.fromkeys(["USD", "EUR", "GBP", "CAD", "AUD", "NZD", "CHF", "SEK", "NOK", "DKK",
                     "PLN", "CZK", "HUF", "RON", "BGN", "BRL", "MXN", "ARS", "INR", "CNY",
                     "HKD", "SGD", "ZAR", "RUB", "UAH", "TRY", "ILS"], 2),
    **dict.fromkeys(["JPY", "KRW", "ISK", "CLP", "VND"], 0),
    **dict.fromkeys(["KWD", "BHD", "JOD", "OMR", "TND"], 3),
}
"""ISO 4217 minor units (decimal places of the smallest coin) of the currencies a history may
name; a cent for most. Another currency's chip is read from the amounts."""
_SYMBOL_MINOR_UNITS: Final[Mapping[str, int]] = {"$": 2, "€": 2, "£": 2}
"""Symbols that name a currency with cents whatever the country (HandHQ writes only ``$``)."""


@dataclass(frozen=True, slots=True)
class ScaledHand:
    """One hand in whole units of ``1 / scale`` of the history's money.

    ``returning_posts`` (the amounts of negative blinds) are by position (``p1`` first, in
    the file's order) and ``unknown_stacks`` lists positions, in those units;
    ``finishing_stacks`` and ``winnings`` are exact, in the history's own units (``None``
    entries are unknown, ``inf`` in the file).
    """

    record: HandRecord
    scale: int
    returning_posts: tuple[int, ...]
    unknown_stacks: tuple[int, ...]
    finishing_stacks: tuple[Decimal | None, ...] | None
    winnings: tuple[Decimal | None, ...] | None
    chip: int = 1
    """The smallest chip (P7's odd chip), in whole units."""
    chip_source: str = "amounts"
    """Where the chip comes from: ``"--chip-unit"``, ``"currency USD"``, ``"currency_symbol
    $"`` or ``"amounts"`` (one unit of the scale)."""

    @property
    def chip_unit(self) -> Decimal:
        """The smallest chip in the history's own money (``Decimal('0.01')``)."""
        return self.units(self.chip)

    def units(self, amount: int) -> Decimal:
        """*amount* (whole units) in the history's own units, exactly."""
        return Decimal(amount) / self.scale if self.scale != 1 else Decimal(amount)


def read_tables(text: str) -> list[tuple[str, Mapping[str, Any] | ParseError]]:
    """The hands of ``.phhs`` text (or one ``.phh`` hand, named ``""``) as TOML tables whose
    numbers are :class:`~decimal.Decimal` values.

    A table whose TOML is broken does not stop the others: when the whole text does not parse,
    each ``[NAME]`` section is read on its own, and a section that still fails gives a
    :class:`~feltro.errors.ParseError` in its place.

    :raises ParseError: if the text is not TOML and has no ``[NAME]`` sections to fall back on.
    """
    try:
        data = tomllib.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError as exc:
        starts = [m.start() for m in _HEADER.finditer(text)]
        if not starts:
            raise ParseError(f"not a PHH file (TOML): {exc}") from None
        return [_read_section(text[a:b]) for a, b in zip(starts, [*starts[1:], len(text)],
                                                          strict=True)]
    if "variant" in data or not all(isinstance(v, dict) for v in data.values()):
        return [("", data)]
    return [(name, table) for name, table in data.items()]


def _read_section(section: str) -> tuple[str, Mapping[str, Any] | ParseError]:
    header, _, _ = section.partition("\n")
    name = header.strip().split("#")[0].strip()[1:-1].strip().strip("\"'")
    try:
        data = tomllib.loads(section, parse_float=Decimal)
    except tomllib.TOMLDecodeError as exc:
        return name, ParseError(f"not a PHH hand (TOML): {exc}")
    tables = list(data.values())
    if len(tables) != 1 or not isinstance(tables[0], dict):
        return name, ParseError("not a PHH hand (one table expected)")
    return name, tables[0]


def _decimal(value: object, where: str) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, int | Decimal | float):
        raise HistoryError(f"{where}: expected a number, got {value!r}")
    number = Decimal(value) if isinstance(value, int) else Decimal(str(value))
    if number.is_nan():
        raise HistoryError(f"{where}: NaN is not an amount")
    return number


def _places(number: Decimal) -> int:
    """Decimal places *number* needs (0 for whole numbers and infinities)."""
    if not number.is_finite():
        return 0
    exponent = number.normalize().as_tuple().exponent
    assert isinstance(exponent, int)
    return max(0, -exponent)


def _cbr_amount(line: str) -> str | None:
    words = line.partition("#")[0].split()
    if len(words) == 3 and words[1] == "cbr":
        return words[2]
    return None


def scale_hand(table: Mapping[str, Any] | ParseError,
               chip_unit: Decimal | None = None) -> ScaledHand:
    """Read one hand's TOML table (numbers as :class:`~decimal.Decimal`) in whole units.

    The smallest chip (P7's odd chip) is *chip_unit* when given, else the history's
    ``currency`` (its ISO 4217 minor unit: a cent for ``'USD'`` and ``'EUR'``), else its
    ``currency_symbol`` (``'$'``, ``'€'``, ``'£'``: a cent), else the smallest power of ten
    the amounts need. The scale makes every amount and that chip whole.

    :raises HistoryError: for a missing or wrong field (as
        :meth:`~feltro.history.phh.HandRecord.from_mapping`, which checks the rest), or a
        *chip_unit* that is not a positive amount.
    :raises ParseError: for a table that did not parse, or a ``cbr`` amount that is not a
        number.
    """
    if isinstance(table, ParseError):
        raise table
    data = dict(table)
    _check_required(data)
    arrays, stakes, bets = _play_amounts(data)
    numbers = [x for values in arrays.values() for x in values]
    numbers += list(stakes.values()) + list(bets.values())
    unit, source = _chip_unit(data, chip_unit)
    scale = 10 ** max([_places(x) for x in numbers] + [_places(unit) if unit else 0])
    unknown = _scale_stacks(data, arrays["starting_stacks"], numbers, scale)
    blinds = arrays["blinds_or_straddles"]
    dead = tuple(int(-x * scale) if x < 0 else 0 for x in blinds)
    data["blinds_or_straddles"] = [0 if x < 0 else _int_or_raw(x, scale) for x in blinds]
    data["antes"] = [_int_or_raw(x, scale) for x in arrays["antes"]]
    for name, number in stakes.items():
        data[name] = _int_or_raw(number, scale)
    actions = data["actions"]
    data["actions"] = [_rescaled(line, bets[i], scale) if i in bets else line
                       for i, line in enumerate(actions)]
    results = {name: _exact_results(data.pop(name), name) for name in _RESULTS if name in data}
    for name, value in list(data.items()):
        data[name] = _plain_floats(value)
    record = HandRecord.from_mapping(data)
    return ScaledHand(record, scale, dead, unknown, results.get("finishing_stacks"),
                      results.get("winnings"), 1 if unit is None else int(unit * scale),
                      source)


def _play_amounts(data: Mapping[str, Any]) -> tuple[dict[str, list[Decimal]],
                                                    dict[str, Decimal], dict[int, Decimal]]:
    """The amounts of the play, exactly: the stacks and forced bets arrays, the stakes, and
    the ``cbr`` amounts by line index."""
    arrays: dict[str, list[Decimal]] = {}
    for name in _PLAY_ARRAYS:
        value = data[name]
        if not isinstance(value, list):
            raise HistoryError(f"{name}: expected an array of numbers, got {value!r}")
        arrays[name] = [_decimal(v, f"{name}[{i}]") for i, v in enumerate(value)]
    stakes = {name: _decimal(data[name], name) for name in _STAKES if name in data}
    actions = data["actions"]
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise HistoryError("actions: expected an array of strings")
    return arrays, stakes, _bets(actions)


def _chip_unit(data: Mapping[str, Any], given: Decimal | None) -> tuple[Decimal | None, str]:
    """The smallest chip in the history's money and where it comes from (see
    :func:`scale_hand`); ``None`` when only the amounts can say."""
    if given is not None:
        if not given.is_finite() or given <= 0:
            raise HistoryError(f"the chip unit must be a positive amount, not {given}")
        return given, "--chip-unit"
    currency = data.get("currency")
    if isinstance(currency, str) and currency.upper() in MINOR_UNITS:
        return Decimal(1).scaleb(-MINOR_UNITS[currency.upper()]), f"currency {currency}"
    symbol = data.get("currency_symbol")
    if isinstance(symbol, str) and symbol in _SYMBOL_MINOR_UNITS:
        return Decimal(1).scaleb(-_SYMBOL_MINOR_UNITS[symbol]), f"currency_symbol {symbol}"
    return None, "amounts"


def _check_required(data: Mapping[str, Any]) -> None:
    """A supported variant with every field it requires, or :class:`HistoryError`."""
    variant = data.get("variant")
    if not isinstance(variant, str) or variant not in REQUIRED_FIELDS:
        HandRecord.from_mapping(data)  # raises, naming the variant problem
        raise HistoryError(f"variant: {variant!r} is not supported")
    for name in REQUIRED_FIELDS[variant]:
        if name not in data:
            raise HistoryError(f"{name}: required field missing (variant {variant!r})")


def _bets(actions: Sequence[str]) -> dict[int, Decimal]:
    """The ``cbr`` amounts of *actions*, by line index."""
    bets: dict[int, Decimal] = {}
    for index, line in enumerate(actions):
        text = _cbr_amount(line)
        if text is not None:
            try:
                bets[index] = Decimal(text.replace(",", "").replace("_", ""))
            except InvalidOperation:
                raise ParseError(f"actions[{index}]: {line!r}: amount {text!r} is not a "
                                 f"number") from None
    return bets


def _scale_stacks(data: dict[str, Any], stacks: Sequence[Decimal], numbers: Sequence[Decimal],
                  scale: int) -> tuple[int, ...]:
    """Put the starting stacks in *data* in whole units; an unknown (``inf``) stack becomes
    one larger than anything the hand could bet. The unknown positions."""
    unknown = tuple(p for p, x in enumerate(stacks) if x == _INF)
    if unknown:
        known = sum((abs(x) for x in numbers if x.is_finite()), Decimal(0))
        big = int(known * scale) * 2 + 1
        data["starting_stacks"] = [big if x == _INF else _int_or_raw(x, scale) for x in stacks]
    else:
        data["starting_stacks"] = [_int_or_raw(x, scale) for x in stacks]
    return unknown


def _int_or_raw(number: Decimal, scale: int) -> int | float:
    """*number* in whole units; an infinity stays a float so the record names it."""
    if not number.is_finite():
        return float(number)
    return int(number * scale)


def _rescaled(line: str, amount: Decimal, scale: int) -> str:
    body, hash_sign, comment = line.partition("#")
    words = body.split()
    words[2] = str(int(amount * scale)) if amount.is_finite() else words[2]
    return " ".join(words) + (f" {hash_sign}{comment}" if hash_sign else "")


def _exact_results(value: object, name: str) -> tuple[Decimal | None, ...] | None:
    if not isinstance(value, list):
        return None
    try:
        numbers = [_decimal(v, f"{name}[{i}]") for i, v in enumerate(value)]
    except HistoryError:
        return None
    return tuple(x if x.is_finite() else None for x in numbers)


def _plain_floats(value: Any) -> Any:
    """Decimals of fields that are not play (``time_limit``, ``time_banks``...) as floats."""
    if isinstance(value, Decimal):
        return float(value) if value != value.to_integral_value() else int(value)
    if isinstance(value, list):
        return [_plain_floats(v) for v in value]
    return value


def exact_number(value: Decimal) -> int | float | str:
    """*value* for JSON without float error: an int when whole, else a float whose shortest
    text is exactly *value* (``200.3``), else the decimal text as a string.

    >>> exact_number(Decimal("200.30")), exact_number(Decimal("5"))
    (200.3, 5)
    >>> exact_number(Decimal("0.12345678901234567"))
    '0.12345678901234567'
    """
    if value == value.to_integral_value():
        return int(value)
    as_float = float(value)
    if math.isfinite(as_float) and Decimal(repr(as_float)) == value:
        return as_float
    return str(value.normalize())


def per_position(values: Sequence[int], n: int) -> tuple[int, ...]:
    """Heads-up PHH forced-bet arrays apply reversed (see :mod:`feltro.history.replay`)."""
    return tuple(reversed(values)) if n == 2 else tuple(values)
