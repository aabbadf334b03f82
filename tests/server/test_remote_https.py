"""``feltro serve --cert --key``: HTTPS and WSS directly, with a throwaway certificate
authority (``trustme``). Links and the websocket address use https/wss; three phones over
wss and a real ``feltro join`` process (trusting the authority through ``SSL_CERT_FILE``) play
a whole series; a client that does not trust the certificate is told so, in one line."""

from __future__ import annotations

import os
import random
import ssl
import sys
from contextlib import ExitStack
from pathlib import Path

import pytest
from realserver import LivePhone
from remotekit import (
    SecurePhone,
    SecureServer,
    Terminal,
    accept_next,
    play_phones,
    seat_secure_phone,
    secure_phone,
)

from feltro.remote.client import Phase, RemoteSeat
from feltro.remote.link import parse_link
from playkit import running

trustme = pytest.importorskip("trustme", reason="trustme is in the dev extra")


def _authority(tmp_path: Path) -> tuple[Path, Path, Path, ssl.SSLContext]:
    """A throwaway CA and a certificate for localhost and 127.0.0.1: (ca, cert, key, ctx)."""
    ca = trustme.CA()
    leaf = ca.issue_cert("localhost", "127.0.0.1")
    ca_file, cert_file, key_file = tmp_path / "ca.pem", tmp_path / "cert.pem", tmp_path / "key.pem"
    ca.cert_pem.write_to_path(str(ca_file))
    leaf.private_key_pem.write_to_path(str(key_file))
    with cert_file.open("wb") as out:
        for blob in leaf.cert_chain_pems:
            out.write(blob.bytes())
    context = ssl.create_default_context(cafile=str(ca_file))
    return ca_file, cert_file, key_file, context


def _table(server: SecureServer, context: ssl.SSLContext, **settings: object
           ) -> tuple[dict[str, object], SecurePhone]:
    body = {"between_hands_seconds": 0, "bot_seconds": 0, "action_seconds": None, **settings}
    created = server.post("/api/tables", body)
    host = secure_phone(server, str(created["table_id"]), f"wss://localhost:{server.port}",
                        context, role="host", token=str(created["host_token"]))
    return created, host


def test_https_series_with_three_phones_and_a_real_feltro_join(
        tmp_path: Path, closing: ExitStack) -> None:
    ca_file, cert, key, context = _authority(tmp_path)
    server = closing.enter_context(running(SecureServer(
        tmp_path / "data", extra=["--cert", str(cert), "--key", str(key)], ca=ca_file)))
    created, host = _table(server, context, seats=4, max_hands=4)
    closing.callback(host.close)
    assert str(created["join_url"]).startswith(f"https://localhost:{server.port}/join/")
    assert str(created["ws_url"]).startswith(f"wss://localhost:{server.port}/ws/")
    assert str(created["qr_url"]).startswith("https://")
    env = dict(os.environ, FELTRO_DATA_DIR=str(tmp_path / "home"), SSL_CERT_FILE=str(ca_file),
               TERM="xterm-256color")
    terminal = Terminal([sys.executable, "-m", "feltro", "join", str(created["join_url"]),
                         "--name", "Rui", "--lang", "en"], env)
    closing.callback(terminal.close)
    try:
        accept_next(host, "Rui")
    except TimeoutError:
        raise AssertionError(f"the terminal showed: {terminal.text()[-3000:]}") from None
    seated: dict[int, LivePhone] = {}
    for name in ("Ana", "Bia", "Caio"):
        seat, phone = seat_secure_phone(server, str(created["table_id"]),
                                        f"wss://localhost:{server.port}", context, host, name)
        closing.callback(phone.close)
        seated[seat] = phone
    host.send(type="start", id="go")
    final = terminal.play_series(b"c", lambda: play_phones(
        host, seated, random.Random(8), lambda f: f["table"]["status"] == "over", timeout=150))
    names = ", ".join(final["table"]["outcome"]["names"])
    assert f"The series is over: {names} won." in terminal.text()
    assert "Traceback" not in terminal.text()
    players = {s["name"] for s in final["table"]["seats"] if s.get("occupied")}
    assert players == {"Rui", "Ana", "Bia", "Caio"}


def test_untrusted_certificate_is_one_clear_line(tmp_path: Path) -> None:
    ca_file, cert, key, _context = _authority(tmp_path)
    server = SecureServer(tmp_path / "data", extra=["--cert", str(cert), "--key", str(key)],
                          ca=ca_file)
    server.start()
    try:
        created = server.post("/api/tables", {})
        seat = RemoteSeat(parse_link(str(created["join_url"])), "Rui",
                          ssl_context=ssl.create_default_context())  # the system's CAs only
        import asyncio

        assert asyncio.run(asyncio.wait_for(seat.run(), 20)) == Phase.ENDED
        assert seat.problem is not None
        assert seat.problem.key == "join.certificate"
    finally:
        server.stop()


def test_serve_refuses_a_cert_without_its_key_in_one_line(tmp_path: Path) -> None:
    import subprocess

    ca_file, cert, _key, _ = _authority(tmp_path)
    run = subprocess.run([sys.executable, "-m", "feltro", "serve", "--cert", str(cert),
                          "--data", str(tmp_path / "d")], capture_output=True, text=True,
                         timeout=60, env=dict(os.environ, LANG="pt_PT.UTF-8"))
    assert run.returncode != 0
    assert "--cert e --key andam juntos" in run.stderr
    assert "Traceback" not in run.stderr
    run = subprocess.run([sys.executable, "-m", "feltro", "serve", "--cert", str(cert),
                          "--key", str(ca_file), "--data", str(tmp_path / "d")],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode != 0
    assert "cannot use the certificate" in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1
