"""``feltro evaluate`` and ``feltro equity``: the evaluator from the command line."""

from __future__ import annotations

import random
import re
from typing import Annotated

import typer

from feltro.cli.language import LANG_HELP, resolve_language

_TEXT = {
    "en": {"hand": "Hand", "best": "Best five", "category": "Category", "player": "Hand",
           "win": "Wins", "tie": "Ties", "lose": "Losses", "equity": "Equity",
           "boards": "{n:,} boards", "board": "1 board", "trials": "{n:,} random deals"},
    "pt-PT": {"hand": "Mão", "best": "Melhores cinco", "category": "Categoria", "player": "Mão",
              "win": "Ganha", "tie": "Empata", "lose": "Perde", "equity": "Equidade",
              "boards": "{n:,} mesas", "board": "1 mesa",
              "trials": "{n:,} distribuições aleatórias"},
    "pt-BR": {"hand": "Mão", "best": "Melhores cinco", "category": "Categoria", "player": "Mão",
              "win": "Vence", "tie": "Empata", "lose": "Perde", "equity": "Equidade",
              "boards": "{n:,} mesas", "board": "1 mesa",
              "trials": "{n:,} distribuições aleatórias"},
}


# The engine's card errors (English) -> this command's words in the reader's language.
_CARD_ERRORS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), key) for pattern, key in (
        (r"^not a card(?: or card id)?: '(?P<text>[^']*)'", "cli.cards.not_a_card"),
        (r"^duplicate card (?P<card>\S+)", "cli.cards.duplicate"),
        (r"^a hand has 5 to 7 cards, got (?P<count>\d+)", "cli.cards.hand_size"),
        (r"^equity needs at least two hands", "cli.cards.two_hands"),
        (r"^every hand needs exactly two hole cards", "cli.cards.two_cards"),
        (r"^a partial board has 0, 3, 4 or 5 cards, got (?P<count>\d+)", "cli.cards.board_size"),
        (r"^a card appears twice", "cli.cards.card_twice"),
    )
)


def card_error(message: str, lang: str) -> str:
    """The engine's *message* about cards in *lang* (as it is when not recognised)."""
    from feltro.i18n import t

    for pattern, key in _CARD_ERRORS:
        match = pattern.search(message)
        if match:
            return t(key, lang, **match.groupdict())
    return message


def evaluate(
    cards: Annotated[list[str], typer.Argument(help="5 to 7 cards, e.g. As Kd Qh Js Ts 2c 3d.")],
    *,
    lang: Annotated[str | None, typer.Option(help=LANG_HELP)] = None,
) -> None:
    """Name the best hand in 5 to 7 cards."""
    from rich.console import Console

    import feltro

    language = resolve_language(lang)
    text = _TEXT[language]
    try:
        value = feltro.evaluate(" ".join(cards))
    except feltro.FeltroError as error:
        raise typer.BadParameter(card_error(str(error), language)) from None
    console = Console()
    console.print(f"[bold]{value.describe(language)}[/bold]")
    console.print(f"{text['category']}: {value.category.describe(language)}")
    from feltro.tui.text import plain_cards

    console.print(f"{text['best']}: {plain_cards(int(c) for c in value.best_five)}")


def equity(
    hands: Annotated[
        list[str], typer.Argument(help="Two or more hands of two cards each, e.g. AsAh KsKh; "
                                       "?? = a hand nobody knows.")
    ],
    *,
    board: Annotated[str, typer.Option(help="Board cards so far: 0, 3, 4 or 5 cards.")] = "",
    trials: Annotated[int, typer.Option(
        min=1, help="Random deals when any hand is unknown.")] = 100_000,
    seed: Annotated[int | None, typer.Option(help="Seed for reproducible Monte Carlo.")] = None,
    lang: Annotated[str | None, typer.Option(help=LANG_HELP)] = None,
) -> None:
    """Win, tie and loss counts: exact over every board, or Monte Carlo with unknown hands."""
    from rich.console import Console
    from rich.table import Table

    import feltro

    language = resolve_language(lang)
    text = _TEXT[language]
    holes: list[str | None] = [None if h in ("?", "??", "????") else h for h in hands]
    try:
        if any(h is None for h in holes):
            result = feltro.monte_carlo_equity(
                holes, board, trials=trials, rng=random.Random(seed)
            )
            caption = text["trials"].format(n=result.boards)
        else:
            known = [h for h in holes if h is not None]
            result = feltro.exact_equity(known, board)
            caption = text["boards" if result.boards != 1 else "board"].format(n=result.boards)
    except (feltro.FeltroError, ValueError) as error:
        raise typer.BadParameter(card_error(str(error), language)) from None
    table = Table(caption=caption)
    for column in ("player", "win", "tie", "lose", "equity"):
        table.add_column(text[column], justify="left" if column == "player" else "right")
    for i, hand in enumerate(hands):
        table.add_row(
            hand, f"{result.wins[i]:,}", f"{result.ties[i]:,}", f"{result.losses[i]:,}",
            f"{result.equity[i]:.2%}",
        )
    Console().print(table)


def register(app: typer.Typer) -> None:
    """Add ``evaluate`` and ``equity`` to the command line."""
    app.command("evaluate")(evaluate)
    app.command("equity")(equity)
