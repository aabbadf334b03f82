"""``feltro join``'s network client (:mod:`feltro.remote.client`, no UI) at a real
``feltro serve`` process, next to scripted phones: it asks for a seat, waits for the host,
plays a whole series, keeps its token (0600), survives the server's ``kill -9`` and restart
(new boot) and sees the results."""

from __future__ import annotations

import random
import stat
from contextlib import ExitStack
from pathlib import Path

import pytest
from realserver import LivePhone, ServerProcess
from remotekit import ThreadedSeat, accept_next, calm, host_of, play_phones, seat_phone

from feltro.remote.client import Phase, RemoteSeat
from feltro.remote.link import JoinLink, parse_link
from feltro.remote.seats import SeatBook


def _over(frame: dict[str, object]) -> bool:
    table = frame.get("table")
    return isinstance(table, dict) and table.get("status") == "over"


def _table_of_two(server: ServerProcess, closing: ExitStack,
                  tmp_path: Path) -> tuple[LivePhone, SeatBook, JoinLink]:
    """A new table of two seats, its host's connection, an empty seat book and the link."""
    created, host = host_of(server, seats=2)
    closing.callback(host.close)
    return host, SeatBook(tmp_path / "seats.json"), parse_link(created["join_url"])


def test_remote_seat_plays_a_series_to_the_end_with_phones(
        tmp_path: Path, live: ServerProcess, closing: ExitStack) -> None:
    created, host = host_of(live, seats=3, max_hands=6)
    closing.callback(host.close)
    seat, ana = seat_phone(live, created["table_id"], host, "Ana")
    closing.callback(ana.close)
    book = SeatBook(tmp_path / "home" / "seats.json")
    link = parse_link(created["join_url"])
    client = ThreadedSeat(RemoteSeat(link, "Rui", "pt-PT", book=book),
                          calm(random.Random(3)))
    closing.callback(client.stop)
    client.start()
    client.wait(lambda s: s.phase == Phase.PENDING and s.token is not None)
    assert book.get(link.key) == client.seat.token
    assert stat.S_IMODE(book.path.stat().st_mode) == 0o600
    accept_next(host, "Rui")
    client.wait(lambda s: s.phase == Phase.SEATED and s.seat is not None)
    host.send(type="start", id="go")
    final = play_phones(host, {seat: ana}, random.Random(5), _over)
    client.wait(lambda s: s.phase == Phase.OVER, timeout=30)
    assert client.join() == Phase.OVER
    assert client.acted, "the terminal client never played"
    mine = client.seat.state
    assert mine is not None
    assert mine["table"]["outcome"] == final["table"]["outcome"]
    assert sum(mine["table"]["outcome"]["stacks"].values()) == 2 * 200


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="POSIX signals")
def test_remote_seat_reconnects_after_kill9_and_resumes_with_its_token(
        tmp_path: Path, live: ServerProcess, closing: ExitStack) -> None:
    created, host = host_of(live, seats=2, max_hands=3)
    closing.callback(host.close)
    book = SeatBook(tmp_path / "seats.json")
    client = ThreadedSeat(RemoteSeat(parse_link(created["join_url"]), "Rui", book=book,
                                     backoff=(0.1, 0.2)))
    closing.callback(client.stop)
    client.start()
    client.wait(lambda s: s.phase == Phase.PENDING and s.token is not None)
    seat, ana = seat_phone(live, created["table_id"], host, "Ana")
    closing.callback(ana.close)
    accept_next(host, "Rui")
    client.wait(lambda s: s.phase == Phase.SEATED)
    host.send(type="start", id="go")
    client.wait(lambda s: s.state is not None and s.state["table"]["hand"] is not None)
    first_boot = client.seat.boot
    live.kill9()
    client.wait(lambda s: s.phase == Phase.RECONNECTING)
    live.start()
    client.wait(lambda s: s.phase == Phase.SEATED and s.boot != first_boot, timeout=40)
    assert client.seat.connections >= 2
    assert client.seat.state is not None
    assert client.seat.state["you"]["seat"] == client.seat.seat
    # the scripted host and phone reconnect too; the client now plays calmly to the end
    client.choose = calm(random.Random(9))
    client.stop()
    again = ThreadedSeat(RemoteSeat(parse_link(created["join_url"]), "Someone else",
                                    book=book), calm(random.Random(9)))
    closing.callback(again.stop)
    again.start()
    again.wait(lambda s: s.phase == Phase.SEATED)
    assert again.seat.seat == client.seat.seat, "the kept token resumes the same seat"
    client = again
    play_phones(host, {seat: ana}, random.Random(2), _over)
    client.wait(lambda s: s.phase == Phase.OVER, timeout=30)


def test_remote_seat_is_told_when_the_host_refuses(
        tmp_path: Path, live: ServerProcess, closing: ExitStack) -> None:
    host, book, link = _table_of_two(live, closing, tmp_path)
    client = ThreadedSeat(RemoteSeat(link, "Rui", book=book))
    closing.callback(client.stop)
    client.start()
    state = host.current(lambda f: f["type"] == "state" and bool(f["you"]["requests"]))
    host.send(type="refuse", request_id=state["you"]["requests"][0]["request_id"], id="no")
    client.wait(lambda s: s.phase == Phase.REFUSED)
    assert client.seat.problem is not None
    assert client.seat.problem.key == "join.refused"
    assert book.get(link.key) is None, "a refused request's token is forgotten"


def test_a_stale_token_is_forgotten_and_a_new_seat_asked_for(
        tmp_path: Path, live: ServerProcess, closing: ExitStack) -> None:
    _host, book, link = _table_of_two(live, closing, tmp_path)
    book.put(link.key, "x" * 32)  # a seat of a table long gone
    client = ThreadedSeat(RemoteSeat(link, "Rui", book=book))
    closing.callback(client.stop)
    client.start()
    client.wait(lambda s: s.phase == Phase.PENDING and s.token not in (None, "x" * 32))
    assert book.get(link.key) == client.seat.token


def test_an_unreachable_server_is_said_while_retrying(tmp_path: Path) -> None:
    from realserver import free_port

    link = parse_link(f"http://127.0.0.1:{free_port()}/join/Nobody")
    client = ThreadedSeat(RemoteSeat(link, "Rui", backoff=(0.05,)))
    client.start()
    try:
        client.wait(lambda s: s.phase == Phase.RECONNECTING and s.problem is not None)
        assert client.seat.problem is not None
        assert client.seat.problem.key == "join.failed"
    finally:
        client.stop()
