"""``feltro serve`` as a newcomer starts it (issue 24): whatever would stop the server (a data
folder another server uses, a port in use, a certificate and a key that are no pair) is said in
one line before anything else is printed; the address and QR code it prints are the ones phones
must use (behind a proxy, with a certificate for a name)."""

from __future__ import annotations

import socket
import sys
from pathlib import Path
from typing import Any

import pytest

from playkit import run_cli

uvicorn = pytest.importorskip("uvicorn", reason="the server extra")


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[dict[str, Any]]:
    """uvicorn patched (each start recorded, no socket opened); the QR codes' texts recorded
    as ``{"qr": text}``; keys and config in *tmp_path*; English unless a test says otherwise."""
    import segno

    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda application, **kwargs: calls.append(kwargs))
    make = segno.make

    def make_qr(content: str, **kwargs: Any) -> Any:
        calls.append({"qr": content})
        return make(content, **kwargs)

    monkeypatch.setattr(segno, "make", make_qr)
    monkeypatch.setattr("feltro.cli.serve.lan_address", lambda: "192.168.1.20")
    monkeypatch.setenv("FELTRO_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("FELTRO_PORT", raising=False)
    return calls


def _serve(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    return run_cli(capsys, "serve", *args)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _refused_before_anything(code: int, out: str, err: str,
                             started: list[dict[str, Any]]) -> None:
    assert code != 0
    assert out == "", out  # no address, no QR code before the refusal
    assert len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err
    assert not any("qr" not in call for call in started), "the server was started"


def test_a_data_folder_another_server_uses_is_refused_first(
        started: list[dict[str, Any]], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    from feltro.filelock import FileLock

    folder = tmp_path / "data"
    folder.mkdir()
    held = FileLock(folder / "server.sqlite.lock", lambda holder: "busy")  # the other server
    try:
        code, out, err = _serve(capsys, "--port", str(_free_port()), "--data", str(folder))
    finally:
        held.release()
    _refused_before_anything(code, out, err, started)
    assert err.startswith("feltro serve: ")
    assert "another feltro server" in err
    assert "--data" in err
    code, out, err = _serve(capsys, "--port", str(_free_port()), "--data", str(folder))
    assert code == 0, err  # released: it starts
    assert len([call for call in started if "qr" not in call]) == 1


def test_a_port_in_use_is_refused_first_in_the_locale_language(
        started: list[dict[str, Any]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("LANG", "pt_BR.UTF-8")
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        port = other.getsockname()[1]
        code, out, err = _serve(capsys, "--port", str(port), "--data", str(tmp_path / "d"))
    _refused_before_anything(code, out, err, started)
    assert f"porta {port}" in err
    assert "--port" in err
    assert "Address already in use" not in err  # the reason in Portuguese too


@pytest.fixture
def authority(tmp_path: Path) -> tuple[Path, Path, Path]:
    """A throwaway authority's certificate for localhost: (cert, its key, another key)."""
    trustme = pytest.importorskip("trustme", reason="trustme is in the dev extra")
    ca = trustme.CA()
    leaf, other = ca.issue_cert("localhost"), ca.issue_cert("localhost")
    cert, key, wrong = tmp_path / "cert.pem", tmp_path / "key.pem", tmp_path / "other.pem"
    leaf.private_key_pem.write_to_path(str(key))
    other.private_key_pem.write_to_path(str(wrong))
    cert.write_bytes(b"".join(blob.bytes() for blob in leaf.cert_chain_pems))
    return cert, key, wrong


@pytest.mark.parametrize("lang", ["en", "pt-PT"])
def test_a_key_that_does_not_match_the_certificate_is_one_line(
        lang: str, started: list[dict[str, Any]], authority: tuple[Path, Path, Path],
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cert, _key, wrong = authority
    code, out, err = _serve(capsys, "--cert", str(cert), "--key", str(wrong), "--data",
                            str(tmp_path / "d"), "--port", str(_free_port()), "--lang", lang)
    _refused_before_anything(code, out, err, started)
    assert "[SSL" not in err
    assert "_ssl.c" not in err
    assert ("does not match" if lang == "en" else "não corresponde") in err, err


def _links(started: list[dict[str, Any]]) -> list[str]:
    return [call["qr"] for call in started if "qr" in call]


def test_behind_a_proxy_it_announces_the_public_name(
        started: list[dict[str, Any]], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    port = _free_port()
    code, out, err = _serve(capsys, "--proxy", "--host-name", "poker.example.org", "--port",
                            str(port), "--data", str(tmp_path / "d"))
    assert code == 0, err
    assert _links(started) == ["https://poker.example.org/"]
    assert "https://poker.example.org/" in out
    assert f"http://127.0.0.1:{port}/" not in out  # phones cannot use it
    assert "--lan" not in out  # a proxy on this computer needs no --lan


def test_behind_a_proxy_without_a_name_it_says_what_is_missing(
        started: list[dict[str, Any]], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _serve(capsys, "--proxy", "--port", str(_free_port()), "--data",
                            str(tmp_path / "d"))
    assert code == 0, err
    assert _links(started) == []  # no QR code of an address phones cannot use
    assert "--host-name" in out + err


def test_with_a_certificate_for_a_name_it_announces_that_name(
        started: list[dict[str, Any]], authority: tuple[Path, Path, Path], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    cert, key, _wrong = authority
    port = _free_port()
    code, out, err = _serve(capsys, "--cert", str(cert), "--key", str(key), "--host-name",
                            "localhost", "--port", str(port), "--data", str(tmp_path / "d"))
    assert code == 0, err
    assert _links(started) == [f"https://localhost:{port}/"]
    assert "127.0.0.1" not in out  # the certificate names localhost, not the address


def test_on_the_lan_it_announces_the_lan_address(
        started: list[dict[str, Any]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("feltro.cli.serve._announce", lambda *args: None)  # no mDNS here
    port = _free_port()
    code, out, err = _serve(capsys, "--lan", "--port", str(port), "--data", str(tmp_path / "d"))
    assert code == 0, err
    assert _links(started) == [f"http://192.168.1.20:{port}/"]
    assert "--lan" not in out


def test_serve_speaks_the_locale_language(
        started: list[dict[str, Any]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("LANG", "pt_PT.UTF-8")
    code, out, err = _serve(capsys, "--port", str(_free_port()), "--data", str(tmp_path / "d"))
    assert code == 0, err
    assert "Só este computador" in out
    assert "is serving" not in out


def test_frames_are_compressed_unless_asked_not_to(
        started: list[dict[str, Any]], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A phone on mobile data downloads a few percent of the full state frames (issue 23)."""
    code, _out, err = _serve(capsys, "--port", str(_free_port()), "--data", str(tmp_path / "a"))
    assert code == 0, err
    code, _out, err = _serve(capsys, "--no-compress", "--port", str(_free_port()), "--data",
                             str(tmp_path / "b"))
    assert code == 0, err
    runs = [call for call in started if "qr" not in call]
    assert [run["ws_per_message_deflate"] for run in runs] == [True, False]
    from feltro.server.transport import WideWindowWebSockets

    assert all(issubclass(run["ws"], WideWindowWebSockets) for run in runs)


if sys.platform == "win32":  # pragma: no cover
    pytestmark = pytest.mark.skip("flock and the OS error texts are POSIX")


def test_the_data_quota_and_archive_retention_reach_the_server(
        started: list[dict[str, Any]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from feltro.server.ws_transport import GuardedWebSocketProtocol

    apps: list[Any] = []

    def run_app(application: Any, **kwargs: Any) -> None:
        apps.append(application)
        started.append(kwargs)

    monkeypatch.setattr(uvicorn, "run", run_app)
    code, _, err = _serve(capsys, "--port", str(_free_port()), "--data",
                          str(tmp_path / "data"), "--data-quota", "0.5", "--keep-archives", "7")
    assert code == 0, err
    budgets = apps[0].state.config.budgets
    assert (budgets.data_quota_bytes, budgets.archive_retention) == (2**29, 7 * 86400)
    run = next(call for call in started if "qr" not in call)
    assert run["ws"] is GuardedWebSocketProtocol  # the websocket layer bounded (issue 22)
