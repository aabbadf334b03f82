"""A real ``feltro serve`` process on a free loopback port, and a websocket client that
reconnects by itself (as the web client does), for the crash tests."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from feltro.server.outgoing import SERVER_MESSAGE

Frame = dict[str, Any]


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class ServerProcess:
    """``python -m feltro serve --port P --data D`` (127.0.0.1 only)."""

    data: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None
    log_level: str = "warning"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def command(self) -> list[str]:
        """The command line that starts the server."""
        return [sys.executable, "-m", "feltro", "serve", "--port", str(self.port), "--data",
                str(self.data), "--log-level", self.log_level]

    def client(self) -> httpx.Client:
        """An HTTP client that reaches the server."""
        return httpx.Client(trust_env=False, timeout=1.0)

    def start(self, timeout: float = 30.0) -> None:
        """Start and wait until ``/healthz`` answers."""
        env = dict(os.environ)
        env.pop("FELTRO_PORT", None)
        self.process = subprocess.Popen(self.command(), stdout=subprocess.DEVNULL,
                                        stderr=subprocess.PIPE, env=env)
        deadline = time.monotonic() + timeout
        with self.client() as client:
            while time.monotonic() < deadline:
                if self.process.poll() is not None:
                    raise RuntimeError(f"the server died: {self.stderr()}")
                with contextlib.suppress(httpx.HTTPError):
                    if client.get(f"{self.url}/healthz").text == "ok":
                        return
                time.sleep(0.05)
        raise TimeoutError("the server did not start")

    def kill9(self) -> None:
        """``kill -9``: no shutdown code runs."""
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        """A polite stop (SIGTERM), then SIGKILL if needed."""
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)

    def stderr(self) -> str:
        if self.process is None or self.process.stderr is None:
            return ""
        with contextlib.suppress(Exception):
            return self.process.stderr.read().decode(errors="replace")[-2000:]
        return ""

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        with httpx.Client(trust_env=False, timeout=5.0) as client:
            response = client.post(f"{self.url}{path}", json=body)
            response.raise_for_status()
            data: dict[str, Any] = response.json()
            return data


@dataclass
class LivePhone:
    """A websocket client that says hello again by itself after the connection drops."""

    server: ServerProcess
    table_id: str
    role: str = "spectator"
    token: str | None = None
    state: Frame | None = None
    frames: list[Frame] = field(default_factory=list)
    reconnects: int = 0
    _ws: ClientConnection | None = None

    def connect(self, timeout: float = 20.0) -> None:
        """(Re)connect with backoff until the server answers, then hello."""
        deadline = time.monotonic() + timeout
        delay = 0.05
        while True:
            try:
                self._ws = connect(f"ws://127.0.0.1:{self.server.port}/ws/{self.table_id}",
                                   proxy=None, open_timeout=2, legacy=True)
                break
            except (OSError, TimeoutError, ConnectionClosed):
                if time.monotonic() > deadline:
                    raise
                time.sleep(delay)
                delay = min(delay * 2, 0.5)
        hello: dict[str, Any] = {"type": "hello", "protocol": 1, "role": self.role}
        if self.token:
            hello["token"] = self.token
        self._ws.send(json.dumps(hello))

    def send(self, **message: Any) -> None:
        assert self._ws is not None
        try:
            self._ws.send(json.dumps(message))
        except ConnectionClosed:
            self.reconnects += 1
            self.connect()
            self._ws.send(json.dumps(message))

    def recv(self, timeout: float = 10.0) -> Frame:
        """The next frame; a dropped connection is re-opened (and hello said) on the way."""
        deadline = time.monotonic() + timeout
        while True:
            assert self._ws is not None
            try:
                text = self._ws.recv(timeout=max(0.01, deadline - time.monotonic()))
            except ConnectionClosed:
                self.reconnects += 1
                self.connect()
                continue
            frame: Frame = json.loads(text)
            SERVER_MESSAGE.validate_python(frame)
            self.frames.append(frame)
            if frame["type"] == "state":
                self.state = frame
            return frame

    def until(self, predicate: Callable[[Frame], bool], timeout: float = 10.0) -> Frame:
        deadline = time.monotonic() + timeout
        while True:
            frame = self.recv(max(0.01, deadline - time.monotonic()))
            if predicate(frame):
                return frame

    def current(self, predicate: Callable[[Frame], bool], timeout: float = 10.0) -> Frame:
        if self.state is not None and predicate(self.state):
            return self.state
        return self.until(predicate, timeout)

    def drain(self, quiet: float = 0.2) -> None:
        with contextlib.suppress(TimeoutError):
            while True:
                self.recv(quiet)

    def close(self) -> None:
        if self._ws is not None:
            with contextlib.suppress(Exception):
                self._ws.close()
