"""What a phone downloads during play (issue 23, item 8): every frame one player's phone
receives while a six-seat table plays (the player checks or calls, five ``tag`` bots, deep
stacks so that all six play every hand), as sent with no compression (full ``state`` frames)
and as permessage-deflate sends them (zlib, memory level 5, context takeover): with the 32 KiB
window and the settings ``feltro serve`` uses (``feltro.server.transport.COMPRESS_SETTINGS``),
with zlib's default level 6 instead, with the 4 KiB window uvicorn offers by itself, and with no
context takeover.

Usage::

    python benchmarks/phone_bytes.py            # 40 hands
    python benchmarks/phone_bytes.py --hands 80

In-process (Starlette's test client, a fake clock): it measures bytes per hand, not time. A
websocket frame header (2 to 4 bytes) is counted for every frame.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import zlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "server"))

from srvkit import drive, harness_at, seat_table  # noqa: E402

from feltro.server.transport import COMPRESS_SETTINGS  # noqa: E402

SERVE_LEVEL = int(COMPRESS_SETTINGS["level"])


def _call_down(legal: dict[str, Any]) -> dict[str, Any]:
    return {"type": "act", "id": f"c{legal['hand']}-{legal['turn']}", "hand": legal["hand"],
            "turn": legal["turn"], "action": "check" if legal["check"] else "call"}


def _header(size: int) -> int:
    return 2 if size < 126 else 4 if size < 65536 else 10


def deflated(texts: Sequence[str], *, takeover: bool, bits: int = 12,
             level: int = SERVE_LEVEL) -> int:
    """Bytes on the wire with permessage-deflate (RFC 7692: the 4-byte tail is dropped)."""
    total = 0
    packer = zlib.compressobj(level, zlib.DEFLATED, -bits, 5)
    for text in texts:
        if not takeover:
            packer = zlib.compressobj(level, zlib.DEFLATED, -bits, 5)
        size = len(packer.compress(text.encode()) + packer.flush(zlib.Z_SYNC_FLUSH)) - 4
        total += size + _header(size)
    return total


def measure(hands: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder, harness_at(Path(folder)) as harness:
        _created, host, players = seat_table(harness, ["Ana"], bots=("tag",) * 5, seats=6,
                                             stack=20_000)
        drive(host, players, _call_down, lambda f: f["table"]["hands_played"] >= hands)
        phone = players[1]
        phone.drain(0.2)
        # The bots play on meanwhile (no pauses on the fake clock): count the first hands only.
        texts = [text for text, frame in zip(phone.raw, phone.frames, strict=True)
                 if frame["type"] != "state" or (frame["table"]["hand"] or {}).get("number", 0)
                 <= hands]
    raw = sum(len(t.encode()) + _header(len(t.encode())) for t in texts)
    return {"hands": hands, "frames": len(texts), "raw": raw,
            "feltro serve (32 KiB window)": deflated(texts, takeover=True, bits=15),
            "32 KiB window, zlib level 6": deflated(texts, takeover=True, bits=15, level=6),
            "uvicorn's 4 KiB window": deflated(texts, takeover=True),
            "no context takeover": deflated(texts, takeover=False)}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=40)
    args = parser.parse_args(argv)
    result = measure(args.hands)
    hands = result["hands"]
    print(f"{hands} hands, {result['frames']} frames to one phone")
    for key in ("raw", "feltro serve (32 KiB window)", "32 KiB window, zlib level 6",
                "uvicorn's 4 KiB window",
                "no context takeover"):
        share = result[key] / result["raw"]
        print(f"{key:>30}: {result[key] / hands / 1024:7.1f} KiB per hand "
              f"({share:.1%} of raw)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
