"""Bot tables a stranger starts and abandons, against ``feltro serve`` (issue 22).

Usage::

    python benchmarks/abandoned_tables.py              # 60 tables tried, 30 s measured
    python benchmarks/abandoned_tables.py --tables 20 --measure 10 --pause-after 60

It starts ``python -m feltro serve`` on a free 127.0.0.1 port (:mod:`load_server`'s
:class:`~load_server.Server`). A stranger at 127.0.0.2 (another address than the host's, on
Linux's loopback network) asks for ``--tables`` tables with zero delays and 100,000 hands, seats
ten bots at each, starts it and leaves, as fast as the server lets it (waiting out its
creation rate, stopping when the server says the address holds too many). Once nobody has been
connected for the pause delay it measures the server's CPU over ``--measure`` seconds and the
data folder's size. Then the host (127.0.0.1) plays a one-hand table to the end and the
server's open files are counted before and after. Goal: under 5% of a core and 50 MiB of disk
once the tables pause; open files back to where they were within 10 s of the table finishing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).parent))
from load_server import Server

STRANGER = "127.0.0.2"
FARM = {"seats": 10, "between_hands_seconds": 0, "bot_seconds": 0, "max_hands": 100_000,
        "action_seconds": None}


async def seat_bots_and_start(server: Server, created: dict[str, Any], bots: int,
                              local: str) -> None:
    """Say hello as the host, seat *bots* bots, start, and leave."""
    url = f"ws://127.0.0.1:{server.port}/ws/{created['table_id']}"
    async with connect(url, proxy=None, local_addr=(local, 0)) as ws:
        await ws.send(json.dumps({"type": "hello", "protocol": 1, "role": "host",
                                  "token": created["host_token"], "id": "h"}))
        messages = [{"type": "add_bot", "kind": "station", "id": f"b{n}"} for n in range(bots)]
        for message in [*messages, {"type": "start", "id": "s"}]:
            await ws.send(json.dumps(message))
            while True:
                frame = json.loads(await ws.recv())
                if frame.get("ref") == message["id"] and frame["type"] in ("ack", "error"):
                    break


def _open_files(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def _folder_mib(folder: Path) -> float:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) / 2**20


async def run(tables: int, measure: float, pause_after: float) -> None:
    with tempfile.TemporaryDirectory(prefix="feltro-farm-") as tmp:
        server = Server(Path(tmp))
        try:
            await server.wait_ready()
            transport = httpx.AsyncHTTPTransport(local_address=STRANGER)
            created_n, refused, started = 0, "", time.monotonic()
            async with httpx.AsyncClient(transport=transport, trust_env=False,
                                         timeout=10) as http:
                while created_n < tables:
                    answer = await http.post(f"{server.url}/api/tables", json=FARM)
                    if answer.status_code == 429:  # the creation rate: wait and go on
                        await asyncio.sleep(1.0)
                        continue
                    if answer.status_code != 201:
                        refused = f"{answer.status_code} {answer.json().get('code')}"
                        break
                    await seat_bots_and_start(server, answer.json(), 10, STRANGER)
                    created_n += 1
            last_left = time.monotonic()
            print(f"stranger: {created_n} tables started and left in "
                  f"{last_left - started:.0f} s; then refused: {refused or 'no'}")
            await asyncio.sleep(max(0.0, pause_after + 5 - (time.monotonic() - last_left)))
            cpu0, t0 = server.cpu_seconds(), time.monotonic()
            await asyncio.sleep(measure)
            share = (server.cpu_seconds() - cpu0) / (time.monotonic() - t0)
            rss, _ = server.memory_mib()
            print(f"paused: server CPU {share * 100:.1f}% of a core over {measure:.0f} s, "
                  f"data folder {_folder_mib(Path(tmp) / 'server'):.1f} MiB, RSS {rss:.0f} MiB")
            pid = server.process.pid
            before = _open_files(pid)
            async with httpx.AsyncClient(trust_env=False, timeout=10) as http:
                own = (await http.post(f"{server.url}/api/tables",
                                       json={**FARM, "seats": 2, "max_hands": 1})).json()
                await seat_bots_and_start(server, own, 2, "127.0.0.1")
                deadline = time.monotonic() + 30
                while time.monotonic() < deadline:
                    summary = (await http.get(f"{server.url}/api/tables/"
                                              f"{own['table_id']}")).json()
                    if summary["status"] == "over":
                        break
                    await asyncio.sleep(0.1)
            over = time.monotonic()
            while _open_files(pid) > before and time.monotonic() - over < 10:
                await asyncio.sleep(0.1)
            print(f"host's one-hand table: open files {before} before, {_open_files(pid)} "
                  f"{time.monotonic() - over:.1f} s after it finished")
        finally:
            server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=60)
    parser.add_argument("--measure", type=float, default=30.0)
    parser.add_argument("--pause-after", type=float, default=60.0,
                        help="the server's pause delay (feltro serve's default: 60 s)")
    args = parser.parse_args()
    asyncio.run(run(args.tables, args.measure, args.pause_after))


if __name__ == "__main__":
    main()
