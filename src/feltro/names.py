"""Names of hands and ranks in English, European Portuguese and Brazilian Portuguese.

Pure data and formatting, used by the evaluator's ``describe`` and by every interface.

>>> describe_class(4, (7,), "en"), describe_class(4, (7,), "pt-PT")
('Straight, nine high', 'Sequência ao 9')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from feltro.languages import LANGUAGES as LANGUAGES
from feltro.languages import check_language as check_language

# Index = rank 0..12 (2..A).
_RANK_SINGULAR: Final = {
    "en": ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack",
           "queen", "king", "ace"),
    "pt": ("dois", "três", "quatro", "cinco", "seis", "sete", "oito", "nove", "dez", "valete",
           "dama", "rei", "ás"),
}
_RANK_PLURAL: Final = {
    "en": ("twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens",
           "jacks", "queens", "kings", "aces"),
    # "três" and "seis" do not change in the plural: "par de três", "trio de seis".
    "pt": ("duques", "três", "quatros", "cincos", "seis", "setes", "oitos", "noves",
           "dezes", "valetes", "damas", "reis", "ases"),
}
# "ao 9", "à dama": the Portuguese contraction follows the noun's gender.
_PT_TO: Final = ("ao 2", "ao 3", "ao 4", "ao 5", "ao 6", "ao 7", "ao 8", "ao 9", "ao 10",
                 "ao valete", "à dama", "ao rei", "ao ás")
_BR_UP_TO: Final = tuple(
    "até " + ("a " if to.startswith("à") else "o ") + to.split(" ", 1)[1] for to in _PT_TO
)

CATEGORY_NAMES: Final = {
    "en": ("High card", "One pair", "Two pair", "Three of a kind", "Straight", "Flush",
           "Full house", "Four of a kind", "Straight flush"),
    "pt-PT": ("Carta alta", "Par", "Dois pares", "Trio", "Sequência", "Cor", "Full house",
              "Poker", "Sequência de cor"),
    "pt-BR": ("Carta alta", "Par", "Dois pares", "Trinca", "Sequência", "Flush", "Full house",
              "Quadra", "Straight flush"),
}
ROYAL_FLUSH: Final = {"en": "Royal flush", "pt-PT": "Sequência real", "pt-BR": "Royal flush"}


def rank_name(rank: int, lang: str = "en", *, plural: bool = False) -> str:
    """The name of a rank 0..12, e.g. ``rank_name(12, plural=True) == 'aces'``."""
    table = _RANK_PLURAL if plural else _RANK_SINGULAR
    return table["en" if check_language(lang) == "en" else "pt"][rank]


def describe_class(category: int, ranks: Sequence[int], lang: str = "en") -> str:
    """Describe a hand class: *category* 0..8 (high card .. straight flush) and its tie-break
    ranks in order of significance (a straight gives only its top card).
    """
    check_language(lang)
    if category == 8 and ranks[0] == 12:
        return ROYAL_FLUSH[lang]
    name = CATEGORY_NAMES[lang][category]
    if lang == "en":
        return _describe_en(category, ranks, name)
    return _describe_pt(category, ranks, name, lang)


def _describe_en(category: int, ranks: Sequence[int], name: str) -> str:
    one = _RANK_SINGULAR["en"]
    many = _RANK_PLURAL["en"]
    match category:
        case 0:
            return f"{name}, {one[ranks[0]]}"
        case 5:
            return f"{name}, {one[ranks[0]]} high"
        case 1:
            return f"Pair of {many[ranks[0]]}"
        case 2:
            return f"Two pair, {many[ranks[0]]} and {many[ranks[1]]}"
        case 3 | 7:
            return f"{name}, {many[ranks[0]]}"
        case 4 | 8:
            return f"{name}, {one[ranks[0]]} high"
        case _:
            return f"{name}, {many[ranks[0]]} full of {many[ranks[1]]}"


def _describe_pt(category: int, ranks: Sequence[int], name: str, lang: str) -> str:
    many = _RANK_PLURAL["pt"]
    match category:
        case 0:
            # A comma, as in English: "Tem: carta alta, quatro" (one colon, not two).
            return f"{name}, {_RANK_SINGULAR['pt'][ranks[0]]}"
        case 4 | 5 | 8:
            # pt-PT "Sequência ao 9", "Cor à dama"; pt-BR "Sequência até o 9", "até a dama".
            return f"{name} {_PT_TO[ranks[0]] if lang == 'pt-PT' else _BR_UP_TO[ranks[0]]}"
        case 1 | 3 | 7:
            return f"{name} de {many[ranks[0]]}"
        case 2:
            return f"{name}, {many[ranks[0]]} e {many[ranks[1]]}"
        case _:
            return f"{name}, {many[ranks[0]]} com {many[ranks[1]]}"
