"""``feltro serve --cert --key``: HTTPS and WSS directly, with a throwaway certificate
authority (``trustme``). Links and the websocket address use https/wss; three phones over
wss and a real ``feltro join`` process (trusting the authority through ``SSL_CERT_FILE``) play
a whole series; a client that does not trust the certificate is told so, in one line."""

from __future__ import annotations

import os
import random
import ssl
import sys
import threading
import time
from pathlib import Path

import pytest
from remotekit import (
    SecureServer,
    Terminal,
    accept_next,
    play_phones,
    seat_secure_phone,
    secure_phone,
)

from feltro.remote.client import Phase, RemoteSeat
from feltro.remote.link import parse_link

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
           ) -> tuple[dict[str, object], object]:
    body = {"between_hands_seconds": 0, "bot_seconds": 0, "action_seconds": None, **settings}
    created = server.post("/api/tables", body)
    host = secure_phone(server, str(created["table_id"]), f"wss://localhost:{server.port}",
                        context, role="host", token=str(created["host_token"]))
    return created, host


def test_https_series_with_three_phones_and_a_real_feltro_join(tmp_path: Path) -> None:
    ca_file, cert, key, context = _authority(tmp_path)
    server = SecureServer(tmp_path / "data", extra=["--cert", str(cert), "--key", str(key)],
                          ca=ca_file)
    server.start()
    phones = []
    terminal: Terminal | None = None
    try:
        created, host = _table(server, context, seats=4, max_hands=4)
        phones.append(host)
        assert str(created["join_url"]).startswith(f"https://localhost:{server.port}/join/")
        assert str(created["ws_url"]).startswith(f"wss://localhost:{server.port}/ws/")
        assert str(created["qr_url"]).startswith("https://")
        env = dict(os.environ, FELTRO_DATA_DIR=str(tmp_path / "home"), SSL_CERT_FILE=str(ca_file),
                   TERM="xterm-256color")
        terminal = Terminal([sys.executable, "-m", "feltro", "join", str(created["join_url"]),
                             "--name", "Rui", "--lang", "en"], env)
        try:
            accept_next(host, "Rui")  # type: ignore[arg-type]
        except TimeoutError:
            raise AssertionError(f"the terminal showed: {terminal.text()[-3000:]}") from None
        seated = {}
        for name in ("Ana", "Bia", "Caio"):
            seat, phone = seat_secure_phone(server, str(created["table_id"]),
                                            f"wss://localhost:{server.port}", context,
                                            host, name)  # type: ignore[arg-type]
            seated[seat] = phone
            phones.append(phone)
        host.send(type="start", id="go")  # type: ignore[attr-defined]
        stop = threading.Event()

        def press_keys() -> None:
            while not stop.is_set() and terminal.process.poll() is None:
                terminal.type(b"c")
                time.sleep(0.15)

        threading.Thread(target=press_keys, daemon=True).start()
        try:
            final = play_phones(host, seated, random.Random(8),  # type: ignore[arg-type]
                                lambda f: f["table"]["status"] == "over", timeout=150)
        except TimeoutError:
            raise AssertionError(f"the terminal showed: {terminal.text()[-3000:]}") from None
        stop.set()
        deadline = time.monotonic() + 30  # Enter closes the results screen once it is up
        while terminal.process.poll() is None and time.monotonic() < deadline:
            terminal.type(b"\r")
            time.sleep(0.3)
        assert terminal.process.wait(20) == 0, terminal.text()[-2000:]
        names = ", ".join(final["table"]["outcome"]["names"])
        assert f"The series is over: {names} won." in terminal.text()
        assert "Traceback" not in terminal.text()
        players = {s["name"] for s in final["table"]["seats"] if s.get("occupied")}
        assert players == {"Rui", "Ana", "Bia", "Caio"}
    finally:
        if terminal is not None:
            terminal.close()
        for phone in phones:
            phone.close()  # type: ignore[attr-defined]
        server.stop()


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
