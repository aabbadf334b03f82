"""Where the deals of a match are played: in this process, local processes, or Ray.

The deals are cut into chunks (:func:`chunks`: tens to hundreds of deals each, so the cost of
sending a task is tiny beside the hands it plays; smaller towards the end of the match, so the
workers finish together). Every backend plays the same chunks with
:func:`~feltro.arena.play_chunk`, which sends back one flat array of integers per chunk, and
the chunks are put back in deal order. Each deal is seeded from the match seed
and its number alone, so the numbers of a match do not depend on the backend, the number of
workers or the cut (only the time does).

Local processes form one pool for the match; each worker receives the match once, when it
starts, and then only ``(first deal, count)`` pairs. The workers are forked from this process
when it runs no other thread (nothing to import, nothing to send but the match), else from a
server process that has imported feltro (``forkserver``), or spawned where neither exists.

``ray`` is optional (``pip install 'feltro[arena]'``). With an address the match runs on that
cluster, which must be able to import feltro and any ``module:Class`` bot; without one a local
Ray instance is started with *workers* CPUs. :func:`start_ray` connects (or starts) once and
warms every worker; :func:`run_match` then reuses it, so a program that plays many matches, or
a benchmark that times the match apart from Ray's start-up, calls it first.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import threading
from array import array
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from multiprocessing.context import BaseContext
from typing import Any

from feltro.arena import MatchConfig, play_chunk
from feltro.errors import ConfigError

__all__ = ["chunks", "default_workers", "run_match", "start_ray", "stop_ray"]

Progress = Callable[[int], None]
"""Called with the number of hands just finished."""

Piece = tuple[int, int]
"""``(first deal, count)``."""

SHARE = 4
"""A piece is at most 1/SHARE of what remains per worker, so pieces shrink as the match
ends: the first ones are big (little overhead), the last ones small (the workers finish
together instead of waiting for one that drew a big piece last)."""
MIN_CHUNK = 16
"""Deals: at least tens of milliseconds of play per task, whatever the number of workers."""
MAX_CHUNK = 250
"""Deals: the progress bar still moves on long matches."""


def default_workers() -> int:
    """All the cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - macOS and Windows have no affinity call
        return max(1, os.cpu_count() or 1)


def chunks(deals: int, workers: int) -> list[Piece]:
    """``(first deal, count)`` pieces covering every deal once, in order, of decreasing size:
    each 1/:data:`SHARE` of the deals left per worker, between :data:`MIN_CHUNK` and
    :data:`MAX_CHUNK` deals (the last may be shorter).

    Any cut gives the same numbers; this one only decides how fast a match is played.
    """
    pieces = []
    first = 0
    while first < deals:
        left = deals - first
        size = min(left, MAX_CHUNK, max(MIN_CHUNK, -(-left // (workers * SHARE))))
        pieces.append((first, size))
        first += size
    return pieces


def run_match(match: MatchConfig, *, workers: int = 1, ray_address: str | None = None,
              use_ray: bool = False, progress: Progress | None = None) -> list[list[int]]:
    """Every deal's row of winnings, in deal order.

    *workers* processes play the match (1: in this process), or, with *use_ray*, Ray tasks on
    the instance :func:`start_ray` connected to (else on a new one, with *workers* CPUs or at
    *ray_address*, shut down at the end), cut for as many CPUs as the instance has.

    :raises ConfigError: for a bad worker count, or when Ray is asked for and not installed.
    """
    if type(workers) is not int or workers < 1:
        raise ConfigError(f"workers must be a positive integer, not {workers!r}")
    if use_ray:
        started = start_ray(workers, ray_address, warm=False)  # its workers start with the match
        try:
            flats = _run_ray(match, chunks(match.deals, _ray_cpus(workers)), progress)
        finally:
            if started:
                stop_ray()
        return _rows(match, flats)
    pieces = chunks(match.deals, workers)
    if workers == 1 or len(pieces) == 1:
        flats = []
        for first, count in pieces:
            flats.append(play_chunk(match, first, count))
            _advance(progress, match, count)
    else:
        flats = _run_processes(match, pieces, workers, progress)
    return _rows(match, flats)


def _rows(match: MatchConfig, flats: Sequence[array[int]]) -> list[list[int]]:
    k = len(match.bots)
    return [flat[i:i + k].tolist() for flat in flats for i in range(0, len(flat), k)]


def _advance(progress: Progress | None, match: MatchConfig, deals: int) -> None:
    if progress is not None:
        progress(deals * match.per_deal)


# --- local processes ------------------------------------------------------------------------

_WORKER_MATCH: MatchConfig | None = None
"""The match of this worker process (set once, when the worker starts)."""


def _set_match(match: MatchConfig) -> None:
    global _WORKER_MATCH
    _WORKER_MATCH = match


def _play_piece(first: int, count: int) -> array[int]:
    assert _WORKER_MATCH is not None, "a worker without a match"
    return play_chunk(_WORKER_MATCH, first, count)


def _context() -> BaseContext:
    """``fork`` where it is safe (POSIX but macOS, and no other thread in this process that a
    child could inherit mid-way through a lock); else ``forkserver`` from a server that has
    imported feltro; else ``spawn``."""
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and sys.platform != "darwin" and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    if "forkserver" in methods:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload([__name__])
        return context
    return multiprocessing.get_context("spawn")  # pragma: no cover - Windows


def _run_processes(match: MatchConfig, pieces: Sequence[Piece], workers: int,
                   progress: Progress | None) -> list[array[int]]:
    pool = ProcessPoolExecutor(max_workers=min(workers, len(pieces)), mp_context=_context(),
                               initializer=_set_match, initargs=(match,))
    try:
        futures = [pool.submit(_play_piece, first, count) for first, count in pieces]
        flats = []
        for (_, count), future in zip(pieces, futures, strict=True):
            flats.append(future.result())
            _advance(progress, match, count)
        return flats
    finally:
        pool.shutdown(cancel_futures=True)


# --- Ray ------------------------------------------------------------------------------------

_RAY_TASKS: dict[str, Any] = {}
"""The remote functions, made once per process."""


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise ConfigError("--ray needs Ray: pip install 'feltro[arena]'") from None
    if not _RAY_TASKS:
        _RAY_TASKS["play"] = ray.remote(num_cpus=1)(play_chunk)
        _RAY_TASKS["warm"] = ray.remote(num_cpus=1)(_warm)
    return ray


def _warm() -> int:
    """An empty task: running it makes a Ray worker start and import this module."""
    return os.getpid()


def start_ray(workers: int, address: str | None = None, *, warm: bool = True) -> bool:
    """Connect to Ray once: the cluster at *address* (``auto``: the one this machine is part
    of), else a new local instance with *workers* CPUs; then, when *warm*, one empty task per
    CPU, so that the Ray workers have started and imported feltro before a match. Returns
    whether it started (or connected) anew, False when Ray was already initialised.

    :raises ConfigError: when Ray is not installed, or does not start or answer.
    """
    ray = _ray()
    if ray.is_initialized():
        return False
    options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                               "configure_logging": False}
    try:
        if address:
            ray.init(address=address, **options)
        else:
            ray.init(num_cpus=workers, num_gpus=0, **options)
    except Exception as exc:  # Ray raises ConnectionError, RuntimeError, ValueError, ...
        where = f"the Ray cluster at {address}" if address else "a local Ray instance"
        raise ConfigError(f"could not start or reach {where}: {exc}") from None
    if warm:
        ray.get([_RAY_TASKS["warm"].remote() for _ in range(_ray_cpus(workers))])
    return True


def _ray_cpus(default: int) -> int:
    """The CPUs of the Ray instance (a cluster's, all nodes together)."""
    return max(1, int(_ray().cluster_resources().get("CPU", default)))


def stop_ray() -> None:
    """Disconnect from Ray (a local instance stops)."""
    _ray().shutdown()


def _run_ray(match: MatchConfig, pieces: Sequence[Piece],
             progress: Progress | None) -> list[array[int]]:
    ray = _ray()
    shared = ray.put(match)  # sent to the object store once, not with every task
    refs = [_RAY_TASKS["play"].remote(shared, first, count) for first, count in pieces]
    flats = []
    for (_, count), ref in zip(pieces, refs, strict=True):
        flats.append(ray.get(ref))
        _advance(progress, match, count)
    return flats
