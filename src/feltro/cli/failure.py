"""How the ``feltro`` command fails: one line on stderr, in the chosen language, never a
traceback, and a non-zero exit status.

Typer and Click report a bad command line in a box of several lines, in English, and let any
other exception end in a traceback. :func:`run` runs the app in Click's non-standalone mode
and turns every failure into one sentence: ``feltro play: --stack: must be at least 1.``
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Sequence
from typing import Any

import typer
from typer import _click as click
from typer._click.globals import get_current_context
from typer.exceptions import Abort, Exit

__all__ = ["CommandError", "error_words", "language_of_arguments", "one_line", "run",
           "usage_message"]

# Typer's and Click's English wording of a bad command line (third-party text that carries
# no data to read instead) -> a catalogue key and its fields.
_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"Input should be greater than or equal to (?P<limit>\S+?)\.?$"),
     "cli.error.at_least"),
    (re.compile(r"Input should be less than or equal to (?P<limit>\S+?)\.?$"), "cli.error.at_most"),
    (re.compile(r"Input should be a valid integer"), "cli.error.not_integer"),
    (re.compile(r"Input should be a valid number"), "cli.error.not_number"),
    (re.compile(r"No such option: (?P<option>\S+)"), "cli.error.no_option"),
    (re.compile(r"No such command '(?P<command>[^']*)'"), "cli.error.no_command"),
    (re.compile(r"Option '(?P<option>[^']+)' requires an argument"), "cli.error.needs_value"),
    (re.compile(r"Option '(?P<option>[^']+)' does not take a value"), "cli.error.takes_no_value"),
    (re.compile(r"Missing argument '(?P<argument>[^']+)'"), "cli.error.missing_argument"),
    (re.compile(r"Missing option '(?P<option>[^']+)'"), "cli.error.missing_option"),
    (re.compile(r"Got unexpected extra arguments? \((?P<extra>.*)\)"), "cli.error.extra_arguments"),
    (re.compile(r"Missing command"), "cli.error.missing_command"),
)


class CommandError(click.exceptions.ClickException):
    """A command's own refusal (a folder that is not there, a port in use): :func:`run` says it
    as ``feltro COMMAND: message`` in one line and exits with *exit_code*."""

    def __init__(self, message: str, exit_code: int = 1) -> None:
        super().__init__(message)
        self.exit_code = exit_code
        self.ctx = get_current_context(silent=True)


def language_of_arguments(args: Sequence[str]) -> str:
    """The language ``--lang`` asks for in *args* (if it is one feltro speaks), else the
    locale's: errors about the command line itself are written in it."""
    from feltro.i18n import LANGUAGES, language_from_environment

    for i, arg in enumerate(args):
        value = None
        if arg == "--lang" and i + 1 < len(args):
            value = args[i + 1]
        elif arg.startswith("--lang="):
            value = arg.partition("=")[2]
        if value in LANGUAGES:
            return value
    return language_from_environment()


def one_line(text: str) -> str:
    """*text* with its runs of white space (new lines too) made single spaces."""
    return " ".join(text.split())


def usage_message(error: click.exceptions.UsageError, lang: str) -> str:
    """*error* as one sentence in *lang*, naming the option it is about."""
    from feltro.cli.invoked import feltro_command
    from feltro.i18n import t

    if isinstance(error, click.exceptions.MissingParameter) and error.param is not None \
            and error.param.param_type_name == "argument":
        # Click leaves ``message`` empty here; the usage line names arguments in capitals.
        return t("cli.error.missing_argument", lang, argument=(error.param.name or "").upper())
    click_words = one_line(error.message)  # Click's own English: the only form it has
    message = click_words
    for pattern, key in _PATTERNS:
        match = pattern.search(click_words)
        if match:
            message = t(key, lang, feltro=feltro_command(), **match.groupdict())
            break
    if isinstance(error, click.exceptions.BadParameter):
        hint = error.param_hint if isinstance(error.param_hint, str) else None
        if hint is None and error.param is not None:
            hint = (getattr(error.param, "opts", None) or [error.param.name or ""])[0]
        hint = (hint or "").strip("'\"")
        if hint and hint not in message:
            message = f"{hint}: {message}"
    return message


def _command_path(error: BaseException, feltro: str = "feltro") -> str:
    """``feltro play``: the command *error* is about, *feltro* named as the person runs it."""
    ctx = getattr(error, "ctx", None)
    path = ctx.command_path if ctx is not None else "feltro"
    return feltro + path[path.index(" "):] if " " in path else feltro


def _say(command: str, message: str) -> None:
    sys.stderr.write(f"{command}: {one_line(message)}\n")
    sys.stderr.flush()


def run(app: typer.Typer | Callable[..., Any], args: Sequence[str] | None = None) -> int:
    """Run *app* on *args* (default: the process's); the exit status, never a traceback."""
    from feltro.cli.invoked import feltro_command
    from feltro.errors import FeltroError
    from feltro.i18n import t

    argv = list(sys.argv[1:] if args is None else args)
    lang = language_of_arguments(argv)
    try:
        result = app(args=argv, prog_name="feltro", standalone_mode=False)
    except click.exceptions.NoArgsIsHelpError as error:  # ``feltro``, ``feltro bench``: help
        error.show()
        return 2
    except Exit as error:
        return error.exit_code
    except click.exceptions.UsageError as error:
        help_hint = t("cli.error.help", lang, command=_command_path(error, feltro_command()))
        _say(_command_path(error), f"{usage_message(error, lang)} {help_hint}")
        return 2
    except click.exceptions.ClickException as error:
        _say(_command_path(error), error.format_message())
        return error.exit_code or 1
    except (Abort, KeyboardInterrupt):
        _say("feltro", t("cli.error.interrupted", lang))
        return 130
    except (FeltroError, OSError) as error:
        _say("feltro", error_words(error, lang))
        return 1
    except Exception as error:  # the last net: a bug, said in one line, not a traceback
        _say("feltro", t("cli.error.unexpected", lang,
                         error=f"{type(error).__name__}: {_describe(error)}"))
        return 1
    return result if isinstance(result, int) else 0


def error_words(error: BaseException, lang: str) -> str:
    """*error* in *lang* when it carries its reason as data (a rule's refusal, a card error
    with a reason code), else its own words (an OS error's, or feltro's English line).

    >>> from feltro.errors import IllegalActionError, Refusal
    >>> error_words(IllegalActionError(Refusal("B5", "hand-over", {}), "the hand is over"),
    ...             "pt-PT")
    'A mão terminou (B5).'
    """
    from feltro.errors import CardError, ParseError, Refusal
    from feltro.i18n import has_key, refusal_words, t

    refusal = getattr(error, "refusal", None)
    if isinstance(refusal, Refusal):
        return refusal_words(refusal, lang)
    if isinstance(error, CardError | ParseError) and error.reason is not None:
        key = f"card.{error.reason}"
        if has_key(key, lang):
            return t(key, lang, **{name: str(value) for name, value in error.params.items()})
    return _describe(error)


def _describe(error: BaseException) -> str:
    if isinstance(error, OSError) and error.strerror:
        where = error.filename
        return f"{where}: {error.strerror}" if where else error.strerror
    return str(error) or type(error).__name__
