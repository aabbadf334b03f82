"""Test kit for the server: an in-process app on a fake clock, and scripted phones.

Every frame a :class:`Phone` receives is validated against the protocol's server models, so
each test also checks that the server says only what ``docs/protocol.md`` describes.
"""

from __future__ import annotations

import contextlib
import json
import random
import re
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio

with warnings.catch_warnings():  # newer Starlette prefers "httpx2", not installed here
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from feltro.server.app import ServerConfig, create_app
from feltro.server.budgets import Budgets
from feltro.server.clock import FakeClock
from feltro.server.outgoing import SERVER_MESSAGE
from feltro.server.rooms import RoomManager

CARD = re.compile(r"^[2-9TJQKA][cdhs]$")

Frame = dict[str, Any]


@dataclass
class Harness:
    """An app with a fake clock, served by Starlette's TestClient."""

    client: TestClient
    clock: FakeClock
    manager: RoomManager
    data_dir: Path
    phones: list[Phone] = field(default_factory=list)

    def create_table(self, **settings: Any) -> dict[str, Any]:
        """``POST /api/tables``; fast defaults for tests (no pauses, untimed unless asked)."""
        body = {"between_hands_seconds": 0, "bot_seconds": 0, "action_seconds": None}
        body.update(settings)
        response = self.client.post("/api/tables", json=body)
        assert response.status_code == 201, response.text
        data: dict[str, Any] = response.json()
        return data

    def phone(self, table_id: str, **headers: str) -> Phone:
        """A websocket to the table (not identified yet); closed with the harness."""
        phone = Phone(self.client, table_id, headers)
        self.phones.append(phone)
        return phone

    def host_table(self, **settings: Any) -> tuple[dict[str, Any], Phone]:
        """A new table (:meth:`create_table`) and its host's phone, said hello as the host."""
        created = self.create_table(**settings)
        host = self.phone(created["table_id"])
        host.hello("host", created["host_token"])
        return created, host

    def ask_seat(self, table_id: str, name: str, ref: str = "join") -> tuple[Phone, Frame]:
        """A visitor's phone that asks for a seat as *name*: the phone and the server's first
        answer to the request (pending, or accepted at once for the host)."""
        phone = self.phone(table_id)
        phone.hello()
        phone.send(type="join", name=name, id=ref)
        return phone, phone.until_type("seat_request")

    def game(self, table_id: str) -> Any:
        """The server's :class:`~feltro.server.live_table.LiveTable` (to read the truth in
        tests)."""
        return self.manager.rooms[table_id].table


@contextlib.contextmanager
def harness_at(data_dir: Path, clock: FakeClock | None = None,
               **options: Any) -> Iterator[Harness]:
    """A running app on *data_dir*: ``with harness_at(path) as h: ...``."""
    clock = clock or FakeClock()
    # The fake clock stands still, so per-connection rate limits would never refill during a
    # long scripted game: tests get a huge burst unless they test the limits themselves.
    options.setdefault("burst", 1_000_000.0)
    options.setdefault("request_burst", 1_000_000.0)
    options.setdefault("upgrade_burst", 1_000_000.0)
    options.setdefault("max_lobbies_per_address", 1_000)
    # The test client's address is not loopback: tests get the host's pace and no budgets
    # unless they test the budgets themselves.
    options.setdefault("budgets", Budgets(
        pause_unwatched_after=None, remote_between_hands=0, remote_bot_seconds=0,
        remote_max_hands=None, max_tables_per_address=1_000_000, reserved_for_host=0))
    config = ServerConfig(data_dir=data_dir, clock=clock, tick_interval=0.005, **options)
    app = create_app(config)
    with TestClient(app) as client:
        harness = Harness(client, clock, app.state.manager, data_dir)
        try:
            yield harness
        finally:
            for phone in harness.phones:  # an open test websocket keeps the app running
                phone.close()


@dataclass
class Phone:
    """One scripted websocket client."""

    client: TestClient
    table_id: str
    headers: dict[str, str]
    frames: list[Frame] = field(default_factory=list)
    raw: list[str] = field(default_factory=list)
    state: Frame | None = None
    token: str | None = None
    closed: bool = False

    def __post_init__(self) -> None:
        self._cm = self.client.websocket_connect(f"/ws/{self.table_id}", headers=self.headers)
        self.ws = self._cm.__enter__()

    # --- sending ----------------------------------------------------------------------------

    def send(self, **message: Any) -> None:
        """Send one JSON message."""
        self.ws.send_text(json.dumps(message))

    def send_raw(self, text: str | bytes) -> None:
        """Send a raw frame."""
        if isinstance(text, bytes):
            self.ws.send_bytes(text)
        else:
            self.ws.send_text(text)

    # --- receiving --------------------------------------------------------------------------

    def recv(self, timeout: float = 5.0) -> Frame:
        """The next frame (validated); raises TimeoutError when none comes."""
        session = self.ws

        async def get() -> Any:
            with anyio.fail_after(timeout):
                return await session._send_rx.receive()

        message = session.portal.call(get)
        if message["type"] == "websocket.close":
            raise ConnectionError(f"closed with code {message.get('code')}")
        self.raw.append(message["text"])
        frame: Frame = json.loads(message["text"])
        SERVER_MESSAGE.validate_python(frame)
        self.frames.append(frame)
        if frame["type"] == "state":
            self.state = frame
        return frame

    def until(self, predicate: Callable[[Frame], bool], timeout: float = 5.0,
              limit: int = 10_000) -> Frame:
        """Read frames until one satisfies *predicate*; return it."""
        for _ in range(limit):
            frame = self.recv(timeout)
            if predicate(frame):
                return frame
        raise AssertionError("no matching frame")

    def current(self, predicate: Callable[[Frame], bool], timeout: float = 5.0) -> Frame:
        """The latest state if it satisfies *predicate*, else the next frame that does."""
        if self.state is not None and predicate(self.state):
            return self.state
        return self.until(predicate, timeout)

    def until_type(self, kind: str, timeout: float = 5.0) -> Frame:
        """The next frame of *kind*."""
        return self.until(lambda f: f["type"] == kind, timeout)

    def reply(self, ref: str, timeout: float = 5.0) -> Frame:
        """The ``ack`` or ``error`` answering message *ref*."""
        return self.until(lambda f: f["type"] in ("ack", "error") and f.get("ref") == ref,
                          timeout)

    def drain(self, quiet: float = 0.05) -> list[Frame]:
        """Every frame that arrives until the line is quiet for *quiet* seconds."""
        got = []
        while True:
            try:
                got.append(self.recv(quiet))
            except TimeoutError:
                return got

    def hello(self, role: str = "spectator", token: str | None = None,
              lang: str = "en") -> Frame:
        """Say hello; returns the welcome (and reads the first state)."""
        message: dict[str, Any] = {"type": "hello", "protocol": 1, "role": role, "lang": lang,
                                   "id": "hello"}
        if token is not None:
            message["token"] = token
        self.send(**message)
        welcome = self.until(lambda f: f["type"] in ("welcome", "error"))
        if welcome["type"] == "welcome":
            self.until_type("state")
        return welcome

    def close(self) -> None:
        """Close the websocket (idempotent)."""
        if self.closed:
            return
        self.closed = True
        with contextlib.suppress(Exception):  # already closed by the server
            self._cm.__exit__(None, None, None)


def seat_table(h: Harness, humans: list[str], bots: tuple[str, ...] = (),
               start: bool = True, **settings: Any
               ) -> tuple[dict[str, Any], Phone, dict[int, Phone]]:
    """A table with *humans* seated by the host (seats 1..) and *bots* after them.

    Returns the creation answer, the host's phone and the players' phones by seat.
    """
    settings.setdefault("seats", max(2, len(humans) + len(bots)))
    created, host = h.host_table(**settings)
    players: dict[int, Phone] = {}
    for name in humans:
        phone, request = h.ask_seat(created["table_id"], name)
        phone.token = request["token"]
        host.send(type="accept", request_id=request["request_id"], id="acc")
        assert host.reply("acc")["type"] == "ack"
        accepted = phone.until(lambda f: f["type"] == "seat_request"
                               and f["status"] == "accepted")
        players[accepted["seat"]] = phone
    for kind in bots:
        host.send(type="add_bot", kind=kind, id="bot")
        assert host.reply("bot")["type"] == "ack"
    if start:
        host.send(type="start", id="start")
        assert host.reply("start")["type"] == "ack"
    return created, host, players


def legal_of(frame: Frame) -> dict[str, Any] | None:
    """The legal block of a state frame, if it is the receiver's turn."""
    if frame.get("type") != "state":
        return None
    legal: dict[str, Any] | None = frame["you"]["legal"]
    return legal


def random_action(legal: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A random legal ``act`` message for *legal*."""
    options: list[dict[str, Any]] = [{"action": "check" if legal["check"] else "call"}]
    if not legal["check"]:
        options.append({"action": "fold"})
    if legal["raise"] is not None:
        low, high = legal["raise"]["min"], legal["raise"]["max"]
        options.append({"action": "raise", "to": rng.randint(low, high)})
        options.append({"action": "raise", "to": high})
    choice = rng.choice(options)
    choice.update({"type": "act", "hand": legal["hand"], "turn": legal["turn"],
                   "id": f"a{legal['hand']}-{legal['turn']}"})
    return choice


def cards_in(value: Any) -> set[str]:
    """Every card-shaped string anywhere in a JSON value."""
    found: set[str] = set()
    if isinstance(value, str):
        if CARD.match(value):
            found.add(value)
    elif isinstance(value, dict):
        for item in value.values():
            found |= cards_in(item)
    elif isinstance(value, list):
        for item in value:
            found |= cards_in(item)
    return found


def wait_legal(phone: Phone, hand: int, turn: int, timeout: float = 5.0) -> dict[str, Any]:
    """The phone's legal block for turn (*hand*, *turn*), from its latest state or the next."""

    def matches(frame: Frame | None) -> bool:
        legal = legal_of(frame) if frame is not None else None
        return legal is not None and (legal["hand"], legal["turn"]) == (hand, turn)

    if not matches(phone.state):
        phone.until(matches, timeout)
    assert phone.state is not None
    legal: dict[str, Any] = phone.state["you"]["legal"]
    return legal


def drive(host: Phone, players: dict[int, Phone],
          choose: Callable[[dict[str, Any]], dict[str, Any]],
          done: Callable[[Frame], bool], max_frames: int = 50_000,
          timeout: float = 5.0) -> Frame:
    """Play until *done* is true of a state the host sees: whenever a human is to act, their
    phone sends ``choose(legal)`` (``act`` ids are per turn, so a repeat is harmless)."""
    acted: set[tuple[int, int]] = set()
    latest = host.state  # the newest state already read counts too
    for _ in range(max_frames):
        frame = latest if latest is not None else host.recv(timeout)
        latest = None
        if frame["type"] != "state":
            continue
        if done(frame):
            return frame
        hand = frame["table"]["hand"]
        if hand is None or hand["over"] or hand["to_act"] not in players:
            continue
        key = (hand["number"], hand["turn"])
        if key in acted:
            continue
        acted.add(key)
        phone = players[hand["to_act"]]
        legal = wait_legal(phone, *key, timeout=timeout)
        phone.send(**choose(legal))
    raise AssertionError("the game did not get there")


def passive(legal: dict[str, Any]) -> dict[str, Any]:
    """Check, else fold."""
    return {"type": "act", "id": f"p{legal['hand']}-{legal['turn']}", "hand": legal["hand"],
            "turn": legal["turn"], "action": "check" if legal["check"] else "fold"}


@contextlib.contextmanager
def from_address(h: Harness, address: str) -> Iterator[None]:
    """Requests and connections opened inside come from *address* (the test client's peer
    address)."""
    transport = h.client._transport
    before = transport.client
    transport.client = (address, 40000)
    try:
        yield
    finally:
        transport.client = before
