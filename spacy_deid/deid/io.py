"""Input and output formats of the batch command, one unit per file.

    .txt    one note per file (UTF-8), written back byte for byte outside PHI
    .xml    i2b2 2014 standoff XML; written back as i2b2 2014 XML whose TAGS
            are the replacements (operator in `comment`), never the originals
    .jsonl  one JSON object per line with a text field and an optional
            patient-id field; the other fields are kept
    .csv    a header row, a text column and an optional patient-id column

Readers raise `InputError` naming the file (and line) and the problem, never
the content. Every output is written atomically: to a hidden temporary file
in the same folder, then renamed, so an interrupted run leaves no
half-written file.
"""

import csv
import io
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from ..corpus.i2b2_2014 import note_to_i2b2_2014, patient_id_from_name, read_i2b2_2014
from ..corpus.note import Note, PhiMention
from ..corpus.problems import CorpusFormatError, ProblemLog
from .files import atomic_write_text, list_input_files  # noqa: F401 (re-exported)
from .release import Released

TXT, XML, JSONL, CSV = ".txt", ".xml", ".jsonl", ".csv"
SUFFIXES = (TXT, XML, JSONL, CSV)
DEFAULT_TEXT_FIELD = "text"
DEFAULT_PATIENT_FIELD = "patient_id"


class InputError(ValueError):
    """A file the batch cannot read; the message names the file, never its content."""


@dataclass
class NoteIn:
    """One note to release: its text, patient key and id (a file name, a line)."""

    text: str
    note_id: str
    patient_id: Optional[str] = None


@dataclass
class FileJob:
    """One input file: its notes and how to write them back once released."""

    source: Path
    relative: Path
    notes: List[NoteIn]
    render: Callable[[Sequence[Released]], str]
    released: List[Optional[Released]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.released = [None] * len(self.notes)

    @property
    def complete(self) -> bool:
        return all(r is not None for r in self.released)


def _decode(path: Path, data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise InputError(f"{path}: bytes {err.start}-{err.end} are not valid UTF-8") from None


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
    text = _decode(path, path.read_bytes())
    note = NoteIn(text, path.stem, patient_id_from_name(path.stem))
    return FileJob(path, relative, [note], lambda released: released[0].text)


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


def _no_lone_surrogates(path: Path, number: int, value: object) -> None:
    """JSON may escape half a surrogate pair ("\\ud800"): such text can be
    neither processed nor written as UTF-8, so it is an input error."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise InputError(
                f"{path}: line {number}: a lone surrogate escape (half a UTF-16 pair) in the text"
            ) from None


def _read_jsonl(path: Path, relative: Path, text_field: str, patient_field: str) -> FileJob:
    content = _decode(path, path.read_bytes())
    bom = _BOM if content.startswith(_BOM) else ""  # kept on output
    lines = _JSONL_LINE.findall(content[len(bom) :])
    records: List[Optional[Dict]] = []
    notes: List[NoteIn] = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            records.append(None)  # blank lines are kept as they were
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as err:
            raise InputError(
                f"{path}: line {number}: not valid JSON (column {err.colno})"
            ) from None
        if not isinstance(record, dict) or not isinstance(record.get(text_field), str):
            raise InputError(f"{path}: line {number}: no string field {text_field!r}")
        _no_lone_surrogates(path, number, record[text_field])
        patient = record.get(patient_field)
        records.append(record)
        notes.append(
            NoteIn(
                record[text_field],
                f"{path.stem}:{number}",
                None if patient is None else str(patient),
            )
        )

    def render(released: Sequence[Released]) -> str:
        out, texts = [bom], iter(released)
        for line, record in zip(lines, records):
            if record is None:
                out.append(line)
                continue
            # Only the text value changes: every other field, number and
            # space of the line is passed through as it came in.
            start, end = _value_span(line, text_field)
            out.append(line[:start] + json.dumps(next(texts).text, ensure_ascii=False) + line[end:])
        return "".join(out)

    return FileJob(path, relative, notes, render)


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
    content = _decode(path, path.read_bytes())
    bom = _BOM if content.startswith(_BOM) else ""  # kept on output
    content = content[len(bom) :]
    first_line = content.split("\n", 1)[0]
    ending = "\r\n" if first_line.endswith("\r") else "\n"  # written back the same way
    rows: List[Dict[str, str]] = []
    reader = csv.reader(io.StringIO(content, newline=""), strict=True)
    record_start = 1
    try:
        fieldnames = next(reader, [])
        for values in reader:
            if len(values) != len(fieldnames) and values:
                raise InputError(
                    f"{path}: line {record_start + 1}: {len(values)} fields where the header "
                    f"has {len(fieldnames)}"
                )
            if values:
                rows.append(dict(zip(fieldnames, values)))
            record_start = reader.line_num
    except csv.Error:
        raise InputError(
            f"{path}: line {record_start + 1}: malformed CSV (an unterminated quote?)"
        ) from None
    if text_field not in fieldnames:
        raise InputError(f"{path}: no column {text_field!r} in the header")
    notes = [
        NoteIn(row[text_field], f"{path.stem}:{number}", row.get(patient_field) or None)
        for number, row in enumerate(rows, 2)
    ]

    def render(released: Sequence[Released]) -> str:
        buffer = io.StringIO(newline="")
        buffer.write(bom)
        writer = csv.DictWriter(buffer, fieldnames=fieldnames, lineterminator=ending)
        writer.writeheader()
        for row, result in zip(rows, released):
            writer.writerow({**row, text_field: result.text})
        return buffer.getvalue()

    return FileJob(path, relative, notes, render)


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
