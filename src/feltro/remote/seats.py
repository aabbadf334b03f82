"""The seat tokens of the tables this user joined from a terminal, kept in the user's data
folder (``remote/seats.json``, readable by the user alone: a token *is* the seat).

``feltro join`` on the same link again resumes the same seat instead of asking for a new one.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from feltro.paths import FILE_MODE, data_dir, private_file, private_folder

__all__ = ["SeatBook", "default_seat_book"]


class SeatBook:
    """``{link key: token}`` in a JSON file (written atomically, mode 0600)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def _read(self) -> dict[str, str]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict):
            return {}
        return {str(k): str(v) for k, v in data.items() if isinstance(v, str)}

    def get(self, key: str) -> str | None:
        """The token filed under *key*, if any."""
        return self._read().get(key)

    def put(self, key: str, token: str) -> None:
        """File *token* under *key*."""
        data = self._read()
        data[key] = token
        self._write(data)

    def forget(self, key: str) -> None:
        """Drop the token under *key* (revoked, refused, or the table is gone)."""
        data = self._read()
        if data.pop(key, None) is not None:
            self._write(data)

    def _write(self, data: dict[str, str]) -> None:
        private_folder(self.path.parent)
        temporary = self.path.with_suffix(".tmp")
        private_file(temporary)
        temporary.write_text(json.dumps(data, indent=1, sort_keys=True), encoding="utf-8")
        os.chmod(temporary, FILE_MODE)
        os.replace(temporary, self.path)


def default_seat_book() -> SeatBook:
    """The seat book in feltro's data folder (:func:`feltro.paths.data_dir`)."""
    return SeatBook(data_dir() / "remote" / "seats.json")
