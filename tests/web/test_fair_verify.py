"""The browser's own verifier (static/js/verify.js, WebCrypto) on the same nights and the same
tamperings as the Python one (tests/fairkit.py), in a phone-sized Chromium context, and its
speed: a 300-hand night in under 3 s.

The page is a small static one served from a temporary folder on 127.0.0.1 (a secure context,
so ``crypto.subtle`` exists) next to a copy of verify.js; no feltro server is involved.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import json
import shutil
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browserkit import ROOT, new_context

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from fairkit import TAMPERINGS, every_single_change, forged_night, tampered
from feltro.fairdeal import sample_night
from feltro.fairness import read_export, verify_hands
from test_fairness_doc import roster_vectors, vectors

VERIFY_JS = ROOT / "src" / "feltro" / "server" / "static" / "js" / "verify.js"
PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>verify.js test page</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><main><h1>verify.js</h1><p id="state">loading</p></main>
<script type="module">
import * as verify from "./static/js/verify.js";
window.verify = verify;
document.getElementById("state").textContent = "ready";
</script></body></html>
"""


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("verify-site")
    (folder / "static" / "js").mkdir(parents=True)
    shutil.copy(VERIFY_JS, folder / "static" / "js" / "verify.js")
    (folder / "index.html").write_text(PAGE, encoding="utf-8")
    handler = functools.partial(_Quiet, directory=str(folder))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/index.html"
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.fixture(scope="module")
def page(chromium: Any, site: str) -> Iterator[Any]:
    context = new_context(chromium, phone=True)
    try:
        tab = context.new_page()
        tab.goto(site)
        tab.wait_for_function("document.getElementById('state').textContent === 'ready'")
        yield tab
    finally:
        context.close()


@pytest.fixture(scope="module")
def night() -> dict[str, Any]:
    return sample_night(6)[0].export()


def browser_verdict(page: Any, export: Any) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate("(data) => window.verify.verifySeries(data)", export)
    return result


def python_verdict(export: dict[str, Any]) -> tuple[str | None, int | None]:
    from feltro.fairness import FairnessFormatError

    try:
        verdict = verify_hands(*read_export(export), export=True)
    except FairnessFormatError:
        return "format", None
    if verdict.failure is None:
        return None, None
    return verdict.failure.check.value, verdict.failure.hand


def test_the_browser_verifies_a_night(page: Any, night: dict[str, Any]) -> None:
    result = browser_verdict(page, night)
    assert result == {"ok": True, "hands": 6, "fingerprint": night["fingerprint"],
                      "firstFailure": None}
    # A JSON string is accepted too (a file the player picked).
    assert browser_verdict(page, json.dumps(night))["ok"] is True


@pytest.mark.parametrize("name", sorted(TAMPERINGS))
def test_both_verifiers_catch_every_tampering(page: Any, night: dict[str, Any],
                                              name: str) -> None:
    changed = tampered(night, name)
    _change, check, hand = TAMPERINGS[name]
    assert python_verdict(changed) == (check.value, hand)
    result = browser_verdict(page, changed)
    assert result["ok"] is False
    failure = result["firstFailure"]
    if check.value == "format":
        assert failure["check"] == "format"
    else:
        assert (failure["check"], failure["hand"]) == (check.value, hand), failure


def test_the_browser_is_not_the_servers_echo(page: Any, night: dict[str, Any]) -> None:
    # The export's own fingerprint is not trusted: a consistent but different night gives
    # a different code, and the browser computes it itself.
    other = sample_night(6, seed=1)[0].export()
    mine = browser_verdict(page, other)
    assert mine["ok"] is True
    assert mine["fingerprint"] == other["fingerprint"] != night["fingerprint"]
    wrong = {**night, "fingerprint": "0000-0000"}
    claimed = browser_verdict(page, wrong)
    assert claimed["ok"] is False
    assert claimed["fingerprint"] == night["fingerprint"]  # computed, not echoed


@pytest.mark.parametrize(("kind", "seat"), [("outsider", 200), ("unnamed", 1)])
def test_the_browser_rejects_a_consistent_forgery_of_who_contributed_D1(
        page: Any, kind: str, seat: int) -> None:
    result = browser_verdict(page, forged_night(kind))
    assert result["ok"] is False
    assert (result["firstFailure"]["check"], result["firstFailure"]["hand"]) == \
        ("contribution", 2)
    assert f"seat {seat}" in result["firstFailure"]["detail"]


def test_a_300_hand_night_takes_under_3_s_on_a_phone(page: Any) -> None:
    export = sample_night(300)[0].export()
    text = json.dumps(export)
    elapsed: dict[str, Any] = page.evaluate("""async (text) => {
        const start = performance.now();
        const result = await window.verify.verifySeries(text);
        return { ms: performance.now() - start, ok: result.ok, hands: result.hands };
    }""", text)
    assert elapsed["ok"] is True
    assert elapsed["hands"] == 300
    assert elapsed["ms"] < 3000, elapsed
    with contextlib.suppress(OSError):
        (ROOT / "artifacts").mkdir(exist_ok=True)
        (ROOT / "artifacts" / "verify-browser-ms.txt").write_text(f"{elapsed['ms']:.0f}\n")


def test_the_browser_gives_the_documented_vectors(page: Any) -> None:
    v = vectors()
    got: dict[str, Any] = page.evaluate("""async (v) => {
        const m = window.verify, hex = m.toHex, bytes = m.fromHex;
        const secret = bytes(v.secret);
        const contributions = v.contributions.map((c) => [c.seat, bytes(c.value)]);
        const seed = await m.deckSeed(secret, v.table, v.hand, contributions);
        const key = await crypto.subtle.importKey("raw", seed, { name: "HMAC", hash: "SHA-256" },
                                                  false, ["sign"]);
        const deck = await m.deckOrder(seed);
        const salts = await m.positionSalts(seed);
        const positions = [];
        for (let i = 0; i < 52; i++) {
            positions.push(await m.positionCommitment(salts[i], i, deck[i]));
        }
        const commit = await m.commitment(secret);
        const deal = await m.dealCommitment(positions);
        const genesis = await m.genesis(v.table);
        const chain = await m.chainLink(genesis, v.hand, commit, contributions, deal);
        return {
            commit_message: hex(m.message("commit", secret)),
            commitment: hex(commit),
            sealed_seat_2: hex(await m.contributionCommitment(v.table, v.hand, 2,
                                                               contributions[0][1])),
            seed: hex(seed),
            stream_block_0: hex(await m.streamBlock(key, 0)),
            deck: deck.map(m.cardText).join(" "),
            salt_0: hex(salts[0]), salt_51: hex(salts[51]),
            position_0: hex(positions[0]),
            deal: hex(deal), genesis: hex(genesis), chain: hex(chain),
            fingerprint: m.fingerprint(chain),
        };
    }""", v)
    assert got == {key: v[key] for key in got}


def test_the_browser_gives_the_documented_dealing_positions_D4_D5(page: Any) -> None:
    v = roster_vectors()
    got: dict[str, Any] = page.evaluate("""(v) => {
        const m = window.verify, hole = {};
        v.seats.forEach((seat, p) => { hole[String(seat)] = m.holePositions(v.players, p); });
        return { hole, board: m.boardPositions(v.players) };
    }""", v)
    assert got == {"hole": v["hole"], "board": v["board"]}


def test_the_browser_never_throws_on_a_bad_file(page: Any, night: dict[str, Any]) -> None:
    first = night["hands"][0]
    bad: list[Any] = [
        "{not json", None, 7, [], {"format": "feltro-fair-export/1"},
        {**night, "hands": [{**first, "positions": [1]}]},
        {**night, "hands": [{**first, "dealt": [{"position": 0, "card": "Xx"}]}]},
        {**night, "hands": [{**first, "dealt": [{"position": 300, "card": "As"}]}]},
        {**night, "hands": [{**first, "hand": "1"}]},
        {**night, "hands": [{**first, "secret": "abc"}]},
        {**night, "hands": [{**first, "contributions": [{"seat": 1}]}]},
        {**night, "hands": [{**first, "salts": [{"position": 99, "salt": "00" * 32}]}]},
    ]
    for value in bad:
        result = browser_verdict(page, value)
        assert result["ok"] is False, value
        expected = python_verdict(value)[0] if isinstance(value, dict) else "format"
        assert result["firstFailure"]["check"] == expected, (value, result)


def test_the_browser_checks_a_card_it_sees(page: Any) -> None:
    v = vectors()
    top = v["deck"].split()[0]
    other = "2c" if top != "2c" else "3c"
    results = page.evaluate("""async ([v, top, other]) => [
        await window.verify.cardMatches(v.position_0, v.salt_0, 0, top),
        await window.verify.cardMatches(v.position_0, v.salt_0, 0, other),
        await window.verify.cardMatches(v.position_0, v.salt_0, 1, top),
        await window.verify.cardMatches(v.position_0, "zz", 0, top),
        await window.verify.cardMatches(v.position_0, v.salt_0, 0, "Xx"),
    ]""", [v, top, other])
    assert results == [True, False, False, False, False]


def test_the_browser_binds_every_single_published_value(page: Any,
                                                        night: dict[str, Any]) -> None:
    changes = every_single_change(night)
    oks = page.evaluate("""async (exports) => {
        const out = [];
        for (const e of exports) out.push((await window.verify.verifySeries(e)).ok);
        return out;
    }""", [changed for _, changed in changes])
    missed = [what for (what, _), ok in zip(changes, oks, strict=True) if ok]
    assert missed == []
