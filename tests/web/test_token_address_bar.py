"""A token read from a link leaves the address bar and the history at once (issue 22, item 4):
pages kept it there, so it stayed in the browser's history. Failed before the fix."""

from __future__ import annotations

from typing import Any

from browserkit import Server
from flows import host_page


def test_the_host_token_leaves_the_address_bar(chromium: Any, server: Server) -> None:
    table = server.create_table(seats=2)
    page, _frames, errors = host_page(chromium, server, table)
    token = table["host_token"]
    assert token not in page.url
    assert page.evaluate("location.hash") == ""
    page.reload()  # the token stays on the device: the page reconnects without it in the URL
    page.wait_for_selector("#net[data-status='online']")
    assert token not in page.url
    assert not errors
