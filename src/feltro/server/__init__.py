"""The home-game server: ``feltro serve``.

Friends sit around a table with their phones; one of them runs feltro on a laptop. This package
is the server side: an ASGI app (:func:`feltro.server.app.create_app`) with HTTP routes for
tables and a versioned websocket protocol (:mod:`feltro.server.protocol` in,
:mod:`feltro.server.outgoing` out, documented in ``docs/protocol.md``). Each table is a seated
series (:mod:`feltro.session`) over a durable series log (:mod:`feltro.series_log`) plus the
server's own journal (:mod:`feltro.server.journal`). From the socket in:

* :mod:`~feltro.server.routes` — the HTTP, websocket and page routes;
* :mod:`~feltro.server.rooms` — every table of the server and the ticker;
  :mod:`~feltro.server.room` — one table's lock, connections and fan-out;
  :mod:`~feltro.server.connection` — one websocket's queue; :mod:`~feltro.server.admission` —
  budgets against strangers; :mod:`~feltro.server.decision_ids` — a resent action applies
  once; :mod:`~feltro.server.recovery` — resuming a stalled table;
* :mod:`~feltro.server.live_table` — one table, synchronously, around the seated series:
  :mod:`~feltro.server.lobby` (seats, requests, host, tokens), :mod:`~feltro.server.turn_clock`
  (what is due now), :mod:`~feltro.server.fairplay` (the verifiable shuffle),
  :mod:`~feltro.server.restore` (rebuilding a table from its journal);
* :mod:`~feltro.server.snapshot` — a table at one moment, as plain data (taken by
  :mod:`~feltro.server.snapshot_of`); :mod:`~feltro.server.views` — a snapshot as each
  connection's ``state`` (hidden cards only to their owner).

``docs/design.md`` draws these layers and the path of one action.

Import it only where it is needed (``feltro.cli.serve`` does, lazily): it pulls in FastAPI.
"""

from __future__ import annotations

__all__ = ["PROTOCOL_VERSION"]

from feltro.server.protocol import PROTOCOL_VERSION
