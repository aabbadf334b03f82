"""``feltro arena``: bots against bots, duplicate deals, bb/100 with 95% intervals."""

from __future__ import annotations

import csv
import json
import time
from pathlib import Path
from typing import Annotated

import typer

from feltro.cli.language import BOT_NAMES

_HELP = "\n\n".join((
    "Pit bots against each other and measure who is better (bb/100 with a 95% interval).",
    f"A BOT is a level ({BOT_NAMES}) or module:Class implementing "
    "the bot protocol of docs/bots.md. The bots sit at one table, one per position (2-10). "
    "By default every deal is replayed with the seats rotated (duplicate), so the cards' luck "
    "cancels; --hands is rounded up to whole rotations.",
    'Results for a seed are identical whatever --workers or --ray. --json writes {"hands": N, '
    '"bots": [{"name", "bb_per_100", "ci95": \\[low, high]}]}; --csv one line per bot; --chart '
    "an SVG of the cumulative winnings with the interval band.",
))


def arena(
    bots: Annotated[list[str], typer.Argument(help="Two to ten bots: levels or module:Class.",
                                              show_default=False)],
    hands: Annotated[int, typer.Option(min=1, help="Hands to play (at least).")] = 1200,
    seed: Annotated[int, typer.Option(help="Seed of the deals and the bots.")] = 1,
    workers: Annotated[int | None, typer.Option(
        min=1, help="Worker processes (default: all local cores).")] = None,
    ray: Annotated[str | None, typer.Option(
        "--ray", metavar="[ADDRESS]",
        help="Play on Ray: a new local instance (--ray alone, or --ray local), or the cluster "
             "at ADDRESS (auto: the one this machine is part of).")] = None,
    json_path: Annotated[Path | None, typer.Option("--json", help="Write the results as JSON.")]
    = None,
    csv_path: Annotated[Path | None, typer.Option("--csv", help="Write the results as CSV.")]
    = None,
    chart: Annotated[Path | None, typer.Option(help="Write an SVG chart of the winnings.")]
    = None,
    duplicate: Annotated[bool, typer.Option(
        help="Replay each deal with the seats rotated.")] = True,
    stack: Annotated[int, typer.Option(min=1, help="Stack at the start of every hand.")] = 200,
    small_blind: Annotated[int, typer.Option(min=1, help="Small blind.")] = 1,
    big_blind: Annotated[int, typer.Option(min=1, help="Big blind.")] = 2,
) -> None:
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )
    from rich.table import Table

    from feltro.arena import MatchConfig, load_bot, summarise
    from feltro.arena.backends import default_workers, run_match
    from feltro.arena.chart import svg_chart
    from feltro.errors import ConfigError

    console = Console(stderr=True)
    try:
        match = MatchConfig(bots=tuple(bots), hands=hands, seed=seed, stack=stack,
                            small_blind=small_blind, big_blind=big_blind, duplicate=duplicate)
        import random

        for spec in bots:  # a bad bot is reported before any work starts
            load_bot(spec, random.Random(0))
    except ConfigError as error:
        raise typer.BadParameter(str(error)) from None
    count = workers if workers is not None else default_workers()
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeRemainingColumn())
    began = time.perf_counter()
    # No refresh thread: the bar moves when a chunk of deals comes back, and worker processes
    # are then forked from a process with no other thread (see feltro.arena.backends).
    with Progress(*columns, console=console, transient=True, auto_refresh=False) as progress:
        task = progress.add_task("hands", total=match.deals * match.per_deal)
        progress.refresh()
        try:
            rows = run_match(match, workers=count, use_ray=ray is not None,
                             ray_address=None if ray in (None, "local") else ray,
                             progress=lambda done: progress.update(task, advance=done,
                                                                   refresh=True))
        except ConfigError as error:
            raise typer.BadParameter(str(error), param_hint="--ray") from None
    elapsed = time.perf_counter() - began
    summary = summarise(match, rows)
    table = Table(title=f"{summary.hands:,} hands, {'duplicate' if duplicate else 'plain'}, "
                        f"seed {seed} ({elapsed:.1f} s)")
    for column in ("Bot", "bb/100", "95% interval", "chips"):
        table.add_column(column, justify="left" if column == "Bot" else "right")
    for bot in summary.bots:
        table.add_row(bot.name, f"{bot.bb_per_100:+.2f}",
                      f"[{bot.ci95[0]:+.2f}, {bot.ci95[1]:+.2f}]", f"{bot.chips:+,}")
    Console().print(table)
    if json_path is not None:
        json_path.write_text(json.dumps(summary.to_dict(match), indent=2) + "\n",
                             encoding="utf-8")
    if csv_path is not None:
        with csv_path.open("w", newline="", encoding="utf-8") as handle:
            writer = csv.writer(handle)
            writer.writerow(["name", "spec", "hands", "bb_per_100", "ci95_low", "ci95_high",
                             "chips"])
            for bot in summary.bots:
                writer.writerow([bot.name, bot.spec, summary.hands, f"{bot.bb_per_100:.4f}",
                                 f"{bot.ci95[0]:.4f}", f"{bot.ci95[1]:.4f}", bot.chips])
    if chart is not None:
        chart.write_text(svg_chart(match.names, rows, match.big_blind, match.per_deal),
                         encoding="utf-8")


arena.__doc__ = _HELP


def register(app: typer.Typer) -> None:
    """Add ``feltro arena`` to *app*."""
    app.command()(arena)
