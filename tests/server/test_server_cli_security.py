"""``feltro serve`` (uvicorn patched: no socket is opened) and the security helpers."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from srvkit import Harness, seat_table
from typer.testing import CliRunner

from feltro.cli import app
from feltro.server.app import ServerConfig
from feltro.server.journal import Journal
from feltro.server.lobby import SeatState
from feltro.server.security import (
    RedactingFilter,
    TokenBucket,
    hash_token,
    new_token,
    origin_allowed,
    redact,
)


def _serve(monkeypatch: pytest.MonkeyPatch, args: list[str]) -> tuple[Any, dict[str, Any],
                                                                         str]:
    calls: list[tuple[Any, dict[str, Any]]] = []
    import uvicorn

    monkeypatch.setattr(uvicorn, "run", lambda application, **kwargs: calls.append(
        (application, kwargs)))
    monkeypatch.setattr("feltro.cli.serve.lan_address", lambda: "192.168.1.20")
    result = CliRunner().invoke(app, ["serve", *args])
    assert result.exit_code == 0, result.output
    assert len(calls) == 1
    return calls[0][0], calls[0][1], result.output


def test_serve_binds_loopback_by_default(monkeypatch: pytest.MonkeyPatch,
                                         tmp_path: Path) -> None:
    application, kwargs, output = _serve(monkeypatch, ["--port", "9000", "--data",
                                                       str(tmp_path)])
    assert kwargs["host"] == "127.0.0.1"
    assert kwargs["port"] == 9000
    assert kwargs["ws_max_size"] == 64 * 1024
    assert kwargs["ws_per_message_deflate"] is True  # a phone on mobile data (issue 23)
    assert "http://127.0.0.1:9000/" in output
    assert "█" in output  # the QR code
    assert "--lan" in output
    config: ServerConfig = application.state.config
    assert config.data_dir == tmp_path
    assert config.public_url is None


def test_serve_lan_binds_every_interface_and_links_to_the_lan_address(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    application, kwargs, output = _serve(monkeypatch, ["--lan", "--data", str(tmp_path),
                                                       "--allow-origin", "http://x:1"])
    assert kwargs["host"] == "0.0.0.0"
    assert kwargs["port"] == 8000
    assert "http://192.168.1.20:8000/" in output
    config: ServerConfig = application.state.config
    assert config.public_url == "http://192.168.1.20:8000/"
    assert config.allowed_origins == ("http://x:1",)


def test_links_use_the_public_url(tmp_path: Path) -> None:
    from srvkit import harness_at

    with harness_at(tmp_path, public_url="http://192.168.1.20:8000/") as h:
        created = h.create_table()
        assert created["join_url"] == f"http://192.168.1.20:8000/join/{created['table_id']}"
        assert created["ws_url"].startswith("ws://192.168.1.20:8000/ws/")


def test_tokens_are_random_long_and_stored_hashed() -> None:
    tokens = {new_token() for _ in range(1000)}
    assert len(tokens) == 1000
    assert all(len(t) == 32 for t in tokens)  # 24 random bytes = 192 bits
    token = next(iter(tokens))
    assert hash_token(token) != token
    assert len(hash_token(token)) == 64
    seat = SeatState(1, "Ana", token_hash=hash_token(token))
    assert hash_token(token) not in repr(seat)


def test_journal_and_series_files_hold_only_hashes(harness: Harness) -> None:
    created, host, players = seat_table(harness, ["Ana", "Bruno"])
    tokens = [created["host_token"], *(p.token for p in players.values() if p.token)]
    host.until(lambda f: f["type"] == "state" and f["table"]["hand"] is not None)
    bodies = ""
    journals = sorted((harness.data_dir / "tables").glob("*.journal.sqlite"))
    assert journals
    for path in journals:
        db = sqlite3.connect(path)
        bodies += " ".join(row[0] for row in db.execute("SELECT body FROM events"))
        db.close()
    for token in tokens:
        assert token not in bodies
        assert hash_token(token) in bodies


def test_a_second_server_on_the_same_folder_is_refused(harness: Harness) -> None:
    from feltro.errors import StoreError

    with pytest.raises(StoreError, match="another feltro server"):
        Journal(harness.data_dir)


def test_redaction_of_token_shaped_strings() -> None:
    token = new_token()
    assert token not in redact(f"GET /play/abc?token={token} HTTP/1.1")
    record = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1,
                               "%s - %s", ("127.0.0.1", f"/x/{token}"), None)
    RedactingFilter().filter(record)
    assert token not in record.getMessage()
    assert "[redacted]" in record.getMessage()


@pytest.mark.parametrize(("origin", "host", "allowed", "ok"), [
    (None, "a:8000", (), True),
    ("http://a:8000", "a:8000", (), True),
    ("http://A:8000", "a:8000", (), True),
    ("https://a", "a:443", (), True),
    ("http://a", "a:80", (), True),
    ("http://a:8001", "a:8000", (), False),
    ("http://evil", "a:8000", (), False),
    ("http://evil", "a:8000", ("http://evil",), True),
    ("null", "a:8000", (), False),
    ("file://", "a:8000", (), False),
    ("http://[::1]:8000", "[::1]:8000", (), True),
    ("http://a:8000", None, (), False),
])
def test_origin_rules(origin: str | None, host: str | None, allowed: tuple[str, ...],
                      ok: bool) -> None:
    assert origin_allowed(origin, host, allowed) is ok


def test_token_bucket() -> None:
    now = [0.0]
    bucket = TokenBucket(rate=2, burst=3, now=lambda: now[0])
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]
    now[0] += 1.0
    assert [bucket.take() for _ in range(3)] == [True, True, False]
    assert bucket.refused == 2


def test_default_data_folder() -> None:
    from feltro.cli.serve import default_data_dir

    assert default_data_dir({"FELTRO_DATA_DIR": "/d"}, "linux") == Path("/d/server")
    assert default_data_dir({"HOME": "/h"}, "linux") == Path("/h/.local/share/feltro/server")
    assert default_data_dir({"HOME": "/h", "XDG_DATA_HOME": "/x"}, "linux") == \
        Path("/x/feltro/server")
    assert default_data_dir({"HOME": "/h"}, "darwin") == \
        Path("/h/Library/Application Support/feltro/server")


def test_qr_code_is_a_standalone_svg_document() -> None:
    # An <img src> or a download needs the SVG namespace on the root element.
    from feltro.server.routes.api import qr_svg

    svg = qr_svg("http://127.0.0.1:8000/join/abc").decode()
    assert svg.startswith("<svg")
    assert 'xmlns="http://www.w3.org/2000/svg"' in svg


def test_serve_answers_only_to_its_printed_address_and_named_hosts(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    application, _kwargs, _output = _serve(monkeypatch, ["--lan", "--data", str(tmp_path),
                                                         "--host-name", "Game.Example.org:443"])
    config: ServerConfig = application.state.config
    assert config.allowed_hosts == frozenset({"192.168.1.20", "game.example.org", "localhost",
                                              "127.0.0.1", "::1"})
    application, _kwargs, _output = _serve(monkeypatch, ["--data", str(tmp_path / "b")])
    assert application.state.config.allowed_hosts == frozenset({"localhost", "127.0.0.1",
                                                                "::1"})


def test_serve_seals_seeds_with_a_key_kept_outside_the_data_folder(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import os
    import stat

    config_home = tmp_path / "config"
    monkeypatch.setenv("FELTRO_CONFIG_DIR", str(config_home))
    application, _kwargs, _output = _serve(monkeypatch, ["--data", str(tmp_path / "data")])
    key = config_home / "server.key"
    assert application.state.config.seal is not None
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    assert len(key.read_bytes()) == 32
    assert not any(p.name == "server.key" for p in (tmp_path / "data").rglob("*"))
    before = key.read_bytes()
    _serve(monkeypatch, ["--data", str(tmp_path / "data")])  # the same key next time
    assert key.read_bytes() == before
    key.write_bytes(b"not a key")
    os.chmod(key, 0o644)
    result = CliRunner().invoke(app, ["serve", "--data", str(tmp_path / "data")])
    assert result.exit_code != 0
