"""Corpus jobs: replay every hand of many PHH files, one result per hand, and sum them up.

A file is the unit of work: :func:`replay_file` reads it (decompressing ``.gz``/``.xz``/
``.bz2``) and replays each of its hands on its own, so one bad hand (a negative blind, a zero
stack, ``min_bet = 0``, broken TOML in its table...) gives that hand an error and never stops
the others. :func:`run_files` maps it over the files in file order, in this process, on local
processes (:mod:`multiprocessing`) or on a Ray cluster; the results are the same whatever the
backend. :class:`Summary` counts them.
"""

from __future__ import annotations

import json
import lzma
import os
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

from feltro.errors import FeltroError
from feltro.history.decimal_scale import exact_number, read_tables, scale_hand
from feltro.history.replay import ReplayError
from feltro.history.site_replay import Rules, replay_site

__all__ = [
    "HandReport",
    "Summary",
    "find_files",
    "replay_file",
    "replay_text",
    "run_files",
]

_SUFFIXES = (".phh", ".phhs")
_COMPRESSED = (".gz", ".xz", ".bz2")


@dataclass(frozen=True, slots=True)
class HandReport:
    """The result of one hand: its label, its JSON line and what the summary counts.

    ``rule`` is the refused rule (``"fields"`` for a hand whose fields cannot be read or
    played, ``None`` when it replayed). ``winnings`` and ``finishing`` say whether the replay
    agrees with the history's ``winnings`` / ``finishing_stacks`` (``None``: nothing to
    compare).
    """

    label: str
    json: str
    ok: bool
    rule: str | None = None
    complete: bool = True
    undetermined: int = 0
    settled: bool = False
    winnings: bool | None = None
    finishing: bool | None = None
    chip: str | None = None
    """The smallest chip the hand was played with and where it comes from:
    ``"0.01 (currency_symbol $)"``, ``"1 (amounts)"`` (``None``: the hand could not be read)."""


def _dumps(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False)


def _error(label: str, message: str, action: int | None, rule: str | None) -> HandReport:
    return HandReport(label, _dumps({"error": message, "action": action}), False,
                      rule=rule or "fields")


def replay_text(text: str, label: str, *, bulk: bool, rules: Rules = "house",
                chip_unit: Decimal | None = None) -> list[HandReport]:
    """Replay every hand of *text*; hands of a bulk (``.phhs``) text are labelled
    ``LABEL[TABLE]``, a single hand *label*. *chip_unit*: the smallest chip, in the histories'
    money (default: their currency's smallest coin, see
    :func:`~feltro.history.decimal_scale.scale_hand`)."""
    try:
        tables = read_tables(text)
    except FeltroError as exc:
        return [_error(label, f"cannot read {label}: {exc}", None, None)]
    reports: list[HandReport] = []
    for name, table in tables:
        hand_label = f"{label}[{name}]" if bulk and name else label
        reports.append(replay_table(table, hand_label, rules, chip_unit))
    return reports


def replay_table(table: Any, label: str, rules: Rules,
                 chip_unit: Decimal | None = None) -> HandReport:
    """Replay one hand's TOML table (see :func:`replay_text`)."""
    try:
        scaled = scale_hand(table, chip_unit)
        outcome = replay_site(scaled, rules=rules)
    except ReplayError as exc:
        return _error(label, str(exc), exc.action, exc.rule)
    except FeltroError as exc:
        return _error(label, str(exc), None, None)
    return HandReport(label, _dumps(outcome.to_dict()), True, complete=outcome.complete,
                      undetermined=outcome.undetermined,
                      settled=outcome.settled_from_winnings,
                      winnings=outcome.agrees_with_winnings(),
                      finishing=outcome.agrees_with_finishing_stacks(),
                      chip=f"{exact_number(scaled.chip_unit)} ({scaled.chip_source})")


def replay_file(path: str | Path, rules: Rules = "house",
                chip_unit: Decimal | None = None) -> list[HandReport]:
    """Replay every hand of the file *path*; a file that cannot be read gives one error."""
    from feltro.history import is_bulk, read_text

    path = Path(path)
    try:
        text = read_text(path)
    except (lzma.LZMAError, EOFError) as exc:  # (gzip's and bz2's bad data are OSErrors)
        return [_error(str(path), f"cannot read {path}: damaged compressed data ({exc})",
                       None, None)]
    except OSError as exc:
        return [_error(str(path), f"cannot read {path}: {exc.strerror or exc}", None, None)]
    except FeltroError as exc:  # read_text's own error already names the file
        return [_error(str(path), f"cannot read {exc}", None, None)]
    return replay_text(text, str(path), bulk=is_bulk(path), rules=rules, chip_unit=chip_unit)


def _is_history(path: Path) -> bool:
    suffixes = path.suffixes
    if suffixes and suffixes[-1] in _COMPRESSED:
        suffixes = suffixes[:-1]
    return bool(suffixes) and suffixes[-1] in _SUFFIXES


def find_files(paths: Iterable[Path]) -> list[Path]:
    """*paths* with every folder replaced by the PHH files of its tree, in sorted order."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found.extend(sorted(p for p in path.rglob("*") if p.is_file() and _is_history(p)))
        else:
            found.append(path)
    return found


def _task(args: tuple[str, Rules, Decimal | None]) -> list[HandReport]:
    return replay_file(*args)


def run_files(
    files: Sequence[Path],
    *,
    rules: Rules = "house",
    workers: int | None = None,
    ray_address: str | None = None,
    chip_unit: Decimal | None = None,
) -> Iterator[list[HandReport]]:
    """The reports of each file of *files*, in order.

    *workers* local processes (default: all cores; ``1`` runs here), or Ray tasks when
    *ray_address* is given (``""`` starts a local Ray). Every backend gives the same reports.
    """
    jobs = [(str(f), rules, chip_unit) for f in files]
    if ray_address is not None:
        yield from _run_ray(jobs, ray_address)
        return
    count = workers or os.cpu_count() or 1
    if count <= 1 or len(jobs) <= 1:
        for job in jobs:
            yield _task(job)
        return
    import multiprocessing

    with multiprocessing.get_context("spawn").Pool(min(count, len(jobs))) as pool:
        yield from pool.imap(_task, jobs, chunksize=1)


def _run_ray(jobs: list[tuple[str, Rules, Decimal | None]],
             address: str) -> Iterator[list[HandReport]]:
    import ray

    ray.init(address=address or None, ignore_reinit_error=True, include_dashboard=False,
             log_to_driver=False, logging_level=40)
    try:
        task = ray.remote(_task)
        pending = [task.remote(job) for job in jobs]
        for ref in pending:
            yield ray.get(ref)
    finally:
        ray.shutdown()


@dataclass
class Summary:
    """What a corpus job found (``to_dict`` is the ``--summary`` JSON)."""

    files: int = 0
    hands: int = 0
    replayed: int = 0
    incomplete: int = 0
    refused: Counter[str] = field(default_factory=Counter)
    undetermined_pots: int = 0
    hands_undetermined: int = 0
    settled_from_winnings: int = 0
    winnings_compared: int = 0
    winnings_agree: int = 0
    finishing_compared: int = 0
    finishing_agree: int = 0
    chips: Counter[str] = field(default_factory=Counter)
    disagreements: list[str] = field(default_factory=list)
    started: float = field(default_factory=time.perf_counter)
    seconds: float = 0.0

    def add(self, reports: Iterable[HandReport]) -> None:
        """Count the reports of one file."""
        self.files += 1
        for report in reports:
            self.hands += 1
            if not report.ok:
                self.refused[report.rule or "fields"] += 1
                continue
            self.replayed += 1
            self.chips[report.chip or "?"] += 1
            self.incomplete += not report.complete
            self.undetermined_pots += report.undetermined
            self.hands_undetermined += report.undetermined > 0
            self.settled_from_winnings += report.settled
            for kind, value in (("winnings", report.winnings),
                                ("finishing", report.finishing)):
                if value is None:
                    continue
                setattr(self, f"{kind}_compared", getattr(self, f"{kind}_compared") + 1)
                if value:
                    setattr(self, f"{kind}_agree", getattr(self, f"{kind}_agree") + 1)
                elif len(self.disagreements) < 20:
                    self.disagreements.append(f"{report.label}: {kind}")
        self.seconds = time.perf_counter() - self.started

    def to_dict(self, *, timing: bool = True) -> dict[str, Any]:
        """The counts; *timing* adds ``seconds`` and ``hands_per_second``."""
        data: dict[str, Any] = {
            "files": self.files,
            "hands_read": self.hands,
            "replayed": self.replayed,
            "incomplete": self.incomplete,
            "refused": sum(self.refused.values()),
            "refused_by_rule": dict(sorted(self.refused.items())),
            "undetermined_pots": self.undetermined_pots,
            "hands_with_undetermined_pots": self.hands_undetermined,
            "settled_from_winnings": self.settled_from_winnings,
            "winnings": {"compared": self.winnings_compared, "agree": self.winnings_agree},
            "finishing_stacks": {"compared": self.finishing_compared,
                                 "agree": self.finishing_agree},
            "chip": dict(sorted(self.chips.items())),
            "disagreements": list(self.disagreements),
        }
        if timing:
            data["seconds"] = round(self.seconds, 3)
            data["hands_per_second"] = round(self.hands / self.seconds) if self.seconds else None
        return data


ProgressCallback = Callable[[int, int], None]
