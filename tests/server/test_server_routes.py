"""Each router of :mod:`feltro.server.routes` works mounted alone on a bare FastAPI app: it needs
nothing from ``create_app`` but what :func:`serve_state` puts on ``app.state``."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

from fastapi import FastAPI, routing

with warnings.catch_warnings():  # newer Starlette prefers "httpx2", not installed here
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from feltro.server.app import create_app
from feltro.server.clock import FakeClock
from feltro.server.rooms import RoomManager
from feltro.server.routes import api, pages, serve_state, ws
from feltro.server.server_config import ServerConfig


def _bare(router: routing.APIRouter, tmp_path: Path, **options: object) -> TestClient:
    config = ServerConfig(data_dir=tmp_path, clock=FakeClock(), **options)  # type: ignore[arg-type]
    app = FastAPI()
    serve_state(app, config, RoomManager(tmp_path, config.clock))
    app.include_router(router)
    return TestClient(app)


def test_api_router_alone(tmp_path: Path) -> None:
    client = _bare(api.router, tmp_path)
    assert client.get("/healthz").text == "ok"
    info = client.get("/api/info").json()
    assert info["server"] == "feltro"
    assert info["protocol"] == 1
    assert client.get("/api/tables").json() == []
    assert client.get("/api/tables/nope").status_code == 404
    assert client.post("/api/qr", json={"text": "hi"}).headers["content-type"] == "image/svg+xml"


def test_pages_router_alone(tmp_path: Path) -> None:
    client = _bare(pages.router, tmp_path)
    index = client.get("/").text
    assert 'class="page-index"' in index
    assert "/static/js/index.js" in index
    screen = client.get("/table/abc123").text
    assert 'class="page-screen"' in screen
    assert "/static/js/screen.js" in screen
    assert client.get("/static/i18n/pt-PT.json").json()["act.fold"]
    assert client.get("/static/i18n/xx.json").status_code == 404


def test_pages_without_the_web_client_are_a_placeholder(tmp_path: Path) -> None:
    client = _bare(pages.router, tmp_path, static_dir=tmp_path / "missing")
    assert "The feltro server is running" in client.get("/play/abc123").text


def test_ws_router_alone(tmp_path: Path) -> None:
    client = _bare(ws.router, tmp_path)
    with client.websocket_connect("/ws/nope") as socket:
        frame = json.loads(socket.receive_text())
    assert frame["code"] == "bad_token"


def test_create_app_assembles_every_router(tmp_path: Path) -> None:
    client = TestClient(create_app(ServerConfig(data_dir=tmp_path, clock=FakeClock())))
    assert client.get("/healthz").text == "ok"
    assert "/static/js/join.js" in client.get("/join/abc123").text
    assert client.get("/api/tables/nope").json() == {"error": "no such table"}
    with client.websocket_connect("/ws/nope") as socket:
        assert json.loads(socket.receive_text())["code"] == "bad_token"
