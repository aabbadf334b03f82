"""The websocket protocol end to end: every client message type, every server message type,
seats by request, the host's controls."""

from __future__ import annotations

from srvkit import Harness, drive, passive, seat_table, wait_legal


def test_spectator_hello_gets_welcome_and_public_state(harness: Harness) -> None:
    created = harness.create_table(name="Friday", seats=4)
    phone = harness.phone(created["table_id"])
    welcome = phone.hello()
    assert welcome["role"] == "spectator"
    assert welcome["protocol"] == 1
    assert welcome["ref"] == "hello"
    state = phone.state
    assert state is not None
    assert state["table"]["name"] == "Friday"
    assert state["table"]["status"] == "lobby"
    assert [s["occupied"] for s in state["table"]["seats"]] == [False] * 4
    assert state["you"]["role"] == "spectator"
    assert state["you"]["requests"] is None  # only the host sees who asks


def test_ping_pong_before_and_after_hello(harness: Harness) -> None:
    phone = harness.phone(harness.create_table()["table_id"])
    phone.send(type="ping", t=123)
    pong = phone.until_type("pong")
    assert pong["t"] == 123
    assert pong["server_time"] > 0


def test_join_request_is_seen_by_host_and_accepted(harness: Harness) -> None:
    created = harness.create_table(seats=3)
    host = harness.phone(created["table_id"])
    assert host.hello("host", created["host_token"])["host"] is True
    ana = harness.phone(created["table_id"])
    ana.hello()
    ana.send(type="join", name="Ana", seat=2, id="j")
    request = ana.until_type("seat_request")
    assert request["status"] == "pending"
    assert request["ref"] == "j"
    assert len(request["token"]) >= 22  # >= 128 bits, URL-safe base64
    lobby = host.until(lambda f: f["type"] == "state" and bool(f["you"]["requests"]))
    assert lobby["you"]["requests"] == [{"request_id": request["request_id"], "name": "Ana",
                                         "seat": 2}]
    host.send(type="accept", request_id=request["request_id"], id="ok")
    assert host.reply("ok") == {"type": "ack", "ref": "ok"}
    accepted = ana.until(lambda f: f["type"] == "seat_request" and f["status"] == "accepted")
    assert accepted["seat"] == 2
    assert "token" not in accepted
    state = ana.until(lambda f: f["type"] == "state" and f["you"]["role"] == "player")
    assert state["you"]["seat"] == 2
    assert state["table"]["seats"][1]["name"] == "Ana"


def test_refused_request_and_pending_token_reconnect(harness: Harness) -> None:
    created, host = harness.host_table()
    bob, request = harness.ask_seat(created["table_id"], "Bob", "j")
    bob.close()
    again = harness.phone(created["table_id"])  # a refresh: same token, still pending
    assert again.hello("player", request["token"])["role"] == "pending"
    assert again.state is not None
    assert again.state["you"]["request"]["status"] == "pending"
    host.send(type="refuse", request_id=request["request_id"], id="no")
    assert host.reply("no")["type"] == "ack"
    refused = again.until(lambda f: f["type"] == "seat_request")
    assert refused["status"] == "refused"


def test_same_token_on_another_device_is_the_same_player(harness: Harness) -> None:
    created, _host, players = seat_table(harness, ["Ana", "Bruno"], start=False)
    token = players[1].token
    assert token is not None
    tablet = harness.phone(created["table_id"])
    welcome = tablet.hello("player", token)
    assert welcome["role"] == "player"
    assert welcome["seat"] == 1


def test_whole_hand_with_every_action_kind(harness: Harness) -> None:
    _created, host, players = seat_table(harness, ["Ana", "Bruno", "Carla"])
    seen_kinds: set[str] = set()
    plan = ["raise", "call", "fold", "check", "check"]
    for step in range(40):
        frame = host.until(lambda f: f["type"] == "state")
        hand = frame["table"]["hand"]
        if hand is None or hand["over"] or hand["to_act"] is None:
            if hand is not None and hand["over"]:
                break
            continue
        phone = players[hand["to_act"]]
        legal = wait_legal(phone, hand["number"], hand["turn"])
        want = plan[step % len(plan)]
        message = {"type": "act", "id": f"s{step}", "hand": legal["hand"], "turn": legal["turn"]}
        if want == "raise" and legal["raise"]:
            message.update(action="raise", to=legal["raise"]["min"])
        elif want == "fold" and not legal["check"]:
            message.update(action="fold")
        elif want == "check" and legal["check"]:
            message.update(action="check")
        else:
            message.update(action="check" if legal["check"] else "call")
        phone.send(**message)
        assert phone.reply(f"s{step}")["type"] == "ack"
        seen_kinds.add(str(message["action"]))
    final = host.state
    assert final is not None
    assert final["table"]["hand"]["over"] or final["table"]["hands_played"] >= 1
    assert {"raise", "call"} <= seen_kinds
    log_kinds = {e["kind"] for f in host.frames if f["type"] == "state" and f["table"]["hand"]
                 for e in f["table"]["hand"]["log"]}
    assert {"blind", "action"} <= log_kinds


def test_set_lang_changes_hand_names(harness: Harness) -> None:
    _created, _host, players = seat_table(harness, ["Ana", "Bruno"])
    ana = players[1]
    state = ana.until(lambda f: f["type"] == "state" and f["you"]["hole"] is not None)
    english = state["you"]["hand_name"]
    ana.send(type="set_lang", lang="pt-PT", id="lang")
    assert ana.reply("lang")["type"] == "ack"
    again = ana.until(lambda f: f["type"] == "state" and f["you"]["lang"] == "pt-PT")
    assert again["you"]["hole"] == state["you"]["hole"]
    assert again["you"]["hand_name"] != english or english is None


def test_away_and_back_messages(harness: Harness) -> None:
    _created, host, players = seat_table(harness, ["Ana", "Bruno", "Carla"])
    ana = players[1]
    ana.send(type="away", id="brb")
    assert ana.reply("brb")["type"] == "ack"
    state = host.until(lambda f: f["type"] == "state" and f["table"]["seats"][0]["away"])
    assert state["table"]["seats"][0]["away"] is True
    ana.send(type="back", id="here")
    assert ana.reply("here")["type"] == "ack"
    host.until(lambda f: f["type"] == "state" and not f["table"]["seats"][0]["away"])


def test_bots_fill_seats_and_are_labelled(harness: Harness) -> None:
    _created, host, _players = seat_table(harness, ["Ana"], bots=("station", "tight"),
                                        start=False)
    state = host.until(lambda f: f["type"] == "state"
                       and sum(s["occupied"] for s in f["table"]["seats"]) == 3)
    bots = [s for s in state["table"]["seats"] if s["occupied"] and s["bot"]]
    assert [b["bot"] for b in bots] == ["station", "tight"]
    assert state["you"]["bots"]  # the host is told which kinds exist
    host.send(type="remove_bot", seat=bots[0]["seat"], id="rb")
    assert host.reply("rb")["type"] == "ack"
    state = host.until(lambda f: f["type"] == "state"
                       and sum(s["occupied"] for s in f["table"]["seats"]) == 2)
    host.send(type="add_bot", kind="random", name="Robo", seat=bots[0]["seat"], id="ab")
    assert host.reply("ab")["type"] == "ack"
    state = host.until(lambda f: f["type"] == "state"
                       and sum(s["occupied"] for s in f["table"]["seats"]) == 3)
    robo = state["table"]["seats"][bots[0]["seat"] - 1]
    assert robo["name"] == "Robo"
    assert robo["bot"] == "random"


def test_the_expert_level_is_offered_and_seated(harness: Harness) -> None:
    _created, host, _players = seat_table(harness, ["Ana"], bots=("expert",), start=False)
    state = host.until(lambda f: f["type"] == "state"
                       and sum(s["occupied"] for s in f["table"]["seats"]) == 2)
    assert "expert" in state["you"]["bots"]
    assert [s["bot"] for s in state["table"]["seats"] if s["occupied"] and s["bot"]] == [
        "expert"]


def test_host_controls_pause_resume_end(harness: Harness) -> None:
    _created, host, players = seat_table(harness, ["Ana", "Bruno"], bots=("station",))
    host.until(lambda f: f["type"] == "state" and f["table"]["hand"] is not None)
    host.send(type="pause", id="p")
    assert host.reply("p")["type"] == "ack"
    state = host.until(lambda f: f["type"] == "state" and f["table"]["paused"])
    assert state["table"]["pause_pending"] is True  # the hand in progress is finished first
    host.send(type="resume", id="r")
    assert host.reply("r")["type"] == "ack"
    host.send(type="end", id="e")
    assert host.reply("e")["type"] == "ack"
    state = host.until(lambda f: f["type"] == "state" and f["table"]["stop"]["requested"])
    assert state["table"]["stop"]["last_hand"] is True
    state = drive(host, players, passive, lambda f: f["table"]["status"] == "over")
    assert state["table"]["status"] == "over"
    outcome = state["table"]["outcome"]
    assert outcome["end"] == "ended"  # the host ended it: not "at the agreed time" (issue 23)
    assert outcome["hands"] == 1
    assert outcome["winners"]


def test_host_marks_away_removes_and_passes_host_role(harness: Harness) -> None:
    _created, host, players = seat_table(harness, ["Ana", "Bruno", "Carla"])
    host.send(type="mark_away", seat=3, id="ma")
    assert host.reply("ma")["type"] == "ack"
    host.until(lambda f: f["type"] == "state" and f["table"]["seats"][2]["away"])
    host.send(type="remove_player", seat=2, id="rm")
    assert host.reply("rm")["type"] == "ack"
    bye = players[2].until_type("bye")
    assert "no longer valid" in bye["reason"]
    state = host.until(lambda f: f["type"] == "state" and f["table"]["seats"][1]["removed"])
    assert state["table"]["seats"][1]["stack"] is not None  # chips stay: no stack edits
    host.send(type="pass_host", seat=1, id="ph")
    assert host.reply("ph")["type"] == "ack"
    assert host.until_type("bye")["type"] == "bye"  # the old host link is revoked
    ana = players[1]
    mine = ana.until(lambda f: f["type"] == "state" and f["you"]["host"])
    assert mine["table"]["seats"][0]["host"] is True
    ana.send(type="pause", id="p2")
    assert ana.reply("p2")["type"] == "ack"


def test_host_joins_own_table_and_is_seated_at_once(harness: Harness) -> None:
    created, host = harness.host_table(seats=2)
    host.send(type="join", name="Hostess", id="me")
    answer = host.until_type("seat_request")
    assert answer["status"] == "accepted"
    assert answer["seat"] == 1
    mine = harness.phone(created["table_id"])
    assert mine.hello("player", answer["token"])["seat"] == 1


def test_http_routes(harness: Harness) -> None:
    client = harness.client
    created = harness.create_table(name="Sábado")
    table_id = created["table_id"]
    assert created["join_url"].endswith(f"/join/{table_id}")
    assert created["host_url"].endswith(f"/host/{table_id}#{created['host_token']}")
    assert client.get("/healthz").text == "ok"
    assert client.get("/api/info").json()["protocol"] == 1
    listed = client.get("/api/tables").json()
    assert [t["table_id"] for t in listed] == [table_id]
    assert created["host_token"] not in client.get(f"/api/tables/{table_id}").text
    qr = client.get(f"/api/tables/{table_id}/qr.svg")
    assert qr.headers["content-type"].startswith("image/svg+xml")
    assert b"<svg" in qr.content
    assert client.post("/api/qr", json={"text": "x" * 600}).status_code == 422
    assert client.post("/api/qr", json={"text": "http://a/b#c"}).status_code == 200
    assert client.get(f"/api/tables/{table_id}/chips").json() == {"players": {}, "hands": []}
    assert client.get("/api/tables/nope").status_code == 404
    for page in ("/", f"/host/{table_id}", f"/join/{table_id}", f"/play/{table_id}",
                 f"/table/{table_id}"):
        response = client.get(page)
        assert response.status_code == 200
        assert "text/html" in response.headers["content-type"]


def test_create_table_validation(harness: Harness) -> None:
    client = harness.client
    bad = [{"seats": 1}, {"seats": 11}, {"stack": 0}, {"small_blind": 3, "big_blind": 2},
           {"ante": -1}, {"stop_at": "tonight"}, {"stop_at": "2026-01-01T23:00:00"},
           {"name": ""}, {"name": "x" * 25}, {"seats": "6"}, {"surprise": 1},
           {"action_seconds": 1}]
    for body in bad:
        harness.clock.advance(10)  # creation is rate-limited per address (10 a minute)
        response = client.post("/api/tables", json=body)
        assert response.status_code == 422, body
        assert "error" in response.json()
    assert client.post("/api/tables", content=b"{" * 5000,
                       headers={"content-type": "application/json"}).status_code == 413


def test_chips_history_after_hands(harness: Harness) -> None:
    created, host, _players = seat_table(harness, [], bots=("station", "tight", "random"),
                                         max_hands=3)
    over = host.until(lambda f: f["type"] == "state" and f["table"]["status"] == "over",
                      timeout=10)
    played = over["table"]["outcome"]["hands"]
    assert 1 <= played <= 3  # three hands, unless a bot took every chip sooner
    chips = harness.client.get(f"/api/tables/{created['table_id']}/chips").json()
    assert [h["hand"] for h in chips["hands"]] == list(range(1, played + 1))
    assert all(sum(h["stacks"].values()) == 600 for h in chips["hands"])


def test_pending_requests_are_refused_at_the_start(harness: Harness) -> None:
    created, host, _players = seat_table(harness, ["Ana", "Bruno"], start=False, seats=3)
    late = harness.phone(created["table_id"])
    late.hello()
    late.send(type="join", name="Late", id="j")
    assert late.until_type("seat_request")["status"] == "pending"
    host.send(type="start", id="s")
    assert host.reply("s")["type"] == "ack"
    refused = late.until(lambda f: f["type"] == "seat_request")
    assert refused["status"] == "refused"


def test_security_headers(harness: Harness) -> None:
    response = harness.client.get("/api/info")
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["x-frame-options"] == "DENY"
    assert response.headers["referrer-policy"] == "no-referrer"


def test_settings_from_an_older_log_get_defaults() -> None:
    from feltro.server.table_settings import TableSettings

    settings = TableSettings.from_dict({"name": "Old", "seats": 4, "stack": 100,
                                        "small_blind": 1, "big_blind": 2, "ante": 0,
                                        "structure": "no-limit", "stop_at": None})
    assert settings.action_seconds == 30
    assert settings.bank_seconds == 60
