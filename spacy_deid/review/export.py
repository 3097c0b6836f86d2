"""The review page's export, read back.

The page's Export button writes a ZIP of i2b2 2014 XML files, one per note
(annotate.js). Each file says whether the reviewer marked the note done (an
XML comment before the root element, which XML readers skip), and each tag's
`comment` attribute records the reviewer's decision: `review=accepted`,
`review=added` or `review=unreviewed` (the pipeline's span, not yet looked at),
then `was=OLD` when the subtype was changed and `score=S` for the pipeline's
score. Rejected spans are not in the export: they are not PHI.

The page can also export JSONL (one line per note, the package's annotated
JSONL, corpus/jsonl.py): each span's `review`, `was` and `score` fields say
the same, and the note's `review` field ("done" or "in progress") is the mark.

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
from ..corpus.jsonl import read_jsonl_corpus
from ..corpus.note import Note
from ..corpus.problems import CorpusFormatError
from .page import ACCEPTED, ADDED, PENDING, ReviewNote, ReviewSpan

DONE_MARK = re.compile(rb"<!-- spacy-deid review: (done|in progress) -->")
_DECISION = re.compile(r"\breview=(\w+)")
_WAS = re.compile(r"\bwas=([A-Z-]+)")
_SCORE = re.compile(r"\bscore=([0-9.]+)")
EXPORT_STATES = {"accepted": ACCEPTED, "added": ADDED, "unreviewed": PENDING}
# Enough bytes to find the mark: it follows the XML declaration.
_HEAD_BYTES = 256
# The JSONL export's mark: each note's `review` field.
JSONL_DONE = {"done": True, "in progress": False}


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
    """A review export: a .zip, or XML or JSONL files that carry the review page's mark."""
    if is_zip(path):
        return True
    files = [path] if path.is_file() else sorted(path.rglob("*")) if path.is_dir() else []
    return any(_done_mark(f) is not None for f in files if f.suffix.lower() in (".xml", ".jsonl"))


def _done_mark(path: Path) -> Optional[bool]:
    """Whether the page's export marks the (first) note done; None: no mark."""
    if path.suffix.lower() == ".jsonl":
        marks = _jsonl_marks(path, first_only=True)
        return marks[0] if marks else None
    with path.open("rb") as file_:
        match = DONE_MARK.search(file_.read(_HEAD_BYTES))
    return None if match is None else match.group(1) == b"done"


def _jsonl_marks(path: Path, first_only: bool = False) -> List[Optional[bool]]:
    """Each note's done mark in a JSONL export (None for a note without one)."""
    from ..corpus.jsonl_notes import jsonl_records
    from ..corpus.note_input import InputError

    marks: List[Optional[bool]] = []
    try:
        for _, record, _, _ in jsonl_records(path):
            review = record.get("review") if record is not None else None
            marks.append(JSONL_DONE.get(review) if isinstance(review, str) else None)
            if first_only:
                break
    except InputError:
        return []  # not readable as JSONL: not an export (reading it will say why)
    return marks


def read_export(path: Path) -> List[ReviewNote]:
    """The notes of an export (ZIP, folder or JSONL), the reviewer's decisions as span states."""
    notes: List[ReviewNote] = []
    with unpacked(path) as folder:
        files = [folder] if folder.is_file() else sorted(
            f for f in folder.rglob("*") if f.suffix.lower() in (".xml", ".jsonl")
        )
        for file in files:
            shown = file.relative_to(folder) if folder != path else file
            try:
                if file.suffix.lower() == ".jsonl":
                    read = list(read_jsonl_corpus(file))
                    marks = [bool(mark) for mark in _jsonl_marks(file)]
                else:
                    read, marks = [read_i2b2_2014(file)], [bool(_done_mark(file))]
            except CorpusFormatError as err:
                # The file as the user knows it, then the line (JSONL) and tag.
                where = err.path.replace(str(file), str(shown), 1)
                tag = f": tag {err.tag_id}" if err.tag_id else ""
                raise ExportError(f"{path}: {where}{tag}: {err.problem}") from None
            for note, done in zip(read, marks):
                notes.append(ReviewNote(note.note_id, note.text, review_spans(note), done=done))
    return notes


def review_spans(note: Note) -> List[ReviewSpan]:
    """A note's mentions as review spans, their states read from the comments."""
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
    return spans
