"""The table screen: the game itself, and the flow from hand to hand.

Keyboard only. The screen is in one of a few modes:

* ``bots``: a bot is to act; it plays after a short pause (so people can follow);
* ``act``: a person is to act: F fold, C (or X) check or call, 1-4 the quick sizes (minimum,
  half pot, pot, all-in), R type an amount;
* ``amount``: typing a bet or raise-to total; Enter checks it (a bad amount shows why and the
  prompt stays, nothing is applied), Esc cancels;
* ``confirm_fold``: folding when checking is free asks for F again (B3 allows it);
* ``hand_over``: the result; Enter deals the next hand (or shows the end of the series); M
  shows the cards of a person who won the hand uncontested (P8);
* ``privacy``: hot seat, waiting behind the privacy screen.

S standings, L the whole hand log, ? help and the house rules (at the rule a refusal cites),
V show my cards at the showdown even when I lose (on/off, from the next deal; P8, D11: kept in
the series log) and Q quit work in every mode.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Group
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import RichLog, Static

from feltro.actions import FOLD, Action, Raise
from feltro.errors import IllegalActionError
from feltro.hand import SeatView
from feltro.i18n import refusal_words, t
from feltro.tui import render, turn
from feltro.tui.entrywords import (
    late_player,
    late_seat_free,
    late_seated,
    reentered,
    reentry_offer,
    reentry_seat,
)
from feltro.tui.screens import (
    HelpTerms,
    LateNameScreen,
    LogScreen,
    PrivacyScreen,
    RulesScreen,
    SeriesOverScreen,
    ShowdownScreen,
    StandingsScreen,
)
from feltro.tui.text import AmountError, parse_amount

if TYPE_CHECKING:
    from feltro.session import Session
    from feltro.tui.app import PlayApp

__all__ = ["TableScreen"]



def table_widgets() -> ComposeResult:
    """The table's widgets, by id: the header; the seats beside a log that wraps and scrolls
    (its last line in view); the board, one's own cards, the status, the actions, a message
    line and the keys. The terminal game and ``feltro join`` lay a table out alike."""
    yield Static(id="header")
    with Horizontal(id="top"):
        yield Static(id="seats")
        yield RichLog(id="log", wrap=True, markup=False, auto_scroll=True, min_width=10)
    with Vertical(id="bottom"):
        for name in ("board", "mine", "status", "actions", "message", "keys"):
            yield Static(id=name)

class TableScreen(Screen[None]):
    """The game table (see the module docstring)."""

    def __init__(self, session: Session, lang: str) -> None:
        super().__init__()
        self.session = session
        self.lang = lang
        self.mode = "start"
        self.viewer: int | None = None
        """The seat whose private cards are on screen."""
        self.typed = ""
        self.message: Text | None = None
        self._offered: int | None = None
        """The hand after which a re-entry was offered (G8)."""
        self._cited: tuple[Text | None, str | None] = (None, None)
        """The refusal on screen and the rule it cites (``?`` opens it)."""
        self._ended_hand = session.series.hand_number if not session.series.in_hand else -1
        self._bot_timer_pending = False
        self.fast_forward = False
        self.keyboard: int | None = None
        """Hot seat: the person who last took the keyboard behind the privacy screen."""

    @property
    def play_app(self) -> PlayApp:
        """The app, typed."""
        return self.app  # type: ignore[return-value]

    @property
    def hotseat(self) -> bool:
        """Whether several people share the screen."""
        return len(self.session.humans) > 1

    # --- layout ------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield from table_widgets()

    def on_mount(self) -> None:
        if len(self.session.humans) == 1:
            self.viewer = self.session.humans[0]
        self.set_interval(1.0, self._tick)
        self.advance()

    def _tick(self) -> None:
        self.query_one("#header", Static).update(
            render.header_line(self.session, self.lang, self.play_app.now()))

    # --- the flow ------------------------------------------------------------------------------

    def advance(self) -> None:
        """Move the game on to the next decision, and show it."""
        session = self.session
        if session.series.hand_number and not session.series.in_hand and \
                self._ended_hand != session.series.hand_number:
            self._hand_ended()
            return
        if session.series.is_over and self.mode != "hand_over":
            self._series_over()
            return
        if not session.series.in_hand:
            if session.series.hand_number == 0 or self.mode in ("start", "next"):
                self._deal()
            return
        if session.bot_to_act:
            self._bots_turn()
            return
        seat = session.human_to_act
        assert seat is not None
        if self.hotseat and self.viewer != seat and self.keyboard == seat:
            self.viewer = seat  # nobody else has had the keyboard since: no need to pass it
        if self.hotseat and self.viewer != seat:
            self.viewer = None
            self.mode = "privacy"
            self.refresh_all()
            player = session.players[seat]
            self.play_app.show(PrivacyScreen(player.name, self.lang),
                                 lambda _: self._privacy_done(seat))
            return
        self.mode = "act"
        self.refresh_all()

    def _privacy_done(self, seat: int) -> None:
        self.viewer = seat
        self.keyboard = seat
        self.advance()

    def _deal(self) -> None:
        session = self.session
        if self.hotseat:
            self.viewer = None
        self.message = None
        if not session.next_hand(self.play_app.now()):
            self._series_over()
            return
        self.mode = "dealt"
        self.advance()

    def _bots_turn(self) -> None:
        self.mode = "bots"
        self.refresh_all()
        delay = 0.0 if self.fast_forward else self.play_app.bot_delay
        if delay <= 0:
            self.session.play_bots()
            self.advance()
            return
        if not self._bot_timer_pending:
            self._bot_timer_pending = True
            self.set_timer(delay, self._bot_step)

    def _bot_step(self) -> None:
        self._bot_timer_pending = False
        if self.session.bot_to_act:
            self.session.bot_act()
        self.advance()

    def _hand_ended(self) -> None:
        session = self.session
        self._ended_hand = session.series.hand_number
        self.play_app.hand_ended(session)
        self.mode = "hand_over"
        seat = self._reentry_seat()
        if seat is not None:  # Enter asks once more before the next hand (_continue)
            self.message = Text(reentry_offer(session, seat, self.lang), style="bold yellow")
        self.refresh_all()
        summary = session.last_summary
        no_human_left = not any(session.series.stacks.get(s, 0) for s in session.humans)
        if no_human_left and self.fast_forward:
            # A timer, not a call: the next hand starts from a fresh stack, and the screen
            # shows each hand go by.
            self.set_timer(0.05, self._continue)
            return
        stale = self._close_panels()  # opened during the hand: one panel at a time
        if summary is not None and _at_showdown(session) >= 2:
            self.play_app.show(
                ShowdownScreen(render.showdown(session, self.lang),
                               t("result.continue", self.lang)),
                self._after_showdown)
        elif StandingsScreen in stale:
            self._show_standings()  # the standings after this hand, not before it

    def _close_panels(self) -> list[type[Screen[str]]]:
        """Close the standings, log or rules panel on top (what it shows is a hand old);
        the kinds closed."""
        closed: list[type[Screen[str]]] = []
        while isinstance(self.app.screen, StandingsScreen | LogScreen | RulesScreen):
            closed.append(type(self.app.screen))
            self.app.pop_screen()
        return closed

    def _show_standings(self) -> None:
        self.play_app.show(StandingsScreen(
            Group(Text(t("standings.title", self.lang), style="bold"), Text(""),
                  render.standings_table(self.session.standings(), self.session, self.lang)),
            t("panel.close", self.lang)))

    def _after_showdown(self, key: str | None) -> None:
        if key == "enter":
            self._continue()

    def _continue(self) -> None:
        """Enter after a hand: the next hand, or the end of the series."""
        if self.session.series.is_over:
            self._series_over()
            return
        if self._offer_reentry():  # asked once: Enter again declines
            self.mode = "hand_over"
            self.refresh_all()
            return
        self.mode = "next"
        self._offered = None
        self._deal()

    def _series_over(self) -> None:
        self.mode = "series_over"
        self.refresh_all()
        body = render.series_over(self.session, self.lang)
        saved = self.play_app.saved_to
        if saved:
            body.append(Text(""))
            body.append(Text(t("series.saved", self.lang, path=saved), style="dim"))
        self.play_app.show(SeriesOverScreen(body, t("series.quit_hint", self.lang),
                                            lang=self.lang, rule=render.end_rule(self.session),
                                            terms=self._help_terms()))

    # --- keys ----------------------------------------------------------------------------------

    def on_key(self, event: events.Key) -> None:
        key = event.key
        event.stop()
        if self.mode == "amount":
            self._amount_key(event)
            return
        if key == "q":
            self.play_app.ask_quit()
        elif key == "s":
            self._show_standings()
        elif key == "l":
            lines = render.hand_log(self.session, self.lang, self.viewer)
            self.play_app.show(LogScreen(Group(*lines), t("panel.scroll", self.lang)))
        elif key == "question_mark":
            self.play_app.show(RulesScreen.build(self.lang, self.cited_rule(),
                                                 self._help_terms()))
        elif key == "r" and self.mode not in ("act", "confirm_fold") \
                and self._reentry_seat() is not None:  # R raises in a turn
            self._reenter()
        elif key == "v" and self._chooser() is not None:
            self._toggle_show_losers()
        elif key == "j" and late_seat_free(self.session, self.play_app.now()):
            self.play_app.show(LateNameScreen(self.lang), self._late_named)
        elif self.mode == "confirm_fold":
            if key in self._keys_for("fold"):
                self._play(FOLD)
            else:
                self.mode = "act"
                self.message = None
                self.refresh_all()
        elif self.mode == "act":
            self._action_key(key)
        elif self.mode == "hand_over" and key == "m" \
                and (winner := turn.courtesy_seat(self.session)) is not None:
            self.session.show(winner)  # P8: the winner of a hand won uncontested shows it
            self.refresh_all()
        elif self.mode == "hand_over" and key in ("enter", "space"):
            self._continue()
        elif self.mode in ("bots", "hand_over") and key == "w" and self._spectating():
            self.fast_forward = True
            if self.mode == "bots":
                self.advance()
            else:
                self._continue()

    def _chooser(self) -> int | None:
        """The person whose choices the keyboard makes now: the one whose cards are on
        screen (hot seat: nobody, behind the privacy screen)."""
        return self.viewer if self.viewer in self.session.humans else None

    def _toggle_show_losers(self) -> None:
        """V: show my cards at the showdown even when I lose, or muck such a hand (the
        default), from the next deal (P8, D11); the seated series' own choice, so the durable
        log keeps it for a resumed series."""
        seat = self._chooser()
        assert seat is not None
        on = seat not in self.session.series.show_losers
        self.session.set_show_losers(seat, on)
        key = "tui.show_losers.now_on" if on else "tui.show_losers.now_off"
        self.message = Text(t(key, self.lang), style="bold green")
        self.refresh_all()

    def _reentry_seat(self) -> int | None:
        return reentry_seat(self.session, self.play_app.now())

    def _offer_reentry(self) -> bool:
        """Offer a re-entry to a person who is out (G8), once per hand; whether it did now."""
        seat = self._reentry_seat()
        if seat is None or self._offered == self.session.series.hand_number:
            return False
        self._offered = self.session.series.hand_number
        self.message = Text(reentry_offer(self.session, seat, self.lang), style="bold yellow")
        return True

    def _reenter(self) -> None:
        """The person re-enters (G8: at this keyboard they are their own host)."""
        seat = self._reentry_seat()
        assert seat is not None
        self.session.reenter(seat, self.play_app.now())
        self.message = Text(reentered(self.session, seat, self.lang), style="bold green")
        self.refresh_all()

    def _late_named(self, name: str | None) -> None:
        """A late player gave their name (G9): recorded, seated, told when they play."""
        if not name:
            return
        player = late_player(self.session, name, self.play_app.now())
        if player is None:
            self.message = Text(t("entries.late_taken", self.lang, name=name), style="bold red")
        else:
            self.play_app.late_player(player)
            self.session.seat_late(player, self.play_app.now())
            self.message = Text(late_seated(self.session, player.seat, self.lang),
                                style="bold green")
        self.refresh_all()

    def _help_terms(self) -> HelpTerms:
        config = self.session.series.config
        return HelpTerms(stack=config.starting_stack, small_blind=config.small_blind,
                         big_blind=config.big_blind)

    def _spectating(self) -> bool:
        return not any(self.session.series.stacks.get(s, 0) for s in self.session.humans)

    def _action_key(self, key: str) -> None:
        view = self._my_view()
        if view is None:
            return
        answer = turn.answer_key(key, self.session.legal(), view, self.lang)
        if isinstance(answer, Action):
            self._play(answer)
        elif isinstance(answer, turn.Refused):
            self._refuse(answer.reason, answer.rule)
        elif answer is not None:  # a fold when checking is free asks first; R types an amount
            self.mode, self.typed = answer, ""
            self.message = (Text(t("act.confirm_fold", self.lang), style="yellow")
                            if answer == "confirm_fold" else None)
            self.refresh_all()

    def _amount_key(self, event: events.Key) -> None:
        key = event.key
        if key == "escape":
            self.mode = "act"
            self.typed = ""
            self.message = None
        elif key == "enter":
            result = parse_amount(self.typed, self.session.legal())
            if isinstance(result, AmountError):
                # Nothing is applied: the reason, and the prompt again.
                self.message = Text(result.text(self.lang), style="bold red")
                self.typed = ""
            else:
                self.mode = "act"
                self.typed = ""
                self._play(Raise(result))
                return
        elif key == "backspace":
            self.typed = self.typed[:-1]
        elif event.is_printable and event.character and len(self.typed) < 12:
            self.typed += event.character
        self.refresh_all()

    def _keys_for(self, action: str) -> frozenset[str]:
        return turn.keys_for(action, self.lang)

    def _refuse(self, reason: str | None, rule: str | None = None) -> None:
        """Show *reason*; *rule* is the rule it cites (as data, never read from the words)."""
        if reason:
            self.message = Text(reason, style="bold red")
            cited = rule if rule in turn.known_rules() else None
            self._cited = (self.message, cited)
            if cited is not None:
                self.message.append("  " + t("rules.open_hint", self.lang, rule=cited),
                                    style="dim")
            self.refresh_all()

    def cited_rule(self) -> str | None:
        """The rule the message on screen cites (a refusal's "(B8)"), if any: ``?`` opens
        the Rules screen at it."""
        if self.message is not None:
            shown, rule = self._cited
            return rule if shown is self.message else None
        return self._standing_rule()

    def _standing_rule(self) -> str | None:
        """The rule why raising is not offered now (B7, B8, B10), when it is not."""
        if self.mode != "act" or self._my_view() is None:
            return None
        return turn.standing_rule(self.session.legal())

    def _play(self, action: Action) -> None:
        seat = self.session.human_to_act
        if seat is None:
            return
        try:
            self.session.act(seat, action)
        except IllegalActionError as exc:
            self.mode = "act"
            self._refuse(refusal_words(exc.refusal, self.lang), exc.rule)
            return
        self.message = None
        if self.hotseat:
            self.viewer = None  # hide the cards once they have acted
        self.mode = "acted"
        self.advance()

    # --- showing -------------------------------------------------------------------------------

    def _my_view(self) -> SeatView | None:
        seat = self.session.human_to_act
        if seat is None or seat != self.viewer:
            return None
        return self.session.view(seat)

    def refresh_all(self) -> None:
        """Redraw every panel from the session."""
        session, lang = self.session, self.lang
        self.query_one("#header", Static).update(
            render.header_line(session, lang, self.play_app.now()))
        self.query_one("#seats", Static).update(render.seats_table(session, self.viewer, lang))
        log = self.query_one("#log", RichLog)
        log.clear()
        for line in render.hand_log(session, lang, self.viewer):
            log.write(line)
        self.call_after_refresh(log.scroll_end, animate=False)  # the first draw too
        self.query_one("#board", Static).update(render.board_line(session, lang))
        self.query_one("#mine", Static).update(render.mine_line(session, self.viewer, lang))
        self.query_one("#status", Static).update(turn.status_line(session, self.mode, lang))
        self.query_one("#actions", Static).update(turn.action_lines(
            session, self._my_view(), self.mode, self.typed, self._spectating(), lang))
        reason = turn.standing_reason(self._my_view(), session.legal(), lang) \
            if self.mode == "act" else Text("")
        self.query_one("#message", Static).update(self.message or reason)
        keys = turn.keys_line(self.mode, self._spectating(), self.fast_forward, lang)
        if late_seat_free(session, self.play_app.now()):
            keys.append(" · " + t("entries.late_hint", lang))
        chooser = self._chooser()
        if chooser is not None and not self._spectating():
            keys.append(" · " + turn.show_losers_key(chooser in session.series.show_losers, lang))
        self.query_one("#keys", Static).update(keys)

def _at_showdown(session: Session) -> int:
    """How many players reached the showdown: those who showed and those who mucked (the
    showdown is shown even when the person at the keyboard mucked)."""
    from feltro.events import CardsMucked, CardsShown

    return sum(isinstance(e, CardsShown | CardsMucked) for e in session.public_view().events)

