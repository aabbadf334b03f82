"""The ``feltro`` command line (Typer + Rich).

Each command lives in its own module under :mod:`feltro.cli` and registers itself through a
``register(app)`` function; heavy imports (numpy, the TUI, the server) happen inside the command
that needs them, so ``feltro --help`` stays instant.
"""

from __future__ import annotations

import importlib
from typing import Any

from feltro.cli.apps import command_group


def _flags_show_no_value() -> None:
    """Help lists a flag as ``--resume``, not ``--resume <bool>``: it takes no value."""
    from typer.core import TyperOption

    shown = getattr(TyperOption, "display_type_rich", None)
    if shown is None:  # an older Typer: its help may show "<bool>", nothing breaks
        return

    def display_type_rich(self: TyperOption, ctx: Any) -> str | None:
        return None if self.is_flag else shown(self, ctx)

    TyperOption.display_type_rich = display_type_rich  # type: ignore[method-assign]


_flags_show_no_value()

app = command_group("feltro", "No-Limit Texas Hold'em for home games.")

# One module per command family; each defines ``register(app: typer.Typer) -> None``.
_COMMAND_MODULES: tuple[str, ...] = (
    "arena",
    "bench",
    "evaluate",
    "join",
    "replay",
    "play",
    "rules",
    "season",
    "serve",
    "simulate",
    "verify",
)

for _name in _COMMAND_MODULES:
    importlib.import_module(f"feltro.cli.{_name}").register(app)


def bare_options(args: list[str]) -> list[str]:
    """*args* with a bare ``--ray`` (no address after it) spelled ``--ray local``.

    Typer has no option with an optional value, so ``feltro arena ... --ray [ADDRESS]`` is
    read here before Typer sees it.
    """
    out: list[str] = []
    for i, arg in enumerate(args):
        out.append(arg)
        if arg == "--ray" and (i + 1 == len(args) or args[i + 1].startswith("-")):
            out.append("local")
    return out


def main(args: list[str] | None = None) -> None:
    """Entry point of the ``feltro`` console script: every failure is one line on stderr and a
    non-zero exit status (:mod:`feltro.cli.failure`), never a traceback."""
    import sys

    from feltro.cli.failure import run

    sys.exit(run(app, bare_options(sys.argv[1:] if args is None else args)))
