"""Run the feltro server for the browser tests: loopback only, a given port and data folder.

``python tests/web/serve.py PORT DATA_DIR`` — the tests start it as a real process so that
they can kill it (``kill -9``) and start it again on the same data, as a host would.
"""

from __future__ import annotations

import sys
from pathlib import Path

import uvicorn

from feltro.server.app import ServerConfig, create_app
from feltro.server.ws_transport import GuardedWebSocketProtocol


def main(argv: list[str]) -> None:
    """Serve on 127.0.0.1:PORT with DATA_DIR (created if missing)."""
    port, data = int(argv[0]), Path(argv[1])
    data.mkdir(parents=True, exist_ok=True)
    app = create_app(ServerConfig(data_dir=data))
    # The websocket protocol feltro serve runs: compressed over a 32 KiB window (issue 23).
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", ws=GuardedWebSocketProtocol)


if __name__ == "__main__":
    main(sys.argv[1:])
