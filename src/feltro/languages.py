"""The languages feltro speaks: the one list every interface and the hand names use.

Core data (no catalogue is read here): :mod:`feltro.i18n` holds the words of each language and
re-exports these names.

>>> LANGUAGES
('en', 'pt-PT', 'pt-BR')
"""

from __future__ import annotations

from typing import Final

__all__ = ["DEFAULT_LANGUAGE", "LANGUAGES", "check_language"]

LANGUAGES: Final = ("en", "pt-PT", "pt-BR")
DEFAULT_LANGUAGE: Final = "en"


def check_language(lang: str) -> str:
    """Return *lang* if feltro speaks it.

    :raises ValueError: for any other language code.
    """
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; use one of {', '.join(LANGUAGES)}")
    return lang
