"""The browser and the server agree on compressed frames (issue 23, item 8): Chromium's
websocket handshake ends with permessage-deflate, over the server's full 32 KiB window (the
4 KiB window uvicorn offers by itself would leave each ``state`` frame about 40% of its size)."""

from __future__ import annotations

from typing import Any

from browserkit import Server, new_context


def test_chromium_negotiates_deflate_with_the_wide_window(chromium: Any,
                                                           server: Server) -> None:
    table = server.create_table(seats=2)
    page = new_context(chromium, phone=False).new_page()
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    answers: list[dict[str, str]] = []
    cdp.on("Network.webSocketHandshakeResponseReceived",
           lambda event: answers.append(event["response"]["headers"]))
    page.goto(f"{server.url}/table/{table['table_id']}")
    page.wait_for_selector("#net[data-status='online']")
    assert answers
    headers = {k.lower(): v for k, v in answers[0].items()}
    extensions = headers.get("sec-websocket-extensions", "")
    assert "permessage-deflate" in extensions, headers
    assert "server_max_window_bits" not in extensions, extensions  # the full 15 bits
