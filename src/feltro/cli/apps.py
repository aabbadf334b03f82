"""One way to make a command group, so that ``feltro`` and its subgroups read alike."""

from __future__ import annotations

import typer

__all__ = ["command_group"]


def command_group(name: str, help: str, *, no_args_is_help: bool = True) -> typer.Typer:
    """A Typer app with feltro's settings: Rich markup in help, no shell-completion options
    (the commands are few and their names short)."""
    return typer.Typer(name=name, help=help, no_args_is_help=no_args_is_help,
                       add_completion=False, rich_markup_mode="rich")
