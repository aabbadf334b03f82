"""The game's secondary screens: privacy, showdown, standings, hand log, help and the
house rules, quit, series over, and "terminal too small".

Each takes what it shows when it is made and answers a few keys; the table screen
(:mod:`feltro.tui.table_screen`) decides when to show them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from rich.console import Group, RenderableType
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from feltro.i18n import t

if TYPE_CHECKING:
    from feltro.tui.app import PlayApp

__all__ = [
    "REMOTE_KEYS",
    "HelpScreen",
    "HelpTerms",
    "LogScreen",
    "PrivacyScreen",
    "QuitScreen",
    "RulesScreen",
    "SeriesOverScreen",
    "ShowdownScreen",
    "StandingsScreen",
    "TooSmallScreen",
    "guard_size",
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


_HELP_KEYS = ("fold", "check_call", "sizes", "amount", "next", "show", "show_losers",
              "standings", "log", "quit")
"""The keys of the terminal game, as the help panel lists them (``help.<key>``)."""

REMOTE_KEYS = ("fold", "check_call", "sizes", "amount", "show", "show_losers", "standings",
               "leave_seat")
"""The keys of a seat played from afar (``feltro join``): no next hand, log or ending."""


@dataclass(frozen=True, slots=True)
class HelpTerms:
    """What the help panel says of this table: its keys (``help.<key>``), stack and blinds."""

    keys: tuple[str, ...] = _HELP_KEYS
    stack: int = 200
    small_blind: int = 1
    big_blind: int = 2


class RulesScreen(_Panel):
    """Help: the keys, then the whole house rules document (:mod:`feltro.rules`), scrollable.

    ``?`` opens it at the top; after a refusal that cites a rule, ``?`` opens it at that rule.
    """

    CLOSE_KEYS: ClassVar[frozenset[str]] = frozenset({"escape", "enter", "question_mark"})
    SCROLL_KEYS: ClassVar[dict[str, str]] = {
        "up": "scroll_up", "down": "scroll_down", "k": "scroll_up", "j": "scroll_down",
        "pageup": "scroll_page_up", "pagedown": "scroll_page_down", "space": "scroll_page_down",
        "home": "scroll_home", "end": "scroll_end",
    }

    def __init__(self, lang: str, focus: str | None = None,
                 terms: HelpTerms = HelpTerms()) -> None:
        super().__init__(Text(""), t("rules.scroll", lang))
        self.lang = lang
        self.focus_rule = focus
        """The rule shown first (its id), or ``None`` for the top."""
        self.terms = terms

    @classmethod
    def build(cls, lang: str, focus: str | None = None,
              terms: HelpTerms = HelpTerms()) -> RulesScreen:
        """The keys and the rules in *lang* (this table's *terms*), opened at rule *focus*
        when it is one."""
        from feltro.rules import RULE_IDS

        return cls(lang, focus if focus in RULE_IDS else None, terms)

    def compose(self) -> ComposeResult:
        from rich.markdown import Markdown

        from feltro.rules import blocks

        keys = [Text(t("help.title", self.lang), style="bold"), Text("")]
        terms = self.terms
        keys += [Text(t(f"help.{key}", self.lang)) for key in terms.keys]
        keys += [Text(t("rules.help", self.lang)), Text(""),
                 Text(t("help.rules", self.lang, stack=terms.stack, small=terms.small_blind,
                        big=terms.big_blind), style="italic")]
        with Vertical(classes="panel wide rules"):
            with VerticalScroll(classes="panel-body", id="rules-body"):
                yield Static(Group(*keys), id="rules-keys")
                for rule_id, markdown in blocks(self.lang):
                    yield Static(Markdown(markdown),
                                 id=f"rule-{rule_id}" if rule_id else None,
                                 classes="rule" if rule_id else "rule-heading")
            yield Static(Text(self._hint, style="dim"), classes="panel-hint")

    def on_mount(self) -> None:
        if self.focus_rule is not None:
            self.call_after_refresh(self.show_rule, self.focus_rule)

    def show_rule(self, rule_id: str) -> None:
        """Scroll so that rule *rule_id* starts at the top."""
        body = self.query_one("#rules-body", VerticalScroll)
        body.scroll_to_widget(self.query_one(f"#rule-{rule_id}", Static), top=True,
                              animate=False)

    def on_other_key(self, key: str) -> None:
        """Scroll: arrows, j/k, PgUp/PgDn, space, Home/End."""
        action = self.SCROLL_KEYS.get(key)
        if action is not None:
            body = self.query_one("#rules-body", VerticalScroll)
            getattr(body, action)(animate=False)


HelpScreen = RulesScreen
"""The help panel is the Rules screen: the keys come first."""


class QuitScreen(_Panel):
    """Leave now (the series is saved) or end the series after this hand (G6)."""

    CLOSE_KEYS: ClassVar[frozenset[str]] = frozenset({"escape", "n"})

    @classmethod
    def build(cls, lang: str, resumable: bool, feltro: str = "feltro") -> QuitScreen:
        """The quit question in *lang*; *resumable* when the series has a durable log, which
        the command *feltro* (as the player runs it) continues."""
        lines = [Text(t("quit.title", lang), style="bold"), Text("")]
        lines.append(Text(t("quit.saved" if resumable else "quit.not_saved", lang,
                            feltro=feltro)))
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


class LateNameScreen(ModalScreen[str]):
    """A late player types their name (G9): Enter sits them down, Esc gives up."""

    def __init__(self, lang: str) -> None:
        super().__init__()
        self._lang = lang
        self.typed = ""

    def compose(self) -> ComposeResult:
        with Vertical(classes="panel"):
            yield Static(self._prompt(), id="late-name")

    def _prompt(self) -> Text:
        return Text(t("entries.late_prompt", self._lang, typed=self.typed), style="bold")

    def on_key(self, event: events.Key) -> None:
        event.stop()
        if event.key in ("escape", "enter"):
            self.dismiss(self.typed.strip() if event.key == "enter" else "")
            return
        if event.key == "backspace":
            self.typed = self.typed[:-1]
        elif event.is_printable and event.character and len(self.typed) < 20:
            self.typed += event.character
        self.query_one("#late-name", Static).update(self._prompt())


class SeriesOverScreen(Screen[None]):
    """The end of the series: winner, reason, standings; any of Enter, Q, Esc quits, and
    ``?`` reads the rule that ended it (*rule*, G4 or G6) in *lang*."""

    def __init__(self, body: Sequence[RenderableType], hint: str, *, lang: str = "en",
                 rule: str | None = None, terms: HelpTerms = HelpTerms()) -> None:
        super().__init__()
        self._body = body
        self._hint = hint
        self._lang = lang
        self._rule = rule
        self._terms = terms

    def compose(self) -> ComposeResult:
        with Vertical(classes="panel wide"):
            with VerticalScroll(classes="panel-body"):
                yield Static(Group(*self._body))
            yield Static(Text(self._hint, style="dim"), classes="panel-hint")

    def on_key(self, event: events.Key) -> None:
        event.stop()
        if event.key in ("enter", "q", "escape", "space"):
            self.app.exit()
        elif event.key == "question_mark":
            self.app.push_screen(RulesScreen.build(self._lang, self._rule, self._terms))


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


def guard_size(app: App[Any], shown: TooSmallScreen | None, lang: str, size: tuple[int, int],
               needed: tuple[int, int]) -> TooSmallScreen | None:
    """Show, update or take away the too-small message for a terminal of *size*; returns the
    message screen now shown (``None`` once the terminal is big enough). Every Textual app of
    feltro (the game, the table client) guards its size with this."""
    small = size[0] < needed[0] or size[1] < needed[1]
    if small and shown is None:
        shown = TooSmallScreen(lang, size, needed)
        app.push_screen(shown)
        return shown
    if small:
        assert shown is not None
        shown.update_size(size)
        return shown
    if shown is not None and app.screen is shown:
        app.pop_screen()
    return None
