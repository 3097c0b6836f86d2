"""Atomic file writes (a reader, or a resumed run, never sees half a file).
The listing of an input folder is corpus/listing.py."""

import os
import secrets
from pathlib import Path

from ..corpus.listing import InputListing, list_input_files  # noqa: F401 (batch.py imports them here)


def atomic_write_text(
    path: Path, text: str, private: bool = False, encoding: str = "utf-8"
) -> Path:
    """Write `text` (in `encoding`, newlines untouched) so `path` is either old or whole.

    The temporary file is created inside the `try`, so a run stopped at any
    moment (deidentify's SIGTERM handler raises SystemExit) leaves none behind.
    Private files are owner-only; other outputs get the usual mode (umask).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.parent / f".{path.name}.{secrets.token_hex(6)}.tmp"
    try:
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600 if private else 0o666)
        with os.fdopen(descriptor, "w", encoding=encoding, newline="") as file_:
            file_.write(text)
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return path
