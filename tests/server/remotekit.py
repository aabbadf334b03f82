"""A ``feltro join`` client (:class:`feltro.remote.client.RemoteSeat`) driven in-process on
its own event loop thread, next to scripted phones at a real ``feltro serve`` process."""

from __future__ import annotations

import asyncio
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from realserver import Frame, LivePhone, ServerProcess

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
