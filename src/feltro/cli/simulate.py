"""``feltro simulate``: a whole bots-only freezeout, with a progress bar and the standings.

``--log FILE.jsonl`` writes one JSON object per hand, then one final record::

    {"hand": 1, "button": 3, "small_blind": 4, "big_blind": 5,
     "stacks_before": {"1": 200, ...}, "stacks_after": {"1": 198, ...}}
    ...
    {"end": "last_player", "winners": [5], "stacks": {"1": 0, ..., "5": 1200, ...}}

Every seat of the table is in every ``stacks`` object ("1".."N"), with 0 once eliminated;
``small_blind`` is ``null`` when the small blind is dead (D8); heads-up it is the button (D6).
``end`` is ``"last_player"`` (freezeout over, G4) or ``"stopped"`` (``--stop-after-hands``, G6:
biggest stack wins, equal stacks are all winners).

``--db FILE`` keeps the durable SQLite log (:mod:`feltro.series_log`): run the same command again
after a crash and the series resumes where it stopped. Bots draw their choices from seeds derived
from the series seed, the hand number and the point in the hand, so a resumed simulation plays
exactly the hands an uninterrupted one would have played.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import IO, TYPE_CHECKING, Annotated, Any

import typer

from feltro.cli.language import BOT_NAMES, LANG_HELP, resolve_language
from feltro.i18n import t

if TYPE_CHECKING:
    from rich.console import Console

    from feltro.bots import Bot
    from feltro.fairdeal import FairDealer
    from feltro.series import HandSummary, Outcome, Series
    from feltro.series_log import SeriesStore

_MIX = ("tight", "random", "station")


def hand_line(summary: HandSummary, seats: tuple[int, ...]) -> dict[str, Any]:
    """The ``--log`` record of one hand; *seats* are all the table's players' seats."""
    seating = summary.seating
    return {
        "hand": summary.number,
        "button": seating.button,
        "small_blind": seating.small_blind,
        "big_blind": seating.big_blind,
        "stacks_before": {str(s): summary.stacks_before.get(s, 0) for s in seats},
        "stacks_after": {str(s): summary.stacks_after.get(s, 0) for s in seats},
    }


def end_line(outcome: Outcome, seats: tuple[int, ...]) -> dict[str, Any]:
    """The final ``--log`` record."""
    return {
        "end": outcome.end.value,
        "winners": list(outcome.winners),
        "stacks": {str(s): outcome.stacks.get(s, 0) for s in seats},
    }


def bot_kinds(choice: str, seats: tuple[int, ...], lang: str = "en") -> dict[int, str]:
    """Which bot plays each seat: one kind for all, or ``mix`` (tight, random, station...).

    :raises ValueError: for an unknown *choice*.
    """
    from feltro.bots import BOT_KINDS

    if choice == "mix":
        return {seat: _MIX[i % len(_MIX)] for i, seat in enumerate(seats)}
    if choice not in BOT_KINDS:
        raise ValueError(t("cli.error.unknown_bot", lang, name=choice,
                           names="mix, " + BOT_NAMES))
    return dict.fromkeys(seats, choice)


def play_bots(
    driver: Series | SeriesStore,
    kinds: Mapping[int, str],
    *,
    on_hand: Callable[[HandSummary], None] | None = None,
) -> Outcome:
    """Play the series of *driver* to its end with built-in bots of *kinds* (seat -> kind).

    *on_hand* is called with every finished hand in order, including those a resumed series
    had already played.

    Before each decision the deciding bot's RNG is reseeded from the series seed, the hand
    number and the number of events so far, so that the decisions do not depend on whether
    the series was interrupted and resumed.
    """
    from feltro.bots import checked_action, make_bot
    from feltro.series import Series, derive_seed

    series = driver if isinstance(driver, Series) else driver.series
    rngs = {seat: random.Random() for seat in kinds}
    bots: dict[int, Bot] = {seat: make_bot(kind, rngs[seat]) for seat, kind in kinds.items()}
    base = derive_seed(series.series_seed, "bots")
    reported = 0  # a resumed series reports the hands it replayed too
    while True:
        hand = series.hand
        if hand is None or hand.is_over:
            hand = driver.next_hand()
        if on_hand is not None:
            for summary in series.summaries[reported:]:
                on_hand(summary)
            reported = len(series.summaries)
        if hand is None:
            break
        seating = series.seating
        assert seating is not None
        while not hand.is_over:
            position = hand.to_act
            assert position is not None
            seat = seating.order[position]
            rngs[seat].seed(base ^ derive_seed(series.hand_number, str(len(hand.events))))
            view = hand.view(position)
            legal = hand.legal
            action, _ = checked_action(bots[seat], view, legal)
            driver.act(action, seat)
    assert series.outcome is not None
    return series.outcome


def simulate(
    *,
    players: Annotated[int, typer.Option(min=2, max=10, help="Players (2-10), in seats 1..N.")]
    = 6,
    seed: Annotated[int | None, typer.Option(
        help="Seed for the button draw, the deals and the bots (default: random, printed).")]
    = None,
    stop_after_hands: Annotated[int | None, typer.Option(
        min=1, help="Stop after this many hands (G6: the biggest stack wins).")] = None,
    log: Annotated[Path | None, typer.Option(
        help="Write one JSON line per hand and a final line to this file.")] = None,
    bots: Annotated[str, typer.Option(
        help=f"Bots: mix (tight, random, station in turn), or one for all: {BOT_NAMES}.")]
    = "mix",
    db: Annotated[Path | None, typer.Option(
        help="Durable SQLite log; if the file exists the series resumes from it.")] = None,
    stack: Annotated[int, typer.Option(min=1, help="Starting stack (G2).")] = 200,
    small_blind: Annotated[int, typer.Option(min=1, help="Small blind (G2).")] = 1,
    big_blind: Annotated[int, typer.Option(min=1, help="Big blind (G2).")] = 2,
    ante: Annotated[int, typer.Option(min=0, help="Ante (B11).")] = 0,
    fair: Annotated[Path | None, typer.Option(
        help="Deal by the verifiable shuffle (docs/fairness.md) and write the night's export "
             "here, for feltro verify. The secrets and the seats' contributions come from "
             "the seed (a simulation has no devices). Not with --db.")] = None,
    lang: Annotated[str | None, typer.Option(help=LANG_HELP)] = None,
) -> None:
    """Play a whole bots-only freezeout (or until --stop-after-hands) and show the standings."""
    from rich.console import Console

    from feltro.errors import FeltroError

    language = resolve_language(lang)
    console = Console()
    if fair is not None and db is not None:
        raise typer.BadParameter("the durable log does not keep the fairness secrets yet; "
                                 "use --fair without --db", param_hint="--fair")
    if fair is not None:  # a path that cannot be written is said before the night is played
        try:
            fair.touch()
        except OSError as exc:
            raise typer.BadParameter(t("cli.error.cannot_write", language, path=str(fair),
                                       reason=exc.strerror or str(exc)),
                                     param_hint="--fair") from None
    try:
        series, store, chosen_seed, dealer = _open(players, seed, stop_after_hands, db, stack,
                                                   small_blind, big_blind, ante, console,
                                                   language, fair=fair is not None)
    except FeltroError as error:
        raise typer.BadParameter(str(error)) from None
    try:
        seats = tuple(series.config.players)
        try:
            kinds = bot_kinds(bots, seats, language)
        except ValueError as error:
            raise typer.BadParameter(str(error), param_hint="--bots") from None
        if store is not None:
            kinds = _bots_of_the_log(store, kinds)
        if chosen_seed is not None:
            console.print(t("simulate.seed", language, seed=chosen_seed))
        with _jsonl(log, language) as sink:
            outcome = _run(store or series, series, kinds, seats, sink, console, language)
        _print_summary(series, kinds, outcome, console, language)
        if fair is not None and dealer is not None:
            _write_fair(series, dealer, fair, console)
    finally:
        if store is not None:
            store.close()


def _open(players: int, seed: int | None, stop_after_hands: int | None, db: Path | None,
          stack: int, small_blind: int, big_blind: int, ante: int,
          console: Console, lang: str, *, fair: bool = False,
          ) -> tuple[Series, SeriesStore | None, int | None, FairDealer | None]:
    """The series to play (new, or resumed from *db*), its store if any, the seed to print
    when it was chosen here, and the fair dealer with *fair*."""
    from feltro.series import Series, SeriesConfig
    from feltro.series_log import SeriesStore

    if db is not None and db.exists():
        store = SeriesStore.open(db)
        console.print(t("simulate.resuming", lang, path=str(db),
                        hand=store.series.hand_number))
        return store.series, store, None, None
    config = SeriesConfig.with_players(
        players, starting_stack=stack, small_blind=small_blind, big_blind=big_blind,
        ante=ante, max_hands=stop_after_hands)
    chosen = seed if seed is not None else random.SystemRandom().getrandbits(32)
    shown = None if seed is not None else chosen
    rng = random.Random(chosen)
    if db is not None:
        store = SeriesStore.create(db, config, rng)
        return store.series, store, shown, None
    if fair:
        from feltro.fairdeal import FairDealer, stand_in_deck_source

        series_seed = rng.getrandbits(128)  # as Series.start draws it
        chance = random.Random(f"fair {series_seed}")
        dealer = FairDealer(f"simulate {series_seed}", secret_source=chance.randbytes)
        made: list[Series] = []  # the stand-ins contribute for the seats still dealt in
        source = stand_in_deck_source(dealer, lambda: made[0].alive, chance.randbytes)
        made.append(Series(config, series_seed, deck_source=source))
        return made[0], None, shown, dealer
    return Series.start(config, rng), None, shown, None


def _write_fair(series: Series, dealer: FairDealer, path: Path, console: Console) -> None:
    """Record the dealt cards and write the night's export to *path*."""
    for summary in series.summaries:
        dealer.record(summary.number, summary.hand, summary.seating)
    export = dealer.export()
    try:
        path.write_text(json.dumps(export, indent=1) + "\n", encoding="utf-8")
    except OSError as exc:
        console.print(f"cannot write the fairness export to {path}: {exc.strerror or exc}")
        raise typer.Exit(code=1) from None
    console.print(f"fairness export: {path} (fingerprint of the night "
                  f"{export['fingerprint']}); check it with `feltro verify {path}`")


_BOTS_NOTE = "simulate bots"


def _bots_of_the_log(store: SeriesStore, kinds: dict[int, str]) -> dict[int, str]:
    """The bots a logged simulation was started with (so a resumed run plays on the same way);
    a new log records *kinds*."""
    for note in store.notes:
        if note.body["label"] == _BOTS_NOTE:
            return {int(seat): str(kind) for seat, kind in note.body["data"].items()}
    store.note(_BOTS_NOTE, {str(seat): kind for seat, kind in kinds.items()})
    return kinds


class _jsonl:  # noqa: N801 - used as a context manager, reads like a function
    """Open the ``--log`` file (or nothing) for the duration of the run."""

    def __init__(self, path: Path | None, lang: str = "en") -> None:
        self.path = path
        self.lang = lang
        self.handle: IO[str] | None = None

    def __enter__(self) -> IO[str] | None:
        if self.path is not None:
            try:
                self.handle = self.path.open("w", encoding="utf-8")
            except OSError as exc:
                reason = exc.strerror or str(exc)
                raise typer.BadParameter(t("cli.error.cannot_write", self.lang,
                                           path=str(self.path), reason=reason),
                                         param_hint="--log") from None
        return self.handle

    def __exit__(self, *exc: object) -> None:
        if self.handle is not None:
            self.handle.close()


def _run(driver: Series | SeriesStore, series: Series, kinds: Mapping[int, str],
         seats: tuple[int, ...], sink: IO[str] | None, console: Console,
         lang: str = "en") -> Outcome:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    limit = series.config.max_hands
    total = limit if limit is not None else len(seats) - 1
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn())
    with Progress(*columns, console=console, transient=True) as progress:
        label = t("simulate.hands" if limit is not None else "simulate.players_out", lang)
        task = progress.add_task(label, total=total)

        def on_hand(summary: HandSummary) -> None:
            if sink is not None:
                sink.write(json.dumps(hand_line(summary, seats)) + "\n")
            done = summary.number if limit is not None else len(seats) - len(series.alive)
            progress.update(task, completed=done,
                            description=t("simulate.progress", lang, hand=summary.number,
                                          left=len(series.alive)))

        outcome = play_bots(driver, kinds, on_hand=on_hand)
    if sink is not None:
        sink.write(json.dumps(end_line(outcome, seats)) + "\n")
    return outcome


def _print_summary(series: Series, kinds: Mapping[int, str], outcome: Outcome,
                   console: Console, lang: str = "en") -> None:
    from rich.table import Table

    title = ("simulate.over_last_player" if outcome.end.value == "last_player"
             else "simulate.over_stopped")
    table = Table(title=t(title, lang, hands=outcome.hands))
    for column, justify in (("place", "right"), ("seat", "right"), ("bot", "left"),
                            ("chips", "right"), ("out_in_hand", "right")):
        table.add_column(t(f"simulate.{column}", lang),
                         justify=justify)  # type: ignore[arg-type]
    for row in series.standings():
        out = "" if row.out_in_hand is None else str(row.out_in_hand)
        table.add_row(str(row.place), str(row.seat), kinds[row.seat], str(row.stack), out)
    console.print(table)
    names = ", ".join(t("simulate.seat_bot", lang, seat=seat, bot=kinds[seat])
                      for seat in outcome.winners)
    key = "simulate.winners" if len(outcome.winners) > 1 else "simulate.winner"
    console.print(f"[bold]{t(key, lang)}:[/bold] {names}")


def register(app: typer.Typer) -> None:
    """Add ``feltro simulate`` to *app*."""
    app.command()(simulate)
