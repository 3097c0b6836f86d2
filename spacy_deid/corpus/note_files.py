"""Input files of the batch commands, one unit per file, by suffix.

    .txt    one note per file, written back byte for byte outside PHI
    .xml    i2b2 2014 standoff XML; written back as i2b2 2014 XML whose TAGS
            are the replacements (operator in `comment`), never the originals
    .jsonl  one JSON object per line (jsonl_notes.py)
    .csv    a header row, a text column and an optional patient-id column
            (csv_notes.py)

`read_job` reads a file into a `FileJob`: its notes, and how to write the
file back once they are released. A JSONL line or CSV row that cannot be
released is refused on its own; a file that cannot be read at all raises
`InputError` naming the file (and line) and the problem, never the content.
"""
from pathlib import Path
from typing import Optional

from .csv_notes import read_csv_job
from .i2b2_2014 import note_to_i2b2_2014, patient_id_from_name, read_i2b2_2014
from .jsonl_notes import read_jsonl_job
from .note import Note, PhiMention
from .note_input import (
    BOM,
    CSV,
    DEFAULT_PATIENT_FIELD,
    DEFAULT_TEXT_FIELD,
    JSONL,
    SUFFIXES,
    TXT,
    XML,
    FileJob,
    InputError,
    NoteIn,
    ReleasedText,
    decode_text,
)
from .problems import CorpusFormatError, ProblemLog


def read_job(
    path: Path,
    relative: Path,
    text_field: str = DEFAULT_TEXT_FIELD,
    patient_field: str = DEFAULT_PATIENT_FIELD,
) -> FileJob:
    """Read one input file into a job; raises InputError for a bad file."""
    suffix = path.suffix.lower()
    try:
        if suffix == TXT:
            return _read_txt(path, relative)
        if suffix == XML:
            return _read_xml(path, relative)
        if suffix == JSONL:
            return read_jsonl_job(path, relative, text_field, patient_field)
        if suffix == CSV:
            return read_csv_job(path, relative, text_field, patient_field)
    except CorpusFormatError as err:
        raise InputError(str(err)) from None
    except OSError as err:
        raise InputError(f"{path}: cannot read ({err.strerror or type(err).__name__})") from None
    raise InputError(f"{path}: unsupported file type {suffix!r} (expected {', '.join(SUFFIXES)})")


def _read_txt(path: Path, relative: Path) -> FileJob:
    text, encoding = decode_text(path, path.read_bytes())
    note = NoteIn(text, path.stem, patient_id_from_name(path.stem))
    job = FileJob(path, relative, [note], lambda released: released[0].text, encoding=encoding)
    job.has_bom = text.startswith(BOM)
    return job


def _read_xml(path: Path, relative: Path) -> FileJob:
    # Gold tags are not needed to release the text: problems with them are
    # skipped (lenient), a malformed file still fails.
    note = read_i2b2_2014(path, ProblemLog(lenient=True))
    return FileJob(
        path,
        relative,
        [NoteIn(note.text, note.note_id, note.patient_id)],
        lambda released: note_to_i2b2_2014(released_note(note.note_id, released[0])),
    )


def released_note(
    note_id: str, released: ReleasedText, patient_id: Optional[str] = None
) -> Note:
    """The released text as a Note whose mentions are the replacements (for audit XML)."""
    # A removed span has no characters left to tag.
    mentions = [
        PhiMention(s.start, s.end, s.label, comment=s.operator)
        for s in released.spans
        if s.end > s.start
    ]
    return Note(note_id=note_id, text=released.text, mentions=mentions, patient_id=patient_id)
