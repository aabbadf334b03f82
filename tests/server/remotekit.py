"""A ``feltro join`` client (:class:`feltro.remote.client.RemoteSeat`) driven in-process on
its own event loop thread, next to scripted phones at a real ``feltro serve`` process."""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import json
import os
import pty
import random
import ssl
import struct
import subprocess
import termios
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from realserver import Frame, LivePhone, ServerProcess
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from feltro.remote.client import RemoteSeat

Chooser = Callable[[dict[str, Any]], tuple[str, int | None]]


def calm(rng: random.Random) -> Chooser:
    """Check or call mostly, fold or raise now and then (keeps a series short but varied)."""

    def choose(legal: dict[str, Any]) -> tuple[str, int | None]:
        roll = rng.random()
        if legal["raise"] is not None and roll < 0.15:
            return "raise", rng.randint(legal["raise"]["min"], legal["raise"]["max"])
        if not legal["check"] and roll > 0.85:
            return "fold", None
        return ("check" if legal["check"] else "call"), None

    return choose


@dataclass
class ThreadedSeat:
    """Runs *seat* on an event loop in a thread; plays ``choose(legal)`` at each of its turns."""

    seat: RemoteSeat
    choose: Chooser | None = None
    result: str | None = None
    acted: list[tuple[int, int, str]] = field(default_factory=list)
    _loop: asyncio.AbstractEventLoop | None = None
    _thread: threading.Thread | None = None

    def start(self) -> None:
        ready = threading.Event()

        def main() -> None:
            async def body() -> None:
                self._loop = asyncio.get_running_loop()
                ready.set()
                player = asyncio.create_task(self._play()) if self.choose else None
                self.result = await self.seat.run()
                if player is not None:
                    player.cancel()

            asyncio.run(body())

        self._thread = threading.Thread(target=main, daemon=True)
        self._thread.start()
        ready.wait(10)

    async def _play(self) -> None:
        assert self.choose is not None
        done: set[tuple[int, int]] = set()
        while True:
            await self.seat.changed(lambda s: s.legal is not None
                                    and (s.legal["hand"], s.legal["turn"]) not in done)
            legal = self.seat.legal
            assert legal is not None
            done.add((legal["hand"], legal["turn"]))
            action, to = self.choose(legal)
            self.acted.append((legal["hand"], legal["turn"], action))
            await self.seat.act(action, to)

    def wait(self, predicate: Callable[[RemoteSeat], bool], timeout: float = 30.0) -> None:
        """Block until *predicate* holds of the seat."""
        deadline = time.monotonic() + timeout
        while not predicate(self.seat):
            if time.monotonic() > deadline:
                raise TimeoutError(f"the client is {self.seat.phase}, {self.seat.problem}")
            time.sleep(0.02)

    def join(self, timeout: float = 10.0) -> str | None:
        """Wait for :meth:`RemoteSeat.run` to return; its result."""
        if self._thread is not None:
            self._thread.join(timeout)
        return self.result

    def stop(self) -> None:
        if self._loop is not None and self._thread is not None and self._thread.is_alive():
            self._loop.call_soon_threadsafe(self.seat.stop)
            self._thread.join(10)


def host_of(server: ServerProcess, **settings: Any) -> tuple[dict[str, Any], LivePhone]:
    """A new table (fast and untimed unless asked) and its host's connection."""
    body: dict[str, Any] = {"between_hands_seconds": 0, "bot_seconds": 0,
                            "action_seconds": None}
    body.update(settings)
    created = server.post("/api/tables", body)
    host = LivePhone(server, created["table_id"], role="host", token=created["host_token"])
    host.connect()
    host.until(lambda f: f["type"] == "state")
    return created, host


def accept_next(host: LivePhone, name: str) -> None:
    """Accept the seat request of *name* once the host sees it."""
    state = host.current(lambda f: f["type"] == "state" and any(
        r["name"] == name for r in (f["you"]["requests"] or [])), timeout=20)
    request = next(r for r in state["you"]["requests"] if r["name"] == name)
    host.send(type="accept", request_id=request["request_id"], id=f"acc-{name}")
    host.until(lambda f: f.get("ref") == f"acc-{name}")


def seat_phone(server: ServerProcess, table_id: str, host: LivePhone,
               name: str) -> tuple[int, LivePhone]:
    """A scripted phone that asks for a seat as *name* and is accepted."""
    phone = LivePhone(server, table_id)
    phone.connect()
    phone.until(lambda f: f["type"] == "state")
    phone.send(type="join", name=name, id="join")
    request = phone.until(lambda f: f["type"] == "seat_request")
    phone.token, phone.role = request["token"], "player"
    host.send(type="accept", request_id=request["request_id"], id="ok")
    accepted = phone.until(lambda f: f["type"] == "seat_request" and f["status"] == "accepted")
    return int(accepted["seat"]), phone


def play_phones(host: LivePhone, phones: dict[int, LivePhone], rng: random.Random,
                done: Callable[[Frame], bool], timeout: float = 120.0) -> Frame:
    """Answer every phone's turn (check or call, sometimes fold) until *done* of a host state."""
    deadline = time.monotonic() + timeout
    acted: set[tuple[int, int]] = set()
    while time.monotonic() < deadline:
        frame = host.state if host.state is not None else host.recv()
        if done(frame):
            return frame
        hand = frame["table"]["hand"]
        if (hand is not None and not hand["over"] and hand["to_act"] in phones
                and (hand["number"], hand["turn"]) not in acted):
            key = (hand["number"], hand["turn"])
            acted.add(key)
            phone = phones[hand["to_act"]]
            mine = phone.current(lambda f, k=key: f["type"] == "state"
                                 and f["you"]["legal"] is not None
                                 and (f["you"]["legal"]["hand"], f["you"]["legal"]["turn"]) == k,
                                 timeout=20)
            legal = mine["you"]["legal"]
            action = "check" if legal["check"] else ("fold" if rng.random() < 0.2 else "call")
            phone.send(type="act", id=f"p{key[0]}-{key[1]}", hand=key[0], turn=key[1],
                       action=action)
        host.until(lambda f: f["type"] == "state", timeout=30)
    raise TimeoutError("the series did not end")


@dataclass
class SecureServer(ServerProcess):
    """``feltro serve`` with extra options (``--cert``/``--key``, ``--proxy``...), reached at
    *public* (``https://localhost:P``: the server itself, or a proxy in front of it) with the
    throwaway authority *ca* trusted."""

    extra: list[str] = field(default_factory=list)
    ca: Path | None = None
    scheme: str = "https"

    @property
    def url(self) -> str:
        return f"{self.scheme}://localhost:{self.port}"

    def client(self) -> httpx.Client:
        verify = ssl.create_default_context(cafile=str(self.ca)) if self.ca else True
        return httpx.Client(trust_env=False, timeout=5.0, verify=verify)

    def command(self) -> list[str]:
        return [*super().command(), *self.extra]

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        return self.post_at(self.url, path, body)

    def post_at(self, base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
        with self.client() as client:
            response = client.post(f"{base}{path}", json=body)
            response.raise_for_status()
            data: dict[str, Any] = response.json()
            return data


@dataclass
class SecurePhone(LivePhone):
    """A scripted phone over ``wss://`` (through whatever *ws_base* points at)."""

    ws_base: str = ""
    ssl_context: ssl.SSLContext | None = None

    def connect(self, timeout: float = 20.0) -> None:
        deadline = time.monotonic() + timeout
        while True:
            try:
                self._ws = connect(f"{self.ws_base}/ws/{self.table_id}", proxy=None,
                                   open_timeout=3, ssl=self.ssl_context, legacy=True)
                break
            except (OSError, TimeoutError, ConnectionClosed):
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        hello: dict[str, Any] = {"type": "hello", "protocol": 1, "role": self.role}
        if self.token:
            hello["token"] = self.token
        self._ws.send(json.dumps(hello))


def secure_phone(server: ServerProcess, table_id: str, ws_base: str,
                 context: ssl.SSLContext, role: str = "spectator",
                 token: str | None = None) -> SecurePhone:
    phone = SecurePhone(server, table_id, role=role, token=token, ws_base=ws_base,
                        ssl_context=context)
    phone.connect()
    phone.until(lambda f: f["type"] == "state")
    return phone


def seat_secure_phone(server: ServerProcess, table_id: str, ws_base: str,
                      context: ssl.SSLContext, host: LivePhone,
                      name: str) -> tuple[int, SecurePhone]:
    """A wss phone that asks for a seat as *name* and is accepted by *host*."""
    phone = secure_phone(server, table_id, ws_base, context)
    phone.send(type="join", name=name, id="join")
    request = phone.until(lambda f: f["type"] == "seat_request")
    phone.token, phone.role = request["token"], "player"
    host.send(type="accept", request_id=request["request_id"], id=f"ok-{name}")
    accepted = phone.until(lambda f: f["type"] == "seat_request" and f["status"] == "accepted")
    return int(accepted["seat"]), phone


class Terminal:
    """A process in a 100x30 pseudo-terminal; everything it writes is kept."""

    def __init__(self, args: list[str], env: dict[str, str]) -> None:
        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
        self.process = subprocess.Popen(args, stdin=slave, stdout=slave, stderr=slave, env=env,
                                        start_new_session=True, close_fds=True)
        os.close(slave)
        self.output = bytearray()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        with contextlib.suppress(OSError):
            while True:
                chunk = os.read(self.master, 65536)
                if not chunk:
                    return
                self.output.extend(chunk)

    def type(self, keys: bytes) -> None:
        with contextlib.suppress(OSError):
            os.write(self.master, keys)

    def text(self) -> str:
        return self.output.decode("utf-8", errors="replace")

    def play_series(self, key: bytes, play: Callable[[], Frame]) -> Frame:
        """Press *key* (the person's check or call) while *play* plays the other seats to the
        end of the series, then Enter until the results screen closes and the command exits
        with 0: *play*'s last host state. What the terminal showed is the failure's message."""
        stop = threading.Event()

        def press_keys() -> None:
            while not stop.is_set() and self.process.poll() is None:
                self.type(key)
                time.sleep(0.15)

        threading.Thread(target=press_keys, daemon=True).start()
        try:
            final = play()
        except TimeoutError:
            raise AssertionError(f"the terminal showed: {self.text()[-3000:]}") from None
        finally:
            stop.set()
        deadline = time.monotonic() + 30  # Enter closes the results screen once it is up
        while self.process.poll() is None and time.monotonic() < deadline:
            self.type(b"\r")
            time.sleep(0.3)
        assert self.process.wait(20) == 0, self.text()[-2000:]
        return final

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)
        with contextlib.suppress(OSError):
            os.close(self.master)
