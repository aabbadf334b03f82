"""How the server runs (:class:`ServerConfig`) and where its pages live (:data:`STATIC`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from feltro.seal import SeedSeal
from feltro.server.archive import Lifecycle
from feltro.server.budgets import Budgets
from feltro.server.clock import Clock, SystemClock

__all__ = ["STATIC", "ServerConfig"]

STATIC = Path(__file__).with_name("static")
"""The web client's files (owned by the web client; the server only serves them)."""


@dataclass(kw_only=True)
class ServerConfig:
    """How the server runs. Defaults suit ``feltro serve`` on one laptop."""

    data_dir: Path
    """Where the server log and the series logs live."""
    seasons_dir: Path | None = None
    """Where seasons live (:mod:`feltro.season`); ``None``: ``<data_dir>/seasons``."""
    clock: Clock = field(default_factory=SystemClock)
    public_url: str | None = None
    """Base of the links the server hands out (``http://192.168.1.20:8000/``); ``None``: the
    address each request came to."""
    allowed_origins: tuple[str, ...] = ()
    """Extra websocket origins to accept besides the server's own address."""
    tick_interval: float = 0.05
    max_tables: int = 500
    max_connections_per_table: int = 64
    """Spectators one table accepts at once (screens, onlookers). Players and the host always
    get in with their token (a few devices each); strangers who have not said hello are
    bounded apart (:mod:`feltro.server.admission`)."""
    rate: float = 20.0
    """Messages a second per websocket, on average."""
    burst: float = 40.0
    max_lobbies_per_address: int = 5
    """Tables in their lobby (not started) that one address may hold (loopback excepted)."""
    create_per_minute: float = 10.0
    """Tables one client address may create per minute (the server's own machine: any)."""
    static_dir: Path = STATIC
    seal: SeedSeal | None = None
    """The key the tables' series seeds are sealed with, kept outside the data folder
    (``feltro serve`` reads or makes it, :func:`feltro.paths.key_file`); ``None``: in clear."""
    lifecycle: Lifecycle = field(default_factory=Lifecycle)
    """When finished, abandoned and unused tables leave memory (:mod:`feltro.server.archive`)."""
    budgets: Budgets = field(default_factory=Budgets)
    """What tables from other machines may cost, the data folder's quota and the archive's
    retention (:mod:`feltro.server.budgets`)."""
    allowed_hosts: frozenset[str] | None = None
    """Host names this server answers to (:mod:`feltro.server.guard`); ``None``: any."""
    max_body_bytes: int = 16 * 1024
    """The largest HTTP request body read."""
    requests_per_second: float = 20.0
    """HTTP requests per client address, on average."""
    upgrades_per_second: float = 2.0
    """Websockets one address may open a second, on average (loopback excepted)."""
    upgrade_burst: float = 30.0
    request_burst: float = 120.0
    """HTTP requests an address may send at once (a page loads its files together)."""
