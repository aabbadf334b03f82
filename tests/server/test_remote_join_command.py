"""The real ``feltro join`` command, in a pseudo-terminal, plays a seat of a real
``feltro serve`` table next to a scripted phone until the series ends and shows the results;
and the Textual interface (Pilot) words a rule's refusal from its data in Portuguese."""

from __future__ import annotations

import os
import random
import sys
from contextlib import ExitStack
from pathlib import Path

import pytest
from realserver import ServerProcess
from remotekit import Terminal, accept_next, host_of, play_phones, seat_phone

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX pseudo-terminals")


def test_feltro_join_command_plays_a_series_in_a_terminal(
        tmp_path: Path, live: ServerProcess, closing: ExitStack) -> None:
    created, host = host_of(live, seats=2, max_hands=3)
    closing.callback(host.close)
    env = dict(os.environ, FELTRO_DATA_DIR=str(tmp_path / "home"), TERM="xterm-256color",
               COLUMNS="100", LINES="30")
    terminal = Terminal([sys.executable, "-m", "feltro", "join", created["join_url"],
                         "--name", "Rui", "--lang", "pt-PT"], env)
    closing.callback(terminal.close)
    accept_next(host, "Rui")
    seat, ana = seat_phone(live, created["table_id"], host, "Ana")
    closing.callback(ana.close)
    host.send(type="start", id="go")
    # the person at the terminal checks or calls ("p" in pt-PT)
    final = terminal.play_series(b"p", lambda: play_phones(
        host, {seat: ana}, random.Random(4), lambda f: f["table"]["status"] == "over"))
    shown = terminal.text()
    assert "A série acabou" in shown
    assert "Traceback" not in shown
    winner = final["table"]["outcome"]["names"][0]
    assert f"A série acabou: ganhou {winner}." in shown
    assert (tmp_path / "home" / "remote" / "seats.json").stat().st_mode & 0o777 == 0o600
