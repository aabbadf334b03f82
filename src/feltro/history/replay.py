"""Replay a PHH record through the hand engine, strictly under RULES.md.

The record's fields become a :class:`~feltro.config.HandConfig`; each action line becomes a
call on :class:`~feltro.hand.Hand` (``d dh`` -> :meth:`~feltro.hand.Hand.deal_hole`, ``d db``
-> :meth:`~feltro.hand.Hand.deal_board`, ``f``/``cc``/``cbr`` ->
:meth:`~feltro.hand.Hand.apply`, ``sm`` -> :meth:`~feltro.hand.Hand.show` or
:meth:`~feltro.hand.Hand.muck`). The engine posts blinds and antes, returns uncalled chips,
builds the pots and pays them; nothing here second-guesses it.

Reading is lenient, the replay is not: the first line the rules refuse stops the replay with a
:class:`ReplayError` naming that line's index and the rule. Files written by engines that play
other rules say so instead of being guessed at (``docs/history.md``): a decision that RULES.md
asks for and the file leaves out (D10: the others face a short big blind's full amount), or a
line by a player whom RULES.md does not ask to act (B5: the only player left with chips, when
nobody can bet against it).

Heads-up the PHH blinds and antes arrays are applied reversed (the button, ``p2``, posts the
small blind): ``blinds_or_straddles = [1, 2]`` becomes the engine's ``blinds = (2, 1)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from feltro.actions import CALL, FOLD, Raise
from feltro.config import HandConfig, Structure
from feltro.errors import (
    CardError,
    ConfigError,
    HistoryError,
    IllegalActionError,
    ParseError,
    Refusal,
)
from feltro.events import Street
from feltro.hand import Hand, HandResult, PotResult
from feltro.history.phh import (
    Amount,
    HandRecord,
    PhhAction,
    Verb,
    _parse_line,
    format_phh_cards,
)
from feltro.history.record import record_of

__all__ = ["ReplayError", "ReplayOutcome", "config_of", "record_of", "replay", "start_hand"]

class ReplayError(HistoryError):
    """A record the rules refuse, or whose fields feltro cannot play.

    :attr:`action` is the 0-based index in ``actions`` of the refused line (``None`` for a
    problem with the other fields); :attr:`rule` the RULES.md id, when one applies;
    :attr:`refusal` why, as data, when the rules refuse a line (:class:`~feltro.errors.Refusal`:
    the rule, a reason code and its numbers; ``None`` for a line that does not parse or fields
    feltro cannot play): the engine's own refusal, or one of the replay's below, worded by
    interfaces as ``refusal.<rule>.<reason>`` (:func:`feltro.i18n.refusal_words`). ``str(exc)``
    is an English line for people reading logs and ``feltro replay``'s JSON.

    The replay's own refusals (``player`` is a PHH player number, ``p1`` being 1):

    ====  =====================  ==================================================================
    rule  reason                 params: when
    ====  =====================  ==================================================================
    B5    ``round-not-over``     ``player``: a board deal or a show while ``player`` is to act
    B5    ``nobody-asked``       ``player``: an action by ``player``, the only player left with
                                 chips, whom nobody can bet against (so nobody is asked)
    D3    ``returning-post``     ``player``: a returning player's post, under the house rules
    D5    ``unknown-board``      none: a board deal with unknown cards (``??``)
    D6    ``button-big-blind``   none: heads-up the button posted the big blind (house rules)
    D10   ``decision-skipped``   ``player``, ``big_blind_player``, ``posted``, ``big_blind``: a
                                 history that skips a decision owed to a short big blind
    D11   ``unknown-show``       none: a show of unknown cards (``??``) where they are needed
    D11   ``not-dealt-cards``    ``player``: a show of other cards than those dealt
    ====  =====================  ==================================================================
    """

    def __init__(self, message: str, *, action: int | None = None,
                 rule: str | None = None, refusal: Refusal | None = None) -> None:
        super().__init__(message)
        self.action = action
        self.refusal = refusal
        self.rule = rule if rule is not None or refusal is None else refusal.rule

    def to_dict(self) -> dict[str, Any]:
        """``{"error": message, "action": index}``, the shape ``feltro replay`` prints."""
        return {"error": str(self), "action": self.action}


@dataclass(frozen=True, slots=True)
class ReplayOutcome:
    """What a replay ended with.

    ``finishing_stacks`` are by position (``p1`` first): the final stacks of a finished hand,
    or the stacks after the last action of an unfinished history (``complete`` is then False
    and there are no ``pots``). ``pots`` are the engine's :class:`~feltro.hand.PotResult`
    values, main pot first, with 0-based positions.
    """

    finishing_stacks: tuple[int, ...]
    pots: tuple[PotResult, ...]
    complete: bool
    result: HandResult | None
    hand: Hand

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape of ``feltro replay``; **players are PHH numbers** (``p1`` is 1).

        ``{"finishing_stacks": [...], "pots": [{"amount", "eligible", "winners", "shares"}]}``,
        plus ``"complete": false`` for a history that stops before the hand ends.
        """
        data: dict[str, Any] = {
            "finishing_stacks": list(self.finishing_stacks),
            "pots": [
                {
                    "amount": pot.amount,
                    "eligible": [p + 1 for p in pot.eligible],
                    "winners": [p + 1 for p in pot.winners],
                    "shares": list(pot.shares),
                }
                for pot in self.pots
            ],
        }
        if not self.complete:
            data["complete"] = False
        return data


def _chips(value: Amount, where: str) -> int:
    if isinstance(value, float):
        what = "unknown (inf)" if value == float("inf") else f"{value!r}"
        raise ReplayError(f"{where} is {what}: feltro plays whole chips")
    return value


def config_of(record: HandRecord) -> HandConfig:
    """The engine configuration a record describes.

    :raises ReplayError: for fractional or unknown (``inf``) amounts, or a configuration the
        engine refuses (e.g. more than 10 players).
    """
    n = record.player_count
    stacks = tuple(_chips(v, f"starting_stacks[{i}]")
                   for i, v in enumerate(record.starting_stacks))
    blinds = [_chips(v, f"blinds_or_straddles[{i}]")
              for i, v in enumerate(record.blinds_or_straddles)]
    antes = [_chips(v, f"antes[{i}]") for i, v in enumerate(record.antes)]
    if n == 2:  # PHH applies the forced bets reversed heads-up: the button posts the small blind
        blinds.reverse()
        antes.reverse()
    kwargs: dict[str, Any] = {}
    if record.variant == "FT":
        # The record guarantees the stakes of its variant.
        assert record.small_bet is not None
        assert record.big_bet is not None
        kwargs.update(structure=Structure.FIXED_LIMIT,
                      min_bet=_chips(record.small_bet, "small_bet"),
                      big_bet=_chips(record.big_bet, "big_bet"))
    else:
        assert record.min_bet is not None
        kwargs.update(min_bet=_chips(record.min_bet, "min_bet"))
    top = max(blinds)
    try:
        return HandConfig(
            stacks=stacks,
            blinds=tuple(blinds),
            big_blind=top if top > 0 else kwargs["min_bet"],
            antes=tuple(antes) if any(antes) else (),
            ante_trimming=bool(record.ante_trimming_status),
            **kwargs,
        )
    except ConfigError as exc:
        raise ReplayError(f"{exc}") from None


def start_hand(record: HandRecord) -> Hand:
    """A hand set up as *record* starts (blinds and antes posted), before any action line.

    :raises ReplayError: see :func:`config_of`.
    """
    return Hand.start(config_of(record))


def replay(record: HandRecord, *, settle: bool = True) -> ReplayOutcome:
    """Play every action line of *record* and report how the hand ended.

    With *settle* (default), a history that stops when only the shows are missing (board
    complete, betting over, every remaining hand known) is settled: hands are shown in P8
    order, mucking those that cannot win. Otherwise an unfinished history gives
    ``complete=False`` and the stacks after its last line.

    :raises ReplayError: for the first line that does not parse or that the rules refuse
        (naming its index and rule), and for fields feltro cannot play.
    """
    hand = start_hand(record)
    count = record.player_count
    for index, text in enumerate(record.actions):
        try:
            action = _parse_line(text, index, count)
        except ParseError as exc:
            raise ReplayError(str(exc), action=index) from None
        try:
            _apply(hand, action)
        except (IllegalActionError, CardError, _RefusedError) as exc:
            raise ReplayError(f"{exc} [actions[{index}] = {text!r}]", action=index,
                              rule=exc.rule, refusal=refusal_of(exc)) from None
    if not hand.is_over and settle and hand.to_show is not None and len(hand.board) == 5:
        try:
            hand.settle()
        except CardError as exc:
            raise ReplayError(f"{exc}: the history ends before the showdown it needs",
                              action=None, rule=exc.rule) from None
    if hand.is_over:
        result = hand.result()
        return ReplayOutcome(result.stacks, result.pots, True, result, hand)
    return ReplayOutcome(hand.stacks, (), False, None, hand)


class _RefusedError(Exception):
    """A line the replay itself refuses (with a better reason than the engine could give)."""

    def __init__(self, message: str, refusal: Refusal) -> None:
        super().__init__(f"{refusal.rule}: {message}")
        self.refusal = refusal
        self.rule = refusal.rule


def refusal_of(exc: Exception) -> Refusal | None:
    """The refusal, as data, behind a refused line (``None`` for a card error)."""
    return exc.refusal if isinstance(exc, IllegalActionError | _RefusedError) else None


def _apply(hand: Hand, action: PhhAction) -> None:
    verb = action.verb
    player = action.player
    if verb is Verb.NO_OP:
        return
    if verb is Verb.DEAL_HOLE:
        assert player is not None
        hand.deal_hole(player, list(action.cards))
        return
    if verb is Verb.DEAL_BOARD or verb is Verb.SHOW_OR_MUCK:
        _deal_board_or_show(hand, action)
        return
    assert player is not None
    if hand.to_act is None and not hand.is_over:
        raise _nobody_to_act(hand, player)
    if verb is Verb.FOLD:
        hand.apply(FOLD, player)
    elif verb is Verb.CHECK_OR_CALL:
        hand.apply(CALL, player)  # a call with nothing owed is a check, like PHH 'cc'
    else:
        amount = action.amount
        if not isinstance(amount, int):
            raise _RefusedError(f"raise to {amount!r}: amounts are whole chips",
                                Refusal("B6", "whole-chips", {}))
        hand.apply(Raise(amount), player)


def _deal_board_or_show(hand: Hand, action: PhhAction) -> None:
    """A ``d db`` or ``sm`` line: the betting must be over (B5, D5, D11)."""
    verb = action.verb
    player = action.player
    if verb is Verb.SHOW_OR_MUCK and hand.is_over and _last_hand_shows(hand, action):
        # The others mucked (a show of one card is a muck, P8), so this hand won without
        # showing; its show, written after theirs, changes nothing.
        return
    if hand.to_act is not None:
        raise _still_to_act(hand, verb)
    if verb is Verb.DEAL_BOARD:
        if None in action.cards:
            raise _RefusedError("unknown board cards (??) cannot be replayed: the pots need "
                                "the board", Refusal("D5", "unknown-board", {}))
        hand.deal_board([c for c in action.cards if c is not None])
        return
    assert player is not None
    if action.is_muck:
        hand.muck(player)
    elif action.shows_dealt:
        hand.show(player)
    else:
        shown = [c for c in action.cards if c is not None]
        if len(shown) != len(action.cards):
            raise _RefusedError("a show names the cards shown; '??' is not a card",
                                Refusal("D11", "unknown-show", {}))
        hand.show(player, shown)


def _last_hand_shows(hand: Hand, action: PhhAction) -> bool:
    """*action* shows the hand that won because every other hand mucked at the showdown.

    :raises _RefusedError: if the cards shown are not the cards dealt (D11).
    """
    p = action.player
    assert p is not None
    if action.is_muck or hand.folded[p] or p in hand.mucked or not hand.mucked:
        return False
    result = hand.result()
    if p in result.shown or len(hand.board) < 5:
        return False
    known = [c for c in hand.hole(p) if c is not None]
    shown = [c for c in action.cards if c is not None]
    if shown and any(c not in shown for c in known):
        raise _RefusedError(f"p{p + 1} was dealt {format_phh_cards(known)}, which is not "
                            f"{format_phh_cards(shown)}",
                            Refusal("D11", "not-dealt-cards", {"player": p + 1}))
    return True


def _nobody_to_act(hand: Hand, player: int) -> _RefusedError:
    """The refusal for a player's line while nobody is to act (D4, B5)."""
    if any(len(hand.hole(q)) < 2 for q in range(hand.players)):
        return _RefusedError("the hole cards are not all dealt yet",
                             Refusal("D4", "hole-not-dealt", {}))
    street = hand.street.value
    if lone_with_chips(hand, player):
        return _RefusedError(
            f"p{player + 1} is the only player left with chips and nobody can bet against "
            f"p{player + 1}, so nobody is asked to act: the remaining cards are dealt",
            Refusal("B5", "nobody-asked", {"player": player + 1}))
    return _RefusedError(f"the {street} betting is over: nobody is to act until the next cards "
                         f"are dealt or the hands are shown", Refusal("B5", "betting-over", {}))


def lone_with_chips(hand: Hand, player: int) -> bool:
    """*player* is the only player left (not folded) with chips: every other is all-in."""
    folded, all_in = hand.folded, hand.all_in
    if folded[player] or all_in[player]:
        return False
    return all(folded[q] or all_in[q] for q in range(hand.players) if q != player)


def _still_to_act(hand: Hand, verb: Verb) -> _RefusedError:
    """The refusal for a board deal or a show while a player still has a decision."""
    p = hand.to_act
    assert p is not None
    what = "deal the board" if verb is Verb.DEAL_BOARD else "show or muck"
    config = hand.config
    bb = config.big_blind_position
    posted = hand.committed[bb] - (config.antes[bb] if config.antes else 0)
    if (hand.street is Street.PREFLOP and p != bb and hand.stacks[bb] == 0
            and posted < config.big_blind and not hand.folded[bb]):
        # docs/history.md: PokerKit lets the others call only what a short big blind posted, and
        # writes no decision for them when that leaves nothing to call.
        return _RefusedError(
            f"p{p + 1} still has a decision: the big blind p{bb + 1} is all-in for {posted}, "
            f"but the others face the full big blind of {config.big_blind}, so p{p + 1} must "
            f"call, raise or fold first. This history skips that decision (as PokerKit "
            f"writes hands under its own short-blind rule); it cannot be replayed under "
            f"RULES.md without guessing it",
            Refusal("D10", "decision-skipped", {"player": p + 1, "big_blind_player": bb + 1,
                                                "posted": posted, "big_blind": config.big_blind}))
    return _RefusedError(f"cannot {what} yet: the betting round is not over, p{p + 1} is to act",
                         Refusal("B5", "round-not-over", {"player": p + 1}))
