"""docs/protocol.md stays true: its message examples parse, and every message type has one."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from feltro.server.outgoing import SERVER_MESSAGE
from feltro.server.protocol import CLIENT_TYPES, parse_client_message

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
_EXAMPLE = re.compile(r"`(\{\"type\":\s*\"[a-z_]+\".*?\})`")
SERVER_TYPES = {"welcome", "state", "seat_request", "ack", "error", "pong", "bye"}


def _examples() -> list[dict[str, Any]]:
    found = []
    for text in _EXAMPLE.findall(DOC.read_text(encoding="utf-8")):
        if "…" in text:  # elided examples (tokens, whole states) are for reading only
            continue
        found.append(json.loads(text))
    return found


def test_every_message_type_has_an_example() -> None:
    text = DOC.read_text(encoding="utf-8")
    for kind in CLIENT_TYPES | SERVER_TYPES:
        assert f'"type":"{kind}"' in text.replace('"type": "', '"type":"'), kind


@pytest.mark.parametrize("example", _examples(), ids=lambda e: e["type"])
def test_examples_are_valid(example: dict[str, Any]) -> None:
    if example["type"] in CLIENT_TYPES and "ref" not in example:
        parse_client_message(json.dumps(example))
    else:
        SERVER_MESSAGE.validate_python(example)


def _fair_block(heading: str) -> dict[str, Any]:
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index(heading):]
    block = section[section.index("```json") + 7:section.index("```", section.index("```json")
                                                                + 7)]
    data: dict[str, Any] = json.loads(block)
    return data


def test_the_fair_examples_are_valid() -> None:
    from feltro.server.outgoing import FairOut, FairOwnOut

    public = _fair_block("### `table.fair`")
    public["hand"]["positions"] = ["00" * 32] * 52  # the example elides them
    FairOut.model_validate(public)
    FairOwnOut.model_validate(_fair_block("### `you.fair`"))
    with pytest.raises(ValueError, match="next"):
        FairOut.model_validate({**public, "next": {"hand": "x"}})
