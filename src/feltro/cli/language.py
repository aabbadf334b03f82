"""The ``--lang`` option every command shares: en, pt-PT or pt-BR, else the locale's."""

from __future__ import annotations

import typer

LANG_HELP = "Language: en, pt-PT or pt-BR (default: from the locale, LANG/LC_ALL)."


def resolve_language(lang: str | None) -> str:
    """*lang* if feltro speaks it, the locale's language when ``None``.

    :raises typer.BadParameter: for any other language code.
    """
    from feltro.i18n import LANGUAGES, language_from_environment

    if lang is None:
        return language_from_environment()
    if lang not in LANGUAGES:
        raise typer.BadParameter(f"unknown language {lang!r}; use one of {', '.join(LANGUAGES)}")
    return lang
