"""Where seasons live: one ``<slug>.season.sqlite`` file per season in a seasons folder.

The terminal game and ``feltro serve`` share the machine's seasons folder
(``<data>/seasons``, :func:`feltro.paths.data_dir`), so that series from both join one season.
A season is found by its name (compared as players' names are) or by its *slug*, the file's
name, which is also its address on the server (``/season/<slug>``).

>>> slug_of("Sextas à noite 2026!")
'sextas-a-noite-2026'
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from feltro.paths import private_folder
from feltro.playernames import name_key
from feltro.season.log import SUFFIX, SeasonBook, create_season, read_season
from feltro.season.model import Season, SeasonError

__all__ = [
    "MAX_SEASONS",
    "SUFFIX",
    "SeasonEntry",
    "find_season",
    "list_seasons",
    "new_season",
    "slug_of",
]

MAX_SEASONS: Final = 100
"""The most seasons one folder holds."""
SLUG: Final = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
"""What a slug looks like (and all an address may name)."""


def slug_of(name: str) -> str:
    """*name* as a file name and an address: ASCII letters and digits joined by ``-``."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    return "-".join(re.findall(r"[a-z0-9]+", plain))[:40].strip("-") or "season"


@dataclass(frozen=True, slots=True)
class SeasonEntry:
    """A season file of the folder: the season, or why it cannot be read."""

    path: Path
    book: SeasonBook | None
    problem: SeasonError | None

    @property
    def slug(self) -> str:
        return self.path.name.removesuffix(SUFFIX)


def _files(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.glob(f"*{SUFFIX}") if SLUG.fullmatch(p.name[:-len(SUFFIX)]))


def list_seasons(folder: Path) -> list[SeasonEntry]:
    """Every season in *folder*, by slug; a damaged one comes with its problem."""
    entries: list[SeasonEntry] = []
    for path in _files(folder):
        try:
            entries.append(SeasonEntry(path, read_season(path), None))
        except SeasonError as exc:
            entries.append(SeasonEntry(path, None, exc))
    return entries


def find_season(folder: Path, key: str) -> Path:
    """The file of the season named *key* (or whose slug is *key*; or a file named after *key*
    that cannot be read, so that its problem is said).

    :raises SeasonError: ``no-season``.
    """
    if SLUG.fullmatch(key) and (folder / f"{key}{SUFFIX}").is_file():
        return folder / f"{key}{SUFFIX}"
    wanted = name_key(key)
    for entry in list_seasons(folder):
        if entry.book is not None and name_key(entry.book.season.name) == wanted:
            return entry.path
    named = folder / f"{slug_of(key)}{SUFFIX}"
    if named.is_file():  # a season that cannot be read, named by its name: say why
        return named
    raise SeasonError("no-season", f"no season named {key!r}", name=key[:40])


def new_season(folder: Path, season: Season) -> SeasonBook:
    """Start *season* in *folder* (created if needed), in a file named after its slug.

    :raises SeasonError: ``season-exists`` (a season of that name is there),
        ``too-many-seasons``, ``unavailable`` (the folder cannot be written).
    """
    entries = list_seasons(folder)
    if any(e.book is not None and name_key(e.book.season.name) == name_key(season.name)
           for e in entries):
        raise SeasonError("season-exists", f"a season named {season.name!r} exists",
                          name=season.name)
    if len(entries) >= MAX_SEASONS:
        raise SeasonError("too-many-seasons", f"{folder} holds {MAX_SEASONS} seasons already",
                          max=MAX_SEASONS)
    try:
        private_folder(folder)
    except OSError as exc:
        raise SeasonError("unavailable", f"{folder}: {exc}", name=str(folder)) from None
    base = slug_of(season.name)
    taken = {e.slug for e in entries}
    slug = next(s for s in (base, *(f"{base}-{n}" for n in range(2, MAX_SEASONS + 2)))
                if s not in taken)
    return create_season(folder / f"{slug}{SUFFIX}", season)
