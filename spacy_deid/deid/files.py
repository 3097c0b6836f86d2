"""Atomic file writes (a reader, or a resumed run, never sees half a file),
and the listing of an input folder (every path read or reported)."""

import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import List, Tuple


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


@dataclass
class InputListing:
    """What is under an input folder: the files to read, and every other
    path that cannot be read, with the reason (nothing is skipped silently)."""

    files: List[Path] = field(default_factory=list)
    problems: List[Tuple[str, str]] = field(default_factory=list)  # (path, message)


def list_input_files(root: Path) -> InputListing:
    """Every file under `root` (a file or a folder), sorted. Folders reached
    through symbolic links are read too, each real folder once (a link loop
    or a second link to a folder already read is reported); a folder that
    cannot be listed, a broken link and anything that is not a regular file
    (a socket, a FIFO, a device) are reported by path, never skipped."""
    root = Path(root)
    listing = InputListing()
    if not root.is_dir():
        if root.is_file():
            listing.files.append(root)
        else:
            listing.problems.append((str(root), _problem(root)))
        return listing
    seen = set()

    def unreadable(error: OSError) -> None:
        path = error.filename or root
        reason = error.strerror or type(error).__name__
        listing.problems.append((str(path), f"{path}: folder cannot be read ({reason})"))

    for folder, subfolders, names in os.walk(root, onerror=unreadable, followlinks=True):
        try:
            stats = os.stat(folder)
        except OSError as error:
            unreadable(error)
            subfolders[:] = []
            continue
        if (stats.st_dev, stats.st_ino) in seen:
            problem = "a link to a folder already read (a loop or a second link); not read again"
            listing.problems.append((folder, f"{folder}: {problem}"))
            subfolders[:] = []
            continue
        seen.add((stats.st_dev, stats.st_ino))
        for name in names:
            path = Path(folder) / name
            if path.is_file():
                listing.files.append(path)
            else:
                listing.problems.append((str(path), _problem(path)))
    listing.files.sort()
    listing.problems.sort()
    return listing


def _problem(path: Path) -> str:
    if path.is_symlink() and not path.exists():
        return f"{path}: a broken symbolic link (its target does not exist)"
    if not path.exists():
        return f"{path}: does not exist"
    return f"{path}: not a regular file or folder"
