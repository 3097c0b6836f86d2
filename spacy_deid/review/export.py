"""The review page's export, read back.

The page's Export button writes a ZIP of i2b2 2014 XML files, one per note
(annotate.js). Each file says whether the reviewer marked the note done (an
XML comment before the root element, which XML readers skip), and each tag's
`comment` attribute records the reviewer's decision: `review=accepted`,
`review=added` or `review=unreviewed` (the pipeline's span, not yet looked at),
then `was=OLD` when the subtype was changed and `score=S` for the pipeline's
score. Rejected spans are not in the export: they are not PHI.

`unpacked` lets the corpus tools (`spacy-deid convert`) read the ZIP as the
folder of XML files it holds; `read_export` turns an export back into review
notes, so `spacy-deid review` can continue a review where it stopped.
"""
import re
import tempfile
import zipfile
from contextlib import contextmanager
from pathlib import Path, PurePosixPath
from typing import Iterator, List, Optional

from ..corpus.i2b2_2014 import read_i2b2_2014
from ..corpus.problems import CorpusFormatError
from .page import ACCEPTED, ADDED, PENDING, ReviewNote, ReviewSpan

DONE_MARK = re.compile(rb"<!-- spacy-deid review: (done|in progress) -->")
_DECISION = re.compile(r"\breview=(\w+)")
_WAS = re.compile(r"\bwas=([A-Z-]+)")
_SCORE = re.compile(r"\bscore=([0-9.]+)")
EXPORT_STATES = {"accepted": ACCEPTED, "added": ADDED, "unreviewed": PENDING}
# Enough bytes to find the mark: it follows the XML declaration.
_HEAD_BYTES = 256


class ExportError(ValueError):
    """An export that cannot be read; the message names the file, never its text."""


def is_zip(path: Path) -> bool:
    return path.is_file() and path.suffix.lower() == ".zip"


@contextmanager
def unpacked(path: Path) -> Iterator[Path]:
    """`path` itself, or for a .zip a private temporary folder holding its files.

    Members whose names would land outside the folder (absolute, "..") are
    refused. The folder is removed afterwards (it holds note text).
    """
    if not is_zip(path):
        yield path
        return
    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError) as err:
        raise ExportError(f"{path}: not a readable ZIP file ({type(err).__name__})") from None
    with archive, tempfile.TemporaryDirectory(prefix="spacy-deid-review-") as folder:
        for member in archive.infolist():
            name = PurePosixPath(member.filename)
            if name.is_absolute() or ".." in name.parts or "\\" in member.filename:
                raise ExportError(f"{path}: member {member.filename!r} points outside the archive")
            if member.is_dir():
                continue
            target = Path(folder, *name.parts)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(archive.read(member))
        yield Path(folder)


def is_export(path: Path) -> bool:
    """A review export: a .zip, or XML files that carry the review page's mark."""
    if is_zip(path):
        return True
    files = [path] if path.is_file() else sorted(path.rglob("*.xml")) if path.is_dir() else []
    return any(_done_mark(f) is not None for f in files if f.suffix.lower() == ".xml")


def _done_mark(path: Path) -> Optional[bool]:
    with path.open("rb") as file_:
        match = DONE_MARK.search(file_.read(_HEAD_BYTES))
    return None if match is None else match.group(1) == b"done"


def read_export(path: Path) -> List[ReviewNote]:
    """The notes of an export (ZIP or folder), with the reviewer's decisions as span states."""
    notes: List[ReviewNote] = []
    with unpacked(path) as folder:
        files = [folder] if folder.is_file() else sorted(folder.rglob("*.xml"))
        for file in files:
            try:
                note = read_i2b2_2014(file)
            except CorpusFormatError as err:
                shown = file.relative_to(folder) if folder != path else file
                raise ExportError(f"{path}: {shown}: {err.problem}") from None
            spans = []
            for mention in note.mentions:
                decision = _DECISION.search(mention.comment)
                state = EXPORT_STATES.get(decision.group(1)) if decision else None
                was, score = _WAS.search(mention.comment), _SCORE.search(mention.comment)
                spans.append(
                    ReviewSpan(
                        mention.start,
                        mention.end,
                        mention.label,
                        float(score.group(1)) if score else None,
                        "export",
                        True,
                        # A tag the page did not write (a gold corpus) is a span to look at.
                        state=state or PENDING,
                        was=was.group(1) if was else None,
                    )
                )
            notes.append(
                ReviewNote(note.note_id, note.text, spans, done=bool(_done_mark(file)))
            )
    return notes
