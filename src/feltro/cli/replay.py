"""``feltro replay``: replay PHH hand histories under RULES.md and print the results."""

from __future__ import annotations

import json
import os
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TextIO

import typer

from feltro.cli.language import LANG_HELP, resolve_language

if TYPE_CHECKING:
    from feltro.history.site_replay import Rules

# Typer shows this as the command's help; one string per paragraph, so Rich can wrap them.
_HELP = "\n\n".join((
    "Replay PHH hand histories strictly under the house rules (feltro rules shows them).",
    'One .phh file: prints one JSON object {"finishing_stacks": [...], "pots": [{"amount", '
    '"eligible", "winners", "shares"}, ...]}. Several files, a folder (its whole tree of .phh '
    "and .phhs files), or a .phhs file (many hands): one line per hand, PATH<TAB>JSON; a hand "
    "of a .phhs file is named PATH[TABLE].",
    "Players are PHH player numbers, 1-based: 1 is p1, the first player left of the button. "
    "finishing_stacks are in p1..pN order; pots come main pot first, and each share goes to the "
    'winner at the same place in winners. A history that stops before the hand ends adds '
    '"complete": false and gives the stacks after its last line, with no pots.',
    "Money: amounts such as 200.30 are read exactly and played in whole units of the smallest "
    'power of ten that makes every amount of the hand whole; "scale": 100 then says so, and '
    "every amount printed is in the history's own units, as a JSON number whose text is the "
    "exact decimal (a string if it needs more than 15 digits). An unknown (inf) stack, and the "
    "stack of a player who could win an undetermined pot, is null.",
    "The odd chip of a split pot is the smallest chip: --chip-unit when given, else the "
    "smallest coin of the history's currency (its ISO 4217 code, or its currency_symbol: $, "
    "euro and pound signs have cents), else the smallest power of ten the amounts need; "
    '"chip": 0.01 says which, and --summary counts the hands by chip.',
    "Unknown cards: a show of ???? is legal; a pot that depends on cards the history does not "
    'know has "winners": null and "shares": null and the hand says "undetermined": N, unless '
    'its winnings settle it ("settled_from": "winnings"). A courtesy show after everybody '
    "folded changes nothing.",
    "--rules casino plays the one site rule found in real data that the house rules lack: a "
    "negative blinds_or_straddles entry (a returning player's dead blind, as OnGame, PartyPoker "
    "and PokerStars write it) is dead money, into the pot but not a bet. Under the default "
    "house rules such a hand is refused, naming rule D3.",
    'A line the rules refuse, or a hand that cannot be read, makes that hand\'s JSON {"error": '
    '"B8: ...", "action": N}: the message starts with the rule id and N is the 0-based index of '
    "the line in actions (null when the problem is another field). The other hands and files "
    "go on, and the exit status is 1. Files may be compressed (.gz, .xz, .bz2).",
    "--summary replays a whole corpus and prints one JSON object instead: hands read, replayed, "
    "refused by rule, unfinished, undetermined pots, agreement with winnings and "
    "finishing_stacks, hands per second; --results FILE keeps the per-hand lines. Files run on "
    "all local cores (--workers), or on Ray with --ray ADDRESS ('local' starts Ray here); the "
    "results are the same on every backend.",
))


def replay_command(
    files: Annotated[list[Path], typer.Argument(
        help="PHH files (.phh, or .phhs with many hands) or folders of them.",
        show_default=False)],
    rules: Annotated[str, typer.Option(
        "--rules", help="house (RULES.md) or casino (adds dead blinds).")] = "house",
    summary: Annotated[bool, typer.Option(
        "--summary", help="Print one JSON summary of the whole corpus.")] = False,
    results: Annotated[Path | None, typer.Option(
        "--results", help="With --summary: write the per-hand lines to this file.",
        show_default=False)] = None,
    workers: Annotated[int | None, typer.Option(
        "--workers", min=1, help="Local processes (default: all cores for 8 files or more).",
        show_default=False)] = None,
    ray: Annotated[str | None, typer.Option(
        "--ray", help="Run on Ray: 'local' starts one here, else a cluster address ('auto', "
        "'HOST:PORT').", show_default=False, metavar="ADDRESS")] = None,
    lang: Annotated[str | None, typer.Option("--lang", help=LANG_HELP,
                                             show_default=False)] = None,
    chip_unit: Annotated[str | None, typer.Option(
        "--chip-unit", help="The smallest chip, in the histories' money (e.g. 0.01); default: "
        "their currency's smallest coin.", show_default=False, metavar="AMOUNT")] = None,
) -> None:
    from feltro.history import is_bulk
    from feltro.history.corpus import find_files
    from feltro.i18n import t

    language = resolve_language(lang)
    unit = _chip_unit(chip_unit, language)
    rule_set = _check_options(rules, ray, language)
    if summary:
        _check_readable(files, language)
    paths = find_files(files)
    if workers is None:
        workers = (os.cpu_count() or 1) if len(paths) >= 8 else 1
    single = len(files) == 1 and len(paths) == 1 and paths[0] == files[0] and not is_bulk(files[0])
    out = results.open("w", encoding="utf-8") if summary and results is not None else None
    try:
        tally, failed = _replay(paths, rules=rule_set, workers=workers, ray=ray, summary=summary,
                                single=single, out=out, chip_unit=unit,
                                label=t("cli.replay_progress", language))
    finally:
        if out is not None:
            out.close()
    if summary:
        data: dict[str, Any] = tally.to_dict()
        data["rules"] = rules
        data["backend"] = "ray" if ray is not None else (
            "processes" if workers > 1 and len(paths) > 1 else "serial")
        data["workers"] = workers if ray is None else None
        typer.echo(json.dumps(data, ensure_ascii=False))
    if failed:
        raise typer.Exit(code=1)


def _check_options(rules: str, ray: str | None, lang: str) -> Rules:
    """*rules* as a rule set; refuses an unknown one, or ``--ray`` without Ray installed."""
    from feltro.history.site_replay import RULE_SETS
    from feltro.i18n import t

    if rules not in RULE_SETS:
        raise typer.BadParameter(t("cli.replay_rules", lang, rules=rules),
                                 param_hint="--rules")
    if ray is not None:
        try:
            import ray as _ray  # noqa: F401
        except ImportError:
            typer.echo(t("cli.replay_no_ray", lang), err=True)
            raise typer.Exit(code=2) from None
    return rules


def _check_readable(files: list[Path], lang: str) -> None:
    """A corpus summary counts refusals by rule: a path that is not there is no refusal but a
    mistake in the command, said as one."""
    from feltro.cli.failure import CommandError
    from feltro.i18n import t

    for path in files:
        if not path.exists():
            raise CommandError(t("cli.error.not_found", lang, path=str(path)), exit_code=2)


def _replay(paths: list[Path], *, rules: Rules, workers: int, ray: str | None, summary: bool,
            single: bool, out: TextIO | None, chip_unit: Decimal | None,
            label: str) -> tuple[Any, bool]:
    """Replay *paths*: each hand's line printed (or written to *out* with *summary*); the
    tally of every report and whether any hand failed."""
    from feltro.history.corpus import Summary, run_files

    tally = Summary()
    failed = False
    with _Progress(summary, len(paths), label) as advance:
        for reports in run_files(paths, rules=rules,
                                 workers=workers,
                                 ray_address=None if ray is None else
                                 "" if ray == "local" else ray, chip_unit=chip_unit):
            tally.add(reports)
            advance()
            for report in reports:
                failed = failed or not report.ok
                if not summary:
                    typer.echo(report.json if single else f"{report.label}\t{report.json}")
                elif out is not None:
                    out.write(f"{report.label}\t{report.json}\n")
    return tally, failed


def _chip_unit(text: str | None, language: str) -> Decimal | None:
    """``--chip-unit`` as an exact amount, or ``None`` when not given."""
    if text is None:
        return None
    try:
        unit = Decimal(text.strip())
    except InvalidOperation:
        unit = Decimal(0)
    if not unit.is_finite() or unit <= 0:
        from feltro.i18n import t

        raise typer.BadParameter(t("cli.replay_chip_unit", language, value=text[:20]),
                                 param_hint="--chip-unit")
    return unit


class _Progress:
    """A Rich progress bar over files on standard error, when it is a terminal."""

    def __init__(self, enabled: bool, total: int, label: str) -> None:
        self.enabled = enabled
        self.total = total
        self.label = label
        self.bar: Any = None

    def __enter__(self) -> Any:
        from rich.console import Console

        console = Console(stderr=True)
        if not (self.enabled and console.is_terminal):
            return lambda: None
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

        self.bar = Progress(self.label, BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                            console=console, transient=True)
        self.bar.__enter__()
        task = self.bar.add_task("replay", total=self.total)
        return lambda: self.bar.advance(task)

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.__exit__(*exc)


replay_command.__doc__ = _HELP


def register(app: typer.Typer) -> None:
    """Add ``replay`` to the command line."""
    app.command("replay")(replay_command)
