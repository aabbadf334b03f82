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

__all__ = ["config_dir", "data_dir", "private_file", "private_folder", "read_or_make_key"]

FOLDER_MODE = 0o700
"""Data folders: only their owner may list or enter them (other users of the machine must not
read a series log and the cards in it)."""
FILE_MODE = 0o600
"""Data files: only their owner may read or write them."""


def data_dir(environ: Mapping[str, str] | None = None, platform: str | None = None) -> Path:
    """The folder feltro keeps its data in (see the module docstring); not created here."""
    return _folder(environ, platform, own="FELTRO_DATA_DIR", xdg="XDG_DATA_HOME",
                   unix=(".local", "share"), mac=("Library", "Application Support"),
                   windows="feltro")


def private_folder(path: Path) -> Path:
    """Create *path* (and its parents) readable by its owner alone, or make an existing one so.

    Parents that already exist are left as they are (they may be shared folders); a folder
    this user does not own is left too (the OS would refuse the change).
    """
    path.mkdir(mode=FOLDER_MODE, parents=True, exist_ok=True)
    _restrict(path, FOLDER_MODE)
    return path


def private_file(path: Path) -> Path:
    """Create *path* empty if missing, readable and writable by its owner alone, or make an
    existing one so. SQLite gives its ``-wal`` and ``-shm`` files the database's mode."""
    fd = os.open(path, os.O_CREAT | os.O_WRONLY | getattr(os, "O_CLOEXEC", 0), FILE_MODE)
    os.close(fd)
    _restrict(path, FILE_MODE)
    return path


def _restrict(path: Path, mode: int) -> None:
    if sys.platform == "win32":  # pragma: no cover - NTFS permissions work otherwise
        return
    try:
        if path.stat().st_mode & 0o777 != mode:
            path.chmod(mode)
    except OSError:
        pass  # not ours to change; reading and writing it will say what is wrong


def config_dir(environ: Mapping[str, str] | None = None, platform: str | None = None) -> Path:
    """Where feltro keeps its secrets, apart from its data: ``$FELTRO_CONFIG_DIR`` when set,
    else ``$XDG_CONFIG_HOME/feltro`` or ``~/.config/feltro`` (``%APPDATA%\\feltro-config`` on
    Windows). A copy or backup of the data folder then holds no key.

    >>> str(config_dir({"HOME": "/home/ana"}, platform="linux"))
    '/home/ana/.config/feltro'
    """
    return _folder(environ, platform, own="FELTRO_CONFIG_DIR", xdg="XDG_CONFIG_HOME",
                   unix=(".config",), mac=(".config",), windows="feltro-config")


def _folder(environ: Mapping[str, str] | None, platform: str | None, *, own: str, xdg: str,
            unix: tuple[str, ...], mac: tuple[str, ...], windows: str) -> Path:
    """``$own`` when set, else the platform's place (the XDG variable *xdg* on Unix)."""
    env = os.environ if environ is None else environ
    platform = sys.platform if platform is None else platform
    if env.get(own):
        return Path(env[own]).expanduser()
    home = Path(env.get("HOME") or Path.home())
    if platform == "win32":
        return Path(env.get("APPDATA") or home / "AppData" / "Roaming") / windows
    if platform == "darwin":
        return home.joinpath(*mac, "feltro")
    base = env.get(xdg)
    if base and Path(base).is_absolute():
        return Path(base) / "feltro"
    return home.joinpath(*unix, "feltro")


def read_or_make_key(path: Path, size: int = 32) -> bytes:
    """The secret key in *path* (*size* random bytes), made once, readable by its owner only.

    :raises OSError: if it cannot be read or written; :raises ValueError: if the file holds
        something else than a key of *size* bytes.
    """
    private_folder(path.parent)
    try:
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, FILE_MODE)
    except FileExistsError:
        _restrict(path, FILE_MODE)
        key = path.read_bytes()
        if len(key) != size:
            raise ValueError(f"{path} is not a key of {size} bytes; move it away to make a "
                             f"new one (tables sealed with the old key will not resume)") from None
        return key
    key = os.urandom(size)
    with os.fdopen(fd, "wb") as handle:
        handle.write(key)
        handle.flush()
        os.fsync(handle.fileno())
    return key
