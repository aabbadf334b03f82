"""The network side of ``feltro join``: one seat of a ``feltro serve`` table over the websocket
protocol of ``docs/protocol.md`` (the same messages as the phones'), with no user interface.

:class:`RemoteSeat` connects, says ``hello`` (with the seat token kept in the user's
:class:`~feltro.remote.seats.SeatBook`, else as a spectator that asks for a seat by name),
waits for the host, keeps the latest ``state``, sends actions for the turn it was shown and
reconnects by itself after a network loss (a new ``boot`` means the server restarted; within
one boot an older ``version`` is never shown over a newer one). An action sent just before a
drop is sent again with the same ``id`` after reconnecting: the server applies it once.

Interfaces watch it through :meth:`RemoteSeat.changed` (an :class:`asyncio.Condition`-like
wait) or the *on_change* callback; nothing here prints or reads the keyboard.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import ssl
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final
from urllib.parse import urlsplit

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from feltro.remote.fairplay import Contributor, DealChecker, bad_cards
from feltro.remote.link import JoinLink
from feltro.remote.seats import SeatBook
from feltro.remote.untrusted import MalformedFrameError, clean, parse_frame

__all__ = ["Phase", "Problem", "RemoteSeat", "certificate_problem", "first_contact"]

Frame = dict[str, Any]

PROTOCOL: Final = 1
BACKOFF: Final = (0.2, 0.5, 1.0, 2.0, 3.0, 5.0)
"""Seconds between reconnection attempts (the last one repeats)."""
_FINAL_BYE: Final = frozenset({"revoked", "replaced"})
"""``bye`` codes after which reconnecting by itself would be wrong."""


class Phase:
    """Where the seat stands (plain strings, so that interfaces word them from the catalogue
    as ``join.phase.<phase>``)."""

    CONNECTING = "connecting"
    PENDING = "pending"
    """Asked for a seat; the host has not answered."""
    SEATED = "seated"
    RECONNECTING = "reconnecting"
    OVER = "over"
    """The series is over (the final state is kept)."""
    REFUSED = "refused"
    """The host refused the request."""
    ENDED = "ended"
    """The client stopped for good (see :attr:`RemoteSeat.problem`)."""


@dataclass(frozen=True, slots=True)
class Problem:
    """Why the client stopped or what was refused, as data: a catalogue key and its fields, or
    a protocol ``error`` (its ``code`` and ``refusal``) — never an English sentence to parse."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)
    code: str | None = None
    refusal: dict[str, Any] | None = None


class RemoteSeat:
    """One seat at a remote table (see the module docstring).

    :param link: the table (:func:`feltro.remote.link.parse_link`).
    :param name: the name to ask a seat with when there is no token for this table.
    :param lang: the language of the server's hand names (``en``, ``pt-PT``, ``pt-BR``).
    :param book: where seat tokens are kept (``None``: nowhere, for tests).
    :param ssl_context: for ``wss://`` (default: the system's trusted authorities; Python
        honours ``SSL_CERT_FILE``).
    :param on_change: called (with no argument) after every change of what the client knows.
    """

    def __init__(self, link: JoinLink, name: str | None, lang: str = "en", *,
                 book: SeatBook | None = None, ssl_context: ssl.SSLContext | None = None,
                 on_change: Callable[[], None] | None = None,
                 backoff: tuple[float, ...] = BACKOFF) -> None:
        self.link = link
        self.name = name
        self.lang = lang
        self.book = book
        self.ssl_context = ssl_context
        self.on_change = on_change
        self.backoff = backoff
        self.phase = Phase.CONNECTING
        self.state: Frame | None = None
        self.boot: str | None = None
        self.seat: int | None = None
        self.problem: Problem | None = None
        """The last refusal or failure, for the interface to word."""
        self.connections = 0
        """How many times a connection was opened (1 + reconnections)."""
        self.token = link.token or (book.get(link.key) if book is not None else None)
        self._ws: ClientConnection | None = None
        self._pending_act: Frame | None = None
        self._sent_on = 0
        self._contributor = Contributor()
        self.checker = DealChecker()
        """This terminal's own check of every deal (its fingerprint is the one shown)."""
        self._alarmed: set[tuple[int, str]] = set()
        self.alarms: list[dict[str, Any]] = []
        """The failed deal checks this terminal computed itself (``hand``, ``seat``,
        ``check``), shown on its screen for the whole night whether or not the server passes
        them on (``table.fair.alarms``)."""
        self.bad_cards: dict[int, list[str]] = {}
        """Verifiable shuffle: by hand, the cards seen that do not match the commitments."""
        self._version = -1
        self._stop = asyncio.Event()
        self._changed = asyncio.Event()
        self._ids = 0

    # --- what interfaces read ---------------------------------------------------------------

    @property
    def legal(self) -> Frame | None:
        """The legal actions when it is this seat's turn (``you.legal``), else ``None``."""
        if self.state is None:
            return None
        legal: Frame | None = self.state["you"].get("legal")
        return legal

    @property
    def table(self) -> Frame | None:
        """The public table of the latest state."""
        return None if self.state is None else self.state["table"]

    @property
    def done(self) -> bool:
        """Whether the client stopped for good (series over, refused, revoked...)."""
        return self.phase in (Phase.OVER, Phase.REFUSED, Phase.ENDED)

    async def changed(self, predicate: Callable[[RemoteSeat], bool],
                      timeout: float | None = None) -> None:
        """Wait until *predicate* holds of this client.

        :raises TimeoutError: after *timeout* seconds.
        """
        async with asyncio.timeout(timeout):
            while not predicate(self):
                self._changed.clear()
                await self._changed.wait()

    # --- commands ---------------------------------------------------------------------------

    async def act(self, action: str, to: int | None = None) -> bool:
        """Play *action* (``fold``, ``check``, ``call``, ``raise`` with *to*, the street total)
        for the turn shown now. ``False`` when it is not this seat's turn (nothing sent)."""
        legal = self.legal
        if legal is None:
            return False
        message: Frame = {"type": "act", "id": f"t{legal['hand']}-{legal['turn']}",
                          "hand": legal["hand"], "turn": legal["turn"], "action": action}
        if action == "raise":
            message["to"] = to
        self._pending_act = message
        self._sent_on = self.connections
        self.problem = None
        await self._send(message)
        return True

    @property
    def may_show(self) -> bool:
        """Whether the server offers to show the hand this seat won uncontested (P8,
        ``you.may_show``)."""
        return self.state is not None and bool(self.state["you"].get("may_show"))

    @property
    def show_losers(self) -> bool:
        """Whether this seat chose to show its cards at the showdown even when it loses (P8,
        D11, ``you.show_losers``), as the server keeps it."""
        return self.state is not None and bool(self.state["you"].get("show_losers"))

    async def show(self) -> bool:
        """Show the hand this seat won uncontested (``show``, P8) when the server offers it;
        ``False`` when it does not (nothing sent). A refusal comes back as :attr:`problem`."""
        if not self.may_show:
            return False
        self.problem = None
        await self.send("show")
        return True

    async def choose_show_losers(self, on: bool) -> None:
        """Show this seat's cards at the showdown even when it loses (*on*), or muck such a
        hand (the default), from the next deal (``show_losers``, P8, D11)."""
        self.problem = None
        await self.send("show_losers", on=on)

    async def send(self, kind: str, **fields: Any) -> None:
        """Send another message (``away``, ``back``, ``set_lang``...)."""
        self._ids += 1
        await self._send({"type": kind, "id": f"{kind}-{self._ids}", **fields})

    async def set_lang(self, lang: str) -> None:
        """Change the language of the server's hand names."""
        self.lang = lang
        await self.send("set_lang", lang=lang)

    def stop(self) -> None:
        """Close the connection and end :meth:`run`."""
        self._stop.set()
        if self._ws is not None:
            asyncio.get_running_loop().create_task(self._ws.close())

    # --- the connection ---------------------------------------------------------------------

    async def run(self) -> str:
        """Play until the series is over, the host refuses, or :meth:`stop`; reconnects after
        every network loss. Returns the final :attr:`phase`."""
        attempt = 0
        options: dict[str, Any] = {}
        if self.link.secure:
            options["ssl"] = self.ssl_context or ssl.create_default_context()
        while not self._stop.is_set() and not self.done:
            try:
                async with connect(self.link.ws_url, proxy=None, open_timeout=10,
                                   compression=None, max_size=4 * 1024 * 1024,
                                   **options) as ws:
                    attempt = 0
                    await self._converse(ws)
            except (OSError, TimeoutError, ConnectionClosed, InvalidHandshake) as exc:
                if self._failed(exc):
                    break
            except (InvalidURI, ValueError) as exc:
                self._end("join.failed", reason=str(exc))
                break
            finally:
                self._ws = None
            if self._stop.is_set() or self.done:
                break
            self.phase = Phase.RECONNECTING
            self._notify()
            delay = self.backoff[min(attempt, len(self.backoff) - 1)]
            attempt += 1
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stop.wait(), delay)
        if not self.done:
            self.phase = Phase.ENDED
        self._notify()
        return self.phase

    async def _converse(self, ws: ClientConnection) -> None:
        """One connection: say hello, then take every frame until it closes or the end."""
        self._ws = ws
        self.connections += 1
        if self.problem is not None and self.problem.key == "join.failed":
            self.problem = None
        await self._hello(ws)
        async for text in ws:
            try:
                self._receive(parse_frame(text))
            except (MalformedFrameError, KeyError, TypeError, ValueError, AttributeError,
                    IndexError) as exc:  # not what a feltro server sends: say so, reconnect
                what = exc.what if isinstance(exc, MalformedFrameError) else type(exc).__name__
                self.problem = Problem("join.bad_frame", {"what": what})
                self._notify()
                await ws.close()
                return
            if self.done or self._stop.is_set():
                break

    def _failed(self, exc: Exception) -> bool:
        """A connection that failed: ``True`` when retrying cannot help (an untrusted
        certificate, a refused handshake); else the reason is kept while trying again."""
        if isinstance(exc, ssl.SSLCertVerificationError):
            self._ended(certificate_problem(exc))
            return True
        if isinstance(exc, InvalidHandshake) and _status(exc) in (403, 404, 421):
            self._end("join.refused_handshake", status=_status(exc))
            return True
        if not isinstance(exc, ConnectionClosed):  # say why while trying again
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror \
                else str(exc) or type(exc).__name__
            self.problem = Problem("join.failed", {"reason": clean(reason, 200)})
        return False

    async def _hello(self, ws: ClientConnection) -> None:
        hello: Frame = {"type": "hello", "protocol": PROTOCOL, "lang": self.lang, "id": "hello"}
        if self.token:
            hello.update(role="player", token=self.token)
        else:
            hello["role"] = "spectator"
        await ws.send(json.dumps(hello))

    async def _send(self, message: Frame) -> None:
        ws = self._ws
        if ws is None:
            return  # reconnecting: an action is sent again once the new state shows its turn
        with contextlib.suppress(ConnectionClosed):
            await ws.send(json.dumps(message))

    def _receive(self, frame: Frame) -> None:
        kind = frame.get("type")
        if kind == "welcome":
            self._welcome(frame)
        elif kind == "state":
            self._state(frame)
        elif kind == "seat_request":
            self._seat_request(frame)
        elif kind == "error":
            self._error(frame)
        elif kind == "bye":
            self._bye(frame)
        elif kind == "ack" and frame.get("ref") == (self._pending_act or {}).get("id"):
            self._pending_act = None
        self._notify()

    def _welcome(self, frame: Frame) -> None:
        if frame.get("boot") != self.boot:  # a restarted server counts versions afresh
            self.boot = frame.get("boot")
            self._version = -1
        self.seat = frame.get("seat")
        role = frame.get("role")
        if role == "spectator" and self.name is not None:
            self.phase = Phase.PENDING
            asyncio.get_running_loop().create_task(
                self._send({"type": "join", "name": self.name, "id": "join"}))
        elif role == "pending":
            self.phase = Phase.PENDING
        elif role == "player":
            self.phase = Phase.SEATED

    def _state(self, frame: Frame) -> None:
        if frame.get("boot") != self.boot:
            self.boot, self._version = frame.get("boot"), -1
        version = int(frame.get("version", 0))
        if version < self._version:
            return  # an older state never replaces a newer one
        self._version = version
        self.state = frame
        if self.problem is not None and self.problem.key == "join.bad_frame":
            self.problem = None  # a readable state again: the line has done its job
        you = frame["you"]
        if you.get("role") == "player":
            self.seat = you.get("seat")
            self.phase = Phase.SEATED
        elif you.get("role") == "pending":
            self.phase = Phase.PENDING
        self._fairness(frame)
        if frame["table"]["status"] == "over":
            self.phase = Phase.OVER
            return
        self._resend_pending()

    def _fairness(self, frame: Frame) -> None:
        """Contribute randomness to the next hand; check every card seen (``fairplay``)."""
        due = self._contributor.due(frame) if self._ws is not None else None
        if due is not None:
            asyncio.get_running_loop().create_task(self._send(due))
        bad = bad_cards(frame)
        hand = frame["table"].get("hand")
        if bad and hand is not None:
            seen = self.bad_cards.setdefault(int(hand["number"]), [])
            seen.extend(card for card in bad if card not in seen)
        for check in sorted(self.checker.check(frame, self._contributor)):
            assert hand is not None  # a failed check is about the hand on screen
            key = (int(hand["number"]), check)
            alarm = {"hand": key[0], "seat": frame["you"].get("seat"), "check": check}
            if alarm not in self.alarms:  # on this screen at once, however the server answers
                self.alarms.append(alarm)
            if key not in self._alarmed and self._ws is not None:  # told to everyone
                self._alarmed.add(key)
                asyncio.get_running_loop().create_task(self._send(
                    {"type": "fair_alarm", "hand": key[0], "check": check,
                     "id": f"alarm-{key[0]}-{check}"}))

    def _resend_pending(self) -> None:
        """After a reconnection: send again an action whose turn is still the one shown (same
        ``id``: the server applies it once)."""
        pending, legal = self._pending_act, self.legal
        if pending is None:
            return
        if legal is None or (legal["hand"], legal["turn"]) != (pending["hand"], pending["turn"]):
            self._pending_act = None  # that turn is over (or not ours): the state shows why
            return
        if self._sent_on < self.connections:
            self._sent_on = self.connections
            asyncio.get_running_loop().create_task(self._send(dict(pending)))

    def _seat_request(self, frame: Frame) -> None:
        token = frame.get("token")
        if token:
            if self.book is not None:
                self.book.put(self.link.key, token)
            self.token = token
        status = frame.get("status")
        if status == "accepted":
            self.seat = frame.get("seat")
            self.phase = Phase.SEATED
        elif status == "refused":
            self._forget()
            self.phase = Phase.REFUSED
            self.problem = Problem("join.refused")

    def _error(self, frame: Frame) -> None:
        code = frame.get("code")
        if frame.get("ref") == "hello" and code == "bad_token":
            if self.token is not None and self.name is not None:
                self._forget()  # an old seat of a finished or other table: ask anew
                self.problem = Problem("join.token_forgotten")
                ws = self._ws
                if ws is not None:  # the refused hello left this connection anonymous
                    asyncio.get_running_loop().create_task(self._hello(ws))
                return
            self._end("join.bad_token")
            return
        if frame.get("ref") == "join":
            self._end("join.join_refused", code=str(code))
            return
        if frame.get("ref") == (self._pending_act or {}).get("id"):
            self._pending_act = None
        if code == "stale":
            return  # the turn passed meanwhile: nothing was applied, the new state shows why
        # a refused seal or value (its reason in ``refusal``) is shown like any refusal
        self.problem = Problem("join.error", {"code": code}, code=str(code),
                               refusal=frame.get("refusal"))

    def _bye(self, frame: Frame) -> None:
        code = str(frame.get("code", ""))
        if code in _FINAL_BYE:
            if code == "revoked":
                self._forget()
            self._end(f"bye.{code}")

    def _forget(self) -> None:
        self.token = None
        if self.book is not None:
            self.book.forget(self.link.key)

    def _end(self, key: str, **params: Any) -> None:
        self._ended(Problem(key, params))

    def _ended(self, problem: Problem) -> None:
        self.problem = problem
        self.phase = Phase.ENDED
        self._stop.set()

    def _notify(self) -> None:
        self._changed.set()
        if self.on_change is not None:
            self.on_change()


_CERTIFICATE_WHY: Final = {
    2: "unknown_authority", 18: "unknown_authority", 19: "unknown_authority",
    20: "unknown_authority", 21: "unknown_authority", 62: "other_name", 64: "other_name",
    10: "expired", 9: "not_yet_valid"}
"""OpenSSL's verification codes (``X509_V_ERR_*``) -> why, as a word key
(``join.cert_why.<why>``); any other code keeps OpenSSL's own words as the detail."""


def certificate_problem(exc: ssl.SSLCertVerificationError) -> Problem:
    """Why a server's certificate is not trusted, as data for the interface to word."""
    return Problem("join.certificate", {"why": _CERTIFICATE_WHY.get(exc.verify_code or 0, ""),
                                        "detail": exc.verify_message or str(exc)})


def first_contact(link: JoinLink, ssl_context: ssl.SSLContext | None = None, *,
                  timeout: float = 10.0) -> Problem | None:
    """Reach *link*'s server once (TCP, and TLS for an https link) before any screen opens:
    what no retry fixes, as a :class:`Problem` (a certificate this computer does not trust,
    a name that does not resolve, nothing listening), else ``None``."""
    parts = urlsplit(link.ws_url)
    host = parts.hostname or ""
    port = parts.port or (443 if link.secure else 80)
    address = parts.netloc
    try:
        with socket.create_connection((host, port), timeout=timeout) as raw:
            if link.secure:
                context = ssl_context or ssl.create_default_context()
                with context.wrap_socket(raw, server_hostname=host):
                    pass
    except ssl.SSLCertVerificationError as exc:
        return certificate_problem(exc)
    except socket.gaierror:
        return Problem("join.unknown_host", {"host": host})
    except ConnectionRefusedError:
        return Problem("join.nothing_there", {"address": address})
    except (OSError, TimeoutError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror \
            else str(exc) or type(exc).__name__
        return Problem("join.failed", {"reason": reason})
    return None


def _status(exc: Exception) -> int | None:
    response = getattr(exc, "response", None)
    status = getattr(response, "status_code", None)
    return int(status) if isinstance(status, int) else None
