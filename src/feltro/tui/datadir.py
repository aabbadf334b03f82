"""Where the game keeps its series: the user's data folder, one folder per series.

The data folder is :func:`feltro.paths.data_dir` (``$FELTRO_DATA_DIR``, else the platform's
usual place).

Each series gets ``series/<id>/`` (the id is the local start time, ``20250101-213005``)::

    series.sqlite   the durable log (feltro.series_log): resume from it
    players.json    who sits where: people and bots (with their level), and the language
    number          the series' number, a shorter name than its id (1, 2, 3...)
    hands/0001.phh  every finished hand as PHH, with seats, players and the button's seat

Numbers are given in the order series start and never given twice (``series.last-number``,
next to ``series/``, remembers the highest, even once that series is deleted), so
``feltro history 3`` always means the same series: a new series, or a deleted one, renumbers
nothing.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from feltro.errors import StoreError
from feltro.history import HandRecord, dumps, load
from feltro.paths import data_dir, private_folder
from feltro.session import Player

__all__ = [
    "SeriesFolder",
    "SeriesInfo",
    "data_dir",
    "list_series",
    "new_series_folder",
]

_PLAYERS_FORMAT = "feltro-players/1"
_NUMBER_FILE = "number"
_LAST_NUMBER = "series.last-number"


@dataclass(frozen=True)
class SeriesFolder:
    """One series' folder and the files in it."""

    path: Path

    @property
    def id(self) -> str:
        """The folder's name, e.g. ``20250101-213005``."""
        return self.path.name

    @property
    def log(self) -> Path:
        """The durable SQLite log."""
        return self.path / "series.sqlite"

    @property
    def players_file(self) -> Path:
        """Who sits where."""
        return self.path / "players.json"

    @property
    def hands(self) -> Path:
        """The folder of PHH files."""
        return self.path / "hands"

    @property
    def number(self) -> int | None:
        """The series' number (``None`` until :func:`number_series` gives it one)."""
        try:
            text = (self.path / _NUMBER_FILE).read_text(encoding="ascii").strip()
        except (OSError, UnicodeDecodeError):
            return None
        return int(text) if text.isdigit() else None

    def hand_file(self, number: int) -> Path:
        """The PHH file of hand *number*."""
        return self.hands / f"{number:04d}.phh"

    def write_players(self, players: Sequence[Player], lang: str) -> None:
        """Record who sits where (people, bots and their levels) and the language."""
        data = {
            "format": _PLAYERS_FORMAT,
            "lang": lang,
            "players": [{"seat": p.seat, "name": p.name, "bot": p.bot} for p in players],
        }
        self.players_file.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n",
                                     encoding="utf-8")

    def read_players(self) -> tuple[list[Player], str | None]:
        """The players and the language recorded by :meth:`write_players`.

        :raises StoreError: if the file is missing or not what this module writes.
        """
        try:
            data: Any = json.loads(self.players_file.read_text(encoding="utf-8"))
            if data.get("format") != _PLAYERS_FORMAT:
                raise ValueError(f"format {data.get('format')!r}")
            players = [Player(int(p["seat"]), str(p["name"]),
                              None if p.get("bot") is None else str(p["bot"]))
                       for p in data["players"]]
            lang = data.get("lang")
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            raise StoreError(f"{self.players_file}: cannot read the players ({exc})") from None
        return players, lang if isinstance(lang, str) else None

    def save_hand(self, number: int, record: HandRecord) -> Path:
        """Write hand *number* as PHH (replacing an older copy); returns the file."""
        private_folder(self.hands)
        target = self.hand_file(number)
        partial = target.with_suffix(".phh.part")
        partial.write_text(dumps(record), encoding="utf-8")
        partial.replace(target)  # never a half-written hand history
        return target

    def hand_numbers(self) -> list[int]:
        """The numbers of the hands saved, ascending."""
        if not self.hands.is_dir():
            return []
        return sorted(int(p.stem) for p in self.hands.glob("*.phh") if p.stem.isdigit())

    def load_hand(self, number: int) -> HandRecord:
        """Read hand *number*.

        :raises OSError: if it was not saved.
        """
        return load(self.hand_file(number))


def new_series_folder(root: Path, now: datetime) -> SeriesFolder:
    """A new, empty series folder under *root* named after *now* (``-2``, ``-3`` if taken),
    with the next number."""
    base = now.strftime("%Y%m%d-%H%M%S")
    series = root / "series"
    private_folder(series)
    for n in range(1, 1000):
        name = base if n == 1 else f"{base}-{n}"
        try:
            (series / name).mkdir(mode=0o700)
        except FileExistsError:
            continue
        number_series(root, also=(series / name,))
        return SeriesFolder(series / name)
    raise StoreError(f"{series}: cannot find a free folder name for {base}")


def number_series(root: Path, also: Sequence[Path] = ()) -> None:
    """Give every series under *root* without a number (and the folders *also*, new ones
    without a log yet) the next numbers, oldest first. Numbers are never reused."""
    series = root / "series"
    folders = sorted({*_series_folders(series), *also}, key=lambda p: p.name)
    missing = [p for p in folders if SeriesFolder(p).number is None]
    if not missing:
        return
    last_file = root / _LAST_NUMBER
    try:
        last = int(last_file.read_text(encoding="ascii").strip() or 0)
    except (OSError, ValueError):
        last = 0
    last = max([last, *(SeriesFolder(p).number or 0 for p in folders)])
    for folder in missing:
        last += 1
        (folder / _NUMBER_FILE).write_text(f"{last}\n", encoding="ascii")
    last_file.write_text(f"{last}\n", encoding="ascii")


def _series_folders(series: Path) -> list[Path]:
    """The folders of *series* that hold a series log."""
    if not series.is_dir():
        return []
    return [p for p in series.iterdir() if (p / "series.sqlite").is_file()]


@dataclass(frozen=True)
class SeriesInfo:
    """A series as ``feltro history`` lists it."""

    folder: SeriesFolder
    players: tuple[Player, ...]
    hands: int
    """Hands dealt so far."""
    over: bool
    winners: tuple[int, ...]
    """Winning seats, once over."""
    end: str | None
    """``"last_player"`` or ``"stopped"``, once over."""
    problem: str | None = None
    """Why the log could not be read, if it could not."""


def series_info(folder: SeriesFolder) -> SeriesInfo:
    """What the log and the players file say about *folder*'s series (no lock taken)."""
    from feltro.series_log import read_records

    try:
        players, _lang = folder.read_players()
    except StoreError:
        players = []
    try:
        records = read_records(folder.log)
    except StoreError as exc:
        return SeriesInfo(folder, tuple(players), len(folder.hand_numbers()), False, (), None,
                          str(exc))
    hands = sum(1 for r in records if r.kind == "hand")
    end = next((r for r in records if r.kind == "series_end"), None)
    if not players:
        config = records[0].body.get("config", {})
        players = [Player(int(s), str(n)) for s, n in config.get("players", {}).items()]
    winners = tuple(int(s) for s in end.body.get("winners", ())) if end else ()
    return SeriesInfo(folder, tuple(players), hands, end is not None, winners,
                      str(end.body.get("end")) if end else None)


def list_series(root: Path) -> list[SeriesInfo]:
    """Every series under *root*, newest first (each numbered, see the module docstring)."""
    number_series(root)
    folders = sorted(_series_folders(root / "series"), key=lambda p: p.name, reverse=True)
    return [series_info(SeriesFolder(p)) for p in folders]


def find_series(root: Path, key: str | None) -> SeriesFolder | None:
    """A series by id, unique id prefix, or number (up to three digits: ``feltro history``
    lists them); ``None`` or ``"last"`` gives the newest."""
    number_series(root)
    folders = sorted(_series_folders(root / "series"), key=lambda p: p.name, reverse=True)
    if not folders:
        return None
    if key is None or key in ("last", "latest"):
        return SeriesFolder(folders[0])
    by_number = {SeriesFolder(p).number: p for p in folders}
    if key.isdigit() and len(key) <= 3:
        found = by_number.get(int(key))
        return SeriesFolder(found) if found is not None else None
    matches = [p for p in folders if p.name == key] or \
        [p for p in folders if p.name.startswith(key)]
    return SeriesFolder(matches[0]) if len(matches) == 1 else None
