"""Input and output formats of the batch command, one unit per file.

    .txt    one note per file, written back byte for byte outside PHI
    .xml    i2b2 2014 standoff XML; written back as i2b2 2014 XML whose TAGS
            are the replacements (operator in `comment`), never the originals
    .jsonl  one JSON object per line with a text field and an optional
            patient-id field; the other fields are kept
    .csv    a header row, a text column and an optional patient-id column

Text files (.txt, .jsonl, .csv) are read as UTF-8 (with or without a BOM),
or as UTF-16 / UTF-32 when they start with that encoding's BOM, and written
back in the encoding they came in. A JSONL line or CSV row that cannot be
released (not JSON, no text, a key twice, a wrong number of fields) is
refused on its own: the file's other notes are released and the refused
lines are reported by number and left out of the output. Readers raise
`InputError` naming the file (and line) and the problem, never the content,
for a file that cannot be read at all. Every output is written atomically: to a hidden temporary file
in the same folder, then renamed, so an interrupted run leaves no
half-written file.
"""

import codecs
import csv
import io
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, Iterator, List, Optional, Sequence, Tuple

from ..corpus.i2b2_2014 import note_to_i2b2_2014, patient_id_from_name, read_i2b2_2014
from ..corpus.note import Note, PhiMention
from ..corpus.problems import CorpusFormatError, ProblemLog
from .files import atomic_write_text, list_input_files  # noqa: F401 (re-exported)
from .release import Released

TXT, XML, JSONL, CSV = ".txt", ".xml", ".jsonl", ".csv"
SUFFIXES = (TXT, XML, JSONL, CSV)
# The fields (JSONL) and columns (CSV, Parquet) notes are read from, the same
# for `deidentify` and `deidentify-spark` (docs/deidentify.md, "Input fields").
DEFAULT_TEXT_FIELD = "text"
DEFAULT_PATIENT_FIELD = "patient_id"
# The note id: the first of these present. A note without a patient id is its
# own patient, keyed `note:<note id>` (as Deidentifier.release_doc does).
ID_FIELDS = ("note_id", "id")


class InputError(ValueError):
    """A file the batch cannot read; the message names the file, never its content."""


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


def _record_id(record: Dict) -> Optional[str]:
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
    render: Callable[[Sequence[Released]], str]
    released: List[Optional[Released]] = field(default_factory=list)
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


def encoding_name(job: "FileJob") -> str:
    """How the report names a file's encoding: utf-8, utf-8 with BOM, utf-16-le, ..."""
    if job.encoding == "utf-8" and job.has_bom:
        return "utf-8 with BOM"
    return job.encoding


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
            return _read_jsonl(path, relative, text_field, patient_field)
        if suffix == CSV:
            return _read_csv(path, relative, text_field, patient_field)
    except CorpusFormatError as err:
        raise InputError(str(err)) from None
    except OSError as err:
        raise InputError(f"{path}: cannot read ({err.strerror or type(err).__name__})") from None
    raise InputError(f"{path}: unsupported file type {suffix!r} (expected {', '.join(SUFFIXES)})")


def _read_txt(path: Path, relative: Path) -> FileJob:
    text, encoding = decode_text(path, path.read_bytes())
    note = NoteIn(text, path.stem, patient_id_from_name(path.stem))
    job = FileJob(path, relative, [note], lambda released: released[0].text, encoding=encoding)
    job.has_bom = text.startswith(_BOM)
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


def released_note(note_id: str, released: Released, patient_id: Optional[str] = None) -> Note:
    """The released text as a Note whose mentions are the replacements (for audit XML)."""
    # A removed span has no characters left to tag.
    mentions = [
        PhiMention(s.start, s.end, s.label, comment=s.operator)
        for s in released.spans
        if s.end > s.start
    ]
    return Note(note_id=note_id, text=released.text, mentions=mentions, patient_id=patient_id)


_BOM = "\ufeff"
# JSONL records end at "\n" only: U+2028/U+2029 and other line breaks that
# str.splitlines knows are valid inside JSON strings.
_JSONL_LINE = re.compile(r"[^\n]*\n|[^\n]+")


class _RefusedLine(ValueError):
    """A JSONL line or CSV row that cannot be released (the message names the problem)."""


def _no_lone_surrogates(value: object) -> None:
    """JSON may escape half a surrogate pair ("\\ud800"): such text can be
    neither processed nor written as UTF-8, so the line is refused."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise _RefusedLine(
                "a lone surrogate escape (half a UTF-16 pair) in the text"
            ) from None


def _no_duplicate_keys(pairs: List[Tuple[str, object]]) -> Dict:
    """json.loads keeps the last of two equal keys: with two texts, the first
    would be copied out unreleased. Ambiguous objects are refused."""
    record = dict(pairs)
    if len(record) != len(pairs):
        raise _RefusedLine("a key appears twice in one object (ambiguous: refused)")
    return record


def _jsonl_record(line: str, text_field: str) -> Dict:
    """The object of one JSONL line, or _RefusedLine saying why it cannot be released."""
    try:
        record = json.loads(line, object_pairs_hook=_no_duplicate_keys)
    except json.JSONDecodeError as err:
        raise _RefusedLine(f"not valid JSON (column {err.colno})") from None
    if not isinstance(record, dict):
        raise _RefusedLine(f"not a JSON object but {_json_kind(record)}")
    if record.get(text_field) is None:
        raise _RefusedLine(f"no text: the field {text_field!r} is missing or null")
    if not isinstance(record[text_field], str):
        raise _RefusedLine(
            f"the field {text_field!r} is {_json_kind(record[text_field])}, not a string"
        )
    _no_lone_surrogates(record[text_field])
    return record


def _json_kind(value: object) -> str:
    """A JSON value's kind for a message (never the value)."""
    kinds = {bool: "a boolean", int: "a number", float: "a number", list: "a list", dict: "an object"}
    return kinds.get(type(value), "a string" if isinstance(value, str) else "null")


# A line that is refused is left out of the output (never copied: it may hold PHI).
_REFUSED = object()


def jsonl_records(
    path: Path, text_field: str = DEFAULT_TEXT_FIELD
) -> Iterator[Tuple[int, Optional[Dict], Optional[str], Optional[str]]]:
    """(line number, object, note id field, problem) of each non-blank line of a
    JSONL file, read and checked as `deidentify` reads it; the object is None
    and the problem says why for a line that cannot be read (never its content).
    Raises InputError for a file that cannot be decoded."""
    content, _ = decode_text(path, path.read_bytes())
    content = content[1:] if content.startswith(_BOM) else content
    for number, line in enumerate(_JSONL_LINE.findall(content), 1):
        if not line.strip():
            continue
        try:
            record = _jsonl_record(line, text_field)
        except _RefusedLine as err:
            yield number, None, None, str(err)
            continue
        yield number, record, _record_id(record), None


def _read_jsonl(path: Path, relative: Path, text_field: str, patient_field: str) -> FileJob:
    content, encoding = decode_text(path, path.read_bytes())
    bom = _BOM if content.startswith(_BOM) else ""  # kept on output
    lines = _JSONL_LINE.findall(content[len(bom) :])
    records: List[object] = []
    notes: List[NoteIn] = []
    refused: List[str] = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            records.append(None)  # blank lines are kept as they were
            continue
        try:
            record = _jsonl_record(line, text_field)
        except _RefusedLine as err:
            refused.append(f"{path}: line {number}: {err}")
            records.append(_REFUSED)
            continue
        records.append(record)
        notes.append(
            NoteIn(
                record[text_field],
                f"{path.stem}:{number}",
                field_value(record.get(patient_field)),
                _record_id(record),
            )
        )

    def render(released: Sequence[Released]) -> str:
        out, texts = [bom], iter(released)
        for line, record in zip(lines, records):
            if record is _REFUSED:
                continue
            if record is None:
                out.append(line)
                continue
            # Only the text value changes: every other field, number and
            # space of the line is passed through as it came in.
            start, end = _value_span(line, text_field)
            out.append(line[:start] + json.dumps(next(texts).text, ensure_ascii=False) + line[end:])
        return "".join(out)

    return FileJob(
        path, relative, notes, render, refused=refused, encoding=encoding, has_bom=bool(bom)
    )


def _value_span(line: str, key: str) -> Tuple[int, int]:
    """Where the value of the top-level `key` of a JSON object line stands
    (its last occurrence, the one json.loads keeps)."""
    decoder = json.JSONDecoder()
    whitespace = re.compile(r"[ \t\r\n]*")
    position = whitespace.match(line, 0).end() + 1  # after "{"
    found: Optional[Tuple[int, int]] = None
    while True:
        position = whitespace.match(line, position).end()
        if line[position] == "}":
            break
        name, position = json.decoder.scanstring(line, position + 1)
        position = whitespace.match(line, position).end() + 1  # after ":"
        position = whitespace.match(line, position).end()
        _, end = decoder.raw_decode(line, position)
        if name == key:
            found = (position, end)
        position = whitespace.match(line, end).end()
        if line[position] == "}":
            break
        position += 1  # after ","
    assert found is not None  # the record was read with this key
    return found


def _read_csv(path: Path, relative: Path, text_field: str, patient_field: str) -> FileJob:
    content, encoding = decode_text(path, path.read_bytes())
    bom = _BOM if content.startswith(_BOM) else ""  # kept on output
    content = content[len(bom) :]
    first_line = content.split("\n", 1)[0]
    ending = "\r\n" if first_line.endswith("\r") else "\n"  # written back the same way
    rows: List[Dict[str, str]] = []
    # Row ids as before refused rows existed: the data row's ordinal + 1 (the
    # header is 1), whatever lines its cells span (they key patient-less notes).
    numbers: List[int] = []
    refused: List[str] = []
    reader = csv.reader(io.StringIO(content, newline=""), strict=True)
    record_start = 1
    try:
        fieldnames = next(reader, [])
        repeated = sorted({name for name in fieldnames if fieldnames.count(name) > 1})
        if repeated:
            named = [repr(name) for name in repeated if name in (text_field, patient_field)]
            raise InputError(
                f"{path}: line 1: the header names a column twice "
                f"({', '.join(named) or 'a column other than the text and patient'}; "
                "ambiguous: refused)"
            )
        ordinal = 1
        for values in reader:
            if values:
                ordinal += 1
            if len(values) != len(fieldnames) and values:
                refused.append(
                    f"{path}: line {record_start + 1}: {len(values)} fields where the header "
                    f"has {len(fieldnames)}"
                )
            elif values:
                rows.append(dict(zip(fieldnames, values)))
                numbers.append(ordinal)
            record_start = reader.line_num
    except csv.Error:
        raise InputError(
            f"{path}: line {record_start + 1}: malformed CSV (an unterminated quote?)"
        ) from None
    if text_field not in fieldnames:
        raise InputError(f"{path}: no column {text_field!r} in the header")
    notes = [
        NoteIn(
            row[text_field],
            f"{path.stem}:{number}",
            field_value(row.get(patient_field)),
            _record_id(row),
        )
        for number, row in zip(numbers, rows)
    ]

    def render(released: Sequence[Released]) -> str:
        buffer = io.StringIO(newline="")
        buffer.write(bom)
        writer = csv.DictWriter(buffer, fieldnames=fieldnames, lineterminator=ending)
        writer.writeheader()
        for row, result in zip(rows, released):
            writer.writerow({**row, text_field: result.text})
        return buffer.getvalue()

    return FileJob(
        path, relative, notes, render, refused=refused, encoding=encoding, has_bom=bool(bom)
    )


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
