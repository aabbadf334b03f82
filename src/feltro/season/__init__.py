"""Seasons: a group of friends whose series add up (``docs/seasons.md``).

* :mod:`~feltro.season.model` — the data: :class:`Season` (a name, its players, a points
  table), :class:`Night` (one finished series as a season counts it), :class:`SeasonError`;
* :mod:`~feltro.season.night` — :func:`night_of`, a finished series' night (pure);
* :mod:`~feltro.season.standings` — :func:`standings` and the chart's points (pure);
* :mod:`~feltro.season.log` — the durable log of one season (SQLite, like the series log);
* :mod:`~feltro.season.folder` — the seasons folder: new, list, find;
* :mod:`~feltro.season.export` — CSV.
"""

from __future__ import annotations

from feltro.season.export import season_csv
from feltro.season.folder import SeasonEntry, find_season, list_seasons, new_season, slug_of
from feltro.season.log import (
    SeasonBook,
    add_night,
    add_player,
    read_season,
    remove_night,
    set_points,
)
from feltro.season.model import (
    DEFAULT_POINTS,
    Night,
    NightPlayer,
    Season,
    SeasonError,
    parse_points,
)
from feltro.season.night import night_of
from feltro.season.standings import SeasonLine, cumulative_points, played_by, standings

__all__ = [
    "DEFAULT_POINTS",
    "Night",
    "NightPlayer",
    "Season",
    "SeasonBook",
    "SeasonEntry",
    "SeasonError",
    "SeasonLine",
    "add_night",
    "add_player",
    "cumulative_points",
    "find_season",
    "list_seasons",
    "new_season",
    "night_of",
    "parse_points",
    "played_by",
    "read_season",
    "remove_night",
    "season_csv",
    "set_points",
    "slug_of",
    "standings",
]
