"""What ``feltro join`` shows: the server's ``state`` (``docs/protocol.md``) as Rich text in
the player's language, with the terminal game's cards and words (:mod:`feltro.tui.text`, the
catalogues of :mod:`feltro.i18n`). Refusals are worded from their data (rule, reason code,
numbers), never from the server's English ``reason``. Pure functions: tested without a UI.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from feltro.cards import parse_cards
from feltro.errors import Refusal
from feltro.i18n import has_key, refusal_words, t
from feltro.levels import Level
from feltro.remote.client import Phase, Problem
from feltro.tui.levelwords import blinds_text, countdown_of, level_text
from feltro.tui.render import seats_grid
from feltro.tui.text import cards_text

__all__ = [
    "action_options",
    "board_line",
    "card_ids",
    "fair_warning",
    "header_line",
    "log_lines",
    "mine_line",
    "problem_text",
    "quick_sizes",
    "seat_name",
    "seats_table",
    "series_over",
    "status_line",
]

Frame = dict[str, Any]

_STREETS: Final = {"flop": "log.flop", "turn": "log.turn", "river": "log.river"}


def card_ids(cards: Sequence[str] | None) -> list[int]:
    """``["As", "Td"]`` -> card ids (the terminal game's cards)."""
    return [int(card) for card in parse_cards(" ".join(cards or ()))]


def seat_name(table: Frame, seat: int | None, lang: str) -> str:
    """The name at *seat* (bots labelled), or ``#n``."""
    for entry in table["seats"]:
        if entry["seat"] == seat and entry.get("occupied"):
            name = str(entry["name"])
            return t("seat.bot_name", lang, name=name) if entry.get("bot") else name
    return f"#{seat}"


def header_line(state: Frame, lang: str, fingerprint: str | None = None) -> Text:
    """Table name · hand · blinds · players left · the night's fingerprint (*fingerprint*:
    the one this terminal computed; the server's only when it has none)."""
    table = state["table"]
    settings = table["settings"]
    parts = [str(table["name"])]
    hand = table.get("hand")
    if hand is not None:
        parts.append(t("header.hand", lang, number=hand["number"]))
    if table.get("level"):  # blind levels (G7)
        parts.append(level_text(countdown_of(table["level"]), lang))
    else:
        parts.append(t("header.blinds", lang, small=settings["small_blind"],
                       big=settings["big_blind"]))
    seated = [s for s in table["seats"] if s.get("occupied")]
    if table["status"] == "lobby":  # seats taken of the table's seats, as the phones show
        parts.append(t("join.seats_taken", lang, seated=len(seated),
                       seats=settings.get("seats", len(table["seats"]))))
    else:
        alive = sum(1 for s in seated if not s.get("out"))
        parts.append(t("header.players", lang, alive=alive, total=len(seated)))
    if table["stop"].get("last_hand"):
        parts.append(t("header.time_up", lang))
    code = fingerprint or (table.get("fair") or {}).get("fingerprint")
    if code:
        parts.append(t("join.fingerprint", lang, code=code))
    return Text(" · ".join(parts), style="bold")


def fair_warning(bad: dict[int, list[str]], lang: str, feltro: str = "feltro") -> Text | None:
    """The warning when a card seen does not match what the table committed to (*feltro*:
    the command that checks the night, as the player runs it)."""
    if not bad:
        return None
    hand = max(bad)
    return Text(t("join.fair_warning", lang, hand=hand, cards=" ".join(bad[hand]),
                  feltro=feltro),
                style="bold white on red")


def fair_alarm_line(state: Frame | None, lang: str,
                    own: Sequence[Frame] = ()) -> Text | None:
    """The failed deal checks the players' devices reported (``table.fair.alarms``) and the
    ones this terminal computed itself (*own*, marked when the table's record lacks them: a
    server that drops them cannot hide them from this screen); they stay for the whole
    night."""
    recorded = ((state or {}).get("table", {}).get("fair") or {}).get("alarms") or []
    keys = [(a["hand"], a["seat"], a["check"]) for a in recorded]
    alarms = [(a, False) for a in recorded] + [
        (a, True) for a in own if (a["hand"], a["seat"], a["check"]) not in keys]
    if not alarms:
        return None
    alarms.sort(key=lambda pair: int(pair[0]["hand"]))
    lines = [t("fair_alarm.line", lang, hand=a["hand"], seat=a["seat"],
               what=t(f"fair_alarm.check.{a['check']}", lang))
             + (" " + t("fair_alarm.unrecorded", lang) if unrecorded else "")
             for a, unrecorded in alarms[-3:]]
    return Text("\n".join([t("fair_alarm.title", lang, count=len(alarms)), *lines]),
                style="bold white on red")


def seats_table(state: Frame, lang: str) -> Table:
    """Every occupied seat: position marks, name, stack, bet, cards, and how it stands."""
    table, you = state["table"], state["you"]
    grid = seats_grid(lang)  # the terminal game's columns
    hand = table.get("hand")
    for entry in table["seats"]:
        if not entry.get("occupied"):
            continue
        seat = entry["seat"]
        marks = "/".join(t(f"seat.{mark}", lang) for mark in ("button", "small_blind",
                                                              "big_blind") if entry.get(mark))
        name = Text(seat_name(table, seat, lang))
        if seat == you.get("seat"):
            name.stylize("bold cyan")
        turn = hand is not None and not hand["over"] and hand.get("to_act") == seat
        grid.add_row(Text("▶" if turn else "", style="bold yellow"), str(seat), name, marks,
                     str(entry.get("stack", "")), str(entry.get("bet") or ""),
                     _seat_cards(entry, you, lang))
    return grid


def _seat_cards(entry: Frame, you: Frame, lang: str) -> Text:
    if entry.get("out"):
        return Text(t("seat.out", lang, place=entry.get("place")), style="dim")
    if entry.get("shown"):
        return cards_text(card_ids(entry["shown"]))
    if entry["seat"] == you.get("seat") and you.get("hole") and entry.get("has_cards"):
        return cards_text(card_ids(you["hole"]))
    if entry.get("has_cards"):
        out = cards_text([None, None])
        if entry.get("all_in"):
            out.append(" " + t("seat.all_in", lang), style="yellow")
        return out
    if entry.get("mucked"):
        return Text(t("seat.mucked", lang), style="dim")
    if entry.get("folded"):
        return Text(t("seat.folded", lang), style="dim")
    return Text("")


def board_line(state: Frame, lang: str) -> Text:
    """The board (padded to five) and the pot."""
    hand = state["table"].get("hand")
    out = Text(t("table.board", lang) + ": ", style="bold")
    out.append_text(cards_text(card_ids(hand["board"] if hand else []), slots=5))
    if hand is not None:  # once over, the pot it was played for (the chips are paid out)
        pot = sum(int(p["amount"]) for p in hand.get("pots", [])) if hand["over"] \
            else hand["pot_total"]
        out.append("   " + t("table.pot", lang, amount=pot), style="bold")
    return out


def mine_line(state: Frame, lang: str) -> Text:
    """The receiver's own cards and the hand they make (the server names it in *lang*)."""
    you = state["you"]
    out = Text(t("table.your_cards", lang) + ": ", style="bold")
    if you.get("hole"):
        out.append_text(cards_text(card_ids(you["hole"])))
        if you.get("hand_name"):
            out.append("   " + t("table.you_have", lang, hand=you["hand_name"]))
    return out


def log_lines(state: Frame, lang: str) -> list[Text]:
    """The public log of the current (or last) hand, in *lang*."""
    table = state["table"]
    hand = table.get("hand")
    if hand is None:
        return []
    button = seat_name(table, hand.get("button"), lang)
    lines = [Text(t("log.hand_start", lang, number=hand["number"], name=button), style="bold")]
    level = hand.get("level")
    if level:  # blind levels (G7): the level the hand was dealt at
        lines.append(Text(t("levels.hand_level", lang, hand=hand["number"], n=level["level"],
                            blinds=blinds_text(Level(**level["blinds"]), lang)), style="bold"))
    for entry in hand["log"]:
        line = _log_line(table, entry, lang)
        if line is not None:
            lines.append(line)
    return lines


def _log_line(table: Frame, entry: Frame, lang: str) -> Text | None:
    kind = entry.get("kind")
    name = seat_name(table, entry.get("seat"), lang)
    if kind == "blind":
        big = (table["level"]["blinds"]["big_blind"] if table.get("level")
               else table["settings"]["big_blind"])
        which = "log.posts_small_blind" if entry["amount"] < big else "log.posts_big_blind"
        return Text(t(which, lang, name=name, amount=entry["amount"]), style="dim")
    if kind == "ante":
        return Text(t("log.posts_ante", lang, name=name, amount=entry["amount"]), style="dim")
    if kind == "action":
        return Text(_action_words(entry, name, lang))
    if kind == "board":
        out = Text(t(_STREETS.get(entry["street"], "log.flop"), lang) + ": ", style="bold")
        return out.append_text(cards_text(card_ids(entry["cards"])))
    if kind == "returned":
        return Text(t("log.returned", lang, name=name, amount=entry["amount"]), style="dim")
    if kind == "show":
        shown = Text(t("log.shows", lang, name=name) + " ").append_text(
            cards_text(card_ids(entry["cards"])))
        named = next((str(s["hand_name"]) for s in (table.get("hand") or {}).get("showdown", [])
                      if s.get("seat") == entry.get("seat") and s.get("hand_name")), None)
        return shown.append(f"  {named}", style="cyan") if named else shown
    if kind == "muck":
        return Text(t("log.mucks", lang, name=name), style="dim")
    if kind == "pot":
        shares = ", ".join(f"{seat_name(table, int(seat), lang)} {amount}"
                           for seat, amount in zip(entry.get("winners", []),
                                                   entry.get("shares", []), strict=False))
        pot = t("pot.main", lang) if entry["index"] == 0 else t("pot.side", lang,
                                                                 number=entry["index"])
        return Text(t("log.pot", lang, pot=pot, amount=entry["amount"], shares=shares),
                    style="green")
    return None


def _action_words(entry: Frame, name: str, lang: str) -> str:
    action, all_in = entry["action"], entry.get("all_in")
    if action == "fold":
        return t("log.folds", lang, name=name)
    if action == "check":
        return t("log.checks", lang, name=name)
    if action == "call":
        return t("log.calls_all_in" if all_in else "log.calls", lang, name=name,
                 amount=entry["chips"])
    key = "log.bets" if entry.get("bet") else "log.raises"
    amount = entry.get("to", entry["chips"])
    return t(key + ("_all_in" if all_in else ""), lang, name=name, amount=amount)


def quick_sizes(state: Frame) -> list[tuple[str, int]]:
    """The quick bet or raise-to sizes (as the terminal game offers them): the minimum, half
    the pot and the pot (after calling), all-in; clipped into ``legal.raise``."""
    legal = state["you"].get("legal")
    if legal is None or legal.get("raise") is None:
        return []
    low, high = legal["raise"]["min"], legal["raise"]["max"]
    if low == high:
        return [("all_in", high)]
    hand = state["table"]["hand"]
    pot_after_call = hand["pot_total"] + legal["call"]
    current = hand["current_bet"]
    half = current + pot_after_call // 2
    full = current + pot_after_call
    return [("min", low), ("half_pot", min(max(half, low), high)),
            ("pot", min(max(full, low), high)), ("all_in", high)]


def action_options(state: Frame, lang: str) -> Text:
    """The keys open at this turn: fold, check or call, the quick sizes, a typed amount."""
    legal = state["you"].get("legal")
    if legal is None:
        return Text("")
    out = Text()
    out.append(t("key.fold", lang).upper() + " ", style="bold reverse")
    out.append(t("act.fold", lang) + "   ")
    out.append(t("key.passive", lang).upper() + " ", style="bold reverse")
    if legal["check"]:
        out.append(t("act.check", lang) + "   ")
    else:
        mine: Frame = next((s for s in state["table"]["seats"]
                            if s["seat"] == state["you"]["seat"]), {})
        all_in = legal["call"] >= int(mine.get("stack") or 0)
        out.append(t("act.call_all_in" if all_in else "act.call", lang,
                     amount=legal["call"]) + "   ")
    for number, (size, amount) in enumerate(quick_sizes(state), start=1):
        if size == "all_in" and len(quick_sizes(state)) == 1:
            number = 4
        out.append(f"{number} ", style="bold reverse")
        out.append(t(f"act.size_{size}", lang, amount=amount) + "  ")
    if legal.get("raise") is not None:
        out.append(t("key.amount", lang).upper() + " ", style="bold reverse")
        out.append(t("act.bet_to" if state["table"]["hand"]["current_bet"] == 0
                     else "act.raise_to", lang))
    return out


def status_line(phase: str, state: Frame | None, name: str | None, lang: str) -> Text:
    """Where the player stands: waiting for the host, their turn, someone else's, over."""
    if phase in (Phase.CONNECTING, Phase.RECONNECTING, Phase.PENDING, Phase.REFUSED):
        return Text(t(f"join.phase.{phase}", lang, name=name or "?"),
                    style="yellow" if phase != Phase.REFUSED else "red")
    if state is None:
        return Text("")
    table, you = state["table"], state["you"]
    hand = table.get("hand")
    me = seat_name(table, you.get("seat"), lang)
    if table["status"] == "lobby":
        return Text(t("join.phase.lobby", lang, name=me), style="yellow")
    if table["status"] == "paused":
        return Text(t("join.phase.paused", lang), style="yellow")
    if you.get("legal") is not None:
        return Text(t("status.your_turn", lang, name=me), style="bold green")
    if hand is None or hand["over"]:
        last = table["status"] == "over"
        key = "status.hand_over_last" if last else "status.hand_over"
        return Text(t(key, lang, number=hand["number"] if hand else 0))
    return Text(t("status.waiting", lang, name=seat_name(table, hand.get("to_act"), lang)))


def problem_text(problem: Problem | None, lang: str) -> Text:
    """A refusal or failure in *lang*: a rule's refusal from its data, else its key."""
    if problem is None:
        return Text("")
    if problem.key == "join.certificate" and "why" in problem.params:
        why = str(problem.params["why"])
        reason = t(f"join.cert_why.{why}", lang) if why else str(problem.params["detail"])
        return Text(t("join.certificate", lang, reason=reason), style="bold red")
    refusal = problem.refusal
    if refusal is not None:
        data = Refusal(str(refusal["rule"]), str(refusal["reason"]),
                       {k: int(v) for k, v in refusal.get("params", {}).items()})
        return Text(refusal_words(data, lang), style="bold red")
    if problem.code is not None:
        key = f"error.{problem.code}"
        if has_key(key, lang):
            return Text(t(key, lang), style="bold red")
        return Text(t("join.error", lang, code=problem.code), style="bold red")
    return Text(t(problem.key, lang, **problem.params), style="bold red")


def series_over(state: Frame, lang: str) -> list[RenderableType]:
    """The end of the series: winner(s), why it ended, the standings."""
    table = state["table"]
    outcome = table.get("outcome") or {}
    names = [str(name) for name in outcome.get("names", [])]
    out: list[RenderableType] = [Text(t("series.over_title", lang), style="bold")]
    if len(names) == 1:
        out.append(Text(t("series.winner", lang, name=names[0]), style="bold green"))
    elif names:
        out.append(Text(t("series.co_winners", lang, names=", ".join(names)),
                        style="bold green"))
    why = f"series.end_{outcome.get('end')}"
    if not has_key(why, lang):
        why = "series.end_stopped"
    out.append(Text(t(why, lang, hands=outcome.get("hands", table.get("hands_played", 0))),
                    style="italic"))
    out.append(Text(""))
    grid = Table(box=None, padding=(0, 1), expand=False)
    grid.add_column(t("standings.place", lang), justify="right")
    grid.add_column(t("standings.name", lang), no_wrap=True)
    grid.add_column(t("standings.stack", lang), justify="right")
    grid.add_column(t("standings.status", lang), no_wrap=True)
    winners = set(outcome.get("winners", []))
    for row in table.get("standings", []):
        if row["seat"] in winners:
            status = t("standings.winner", lang)
        elif row.get("out_in_hand") is None:
            status = t("standings.in", lang)
        else:
            status = t("standings.out_in_hand", lang, hand=row["out_in_hand"])
        name = Text(str(row["name"]))
        if row["seat"] == state["you"].get("seat"):
            name.stylize("bold cyan")
        grid.add_row(str(row["place"]), name, str(row["stack"]), status)
    out.append(grid)
    return out

