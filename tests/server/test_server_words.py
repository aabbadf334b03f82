"""The server sends codes and numbers, never English for people: every client words them in
its reader's language from the one catalogue (issue 19). A pt-PT table is played through
refusals, errors, a removal and the host's end; no string in a frame field meant for people is
English. The frames' ``reason`` of ``error`` and ``bye`` is the one English, a line for logs
and scripts that no client shows (the page scripts and ``feltro join`` never read it).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from srvkit import Frame, Harness, Phone, drive, legal_of

from feltro.i18n import t

# Words of English sentences that are not Portuguese words too ("a", "no", "for" are).
ENGLISH = frozenset(re.findall(r"\S+", """
    the is are not your you only may that this with has have of to be was cannot can't it its
    there please must wait again already too many seat hand table player host turn chips bet
    call check fold raise allowed over every some no-one nobody here out more than
"""))

LOG_ONLY = {("error", "reason"), ("bye", "reason")}
"""English lines for logs and scripts: the protocol says no client shows or reads them."""

SRC = Path(__file__).resolve().parents[2] / "src" / "feltro"


def strings(value: Any, path: str = "") -> Iterator[tuple[str, str]]:
    """``(path, text)`` for every string in a JSON value."""
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from strings(item, f"{path}.{key}")
    elif isinstance(value, list):
        for item in value:
            yield from strings(item, f"{path}[]")


def english(text: str) -> bool:
    """Whether *text* reads as an English sentence: two or more English-only words (a code
    such as ``not_host`` is data, not a sentence)."""
    if re.fullmatch(r"[a-z0-9_.-]+", text):
        return False
    words = set(re.findall(r"[a-z']+(?:-[a-z]+)?", text.lower()))
    return len(words & ENGLISH) >= 2


def english_for_people(frames: list[Frame]) -> list[str]:
    """``type.path: text`` for each English string in a field meant for people."""
    found = []
    for frame in frames:
        for path, text in strings(frame):
            top = path.split(".")[1] if path.count(".") == 1 else None
            if (frame["type"], top) in LOG_ONLY:
                continue
            if english(text):
                found.append(f"{frame['type']}{path}: {text}")
    return found


def _pt_table(harness: Harness) -> tuple[str, Phone, dict[int, Phone], Phone]:
    """A pt-PT table: the host, Ana and Bruno seated, a spectator; started."""
    created = harness.create_table(name="Mesa da Rita", seats=3, stack=20)
    table_id = created["table_id"]
    host = harness.phone(table_id)
    host.hello("host", created["host_token"], lang="pt-PT")
    players: dict[int, Phone] = {}
    for name in ("Ana", "Bruno"):
        phone = harness.phone(table_id)
        phone.hello(lang="pt-PT")
        phone.send(type="join", name=name, id="join")
        request = phone.until_type("seat_request")
        host.send(type="accept", request_id=request["request_id"], id="acc")
        accepted = phone.until(lambda f: f["type"] == "seat_request" and f["status"] == "accepted")
        players[accepted["seat"]] = phone
    late = harness.phone(table_id)
    late.hello(lang="pt-PT")
    late.send(type="join", name="Ana", id="same-name")  # name_taken
    late.until(lambda f: f["type"] == "error" and f.get("ref") == "same-name")
    host.send(type="start", id="start")
    host.reply("start")
    return table_id, host, players, late


def _errors(harness: Harness, table_id: str, host: Phone, players: dict[int, Phone],
            watcher: Phone) -> set[str]:
    """Provoke refusals of many kinds; the codes the pt-PT phones were answered with."""
    state = host.until(lambda f: f["type"] == "state" and f["table"]["hand"] is not None
                       and f["table"]["hand"]["to_act"] is not None)
    hand = state["table"]["hand"]
    actor, other = players[hand["to_act"]], players[3 - hand["to_act"]]
    legal = legal_of(actor.current(lambda f: legal_of(f) is not None)) or {}
    turn = {"hand": legal["hand"], "turn": legal["turn"]}
    sends = [
        (actor, {"type": "act", "id": "e1", "action": "raise", "to": 1, **turn}),
        (actor, {"type": "act", "id": "e2", "action": "check", **turn}),
        (actor, {"type": "act", "id": "e3", "action": "call", "hand": turn["hand"],
                 "turn": turn["turn"] + 7}),
        (other, {"type": "act", "id": "e4", "action": "fold", **turn}),
        (other, {"type": "start", "id": "e5"}),
        (watcher, {"type": "act", "id": "e6", "action": "fold", **turn}),
        (watcher, {"type": "nope", "id": "e7"}),
        (host, {"type": "add_bot", "kind": "nobody", "id": "e8"}),
        (host, {"type": "act", "id": "e9", "action": "raise", "to": -5, **turn}),
        (other, {"type": "hello", "protocol": 1, "role": "spectator", "lang": "pt-PT",
                 "id": "e10"}),
    ]
    codes = set()
    for phone, message in sends:
        phone.send(**message)
        answer = phone.until(lambda f, ref=message["id"]: f["type"] in ("error", "ack")
                             and f.get("ref") == ref)
        assert answer["type"] == "error", message
        codes.add(answer["code"])
    watcher.send_raw("{")
    codes.add(watcher.until_type("error")["code"])
    stranger = harness.phone(table_id)
    stranger.hello("player", "not-a-token-of-this-table-at-all-000000", lang="pt-PT")
    return codes


def _call_down(legal: dict[str, Any]) -> dict[str, Any]:
    """Check, else call: every hand goes to its showdown (and nobody is out in three)."""
    return {"type": "act", "id": f"c{legal['hand']}-{legal['turn']}", "hand": legal["hand"],
            "turn": legal["turn"], "action": "check" if legal["check"] else "call"}


def test_the_server_sends_no_english_to_a_portuguese_table(harness: Harness) -> None:
    table_id, host, players, watcher = _pt_table(harness)
    codes = _errors(harness, table_id, host, players, watcher)
    assert {"illegal_amount", "illegal_check", "stale", "not_your_turn", "not_host",
            "not_seated", "unknown_type", "invalid", "already_identified",
            "bad_json"} <= codes
    drive(host, players, _call_down, lambda f: f["table"]["hands_played"] >= 3)  # showdowns
    host.send(type="remove_player", seat=2, id="rm")
    host.reply("rm")
    assert players[2].until_type("bye")["code"] == "revoked"
    host.send(type="end", id="end")
    host.reply("end")
    over = drive(host, {1: players[1]}, _call_down, lambda f: f["table"]["status"] == "over")
    assert over["table"]["outcome"]["end"] == "ended"  # the host's End (issue 23)
    frames = [frame for phone in harness.phones for frame in phone.frames]
    assert len(frames) > 50
    assert english_for_people(frames) == []
    errors = [frame for frame in frames if frame["type"] == "error"]
    assert all(english(frame["reason"]) or frame["code"] == "bad_json" for frame in errors[:5])


def test_the_check_sees_english_for_people() -> None:
    # Negative controls: the state the server sent before (legal.refusals in English to every
    # reader) and a table problem or name left in English fail; the log lines do not.
    old_state = {"type": "state", "you": {"legal": {"refusals": {
        "check": "You can't check: there is a bet to you, 2 to call (B3)."}}}}
    assert english_for_people([old_state]) == [
        "state.you.legal.refusals.check: You can't check: there is a bet to you, 2 to call "
        "(B3)."]
    problem = {"type": "state", "table": {"problem": t("table_problem.stalled", "en")}}
    assert len(english_for_people([problem])) == 1
    assert english_for_people([{"type": "state", "table": {
        "problem": t("table_problem.stalled", "pt-PT"), "name": "Mesa da Rita"}}]) == []
    assert english_for_people([{"type": "error", "code": "not_host",
                                "reason": "only the host may do that"}]) == []
    assert not english("Par de ases")
    assert not english("Ana")


def test_no_client_shows_the_servers_english() -> None:
    """The page scripts and ``feltro join`` word errors and byes from their codes: none reads
    a frame's ``reason`` (a refusal's ``reason`` is a code, read as such)."""
    scripts = {path.name: path.read_text("utf-8")
               for path in (SRC / "server" / "static" / "js").glob("*.js")}
    read = {name: re.findall(r"\b(?!refusal\b)\w+\.reason\b", text)
            for name, text in scripts.items()}
    assert {name: found for name, found in read.items() if found} == {}
    remote = "".join(path.read_text("utf-8") for path in (SRC / "remote").glob("*.py"))
    assert not re.search(r"""(?:frame|msg|message)(?:\.get\(|\[)["']reason["']""", remote)
    # The check sees the old page code.
    assert re.findall(r"\b(?!refusal\b)\w+\.reason\b",
                      'return t("web.err.other", { reason: msg.reason });') == ["msg.reason"]
