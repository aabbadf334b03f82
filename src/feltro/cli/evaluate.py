"""``feltro evaluate`` and ``feltro equity``: the evaluator from the command line."""

from __future__ import annotations

import random
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


def card_error(error: Exception, lang: str) -> str:
    """The engine's error about cards in *lang*, worded from its data (the reason code and its
    numbers); an error without a code keeps the engine's English."""
    from feltro.errors import CardError, ParseError
    from feltro.i18n import t

    if not isinstance(error, CardError | ParseError) or error.reason is None:
        return str(error)
    key = f"card.{error.reason}"
    try:
        return t(key, lang, **{k: str(v) for k, v in error.params.items()})
    except KeyError:
        return str(error)


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
        raise typer.BadParameter(card_error(error, language)) from None
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
        raise typer.BadParameter(card_error(error, language)) from None
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
