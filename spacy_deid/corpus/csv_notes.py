"""CSV notes to release: a header row, a text column and an optional
patient-id column; the other columns are kept.

A row with a wrong number of fields is refused on its own (reported by line,
left out of the output); a header naming a column twice, or a quote left
open, fails the file. A note may be as long in a CSV cell as in a JSONL line:
Python's csv module refuses fields over 131,072 characters by default, so the
limit is raised, for the read only, to the file's length (no field is longer).
"""
import csv
import io
from contextlib import contextmanager
from pathlib import Path
from typing import Dict, Iterator, List, Sequence

from .note_input import (
    BOM,
    FileJob,
    InputError,
    NoteIn,
    ReleasedText,
    decode_text,
    field_value,
    record_id,
)


@contextmanager
def field_size_limit(size: int) -> Iterator[None]:
    """Let the csv module read fields of `size` characters while the block runs
    (the limit is process-wide: the previous one is put back after)."""
    previous = csv.field_size_limit()
    csv.field_size_limit(max(previous, size))
    try:
        yield
    finally:
        csv.field_size_limit(previous)


def read_csv_job(path: Path, relative: Path, text_field: str, patient_field: str) -> FileJob:
    """The notes of one CSV file, and how to write it back released."""
    content, encoding = decode_text(path, path.read_bytes())
    bom = BOM if content.startswith(BOM) else ""  # kept on output
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
        with field_size_limit(len(content)):
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
                        f"{path}: line {record_start + 1}: {len(values)} fields where the "
                        f"header has {len(fieldnames)}"
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
            record_id(row),
        )
        for number, row in zip(numbers, rows)
    ]

    def render(released: Sequence[ReleasedText]) -> str:
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
