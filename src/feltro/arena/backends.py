"""Where the deals of a match are played: in this process, local processes, or Ray.

The deals are cut into chunks (:func:`chunks`); every backend plays the same chunks with
:func:`~feltro.arena.play_deals` and the rows are put back in deal order, so the numbers of a
match do not depend on the backend or the number of workers (only the time does).

``ray`` is optional (``pip install 'feltro[arena]'``). With an address the match runs on that
cluster, which must be able to import feltro and any ``module:Class`` bot; without one a local
Ray instance is started with *workers* CPUs.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

from feltro.arena import MatchConfig, play_deals
from feltro.errors import ConfigError

__all__ = ["chunks", "default_workers", "run_match"]

Progress = Callable[[int], None]
"""Called with the number of hands just finished."""


def default_workers() -> int:
    """All local cores."""
    return max(1, os.cpu_count() or 1)


def chunks(deals: int, workers: int) -> list[tuple[int, int]]:
    """``(first deal, count)`` pieces: about 8 per worker, at most 200 deals each."""
    size = max(1, min(200, -(-deals // (workers * 8))))
    return [(first, min(size, deals - first)) for first in range(0, deals, size)]


def run_match(match: MatchConfig, *, workers: int = 1, ray_address: str | None = None,
              use_ray: bool = False, progress: Progress | None = None) -> list[list[int]]:
    """Every deal's row of winnings, in deal order.

    :raises ConfigError: for a bad worker count, or when Ray is asked for and not installed.
    """
    if type(workers) is not int or workers < 1:
        raise ConfigError(f"workers must be a positive integer, not {workers!r}")
    pieces = chunks(match.deals, workers)
    if use_ray:
        return _run_ray(match, pieces, workers, ray_address, progress)
    if workers == 1:
        rows: list[list[int]] = []
        for first, count in pieces:
            rows += play_deals(match, first, count)
            if progress is not None:
                progress(count * match.per_deal)
        return rows
    return _run_processes(match, pieces, workers, progress)


def _run_processes(match: MatchConfig, pieces: list[tuple[int, int]], workers: int,
                   progress: Progress | None) -> list[list[int]]:
    results: dict[int, list[list[int]]] = {}
    with ProcessPoolExecutor(max_workers=workers) as pool:
        pending: dict[Future[list[list[int]]], int] = {
            pool.submit(play_deals, match, first, count): index
            for index, (first, count) in enumerate(pieces)}
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                index = pending.pop(future)
                results[index] = future.result()
                if progress is not None:
                    progress(pieces[index][1] * match.per_deal)
    return [row for index in range(len(pieces)) for row in results[index]]


def _run_ray(match: MatchConfig, pieces: list[tuple[int, int]], workers: int,
             address: str | None, progress: Progress | None) -> list[list[int]]:
    try:
        import ray
    except ImportError:
        raise ConfigError("--ray needs Ray: pip install 'feltro[arena]'") from None
    started = not ray.is_initialized()
    if started:
        options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                                   "configure_logging": False}
        if address:
            ray.init(address=address, **options)
        else:
            ray.init(num_cpus=workers, **options)
    try:
        remote = ray.remote(play_deals)
        refs = [remote.remote(match, first, count) for first, count in pieces]
        index_of = {ref: i for i, ref in enumerate(refs)}
        results: dict[int, list[list[int]]] = {}
        waiting = list(refs)
        while waiting:
            done, waiting = ray.wait(waiting, num_returns=1)
            for ref in done:
                index = index_of[ref]
                results[index] = ray.get(ref)
                if progress is not None:
                    progress(pieces[index][1] * match.per_deal)
        return [row for index in range(len(pieces)) for row in results[index]]
    finally:
        if started:
            ray.shutdown()

