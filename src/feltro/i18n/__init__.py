"""Message catalogues: every word an interface shows, in English, pt-PT and pt-BR.

One TOML file per language sits next to this module (``en.toml``, ``pt-PT.toml``,
``pt-BR.toml``), read with the standard library. Tables nest keys: ``[act] fold = "Fold"``
is the key ``"act.fold"``. Placeholders are ``{name}`` and nothing else (no format specs), so
that any client can fill them in: the terminal game uses :func:`t`, the web client will load
the same catalogues as JSON (:func:`catalogue` gives the flat mapping). Messages are
UI-neutral: no key names, colours or markup.

Every language has every key with the same placeholders (``tests/test_i18n.py`` checks it).
A key missing in a language falls back to English; a key missing everywhere is a bug and
raises :class:`KeyError`.

>>> t("act.call", "en", amount=4), t("act.call", "pt-PT", amount=4)
('Call 4', 'Pagar 4')
>>> language_from_environment({"LANG": "pt_BR.UTF-8"})
'pt-BR'
"""

from __future__ import annotations

import os
import string
import tomllib
from collections.abc import Mapping
from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import Any

from feltro.languages import DEFAULT_LANGUAGE, LANGUAGES, check_language

__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "catalogue",
    "check_language",
    "language_from_environment",
    "language_names",
    "placeholders",
    "t",
]

def _flatten(table: Mapping[str, Any], prefix: str, out: dict[str, str], lang: str) -> None:
    for key, value in table.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            _flatten(value, f"{name}.", out, lang)
        elif isinstance(value, str):
            out[name] = value
        else:
            raise ValueError(f"{lang}.toml: {name} must be text, not {type(value).__name__}")


@cache
def catalogue(lang: str) -> Mapping[str, str]:
    """Every message of *lang* as a flat, read-only ``{"action.fold": "Fold", ...}`` mapping.

    :raises ValueError: for an unknown language or a malformed catalogue.
    """
    check_language(lang)
    text = resources.files(__package__).joinpath(f"{lang}.toml").read_text(encoding="utf-8")
    flat: dict[str, str] = {}
    _flatten(tomllib.loads(text), "", flat, lang)
    return MappingProxyType(flat)


def language_names() -> dict[str, str]:
    """Each language named in itself (``{"en": "English", "pt-PT": "Português (Portugal)",
    ...}``), for language menus."""
    return {code: catalogue(code)["language.name"] for code in LANGUAGES}


def placeholders(message: str) -> frozenset[str]:
    """The ``{name}`` placeholders of *message*.

    :raises ValueError: for a format spec, a conversion or a positional field, which the
        catalogues do not use (other clients could not fill them in).
    """
    names: set[str] = set()
    for _text, field, spec, conversion in string.Formatter().parse(message):
        if field is None:
            continue
        if not field.isidentifier() or spec or conversion:
            raise ValueError(f"{message!r}: placeholders are plain {{name}} fields")
        names.add(field)
    return frozenset(names)


def t(key: str, lang: str = DEFAULT_LANGUAGE, /, **params: object) -> str:
    """The message *key* in *lang* with its placeholders filled from *params*.

    :raises KeyError: if no catalogue has *key*, or a placeholder has no value.
    """
    message = catalogue(lang).get(key)
    if message is None:
        message = catalogue(DEFAULT_LANGUAGE)[key]
    return message.format_map(params)


def language_from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language the locale asks for (``LC_ALL``, ``LC_MESSAGES``, ``LANG``, ``LANGUAGE``).

    ``pt_BR`` gives pt-BR, any other ``pt`` gives pt-PT, anything else English.
    """
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = env.get(name, "")
        if not value or value in ("C", "POSIX"):
            continue
        first = value.split(":")[0].replace("-", "_").lower()
        if first.startswith("pt_br"):
            return "pt-BR"
        if first.startswith("pt"):
            return "pt-PT"
        return "en"
    return DEFAULT_LANGUAGE
