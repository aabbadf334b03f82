"""Hand histories in the PHH format: read, write and replay under RULES.md.

The format itself (pure text <-> :class:`HandRecord`) lives in :mod:`feltro.history.phh`; the
replay through the hand engine in :mod:`feltro.history.replay`. This module is the facade and
the thin edge that touches files.

>>> from feltro.history import loads, replay
>>> record = loads('''
... variant = 'NT'
... antes = [0, 0, 0]
... blinds_or_straddles = [1, 2, 0]
... min_bet = 2
... starting_stacks = [200, 200, 200]
... actions = ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'p3 cbr 6', 'p1 f', 'p2 f']
... ''')
>>> replay(record).finishing_stacks
(199, 198, 203)
"""

from __future__ import annotations

import bz2
import gzip
import lzma
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import IO

from feltro.errors import ParseError
from feltro.history.phh import (
    HandRecord,
    PhhAction,
    Verb,
    dumps,
    dumps_all,
    loads,
    loads_all,
    parse_action,
)
from feltro.history.record import record_of
from feltro.history.replay import ReplayError, ReplayOutcome, replay

__all__ = [
    "HandRecord",
    "PhhAction",
    "ReplayError",
    "ReplayOutcome",
    "Verb",
    "dump",
    "dumps",
    "dumps_all",
    "is_bulk",
    "load",
    "loads",
    "loads_all",
    "parse_action",
    "read_hands",
    "read_text",
    "record_of",
    "replay",
    "write_hands",
]

# Compressed files by suffix (the real-hand test data is a .phhs.xz).
_DECOMPRESSORS: Mapping[str, Callable[[bytes], bytes]] = {
    ".gz": gzip.decompress,
    ".xz": lzma.decompress,
    ".bz2": bz2.decompress,
}


def read_text(path: str | Path) -> str:
    """The UTF-8 text of *path*, decompressed when it ends in ``.gz``, ``.xz`` or ``.bz2``.

    :raises OSError: if the file cannot be read.
    :raises ParseError: if it is not UTF-8.
    """
    path = Path(path)
    raw = path.read_bytes()
    decompress = _DECOMPRESSORS.get(path.suffix)
    if decompress is not None:
        raw = decompress(raw)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ParseError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None


def is_bulk(path: str | Path) -> bool:
    """Whether *path* names a ``.phhs`` file (many hands), compressed or not."""
    path = Path(path)
    suffixes = path.suffixes
    if suffixes and suffixes[-1] in _DECOMPRESSORS:
        suffixes = suffixes[:-1]
    return bool(suffixes) and suffixes[-1] == ".phhs"


def load(source: str | Path | IO[bytes], *, strict: bool = False) -> HandRecord:
    """Read one hand from a ``.phh`` file path or a binary file object.

    :raises OSError: if the file cannot be read.
    :raises ParseError: for text that is not PHH (see :func:`feltro.history.phh.loads`).
    :raises HistoryError: for a missing or wrong field.
    """
    if isinstance(source, str | Path):
        return loads(read_text(source), strict=strict)
    return loads(source.read().decode("utf-8"), strict=strict)


def dump(record: HandRecord, target: str | Path | IO[bytes]) -> None:
    """Write *record* as ``.phh`` to a path or a binary file object.

    :raises OSError: if the file cannot be written.
    """
    data = dumps(record).encode("utf-8")
    if isinstance(target, str | Path):
        Path(target).write_bytes(data)
    else:
        target.write(data)


def read_hands(path: str | Path, *, strict: bool = False) -> list[tuple[str, HandRecord]]:
    """Every hand in *path*, as ``(name, record)`` pairs.

    A ``.phh`` file gives one hand named by its path; a ``.phhs`` file gives one per table,
    named ``PATH[TABLE]``. Files ending in ``.gz``, ``.xz`` or ``.bz2`` are decompressed.

    :raises OSError: if the file cannot be read.
    :raises ParseError: for text that is not PHH.
    :raises HistoryError: for a missing or wrong field, naming the table in a ``.phhs``.
    """
    text = read_text(path)
    if is_bulk(path):
        return [(f"{path}[{name}]", record) for name, record in loads_all(text, strict=strict)]
    return [(str(path), loads(text, strict=strict))]


def write_hands(path: str | Path, records: Iterable[HandRecord] | Mapping[str, HandRecord]) -> None:
    """Write *records* to a ``.phhs`` file (compressed if *path* ends in ``.gz``/``.xz``/``.bz2``).

    :raises OSError: if the file cannot be written.
    """
    path = Path(path)
    data = dumps_all(records).encode("utf-8")
    if path.suffix == ".gz":
        path.write_bytes(gzip.compress(data, mtime=0))
    elif path.suffix == ".xz":
        path.write_bytes(lzma.compress(data, preset=9 | lzma.PRESET_EXTREME))
    elif path.suffix == ".bz2":
        path.write_bytes(bz2.compress(data))
    else:
        path.write_bytes(data)
