"""``feltro join``'s Textual interface: the terminal game's table, keys and panels over a
:class:`~feltro.remote.client.RemoteSeat` (which does all the talking to the server).

Keys as in ``feltro play``: F fold (twice when checking is free), C or X check/call, 1-4 the
quick sizes, R type an amount (Enter sends, Esc cancels), M show a hand won uncontested when
the server offers it (P8), V show my cards at the showdown even when I lose (on/off, P8, D11),
S standings, ? keys and house rules (after a refusal: the rule it cites), Q leave (the seat
stays yours: ``feltro join`` on the same link comes back to it).
"""

from __future__ import annotations

import asyncio
from typing import Any

from rich.console import Group
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.screen import Screen
from textual.widgets import RichLog, Static

from feltro.i18n import check_language, t
from feltro.remote import words
from feltro.remote.client import Phase, Problem, RemoteSeat
from feltro.tui.app import MIN_SIZE
from feltro.tui.screens import (
    REMOTE_KEYS,
    HelpTerms,
    RulesScreen,
    SeriesOverScreen,
    StandingsScreen,
    TooSmallScreen,
    guard_size,
)
from feltro.tui.table_screen import table_widgets
from feltro.tui.turn import show_losers_key

__all__ = ["JoinApp"]

_SIZE_KEYS = {"1": 0, "2": 1, "3": 2, "4": 3}


class JoinScreen(Screen[None]):
    """The remote table (see the module docstring)."""

    def compose(self) -> ComposeResult:
        yield from table_widgets()

    def on_key(self, event: events.Key) -> None:
        app: JoinApp = self.app  # type: ignore[assignment]
        event.stop()
        app.key(event)


class JoinApp(App[str]):
    """The terminal client; returns the client's final phase when it exits."""

    CSS_PATH = "../tui/feltro.tcss"
    TITLE = "feltro"
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, seat: RemoteSeat, lang: str = "en", *, connect: bool = True,
                 feltro: str = "feltro") -> None:
        super().__init__()
        self.feltro = feltro
        """The command that runs feltro where the player is, as messages name it."""
        self._connect = connect
        """``False``: draw *seat* as it is without connecting (tests)."""
        self.seat = seat
        self.lang = check_language(lang)
        self.mode = "play"
        """``play``, ``amount`` (typing a total) or ``confirm_fold``."""
        self.typed = ""
        self.note: Text | None = None
        self._seen_problem: Problem | None = None
        """The server's refusal last drawn (a newer one replaces :attr:`note`)."""
        self.table_screen = JoinScreen()
        self._over_shown = False
        self._task: asyncio.Task[str] | None = None
        self._too_small: TooSmallScreen | None = None

    async def on_mount(self) -> None:
        self.title = t("app.title", self.lang)
        await self.push_screen(self.table_screen)
        self.seat.on_change = self._changed
        if self._connect:
            self._task = asyncio.get_running_loop().create_task(self.seat.run())
            self._task.add_done_callback(lambda _: self._changed())
        self.refresh_all()
        self._check_size(self.size.width, self.size.height)

    def on_resize(self, event: events.Resize) -> None:
        self._check_size(event.size.width, event.size.height)

    def _check_size(self, width: int, height: int) -> None:
        """The terminal game's guard: below 80x24 a message asks for a bigger window."""
        if not self.table_screen.is_mounted:
            return  # a resize may come before the table is up: on_mount checks again
        self._too_small = guard_size(self, self._too_small, self.lang, (width, height),
                                     MIN_SIZE)

    async def on_unmount(self) -> None:
        self.seat.stop()
        if self._task is not None:
            await asyncio.wait([self._task], timeout=3)

    def _changed(self) -> None:
        self.call_later(self.refresh_all)

    # --- drawing ------------------------------------------------------------------------------

    def refresh_all(self) -> None:
        """Redraw everything from the client's latest state.

        A state this client cannot draw (a newer server?) shows one line instead of ending
        the game in a traceback: the connection and the seat go on.
        """
        if not self.table_screen.is_mounted:
            return
        if self.seat.done and self.seat.state is None:
            self.exit(self.seat.phase)  # refused before any table was shown: one line says why
            return
        try:
            self._draw()
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            self.table_screen.query_one("#message", Static).update(
                Text(t("cli.error.unexpected", self.lang, error=type(exc).__name__),
                     style="bold red"))

    def _draw(self) -> None:
        screen = self.table_screen
        seat, lang, state = self.seat, self.lang, self.seat.state
        if state is not None:
            screen.query_one("#header", Static).update(
                words.header_line(state, lang, seat.checker.fingerprint()))
            screen.query_one("#seats", Static).update(words.seats_table(state, lang))
            log = screen.query_one("#log", RichLog)
            log.clear()
            for line in words.log_lines(state, lang):
                log.write(line)
            self.call_after_refresh(log.scroll_end, animate=False)  # the first draw too
            screen.query_one("#board", Static).update(words.board_line(state, lang))
            screen.query_one("#mine", Static).update(words.mine_line(state, lang))
        screen.query_one("#status", Static).update(
            words.status_line(seat.phase, state, seat.name, lang))
        screen.query_one("#actions", Static).update(self._actions(state))
        if seat.problem is not None and seat.problem is not self._seen_problem:
            self.note = None  # a new refusal from the server outranks the last local note
        self._seen_problem = seat.problem
        message = self.note if self.note is not None else words.problem_text(seat.problem, lang)
        warning = words.fair_warning(seat.bad_cards, lang, self.feltro)
        if warning is not None:  # a card that is not the committed one outranks everything
            message = warning
        alarm = words.fair_alarm_line(state, lang, seat.alarms)
        if alarm is not None:  # a failed deal check anyone reported or this one saw
            message = alarm if warning is None else Text.assemble(warning, "\n", alarm)
        screen.query_one("#message", Static).update(message)
        keys = t("join.keys", lang)
        if state is not None and state["you"].get("role") == "player":
            keys += " · " + show_losers_key(seat.show_losers, lang)
        screen.query_one("#keys", Static).update(Text(keys, style="dim"))
        if seat.phase == Phase.OVER and state is not None and not self._over_shown:
            self._over_shown = True
            rule = "G4" if (state["table"].get("outcome") or {}).get("end") == "last_player" \
                else "G6"
            self.push_screen(SeriesOverScreen(words.series_over(state, lang),
                                              t("series.quit_hint", lang), lang=lang,
                                              rule=rule, terms=self._help_terms()))
        elif seat.done and seat.phase != Phase.OVER and self.mode != "ended":
            self.mode = "ended"

    def _actions(self, state: dict[str, Any] | None) -> Text:
        if state is not None and self.seat.may_show:
            return Text(t("tui.show.key_hint", self.lang), style="bold")
        if state is None or self.seat.legal is None:
            return Text("")
        legal = self.seat.legal
        if self.mode == "amount" and legal.get("raise") is not None:
            key = "act.bet_prompt" if state["table"]["hand"]["current_bet"] == 0 \
                else "act.raise_prompt"
            out = Text(t(key, self.lang, min=legal["raise"]["min"], max=legal["raise"]["max"])
                       + " ", style="bold")
            out.append(self.typed + "▏", style="reverse")
            out.append("   " + t("act.amount_keys", self.lang), style="dim")
            return out
        if self.mode == "confirm_fold":
            return Text(t("act.confirm_fold", self.lang), style="yellow")
        return words.action_options(state, self.lang)

    # --- keys ---------------------------------------------------------------------------------

    def key(self, event: events.Key) -> None:
        """A key on the table screen."""
        key = event.key
        if self.mode == "amount":
            self._amount_key(event)
            return
        if key == "q" or key == "ctrl+c":
            self.exit(self.seat.phase)
            return
        if key == "question_mark":
            cited = self.seat.problem.refusal if self.seat.problem is not None else None
            self.push_screen(RulesScreen.build(self.lang, cited["rule"] if cited else None,
                                               self._help_terms()))
            return
        if key == "s" and self.seat.state is not None:
            body = Group(*words.series_over(self.seat.state, self.lang)[3:])
            self.push_screen(StandingsScreen(body, t("panel.close", self.lang)))
            return
        if self.mode == "ended" and key in ("enter", "escape"):
            self.exit(self.seat.phase)
            return
        if key == "m" and self.seat.may_show:
            self.note = None
            asyncio.get_running_loop().create_task(self.seat.show())
            return
        if key == "v" and self.seat.state is not None \
                and self.seat.state["you"].get("role") == "player":
            self._toggle_show_losers()
            return
        self._play_key(key)

    def _toggle_show_losers(self) -> None:
        """V: the server keeps the choice (``show_losers``, P8, D11); the keys line shows it
        once the next state says so, a refusal shows as words."""
        on = not self.seat.show_losers
        asyncio.get_running_loop().create_task(self.seat.choose_show_losers(on))
        key = "tui.show_losers.now_on" if on else "tui.show_losers.now_off"
        self.note = Text(t(key, self.lang), style="bold green")
        self.refresh_all()

    def _help_terms(self) -> HelpTerms:
        """This table's stack and blinds, and the keys a remote seat has."""
        settings = (self.seat.table or {}).get("settings", {})
        defaults = HelpTerms()
        return HelpTerms(keys=REMOTE_KEYS, stack=int(settings.get("stack", defaults.stack)),
                         small_blind=int(settings.get("small_blind", defaults.small_blind)),
                         big_blind=int(settings.get("big_blind", defaults.big_blind)))

    def _play_key(self, key: str) -> None:
        legal, state = self.seat.legal, self.seat.state
        if legal is None or state is None:
            return
        letter = key.lower()
        confirming, self.mode = self.mode == "confirm_fold", "play"
        self.note = None
        if letter in ("f", t("key.fold", self.lang)):
            if legal["check"] and not confirming:
                self.mode = "confirm_fold"
            else:
                self._send("fold")
        elif letter in ("c", "x", t("key.passive", self.lang)):
            self._send("check" if legal["check"] else "call")
        elif letter in _SIZE_KEYS:
            sizes = words.quick_sizes(state)
            if len(sizes) == 1 and letter == "4":
                self._send("raise", sizes[0][1])
            elif len(sizes) == 4:
                self._send("raise", sizes[_SIZE_KEYS[letter]][1])
            elif sizes:
                self.note = Text(t("act.size_unavailable", self.lang), style="yellow")
        elif letter in ("r", t("key.amount", self.lang)) and legal.get("raise") is not None:
            self.mode, self.typed = "amount", ""
        self.refresh_all()

    def _amount_key(self, event: events.Key) -> None:
        legal = self.seat.legal
        if event.key == "escape" or legal is None or legal.get("raise") is None:
            self.mode = "play"
        elif event.key == "enter":
            amount = _checked_amount(self.typed, legal["raise"]["min"], legal["raise"]["max"])
            if isinstance(amount, int):
                self.mode = "play"
                self._send("raise", amount)
            else:
                self.note = Text(t(amount[0], self.lang, **amount[1]), style="bold red")
        elif event.key == "backspace":
            self.typed = self.typed[:-1]
        elif event.character and event.character.isprintable() and len(self.typed) < 12:
            self.typed += event.character
        self.refresh_all()

    def _send(self, action: str, to: int | None = None) -> None:
        asyncio.get_running_loop().create_task(self.seat.act(action, to))


def _checked_amount(text: str, low: int, high: int) -> int | tuple[str, dict[str, Any]]:
    """A typed total, or the catalogue key and fields of why it is refused (the terminal
    game's ``input.*`` messages)."""
    raw = text.strip().replace(" ", "")
    if not raw:
        return "input.empty", {"min": low, "max": high}
    if raw.startswith("-") and raw[1:].isdigit():
        return "input.below_zero", {"text": raw[:12], "min": low}
    if not raw.isdigit():
        return "input.not_a_number", {"text": raw[:12]}
    amount = int(raw)
    if amount > high:
        return "input.above_stack", {"amount": amount, "max": high}
    if amount < low:
        return "input.below_min", {"amount": amount, "min": low}
    return amount
