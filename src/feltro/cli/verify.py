"""``feltro verify FILE``: check a night's verifiable shuffle (``docs/fairness.md``).

FILE is a series export (JSON, ``feltro-fair-export/1``) or a player's PHH download
(``.phh``/``.phhs``, possibly compressed) whose hands carry the ``_fair`` field. Exit status 0
with one summary line when every hand verifies; 1 naming the first hand and what failed; 2 when
the file cannot be read at all.
"""

from __future__ import annotations

import json
import lzma
from pathlib import Path
from typing import Annotated

import typer

from feltro.cli.language import LANG_HELP, resolve_language

__all__ = ["register", "verify_file"]


def _read_text(path: Path) -> str:
    """The UTF-8 text of *path*, decompressed when it ends in ``.gz``, ``.xz`` or ``.bz2``.

    :raises OSError: if it cannot be read; :raises ValueError: if it is not UTF-8.
    """
    raw = path.read_bytes()
    if path.suffix == ".gz":
        import gzip

        raw = gzip.decompress(raw)
    elif path.suffix == ".xz":
        raw = lzma.decompress(raw)
    elif path.suffix == ".bz2":
        import bz2

        raw = bz2.decompress(raw)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None


def verify_file(path: Path, lang: str) -> tuple[int, str]:
    """``(exit status, message)`` of verifying *path*, the message in *lang*."""
    # Only what a JSON export needs is imported up front: the PHH reader (and the engine it
    # brings) is loaded for PHH files only, so the common case starts fast.
    from feltro.fairness import FairnessFormatError, read_export, verify_hands
    from feltro.i18n import t

    try:
        text = _read_text(path)
    except (OSError, ValueError, EOFError, lzma.LZMAError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        return 2, t("verify.cannot_read", lang, path=str(path), reason=reason)
    download = False
    try:
        if text.lstrip().startswith("{"):
            try:
                data = json.loads(text)
            except ValueError as exc:
                raise FairnessFormatError(f"not JSON: {exc}") from None
            table, proofs, claimed = read_export(data)
            verdict = verify_hands(table, proofs, claimed, export=True)
        else:
            from feltro.errors import FeltroError
            from feltro.fairdeal import proofs_from_phh
            from feltro.history import read_hands

            try:
                records = read_hands(path)
            except (FeltroError, ValueError) as exc:
                raise FairnessFormatError(str(exc)) from None
            table, proofs = proofs_from_phh(records)
            verdict = verify_hands(table, proofs)  # hands 1 to the player's last, no gap
            download = True
    except FairnessFormatError as exc:
        return 1, t("verify.unreadable", lang, path=str(path), detail=str(exc))
    if verdict.failure is None:
        if not verdict.hands:
            return 1, t("verify.empty", lang, path=str(path))
        if download:  # its last hand need not be the night's: say which link it is
            return 0, t("verify.ok_download", lang, hands=verdict.hands,
                        fingerprint=verdict.fingerprint)
        return 0, t("verify.ok", lang, hands=verdict.hands, fingerprint=verdict.fingerprint)
    failure = verdict.failure
    what = t(f"verify.check.{failure.check.value}", lang)
    line = (t("verify.file_failed", lang, what=what) if failure.hand is None
            else t("verify.hand_failed", lang, hand=failure.hand, what=what))
    if failure.why:  # the position, card or field it is about, worded from its data
        line += "\n  " + t(f"verify.detail.{failure.why}", lang, **failure.params)
    return 1, line


def verify_command(
    file: Annotated[Path, typer.Argument(help="A series export (JSON) or a player's PHH "
                                              "download (.phh, .phhs).", show_default=False)],
    lang: Annotated[str | None, typer.Option(help=LANG_HELP)] = None,
) -> None:
    """Check that every hand was dealt from the committed, unarranged deck (docs/fairness.md).

    Exit status 0 with one summary line when every hand verifies; 1 naming the first hand that
    fails and why; 2 when the file cannot be read.
    """
    status, message = verify_file(file, resolve_language(lang))
    typer.echo(message, err=status != 0)
    if status:
        raise typer.Exit(code=status)


def register(app: typer.Typer) -> None:
    """Add ``verify`` to the command line."""
    app.command("verify")(verify_command)
