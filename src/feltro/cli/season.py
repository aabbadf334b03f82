"""``feltro season``: a group's series added up across nights (``docs/seasons.md``).

Seasons live in the data folder's ``seasons/`` (:mod:`feltro.season.folder`), shared with
``feltro serve``. A series joins a season once it is over, added by the host: from here the
terminal game's series (``feltro season add NAME SERIES``, SERIES as ``feltro history`` lists
it), from a table's season page the server's. Every problem is one line in the chosen
language (``season.error.<reason>``), never a traceback.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from feltro.cli.apps import command_group
from feltro.cli.language import LANG_HELP, resolve_language

if TYPE_CHECKING:
    from feltro.season import Night, SeasonBook, SeasonError
    from feltro.tui.datadir import SeriesFolder

season_app = command_group(
    "season", "Seasons: a group's series added up across nights (points, wins, knock-outs).",
    no_args_is_help=False)


def seasons_folder() -> Path:
    """The machine's seasons folder (``<data>/seasons``)."""
    from feltro.paths import data_dir

    return data_dir() / "seasons"


def _fail(error: SeasonError, lang: str) -> typer.Exit:
    """Say *error* in *lang* on stderr; the exit to raise."""
    from feltro.i18n import t

    typer.echo(t(f"season.error.{error.reason}", lang, **error.params), err=True)
    return typer.Exit(1)


@contextmanager
def _reported(lang: str) -> Iterator[None]:
    """A :class:`~feltro.season.SeasonError` raised inside is said in *lang* (exit 1)."""
    from feltro.season import SeasonError

    try:
        yield
    except SeasonError as error:
        raise _fail(error, lang) from None


def _find(name: str, lang: str) -> Path:
    from feltro.season import find_season

    with _reported(lang):
        path = find_season(seasons_folder(), name)
    return path


@season_app.callback(invoke_without_command=True)
def seasons(ctx: typer.Context,
            lang: Annotated[str | None, typer.Option(help=LANG_HELP)] = None) -> None:
    """List the seasons (or run one of the commands below)."""
    if ctx.invoked_subcommand is not None:
        return
    from feltro.season import list_seasons
    from feltro.tui.seasonview import print_seasons

    folder = seasons_folder()
    print_seasons(list_seasons(folder), folder, resolve_language(lang))


@season_app.command("new")
def new(
    name: Annotated[str, typer.Argument(help="The season's name, e.g. \"Fridays 2026\".")],
    players: Annotated[str, typer.Option(
        help="The group: NAME,NAME,... (matched by name in each series, as seats are).")],
    points: Annotated[str | None, typer.Option(
        help="Points per place: 1st,2nd,... (default 10,7,5,3,2,1; later places score 0).")]
    = None,
    lang: Annotated[str | None, typer.Option(help=LANG_HELP)] = None,
) -> None:
    """Start a season for a group of players."""
    from feltro.i18n import t
    from feltro.season import DEFAULT_POINTS, Season, new_season, parse_points

    language = resolve_language(lang)
    with _reported(language):
        table = DEFAULT_POINTS if points is None else parse_points(points)
        group = tuple(p.strip() for p in players.split(",") if p.strip())
        book = new_season(seasons_folder(), Season(name, group, table))
    typer.echo(t("season.created", language, name=book.season.name,
                 players=", ".join(book.season.players)))


@season_app.command("show")
def show(
    name: Annotated[str, typer.Argument(help="The season.")],
    csv: Annotated[str | None, typer.Option(
        "--csv", help="Also write the standings as CSV to this file (- for the screen).")]
    = None,
    lang: Annotated[str | None, typer.Option(help=LANG_HELP)] = None,
) -> None:
    """The standings, a chart of the points and the series of a season."""
    from feltro.season import read_season
    from feltro.tui.seasonview import print_season

    language = resolve_language(lang)
    with _reported(language):
        book = read_season(_find(name, language))
    if csv is None:
        print_season(book, language)
    else:
        _write_csv(book, csv, language)


def _write_csv(book: SeasonBook, target: str, lang: str) -> None:
    from feltro.i18n import t
    from feltro.season import SeasonError, season_csv

    text = season_csv(book, lambda key: t(f"season.column.{key}", lang))
    if target == "-":
        typer.echo(text, nl=False)
        return
    path = Path(target).expanduser()
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        problem = exc.strerror or type(exc).__name__
        raise _fail(SeasonError("csv-path", f"{path}: {problem}", path=str(path),
                                problem=problem), lang) from None
    typer.echo(t("season.csv_written", lang, path=str(path)))


@season_app.command("add")
def add(
    name: Annotated[str, typer.Argument(help="The season.")],
    series: Annotated[list[str], typer.Argument(
        help="Finished series of the terminal game: their ids, or numbers as feltro history "
             "lists them (1 = the newest).")],
    lang: Annotated[str | None, typer.Option(help=LANG_HELP)] = None,
) -> None:
    """Add finished series of the terminal game (a server's tables join on the season's page)."""
    from feltro.i18n import t
    from feltro.season import add_night

    language = resolve_language(lang)
    path = _find(name, language)
    for key in series:
        with _reported(language):
            night = terminal_night(_series_folder(key), key)
            book = add_night(path, night)
        typer.echo(t("season.added", language, series=night.label, name=book.season.name))


def _series_folder(key: str) -> SeriesFolder:
    from feltro.season import SeasonError
    from feltro.tui.datadir import data_dir, find_series

    folder = find_series(data_dir(), key)
    if folder is None:
        raise SeasonError("no-series", f"no series {key!r}", series=key)
    return folder


def terminal_night(folder: SeriesFolder, key: str) -> Night:
    """The night of the terminal game's series in *folder* (*key*: how the user named it).

    :raises SeasonError: ``series-in-play``, ``series-unreadable`` or ``not-over``.
    """
    from feltro.errors import StoreError
    from feltro.filelock import FileLock
    from feltro.season import SeasonError, night_of
    from feltro.series_log import SeriesStore

    try:  # the series log's one-writer lock: held while a game is playing it
        FileLock(folder.log.with_name(folder.log.name + ".lock"), str).release()
    except StoreError as exc:
        raise SeasonError("series-in-play", str(exc), series=key) from None
    try:
        players, _lang = folder.read_players()
        store = SeriesStore.open(folder.log)
    except StoreError as exc:
        raise SeasonError("series-unreadable", str(exc), series=key) from None
    try:
        bots = {p.seat for p in players if p.is_bot}
        return night_of(store.series, key=f"terminal:{folder.id}", label=folder.id,
                        date=_date_of(folder), bots=bots)
    finally:
        store.close()


def _date_of(folder: SeriesFolder) -> str:
    """When a terminal series was played: from its id (``20260109-213005``, local time)."""
    import datetime as dt

    match = re.match(r"(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})", folder.id)
    if match:
        year, month, day, hour, minute, second = match.groups()
        return f"{year}-{month}-{day}T{hour}:{minute}:{second}"
    stamp = folder.log.stat().st_mtime
    return dt.datetime.fromtimestamp(stamp).isoformat(timespec="seconds")


@season_app.command("remove")
def remove(
    name: Annotated[str, typer.Argument(help="The season.")],
    series: Annotated[str, typer.Argument(
        help="A series of the season: its number in feltro season show, or its id.")],
    lang: Annotated[str | None, typer.Option(help=LANG_HELP)] = None,
) -> None:
    """Take a series out of a season."""
    from feltro.i18n import t
    from feltro.season import SeasonError, read_season, remove_night

    language = resolve_language(lang)
    path = _find(name, language)
    with _reported(language):
        book = read_season(path)
        nights = book.nights
        chosen = (nights[int(series) - 1] if series.isdigit() and 1 <= int(series) <= len(nights)
                  else next((n for n in nights if series in (n.key, n.label)), None))
        if chosen is None:
            raise SeasonError("no-night", f"{series} is not in the season", series=series,
                              season=book.season.name)
        book = remove_night(path, chosen.key)
    typer.echo(t("season.removed", language, series=chosen.label, name=book.season.name))


@season_app.command("player")
def player(
    name: Annotated[str, typer.Argument(help="The season.")],
    player_name: Annotated[str, typer.Argument(metavar="PLAYER", help="Who joins the group.")],
    lang: Annotated[str | None, typer.Option(help=LANG_HELP)] = None,
) -> None:
    """Add a player to a season's group (the series they already played count at once)."""
    from feltro.i18n import t
    from feltro.season import add_player

    language = resolve_language(lang)
    with _reported(language):
        book = add_player(_find(name, language), player_name)
    typer.echo(t("season.player_added", language, player=book.season.players[-1],
                 name=book.season.name))


@season_app.command("points")
def points_command(
    name: Annotated[str, typer.Argument(help="The season.")],
    points: Annotated[str, typer.Argument(help="Points per place: 1st,2nd,... e.g. 10,7,5,3")],
    lang: Annotated[str | None, typer.Option(help=LANG_HELP)] = None,
) -> None:
    """Change a season's points per place (every series is scored again)."""
    from feltro.i18n import t
    from feltro.season import set_points

    language = resolve_language(lang)
    with _reported(language):
        book = set_points(_find(name, language), points)
    typer.echo(t("season.points_set", language, name=book.season.name,
                 points=", ".join(map(str, book.season.points))))


def register(app: typer.Typer) -> None:
    """Add ``season`` (and its commands) to the ``feltro`` command."""
    app.add_typer(season_app, name="season")
