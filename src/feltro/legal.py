"""What the player to act may do: :class:`LegalActions`, with the reason for each refusal.

The engine computes the numbers; this module turns the reasons into sentences a person
understands, each naming its RULES.md id, so that a user interface can show "You can't raise:
B8: the short all-in to 15 does not reopen raising for p1".
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from feltro.actions import CALL, CHECK, FOLD, Action, Raise
from feltro.errors import Refusal

__all__ = ["LegalActions", "Refusal", "seat_name"]

# Why raising is closed (codes the engine computes cheaply; sentences are built on demand).
RAISE_OPEN = 0
RAISE_NO_CHIPS = 1  # B7: the stack does not go beyond a call
RAISE_NOT_REOPENED = 2  # B8: a short all-in since this player acted
RAISE_CAPPED = 3  # B10: four bets this round in fixed-limit
RAISE_UNANSWERABLE = 4  # B5: nobody else left could put in more than the bet


def seat_name(position: int) -> str:
    """How messages name a position: ``p1`` for position 0, as in PHH."""
    return f"p{position + 1}"


def raise_refusal(
    code: int,
    position: int,
    current_bet: int,
    acted_at: int,
    full_increment: int,
    reach: int,
) -> tuple[Refusal, str]:
    """``(refusal, sentence)`` for a closed raise; *reach* is the most the player's bet can
    become."""
    who = seat_name(position)
    if code == RAISE_NO_CHIPS:
        return (Refusal("B7", "no-chips", {"reach": reach, "current_bet": current_bet}),
                f"{who} has {reach} in all, not more than the bet of {current_bet}: "
                f"{who} can only call (all-in) or fold")
    if code == RAISE_NOT_REOPENED:
        return (Refusal("B8", "not-reopened", {"current_bet": current_bet,
                                               "raised_since": current_bet - acted_at,
                                               "full_increment": full_increment}),
                f"the short all-in to {current_bet} does not reopen raising for {who}: "
                f"the raises since {who} acted add up to {current_bet - acted_at}, "
                f"less than the last full increment of {full_increment}")
    if code == RAISE_UNANSWERABLE:
        return (Refusal("B5", "nobody-can-call", {"current_bet": current_bet}),
                f"nobody left can put in more than the bet of {current_bet}, so a raise "
                f"could not be called: {who} may only call or fold")
    return (Refusal("B10", "capped", {}),
            "the betting is capped: four bets this round (fixed-limit)")


def raise_size_refusal(fixed: bool, position: int, to: int, low: int, high: int,
                       current_bet: int, reach: int) -> tuple[Refusal, str]:
    """``(refusal, sentence)`` for a raise to *to* outside the open range ``low..high``
    (*fixed*: fixed-limit, B10; else B6); *reach* is the most the player's bet can become."""
    rule = "B10" if fixed else "B6"
    if to <= 0:
        return (Refusal(rule, "not-positive", {"to": to}),
                f"raise to {to} is not a positive number of chips")
    if to <= current_bet:
        return (Refusal(rule, "not-a-raise", {"to": to, "current_bet": current_bet,
                                              "min_to": low}),
                f"raise to {to} does not raise the current bet of {current_bet}: "
                f"call, or raise to at least {low}")
    who = seat_name(position)
    if fixed:
        return (Refusal(rule, "fixed-size", {"to": to, "raise_to": low}),
                f"fixed-limit: {who} may only raise to {low}, not {to}")
    if to > reach:
        return (Refusal(rule, "above-stack", {"to": to, "reach": reach}),
                f"raise to {to} is more than {who} has: at most {reach} (all-in)")
    if to > high:
        return (Refusal(rule, "above-pot-limit", {"to": to, "max_to": high}),
                f"pot-limit: raise to {to} is above the pot limit of {high}")
    return (Refusal(rule, "below-min", {"to": to, "min_to": low}),
            f"raise to {to} is below the minimum raise to {low}")


def check_refusal(position: int, owed: int) -> tuple[Refusal, str]:
    """``(refusal, sentence)`` for a check while chips are owed."""
    return (Refusal("B3", "owes", {"owed": owed}),
            f"{seat_name(position)} cannot check facing a bet: call {owed} more or fold")


class LegalActions:
    """The actions open to the player to act, like python-chess's ``legal_moves``.

    Amounts are totals for this street. ``min_raise_to``/``max_raise_to`` are ``None`` when
    raising is closed; then :attr:`refusals` says why (``"raise"``); likewise ``"check"``
    when chips are owed. Folding is always allowed (B3). Iterating yields fold,
    the check or call, and the smallest and largest raise.

    An empty instance (``bool(legal) is False``) stands for "nobody is to act".
    """

    __slots__ = (
        "_raise_info",
        "call_amount",
        "can_check",
        "max_raise_to",
        "min_raise_to",
        "position",
    )

    position: int | None
    can_check: bool
    call_amount: int
    min_raise_to: int | None
    max_raise_to: int | None

    def __init__(
        self,
        position: int | None,
        can_check: bool,
        call_amount: int,
        min_raise_to: int | None,
        max_raise_to: int | None,
        raise_info: tuple[int, int, int, int, int] | None = None,
    ) -> None:
        self.position = position
        self.can_check = can_check
        self.call_amount = call_amount
        self.min_raise_to = min_raise_to
        self.max_raise_to = max_raise_to
        # (code, current_bet, acted_at, full_increment, reach): the refusal, built lazily.
        self._raise_info = raise_info

    @classmethod
    def none(cls) -> LegalActions:
        """The empty instance: nobody is to act."""
        return cls(None, False, 0, None, None)

    @property
    def can_fold(self) -> bool:
        """True for the player to act: folding is always allowed, even when checking is free."""
        return self.position is not None

    @property
    def can_raise(self) -> bool:
        """Whether a bet or raise is open."""
        return self.min_raise_to is not None

    @property
    def passive(self) -> Action:
        """``Check()`` when nothing is owed, else ``Call()``."""
        return CHECK if self.can_check else CALL

    @property
    def refusals(self) -> Mapping[str, str]:
        """Why an action kind is not offered: ``{"raise": "B8: ...", "check": "B3: ..."}``.

        Sentences for people and logs; code reads :attr:`refusal_details`.
        """
        return {kind: f"{refusal.rule}: {message}"
                for kind, (refusal, message) in self._refusals().items()}

    @property
    def refusal_details(self) -> Mapping[str, Refusal]:
        """:attr:`refusals` as data: ``{"raise": Refusal("B8", "not-reopened", {...})}``.

        Parameters: ``owed`` (B3); ``current_bet`` (B5); ``reach`` and ``current_bet`` (B7);
        ``current_bet``, ``raised_since`` and ``full_increment`` (B8); none for B10.
        """
        return {kind: refusal for kind, (refusal, _) in self._refusals().items()}

    def refusal_message(self, kind: str) -> str | None:
        """The English sentence of :attr:`refusals` for *kind*, without the rule id."""
        entry = self._refusals().get(kind)
        return None if entry is None else entry[1]

    def _refusals(self) -> dict[str, tuple[Refusal, str]]:
        reasons: dict[str, tuple[Refusal, str]] = {}
        if self.position is None:
            return reasons
        if not self.can_check:
            reasons["check"] = check_refusal(self.position, self._owed())
        if self._raise_info is not None and self.min_raise_to is None:
            code, current, acted_at, increment, reach = self._raise_info
            reasons["raise"] = raise_refusal(code, self.position, current, acted_at, increment,
                                             reach)
        return reasons

    def _owed(self) -> int:
        return self.call_amount

    def __contains__(self, action: object) -> bool:
        if self.position is None or not isinstance(action, Action):
            return False
        if isinstance(action, Raise):
            low, high = self.min_raise_to, self.max_raise_to
            if low is None or high is None:
                return False
            to = action.to
            if isinstance(to, bool) or not isinstance(to, int):
                return False
            # An all-in below the minimum (B7) comes as low == high == the all-in.
            return low <= to <= high
        if action == CHECK:
            return self.can_check
        return True  # fold always; a call is a check when nothing is owed

    def __iter__(self) -> Iterator[Action]:
        if self.position is None:
            return
        yield FOLD
        yield self.passive
        if self.min_raise_to is not None and self.max_raise_to is not None:
            yield Raise(self.min_raise_to)
            if self.max_raise_to != self.min_raise_to:
                yield Raise(self.max_raise_to)

    def __bool__(self) -> bool:
        return self.position is not None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LegalActions):
            return NotImplemented
        return (self.position, self.can_check, self.call_amount, self.min_raise_to,
                self.max_raise_to) == (other.position, other.can_check, other.call_amount,
                                       other.min_raise_to, other.max_raise_to)

    def __hash__(self) -> int:
        return hash((self.position, self.can_check, self.call_amount, self.min_raise_to,
                     self.max_raise_to))

    def __repr__(self) -> str:
        if self.position is None:
            return "<LegalActions: nobody to act>"
        parts = ["fold", "check" if self.can_check else f"call {self.call_amount}"]
        if self.min_raise_to is not None:
            if self.min_raise_to == self.max_raise_to:
                parts.append(f"raise to {self.min_raise_to}")
            else:
                parts.append(f"raise to {self.min_raise_to}..{self.max_raise_to}")
        return f"<LegalActions {seat_name(self.position)}: {', '.join(parts)}>"
