"""``feltro join``'s command line: a link that is no table link, or a bad name, is one line
in the chosen language (no traceback), and the link is read into the server's addresses."""

from __future__ import annotations

import pytest

from feltro.cli import app
from feltro.cli.failure import run
from feltro.remote.link import LinkError, parse_link


@pytest.mark.parametrize("text", ["ftp://host/join/abc", "http://host/elsewhere/abc",
                                  "not a link", "http:///join/abc", "http://h:99999/join/a"])
def test_not_a_table_link(text: str) -> None:
    with pytest.raises(LinkError):
        parse_link(text)


def test_links_of_every_kind() -> None:
    assert parse_link("HTTP://Host:8000/join/Ab_9-").ws_url == "ws://host:8000/ws/Ab_9-"
    assert parse_link("wss://h/prefix/ws/T").http_base == "https://h/prefix/"
    assert parse_link("http://[::1]:8000/table/T").ws_url == "ws://[::1]:8000/ws/T"
    assert parse_link("http://h/join/T#" + "a" * 32).token is None  # only /play/ carries one


def test_bad_link_is_one_line_in_portuguese(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(app, ["join", "ftp://x/join/T", "--lang", "pt-BR"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("feltro join: URL: “ftp://x/join/T” não é o link de uma mesa")
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def test_join_without_the_client_packages_says_what_to_install(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "websockets", None)  # as after `make play` alone
    assert run(app, ["join", "http://127.0.0.1:9/join/T", "--lang", "pt-PT"]) == 1
    err = capsys.readouterr().err
    assert "pip install -e '" in err
    assert "[server,tui]'" in err  # quoted: zsh would expand the brackets
    assert len(err.strip().splitlines()) == 1
