"""Load test of ``feltro serve``: many tables of bot-driven websocket clients, on loopback only.

Usage::

    python benchmarks/load_server.py                 # 100 tables x 6 clients, 60 s measured
    python benchmarks/load_server.py --quick         # 20 tables, 10 s (a smoke run)
    python benchmarks/load_server.py --tables 100 --seconds 60 --think 0.2 1.0
    python benchmarks/load_server.py --stress        # then a run with 10x the action rate
    python benchmarks/load_server.py --attackers 60 --deaf 5 --pin   # under attack (issue 11)

It starts ``python -m feltro serve`` on a free 127.0.0.1 port with a temporary data folder,
creates the tables over HTTP, seats six websocket clients at each (join, the host accepts, the
host starts), and lets the clients play: each decides from its own view after a think time
drawn uniformly from ``--think`` (check or call mostly, sometimes raise or fold). It measures,
for every action, the time from sending it to the moment *every* client at that table has
received a state that includes it (all in this one process, on one clock), and the server's
CPU and memory from ``/proc``. Then it stops the server and writes
``benchmarks/results/server_load.md``. It stops by itself: a hard deadline covers every phase.

Goal (issue 6): p99 under 50 ms with 100 tables on a 2-core machine. Under attack (issue 11):
``--attackers N`` keeps N idle websockets open that never say hello (spread over the tables,
from one stranger's address per table; each comes back 2 s after the server drops or refuses
it; ``--attackers-per-table`` makes it N at every table), and ``--deaf M`` keeps M spectators per
table that never read a frame (each reconnects when dropped): p99 paced under 50 ms and the
server under 300 MiB. ``--pin`` runs the server on core 0 and the load on core 1.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

sys.path.insert(0, str(Path(__file__).resolve().parent))
from feltro.remote.fairplay import Contributor
from run import Section, machine_info, print_section, write_results

Key = tuple[int, int]


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


# --- the server process ---------------------------------------------------------------------


class Server:
    """``python -m feltro serve`` on 127.0.0.1 (never another address)."""

    def __init__(self, data: Path, cpu: int | None = None, compress: bool = True) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        pin = None if cpu is None else (lambda: os.sched_setaffinity(0, {cpu}))
        env = {**os.environ, "FELTRO_CONFIG_DIR": str(data / "config")}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "feltro", "serve", "--port", str(self.port), "--data",
             str(data / "server"), "--log-level", "warning",
             *(() if compress else ("--no-compress",))],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=pin, env=env)
        self.ticks = os.sysconf("SC_CLK_TCK")

    async def wait_ready(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        async with httpx.AsyncClient(trust_env=False, timeout=1.0) as client:
            while time.monotonic() < deadline:
                if self.process.poll() is not None:
                    raise RuntimeError("the server exited")
                with contextlib.suppress(httpx.HTTPError):
                    if (await client.get(f"{self.url}/healthz")).text == "ok":
                        return
                await asyncio.sleep(0.05)
        raise TimeoutError("the server did not start")

    def cpu_seconds(self) -> float:
        """User + system CPU of the server process so far."""
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / self.ticks

    def memory_mib(self) -> tuple[float, float]:
        """Resident memory now and at its peak (MiB)."""
        values = {}
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            key, _, rest = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                values[key] = int(rest.split()[0]) / 1024
        return values.get("VmRSS", 0.0), values.get("VmHWM", 0.0)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)


# --- measuring ------------------------------------------------------------------------------


@dataclass
class Pending:
    sent: float
    seen: dict[int, float] = field(default_factory=dict)


@dataclass
class Metrics:
    measuring: bool = False
    all_clients: list[float] = field(default_factory=list)
    """Per action: seconds until the last client of the table had it."""
    each_client: list[float] = field(default_factory=list)
    """Per action and client: seconds until that client had it."""
    actions: int = 0
    frames: int = 0
    errors: int = 0
    attacker_connects: int = 0
    deaf_connects: int = 0
    deal_gaps: list[float] = field(default_factory=list)
    """Per hand: seconds from the last action of the hand before to the first client's state
    of the new hand (the 0.5 s pause between hands included)."""
    contributions: int = 0
    late_contributions: int = 0
    """Contributions the server refused (sent after their hand was dealt: harmless)."""


@dataclass
class TableRun:
    table_id: str
    players: int
    metrics: Metrics
    pending: dict[Key, Pending] = field(default_factory=dict)
    last_action: tuple[int, float] | None = None
    dealt: int = 0

    def sent(self, key: Key, now: float) -> None:
        self.pending[key] = Pending(now)
        self.last_action = (key[0], now)

    def deal_seen(self, number: int, now: float) -> None:
        """A client saw hand *number*: the first sight of a new hand measures the gap since
        the last action of the hand before."""
        if number <= self.dealt:
            return
        self.dealt = number
        if (self.metrics.measuring and self.last_action is not None
                and self.last_action[0] == number - 1):
            self.metrics.deal_gaps.append(now - self.last_action[1])

    def observed(self, seat: int, key: Key, now: float) -> None:
        """Client *seat* received a state at turn *key*: every earlier action is in it."""
        done = []
        for action, pending in self.pending.items():
            if key > action and seat not in pending.seen:
                pending.seen[seat] = now
                if len(pending.seen) == self.players:
                    done.append(action)
        for action in done:
            pending = self.pending.pop(action)
            if self.metrics.measuring:
                self.metrics.actions += 1
                self.metrics.all_clients.append(max(pending.seen.values()) - pending.sent)
                self.metrics.each_client.extend(t - pending.sent for t in pending.seen.values())


# --- the clients ----------------------------------------------------------------------------


async def _recv(ws: ClientConnection) -> dict[str, Any]:
    frame: dict[str, Any] = json.loads(await ws.recv())
    return frame


async def _until(ws: ClientConnection, kind: str, **match: Any) -> dict[str, Any]:
    while True:
        frame = await _recv(ws)
        if frame["type"] == kind and all(frame.get(k) == v for k, v in match.items()):
            return frame


async def seat_table(server: Server, http: httpx.AsyncClient, players: int,
                     metrics: Metrics) -> tuple[TableRun, list[tuple[ClientConnection, int]]]:
    """Create a table, seat *players* clients, start it; returns the clients and seats."""
    body = {"seats": players, "action_seconds": None, "between_hands_seconds": 0.5,
            "name": "load"}
    while True:  # table creation is rate-limited, from this machine too: wait for a token
        response = await http.post(f"{server.url}/api/tables", json=body)
        if response.status_code != 429:
            break
        await asyncio.sleep(1.0)
    created = response.json()
    ws_url = f"ws://127.0.0.1:{server.port}/ws/{created['table_id']}"
    host = await connect(ws_url, proxy=None, max_size=2**20)
    await host.send(json.dumps({"type": "hello", "protocol": 1, "role": "host",
                                "token": created["host_token"]}))
    seated = []
    for n in range(players):
        ws = await connect(ws_url, proxy=None, max_size=2**20)
        await ws.send(json.dumps({"type": "hello", "protocol": 1, "role": "spectator"}))
        await ws.send(json.dumps({"type": "join", "name": f"Player {n + 1}"}))
        request = await _until(ws, "seat_request")
        await host.send(json.dumps({"type": "accept", "request_id": request["request_id"]}))
        accepted = await _until(ws, "seat_request", status="accepted")
        seated.append((ws, accepted["seat"]))
    await host.send(json.dumps({"type": "start", "id": "go"}))
    await _until(host, "ack", ref="go")
    await host.close()
    return TableRun(created["table_id"], players, metrics), seated


async def play(ws: ClientConnection, seat: int, run: TableRun, think: tuple[float, float],
               rng: random.Random, stop: asyncio.Event, contribute: bool = True) -> None:
    """One bot-driven client: read states, act when it is its turn, contribute randomness
    to the next hand when the server deals fairly."""
    acted: set[Key] = set()
    device = Contributor()  # seals, then reveals, as feltro join and the phones do
    act_task: asyncio.Task[None] | None = None

    async def act(legal: dict[str, Any]) -> None:
        await asyncio.sleep(rng.uniform(*think))
        roll = rng.random()
        message: dict[str, Any] = {"type": "act", "id": f"{legal['hand']}.{legal['turn']}",
                                   "hand": legal["hand"], "turn": legal["turn"]}
        raise_ = legal["raise"]
        if raise_ and roll < 0.12:
            message.update(action="raise", to=min(raise_["max"], raise_["min"] * 2))
        elif not legal["check"] and roll < 0.3:
            message.update(action="fold")
        else:
            message.update(action="check" if legal["check"] else "call")
        run.sent((legal["hand"], legal["turn"]), time.perf_counter())
        await ws.send(json.dumps(message))

    try:
        while not stop.is_set():
            text = await ws.recv()
            now = time.perf_counter()
            run.metrics.frames += 1
            frame = json.loads(text)
            kind = frame["type"]
            if kind == "error":
                if str(frame.get("ref", "")).startswith("fair-"):
                    run.metrics.late_contributions += 1
                else:
                    run.metrics.errors += 1
                continue
            if kind != "state":
                continue
            table = frame["table"]
            hand = table["hand"]
            if hand is not None:
                run.observed(seat, (hand["number"], hand["turn"]), now)
                run.deal_seen(hand["number"], now)
            if table["status"] == "over":
                return
            due = device.due(frame) if contribute else None
            if due is not None:
                run.metrics.contributions += 1
                await ws.send(json.dumps(due))
            legal = frame["you"]["legal"]
            if legal is not None:
                key = (legal["hand"], legal["turn"])
                if key not in acted:
                    acted.add(key)
                    act_task = asyncio.create_task(act(legal))
    except ConnectionClosed:
        pass
    finally:
        if act_task is not None:
            act_task.cancel()


def _upgrade_request(ws_url: str) -> bytes:
    """The HTTP request that opens a websocket at *ws_url* (a fixed key: the server does not
    care, and the strangers never check the answer's)."""
    rest = ws_url.removeprefix("ws://")
    host, _, path = rest.partition("/")
    return (f"GET /{path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: ZmVsdHJvLWxvYWQtdGVzdA==\r\n"
            f"Sec-WebSocket-Version: 13\r\n\r\n").encode()


def _client_frame(text: str) -> bytes:
    """One masked text frame, as a client must send it (payloads under 126 bytes)."""
    payload = text.encode()
    mask = os.urandom(4)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return bytes([0x81, 0x80 | len(payload)]) + mask + masked


async def stranger(ws_url: str, address: str, metrics: Metrics, stop: asyncio.Event, *,
                   deaf: bool) -> None:
    """A connection from *address* (a stranger's) that comes back a moment after the server
    drops or refuses it: idle (it never says hello), or *deaf* (a spectator that says hello and
    then never reads a byte, so its buffers fill and the server's sends block).

    Raw sockets, not a websocket library: thousands of them must cost the load generator
    next to nothing, or its own queueing would show up in the players' latencies."""
    host, _, rest = ws_url.removeprefix("ws://").partition(":")
    port = int(rest.split("/", 1)[0])
    request = _upgrade_request(ws_url)
    hello = _client_frame(json.dumps({"type": "hello", "protocol": 1, "role": "spectator"}))
    while not stop.is_set():
        writer = None
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection(host, port, local_addr=(address, 0)), 10)
            writer.write(request)
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
            if not head.startswith(b"HTTP/1.1 101"):
                raise ConnectionError("refused")
            if deaf:
                metrics.deaf_connects += 1
                writer.write(hello)  # and never read again
                closed = asyncio.create_task(stop.wait())
                await closed
            else:
                metrics.attacker_connects += 1
                gone = asyncio.create_task(reader.read())  # until the server drops it
                halt = asyncio.create_task(stop.wait())
                await asyncio.wait({gone, halt}, return_when=asyncio.FIRST_COMPLETED)
                gone.cancel()
                halt.cancel()
        except (OSError, ConnectionError, TimeoutError, asyncio.IncompleteReadError,
                asyncio.LimitOverrunError):
            pass
        finally:
            if writer is not None:
                writer.close()
        await asyncio.sleep(2.0)


# --- the run --------------------------------------------------------------------------------


def _percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


async def run_load(tables: int, players: int, seconds: float, warmup: float,
                   think: tuple[float, float], seed: int, attackers: int = 0, deaf: int = 0,
                   per_table: bool = False,
                   server_cpu: int | None = None, compress: bool = True) -> dict[str, Any]:
    rng = random.Random(seed)
    load_before = os.getloadavg()[0]
    metrics = Metrics()
    stop = asyncio.Event()
    with tempfile.TemporaryDirectory(prefix="feltro-load-") as data:
        server = Server(Path(data), server_cpu, compress)
        try:
            await server.wait_ready()
            setup_started = time.perf_counter()
            async with httpx.AsyncClient(trust_env=False, timeout=10.0) as http:
                limit = asyncio.Semaphore(10)

                async def one() -> tuple[TableRun, list[tuple[ClientConnection, int]]]:
                    async with limit:
                        return await seat_table(server, http, players, metrics)

                # (Table creation is rate-limited per address, except from the server's own
                # machine: the host at the laptop is trusted, the load test runs there.)
                seated = await asyncio.gather(*(one() for _ in range(tables)))
            setup = time.perf_counter() - setup_started
            clients = [(ws, seat, run) for run, group in seated for ws, seat in group]
            tasks = [asyncio.create_task(play(ws, seat, run, think, random.Random(rng.random()),
                                              stop))
                     for ws, seat, run in clients]
            # The attackers are strangers on the LAN: other addresses than the players'
            # (127.0.0.2 and up, still this machine's loopback), one per table.
            for n, (run, _) in enumerate(seated):
                ws_url = f"ws://127.0.0.1:{server.port}/ws/{run.table_id}"
                address = f"127.0.{1 + n // 250}.{2 + n % 250}"
                idle = (attackers if per_table
                        else attackers // len(seated) + (n < attackers % len(seated)))
                tasks.extend(asyncio.create_task(stranger(ws_url, address, metrics, stop,
                                                          deaf=False))
                             for _ in range(idle))
                tasks.extend(asyncio.create_task(stranger(ws_url, address, metrics, stop,
                                                          deaf=True))
                             for _ in range(deaf))
            await asyncio.sleep(warmup)
            metrics.measuring = True
            cpu0, wall0 = server.cpu_seconds(), time.perf_counter()
            usage0 = resource.getrusage(resource.RUSAGE_SELF)
            frames0 = metrics.frames
            rss_samples = []
            end = wall0 + seconds
            while time.perf_counter() < end:
                await asyncio.sleep(min(1.0, max(0.0, end - time.perf_counter())))
                rss_samples.append(server.memory_mib()[0])
            metrics.measuring = False
            cpu1, wall1 = server.cpu_seconds(), time.perf_counter()
            usage1 = resource.getrusage(resource.RUSAGE_SELF)
            rss, peak = server.memory_mib()
            stop.set()
            for ws, _, _ in clients:
                await ws.close()
            await asyncio.gather(*tasks, return_exceptions=True)
        finally:
            server.stop()
    span = wall1 - wall0
    client_cpu = (usage1.ru_utime + usage1.ru_stime) - (usage0.ru_utime + usage0.ru_stime)
    return {
        "tables": tables, "players": players, "clients": len(clients), "seconds": span,
        "setup": setup, "think": think, "actions": metrics.actions,
        "frames": metrics.frames - frames0, "errors": metrics.errors,
        "all_clients": metrics.all_clients, "each_client": metrics.each_client,
        "server_cpu": (cpu1 - cpu0) / span, "client_cpu": client_cpu / span,
        "rss": rss, "rss_max_sampled": max(rss_samples or [rss]), "peak": peak,
        "load": (load_before, os.getloadavg()[0]),
        "attackers": attackers * (len(seated) if per_table else 1), "deaf": deaf,
        "attacker_connects": metrics.attacker_connects,
        "deaf_connects": metrics.deaf_connects, "server_cpu_pin": server_cpu,
        "compress": compress,
        "deal_gaps": metrics.deal_gaps, "contributions": metrics.contributions,
        "late_contributions": metrics.late_contributions,
    }


def _ms(value: float) -> str:
    return f"{value * 1000:.1f} ms"


def sections(result: dict[str, Any], label: str, goal_ms: float = 50.0) -> list[Section]:
    """The latency and resource tables of one run."""
    every, each = result["all_clients"], result["each_client"]
    p99 = _percentile(every, 99)
    rows = [
        ["action → every client of the table", len(every), _ms(_percentile(every, 50)),
         _ms(_percentile(every, 90)), _ms(p99), _ms(max(every) if every else float("nan"))],
        ["action → each client", len(each), _ms(_percentile(each, 50)),
         _ms(_percentile(each, 90)), _ms(_percentile(each, 99)),
         _ms(max(each) if each else float("nan"))],
    ]
    verdict = "met" if p99 < goal_ms / 1000 else "NOT met"
    latency = Section(
        f"{label}: {result['tables']} tables × {result['players']} websocket clients "
        f"({result['clients']} connections), {result['seconds']:.0f} s measured",
        ("latency", "samples", "p50", "p90", "p99", "max"), rows,
        [f"goal: p99 under {goal_ms:.0f} ms from an action to every client's update: "
         f"{verdict} (p99 {_ms(p99)})",
         f"{result['actions']:,} actions ({result['actions'] / result['seconds']:.0f}/s), "
         f"{result['frames']:,} frames received ({result['frames'] / result['seconds']:,.0f}/s)"
         f", {result['errors']} error frames",
         f"clients think {result['think'][0]}–{result['think'][1]} s before each decision "
         f"(check or call mostly, raise 12%, fold 30% of bets faced); 0.5 s between hands",
         "every action is committed to SQLite (WAL, synchronous=FULL) before any client "
         "hears of it; untimed tables",
         f"setup (create tables, join, accept, start): {result['setup']:.1f} s",
         (f"under attack: {result['attackers']} idle sockets in all (never saying hello) and "
          f"{result['deaf']} never-reading spectators per table, back 2 s after a drop "
          f"({result['attacker_connects']:,} idle and {result['deaf_connects']:,} deaf "
          f"connections opened)") if result["attackers"] or result["deaf"]
         else "no attackers",
         ("server pinned to core 0, load generator to core 1"
          if result["server_cpu_pin"] is not None else "server and load share the cores"),
         "frames compressed (permessage-deflate, the server's default)" if result["compress"]
         else "frames not compressed (feltro serve --no-compress)"])
    resources = Section(
        f"{label}: server process", ("measure", "value"),
        [["CPU (user + system), share of one core", f"{result['server_cpu'] * 100:.0f}%"],
         ["resident memory at the end", f"{result['rss']:.0f} MiB"],
         ["resident memory, peak (VmHWM)", f"{result['peak']:.0f} MiB"],
         ["load generator CPU (same machine), share of one core",
          f"{result['client_cpu'] * 100:.0f}%"]],
        ["CPU and memory read from /proc/<pid>/stat and /proc/<pid>/status",
         f"machine load average (1 min) before / after: {result['load'][0]:.2f} / "
         f"{result['load'][1]:.2f} (other work on the machine shows up in the tails)",
         "the clients run in this one process, on the same 2 cores as the server: their "
         "own queueing is inside the figures"])
    gaps = result["deal_gaps"]
    deal = Section(
        f"{label}: last action of a hand → next deal", ("measure", "hands", "p50", "p90",
                                                         "p99", "max"),
        [["last action → first client sees the next hand", len(gaps),
          _ms(_percentile(gaps, 50)), _ms(_percentile(gaps, 90)), _ms(_percentile(gaps, 99)),
          _ms(max(gaps) if gaps else float("nan"))]],
        ["includes the tables' pause between hands: 0.5 s, and half as much again for each "
         "hand shown at a showdown, so that people can read it (subtract it for the server's "
         "own share: the deal, its commitments, the state to every client)",
         f"{result['contributions']:,} seals and values sent (each client seals while the "
         "next hand's seals are open and reveals once they close, as the phones do); "
         f"{result['late_contributions']:,} were refused (clients start reading only once "
         "every table is seated, so the first hand's seals mostly close before they answer)"
         if result["contributions"]
         else "no contributions (the server had no fair dealer)"])
    return [latency, deal, resources]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--think", type=float, nargs=2, default=(0.2, 1.0),
                        metavar=("MIN", "MAX"))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="20 tables, 10 s")
    parser.add_argument("--stress", action="store_true",
                        help="then a second run with clients thinking 0.02-0.1 s (headroom)")
    parser.add_argument("--attackers", type=int, default=0,
                        help="idle sockets that never say hello, spread over the tables")
    parser.add_argument("--attackers-per-table", action="store_true",
                        help="--attackers at every table instead of in all")
    parser.add_argument("--deaf", type=int, default=0,
                        help="spectators per table that never read a frame")
    parser.add_argument("--pin", action="store_true",
                        help="server on core 0, this load generator on core 1")
    parser.add_argument("--no-compress", action="store_true",
                        help="the server without per-message compression (feltro serve "
                             "--no-compress); the clients offer it, as browsers do")
    parser.add_argument("--name", default="server_load",
                        help="results file name in benchmarks/results/")
    args = parser.parse_args(argv)
    server_cpu = None
    if args.pin and (os.cpu_count() or 1) >= 2:
        server_cpu = 0
        os.sched_setaffinity(0, {1})
    if args.quick:
        args.tables, args.seconds, args.warmup = 20, 10.0, 2.0
    budget = args.seconds + args.warmup + 120 + args.tables  # setup scales with tables
    scenarios = [("paced", tuple(args.think))]
    if args.stress:
        scenarios.append(("stress", (0.02, 0.1)))
    tables: list[Section] = []
    for label, think in scenarios:
        result = asyncio.run(asyncio.wait_for(
            run_load(args.tables, args.players, args.seconds, args.warmup, think, args.seed,
                     args.attackers, args.deaf, args.attackers_per_table, server_cpu,
                     not args.no_compress),
            timeout=budget))
        for section in sections(result, label):
            print_section(section)
            tables.append(section)
    command = "python benchmarks/load_server.py " + " ".join(argv if argv is not None
                                                              else sys.argv[1:])
    info = machine_info(["fastapi", "uvicorn", "websockets", "pydantic"])
    path = write_results(args.name, "Server load (feltro serve)", tables, info,
                         command.strip())
    print(f"\nwritten: {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
