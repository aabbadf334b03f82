"""Run the feltro server for the browser tests: loopback only, a given port and data folder.

``python tests/web/serve.py PORT DATA_DIR [PATCH ...]`` — the tests start it as a real process
so that they can kill it (``kill -9``) and start it again on the same data, as a host would.
Each PATCH names a patched server of ``tests/server/patchedfair.py`` (a cheating server for the
live-check tests, issue 21).
"""

from __future__ import annotations

import sys
from pathlib import Path

import uvicorn

from feltro.server.app import ServerConfig, create_app
from feltro.server.ws_transport import GuardedWebSocketProtocol


def main(argv: list[str]) -> None:
    """Serve on 127.0.0.1:PORT with DATA_DIR (created if missing), patched by each PATCH."""
    port, data = int(argv[0]), Path(argv[1])
    if argv[2:]:
        sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))
        from patchedfair import PATCHES

        for name in argv[2:]:
            PATCHES[name](setattr)
    data.mkdir(parents=True, exist_ok=True)
    app = create_app(ServerConfig(data_dir=data))
    # The websocket protocol feltro serve runs: compressed over a 32 KiB window (issue 23).
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", ws=GuardedWebSocketProtocol)


if __name__ == "__main__":
    main(sys.argv[1:])
