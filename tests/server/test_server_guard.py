"""The server's outer wall (feltro.server.guard) against a hostile network: foreign host names
(DNS rebinding), huge or endless bodies, cross-site state changes, request floods."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from srvkit import Harness, harness_at
from starlette.websockets import WebSocketDisconnect

from feltro.server.guard import (
    CONTENT_SECURITY_POLICY,
    Guard,
    GuardSettings,
    allowed_host_names,
    host_name,
)
from feltro.server.security import RedactingFilter, new_token

HOSTS = allowed_host_names(["192.168.1.20", "game.example.org"])
TABLE = {"between_hands_seconds": 0, "bot_seconds": 0, "action_seconds": None}


@pytest.fixture
def guarded(tmp_path: Path) -> Any:
    with harness_at(tmp_path / "data", allowed_hosts=HOSTS) as h:
        yield h


def _post(h: Harness, body: Any = TABLE, **headers: str) -> Any:
    return h.client.post("/api/tables", json=body,
                         headers={"host": "192.168.1.20:8000", **headers})


@pytest.mark.parametrize(("header", "name"), [
    ("192.168.1.20:8000", "192.168.1.20"), ("LocalHost", "localhost"), ("[::1]:8000", "::1"),
    ("a.example.", "a.example"), ("", None), ("a:b", None), ("x@evil", None), ("[::1", None),
])
def test_host_names_are_normalised(header: str, name: str | None) -> None:
    assert host_name(header) == name


@pytest.mark.parametrize("host", ["attacker.example", "attacker.example:8000", "", "a b",
                                  "192.168.1.21:8000"])
def test_a_foreign_host_name_is_refused_over_http(guarded: Harness, host: str) -> None:
    response = guarded.client.get("/api/info", headers={"host": host})
    assert response.status_code == 421
    assert "address it printed" in response.json()["error"]
    assert "attacker" not in response.text  # nothing echoes the foreign name


@pytest.mark.parametrize("host", ["192.168.1.20:8000", "localhost:8000", "127.0.0.1:8000",
                                  "game.example.org", "[::1]:8000"])
def test_the_printed_addresses_and_localhost_are_served(guarded: Harness, host: str) -> None:
    assert guarded.client.get("/api/info", headers={"host": host}).status_code == 200


def test_a_foreign_host_name_cannot_open_a_websocket(guarded: Harness) -> None:
    created = _post(guarded).json()
    with pytest.raises(WebSocketDisconnect), guarded.client.websocket_connect(
            f"/ws/{created['table_id']}",
            headers={"host": "attacker.example:8000",
                     "origin": "http://attacker.example:8000"}) as ws:
        ws.receive_text()
    with guarded.client.websocket_connect(
            f"/ws/{created['table_id']}",
            headers={"host": "192.168.1.20:8000", "origin": "http://192.168.1.20:8000"}) as ws:
        ws.send_text('{"type":"ping","t":1}')
        assert '"pong"' in ws.receive_text()


def test_links_never_echo_an_unchecked_host(guarded: Harness) -> None:
    created = _post(guarded).json()
    assert created["join_url"].startswith("http://192.168.1.20:8000/join/")


def test_state_changes_must_be_json(guarded: Harness) -> None:
    response = guarded.client.post("/api/tables", content=b'{"seats": 4}',
                                   headers={"host": "192.168.1.20:8000",
                                            "content-type": "text/plain"})
    assert response.status_code == 415
    assert guarded.manager.rooms == {}
    assert guarded.client.post("/api/qr", content=b'{"text": "x"}',
                               headers={"host": "localhost"}).status_code == 415


def test_cross_site_state_changes_are_refused(guarded: Harness) -> None:
    foreign = _post(guarded, origin="http://attacker.example")
    assert foreign.status_code == 403
    other_scheme = _post(guarded, origin="https://192.168.1.20:8000")
    assert other_scheme.status_code == 403
    assert guarded.manager.rooms == {}
    assert _post(guarded, origin="http://192.168.1.20:8000").status_code == 201
    assert _post(guarded).status_code == 201  # scripts send no Origin


def test_a_huge_declared_body_is_refused_before_it_is_read() -> None:
    reached: list[str] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        reached.append("app")

    async def receive() -> dict[str, Any]:
        raise AssertionError("the body must not be read")

    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    guard = Guard(app, GuardSettings(max_body_bytes=1024), now=lambda: 0.0)
    scope = {"type": "http", "method": "POST", "path": "/api/tables", "client": ("10.0.0.9", 1),
             "headers": [(b"host", b"x"), (b"content-type", b"application/json"),
                         (b"content-length", str(200 * 1024 * 1024).encode())]}
    asyncio.run(guard(scope, receive, send))
    assert reached == []
    assert sent[0]["status"] == 413


def test_a_chunked_body_is_cut_off_at_the_limit(guarded: Harness) -> None:
    def chunks() -> Any:
        for _ in range(10_000):  # 10 MB if it were all read
            yield b" " * 1024

    response = guarded.client.post("/api/tables", content=chunks(),
                                   headers={"host": "localhost",
                                            "content-type": "application/json"})
    assert response.status_code == 413
    assert guarded.manager.rooms == {}


def test_every_route_is_rate_limited_per_address(tmp_path: Path) -> None:
    with harness_at(tmp_path / "data", request_burst=30.0) as h:
        statuses = [h.client.get("/api/info").status_code for _ in range(40)]
        assert statuses[:30] == [200] * 30
        assert set(statuses[30:]) == {429}
        refused = h.client.get("/api/info")
        assert refused.headers["retry-after"] == "1"
        assert h.client.post("/api/qr", json={"text": "x"}).status_code == 429
        h.clock.advance(1.0)  # 20 requests a second come back
        assert h.client.get("/api/info").status_code == 200


def test_rate_memory_is_bounded() -> None:
    async def app(scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": 204, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b""}

    async def send(message: dict[str, Any]) -> None:
        pass

    guard = Guard(app, GuardSettings(max_addresses=100), now=lambda: 0.0)

    async def many() -> None:
        for i in range(1000):
            await guard({"type": "http", "method": "GET", "path": "/", "headers": [],
                         "client": (f"10.0.{i // 256}.{i % 256}", 1)}, receive, send)

    asyncio.run(many())
    assert len(guard._buckets) == 100


def test_pages_carry_a_content_security_policy(guarded: Harness) -> None:
    response = guarded.client.get("/", headers={"host": "localhost"})
    assert response.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    assert "'unsafe-inline'" not in CONTENT_SECURITY_POLICY
    assert response.headers["x-frame-options"] == "DENY"
    refused = guarded.client.get("/", headers={"host": "evil"})
    assert refused.headers["content-security-policy"] == CONTENT_SECURITY_POLICY


def test_access_log_lines_survive_redaction_at_info_level() -> None:
    from uvicorn.logging import AccessFormatter

    token = new_token()
    record = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1,
                               '%s - "%s %s HTTP/%s" %d',
                               ("127.0.0.1:5000", "GET", f"/x/{token}", "1.1", 200), None)
    RedactingFilter().filter(record)
    line = AccessFormatter('%(client_addr)s - "%(request_line)s" %(status_code)s',
                           use_colors=False).format(record)
    assert token not in line
    assert "GET /x/[redacted] HTTP/1.1" in line
    assert "200" in line


_METHODS = st.sampled_from(["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"])
_PATHS = st.sampled_from(["/", "/api/info", "/api/tables", "/api/qr", "/api/tables/x",
                          "/api/tables/x/histories", "/api/tables/x/chips", "/healthz",
                          "/host/x", "/static/../../etc/passwd", "/api/tables/x/qr.svg"])
_HEADER_VALUES = st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=40)


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(method=_METHODS, path=_PATHS, body=st.binary(max_size=300),
       content_type=st.sampled_from(["application/json", "text/plain", "", "application/x"]),
       origin=st.none() | _HEADER_VALUES, host=st.sampled_from(["localhost", "evil", ""]))
def test_random_requests_get_a_clear_answer_and_change_nothing(
        guarded: Harness, method: str, path: str, body: bytes, content_type: str,
        origin: str | None, host: str) -> None:
    before = set(guarded.manager.rooms)
    headers = {"host": host, "content-type": content_type}
    if origin is not None:
        headers["origin"] = origin
    response = guarded.client.request(method, path, content=body, headers=headers)
    assert response.status_code < 500, response.text
    if host != "localhost":
        assert response.status_code == 421
    if response.status_code >= 400 and method != "HEAD" and \
            response.headers.get("content-type", "").startswith("application/json"):
        assert isinstance(response.json()["error"], str)
    if response.status_code != 201:
        assert set(guarded.manager.rooms) == before


@pytest.mark.parametrize("path", ["/", "/host/x", "/join/x", "/play/x", "/table/x",
                                  "/rules/en", "/rules/pt-PT", "/rules?lang=pt-BR"])
def test_pages_need_nothing_the_policy_forbids(harness: Harness, path: str) -> None:
    """No inline style or script, no handler attributes: with the CSP they would not run."""
    import re

    page = harness.client.get(path).text
    assert "<style" not in page
    assert not re.search(r"\sstyle\s*=", page)
    assert not re.search(r"\son[a-z]+\s*=", page)
    for tag in re.findall(r"<script\b[^>]*>", page):
        assert "src=" in tag or 'type="application/json"' in tag, tag


def test_websocket_upgrades_share_the_address_budget_except_from_loopback() -> None:
    opened: list[str] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        opened.append(scope["client"][0])

    async def receive() -> dict[str, Any]:
        return {"type": "websocket.connect"}

    closes: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        closes.append(message)

    guard = Guard(app, GuardSettings(upgrade_burst=5, upgrades_per_second=1), now=lambda: 0.0)

    async def upgrades(address: str, count: int) -> None:
        for _ in range(count):
            await guard({"type": "websocket", "path": "/ws/t", "client": (address, 1),
                         "headers": [(b"host", b"x")]}, receive, send)

    asyncio.run(upgrades("10.0.0.8", 8))
    assert opened.count("10.0.0.8") == 5
    assert len(closes) == 3
    asyncio.run(upgrades("127.0.0.1", 50))  # a tunnel's friends all come from here
    assert opened.count("127.0.0.1") == 50
