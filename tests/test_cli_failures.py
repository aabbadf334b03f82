"""Every ``feltro`` command fails in one line, never with a traceback (issue 10, part 5).

Each command that ``feltro --help`` lists is run through :func:`feltro.cli.main` (what the
console script runs) with bad paths, damaged files and bad options: stderr must be exactly
one line, nothing may read "Traceback", and the exit status must not be 0.
"""

from __future__ import annotations

import contextlib
import shutil
import socket
import ssl
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from feltro.cli import app
from feltro.tui.datadir import list_series
from playkit import english_data_folder, patch_full_screen, run_cli


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return english_data_folder(tmp_path, monkeypatch)


@pytest.fixture
def played(monkeypatch: pytest.MonkeyPatch) -> None:
    """The full-screen game is replaced: each run plays two hands (the person checks or
    calls), then leaves mid-way through a third, as a player quitting would."""
    patch_full_screen(monkeypatch, start_another=True)


def _series(data: Path, capsys: pytest.CaptureFixture[str]) -> str:
    code, _out, err = run_cli(capsys, "play", "--seed", "3", "--players", "3", "--name", "Bruno")
    assert code == 0, err
    return list_series(data)[0].folder.id


def _damage(data: Path, series: str) -> Path:
    hand = data / "series" / series / "hands" / "0001.phh"
    hand.write_text("variant = 'NT'\nactions = ['d dh p1 ????', 'p9 cbr zz'\n", encoding="utf-8")
    return hand


def _commands() -> set[str]:
    names = {c.name or (c.callback.__name__ if c.callback else "") for c in app.registered_commands}
    names |= {g.name or "" for g in app.registered_groups}
    return names


BAD: list[tuple[str, ...]] = [
    ("nosuchcommand",),
    ("evaluate",),
    ("evaluate", "As", "Kd"),
    ("evaluate", "Xx", "Kd", "Qh", "Js", "Ts"),
    ("evaluate", "As", "Kd", "Qh", "Js", "Ts", "--lang", "xx"),
    ("equity", "AsAh"),
    ("equity", "AsAh", "AsKs"),
    ("equity", "AsAh", "KsKh", "--board", "2c"),
    ("equity", "AsAh", "??", "--trials", "-5"),
    ("equity", "AsAh", "KsKh", "--bogus"),
    ("replay",),
    ("replay", "/nonexistent/dir/x.phh"),
    ("play", "--players", "1"),
    ("play", "--players", "x"),
    ("play", "--stack", "-5"),
    ("play", "--bots", "genius"),
    ("play", "--stop-at", "25:99"),
    ("play", "--hotseat", "Ana,ana"),
    ("play", "--resume", "--series", "BADID"),
    ("play", "--lang", "xx"),
    ("play", "--delay"),
    ("history", "BADID"),
    ("history", "1", "99"),
    ("history", "--delete"),
    ("history", "1", "1", "--text"),  # the damaged hand file
    ("serve", "--port", "0"),
    ("serve", "--cert", "/no/such/cert.pem"),
    ("serve", "--cert", "/no/such/cert.pem", "--key", "/no/such/key.pem"),
    ("join", "ftp://host/join/T"),
    ("join", "http://127.0.0.1:9/join/T", "--name", "\u200b"),
    ("serve", "--port", "x"),
    ("serve", "--data", "/proc/no/such/folder", "--port", "18097"),
    ("simulate", "--log", "/nonexistent/dir/x.jsonl", "--seed", "1", "--players", "2",
     "--stop-after-hands", "1"),
    ("simulate", "--db", "/nonexistent/dir/x.sqlite", "--seed", "1"),
    ("simulate", "--db", "DAMAGED", "--seed", "1"),
    ("simulate", "--players", "11"),
    ("simulate", "--bots", "genius"),
    ("bench", "engine", "--hands", "0"),
    ("bench", "nosuch"),
    ("rules", "NOSUCHID"),
    ("rules", "B8", "--lang", "xx"),
    ("season", "show", "nosuch"),  # more in tests/test_season_cli.py
    ("season", "new", "Fridays", "--players", "Ana"),
    ("season", "add", "nosuch", "1"),
    ("verify", "/nonexistent/dir/night.json"),
    ("verify", "DAMAGED"),
    ("arena", "genius", "random", "--hands", "2"),
    ("arena", "random", "random", "--hands", "0"),
    ("simulate", "--fair", "/nonexistent/dir/night.json", "--seed", "1", "--players", "2",
     "--stop-after-hands", "1"),
    # issue 24: missing arguments and folders, things in use, certificates, servers
    ("verify",),
    ("history", "99", "--finish"),
    ("replay", "--summary", "/nonexistent/dir/"),
    ("serve", "--port", "BUSYPORT", "--data", "FOLDER"),
    ("serve", "--port", "FREEPORT", "--data", "BUSYDATA"),
    ("serve", "--port", "FREEPORT", "--data", "FOLDER", "--cert", "CERT", "--key", "OTHERKEY"),
    ("serve", "--port", "FREEPORT", "--data", "FOLDER", "--cert", "CERT"),
    ("join", "http://127.0.0.1:9/join/T"),
    ("join", "UNTRUSTED"),
    ("join", "https://no-such-host.invalid/join/T"),
]


def test_every_command_is_tried() -> None:
    tried = {args[0] for args in BAD}
    assert _commands() <= tried, _commands() - tried


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextlib.contextmanager
def _placeholders(args: tuple[str, ...], tmp_path: Path) -> Iterator[dict[str, str]]:
    """What the capitalised words of *args* stand for: a port in use, a data folder another
    server holds, a certificate and another's key, a server this computer does not trust."""
    with contextlib.ExitStack() as stack:
        places = {"FREEPORT": str(_free_port()), "FOLDER": str(tmp_path / "serve")}
        if "BUSYPORT" in args:
            other = stack.enter_context(socket.socket())
            other.bind(("127.0.0.1", 0))
            other.listen()
            places["BUSYPORT"] = str(other.getsockname()[1])
        if "BUSYDATA" in args:
            from feltro.filelock import FileLock

            (tmp_path / "busy").mkdir()
            held = FileLock(tmp_path / "busy" / "server.sqlite.lock", lambda holder: "busy")
            stack.callback(held.release)
            places["BUSYDATA"] = str(tmp_path / "busy")
        if {"CERT", "UNTRUSTED"} & set(args):
            places.update(_certificates(args, tmp_path, stack))
        yield places


def _certificates(args: tuple[str, ...], tmp_path: Path,
                  stack: contextlib.ExitStack) -> dict[str, str]:
    trustme = pytest.importorskip("trustme", reason="trustme is in the dev extra")
    authority = trustme.CA()  # trusted by nobody
    leaf, other = authority.issue_cert("127.0.0.1"), authority.issue_cert("127.0.0.1")
    cert, wrong = tmp_path / "cert.pem", tmp_path / "other-key.pem"
    cert.write_bytes(b"".join(blob.bytes() for blob in leaf.cert_chain_pems))
    other.private_key_pem.write_to_path(str(wrong))
    places = {"CERT": str(cert), "OTHERKEY": str(wrong)}
    if "UNTRUSTED" in args:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        leaf.configure_cert(context)
        listener = stack.enter_context(socket.socket())
        listener.bind(("127.0.0.1", 0))
        listener.listen()

        def answer() -> None:
            with contextlib.suppress(OSError):
                while True:
                    conn, _ = listener.accept()
                    with contextlib.suppress(OSError), conn:
                        context.wrap_socket(conn, server_side=True).close()

        threading.Thread(target=answer, daemon=True).start()
        places["UNTRUSTED"] = f"https://127.0.0.1:{listener.getsockname()[1]}/join/T"
    return places


@pytest.mark.parametrize("args", BAD, ids=" ".join)
def test_bad_input_is_one_line_and_no_traceback(
        args: tuple[str, ...], data: Path, played: None, tmp_path: Path,
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    series = _series(data, capsys)
    _damage(data, series)
    damaged = tmp_path / "damaged.sqlite"
    damaged.write_bytes(b"this is not a database" * 100)
    monkeypatch.setenv("FELTRO_CONFIG_DIR", str(tmp_path / "config"))
    with _placeholders(args, tmp_path) as places:
        places["DAMAGED"] = str(damaged)
        args = tuple(places.get(a, a) for a in args)
        code, out, err = run_cli(capsys, *args)
    assert code != 0, (out, err)
    assert "Traceback" not in out + err
    # replay's contract: the error is its one JSON line on stdout (feltro replay --help)
    lines = [line for line in (out if args[0] == "replay" and not err else err).splitlines()
             if line.strip()]
    assert len(lines) == 1, (out, err)


@pytest.mark.parametrize("args", [(), ("bench",)], ids=repr)
def test_no_command_shows_the_help(args: tuple[str, ...],
                                   capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, *args)
    assert code == 2
    assert "Usage" in out + err
    assert "Traceback" not in out + err


def test_a_damaged_hand_is_listed_not_fatal(data: Path, played: None,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    series = _series(data, capsys)
    _damage(data, series)
    code, out, err = run_cli(capsys, "history", series)
    assert code == 0, err
    assert "damaged" in out
    assert "Traceback" not in out + err


def test_errors_speak_the_chosen_language(data: Path, capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    code, _out, err = run_cli(capsys, "play", "--stack", "-5", "--lang", "pt-PT")
    assert code == 2
    assert "tem de ser pelo menos 1" in err
    assert "--stack" in err
    monkeypatch.setenv("LANG", "pt_BR.UTF-8")
    code, _out, err = run_cli(capsys, "simulate", "--players", "x")
    assert code == 2
    assert "não é um número inteiro" in err
    code, _out, err = run_cli(capsys, "history", "--lang", "xx")
    assert code == 2
    assert "idioma desconhecido" in err


def test_resume_of_an_unknown_series_lists_the_resumable(
        data: Path, played: None, capsys: pytest.CaptureFixture[str]) -> None:
    series = _series(data, capsys)
    code, _out, err = run_cli(capsys, "play", "--resume", "--series", "BADID")
    assert code == 1
    assert "BADID" in err
    assert series in err


def test_play_offers_the_unfinished_series(data: Path, played: None,
                                           capsys: pytest.CaptureFixture[str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    import feltro.cli.play as play

    series = _series(data, capsys)
    monkeypatch.setattr(play, "_can_ask", lambda: True)
    monkeypatch.setattr("builtins.input", lambda prompt="": "c")
    code, out, err = run_cli(capsys, "play")
    assert code == 0, err
    assert series in out
    assert len(list_series(data)) == 1  # continued, no new series
    assert list_series(data)[0].hands > 3
    monkeypatch.setattr("builtins.input", lambda prompt="": "n")
    code, out, err = run_cli(capsys, "play", "--seed", "4", "--players", "3")
    assert code == 0
    assert len(list_series(data)) == 2
    monkeypatch.setattr(play, "_can_ask", lambda: False)
    code, out, err = run_cli(capsys, "play", "--seed", "5", "--players", "3")
    assert code == 0
    assert "1 more unfinished series" in out


def test_history_finishes_and_deletes_a_series(data: Path, played: None,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    series = _series(data, capsys)
    assert not list_series(data)[0].over
    code, out, err = run_cli(capsys, "history", series, "--finish")
    assert code == 0, err
    info = list_series(data)[0]
    assert info.over
    assert info.end == "stopped"
    assert "is over" in out
    code, out, err = run_cli(capsys, "history", series, "--delete", "--lang", "pt-PT")
    assert code == 0, err
    assert "apagada" in out
    assert list_series(data) == []
    shutil.rmtree(data, ignore_errors=True)


def test_history_does_not_delete_a_series_being_played(
        data: Path, played: None, capsys: pytest.CaptureFixture[str]) -> None:
    from feltro.series_log import SeriesStore

    series = _series(data, capsys)
    log = list_series(data)[0].folder.log
    with SeriesStore.open(log):  # a game has it open
        code, _out, err = run_cli(capsys, "history", series, "--delete")
    assert code == 1
    assert "being played" in err
    assert log.exists()


# --- issue 24: what a newcomer types ----------------------------------------------------------

@pytest.mark.parametrize(("args", "argument"), [
    (("evaluate",), "CARDS"), (("verify",), "FILE"), (("replay",), "FILES"),
    (("equity",), "HANDS"), (("verify", "--lang", "pt-BR"), "FILE")])
def test_a_missing_argument_is_named(args: tuple[str, ...], argument: str, data: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err = run_cli(capsys, *args)
    assert code == 2
    assert argument in err, err
    assert ": (" not in err  # no empty message before the help hint
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("lang", ["en", "pt-PT"])
def test_replay_summary_of_a_missing_folder_says_it_cannot_read_it(
        lang: str, data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(capsys, "replay", "--summary", "nodir/", "--lang", lang)
    assert code == 2
    assert out == ""  # no summary of a corpus that is not there
    assert err.startswith("feltro replay: ")
    assert "cannot read nodir" in err or "ler nodir" in err
    assert ("cannot read" if lang == "en" else "não é possível ler") in err, err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(("lang", "words"), [
    ("en", "was dealt from deck position"), ("pt-PT", "foi dada da posição"),
    ("pt-BR", "foi distribuída da posição")])
def test_verify_words_a_tampered_card_in_the_chosen_language(
        lang: str, words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from feltro.fairdeal import sample_night

    export = sample_night(4, players=3, seed=5, sealed=False)[0].export()
    dealt = export["hands"][2]["dealt"][1]
    dealt["card"] = "2c" if dealt["card"] != "2c" else "3c"
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(export))
    code, _out, err = run_cli(capsys, "verify", str(tampered), "--lang", lang)
    assert code == 1
    detail = err.splitlines()[1]
    assert words in detail, err
    assert "dealt at" not in detail or lang == "en"  # no English left in the Portuguese


@pytest.mark.parametrize("args", [("--bots", "foo"), ("--players", "3", "--bots", "1"),
                                  ("--stop-at", "25:99"), ("--hotseat", "Ana,ana"),
                                  ("--level", "genius")])
def test_play_refuses_bad_options_before_offering_the_unfinished_series(
        args: tuple[str, ...], data: Path, played: None,
        capsys: pytest.CaptureFixture[str]) -> None:
    _series(data, capsys)  # an unfinished series, which play would offer
    code, out, err = run_cli(capsys, "play", *args)
    assert code == 2
    assert out == "", out  # the refusal comes first, alone
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("lang", ["en", "pt-PT", "pt-BR"])
def test_the_resume_prompt_quits_with_q_as_the_game_does(
        lang: str, data: Path, played: None, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """In the game S opens the standings and Q quits: the prompt before it agrees."""
    import feltro.cli.play as play

    _series(data, capsys)
    monkeypatch.setattr(play, "_can_ask", lambda: True)
    answers, prompts = iter(["s", "q"]), []

    def answer(prompt: str = "") -> str:
        prompts.append(prompt)
        return next(answers)

    monkeypatch.setattr("builtins.input", answer)
    code, _out, err = run_cli(capsys, "play", "--lang", lang)
    assert code == 0, err
    assert len(prompts) == 2  # S is not an answer; Q quits
    assert "Q:" in prompts[0]
    assert "S:" not in prompts[0]
    assert len(list_series(data)) == 1


def test_history_numbers_never_change_meaning(data: Path, played: None,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """`history 1 --finish` ends the series that was number 1 when it was listed, however
    many series start or are deleted meanwhile (issue 24)."""
    from feltro.tui.datadir import find_series

    first = _series(data, capsys)
    code, out, _err = run_cli(capsys, "history")
    assert code == 0
    row = next(line for line in out.splitlines() if first in line)
    number = row.split()[1] if row.split()[0] in "│┃|" else row.split()[0]
    for seed in ("4", "5"):  # two more series start, newer than the first
        assert run_cli(capsys, "play", "--seed", seed, "--players", "3")[0] == 0
    folder = find_series(data, number)
    assert folder is not None
    assert folder.id == first
    newest = list_series(data)[0].folder.id
    assert run_cli(capsys, "history", newest, "--delete")[0] == 0
    assert run_cli(capsys, "play", "--seed", "6", "--players", "3")[0] == 0
    numbers = {info.folder.id: info.folder.number for info in list_series(data)}
    assert numbers[first] == int(number)
    assert len(set(numbers.values())) == len(numbers)  # the deleted one's is not reused
    assert max(numbers.values()) == 4
    code, out, err = run_cli(capsys, "history", number, "--finish")
    assert code == 0, err
    assert first in out


def test_series_from_before_numbers_are_numbered_oldest_first(
        data: Path, played: None, capsys: pytest.CaptureFixture[str]) -> None:
    for seed in ("3", "4"):
        assert run_cli(capsys, "play", "--seed", seed, "--players", "3")[0] == 0
    for number in data.glob("series/*/number"):  # as an older feltro left them
        number.unlink()
    (data / "series.last-number").unlink()
    newest, oldest = (info.folder for info in list_series(data))
    assert (oldest.number, newest.number) == (1, 2)


def test_messages_name_the_command_as_the_person_ran_it(tmp_path: Path) -> None:
    """After `make play` there is no `feltro` on PATH: a message naming a command names
    `.venv/bin/feltro`, the one that works there (issue 24)."""
    import os
    import subprocess
    import sys

    from feltro.cli.invoked import feltro_command, install_command

    script = Path(sys.executable).parent / "feltro"
    if not script.is_file():
        pytest.skip("feltro's console script is not installed next to this Python")
    venv = tmp_path / "game"
    (venv / ".venv").mkdir(parents=True)
    (venv / ".venv" / "bin").symlink_to(script.parent)
    env = dict(os.environ, FELTRO_DATA_DIR=str(tmp_path / "data"), LANG="en_US.UTF-8",
               PATH="/usr/bin:/bin")  # no feltro on it
    env.pop("LC_ALL", None)
    run = subprocess.run([".venv/bin/feltro", "play", "--resume"], cwd=venv, env=env,
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 1
    assert "“.venv/bin/feltro play”" in run.stderr, run.stderr
    run = subprocess.run([".venv/bin/feltro", "history", "1"], cwd=venv, env=env,
                         capture_output=True, text=True, timeout=60)
    assert "“.venv/bin/feltro history”" in run.stderr, run.stderr
    run = subprocess.run([".venv/bin/feltro", "evaluate"], cwd=venv, env=env,
                         capture_output=True, text=True, timeout=60)
    assert "“.venv/bin/feltro evaluate --help”" in run.stderr, run.stderr
    on_path = tmp_path / "bin"
    on_path.mkdir()
    (on_path / "feltro").symlink_to(script)
    assert feltro_command(str(on_path / "feltro"), tmp_path,
                          which=lambda name: str(on_path / name)) == "feltro"
    assert install_command("server,tui", venv).endswith("[server,tui]'")  # quoted for zsh
