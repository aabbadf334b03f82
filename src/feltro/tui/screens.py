"""The game's secondary screens: privacy, showdown, standings, hand log, help, quit, series
over, and "terminal too small".

Each takes what it shows when it is made and answers a few keys; the table screen
(:mod:`feltro.tui.table`) decides when to show them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

from rich.console import Group, RenderableType
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from feltro.i18n import t

if TYPE_CHECKING:
    from feltro.tui.app import PlayApp

__all__ = [
    "HelpScreen",
    "LogScreen",
    "PrivacyScreen",
    "QuitScreen",
    "SeriesOverScreen",
    "ShowdownScreen",
    "StandingsScreen",
    "TooSmallScreen",
]


class _Panel(ModalScreen[str]):
    """A centred panel over the table; any of :attr:`CLOSE_KEYS` closes it."""

    CLOSE_KEYS: ClassVar[frozenset[str]] = frozenset({"escape", "enter", "space"})

    def __init__(self, body: RenderableType, hint: str) -> None:
        super().__init__()
        self._body = body
        self._hint = hint

    def compose(self) -> ComposeResult:
        with Vertical(classes="panel"):
            with VerticalScroll(classes="panel-body"):
                yield Static(self._body)
            yield Static(Text(self._hint, style="dim"), classes="panel-hint")

    def on_key(self, event: events.Key) -> None:
        event.stop()
        if event.key in self.CLOSE_KEYS:
            self.dismiss(event.key)
        elif event.key in _SCROLL_KEYS:
            body = self.query_one(".panel-body", VerticalScroll)
            getattr(body, _SCROLL_KEYS[event.key])(animate=False)
        else:
            self.on_other_key(event.key)

    def on_other_key(self, key: str) -> None:
        """Keys other than the closing ones (none by default)."""


_SCROLL_KEYS = {"up": "scroll_up", "down": "scroll_down", "k": "scroll_up", "j": "scroll_down",
                "pageup": "scroll_page_up", "pagedown": "scroll_page_down",
                "home": "scroll_home", "end": "scroll_end"}
"""A panel longer than the screen (a long hand's log at 80x24) scrolls with these keys."""


class ShowdownScreen(_Panel):
    """The showdown: hands in show order with names, each pot's shares, eliminations."""


class StandingsScreen(_Panel):
    """The standings now."""

    CLOSE_KEYS: ClassVar[frozenset[str]] = frozenset({"escape", "enter", "space", "s"})


class LogScreen(_Panel):
    """The whole log of the current hand; it opens on the latest lines and scrolls."""

    CLOSE_KEYS: ClassVar[frozenset[str]] = frozenset({"escape", "enter", "space", "l"})

    def on_mount(self) -> None:
        self.call_after_refresh(
            lambda: self.query_one(".panel-body", VerticalScroll).scroll_end(animate=False))


class HelpScreen(_Panel):
    """The keys and the house rules in a few lines."""

    CLOSE_KEYS: ClassVar[frozenset[str]] = frozenset({"escape", "enter", "space",
                                                      "question_mark"})

    @classmethod
    def build(cls, lang: str) -> HelpScreen:
        """The help panel in *lang*."""
        lines = [Text(t("help.title", lang), style="bold"), Text("")]
        lines += [Text(t(f"help.{key}", lang)) for key in _HELP_KEYS]
        lines += [Text(""), Text(t("help.rules", lang), style="italic")]
        return cls(Group(*lines), t("panel.close", lang))


_HELP_KEYS = ("fold", "check_call", "sizes", "amount", "next", "standings", "log", "quit")


class QuitScreen(_Panel):
    """Leave now (the series is saved) or end the series after this hand (G6)."""

    CLOSE_KEYS: ClassVar[frozenset[str]] = frozenset({"escape", "n"})

    @classmethod
    def build(cls, lang: str, resumable: bool) -> QuitScreen:
        """The quit question in *lang*; *resumable* when the series has a durable log."""
        lines = [Text(t("quit.title", lang), style="bold"), Text("")]
        lines.append(Text(t("quit.saved" if resumable else "quit.not_saved", lang)))
        lines.append(Text(""))
        lines.append(Text(t("quit.keys", lang)))
        screen = cls(Group(*lines), t("quit.hint", lang))
        screen.leave_keys = frozenset({"y", "q", t("quit.key_leave", lang)})
        screen.end_keys = frozenset({"e", t("quit.key_end", lang)})
        return screen

    leave_keys: frozenset[str] = frozenset({"y", "q"})
    end_keys: frozenset[str] = frozenset({"e"})

    def on_other_key(self, key: str) -> None:
        """Leave (``y``, or this language's letter), or end the series after this hand."""
        if key in self.leave_keys:
            self.dismiss("quit")
        elif key in self.end_keys:
            self.dismiss("end")


class SeriesOverScreen(Screen[None]):
    """The end of the series: winner, reason, standings; any of Enter, Q, Esc quits."""

    def __init__(self, body: Sequence[RenderableType], hint: str) -> None:
        super().__init__()
        self._body = body
        self._hint = hint

    def compose(self) -> ComposeResult:
        with Vertical(classes="panel wide"):
            with VerticalScroll(classes="panel-body"):
                yield Static(Group(*self._body))
            yield Static(Text(self._hint, style="dim"), classes="panel-hint")

    def on_key(self, event: events.Key) -> None:
        event.stop()
        if event.key in ("enter", "q", "escape", "space"):
            self.app.exit()


class PrivacyScreen(Screen[None]):
    """Hot seat: hides the table until the named player says nobody else is looking."""

    def __init__(self, name: str, lang: str) -> None:
        super().__init__()
        self._name = name
        self._lang = lang

    def compose(self) -> ComposeResult:
        with Vertical(classes="privacy"):
            yield Static(Text(t("privacy.pass_to", self._lang, name=self._name),
                              style="bold"), classes="privacy-title")
            yield Static(t("privacy.hint", self._lang, name=self._name))

    def on_key(self, event: events.Key) -> None:
        event.stop()
        if event.key == "enter":
            self.dismiss(None)
        elif event.key == "q":
            app: PlayApp = self.app  # type: ignore[assignment]
            app.ask_quit()


class TooSmallScreen(Screen[None]):
    """Shown while the terminal is smaller than the game needs."""

    def __init__(self, lang: str, size: tuple[int, int], needed: tuple[int, int]) -> None:
        super().__init__()
        self._lang = lang
        self._shown_size = size
        self._needed = needed

    def compose(self) -> ComposeResult:
        yield Static(self._message(), id="too-small")

    def _message(self) -> str:
        return t("too_small.message", self._lang, width=self._needed[0],
                 height=self._needed[1], now_width=self._shown_size[0],
                 now_height=self._shown_size[1])

    def update_size(self, size: tuple[int, int]) -> None:
        """Show the new size."""
        self._shown_size = size
        self.query_one("#too-small", Static).update(self._message())

    def on_key(self, event: events.Key) -> None:
        event.stop()
        if event.key in ("q", "ctrl+c"):
            self.app.exit()
