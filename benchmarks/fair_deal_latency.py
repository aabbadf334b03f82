"""Last action -> next deal with commit-then-reveal (issue 21): phones 30 ms and 300 ms away.

Usage::

    python benchmarks/fair_deal_latency.py                # 40 hands on this checkout
    python benchmarks/fair_deal_latency.py --src OTHER/src --hands 40   # another checkout

It starts ``python -m feltro serve`` on 127.0.0.1 (a temporary data folder), creates a table
with the 0.5 s pause between hands, seats two players whose websockets are 30 ms and 300 ms
away (half of it each way, order kept) and a calling-station bot, and plays: the players
check or fold, and their devices seal then reveal (``feltro join``'s way; on a server without
``phase`` they send the value at once, as the clients did before). A spectator on the same
machine (the TV) times, for every hand, the moment it sees the hand over to the moment it sees
the next deal. It prints the median and the 90th percentile.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "server"))
from realserver import free_port  # noqa: E402

from feltro.remote.fairplay import Contributor  # noqa: E402


class Client:
    """One websocket with *delay* seconds of round trip, half each way, order kept."""

    def __init__(self, url: str, delay: float) -> None:
        self.url, self.delay = url, delay
        self.inbox: asyncio.Queue[tuple[float, dict[str, Any]]] = asyncio.Queue()
        self.outbox: asyncio.Queue[tuple[float, str]] = asyncio.Queue()

    async def open(self) -> None:
        self.ws = await websockets.connect(self.url)
        self.tasks = [asyncio.create_task(self._read()), asyncio.create_task(self._write())]

    async def _read(self) -> None:
        async for text in self.ws:
            await self.inbox.put((time.monotonic() + self.delay / 2, json.loads(text)))

    async def _write(self) -> None:
        while True:
            due, text = await self.outbox.get()
            await asyncio.sleep(max(0.0, due - time.monotonic()))
            await self.ws.send(text)

    def send(self, **message: Any) -> None:
        self.outbox.put_nowait((time.monotonic() + self.delay / 2, json.dumps(message)))

    async def recv(self) -> dict[str, Any]:
        due, frame = await self.inbox.get()
        await asyncio.sleep(max(0.0, due - time.monotonic()))
        return frame

    async def until(self, predicate: Any) -> dict[str, Any]:
        while True:
            frame = await self.recv()
            if predicate(frame):
                return frame


async def player(client: Client) -> None:
    device, acted, sent_plain = Contributor(), set(), set()
    while True:
        frame = await client.recv()
        if frame.get("type") != "state":
            continue
        fair, you = frame["table"].get("fair"), frame["you"]
        nxt = fair.get("next") if fair else None
        if nxt is not None and "phase" not in nxt:  # a server from before commit-then-reveal
            if nxt["hand"] not in sent_plain and you.get("seat") is not None:
                sent_plain.add(nxt["hand"])
                client.send(type="contribute", hand=nxt["hand"], value=os.urandom(32).hex(),
                            id=f"fair-{nxt['hand']}")
        else:
            due = device.due(frame)
            if due is not None:
                client.send(**due)
        legal = you.get("legal")
        if legal and (legal["hand"], legal["turn"]) not in acted:
            acted.add((legal["hand"], legal["turn"]))
            client.send(type="act", hand=legal["hand"], turn=legal["turn"],
                        action="check" if legal["check"] else "fold",
                        id=f"a{legal['hand']}-{legal['turn']}")


async def night(base: str, hands: int) -> list[float]:
    async with httpx.AsyncClient(trust_env=False, timeout=5) as http:
        created = (await http.post(f"{base}/api/tables", json={
            "seats": 3, "between_hands_seconds": 0.5, "bot_seconds": 0, "action_seconds": None,
            "max_hands": hands + 1})).json()
    ws = base.replace("http", "ws") + f"/ws/{created['table_id']}"
    host = Client(ws, 0.0)
    await host.open()
    host.send(type="hello", protocol=1, role="host", token=created["host_token"], lang="en")
    players = []
    for name, delay in (("Near", 0.030), ("Far", 0.300)):
        phone = Client(ws, delay)
        await phone.open()
        phone.send(type="hello", protocol=1, role="spectator", lang="en")
        phone.send(type="join", name=name, id="join")
        request = await phone.until(lambda f: f.get("type") == "seat_request")
        host.send(type="accept", request_id=request["request_id"], id=f"ok-{name}")
        await phone.until(lambda f: f.get("type") == "seat_request"
                          and f.get("status") == "accepted")
        players.append(asyncio.create_task(player(phone)))
    host.send(type="add_bot", kind="station", id="bot")
    host.send(type="start", id="start")
    over_at: dict[int, float] = {}
    waits: list[float] = []
    while True:
        frame = await host.recv()
        if frame.get("type") != "state":
            continue
        table, now = frame["table"], time.monotonic()
        hand = table.get("hand")
        if hand is not None and hand["over"]:
            over_at.setdefault(hand["number"], now)
        if hand is not None and hand["number"] - 1 in over_at and len(waits) < hand["number"] - 1:
            waits.append(now - over_at[hand["number"] - 1])
        if table["status"] == "over" or len(waits) >= hands:
            for task in players:
                task.cancel()
            async with httpx.AsyncClient(trust_env=False, timeout=5) as http:
                export = (await http.get(f"{base}/api/tables/{created['table_id']}"
                                         "/fairness")).json()
            both = sum(len(h["contributions"]) == 2 for h in export["hands"])
            print(f"hands whose deck took both phones' values: {both} of "
                  f"{len(export['hands'])}")
            return waits


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--src", type=Path, default=ROOT / "src",
                        help="the src folder of the feltro to serve (default: this one)")
    args = parser.parse_args()
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(args.src)}
    env.pop("FELTRO_PORT", None)
    with tempfile.TemporaryDirectory() as data:
        server = subprocess.Popen([sys.executable, "-m", "feltro", "serve", "--port", str(port),
                                   "--data", data, "--log-level", "warning"], env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            base = f"http://127.0.0.1:{port}"
            for _ in range(100):
                try:
                    httpx.get(f"{base}/healthz", trust_env=False, timeout=1)
                    break
                except httpx.HTTPError:
                    time.sleep(0.2)
            waits = asyncio.run(asyncio.wait_for(night(base, args.hands), 300))
        finally:
            server.terminate()
            server.wait(10)
    ms = sorted(w * 1000 for w in waits)
    print(f"server: {args.src}")
    print(f"hands timed: {len(ms)}; last action -> next deal, seen by a spectator on the "
          f"server's machine: p50 {statistics.median(ms):.0f} ms, "
          f"p90 {ms[int(0.9 * (len(ms) - 1))]:.0f} ms, max {ms[-1]:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
