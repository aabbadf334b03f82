"""The configuration of one hand: :class:`HandConfig` and :class:`Structure`.

Positions are numbered in deal order: 0 is the first player left of the button, ``n - 1``
the button. Everything the engine can derive once per configuration (who is the big blind,
who acts first preflop, the first increment) is computed here, so starting a hand is cheap.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Final

from feltro.errors import ConfigError

__all__ = ["HandConfig", "Structure"]


class Structure(StrEnum):
    """Betting structures: no-limit (G1, the default), pot-limit, fixed-limit (B10)."""

    NO_LIMIT = "no-limit"
    POT_LIMIT = "pot-limit"
    FIXED_LIMIT = "fixed-limit"


# The structures as the small ints the engine compares on its hot path (``_Plan.structure``).
NO_LIMIT_CODE: Final = 0
POT_LIMIT_CODE: Final = 1
FIXED_LIMIT_CODE: Final = 2
STRUCTURE_CODES: Final[Mapping[Structure, int]] = {
    Structure.NO_LIMIT: NO_LIMIT_CODE,
    Structure.POT_LIMIT: POT_LIMIT_CODE,
    Structure.FIXED_LIMIT: FIXED_LIMIT_CODE,
}


def _whole(name: str, value: object, *, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(f"{name} must be a whole number of chips, not {value!r}")
    if value < minimum:
        raise ConfigError(f"{name} must be at least {minimum}, not {value}")
    return value


def _chips(name: str, values: object, n: int | None, *, minimum: int) -> tuple[int, ...]:
    if isinstance(values, str | bytes) or not isinstance(values, Sequence):
        raise ConfigError(f"{name} must be a sequence of chip counts, not {values!r}")
    if n is not None and len(values) != n:
        raise ConfigError(f"{name} needs one entry per player ({n}), got {len(values)}")
    return tuple(_whole(f"{name}[{i}]", v, minimum=minimum) for i, v in enumerate(values))


def _big_blind_position(blinds: tuple[int, ...], top: int) -> int:
    """The position of the big blind: preflop the next position acts first (B2).

    Heads-up the button (position 1) posts the small blind and the other player the big
    blind, whatever the amounts (D6: with 2/2 blinds the button still acts first preflop).
    Otherwise the largest nominal blind, the later one on a tie (a straddle is the largest);
    with no blinds at all the "big blind" is the button, so position 0 acts first.
    """
    n = len(blinds)
    if top == 0:
        return n - 1
    if n == 2 and blinds[0] > 0:
        return 0
    return max(i for i in range(n) if blinds[i] == top)


@dataclass(frozen=True)
class _Plan:
    """What a hand needs from its config, derived once."""

    n: int
    antes: tuple[int, ...]
    big_blind_position: int
    first_preflop: int
    preflop_bet: int
    preflop_increment: int
    preflop_bets: int
    min_bet: int
    big_bet: int
    structure: int  # one of STRUCTURE_CODES' values


@dataclass(frozen=True, kw_only=True)
class HandConfig:
    """One hand's table: stacks, forced bets and structure, by position (validated).

    >>> HandConfig.standard([200, 200, 200]).blinds
    (1, 2, 0)
    >>> HandConfig.standard([200, 200]).blinds      # heads-up: the button posts the small blind
    (2, 1)
    >>> HandConfig.standard([200, 200], small_blind=2, big_blind=2).big_blind_position
    0
    """

    stacks: tuple[int, ...]
    """Chips per position before antes and blinds; 2..10 players, each > 0."""
    blinds: tuple[int, ...]
    """Nominal blind per position (0 = none): ``(1, 2, 0, ...)``; heads-up ``(2, 1)`` (D6);
    dead small blind ``(2, 0, 0, ...)``."""
    big_blind: int
    """Preflop everybody faces at least this, even when the big blind is short (D10)."""
    antes: tuple[int, ...] = ()
    """Ante per position (B11); ``()`` = none; a big-blind ante is ``(0, 3, 0)``."""
    min_bet: int | None = None
    """Minimum opening bet (B6); ``None`` = the big blind. Fixed-limit: the small bet."""
    structure: Structure = Structure.NO_LIMIT
    """No-limit, pot-limit or fixed-limit (B10)."""
    big_bet: int | None = None
    """Fixed-limit bet on the turn and river; ``None`` = twice the small bet (B10)."""
    ante_trimming: bool = True
    """PHH ``ante_trimming_status``. True (RULES.md, B11 and P1): antes are forced bets that
    count in the contribution levels, so a player all-in on a short ante contests only what it
    covered, and an ante nobody else matched is returned. False (PHH's default, for a
    big-blind ante): antes are dead money in the main pot."""
    big_blind_at: int | None = None
    """The big blind's position when the table says so rather than the blinds (site rules:
    a returning player's live post of a big blind out of position, a heads-up button that
    posted the big blind); ``None``: found from the blinds (:attr:`big_blind_position`)."""
    chip: int = 1
    """The smallest chip, in the units of the amounts: a split pot's odd chips are whole
    chips (P7), e.g. 10 to split in chips of 10 (X5), or a cent of money played in tenths of
    a cent. A remainder smaller than a chip goes to the first winner."""
    _plan: _Plan = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        stacks = _chips("stacks", self.stacks, None, minimum=1)
        n = len(stacks)
        if not 2 <= n <= 10:
            raise ConfigError(f"a hand needs 2 to 10 players (G1), got {n}")
        blinds = _chips("blinds", self.blinds, n, minimum=0)
        big_blind = _whole("big_blind", self.big_blind, minimum=1)
        antes = _chips("antes", self.antes, n, minimum=0) if len(self.antes) else ()
        min_bet = big_blind if self.min_bet is None else _whole("min_bet", self.min_bet,
                                                                 minimum=1)
        big_bet = 2 * min_bet if self.big_bet is None else _whole("big_bet", self.big_bet,
                                                                  minimum=1)
        try:
            structure = Structure(self.structure)
        except ValueError:
            raise ConfigError(f"unknown structure {self.structure!r}: use one of "
                              f"{', '.join(s.value for s in Structure)}") from None
        _whole("chip", self.chip, minimum=1)
        if not isinstance(self.ante_trimming, bool):
            raise ConfigError(f"ante_trimming must be True or False, not {self.ante_trimming!r}")
        setter = object.__setattr__
        setter(self, "stacks", stacks)
        setter(self, "blinds", blinds)
        setter(self, "antes", antes)
        setter(self, "structure", structure)

        top = max(blinds)
        bb_pos = _big_blind_position(blinds, top)
        if self.big_blind_at is not None:
            bb_pos = _whole("big_blind_at", self.big_blind_at, minimum=0)
            if bb_pos >= n:
                raise ConfigError(f"big_blind_at must be a position 0..{n - 1}, not {bb_pos}")
        preflop_bet = max(big_blind, top) if top > 0 else 0
        setter(self, "_plan", _Plan(
            n=n,
            antes=antes or (0,) * n,
            big_blind_position=bb_pos,
            first_preflop=(bb_pos + 1) % n,
            preflop_bet=preflop_bet,
            # The big blind counts as a full bet preflop (B6); fixed-limit counts it as the
            # first of the four bets (B10).
            preflop_increment=(min_bet if structure is Structure.FIXED_LIMIT
                               else max(min_bet, preflop_bet)),
            preflop_bets=1 if preflop_bet > 0 else 0,
            min_bet=min_bet,
            big_bet=big_bet,
            structure=STRUCTURE_CODES[structure],
        ))

    @classmethod
    def standard(
        cls,
        stacks: Sequence[int],
        *,
        small_blind: int = 1,
        big_blind: int = 2,
        ante: int = 0,
        structure: Structure = Structure.NO_LIMIT,
        min_bet: int | None = None,
    ) -> HandConfig:
        """The usual blinds for ``len(stacks)`` players (G2 defaults 1/2, no ante).

        Heads-up the button posts the small blind (D6), so the blinds are ``(big, small)``.

        :raises ConfigError: for an impossible configuration.
        """
        n = len(stacks)
        if n == 2:
            blinds: tuple[int, ...] = (big_blind, small_blind)
        else:
            blinds = (small_blind, big_blind) + (0,) * max(0, n - 2)
        return cls(stacks=tuple(stacks), blinds=blinds, big_blind=big_blind,
                   antes=(ante,) * n if ante else (), structure=structure, min_bet=min_bet)

    @property
    def players(self) -> int:
        """The number of players (positions)."""
        return len(self.stacks)

    @property
    def big_blind_position(self) -> int:
        """The position posting the big blind (the largest blind; heads-up the player who is
        not the button, D6); preflop the next position acts first (B2)."""
        return self._plan.big_blind_position

    @property
    def small_blind_position(self) -> int | None:
        """The position posting the small blind, or ``None`` (dead small blind, D8): the first
        other blind in posting order (heads-up the button, D6, whatever the amounts)."""
        n = len(self.blinds)
        big = self._plan.big_blind_position
        top = self.blinds[big]
        order = (1, 0) if n == 2 else range(n)
        return next((p for p in order if p != big and 0 < self.blinds[p] <= top), None)

    def replace(self, **changes: Any) -> HandConfig:
        """A copy with some fields changed (validated again)."""
        values: dict[str, Any] = {
            "stacks": self.stacks, "blinds": self.blinds, "big_blind": self.big_blind,
            "antes": self.antes, "min_bet": self.min_bet, "structure": self.structure,
            "big_bet": self.big_bet, "ante_trimming": self.ante_trimming,
            "big_blind_at": self.big_blind_at, "chip": self.chip,
        }
        values.update(changes)
        return HandConfig(**values)
