"""feltro's error hierarchy.

Every error a caller can cause is a :class:`FeltroError`; those caused by bad input are also
:class:`ValueError`, so ``except ValueError`` keeps working (as in python-chess).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple


class FeltroError(Exception):
    """Base class of every error feltro raises on purpose."""


class ParseError(FeltroError, ValueError):
    """Text that names no card, action or record (``"1x"``, ``"raise banana"``).

    :attr:`reason` is a stable code when interfaces word the error themselves (``"not-a-card"``
    with ``params["text"]``), else ``None``.
    """

    def __init__(self, message: str, *, reason: str | None = None,
                 params: Mapping[str, object] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.reason = reason
        self.params: Mapping[str, object] = params or {}


class CardError(FeltroError, ValueError):
    """Cards that are well formed but unusable: duplicates, ids outside 0..51, wrong counts.

    :attr:`rule` is the RULES.md id the cards break (``"D1"``), when one applies; ``str(exc)``
    then starts with it. :attr:`reason` and :attr:`params` say what is wrong as data, for
    interfaces that word it themselves: ``not-a-card`` (``text``), ``duplicate`` (``card``),
    ``hand-size`` (``count``), ``two-hands``, ``two-cards``, ``board-size`` (``count``),
    ``card-twice``; ``None`` for the others.
    """

    def __init__(self, message: str, *, rule: str | None = None, reason: str | None = None,
                 params: Mapping[str, object] | None = None) -> None:
        super().__init__(message if rule is None else f"{rule}: {message}")
        self.rule = rule
        self.message = message
        self.reason = reason
        self.params: Mapping[str, object] = params or {}


class ConfigError(FeltroError, ValueError):
    """An impossible configuration (too few seats, a blind that is not a positive integer...)."""


class Refusal(NamedTuple):
    """Why the rules refuse something, as data, for interfaces that word it themselves.

    *rule* is the RULES.md id, *reason* a stable code (the pair names the case), *params* the
    numbers a sentence needs. Positions in *params* are 0-based hand positions; ``seat`` and
    ``to_act_seat`` (session refusals only) are series seats; ``street`` is an index into
    :data:`feltro.events.STREETS` (0 preflop .. 3 river). A :class:`LegalActions` uses the
    first five rows for the kinds it does not offer; :class:`IllegalActionError` carries one.

    ====  =====================  ==================================================================
    rule  reason                 params: when
    ====  =====================  ==================================================================
    B3    ``owes``               ``owed``: a check while chips are owed
    B5    ``nobody-can-call``    ``current_bet``: a raise when nobody else left could put in
                                 more than the bet (a raise nobody can call)
    B7    ``no-chips``           ``reach``, ``current_bet``: a raise from a stack that reaches no
                                 further than a call
    B8    ``not-reopened``       ``current_bet``, ``raised_since``, ``full_increment``: a raise
                                 after a short all-in that did not reopen the betting
    B10   ``capped``             none: a fifth bet in a fixed-limit round
    B10   ``fixed-size``         ``to``, ``raise_to``: a fixed-limit raise of another size
    B6    ``whole-chips``        none: a raise amount that is not an integer
    B6    ``not-positive``       ``to``: a raise to zero or less
    B6    ``not-a-raise``        ``to``, ``current_bet``, ``min_to``: a raise to no more than
                                 the current bet
    B6    ``above-stack``        ``to``, ``reach``: a raise beyond the player's chips
    B6    ``above-pot-limit``    ``to``, ``max_to``: a pot-limit raise above the pot
    B6    ``below-min``          ``to``, ``min_to``: a raise below the minimum
    B2    ``not-your-turn``      ``position``, ``to_act``: another position is to act (from a
                                 session: ``seat``, and ``to_act_seat`` when a seat is to act)
    B2    ``not-a-person``       ``seat``: a session seat that is empty or a bot's
    B3    ``not-in-space``       ``size``: a learning environment's action number that names no
                                 action
    B5    ``betting-over``       none: an action once the betting is over (show or muck now)
    B5    ``hand-over``          none: an action, show or muck once the hand is over (but the
                                 winner of a hand everybody else folded may still show)
    D4    ``hole-not-dealt``     none: an action before every hole card is dealt
    D4    ``deals-itself``       none: dealing hole cards to a hand that has its own deck
    D4    ``hole-dealt``         none: dealing hole cards once they are all dealt
    D5    ``board-not-dealt``    ``street``: an action while the next board cards are due
    D5    ``deals-itself``       none: dealing board cards to a hand that has its own deck
    D5    ``betting-not-over``   none: dealing board cards during a betting round
    D5    ``board-complete``     none: dealing a sixth board card
    D5    ``hand-over``          none: dealing board cards once the hand is over
    G1    ``no-such-position``   ``players`` (and ``position`` when it is an integer): a position
                                 outside ``0..players - 1``
    P2    ``folded``             ``position``: a folded player shows or mucks (also after the
                                 others folded: only the winner may show then)
    P2    ``runout-shows``       ``position``: a muck when nobody can bet any more (every live
                                 hand is shown)
    P8    ``all-in-shows``       ``position``: a muck when every live player is all-in
    P8    ``betting-not-over``   ``position``: a show or muck before the betting is over
    P8    ``already-shown``      ``position``: a second show or muck after a show (also a
                                 second courtesy show of a hand won by folds)
    P8    ``already-mucked``     ``position``: a second show or muck after a muck
    P8    ``no-showdown``        none: settling a hand that is not at its showdown
    ====  =====================  ==================================================================
    """

    rule: str
    reason: str
    params: Mapping[str, int]


class IllegalActionError(FeltroError, ValueError):
    """A well-formed action the rules forbid now.

    :attr:`refusal` says why as data (:class:`Refusal`: rule, reason code, numbers);
    :attr:`rule` is its RULES.md id (``"B8"``); :attr:`position` the hand position (0-based)
    the refusal concerns, when there is one; :attr:`seat` the series seat, when a series
    (which sets it from the position) or a session (refusing one of its seats) knows it.
    ``str(exc)`` is an English sentence for people and logs,
    ``"B8: ..."``; code reads the attributes, never the sentence.
    """

    def __init__(self, refusal: Refusal, message: str, *, position: int | None = None,
                 seat: int | None = None) -> None:
        super().__init__(f"{refusal.rule}: {message}")
        self.refusal = refusal
        self.rule = refusal.rule
        self.message = message
        self.position = position
        self.seat = seat


class EntryError(FeltroError, ValueError):
    """A re-entry (G8) or late seat (G9) the rules refuse now; :attr:`refusal` says why as
    data (:class:`Refusal`), worded as ``refusal.<rule>.<reason>``:

    ====  =====================  ==================================================================
    rule  reason                 params: when
    ====  =====================  ==================================================================
    G8    ``not-offered``        none: a re-entry at a table without a re-entry period (G4)
    G8    ``closed``             ``level``: a re-entry after the period ended
    G8    ``not-out``            ``seat``: a re-entry for a player who still has chips
    G8    ``used-up``            ``seat``, ``times``: a re-entry beyond the player's allowance
    G9    ``not-offered``        none: a late seat at a table that takes none
    G9    ``closed``             ``level``: a late seat after the re-entry period ended
    G9    ``seat-taken``         ``seat``: a late seat on a seat someone has
    G9    ``no-such-seat``       ``seat``, ``seats``: a late seat outside ``1..seats``
    ====  =====================  ==================================================================
    """

    def __init__(self, refusal: Refusal, message: str) -> None:
        super().__init__(f"{refusal.rule}: {message}")
        self.refusal = refusal
        self.rule = refusal.rule
        self.message = message


class HandNotOverError(FeltroError, RuntimeError):
    """A result was asked of a hand that has not ended."""


class SeriesError(FeltroError, RuntimeError):
    """An operation the series cannot do now (acting with no hand in progress, dealing a new
    hand while one is being played)."""


class HistoryError(FeltroError, ValueError):
    """A hand history (PHH) that cannot be read or replayed."""


class StoreError(FeltroError, RuntimeError):
    """A durable series log that is corrupted, truncated or already open elsewhere."""


class StoreUnavailableError(StoreError):
    """A write that could not be made *now*: the file is locked by another program, the disk
    is full, or the disk reported an I/O error. Nothing was written; it may succeed later."""
