"""``feltro join URL``: play a seat of a ``feltro serve`` table from this terminal.

URL is the join link or the QR code's text (``http(s)://host:port/join/<table>``); the client
speaks the phones' websocket protocol (``ws://`` or ``wss://``, derived from the link). The seat
token is kept in the user's data folder, so the same command later comes back to the same seat.
Without URL, the tables that ``feltro serve --lan`` servers announce nearby are listed.
"""

from __future__ import annotations

import getpass
from typing import Annotated

import typer

from feltro.cli.invoked import feltro_command, install_command
from feltro.cli.language import LANG_HELP, resolve_language

__all__ = ["join", "register"]


def _default_name() -> str:
    try:
        user = getpass.getuser()
    except (OSError, KeyError):
        user = ""
    cleaned = "".join(ch for ch in user if ch.isprintable()).strip()[:24]
    return cleaned.capitalize() or "Player"


def join(
    url: Annotated[str | None, typer.Argument(
        help="The join link or QR text the host shows (http(s)://host:port/join/TABLE). "
        "Without it: the tables announced on this network.", show_default=False)] = None,
    name: Annotated[str | None, typer.Option(
        help="Your name at the table (default: your user name). Not needed to come back to a "
        "seat you already have.")] = None,
    lang: Annotated[str | None, typer.Option(help=LANG_HELP)] = None,
    seconds: Annotated[float, typer.Option(
        "--look", min=0.5, max=30, help="Seconds to look for tables on the network (without "
        "URL).")] = 3.0,
) -> None:
    """Play a seat of a feltro serve table from this terminal (over the internet too)."""
    language = resolve_language(lang)
    from feltro.i18n import t

    try:  # the client needs websockets (server extra) and Textual (tui extra)
        import textual  # noqa: F401
        import websockets  # noqa: F401
    except ImportError as exc:
        typer.echo(t("join.needs_extra", language, extra="server,tui", module=exc.name or "?",
                     install=install_command("server,tui")), err=True)
        raise typer.Exit(1) from None
    from feltro.remote.link import LinkError, parse_link

    if url is None:
        from feltro.remote.lan import pick_table

        url = pick_table(language, seconds, feltro=feltro_command(),
                         install=install_command("server"))
        if url is None:
            raise typer.Exit(1)
    try:
        link = parse_link(url)
    except LinkError as exc:
        raise typer.BadParameter(t(exc.key, language, **exc.params), param_hint="URL") from None
    if name is not None:
        from feltro.server.protocol import clean_name

        try:
            name = clean_name(name)[:24]
        except ValueError as exc:
            raise typer.BadParameter(str(exc), param_hint="--name") from None
    raise typer.Exit(_play(link, name or _default_name(), language))


def _play(link: object, name: str, lang: str) -> int:
    from feltro.cli.failure import CommandError
    from feltro.i18n import t
    from feltro.remote.app import JoinApp
    from feltro.remote.client import Phase, RemoteSeat, first_contact
    from feltro.remote.link import JoinLink
    from feltro.remote.seats import default_seat_book
    from feltro.remote.words import problem_text

    assert isinstance(link, JoinLink)
    problem = first_contact(link)  # what no retry fixes is one line, before any screen
    if problem is not None:
        raise CommandError(problem_text(problem, lang).plain)
    seat = RemoteSeat(link, name, lang, book=default_seat_book())
    app = JoinApp(seat, lang, feltro=feltro_command())
    app.run()
    state = seat.state
    if seat.phase == Phase.OVER and state is not None:
        names = ", ".join(str(n) for n in (state["table"].get("outcome") or {}).get("names", []))
        typer.echo(t("join.over", lang, names=names))
        return 0
    if seat.phase in (Phase.REFUSED, Phase.ENDED) and seat.problem is not None:
        typer.echo(t("join.gave_up", lang, reason=problem_text(seat.problem, lang).plain),
                   err=True)
        return 1
    if seat.token is not None:
        shown = link.http_base + "join/" + link.table_id
        typer.echo(t("join.left", lang, link=shown, feltro=feltro_command()))
    return 0


def register(app: typer.Typer) -> None:
    """Add ``join`` to the ``feltro`` command."""
    app.command()(join)
