"""Notes to release, as the input files hold them: text, ids and encoding.

`deidentify`, `deidentify-spark` and `review` read notes through these
types; the readers of each format (note_files.py, jsonl_notes.py,
csv_notes.py) build them. Text files (.txt, .jsonl, .csv) are read as UTF-8
(with or without a BOM), or as UTF-16 / UTF-32 when they start with that
encoding's BOM, and written back in the encoding they came in. Errors name
the file (and line) and the problem, never the content.
"""
import codecs
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Protocol, Sequence, Tuple

TXT, XML, JSONL, CSV = ".txt", ".xml", ".jsonl", ".csv"
SUFFIXES = (TXT, XML, JSONL, CSV)
# The fields (JSONL) and columns (CSV, Parquet) notes are read from, the same
# for `deidentify` and `deidentify-spark` (docs/deidentify.md, "Input fields").
DEFAULT_TEXT_FIELD = "text"
DEFAULT_PATIENT_FIELD = "patient_id"
# The note id: the first of these present. A note without a patient id is its
# own patient, keyed `note:<note id>` (as Deidentifier.release_doc does).
ID_FIELDS = ("note_id", "id")
BOM = "\ufeff"


class InputError(ValueError):
    """A file the batch cannot read; the message names the file, never its content."""


class ReleasedText(Protocol):
    """What a file is written back from: a released note's text and replaced
    spans (each with start, end, label and operator), as deid.Released holds them."""

    text: str
    spans: Sequence[Any]


@dataclass
class NoteIn:
    """One note to release: its text, patient key and id (a file name, a line)."""

    text: str
    note_id: str
    patient_id: Optional[str] = None
    record_id: Optional[str] = None  # the id field's value (JSONL, CSV), if any

    def patient_key(self, relative: Path) -> str:
        """Whose surrogates and date offset this note gets: its patient, else
        the note alone (by its id field, else by file and line)."""
        if self.patient_id is not None:
            return self.patient_id
        if self.record_id is not None:
            return f"note:{self.record_id}"
        return f"note:{relative}:{self.note_id}"


def field_value(value: object) -> Optional[str]:
    """An id or patient field as text: None when missing or blank; JSON numbers
    and booleans as JSON writes them (5, 5.5, true), as Spark reads them."""
    if value is None:
        return None
    text = json.dumps(value) if isinstance(value, (bool, int, float)) else str(value)
    return text if text.strip() else None


def record_id(record: Dict) -> Optional[str]:
    """The note id of a JSONL object or CSV row: its first non-blank id field."""
    return next(
        (field_value(record[name]) for name in ID_FIELDS if field_value(record.get(name))), None
    )


@dataclass
class FileJob:
    """One input file: its notes and how to write them back once released.

    `refused`: the lines (or rows) that cannot be released, as messages
    naming file, line and problem; they are left out of the output.
    `encoding`: the codec the file was read in, and is written back in.
    """

    source: Path
    relative: Path
    notes: List[NoteIn]
    render: Callable[[Sequence[ReleasedText]], str]
    released: List[Optional[ReleasedText]] = field(default_factory=list)
    refused: List[str] = field(default_factory=list)
    encoding: str = "utf-8"
    has_bom: bool = False

    def __post_init__(self) -> None:
        self.released = [None] * len(self.notes)

    @property
    def complete(self) -> bool:
        return all(r is not None for r in self.released)


# Byte order marks, longest first (the UTF-32 LE mark starts with UTF-16 LE's).
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)


_NUL = b"\x00"


def decode_text(path: Path, data: bytes) -> Tuple[str, str]:
    """(text, codec): UTF-8, or the encoding a BOM names. The BOM is kept as
    U+FEFF at the start of the text, so writing the text in the same codec
    gives the BOM back."""
    encoding = next((name for bom, name in _BOMS if data.startswith(bom)), "utf-8")
    if encoding == "utf-8" and _NUL in data:
        # Valid UTF-8, but UTF-16/32 without its BOM: read so, no PHI would be found.
        raise InputError(
            f"{path}: byte {data.index(_NUL)} is NUL: UTF-16 or UTF-32 without a byte order "
            "mark? (text files must be UTF-8, or UTF-16/UTF-32 starting with a byte order mark)"
        )
    try:
        return data.decode(encoding), encoding
    except UnicodeDecodeError as err:
        raise InputError(
            f"{path}: bytes {err.start}-{err.end} are not valid {encoding.upper()} "
            "(text files must be UTF-8, or UTF-16/UTF-32 starting with a byte order mark)"
        ) from None


def encoding_name(job: FileJob) -> str:
    """How the report names a file's encoding: utf-8, utf-8 with BOM, utf-16-le, ..."""
    if job.encoding == "utf-8" and job.has_bom:
        return "utf-8 with BOM"
    return job.encoding
