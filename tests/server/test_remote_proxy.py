"""``feltro serve --proxy`` behind a REAL reverse proxy: Debian's nginx, started by the test
with the very site configuration of ``docs/remote.md`` (its ports and certificate swapped for
the test's). Links and QR codes follow the forwarded scheme and host (https/wss); unknown host
names are refused (421); a phone and a ``feltro join`` client play a series through the proxy.
Forwarded headers from anyone but the proxy are ignored (:mod:`feltro.server.forwarded`)."""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import shutil
import ssl
import subprocess
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from realserver import free_port
from remotekit import (
    SecureServer,
    ThreadedSeat,
    accept_next,
    calm,
    play_phones,
    seat_secure_phone,
    secure_phone,
)
from websockets.sync.client import connect

from feltro.remote.client import Phase, RemoteSeat
from feltro.remote.link import parse_link
from feltro.server.forwarded import ForwardedHeaders

DOC = Path(__file__).resolve().parents[2] / "docs" / "remote.md"
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx")
                                  else None)


def site_config() -> str:
    """The nginx site block of docs/remote.md."""
    text = DOC.read_text(encoding="utf-8")
    match = re.search(r"<!-- nginx-site:.*?-->\s*```nginx\n(.*?)```", text, re.S)
    assert match, "docs/remote.md lost its nginx site block"
    return match.group(1)


def nginx_config(folder: Path, port: int, backend: int, cert: Path, key: Path) -> str:
    """The documented site, on the test's ports and certificate, in a self-contained nginx."""
    site = site_config()
    replaced = (site.replace("listen 443 ssl;", f"listen 127.0.0.1:{port} ssl;")
                .replace("server_name poker.example.org;", "server_name localhost;")
                .replace("/etc/letsencrypt/live/poker.example.org/fullchain.pem", str(cert))
                .replace("/etc/letsencrypt/live/poker.example.org/privkey.pem", str(key))
                .replace("http://127.0.0.1:8000", f"http://127.0.0.1:{backend}"))
    assert str(cert) in replaced, "the doc's certificate line changed"
    assert str(key) in replaced, "the doc's key line changed"
    assert f"127.0.0.1:{backend}" in replaced, "the doc's proxy_pass changed"
    assert f"127.0.0.1:{port}" in replaced, "the doc's listen line changed"
    temp = "\n".join(f"    {kind}_temp_path {folder / kind};"
                     for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    user = "user root;\n" if os.geteuid() == 0 else ""
    return (f"{user}worker_processes 1;\npid {folder / 'nginx.pid'};\n"
            f"error_log {folder / 'error.log'} warn;\nevents {{ worker_connections 256; }}\n"
            f"http {{\n    access_log off;\n{temp}\n{replaced}\n}}\n")


@pytest.fixture
def authority(tmp_path: Path) -> tuple[Path, Path, Path, ssl.SSLContext]:
    trustme = pytest.importorskip("trustme", reason="trustme is in the dev extra")
    ca = trustme.CA()
    leaf = ca.issue_cert("localhost", "127.0.0.1")
    ca_file, cert, key = tmp_path / "ca.pem", tmp_path / "cert.pem", tmp_path / "key.pem"
    ca.cert_pem.write_to_path(str(ca_file))
    leaf.private_key_pem.write_to_path(str(key))
    cert.write_bytes(b"".join(blob.bytes() for blob in leaf.cert_chain_pems))
    return ca_file, cert, key, ssl.create_default_context(cafile=str(ca_file))


@pytest.mark.skipif(NGINX is None, reason="nginx is not installed: scripts/ci-proxy-setup.sh "
                    "installs Debian's nginx-light (make test runs it)")
def test_series_through_nginx_with_forwarded_scheme_and_host(
        tmp_path: Path, authority: tuple[Path, Path, Path, ssl.SSLContext]) -> None:
    _ca_file, cert, key, context = authority
    backend = SecureServer(tmp_path / "data", scheme="http",
                           extra=["--proxy", "--host-name", "localhost"])
    folder = tmp_path / "nginx"
    folder.mkdir()
    port = free_port()
    (folder / "nginx.conf").write_text(nginx_config(folder, port, backend.port, cert, key))
    assert NGINX is not None
    backend.start()
    proxy = subprocess.Popen([NGINX, "-p", str(folder), "-c", str(folder / "nginx.conf"),
                              "-e", str(folder / "error.log"), "-g", "daemon off;"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    public = f"https://localhost:{port}"
    phones: list[Any] = []
    client: ThreadedSeat | None = None
    try:
        with httpx.Client(trust_env=False, verify=context, timeout=5) as http:
            deadline = time.monotonic() + 20
            while True:
                try:
                    if http.get(f"{public}/healthz").text == "ok":
                        break
                except httpx.HTTPError:
                    pass
                if proxy.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(f"nginx did not start: {proxy.stderr.read()!r}"
                                         if proxy.stderr else "nginx did not start")
                time.sleep(0.1)
            body = {"between_hands_seconds": 0, "bot_seconds": 0, "action_seconds": None,
                    "seats": 2, "max_hands": 3}
            created = http.post(f"{public}/api/tables", json=body).json()
            # a host name nobody allowed, through the same proxy: refused
            assert http.get(f"{public}/healthz",
                            headers={"Host": "rebind.example"}).status_code == 421
            direct = httpx.get(f"http://127.0.0.1:{backend.port}/api/tables/"
                               f"{created['table_id']}", trust_env=False).json()
        assert created["join_url"] == f"{public}/join/{created['table_id']}"
        assert created["ws_url"] == f"wss://localhost:{port}/ws/{created['table_id']}"
        assert created["qr_url"].startswith(f"{public}/")
        assert direct["join_url"].startswith(f"http://127.0.0.1:{backend.port}/")
        # a browser page of the public site may open the websocket (Origin = https host)
        with connect(created["ws_url"], ssl=context, proxy=None,
                     origin=f"https://localhost:{port}") as ws:  # type: ignore[arg-type]
            ws.send(json.dumps({"type": "hello", "protocol": 1, "role": "spectator"}))
            assert json.loads(ws.recv(timeout=10))["type"] == "welcome"
        ws_base = f"wss://localhost:{port}"
        host = secure_phone(backend, created["table_id"], ws_base, context, role="host",
                            token=created["host_token"])
        phones.append(host)
        client = ThreadedSeat(RemoteSeat(parse_link(created["join_url"]), "Rui",
                                         ssl_context=context), calm(random.Random(1)))
        client.start()
        accept_next(host, "Rui")
        seat, ana = seat_secure_phone(backend, created["table_id"], ws_base, context, host,
                                      "Ana")
        phones.append(ana)
        host.send(type="start", id="go")
        play_phones(host, {seat: ana}, random.Random(6),
                    lambda f: f["table"]["status"] == "over")
        client.wait(lambda s: s.phase == Phase.OVER)
        assert client.acted
    finally:
        if client is not None:
            client.stop()
        for phone in phones:
            phone.close()
        proxy.terminate()
        proxy.wait(10)
        backend.stop()


def _scope_through(forwarded: ForwardedHeaders, client: str) -> dict[str, Any]:
    seen: dict[str, Any] = {}

    async def app(scope: Any, receive: Any, send: Any) -> None:
        seen.update(scope)

    forwarded._inner.app = app  # the app behind uvicorn's middleware
    scope = {"type": "http", "scheme": "http", "client": (client, 5000), "path": "/",
             "headers": [(b"host", b"127.0.0.1:8000"), (b"x-forwarded-proto", b"https"),
                         (b"x-forwarded-host", b"poker.example.org"),
                         (b"x-forwarded-for", b"198.51.100.7")]}
    asyncio.run(forwarded(scope, None, None))  # type: ignore[arg-type]
    return seen


def test_forwarded_headers_are_believed_from_the_proxy_only() -> None:
    forwarded = ForwardedHeaders(None, ["127.0.0.1"])  # type: ignore[arg-type]
    trusted = _scope_through(forwarded, "127.0.0.1")
    assert trusted["scheme"] == "https"
    assert dict(trusted["headers"])[b"host"] == b"poker.example.org"
    assert trusted["client"][0] == "198.51.100.7"
    stranger = _scope_through(forwarded, "203.0.113.9")
    assert stranger["scheme"] == "http"
    assert dict(stranger["headers"])[b"host"] == b"127.0.0.1:8000"
    assert stranger["client"][0] == "203.0.113.9"
