"""The Rules page: the house rules (:mod:`feltro.rules`) as HTML, in the reader's language.

``GET /rules?lang=pt-PT#B8`` and ``GET /rules/pt-PT#B8`` show the whole document with every
rule in a ``<section id="B8">``, so that any page can link to one rule; without a language
the browser's (``Accept-Language``) is used, else English. Rule ids inside the rules link to
their section. ``GET /api/rules?lang=L`` gives ``{"lang", "rules": {id: title}}`` for scripts
(``static/js/rulelinks.js`` uses the ids to link them wherever they appear on a page).

The router is included by :func:`feltro.server.app.create_app`.
"""

from __future__ import annotations

import html
from functools import cache
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from feltro.i18n import LANGUAGES, language_names, t
from feltro.rules import RULE_ID_PATTERN, RULE_IDS, blocks, rules

__all__ = ["page_language", "render_rules_page", "router"]

router = APIRouter()



def page_language(asked: str | None, accept_language: str | None) -> str:
    """*asked* when feltro speaks it, else the first of the browser's languages it speaks,
    else English.

    >>> page_language("pt-BR", None), page_language(None, "pt-PT,pt;q=0.9,en;q=0.8")
    ('pt-BR', 'pt-PT')
    >>> page_language("fr", "fr-FR, pt-BR;q=0.5"), page_language(None, None)
    ('pt-BR', 'en')
    """
    if asked in LANGUAGES:
        return asked
    for part in (accept_language or "").split(","):
        tag = part.split(";", 1)[0].strip().lower()
        if tag.startswith("pt-br"):
            return "pt-BR"
        if tag.startswith("pt"):
            return "pt-PT"
        if tag.startswith("en"):
            return "en"
    return "en"


def _link_ids(markdown: str) -> str:
    """Every known rule id outside headings becomes a link to its section."""
    out = []
    for line in markdown.splitlines():
        if not line.startswith("#"):
            line = RULE_ID_PATTERN.sub(
                lambda m: f"[{m.group(1)}](#{m.group(1)})" if m.group(1) in RULE_IDS
                else m.group(0), line)
        out.append(line)
    return "\n".join(out)


@cache
def render_rules_page(lang: str) -> str:
    """The whole Rules page of *lang* as an HTML document."""
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": False})
    parts: list[str] = []
    for rule_id, markdown in blocks(lang):
        body = md.render(_link_ids(markdown))
        if rule_id is None:
            parts.append(body)
        else:
            parts.append(f'<section id="{rule_id}" class="rule">\n{body}</section>')
    langs = " ".join(
        f'<a href="/rules/{code}" hreflang="{code}" lang="{code}"'
        + (' aria-current="page"' if code == lang else "")
        + f">{html.escape(name)}</a>"
        for code, name in language_names().items())
    title = html.escape(t("rules.title", lang))
    return (
        f'<!doctype html>\n<html lang="{lang}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="color-scheme" content="dark light">\n'
        '<meta name="referrer" content="no-referrer">\n'
        f"<title>feltro · {title}</title>\n"
        '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">\n'
        '<link rel="stylesheet" href="/static/feltro.css">\n'
        "</head>\n"
        f'<body class="page-rules">\n<main id="main">\n'
        f'<nav class="langs" aria-label="{title}">{langs}</nav>\n'
        + "\n".join(parts)
        + '\n<p><a href="/">feltro</a></p>\n</main>\n</body>\n</html>\n'
    )


def _page(lang: str) -> Response:
    return HTMLResponse(render_rules_page(lang), headers={"content-language": lang})


@router.get("/rules", include_in_schema=False)
async def rules_page(request: Request, lang: str | None = None) -> Response:
    """The Rules page in ``?lang=``, else the browser's language, else English."""
    return _page(page_language(lang, request.headers.get("accept-language")))


@router.get("/rules/{lang}", include_in_schema=False)
async def rules_page_in(lang: str) -> Response:
    """The Rules page in *lang*; an unknown language is a 404 naming the ones there are."""
    if lang not in LANGUAGES:
        links = ", ".join(f'<a href="/rules/{code}">{code}</a>' for code in LANGUAGES)
        return HTMLResponse(f'<!doctype html><html lang="en"><meta charset="utf-8">'
                            f"<title>feltro</title><p>No rules in {html.escape(lang)}: "
                            f"{links}.</p></html>", status_code=404)
    return _page(lang)


@router.get("/api/rules", include_in_schema=False)
async def rule_titles(request: Request, lang: str | None = None) -> Response:
    """``{"lang": L, "rules": {"G1": "The game", ...}}``: the ids and titles, in order."""
    chosen = page_language(lang, request.headers.get("accept-language"))
    data: dict[str, Any] = {"lang": chosen,
                            "rules": {rule_id: r.title for rule_id, r in rules(chosen).items()}}
    return JSONResponse(data, headers={"content-language": chosen})

