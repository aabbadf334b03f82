"""Finding tables on the LAN (mDNS/DNS-SD, ``zeroconf``): ``feltro serve --lan`` announces
itself and ``feltro join`` without a link lists the open tables it hears.

The multicast test runs on the loopback interface (zeroconf answers there on Linux): a real
``feltro serve --lan`` process announces on 127.0.0.1 (the hidden ``--announce-on``) and the
browser finds it. The record built and the listing logic are also tested without a network.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from remotekit import SecureServer

from feltro.remote.lan import (
    NearbyServer,
    NearbyTable,
    browse,
    choose,
    listing,
    pick_table,
    row_text,
    server_from_info,
    service_info,
)

pytest.importorskip("zeroconf", reason="zeroconf is in the server extra")


def test_service_record_carries_the_address_and_no_secret() -> None:
    info = service_info("feltro ana 8443", "192.168.1.20", 8443, scheme="https")
    assert info.type == "_feltro._tcp.local."
    assert info.parsed_addresses() == ["192.168.1.20"]
    assert set(info.properties) == {b"scheme", b"path", b"protocol", b"version"}
    server = server_from_info(info)
    assert server == NearbyServer("feltro ana 8443", "https://192.168.1.20:8443/")


def test_listing_shows_open_tables_and_skips_silent_servers() -> None:
    a = NearbyServer("a", "http://10.0.0.2:8000/")
    b = NearbyServer("b", "http://10.0.0.3:8000/")
    c = NearbyServer("c", "http://10.0.0.4:8000/")
    answers: dict[str, Any] = {
        a.base_url + "api/tables": [
            {"table_id": "Open1", "name": "Sexta", "status": "lobby", "seats": 6,
             "occupied": 2},
            {"table_id": "Busy1", "name": "Old", "status": "playing", "seats": 6,
             "occupied": 6}],
        b.base_url + "api/tables": [],
    }

    def fetch(url: str) -> Any:
        if url not in answers:
            raise OSError("no route to host")
        return answers[url]

    rows = listing([a, b, c], fetch)
    assert [(r.server.name, r.table_id) for r in rows] == [("a", "Open1"), ("b", None)]
    assert rows[0].join_url == "http://10.0.0.2:8000/join/Open1"
    assert row_text(1, rows[0], "pt-BR") == \
        "1. Sexta · a · 2/6 jogadores · lobby · http://10.0.0.2:8000"
    assert choose("", rows) is rows[0]
    assert choose("2", rows) is rows[1]
    assert choose("q", rows) is None
    assert choose("7", rows) == "7"


def test_pick_table_with_nothing_nearby_says_so(monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("feltro.remote.lan.browse", lambda seconds: [])
    assert pick_table("pt-PT", 0.1) is None
    assert "Nenhum servidor feltro respondeu" in capsys.readouterr().err


def test_pick_table_asks_until_a_listed_number(monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    server = NearbyServer("s", "http://10.0.0.2:8000/")
    monkeypatch.setattr("feltro.remote.lan.browse", lambda seconds: [server])
    monkeypatch.setattr("feltro.remote.lan.listing", lambda servers, fetch: [
        NearbyTable(server, "T1", "Sexta", 1, 6), NearbyTable(server, "T2", "Sábado", 0, 4)])
    answers = iter(["9", "2"])
    assert pick_table("en", 0.1, ask=lambda prompt: next(answers)) == \
        "http://10.0.0.2:8000/join/T2"
    out = capsys.readouterr()
    assert "2. Sábado · s · 0/4 players · lobby · http://10.0.0.2:8000" in out.out
    assert "“9” is not one of the numbers listed." in out.err


def test_serve_lan_is_announced_and_join_lists_its_table(tmp_path: Path) -> None:
    server = SecureServer(tmp_path / "data", scheme="http",
                          extra=["--lan", "--announce-on", "127.0.0.1"])
    server.start()
    try:
        created = server.post_at(f"http://127.0.0.1:{server.port}", "/api/tables",
                                 {"name": "Mesa da rede"})
        mine: list[NearbyServer] = []
        for _ in range(3):  # multicast may need a second look on a busy machine
            mine = [s for s in browse(2.0, interfaces=["127.0.0.1"])
                    if s.base_url == f"http://127.0.0.1:{server.port}/"]
            if mine:
                break
        assert mine, "the server was not heard on the loopback interface"
        import httpx

        def fetch(url: str) -> Any:
            return httpx.get(url, trust_env=False, timeout=3).json()

        rows = listing(mine, fetch)
        assert [(r.name, r.join_url) for r in rows] == [
            ("Mesa da rede", f"http://127.0.0.1:{server.port}/join/{created['table_id']}")]
    finally:
        server.stop()
