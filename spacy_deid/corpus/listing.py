"""The files under an input path: every path is read or reported.

`list_input_files` walks a folder (links to folders followed, each real
folder once) and reports what it cannot read; `input_files` gives the files to
de-identify, hidden ones (dot names, temporary files among them) only when
asked, so a caller can list them as not read.
"""
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import List, Tuple


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


def is_hidden(file: Path, root: Path) -> bool:
    """Whether `file` or a folder between `root` and it is hidden (a dot name)."""
    if file == root:
        return False
    return any(part.startswith(".") for part in file.relative_to(root).parts)


def input_files(path: Path, hidden: bool = False) -> List[Path]:
    """The files to de-identify under `path` (a file or a folder), sorted;
    hidden files and folders (temporary files among them) only with `hidden`,
    so a caller can list them as not read."""
    files = list_input_files(path).files  # links to folders followed, each folder once
    return [p for p in files if hidden or not is_hidden(p, path)]
