"""The terminal game: :class:`PlayApp`, a Textual shell over a :class:`~feltro.session.Session`.

The app owns no game state: the session (and through it the series and its durable log)
does. The app adds the language, the pace of the bots, the clock for the stop time (G6), a
hook called when each hand ends (the command line saves the hand as PHH there), and the
"terminal too small" guard (the game needs 80x24).

>>> from feltro.series import Series, SeriesConfig
>>> from feltro.session import MemoryDriver, Player, Session
>>> config = SeriesConfig(players={1: "Ana", 2: "Rui"})
>>> session = Session(MemoryDriver(Series(config, 1)),
...                   [Player(1, "Ana"), Player(2, "Rui", bot="rules")])
>>> PlayApp(session, lang="pt-PT").lang
'pt-PT'
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from textual import events
from textual.app import App
from textual.screen import Screen

from feltro.i18n import check_language, t
from feltro.session import Player, Session
from feltro.tui.screens import QuitScreen, TooSmallScreen, guard_size
from feltro.tui.table_screen import TableScreen

__all__ = ["MIN_SIZE", "PlayApp"]

MIN_SIZE = (80, 24)
"""The smallest terminal (columns, rows) the game is laid out for."""


class PlayApp(App[None]):
    """The game (see the module docstring).

    :param session: the series and its players.
    :param lang: ``"en"``, ``"pt-PT"`` or ``"pt-BR"``.
    :param bot_delay: seconds a bot "thinks" before its action shows (0 in tests).
    :param clock: the current time, for the stop time's countdown (tests pass a fixed one).
    :param on_hand_end: called with the session after each hand ends (saving it).
    :param on_late_player: called with a late player (G9) before they sit down (recording
        the players for ``--resume``).
    :param saved_to: where the hands are saved, to tell the players at the end.
    :param resumable: whether quitting keeps the series (a durable log) for ``--resume``.
    :param feltro: the command that runs feltro where the player is (``.venv/bin/feltro``),
        as messages name it.
    """

    CSS_PATH = "feltro.tcss"
    TITLE = "feltro"
    ENABLE_COMMAND_PALETTE = False

    def __init__(
        self,
        session: Session,
        *,
        lang: str = "en",
        bot_delay: float = 0.6,
        clock: Callable[[], datetime] = datetime.now,
        on_hand_end: Callable[[Session], None] | None = None,
        on_late_player: Callable[[Player], None] | None = None,
        saved_to: Path | str | None = None,
        resumable: bool = False,
        feltro: str = "feltro",
    ) -> None:
        super().__init__()
        self.session = session
        self.lang = check_language(lang)
        self.bot_delay = bot_delay
        self._clock = clock
        self._on_hand_end = on_hand_end
        self._on_late_player = on_late_player
        self.saved_to = str(saved_to) if saved_to is not None else None
        self.resumable = resumable
        self.feltro = feltro
        self.table = TableScreen(session, self.lang)
        self._too_small: TooSmallScreen | None = None
        self._table_up = False  # the guard waits for the table (a resize may come first)

    def now(self) -> datetime:
        """The current time (for the stop time, G6)."""
        return self._clock()

    async def on_mount(self) -> None:
        self.title = t("app.title", self.lang)
        await self.push_screen(self.table)
        self._table_up = True
        self._check_size(self.size.width, self.size.height)

    def show(self, screen: Screen[Any], callback: Callable[[Any], None] | None = None) -> None:
        """Push *screen*, keeping the "too small" message on top while it is up."""
        guard = self._too_small
        if guard is not None and self.screen is guard:
            self.pop_screen()
            self.push_screen(screen, callback)
            self.push_screen(guard)
        else:
            self.push_screen(screen, callback)

    def hand_ended(self, session: Session) -> None:
        """A hand has just ended: run the hook (saving the hand)."""
        if self._on_hand_end is not None:
            self._on_hand_end(session)

    def late_player(self, player: Player) -> None:
        """A late player is about to sit down (G9): run the hook (recording the players)."""
        if self._on_late_player is not None:
            self._on_late_player(player)

    def ask_quit(self) -> None:
        """Ask whether to leave (the series stays resumable) or end the series (G6)."""
        self.show(QuitScreen.build(self.lang, self.resumable, self.feltro), self._quit_answer)

    def _quit_answer(self, answer: str | None) -> None:
        if answer == "quit":
            self.exit()
        elif answer == "end":
            self.session.request_stop()
            self.table.message = None
            self.table.refresh_all()

    # --- the size guard --------------------------------------------------------------------

    def on_resize(self, event: events.Resize) -> None:
        self._check_size(event.size.width, event.size.height)

    def _check_size(self, width: int, height: int) -> None:
        if not self._table_up:
            return
        self._too_small = guard_size(self, self._too_small, self.lang, (width, height),
                                     MIN_SIZE)
