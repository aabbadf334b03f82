"""``feltro rules``: the house rules, whole or one rule, in the chosen language."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from feltro.cli.language import LANG_HELP, resolve_language


def rules_command(
    rule_id: Annotated[str | None, typer.Argument(
        help="One rule, e.g. B8 (G game, D dealing, B betting, P pots, "
                             "X examples); without it, the whole document.",
        show_default=False)] = None,
    *,
    lang: Annotated[str | None, typer.Option(help=LANG_HELP)] = None,
) -> None:
    """Show the house rules that feltro plays by, or the one rule an error cites."""
    from feltro.i18n import t
    from feltro.rules import RULE_IDS, UnknownRuleError, document, id_ranges, rule_text

    language = resolve_language(lang)
    if rule_id is None:
        text = document(language)
    else:
        try:
            text = rule_text(rule_id, language)
        except UnknownRuleError as error:
            typer.echo(t("rules.unknown", language, id=error.rule_id,
                         ids=id_ranges(RULE_IDS)), err=True)
            raise typer.Exit(code=1) from None
    if sys.stdout.isatty():
        from rich.console import Console
        from rich.markdown import Markdown

        Console().print(Markdown(text))
    else:
        typer.echo(text)


def register(app: typer.Typer) -> None:
    """Add ``rules`` to the command line."""
    app.command("rules")(rules_command)
