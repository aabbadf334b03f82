"""The night's hands to review (issue 23, item 7): ``POST /api/tables/{id}/hands`` gives every
finished hand as the table showed it, never a card nobody saw (a mucked hand, a folded one),
and a player's own hole cards only with their seat token."""

from __future__ import annotations

from typing import Any

from srvkit import Frame, Harness, cards_in, drive, seat_table


def _call_down(legal: dict[str, Any]) -> dict[str, Any]:
    return {"type": "act", "id": f"c{legal['hand']}-{legal['turn']}", "hand": legal["hand"],
            "turn": legal["turn"], "action": "check" if legal["check"] else "call"}


def _seen(frames: list[Frame]) -> dict[int, set[str]]:
    """Hand number -> every card the receiver of *frames* was shown during it, for the hands
    whose end it saw (with no pause between hands, a quick next deal may supersede a frame)."""
    seen: dict[int, set[str]] = {}
    ended: set[int] = set()
    for frame in frames:
        hand = frame.get("table", {}).get("hand") if frame["type"] == "state" else None
        if hand:
            if hand["over"]:
                ended.add(hand["number"])
            cards = set(hand["board"]) | {c for s in hand["showdown"] for c in s["cards"] or []}
            cards |= set(frame["you"].get("hole") or [])
            seen.setdefault(hand["number"], set()).update(cards)
    return {number: cards for number, cards in seen.items() if number in ended}


def test_review_shows_only_what_the_table_showed(harness: Harness) -> None:
    created, host, players = seat_table(harness, ["Ana", "Bruno", "Carla"], stack=100)
    table_id = created["table_id"]
    drive(host, players, _call_down, lambda f: f["table"]["hands_played"] >= 4)
    public = harness.client.post(f"/api/tables/{table_id}/hands", json={}).json()["hands"]
    assert [h["number"] for h in public][:4] == [1, 2, 3, 4]
    assert any(e["kind"] == "show" and e["cards"] for h in public for e in h["log"])
    watcher = _seen(host.frames)  # the host role sees the public table only
    assert len(watcher) >= 2
    for hand in public:
        assert hand["hole"] is None
        if hand["number"] in watcher:
            assert cards_in(hand) <= watcher[hand["number"]], hand["number"]
        assert all(e.get("cards") is None for e in hand["log"] if e["kind"] == "muck")
    # Bruno's token adds his own cards, nobody else's.
    mine = harness.client.post(f"/api/tables/{table_id}/hands",
                               json={"token": players[2].token}).json()["hands"]
    bruno = _seen(players[2].frames)
    for hand in mine:
        assert len(hand["hole"]) == 2
        if hand["number"] in bruno:
            assert cards_in(hand) <= bruno[hand["number"]], hand["number"]
    # A wrong token is no key: public only.
    other = harness.client.post(f"/api/tables/{table_id}/hands",
                                json={"token": "x" * 40}).json()["hands"]
    assert all(h["hole"] is None for h in other)
    assert harness.client.post(f"/api/tables/{table_id}/hands",
                               json={"token": "short"}).status_code == 422
