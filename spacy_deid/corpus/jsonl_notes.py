"""JSONL notes to release: one JSON object per line with a text field and an
optional patient-id field; the other fields are kept.

A line that cannot be released (not JSON, no text, a key twice) is refused on
its own: the file's other notes are released and the refused lines are
reported by number (and column, for JSON that does not parse) and left out
of the output. Only the text value changes on the way out: every other field,
number and space of a line is written back as it came in.
"""
import json
import re
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Sequence, Tuple

from .note_input import (
    BOM,
    DEFAULT_TEXT_FIELD,
    FileJob,
    NoteIn,
    ReleasedText,
    decode_text,
    field_value,
    record_id,
)

# JSONL records end at "\n" only: U+2028/U+2029 and other line breaks that
# str.splitlines knows are valid inside JSON strings.
_JSONL_LINE = re.compile(r"[^\n]*\n|[^\n]+")


class _RefusedLine(ValueError):
    """A JSONL line that cannot be released (the message names the problem)."""


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
        # The column within the line: json counts columns from the last "\n",
        # and the line's own "\n" made a line cut short read as "column 1";
        # past the line's end (an object never closed) is just after its end.
        column = min(err.pos, len(line.rstrip("\r\n"))) + 1
        raise _RefusedLine(f"not valid JSON (column {column})") from None
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
    content = content[1:] if content.startswith(BOM) else content
    for number, line in enumerate(_JSONL_LINE.findall(content), 1):
        if not line.strip():
            continue
        try:
            record = _jsonl_record(line, text_field)
        except _RefusedLine as err:
            yield number, None, None, str(err)
            continue
        yield number, record, record_id(record), None


def read_jsonl_job(path: Path, relative: Path, text_field: str, patient_field: str) -> FileJob:
    """The notes of one JSONL file, and how to write it back released."""
    content, encoding = decode_text(path, path.read_bytes())
    bom = BOM if content.startswith(BOM) else ""  # kept on output
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
                record_id(record),
            )
        )

    def render(released: Sequence[ReleasedText]) -> str:
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
