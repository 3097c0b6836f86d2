"""Atomic file writes (a reader, or a resumed run, never sees half a file).
The listing of an input folder is corpus/listing.py."""

import os
import secrets
from pathlib import Path


def atomic_write_text(
    path: Path, text: str, private: bool = False, encoding: str = "utf-8"
) -> Path:
    """Write `text` (in `encoding`, newlines untouched) so `path` is either old or whole.

    A symbolic link is written through: the file it leads to is replaced
    (the temporary file is made beside that file), never the link itself.
    The temporary file is created inside the `try`, so a run stopped at any
    moment (deidentify's SIGTERM handler raises SystemExit) leaves none behind.
    Private files are owner-only; other outputs get the usual mode (umask).
    """
    path = Path(path)
    target = Path(os.path.realpath(path))
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.parent / temporary_name(target.name)
    try:
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600 if private else 0o666)
        with os.fdopen(descriptor, "w", encoding=encoding, newline="") as file_:
            file_.write(text)
        os.replace(temporary, target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return path


# The longest file name, in bytes, on the usual file systems (ext4, XFS, Btrfs).
NAME_MAX = 255
_TEMPORARY_SUFFIX = ".tmp"


def temporary_name(name: str) -> str:
    """A hidden temporary name beside `name`: `.<name>.<random>.tmp`, the
    name cut so the whole stays within NAME_MAX bytes (a file whose own name
    is near the limit can still be written; a character cut in two keeps
    its bytes, surrogate-escaped, as the file system takes them)."""
    tail = f".{secrets.token_hex(6)}{_TEMPORARY_SUFFIX}"
    room = NAME_MAX - 1 - len(tail)
    return f".{os.fsdecode(os.fsencode(name)[:room])}{tail}"
