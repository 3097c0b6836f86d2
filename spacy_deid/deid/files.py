"""Atomic file writes: a reader (or a resumed run) never sees half a file."""

import os
import tempfile
from pathlib import Path


def atomic_write_text(path: Path, text: str, private: bool = False) -> Path:
    """Write `text` (UTF-8, newlines untouched) so `path` is either old or whole."""
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor, temporary = tempfile.mkstemp(
        prefix=f".{path.name}.", suffix=".tmp", dir=path.parent
    )
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8", newline="") as file_:
            file_.write(text)
        if not private:  # mkstemp makes owner-only files; outputs get the usual mode
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(temporary, 0o666 & ~umask)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return path
