"""A websocket that sends pings as fast as it can and never reads, against ``feltro serve``.

Usage::

    python benchmarks/ping_flood.py               # 30 s, one socket at a time
    python benchmarks/ping_flood.py --seconds 10 --sockets 8

It starts ``python -m feltro serve`` on a free 127.0.0.1 port (:mod:`load_server`'s
:class:`~load_server.Server`), creates a table, and keeps ``--sockets`` raw websockets at it that
send 125-byte pings without ever reading (each opens again at once when the server drops it).
It prints the server's resident memory before, at the end and at its peak, and how many pings
were sent and how often the server dropped the flooder. Goal (issue 22): the server grows by
less than 20 MiB in 30 s.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).parent))
from load_server import Server, _upgrade_request

PING = bytes([0x89, 0x80 | 125]) + b"\0\0\0\0" + b"p" * 125
"""A masked ping frame (a zero mask leaves the payload as it is)."""


async def flooder(ws_url: str, until: float, counts: dict[str, int]) -> None:
    """Open, flood pings, never read; open again when dropped, until *until*."""
    host, _, rest = ws_url.removeprefix("ws://").partition(":")
    port = int(rest.split("/", 1)[0])
    while time.monotonic() < until:
        writer = None
        try:
            reader, writer = await asyncio.open_connection(host, port)
            writer.transport.set_write_buffer_limits(high=1 << 20)
            writer.write(_upgrade_request(ws_url))
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
            if not head.startswith(b"HTTP/1.1 101"):
                raise ConnectionError("refused")
            counts["opened"] += 1
            while time.monotonic() < until and not writer.is_closing():
                writer.write(PING * 64)
                counts["pings"] += 64
                await asyncio.wait_for(writer.drain(), 5)
        except (OSError, ConnectionError, TimeoutError, asyncio.IncompleteReadError):
            counts["dropped"] += 1
        finally:
            if writer is not None:
                writer.close()
        await asyncio.sleep(0.05)


async def run(seconds: float, sockets: int) -> None:
    with tempfile.TemporaryDirectory(prefix="feltro-flood-") as tmp:
        server = Server(Path(tmp))
        try:
            await server.wait_ready()
            async with httpx.AsyncClient(trust_env=False, timeout=5) as http:
                created = (await http.post(f"{server.url}/api/tables",
                                           json={"bot_seconds": 0})).json()
            ws_url = f"ws://127.0.0.1:{server.port}/ws/{created['table_id']}"
            before, _ = server.memory_mib()
            counts = {"opened": 0, "pings": 0, "dropped": 0}
            until = time.monotonic() + seconds
            await asyncio.gather(*(flooder(ws_url, until, counts) for _ in range(sockets)))
            now, peak = server.memory_mib()
            print(f"{seconds:.0f} s, {sockets} socket(s): {counts['pings']} pings sent, "
                  f"{counts['opened']} opened, {counts['dropped']} dropped by the server")
            print(f"server RSS: {before:.1f} MiB before, {now:.1f} MiB after "
                  f"(grew {now - before:+.1f} MiB), peak {peak:.1f} MiB")
        finally:
            server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--sockets", type=int, default=1)
    args = parser.parse_args()
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(run(args.seconds, args.sockets))
    os._exit(0)


if __name__ == "__main__":
    main()
