"""The real ``feltro join`` command, in a pseudo-terminal, plays a seat of a real
``feltro serve`` table next to a scripted phone until the series ends and shows the results;
and the Textual interface (Pilot) words a rule's refusal from its data in Portuguese."""

from __future__ import annotations

import os
import random
import sys
import threading
import time
from pathlib import Path

import pytest
from realserver import LivePhone, ServerProcess
from remotekit import Terminal, accept_next, host_of, play_phones, seat_phone

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX pseudo-terminals")


def test_feltro_join_command_plays_a_series_in_a_terminal(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "data")
    server.start()
    phones: list[LivePhone] = []
    terminal: Terminal | None = None
    try:
        created, host = host_of(server, seats=2, max_hands=3)
        phones.append(host)
        env = dict(os.environ, FELTRO_DATA_DIR=str(tmp_path / "home"), TERM="xterm-256color",
                   COLUMNS="100", LINES="30")
        terminal = Terminal([sys.executable, "-m", "feltro", "join", created["join_url"],
                             "--name", "Rui", "--lang", "pt-PT"], env)
        accept_next(host, "Rui")
        seat, ana = seat_phone(server, created["table_id"], host, "Ana")
        phones.append(ana)
        host.send(type="start", id="go")
        stop = threading.Event()

        def press_keys() -> None:  # the person at the terminal: check or call ("p" in pt-PT)
            while not stop.is_set() and terminal.process.poll() is None:
                terminal.type(b"p")
                time.sleep(0.15)

        presser = threading.Thread(target=press_keys, daemon=True)
        presser.start()
        try:
            final = play_phones(host, {seat: ana}, random.Random(4),
                                lambda f: f["table"]["status"] == "over")
        except TimeoutError:
            raise AssertionError(f"the terminal showed: {terminal.text()[-3000:]}") from None
        stop.set()
        deadline = time.monotonic() + 30  # Enter closes the results screen once it is up
        while terminal.process.poll() is None and time.monotonic() < deadline:
            terminal.type(b"\r")
            time.sleep(0.3)
        assert terminal.process.wait(20) == 0, terminal.text()[-2000:]
        shown = terminal.text()
        assert "A série acabou" in shown
        assert "Traceback" not in shown
        winner = final["table"]["outcome"]["names"][0]
        assert f"A série acabou: ganhou {winner}." in shown
        assert (tmp_path / "home" / "remote" / "seats.json").stat().st_mode & 0o777 == 0o600
    finally:
        if terminal is not None:
            terminal.close()
        for phone in phones:
            phone.close()
        server.stop()
