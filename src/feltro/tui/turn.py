"""The bottom of the table screen: whose turn it is, the actions open to the person to act
and their keys, the amount being typed, why raising is not offered, the keys line.

Pure functions of the session, the screen's mode (:mod:`feltro.tui.table_screen`) and the person's
view, in the chosen language; the screen only lays them out.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Literal

from rich.console import Group
from rich.text import Text

from feltro.actions import CALL, CHECK, FOLD, Action, Raise
from feltro.courtesy import may_show
from feltro.hand import LegalActions, SeatView
from feltro.i18n import t
from feltro.session import Session, raise_sizes
from feltro.tui import render
from feltro.tui.text import refusal

__all__ = [
    "TURN_MODES",
    "Refused",
    "action_lines",
    "answer_key",
    "key_label",
    "keys_for",
    "keys_line",
    "known_rules",
    "rule_of",
    "show_losers_key",
    "standing_reason",
    "standing_rule",
    "status_line",
]

TURN_MODES = frozenset({"act", "amount", "confirm_fold"})
"""The screen's modes in which a person is to act."""

SIZE_KEYS = {"1": "min", "2": "half_pot", "3": "pot", "4": "all_in"}
"""The quick sizes' keys (minimum, half pot, pot, all-in)."""


@dataclass(frozen=True)
class Refused:
    """A key the rules refuse now: the words, and the rule they cite (as data)."""

    reason: str | None
    rule: str | None = None


def answer_key(key: str, legal: LegalActions, view: SeatView, lang: str
               ) -> Action | Refused | Literal["confirm_fold", "amount"] | None:
    """What *key*, pressed by the person to act, asks for: an action to play, a refusal, the
    fold's confirmation (folding when checking is free, B3 allows it), typing an amount, or
    nothing (not a turn key)."""
    if key in keys_for("fold", lang):
        return "confirm_fold" if legal.can_check else FOLD
    if key in keys_for("passive", lang) or (key in ("x", "k") and legal.can_check):
        return CHECK if legal.can_check else CALL
    if key in ("x", "k"):
        return Refused(refusal("check", legal, lang), rule_of(legal, "check"))
    if key not in SIZE_KEYS and key not in keys_for("amount", lang):
        return None
    if not legal.can_raise:
        return Refused(refusal("raise", legal, lang), rule_of(legal, "raise"))
    if key not in SIZE_KEYS:
        return "amount"
    amount = dict(raise_sizes(view, legal)).get(SIZE_KEYS[key])
    return Refused(t("act.size_unavailable", lang)) if amount is None else Raise(amount)


def keys_for(action: str, lang: str) -> frozenset[str]:
    """The keys of *action* (``fold``, ``passive``, ``amount``): this language's letter and
    the English one, which always works."""
    return frozenset((t(f"key.{action}", lang), t(f"key.{action}", "en")))


def key_label(label: str) -> Text:
    """A key as the screen shows it: ``[F]``."""
    return Text(f"[{label}] ", style="bold reverse")


@functools.cache
def known_rules() -> frozenset[str]:
    """The rule ids the rules document defines (read once, when a refusal first cites one)."""
    from feltro.rules import RULE_IDS

    return frozenset(RULE_IDS)


def rule_of(legal: LegalActions, kind: str) -> str | None:
    """The rule why *kind* (``check``/``raise``) is not offered, from the engine's data."""
    detail = legal.refusal_details.get(kind)
    return detail.rule if detail is not None else None


def standing_rule(legal: LegalActions) -> str | None:
    """The rule why raising is not offered now (B7, B8, B10), when the rules define it."""
    rule = rule_of(legal, "raise")
    return rule if rule in known_rules() else None


def status_line(session: Session, mode: str, lang: str) -> Text:
    """Whose turn it is (and what the person to act owes), or how the hand ended."""
    seat = session.series.to_act
    if mode == "hand_over":
        key = "status.hand_over_last" if session.series.is_over else "status.hand_over"
        return Text(t(key, lang, number=session.series.hand_number), style="bold")
    if seat is None:
        return Text("")
    name = render.display_name(session.players[seat], lang)
    if mode in TURN_MODES:
        legal = session.legal()
        line = Text(t("status.your_turn", lang, name=name), style="bold yellow")
        if legal.call_amount:
            line.append("  " + t("status.to_call", lang, amount=legal.call_amount))
        return line
    if mode == "privacy":
        return Text(t("status.waiting_privacy", lang, name=name), style="dim")
    if session.players[seat].is_bot:
        return Text(t("status.bot_thinking", lang, name=name), style="dim")
    return Text(t("status.waiting", lang, name=name), style="dim")


def action_lines(session: Session, view: SeatView | None, mode: str, typed: str,
                 spectating: bool, lang: str) -> Text | Group:
    """The hand's result after it; during a person's turn (*view* is theirs) the actions
    with their keys, then the quick sizes or the amount being *typed*."""
    if mode == "hand_over":
        lines = render.result_lines(session, lang)
        hint = "result.continue_over" if session.series.is_over else "result.continue"
        show = ([Text(t("tui.show.key_hint", lang), style="bold")]
                if courtesy_seat(session) is not None else [])
        return Group(*lines[:3], *show, Text(t(hint, lang), style="bold"))
    if mode not in TURN_MODES:
        if spectating and session.series.hand_number:
            return Text(t("status.spectating", lang), style="dim")
        return Text("")
    if view is None:
        return Text("")
    legal = session.legal()
    if mode == "amount":
        return Group(_first_line(view, legal, lang), _typing_line(view, legal, typed, lang))
    return Group(_first_line(view, legal, lang), _sizes_line(view, legal, lang))


def courtesy_seat(session: Session) -> int | None:
    """The person who won the last hand uncontested and may still show it (P8), if any."""
    return next((seat for seat in session.humans if may_show(session.series, seat)), None)


def _first_line(view: SeatView, legal: LegalActions, lang: str) -> Text:
    """Fold, check or call (all-in when it takes every chip), bet or raise to."""
    line = Text()
    line.append(key_label(t("key.fold", lang).upper()))
    line.append(t("act.fold", lang) + "   ")
    line.append(key_label(t("key.passive", lang).upper()))
    if legal.can_check:
        line.append(t("act.check", lang) + "   ")
    elif legal.call_amount >= view.stacks[view.position or 0]:
        line.append(t("act.call_all_in", lang, amount=legal.call_amount) + "   ")
    else:
        line.append(t("act.call", lang, amount=legal.call_amount) + "   ")
    if legal.can_raise:
        line.append(key_label(t("key.amount", lang).upper()))
        verb = "act.bet_to" if view.current_bet == 0 else "act.raise_to"
        line.append(t(verb, lang) + "…")
    return line


def _typing_line(view: SeatView, legal: LegalActions, typed: str, lang: str) -> Text:
    verb = "act.bet_prompt" if view.current_bet == 0 else "act.raise_prompt"
    line = Text()
    line.append(t(verb, lang, min=legal.min_raise_to, max=legal.max_raise_to) + " ",
                style="bold")
    line.append(typed + "▏", style="reverse")
    line.append("   " + t("act.amount_keys", lang), style="dim")
    return line


def _sizes_line(view: SeatView, legal: LegalActions, lang: str) -> Text:
    line = Text()
    sizes = raise_sizes(view, legal)
    numbers = ("1", "2", "3", "4") if len(sizes) > 1 else ("4",) * len(sizes)
    for number, (name, amount) in zip(numbers, sizes, strict=True):
        line.append(key_label(number))
        line.append(t(f"act.size_{name}", lang, amount=amount) + "  ")
    return line


def standing_reason(view: SeatView | None, legal: LegalActions, lang: str) -> Text:
    """Why raising is not offered to the person to act (*view*), citing the rule (B7, B8,
    B10) and how to read it."""
    if view is None:
        return Text("")
    reason = refusal("raise", legal, lang)
    text = Text(reason or "", style="yellow")
    rule_id = standing_rule(legal) if reason else None
    if rule_id is not None:
        text.append("  " + t("rules.open_hint", lang, rule=rule_id), style="dim")
    return text


def keys_line(mode: str, spectating: bool, fast_forward: bool, lang: str) -> Text:
    """The keys that work in every mode (and W, once the people are out)."""
    keys = t("keys.common", lang)
    if mode in ("bots", "hand_over") and spectating and not fast_forward:
        keys = t("keys.fast_forward", lang) + " · " + keys
    return Text(keys, style="dim")


def show_losers_key(on: bool, lang: str) -> str:
    """The V key and where the choice stands: show my cards at the showdown even when I lose
    (P8, D11). The terminal game and ``feltro join`` say it alike."""
    return t("tui.show_losers.key_on" if on else "tui.show_losers.key_off", lang)
