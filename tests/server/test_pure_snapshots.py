"""Snapshots are plain data: each seat's view and salts are computed when the table changes, and
no view can call back into the live hand, series or fair dealer.

Two checks, each shown to fail on what they replace:

* **By type.** No field of a snapshot (:class:`TableSnapshot` and the snapshots inside it) is a
  live object; the old ``_hand`` and ``_fair`` back doors are caught.
* **By behaviour.** A snapshot taken before an action still renders the same views after the
  table has moved on (the old snapshot asked the live hand for a seat's view, so the acting
  seat's legal actions vanished from a snapshot already taken).
"""

from __future__ import annotations

import dataclasses
import re
import sys
from typing import TYPE_CHECKING, Any

from srvkit import Harness, seat_table, wait_legal

from feltro.server import snapshot
from feltro.server.views import table_view, you_view

if TYPE_CHECKING:  # the old back doors' types, named in the negative control's annotations
    from feltro.hand import Hand
    from feltro.server.fairplay import FairPlay

LIVE = ("Hand", "Series", "SeriesStore", "Session", "FairPlay", "FairDealer", "LiveTable",
        "Journal", "HandLog")
"""Types whose objects change under a snapshot's feet."""


def live_fields(cls: type, namespace: dict[str, Any] | None = None,
                seen: set[type] | None = None) -> list[str]:
    """``Class.field: annotation`` for every field of the dataclass *cls* (and the dataclasses
    its fields name, looked up in its module and *namespace*) whose annotation names a live
    type."""
    seen = set() if seen is None else seen
    if cls in seen:
        return []
    seen.add(cls)
    names_of = {**vars(sys.modules[cls.__module__]), **(namespace or {})}
    found = []
    for field in dataclasses.fields(cls):
        text = field.type if isinstance(field.type, str) else repr(field.type)
        words = set(re.findall(r"[A-Za-z_]\w*", text))
        found += [f"{cls.__name__}.{field.name}: {text}" for _ in words & set(LIVE)][:1]
        for word in sorted(words):
            inner = names_of.get(word)
            if isinstance(inner, type) and dataclasses.is_dataclass(inner):
                found += live_fields(inner, namespace, seen)
    return found


def test_a_snapshot_holds_no_live_object() -> None:
    assert live_fields(snapshot.TableSnapshot) == []


def test_the_type_check_sees_the_old_back_doors() -> None:
    @dataclasses.dataclass(frozen=True)
    class OldHandPart:  # the old TableSnapshot kept the live hand and fair dealer
        number: int
        _hand: Hand | None = None

    @dataclasses.dataclass(frozen=True)
    class OldSnapshot:
        table_id: str
        hand: OldHandPart | None
        _fair: FairPlay | None = None

    assert live_fields(OldSnapshot, {"OldHandPart": OldHandPart}) == [
        "OldHandPart._hand: Hand | None", "OldSnapshot._fair: FairPlay | None"]
    # The series' hand summaries keep the finished hand (every card): caught too.
    from feltro.series import HandSummary

    assert live_fields(HandSummary) == ["HandSummary.hand: Hand"]


def _views(snap: snapshot.TableSnapshot, table: Any) -> list[str]:
    """Every view *snap* renders: the public one and each seat's own."""
    texts = [table_view(snap, "en").model_dump_json()]
    for seat in sorted(snap.seats):
        identity = table.lobby.identify_hash(snap.seats[seat].token_hash or "")
        texts.append(you_view(snap, identity, "en").model_dump_json())
    return texts


def test_a_snapshot_taken_before_an_action_still_says_what_the_table_was(
        harness: Harness) -> None:
    created, host, players = seat_table(harness, ["Ana", "Bruno", "Carla"])
    state = host.until(lambda f: f["type"] == "state" and f["table"]["hand"] is not None
                       and f["table"]["hand"]["to_act"] is not None)
    hand = state["table"]["hand"]
    actor = hand["to_act"]
    legal = wait_legal(players[actor], hand["number"], hand["turn"])
    table = harness.game(created["table_id"])
    before = table.snapshot()
    views = _views(before, table)
    assert any('"legal":{' in text for text in views)  # the actor's own legal actions
    players[actor].send(type="act", id="c1", hand=legal["hand"], turn=legal["turn"],
                        action="check" if legal["check"] else "call")
    assert players[actor].reply("c1")["type"] == "ack"
    assert table.snapshot().turn_key != before.turn_key  # the table moved on
    assert _views(before, table) == views
