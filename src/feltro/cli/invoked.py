"""The commands to name in messages, as they work where the person is.

``make play`` installs feltro in ``.venv`` and puts no ``feltro`` on PATH, so a message saying
"run feltro play --resume" would send a newcomer to "command not found". Every message that
names a command takes it from here: ``feltro`` when that is the one on PATH, else the path the
person ran (``.venv/bin/feltro``), or ``python -m feltro``; and ``pip`` as the interpreter
running feltro (``.venv/bin/python -m pip``), with the extras quoted for zsh.

>>> feltro_command("/home/ana/feltro/.venv/bin/feltro", Path("/home/ana/feltro"),
...                which=lambda name: None)
'.venv/bin/feltro'
>>> feltro_command("/usr/bin/pytest", Path("/tmp"))  # not feltro's own script
'feltro'
"""

from __future__ import annotations

import os
import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from shutil import which as _which

__all__ = ["feltro_command", "install_command"]


def feltro_command(argv0: str | None = None, cwd: Path | None = None, *,
                   which: Callable[[str], str | None] = _which) -> str:
    """How to run feltro again from *cwd*: ``feltro`` if the ``feltro`` on PATH is the one
    running (*argv0*, default ``sys.argv[0]``), else its path (relative to *cwd* when under
    it), or ``python -m feltro``. A program that is not feltro's script (a test runner) gets
    the plain name."""
    argv0 = sys.argv[0] if argv0 is None else argv0
    here = Path.cwd() if cwd is None else cwd
    script = Path(argv0)
    if script.name == "__main__.py":
        return f"{_shown(Path(sys.executable), here)} -m feltro"
    if script.stem != "feltro":
        return "feltro"
    found = which("feltro")
    if found is not None and _same_file(Path(found), script if script.is_absolute()
                                        else here / script):
        return "feltro"
    return _shown(script, here)


def install_command(extras: str, cwd: Path | None = None) -> str:
    """The pip command that adds *extras* (``"server,tui"``) to the feltro running now:
    ``.venv/bin/python -m pip install -e '.[server,tui]'`` from a checkout (quoted: zsh
    would expand the brackets), else ``... install 'feltro[server,tui]'``."""
    here = Path.cwd() if cwd is None else cwd
    pip = f"{_shown(Path(sys.executable), here)} -m pip install"
    checkout = Path(__file__).resolve().parents[3]
    if (checkout / "pyproject.toml").is_file() and (checkout / "src" / "feltro").is_dir():
        where = _relative(checkout, here)
        return f"{pip} -e {shlex.quote(f'{where}[{extras}]')}"
    return f"{pip} {shlex.quote(f'feltro[{extras}]')}"


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _relative(path: Path, cwd: Path) -> str:
    """*path* relative to *cwd* when it is under it (``.`` for *cwd* itself), else absolute."""
    absolute = path if path.is_absolute() else cwd / path
    try:
        relative = absolute.relative_to(cwd)
    except ValueError:
        return str(absolute)
    return str(relative) if str(relative) != "." else "."


def _shown(path: Path, cwd: Path) -> str:
    """*path* as a command to type in *cwd*: relative when under it (``./feltro`` rather than
    ``feltro``, which the shell would look up on PATH), quoted if it needs to be."""
    text = _relative(path, cwd)
    if "/" not in text and os.sep not in text:
        text = f"./{text}"
    return shlex.quote(text)
