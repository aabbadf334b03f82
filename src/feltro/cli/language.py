"""The ``--lang`` option every command shares: en, pt-PT or pt-BR, else the locale's."""

from __future__ import annotations

import typer

LANG_HELP = "Language: en, pt-PT or pt-BR (default: from the locale, LANG/LC_ALL)."

BOT_NAMES = "random, rules, montecarlo, expert, station, tight, tag"
"""Every bot, as every help text and error lists them (``feltro.bots.BOT_KINDS``, which a test
holds this to; spelled out here so that ``feltro --help`` imports no bot)."""


def resolve_language(lang: str | None) -> str:
    """*lang* if feltro speaks it, the locale's language when ``None``.

    :raises typer.BadParameter: for any other language code.
    """
    from feltro.i18n import LANGUAGES, language_from_environment, t

    if lang is None:
        return language_from_environment()
    if lang not in LANGUAGES:
        raise typer.BadParameter(t("cli.error.unknown_language", language_from_environment(),
                                   lang=lang), param_hint="--lang")
    return lang
