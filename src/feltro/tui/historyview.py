"""``feltro history``: past series, their hands, and one hand step by step.

A saved hand (PHH) is replayed through the engine one action line at a time
(:func:`hand_steps`); each step is shown as the table after it (stacks, bets, every player's
cards, the board, the pot) and the log up to it. :class:`HistoryApp` steps with the arrow keys;
:func:`print_steps` prints every step.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.widgets import Static

from feltro.actions import CALL, FOLD, Raise
from feltro.errors import FeltroError
from feltro.hand import Hand
from feltro.history import HandRecord, PhhAction, Verb
from feltro.history.replay import start_hand
from feltro.i18n import t
from feltro.tui.datadir import SeriesFolder, SeriesInfo
from feltro.tui.text import LogContext, cards_text, hand_name, log_lines

__all__ = ["HistoryApp", "Step", "hand_steps", "print_hands", "print_series", "print_steps"]


@dataclass(frozen=True)
class Step:
    """The hand after one more action line."""

    hand: Hand
    line: str
    """The PHH line just played (empty for the start: blinds posted)."""


def _apply(hand: Hand, action: PhhAction) -> None:
    player = action.player
    if action.verb is Verb.DEAL_HOLE:
        assert player is not None
        hand.deal_hole(player, list(action.cards))
    elif action.verb is Verb.DEAL_BOARD:
        hand.deal_board([c for c in action.cards if c is not None])
    elif action.verb is Verb.SHOW_OR_MUCK:
        assert player is not None
        if action.is_muck:
            hand.muck(player)
        else:
            hand.show(player, [c for c in action.cards if c is not None] or None)
    elif action.verb is Verb.FOLD:
        hand.apply(FOLD, player)
    elif action.verb is Verb.CHECK_OR_CALL:
        hand.apply(CALL, player)
    elif action.verb is Verb.BET_OR_RAISE_TO:
        assert isinstance(action.amount, int)
        hand.apply(Raise(action.amount), player)


def hand_steps(record: HandRecord) -> list[Step]:
    """The hand after each action line of *record* (deals of hole cards are one step).

    :raises feltro.errors.FeltroError: if a line cannot be replayed.
    """
    hand = start_hand(record)
    steps: list[Step] = []
    parsed = record.parsed_actions()
    dealing = True
    for text, action in zip(record.actions, parsed, strict=True):
        _apply(hand, action)
        if action.verb is Verb.DEAL_HOLE:
            continue
        if dealing:
            steps.append(Step(hand.copy(), ""))
            dealing = False
        steps.append(Step(hand.copy(), text))
    if dealing:
        steps.append(Step(hand.copy(), ""))
    return steps


def _names(record: HandRecord, bots: frozenset[int] = frozenset(), lang: str = "en",
           ) -> list[str]:
    """Names by position; seats in *bots* are labelled as bots."""
    names = list(record.players) if record.players is not None else \
        [f"p{i + 1}" for i in range(record.player_count)]
    seats = record.seats or ()
    return [t("seat.bot_name", lang, name=n) if p < len(seats) and seats[p] in bots else n
            for p, n in enumerate(names)]


def _bot_seats(folder: SeriesFolder) -> frozenset[int]:
    try:
        players, _lang = folder.read_players()
    except FeltroError:
        return frozenset()
    return frozenset(p.seat for p in players if p.is_bot)


def _context(names: list[str], hand: Hand) -> LogContext:
    config = hand.config
    return LogContext(names, config.small_blind_position, config.big_blind_position)


def step_view(record: HandRecord, steps: Sequence[Step], index: int, lang: str,
              title: str, bots: frozenset[int] = frozenset()) -> RenderableType:
    """The table after step *index*, with the log so far (seats in *bots* are bots)."""
    step = steps[index]
    hand = step.hand
    names = _names(record, bots, lang)
    seats = record.seats or tuple(range(1, record.player_count + 1))
    table = Table(box=None, padding=(0, 1), expand=False)
    table.add_column(t("seat.seat", lang), justify="right")
    table.add_column(t("seat.name", lang), no_wrap=True, max_width=20)
    table.add_column("", width=2)
    table.add_column(t("seat.stack", lang), justify="right")
    table.add_column(t("seat.bet", lang), justify="right")
    table.add_column(t("seat.cards", lang), no_wrap=True)
    view = hand.public_view()
    for p in sorted(range(hand.players), key=lambda q: seats[q]):
        role = t("seat.button", lang) if p == hand.button else ""
        hole = hand.hole(p)
        cards = cards_text(hole)
        named = hand_name(hole, view.board, lang) if len(view.board) >= 3 else None
        if view.folded[p]:
            cards.append(" " + t("seat.folded", lang), style="dim")
        elif named:
            cards.append(f"  {named}", style="cyan")
        table.add_row(str(seats[p]), names[p], role, str(view.stacks[p]),
                      str(view.bets[p] or ""), cards, style="dim" if view.folded[p] else "")
    board = Text(t("table.board", lang) + " ", style="bold")
    board.append_text(cards_text(view.board, slots=5))
    pot = sum(p.amount for p in hand.result().pots) if hand.is_over else view.pot
    board.append("   " + t("table.pot", lang, amount=pot), style="bold green")
    log = log_lines(view.events, _context(names, hand), lang, board=view.board)
    head = Text(f"{title} · " + t("history.step", lang, step=index + 1, steps=len(steps)),
                style="bold")
    return Group(head, Text(""), table, Text(""), board, Text(""), *log[-8:])


def print_series(infos: Sequence[SeriesInfo], root: Path, lang: str,
                 feltro: str = "feltro") -> None:
    """The list of series, newest first (*feltro*: the command, as the player runs it)."""
    console = Console()
    if not infos:
        console.print(t("history.none", lang, path=str(root), feltro=feltro))
        return
    table = Table(title=t("history.title", lang))
    table.add_column("#", justify="right")  # the series number (never changes)
    table.add_column(t("history.series", lang))
    table.add_column(t("history.players", lang))
    table.add_column(t("history.hands", lang), justify="right")
    table.add_column(t("history.state", lang))
    for info in infos:
        names = {p.seat: t("seat.bot_name", lang, name=p.name) if p.is_bot else p.name
                 for p in info.players}
        if info.problem:
            state = t("history.damaged", lang)
        elif info.over:
            state = t("history.won_by", lang,
                      names=", ".join(names.get(s, str(s)) for s in info.winners))
        else:
            state = t("history.unfinished", lang)
        table.add_row(str(info.folder.number or ""), info.folder.id, ", ".join(names.values()),
                      str(info.hands), state)
    console.print(table)
    console.print(t("history.usage", lang, feltro=feltro))


def print_hands(folder: SeriesFolder, lang: str, feltro: str = "feltro") -> None:
    """The hands of one series: button, pot, winners (*feltro*: the command, as the player
    runs it)."""
    console = Console()
    table = Table(title=t("history.series_title", lang, id=folder.id))
    table.add_column(t("history.hand", lang), justify="right")
    table.add_column(t("history.board", lang))
    table.add_column(t("history.pot", lang), justify="right")
    table.add_column(t("history.winners", lang))
    bots = _bot_seats(folder)
    for number in folder.hand_numbers():
        try:
            record = folder.load_hand(number)
            names = _names(record, bots, lang)
            steps = hand_steps(record)
        except (FeltroError, OSError, ValueError):  # a damaged file is listed, not fatal
            table.add_row(str(number), t("history.damaged_hand", lang), "", "")
            continue
        final = steps[-1].hand
        winners = []
        pot = 0
        if final.is_over:
            result = final.result()
            pot = sum(p.amount for p in result.pots)
            # What each winner collects, as the game's log and result say it ("Rui +24").
            won: dict[int, int] = {}
            for each in result.pots:
                for p, share in zip(each.winners, each.shares, strict=True):
                    won[p] = won.get(p, 0) + share
            winners = [f"{names[p]} +{amount}" for p, amount in won.items() if amount]
        table.add_row(str(number), cards_text(final.board), str(pot), ", ".join(winners))
    console.print(table)
    console.print(t("history.hand_usage", lang, id=folder.id, feltro=feltro))


def print_steps(folder: SeriesFolder, number: int, lang: str) -> None:
    """Every step of one hand, one after the other."""
    console = Console()
    record = folder.load_hand(number)
    steps = hand_steps(record)
    title = t("history.hand_title", lang, id=folder.id, hand=number)
    bots = _bot_seats(folder)
    for index in range(len(steps)):
        console.print(step_view(record, steps, index, lang, title, bots))
        console.rule()


class HistoryApp(App[None]):
    """Step through a saved hand: ← → steps, Home/End, ↑ ↓ the previous/next hand, Q quits."""

    CSS: ClassVar[str] = "Screen { padding: 0 1; } #hint { dock: bottom; height: 1; }"
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, folder: SeriesFolder, hand: int, lang: str) -> None:
        super().__init__()
        self.folder = folder
        self.lang = lang
        self.numbers = folder.hand_numbers()
        self.bots = _bot_seats(folder)
        self.number = hand
        self.index = 0
        self._load()

    def _load(self) -> None:
        self.record = self.folder.load_hand(self.number)
        self.steps = hand_steps(self.record)
        self.index = 0

    def compose(self) -> ComposeResult:
        yield Static(id="step")
        yield Static(Text(t("history.keys", self.lang), style="dim"), id="hint")

    def on_mount(self) -> None:
        self._show()

    def _show(self) -> None:
        title = t("history.hand_title", self.lang, id=self.folder.id, hand=self.number)
        self.query_one("#step", Static).update(
            step_view(self.record, self.steps, self.index, self.lang, title, self.bots))

    def on_key(self, event: events.Key) -> None:
        key = event.key
        if key in ("q", "escape"):
            self.exit()
            return
        if key in ("right", "space", "n", "enter"):
            self.index = min(self.index + 1, len(self.steps) - 1)
        elif key in ("left", "p", "backspace"):
            self.index = max(self.index - 1, 0)
        elif key == "home":
            self.index = 0
        elif key == "end":
            self.index = len(self.steps) - 1
        elif key in ("down", "up"):
            at = self.numbers.index(self.number)
            at = min(at + 1, len(self.numbers) - 1) if key == "down" else max(at - 1, 0)
            if self.numbers[at] != self.number:
                self.number = self.numbers[at]
                self._load()
        self._show()
