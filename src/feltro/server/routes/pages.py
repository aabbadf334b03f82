"""The web pages: one shell (``static/shell.html``) for every page, and the shared catalogue.

Every page is the same HTML shell with its name filled in (the ``<body>`` class
``page-<name>`` and the module ``/static/js/<name>.js``) and the list of languages
(:data:`feltro.i18n.LANGUAGES`, each named in itself, as JSON in ``#feltro-languages``); the
module builds the page. Secrets in
links go after ``#`` (``/host/{id}#<host token>``, ``/play/{id}#<seat token>``): browsers
never send that part to the server.

To add a page: write ``static/js/<name>.js`` (it starts with ``boot(...)`` from ``boot.js``) and
add the page to :data:`PAGES`: its address (``"/rules"``, or ``"/x/{table_id}"`` for a
table's page) and its module's name.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from functools import cache
from pathlib import Path
from string import Template
from typing import Final

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from feltro.i18n import LANGUAGES, catalogue, language_names
from feltro.server.routes import config_of

__all__ = ["PAGES", "PLACEHOLDER", "router"]

router = APIRouter(include_in_schema=False)

PAGES: Final = {
    "/": "index",
    "/host/{table_id}": "host",
    "/join/{table_id}": "join",
    "/play/{table_id}": "play",
    "/table/{table_id}": "screen",
}
"""Every page: its address -> its module (``static/js/<module>.js``)."""

PLACEHOLDER: Final = """<!doctype html><html lang="en"><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>feltro</title>
<body><h1>feltro</h1><p>The feltro server is running. The web pages are not installed in this
copy; clients can use the websocket protocol at <code>/ws/&lt;table&gt;</code>.</p></body></html>
"""


@cache
def _shell(folder: Path) -> Template | None:
    path = folder / "shell.html"
    return Template(path.read_text(encoding="utf-8")) if path.is_file() else None


def page(request: Request, module: str) -> Response:
    """The shell with *module*'s name filled in (a placeholder when the pages are missing)."""
    shell = _shell(config_of(request).static_dir)
    if shell is None:
        return HTMLResponse(PLACEHOLDER)
    return HTMLResponse(shell.substitute(page=module, languages=_languages_json()))


@cache
def _languages_json() -> str:
    """:data:`feltro.i18n.LANGUAGES` with their names, for the shell (the pages' one list)."""
    names = language_names()
    data = [{"code": code, "name": names[code]} for code in LANGUAGES]
    return json.dumps(data, ensure_ascii=False).replace("<", "\\u003c")


def _page_route(module: str) -> Callable[[Request], Awaitable[Response]]:
    async def show_page(request: Request) -> Response:
        return page(request, module)
    return show_page


for _address, _module in PAGES.items():
    router.add_api_route(_address, _page_route(_module), methods=["GET"],
                         name=f"page_{_module}")


@router.get("/static/i18n/{lang}.json")
async def shared_catalogue(lang: str) -> Response:
    """The one catalogue of every interface (:mod:`feltro.i18n`), served straight from its TOML
    so that the pages and the terminal can never drift apart."""
    if lang not in LANGUAGES:
        return JSONResponse({"error": f"unknown language {lang!r}"}, status_code=404)
    return JSONResponse(dict(catalogue(lang)), headers={"cache-control": "no-cache"})
