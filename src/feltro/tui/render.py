"""Rich renderables for the game's panels, built from a :class:`~feltro.session.Session`.

Each function reads the session's views (never a :class:`~feltro.hand.Hand`) and returns text
or a table in the chosen language. *viewer* is the seat whose private cards may be shown
(``None``: nobody's, as between hot-seat turns).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from feltro.bots.levels import ALL_KINDS
from feltro.events import CardsMucked, CardsShown
from feltro.hand import SeatView
from feltro.i18n import t
from feltro.seating import Seating
from feltro.series import End, Standing
from feltro.session import Player, Session
from feltro.tui.levelwords import blinds_text, level_text
from feltro.tui.text import (
    LogContext,
    cards_text,
    hand_name,
    log_lines,
    lower_first,
    pot_lines,
    pot_name,
    rank_label,
)

__all__ = [
    "board_line",
    "display_name",
    "elimination_lines",
    "end_rule",
    "header_line",
    "mine_line",
    "result_lines",
    "seats_grid",
    "seats_table",
    "series_over",
    "showdown",
    "standings_table",
]


def display_name(player: Player, lang: str) -> str:
    """The name as the table shows it: bots are always labelled (``"Rui (bot)"``)."""
    return t("seat.bot_name", lang, name=player.name) if player.is_bot else player.name


def _view(session: Session, viewer: int | None) -> SeatView:
    if viewer is not None and session.position_of(viewer) is not None:
        return session.view(viewer)
    return session.public_view()


def countdown(stop_at: datetime, now: datetime) -> str:
    """``"1:05:12"`` until *stop_at* (``"0:00:00"`` once past)."""
    left = max(stop_at - now, timedelta(0))
    seconds = int(left.total_seconds())
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


def header_line(session: Session, lang: str, now: datetime) -> Text:
    """Hand number, blinds (or the blind level, the next and its countdown, G7), players left,
    and the countdown to the stop time (G6)."""
    config = session.series.config
    parts = [t("app.title", lang)]
    if session.series.hand_number:
        parts.append(t("header.hand", lang, number=session.series.hand_number))
    level = session.series.countdown(now)
    if level is None:
        parts.append(t("header.blinds", lang, small=config.small_blind, big=config.big_blind))
    else:
        parts.append(level_text(level, lang))
    parts.append(t("header.players", lang, alive=len(session.series.alive),
                   total=len(session.series.players)))
    line = Text(" · ".join(parts), style="bold")
    if config.stop_at is not None:
        if now >= config.stop_at:
            line.append(" · " + t("header.time_up", lang), style="bold yellow")
        else:
            line.append(" · " + t("header.stop", lang, time=config.stop_at.strftime("%H:%M"),
                                  left=countdown(config.stop_at, now)), style="yellow")
    elif config.max_hands is not None:
        line.append(" · " + t("header.max_hands", lang, hands=config.max_hands), style="yellow")
    return line


def seats_grid(lang: str) -> Table:
    """The seats' columns (turn marker, seat, name, button and blinds, stack, bet, cards), for
    this game and ``feltro join``: fixed widths that hold their headers in every language; the
    name takes what is left, and is cut last."""
    table = Table(box=None, padding=(0, 1, 0, 0), expand=True, show_edge=False, pad_edge=False)
    table.add_column("", width=1, no_wrap=True)
    table.add_column(t("seat.seat", lang), justify="right", width=2, no_wrap=True)
    table.add_column(t("seat.name", lang), ratio=1, no_wrap=True, overflow="ellipsis")
    table.add_column("", width=4, no_wrap=True)
    table.add_column(t("seat.stack", lang), justify="right", width=6, no_wrap=True)
    table.add_column(t("seat.bet", lang), justify="right", width=6, no_wrap=True)
    table.add_column(t("seat.cards", lang), width=12, no_wrap=True, overflow="ellipsis")
    return table


def seats_table(session: Session, viewer: int | None, lang: str) -> Table:
    """One row per seat (:func:`seats_grid`)."""
    table = seats_grid(lang)
    seating = session.series.seating
    view = _view(session, viewer) if seating is not None else None
    stacks = session.series.stacks
    places = {s.seat: s.place for s in session.standings()}
    for seat, player in session.players.items():
        name = Text(display_name(player, lang),
                    style="bold" if seat == viewer else ("italic" if player.is_bot else ""))
        role = _role(seating, seat, lang) if seating is not None else ""
        position = session.position_of(seat) if seating is not None else None
        if view is None or position is None:
            out = stacks.get(seat, 0) == 0
            status = Text(t("seat.out", lang, place=places.get(seat, "")) if out else "",
                          style="dim")
            table.add_row("", str(seat), name, role, "—" if out else str(stacks[seat]), "",
                          status, style="dim" if out else "")
            continue
        marker = "▶" if view.to_act == position else ""
        bet = str(view.bets[position]) if view.bets[position] else ""
        table.add_row(Text(marker, style="bold yellow"), str(seat), name, role,
                      str(view.stacks[position]), bet, _seat_cards(view, position, lang),
                      style="dim" if view.folded[position] else "")
    return table


def _role(seating: Seating, seat: int, lang: str) -> str:
    """``D``, ``SB``, ``BB``, or ``D/SB`` heads-up (D6), in *lang*."""
    if seat == seating.button and seat == seating.small_blind:
        return t("seat.button", lang) + "/" + t("seat.small_blind", lang)
    for role in ("button", "small_blind", "big_blind"):
        if seat == getattr(seating, role):
            return t(f"seat.{role}", lang)
    return ""


def _seat_cards(view: SeatView, position: int, lang: str) -> Text:
    if view.folded[position]:
        return Text(t("seat.folded", lang), style="dim")
    shown = view.shown.get(position)
    if shown is not None:
        return cards_text(shown)
    if position in view.mucked:
        return Text(t("seat.mucked", lang), style="dim")
    if position == view.position and view.hole:
        text = cards_text(view.hole)
    elif view.is_over:
        text = Text("")
    else:
        text = cards_text((None, None))
    if view.all_in[position] and not view.is_over:
        text.append(" " + t("seat.all_in", lang), style="bold magenta")
    return text


def board_line(session: Session, lang: str) -> Text:
    """The board (with the cards to come as ``··``) and the pots (P1)."""
    line = Text(t("table.board", lang) + " ", style="bold")
    if session.series.seating is None:
        return line
    view = session.public_view()
    line.append_text(cards_text(view.board, slots=5))
    pots = session.pots()
    total = sum(p.amount for p in pots) if view.is_over else view.pot
    line.append("   " + t("table.pot", lang, amount=total), style="bold green")
    # Side pots exist only through an all-in (P1), once the round that made them is over.
    if len(pots) > 1 and (view.is_over or any(view.all_in)):
        parts = [f"{pot_name(i, lang)} {p.amount}" for i, p in enumerate(pots)]
        line.append(" (" + " · ".join(parts) + ")", style="green")
    return line


def mine_line(session: Session, viewer: int | None, lang: str) -> Text:
    """The viewer's cards and the name of their hand ("You have: pair of aces")."""
    if session.series.seating is None:
        return Text("")
    if viewer is None:
        if len(session.humans) > 1 and session.series.in_hand:
            return Text(t("table.cards_hidden", lang), style="dim")
        return Text("")
    if session.position_of(viewer) is None:
        return Text("")
    view = session.view(viewer)
    if not view.hole:
        return Text("")
    line = Text(t("table.your_cards", lang) + " ", style="bold")
    line.append_text(cards_text(view.hole))
    if view.folded[view.position or 0]:
        line.append("  " + t("table.you_folded", lang), style="dim")
        return line
    named = hand_name(view.hole, view.board, lang)
    if named:
        line.append("   " + t("table.you_have", lang, hand=lower_first(named)), style="cyan")
    return line


def log_context(session: Session, lang: str) -> LogContext:
    """Names by position and the blinds' positions for :func:`~feltro.tui.text.log_lines`."""
    seating = session.series.seating
    assert seating is not None
    names = [display_name(session.players[seat], lang) for seat in seating.order]
    sb = seating.small_blind
    return LogContext(names, None if sb is None else seating.order.index(sb),
                      seating.order.index(seating.big_blind))


def hand_log(session: Session, lang: str, viewer: int | None = None) -> list[Text]:
    """The log of the current (or last) hand, as *viewer* may see it."""
    if session.series.seating is None:
        return []
    view = _view(session, viewer)
    seating = session.series.seating
    button = seating.button
    who = (display_name(session.players[button], lang) if button in session.players
           else t("log.empty_seat", lang, seat=button))
    head = Text(t("log.hand_start", lang, number=session.series.hand_number, name=who),
                style="bold")
    level = hand_level_line(session, lang)
    notes: dict[int, list[str]] = {}
    for note in session.notes:
        if note.hand == session.series.hand_number:
            notes.setdefault(note.event_index, []).append(t(
                "log.bot_illegal", lang, name=display_name(session.players[note.seat], lang),
                answer=note.answer, played=note.played))
    lines = [head, *([] if level is None else [Text(level, style="bold")]),
             *log_lines(view.events, log_context(session, lang), lang, notes,
                        board=view.board)]
    if not session.series.in_hand and session.last_summary is not None and \
            session.last_summary.number == session.series.hand_number:
        lines += [Text(line, style="bold red") for line in elimination_lines(session, lang)]
    return lines


def hand_level_line(session: Session, lang: str) -> str | None:
    """"Hand 7 is at level 2: 2/4" for the current (or last) hand with blind levels (G7);
    ``None`` with fixed blinds."""
    series = session.series
    if series.config.levels is None or not session.series.hand_number:
        return None
    level = series.level_of(session.series.hand_number)
    return t("levels.hand_level", lang, hand=session.series.hand_number, n=level,
             blinds=blinds_text(series.config.levels.level(level), lang))


def elimination_lines(session: Session, lang: str) -> list[str]:
    """Who the last hand eliminated (G4), with their finishing place."""
    summary = session.last_summary
    if summary is None:
        return []
    places = {s.seat: s.place for s in session.standings()}
    return [t("log.eliminated", lang, name=display_name(session.players[seat], lang),
              place=places[seat]) for seat in summary.eliminated]


def result_lines(session: Session, lang: str) -> list[Text]:
    """The end of the hand in a few lines: each pot's winners and shares, then eliminations."""
    summary = session.last_summary
    if summary is None:
        return []
    result = summary.result
    order = summary.seating.order
    lines: list[Text] = []
    pots = result.pots
    if not result.shown and len(pots) == 1 and len(pots[0].winners) == 1:
        winner = session.players[order[pots[0].winners[0]]]
        lines.append(Text(t("result.uncontested", lang, name=display_name(winner, lang),
                            amount=pots[0].amount), style="bold green"))
    else:
        lines += pot_lines(pots, lambda p: display_name(session.players[order[p]], lang), lang)
    lines += [Text(line, style="bold red") for line in elimination_lines(session, lang)]
    return lines


def showdown(session: Session, lang: str) -> RenderableType:
    """The showdown of the last hand: hands in the order shown (P8) with their names, mucks,
    each pot's winners and shares (P1, P7), eliminations."""
    summary = session.last_summary
    assert summary is not None
    view = session.public_view()
    order = summary.seating.order
    title = Text(t("result.showdown_title", lang, number=summary.number), style="bold")
    board = Text(t("table.board", lang) + " ", style="bold")
    board.append_text(cards_text(view.board, slots=5))
    table = Table(box=None, padding=(0, 1), show_header=False, expand=False)
    table.add_column(justify="right", width=2)
    table.add_column(no_wrap=True, overflow="ellipsis", max_width=22)
    table.add_column(no_wrap=True, width=6)
    table.add_column(no_wrap=True, overflow="ellipsis")
    rank = 0
    for event in view.events:
        if isinstance(event, CardsShown | CardsMucked):
            rank += 1
            player = session.players[order[event.position]]
            if isinstance(event, CardsShown):
                named = hand_name(event.cards, view.board, lang) or ""
                table.add_row(f"{rank}.", display_name(player, lang), cards_text(event.cards),
                              Text(named, style="cyan"))
            else:
                table.add_row(f"{rank}.", display_name(player, lang), "",
                              Text(t("seat.mucked", lang), style="dim"))
    why = [Text(line, style="bold") for line in kicker_lines(session, lang)]
    return Group(title, board, Text(""), Text(t("result.show_order", lang), style="dim"),
                 table, Text(""), *why, *result_lines(session, lang))


def kicker_lines(session: Session, lang: str) -> list[str]:
    """"Rui wins with A kicker": for each pot won by one player whose hand has the same name
    as the best other hand shown for it, the side card that decided (P3, P4)."""
    from feltro.evaluator import evaluate

    summary = session.last_summary
    if summary is None:
        return []
    result = summary.result
    board = list(session.public_view().board)
    if len(board) != 5:
        return []
    values = {p: evaluate([*map(int, cards), *board]) for p, cards in result.shown.items()
              if len(cards) == 2}
    lines: list[str] = []
    for pot in result.pots:
        if len(pot.winners) != 1 or pot.winners[0] not in values:
            continue
        winner = pot.winners[0]
        others = [values[p] for p in pot.eligible if p != winner and p in values]
        if not others:
            continue
        rank = values[winner].kicker_over(max(others))
        if rank is None:
            continue
        name = display_name(session.players[summary.seating.order[winner]], lang)
        line = t("result.kicker", lang, name=name, rank=rank_label(rank))
        if line not in lines:
            lines.append(line)
    return lines


def standings_table(rows: Sequence[Standing], session: Session, lang: str) -> Table:
    """Place, name (bots labelled with their level), chips, when each player went out and
    their re-entries (G8)."""
    table = Table(box=None, padding=(0, 1), expand=False)
    table.add_column(t("standings.place", lang), justify="right")
    table.add_column(t("standings.name", lang), no_wrap=True, overflow="ellipsis",
                     max_width=30)
    table.add_column(t("standings.stack", lang), justify="right")
    table.add_column(t("standings.status", lang), no_wrap=True)
    for row in rows:
        player = session.players[row.seat]
        name = display_name(player, lang)
        if player.bot is not None:
            name += " · " + t(f"bot.level.{player.bot}", lang) if player.bot in ALL_KINDS \
                else ""
        outcome = session.series.outcome
        if outcome is not None and row.seat in outcome.winners:
            status = t("standings.winner", lang)
        elif row.out_in_hand is None:
            status = t("standings.in", lang)
        else:
            status = t("standings.out_in_hand", lang, hand=row.out_in_hand)
        if row.reentries:  # G8
            status += " · " + t("entries.count", lang, n=row.reentries)
        table.add_row(str(row.place), name, str(row.stack), status)
    return table


def end_rule(session: Session) -> str | None:
    """The rule that ended the series: G4 (one player has every chip) or G6 (stopped)."""
    outcome = session.series.outcome
    if outcome is None:
        return None
    return "G4" if outcome.end is End.LAST_PLAYER else "G6"


def series_over(session: Session, lang: str) -> list[RenderableType]:
    """The end of the series: the winner(s), why it ended (G4 or G6), the standings."""
    outcome = session.series.outcome
    assert outcome is not None
    names = [display_name(session.players[s], lang) for s in outcome.winners]
    out: list[RenderableType] = [Text(t("series.over_title", lang), style="bold")]
    if len(names) == 1:
        out.append(Text(t("series.winner", lang, name=names[0]), style="bold green"))
    else:
        out.append(Text(t("series.co_winners", lang, names=", ".join(names)),
                        style="bold green"))
    config = session.series.config
    agreed = config.stop_at is not None or config.max_hands is not None
    why = ("series.end_last_player" if outcome.end is End.LAST_PLAYER
           else "series.end_stopped" if agreed else "series.end_ended")
    reason = Text(t(why, lang, hands=outcome.hands), style="italic")
    rule = end_rule(session)
    if rule is not None:
        reason.append("  " + t("rules.open_hint", lang, rule=rule), style="dim")
    out.append(reason)
    out.append(Text(""))
    out.append(standings_table(session.standings(), session, lang))
    return out
