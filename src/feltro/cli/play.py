"""``feltro play`` (the terminal game) and ``feltro history`` (past series, hand by hand).

``feltro play`` starts a series with the house rules (200 chips, blinds 1/2) in a full-screen
terminal game: you against bots (``--players``, ``--bots``, ``--level``), or several people at
one keyboard (``--hotseat Ana,Rui``). Every change is logged first (:mod:`feltro.series_log`) and
every finished hand saved as PHH in the data folder (:mod:`feltro.tui.datadir`), so
``feltro play --resume`` continues an interrupted series and ``feltro history`` shows it.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from feltro.cli.failure import one_line
from feltro.cli.invoked import feltro_command
from feltro.cli.language import BOT_NAMES, LANG_HELP, resolve_language

if TYPE_CHECKING:
    from feltro.entries import ReentryRule
    from feltro.levels import BlindSchedule
    from feltro.series_log import SeriesStore
    from feltro.session import Player, Session
    from feltro.tui.app import PlayApp
    from feltro.tui.datadir import SeriesFolder, SeriesInfo

_BOT_NAMES = ("Ana", "Rui", "Eva", "Tomé", "Bia", "Caio", "Inês", "Zeca", "Lia", "Duda")


def parse_stop_at(text: str, now: datetime, lang: str = "en") -> datetime:
    """``"23:30"`` -> the next 23:30 from *now* (today, or tomorrow if already past); a full
    ISO date-time is taken as it is.

    :raises typer.BadParameter: for anything else.
    """
    match = re.fullmatch(r"([01]?[0-9]|2[0-3])[:h.]([0-5][0-9])", text.strip())
    if match:
        at = now.replace(hour=int(match.group(1)), minute=int(match.group(2)), second=0,
                         microsecond=0)
        return at if at > now else at + timedelta(days=1)
    try:
        return datetime.fromisoformat(text.strip())
    except ValueError:
        from feltro.i18n import t

        raise typer.BadParameter(t("cli.error.not_a_time", lang, text=text),
                                 param_hint="--stop-at") from None


def choose_players(
    *,
    humans: list[str],
    players: int | None,
    bots: str | None,
    level: str,
    lang: str = "en",
) -> list[Player]:
    """The seats: people first (seats 1..), then bots named after :data:`_BOT_NAMES`.

    *bots* is a number of bots or comma-separated levels (one per bot, or one for all).

    :raises typer.BadParameter: for an impossible or contradictory combination.
    """
    from feltro.i18n import t
    from feltro.session import Player

    count, levels = _bot_levels(bots, level, lang)
    if count is None:
        count = players - len(humans) if players is not None else 5 if len(humans) == 1 else 0
    if players is not None and players != len(humans) + count:
        raise typer.BadParameter(t("cli.error.players_mismatch", lang, players=players,
                                   people=len(humans), bots=count), param_hint="--players")
    total = len(humans) + count
    if not 2 <= total <= 10:
        raise typer.BadParameter(t("cli.error.players_range", lang, total=total))
    taken = {h.casefold() for h in humans}
    names = [n for n in _BOT_NAMES if n.casefold() not in taken]
    seats = [Player(i + 1, name) for i, name in enumerate(humans)]
    for i in range(count):
        seats.append(Player(len(humans) + i + 1, names[i], bot=levels[i % len(levels)]))
    return seats


def blind_schedule(levels: str | None, hands: int | None, minutes: int | None,
                   antes_from: int | None, lang: str = "en") -> BlindSchedule | None:
    """The blind levels ``--levels`` and its options ask for (G7), ``None`` for fixed blinds.

    :raises typer.BadParameter: for levels that cannot be read, or both units at once.
    """
    from feltro.errors import ConfigError
    from feltro.i18n import t
    from feltro.levels import BlindSchedule, LevelUnit

    if levels is None:
        return None
    if hands is not None and minutes is not None:
        raise typer.BadParameter(t("levels.error_both", lang), param_hint="--level-minutes")
    unit = LevelUnit.MINUTES if minutes is not None else LevelUnit.HANDS
    try:
        return BlindSchedule.parse(levels, unit=unit, length=minutes or hands or 10,
                                   ante_from=antes_from)
    except ConfigError:
        raise typer.BadParameter(t("levels.error", lang, text=levels[:80]),
                                 param_hint="--levels") from None


def reentry_rule(times: int | None, level: int | None, minutes: int | None,
                 lang: str = "en", late_seats: bool = False) -> ReentryRule | None:
    """The re-entry period ``--reentries`` asks for (G8), ``None`` for a freezeout (G4).

    :raises typer.BadParameter: without exactly one end (a level or minutes).
    """
    from feltro.entries import ReentryRule
    from feltro.i18n import t

    if times is None:
        if late_seats:
            raise typer.BadParameter(t("entries.error_end", lang), param_hint="--late-seats")
        return None
    if (level is None) == (minutes is None):
        raise typer.BadParameter(t("entries.error_end", lang), param_hint="--reentries")
    return ReentryRule(times=times, until_level=level, until_minutes=minutes,
                       late_seats=late_seats)


def _bot_levels(bots: str | None, level: str, lang: str) -> tuple[int | None, list[str]]:
    """``--bots`` and ``--level`` read: how many bots (``None``: as many as the seats need)
    and their levels, one per bot or one for all.

    :raises typer.BadParameter: for a bot that does not exist.
    """
    from feltro.bots.levels import ALL_KINDS
    from feltro.i18n import t

    if level not in ALL_KINDS:
        raise typer.BadParameter(t("cli.error.unknown_bot", lang, name=level, names=BOT_NAMES),
                                 param_hint="--level")
    if bots is None:
        return None, [level]
    if bots.strip().isdigit():
        return int(bots), [level]
    levels = [b.strip() for b in bots.split(",") if b.strip()]
    bad = [b for b in levels if b not in ALL_KINDS]
    if bad:
        raise typer.BadParameter(t("cli.error.unknown_bot", lang, name=bad[0],
                                   names=BOT_NAMES), param_hint="--bots")
    return (len(levels) if len(levels) > 1 else None), levels or [level]


def _default_name(lang: str) -> str:
    """The login name, capitalised (a nicer default than a pronoun in "Ana calls 4")."""
    import getpass

    from feltro.i18n import t

    try:
        login = getpass.getuser()
    except (OSError, KeyError):
        login = ""
    if not login.isalpha() or login in ("root", "user", "admin"):
        return t("app.player", lang)
    return login.capitalize()


def _humans(hotseat: str | None, name: str | None, lang: str) -> list[str]:
    from feltro.i18n import t

    if hotseat is None:
        return [(name or _default_name(lang)).strip()[:20] or t("app.player", lang)]
    names = [n.strip()[:20] for n in hotseat.split(",") if n.strip()]
    if not names:
        raise typer.BadParameter(t("cli.error.hotseat_names", lang), param_hint="--hotseat")
    if len({n.casefold() for n in names}) != len(names):
        raise typer.BadParameter(t("cli.error.hotseat_unique", lang), param_hint="--hotseat")
    return names


def play(
    *,
    players: Annotated[int | None, typer.Option(
        min=2, max=10, help="Players at the table, people and bots (2-10; default: you + 5 "
                            "bots).")] = None,
    bots: Annotated[str | None, typer.Option(
        help=f"How many bots, or which: {BOT_NAMES} (one for all, or one per bot: "
             "rules,montecarlo,random).")] = None,
    level: Annotated[str, typer.Option(
        help=f"Which bots when --bots gives only a number: {BOT_NAMES}.")] = "rules",
    hotseat: Annotated[str | None, typer.Option(
        help="Several people at one keyboard: NAME,NAME,... (a privacy screen between "
             "turns).")] = None,
    name: Annotated[str | None, typer.Option(help="Your name at the table.")] = None,
    lang: Annotated[str | None, typer.Option(help=LANG_HELP)] = None,
    seed: Annotated[int | None, typer.Option(
        min=0, help="Seed for the button draw, the deals and the bots: the same seed deals "
                    "the same cards.")] = None,
    stop_at: Annotated[str | None, typer.Option(
        help="Stop time, e.g. 23:30: the hand in progress finishes, the biggest stack wins "
             "(G6).")] = None,
    hands: Annotated[int | None, typer.Option(
        min=1, help="Stop after this many hands (G6: the biggest stack wins).")] = None,
    stack: Annotated[int, typer.Option(min=1, help="Starting stack (G2).")] = 200,
    levels: Annotated[str | None, typer.Option(
        help="Blind levels (G7): standard, turbo, slow, or custom levels '1/2, 2/4, 5/10/1' "
             "(small/big/ante). Default: fixed blinds 1/2 (G5).")] = None,
    level_hands: Annotated[int | None, typer.Option(
        min=1, max=10_000, help="With --levels: a new level every N hands (default 10).")]
    = None,
    level_minutes: Annotated[int | None, typer.Option(
        min=1, max=10_000, help="With --levels: a new level every N minutes from the first "
                                "deal.")] = None,
    antes_from: Annotated[int | None, typer.Option(
        min=1, max=40, help="With --levels: antes from this level on.")] = None,
    reentries: Annotated[int | None, typer.Option(
        min=1, max=10, help="A re-entry period (G8): a player out of chips may take a fresh "
                            "stack this many times (press R). Default: freezeout (G4).")]
    = None,
    reentry_level: Annotated[int | None, typer.Option(
        min=1, max=40, help="With --reentries: the period ends with this blind level.")]
    = None,
    reentry_minutes: Annotated[int | None, typer.Option(
        min=1, max=1440, help="With --reentries: the period ends this many minutes after "
                              "the first deal.")] = None,
    late_seats: Annotated[bool, typer.Option(
        "--late-seats", help="With --reentries: a player arriving in the period sits down "
                             "(J between hands, G9).")] = False,
    resume: Annotated[bool, typer.Option(
        "--resume", help="Continue the last interrupted series (or --series ID).")] = False,
    series: Annotated[str | None, typer.Option(
        help="With --resume: which series (an id that feltro history lists).")] = None,
    delay: Annotated[float, typer.Option(
        min=0.0, max=5.0, help="Seconds each bot action stays on screen before the next.")]
    = 0.7,
) -> None:
    """Play a whole series in the terminal: you against bots, or friends around one screen."""
    from feltro.errors import FeltroError
    from feltro.i18n import t
    from feltro.tui.datadir import data_dir, new_series_folder

    language = resolve_language(lang)
    root = data_dir()
    now = datetime.now()
    if not resume:  # a bad option is refused before anything else is said
        seats = choose_players(humans=_humans(hotseat, name, language), players=players,
                               bots=bots, level=level, lang=language)
        stop = parse_stop_at(stop_at, now, language) if stop_at else None
        schedule = blind_schedule(levels, level_hands, level_minutes, antes_from, language)
        rule = reentry_rule(reentries, reentry_level, reentry_minutes, language, late_seats)
        if rule is not None and rule.until_level is not None and (
                schedule is None or rule.until_level > schedule.last):
            raise typer.BadParameter(t("entries.error_level", language),
                                     param_hint="--reentry-level")
    try:
        if not resume and series is None:
            choice = _offer_unfinished(root, language)
            if choice == "quit":
                return
            if choice is not None:
                resume, series = True, choice
        if resume:
            folder = _series_to_resume(root, series, language)
            session, store = _resume(folder)
            players_lang = folder.read_players()[1]
            if lang is None and players_lang:
                language = players_lang
        else:
            folder = new_series_folder(root, now)
            session, store = _create(folder, seats, seed, stop, hands, stack, language,
                                     schedule, rule)
    except (FeltroError, OSError) as exc:  # a damaged log, a folder we cannot write
        typer.echo(f"feltro: {exc}", err=True)
        raise typer.Exit(1) from None
    try:
        _save_missing(folder, session)
        app = _make_app(session, folder, language, delay)
        app.run()
    finally:
        store.close()
    if not session.series.is_over:
        typer.echo(t("cli.paused", language, id=folder.id, feltro=feltro_command()))


def _create(folder: SeriesFolder, seats: list[Player], seed: int | None,
            stop: datetime | None, hands: int | None, stack: int,
            lang: str, schedule: BlindSchedule | None = None,
            rule: ReentryRule | None = None) -> tuple[Session, SeriesStore]:
    from feltro.series import SeriesConfig
    from feltro.series_log import SeriesStore
    from feltro.session import Session

    late = rule is not None and rule.late_seats  # free seats for late players (G9)
    config = SeriesConfig(players={p.seat: p.name for p in seats},
                          seat_count=10 if late else len(seats),
                          starting_stack=stack, stop_at=stop, max_hands=hands,
                          levels=schedule, reentry=rule)
    folder.write_players(seats, lang)
    store = SeriesStore.create(folder.log, config, series_seed=seed)
    try:
        return Session(store, seats), store
    except BaseException:
        store.close()
        raise


def _resume(folder: SeriesFolder) -> tuple[Session, SeriesStore]:
    from feltro.series_log import SeriesStore
    from feltro.session import Player, Session

    players, _lang = folder.read_players()
    store = SeriesStore.open(folder.log)
    try:  # the series' players: a late player cut off by a crash (G9) plays as a person
        known = {p.seat: p for p in players}
        seated = [known.get(seat, Player(seat, name))
                  for seat, name in store.series.players.items()]
        return Session(store, seated), store
    except BaseException:
        store.close()
        raise


def _unfinished(root: Path) -> list[SeriesInfo]:
    """The series that can be continued, newest first."""
    from feltro.tui.datadir import list_series

    return [info for info in list_series(root) if not info.over and info.problem is None]


def _series_to_resume(root: Path, key: str | None, lang: str) -> SeriesFolder:
    """The series ``--resume [--series KEY]`` means.

    :raises typer.Exit: (after saying why and listing the resumable ones) if there is none.
    """
    from feltro.i18n import t
    from feltro.tui.datadir import find_series

    unfinished = _unfinished(root)
    if key is None:
        if not unfinished:
            typer.echo(t("cli.nothing_to_resume", lang, feltro=feltro_command()), err=True)
            raise typer.Exit(1)
        return unfinished[0].folder
    folder = find_series(root, key)
    if folder is not None and any(info.folder == folder for info in unfinished):
        return folder
    if unfinished:
        ids = ", ".join(info.folder.id for info in unfinished)
        typer.echo(t("cli.resume.unknown_series", lang, id=key, ids=ids), err=True)
    else:
        typer.echo(t("cli.resume.unknown_series_none", lang, id=key, feltro=feltro_command()),
                   err=True)
    raise typer.Exit(1)


def _can_ask() -> bool:
    """Whether a person can answer a question on this terminal."""
    import sys

    return sys.stdin.isatty() and sys.stdout.isatty()


def _offer_unfinished(root: Path, lang: str) -> str | None:
    """Before a new series: offer to continue the newest unfinished one.

    Returns that series' id (continue it), ``"quit"``, or ``None`` (start a new series). When
    nobody can answer, a new series starts and the unfinished ones are said, not hidden.
    """
    from feltro.i18n import t

    unfinished = _unfinished(root)
    if not unfinished:
        return None
    newest = unfinished[0]
    names = ", ".join(p.name for p in newest.players)
    typer.echo(t("cli.resume.offer", lang, id=newest.folder.id, players=names,
                 hands=newest.hands))
    if len(unfinished) > 1:
        typer.echo(t("cli.resume.offer_more", lang, count=len(unfinished) - 1,
                     feltro=feltro_command()))
    if not _can_ask():
        return None
    answers = {t("cli.resume.answer_continue", lang): newest.folder.id,
               t("cli.resume.answer_new", lang): None,
               t("cli.resume.answer_quit", lang): "quit",
               "c": newest.folder.id, "n": None, "q": "quit"}
    while True:
        try:
            answer = input(t("cli.resume.choices", lang) + " ").strip().casefold()[:1]
        except EOFError:
            return "quit"
        if answer in answers:
            return answers[answer]


def save_hand(folder: SeriesFolder, session: Session) -> None:
    """Save the current (or last) hand of *session* as PHH in *folder*."""
    now = datetime.now()
    record = session.hand_record(event="feltro home game", day=now.day, month=now.month,
                                 year=now.year)
    folder.save_hand(session.series.hand_number, record)


def _save_missing(folder: SeriesFolder, session: Session) -> None:
    """After a crash between a hand's end and its file: write the last hand if missing."""
    number = session.series.hand_number
    if number and not session.series.in_hand and not folder.hand_file(number).exists():
        save_hand(folder, session)


def _make_app(session: Session, folder: SeriesFolder, lang: str, delay: float) -> PlayApp:
    from feltro.tui.app import PlayApp

    return PlayApp(session, lang=lang, bot_delay=delay,
                   on_hand_end=lambda s: save_hand(folder, s),
                   on_late_player=lambda p: folder.write_players(
                       [*session.players.values(), p], lang),
                   saved_to=folder.hands,
                   resumable=True, feltro=feltro_command())


def history(
    series: Annotated[str | None, typer.Argument(
        help="A series: its id, or its number in the list (1 = the newest).")] = None,
    hand: Annotated[int | None, typer.Argument(help="A hand of that series to step through.")]
    = None,
    *,
    text: Annotated[bool, typer.Option(
        "--text", help="Print every step of the hand instead of the interactive viewer.")]
    = False,
    delete: Annotated[bool, typer.Option(
        "--delete", help="Delete that series (its log and its saved hands).")] = False,
    finish: Annotated[bool, typer.Option(
        "--finish", help="End that unfinished series now: the hand in progress is played out "
                         "with checks (a player facing a bet folds), then the biggest stack "
                         "wins (G6).")] = False,
    lang: Annotated[str | None, typer.Option(help=LANG_HELP)] = None,
) -> None:
    """List past series, the hands of one, or step through one hand; delete or finish a
    series."""
    import feltro.tui.historyview as historyview
    from feltro.errors import FeltroError
    from feltro.i18n import t
    from feltro.tui.datadir import data_dir, find_series, list_series

    language = resolve_language(lang)
    root = data_dir()
    if series is None:
        if delete or finish:
            typer.echo(t("history.which_series", language, feltro=feltro_command()), err=True)
            raise typer.Exit(1)
        historyview.print_series(list_series(root), root, language, feltro_command())
        return
    folder = find_series(root, series)
    if folder is None:
        typer.echo(t("history.no_series", language, id=series, feltro=feltro_command()),
                   err=True)
        raise typer.Exit(1)
    if delete or finish:
        if hand is not None or (delete and finish):
            typer.echo(t("history.delete_or_finish", language), err=True)
            raise typer.Exit(1)
        if delete:
            _delete_series(folder, language)
        else:
            _finish_series(folder, language)
        return
    if hand is None:
        historyview.print_hands(folder, language, feltro_command())
        return
    if hand not in folder.hand_numbers():
        typer.echo(t("history.no_hand", language, id=folder.id, hand=hand), err=True)
        raise typer.Exit(1)
    try:
        if text:
            historyview.print_steps(folder, hand, language)
        else:
            historyview.HistoryApp(folder, hand, language).run()
    except (FeltroError, OSError, ValueError) as exc:
        typer.echo(t("history.damaged_file", language, path=str(folder.hand_file(hand)),
                     problem=one_line(str(exc))), err=True)
        raise typer.Exit(1) from None


def _delete_series(folder: SeriesFolder, lang: str) -> None:
    """Remove *folder*'s series, unless a game is playing it right now."""
    import shutil

    from feltro.errors import StoreError
    from feltro.filelock import FileLock
    from feltro.i18n import t

    try:  # the series log's one-writer lock: refused while a game is playing it
        lock = FileLock(folder.log.with_name(folder.log.name + ".lock"),
                        lambda holder: t("history.in_play", lang, id=folder.id, pid=holder))
    except StoreError as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(1) from None
    try:
        shutil.rmtree(folder.path)
    finally:
        lock.release()
    typer.echo(t("history.deleted", lang, id=folder.id))


def _finish_series(folder: SeriesFolder, lang: str) -> None:
    """End *folder*'s series now (G6): the hand in progress is checked down (a player facing
    a bet folds), then the biggest stack wins; the hands are saved as the game saves them."""
    from feltro.errors import FeltroError
    from feltro.i18n import t

    try:
        session, store = _resume(folder)
    except FeltroError as exc:
        typer.echo(f"feltro: {exc}", err=True)
        raise typer.Exit(1) from None
    try:
        if session.series.is_over:
            typer.echo(t("history.already_over", lang, id=folder.id))
            return
        _save_missing(folder, session)
        if session.series.in_hand:
            while session.series.in_hand and session.series.to_act is not None:
                session.play_default(session.series.to_act)
            save_hand(folder, session)
        store.request_stop()
        session.next_hand()
        outcome = session.series.outcome
        names = ", ".join(session.players[s].name for s in outcome.winners) if outcome else ""
        typer.echo(t("history.finished", lang, id=folder.id, names=names))
    finally:
        store.close()


def register(app: typer.Typer) -> None:
    """Add ``play`` and ``history`` to the ``feltro`` command."""
    app.command("play")(play)
    app.command("history")(history)
