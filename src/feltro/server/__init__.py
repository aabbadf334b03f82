"""The home-game server: ``feltro serve``.

Friends sit around a table with their phones; one of them runs feltro on a laptop. This package
is the server side: an ASGI app (:func:`feltro.server.app.create_app`) with HTTP routes for
tables and a versioned websocket protocol (:mod:`feltro.server.protocol`, documented in
``docs/protocol.md``). Each table is a durable series (:mod:`feltro.store`) plus the server's own
journal (:mod:`feltro.server.journal`); :mod:`feltro.server.game` is the synchronous core and
gives out read-only snapshots (:mod:`feltro.server.snapshot`), :mod:`feltro.server.views` turns a
snapshot into per-connection views (hidden cards only to their owner), :mod:`feltro.server.rooms`
holds the connections, locks, ticker and bots, and :mod:`feltro.server.routes` the HTTP,
websocket and page routes.

Import it only where it is needed (``feltro.cli.serve`` does, lazily): it pulls in FastAPI.
"""

from __future__ import annotations

__all__ = ["PROTOCOL_VERSION"]

from feltro.server.protocol import PROTOCOL_VERSION
