"""Where feltro keeps its data on this machine, shared by every interface.

``$FELTRO_DATA_DIR`` when set (tests point it at a temporary folder), else the platform's usual
place, worked out the way ``platformdirs`` would: ``$XDG_DATA_HOME/feltro`` or
``~/.local/share/feltro`` on Linux and other Unixes, ``~/Library/Application Support/feltro``
on macOS, ``%APPDATA%\\feltro`` on Windows. The terminal game keeps its series in
``series/``, the server its tables in ``server/``.

>>> str(data_dir({"FELTRO_DATA_DIR": "/tmp/f"}))
'/tmp/f'
>>> str(data_dir({"HOME": "/home/ana"}, platform="linux"))
'/home/ana/.local/share/feltro'
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path

__all__ = ["data_dir"]


def data_dir(environ: Mapping[str, str] | None = None, platform: str | None = None) -> Path:
    """The folder feltro keeps its data in (see the module docstring); not created here."""
    env = os.environ if environ is None else environ
    platform = sys.platform if platform is None else platform
    if env.get("FELTRO_DATA_DIR"):
        return Path(env["FELTRO_DATA_DIR"]).expanduser()
    home = Path(env.get("HOME") or Path.home())
    if platform == "win32":
        return Path(env.get("APPDATA") or home / "AppData" / "Roaming") / "feltro"
    if platform == "darwin":
        return home / "Library" / "Application Support" / "feltro"
    xdg = env.get("XDG_DATA_HOME")
    if xdg and Path(xdg).is_absolute():
        return Path(xdg) / "feltro"
    return home / ".local" / "share" / "feltro"
