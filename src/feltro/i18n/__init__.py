"""Message catalogues: every word an interface shows, in English, pt-PT and pt-BR.

One catalogue, one TOML file per language next to this module (``en.toml``, ``pt-PT.toml``,
``pt-BR.toml``), read with the standard library, for every interface: the terminal game and
``feltro join`` call :func:`t`, the command line too, and the server serves the same flat
mapping (:func:`catalogue`) to the web pages as JSON (``GET /static/i18n/<lang>.json``), whose
``t()`` works the same way. Tables nest keys: ``[act] fold = "Fold"`` is the key
``"act.fold"``. One key layout for every interface:

* ``<area>.<name>``: the words of one part of an interface (``act.fold``, ``log.raises``,
  ``web.host.start``); the web pages' own words are under ``web.``;
* ``error.<code>``: every error code of the server's protocol
  (:class:`feltro.server.protocol.ErrorCode`), and ``bye.<code>`` every reason it closes a
  connection: the server sends the code, each client words it;
* ``refusal.<rule>.<reason>``: every refusal of the rules (:class:`feltro.errors.Refusal`,
  and those of :class:`feltro.history.ReplayError`), filled with its numbers;
* ``card.<reason>``: every card error with a reason code (:class:`feltro.errors.CardError`,
  :class:`feltro.errors.ParseError`).

Placeholders are ``{name}`` and nothing else (no format specs), so that any client can fill
them in. A message that counts something has two forms, ``one`` and ``other`` (a table:
``[series.end_last_player] one = "... after {hands} hand." other = "... {hands} hands."``):
:func:`t` picks ``one`` when the last number among its placeholders is 1, else ``other``,
in every language (pt-PT and pt-BR say "0 mãos", like English). Messages are UI-neutral: no
key names, colours or markup.

Every language has every key with the same placeholders (``tests/test_i18n.py`` checks it, and
that every error code and refusal has its words). A key missing in a language falls back to
English; a key missing everywhere is a bug and raises :class:`KeyError`.

>>> t("act.call", "en", amount=4), t("act.call", "pt-PT", amount=4)
('Call 4', 'Pagar 4')
>>> t("series.end_last_player", "pt-PT", hands=1)
'Um jogador tem todas as fichas, ao fim de 1 mão.'
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
from typing import Any, Final

from feltro.errors import Refusal
from feltro.languages import DEFAULT_LANGUAGE, LANGUAGES, check_language

__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "PLURAL_FORMS",
    "catalogue",
    "check_language",
    "has_key",
    "language_from_environment",
    "language_names",
    "placeholders",
    "plural_form",
    "refusal_words",
    "t",
]

PLURAL_FORMS: Final = ("one", "other")
"""The forms of a message that counts: ``<key>.one`` (a count of 1) and ``<key>.other``."""


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
    """Every message of *lang* as a flat, read-only ``{"action.fold": "Fold", ...}`` mapping
    (a counting message as its two forms, ``"<key>.one"`` and ``"<key>.other"``).

    :raises ValueError: for an unknown language or a malformed catalogue.
    """
    check_language(lang)
    text = resources.files(__package__).joinpath(f"{lang}.toml").read_text(encoding="utf-8")
    flat: dict[str, str] = {}
    _flatten(tomllib.loads(text), "", flat, lang)
    return MappingProxyType(flat)


def has_key(key: str, lang: str = DEFAULT_LANGUAGE) -> bool:
    """Whether *lang*'s catalogue words *key* (a counting message by its ``other`` form)."""
    words = catalogue(lang)
    return key in words or f"{key}.other" in words


def language_names() -> dict[str, str]:
    """Each language named in itself (``{"en": "English", "pt-PT": "Português (Portugal)",
    ...}``), for language menus."""
    return {code: catalogue(code)["language.name"] for code in LANGUAGES}


def _fields(message: str) -> list[str]:
    """The ``{name}`` placeholders of *message*, in order, repeats included."""
    names: list[str] = []
    for _text, field, spec, conversion in string.Formatter().parse(message):
        if field is None:
            continue
        if not field.isidentifier() or spec or conversion:
            raise ValueError(f"{message!r}: placeholders are plain {{name}} fields")
        names.append(field)
    return names


def placeholders(message: str) -> frozenset[str]:
    """The ``{name}`` placeholders of *message*.

    :raises ValueError: for a format spec, a conversion or a positional field, which the
        catalogues do not use (other clients could not fill them in).
    """
    return frozenset(_fields(message))


def plural_form(message: str, params: Mapping[str, object]) -> str:
    """``"one"`` when the last number among *message*'s placeholders is 1, else ``"other"``
    (the count comes last: ``"{number}. {table} · {players} players"``).

    >>> plural_form("{number}. {table} · {players} players", {"number": 1, "table": "Casa",
    ...                                                      "players": 4})
    'other'
    """
    for field in reversed(_fields(message)):
        value = params.get(field)
        if isinstance(value, int) and not isinstance(value, bool):
            return "one" if value == 1 else "other"
    return "other"


def t(key: str, lang: str = DEFAULT_LANGUAGE, /, **params: object) -> str:
    """The message *key* in *lang* with its placeholders filled from *params* (for a counting
    message, the form its count asks for).

    :raises KeyError: if no catalogue has *key*, or a placeholder has no value.
    """
    words = catalogue(lang)
    if key not in words and f"{key}.other" not in words:
        words = catalogue(DEFAULT_LANGUAGE)
    message = words.get(key)
    if message is None:
        if f"{key}.other" not in words:
            raise KeyError(key)
        message = words[f"{key}.{plural_form(words[f'{key}.other'], params)}"]
    return message.format_map(params)


def refusal_words(refusal: Refusal, lang: str = DEFAULT_LANGUAGE) -> str:
    """*refusal* as a sentence in *lang*: ``refusal.<rule>.<reason>`` filled with its numbers;
    one without words (or without the numbers they need) as ``refusal.fallback``, with its rule
    and reason code.

    >>> refusal_words(Refusal("B3", "owes", {"owed": 4}), "pt-PT")
    'Não pode passar: há uma aposta, 4 para pagar (B3).'
    """
    try:
        return t(f"refusal.{refusal.rule}.{refusal.reason}", lang, **refusal.params)
    except KeyError:
        return t("refusal.fallback", lang, rule=refusal.rule, detail=refusal.reason)


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
