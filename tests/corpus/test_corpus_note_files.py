"""The input files of the batch commands, read in corpus/ (note_files.py,
jsonl_notes.py, csv_notes.py, listing.py): long CSV notes, where a bad JSONL
line is reported, and what a job writes back."""
import csv
import json
from pathlib import Path

import pytest

from spacy_deid.corpus.listing import input_files
from spacy_deid.corpus.note_files import read_job
from spacy_deid.corpus.note_input import InputError

# A value that must never appear in a message.
SECRET = "Zebulon"


class Released:
    """A released note as `deid.Released` holds it (text, replaced spans)."""

    def __init__(self, text):
        self.text, self.spans = text, []


def long_note(chars: int) -> str:
    return (f"{SECRET} slept well. " * (chars // 20 + 1))[:chars]


@pytest.mark.faults
@pytest.mark.parametrize("chars", [10, 131_072, 131_073, 400_000, 2_000_000])
def test_a_csv_note_is_read_whatever_its_length(tmp_path, chars):
    """Python's csv refuses fields over 131,072 characters by default: such a
    note failed its whole file as "malformed CSV (an unterminated quote?)"."""
    path = tmp_path / "notes.csv"
    note = long_note(chars)
    with path.open("w", encoding="utf-8", newline="") as file_:
        csv.writer(file_).writerows([["note_id", "text"], ["n1", note], ["n2", "short"]])
    limit = csv.field_size_limit()
    job = read_job(path, Path("notes.csv"))
    assert [n.text for n in job.notes] == [note, "short"] and not job.refused
    assert csv.field_size_limit() == limit  # the process-wide limit is put back
    written = job.render([Released(n.text) for n in job.notes])
    assert written == path.read_bytes().decode("utf-8")


@pytest.mark.faults
@pytest.mark.parametrize(
    "content,problem",
    [
        (f'{{"text": "{SECRET}" "id": 1}}\n', "line 1: not valid JSON (column 20)"),
        (f'{{"text": "{SECRET} cut short"\n', "line 1: not valid JSON (column 29)"),
        (f'{{"text": "{SECRET}"}} extra\n', "line 1: not valid JSON (column 21)"),
        ("not json\n", "line 1: not valid JSON (column 1)"),
        (f'  {{"text": "{SECRET}",}}\r\n', "line 1: not valid JSON (column 22)"),
    ],
)
def test_a_bad_jsonl_line_is_reported_at_its_column(tmp_path, content, problem):
    """json counts columns from the last "\\n": a line cut short, whose own line
    end is where the parser stops, was reported at "column 1"."""
    path = tmp_path / "notes.jsonl"
    path.write_text(json.dumps({"text": "fine"}) + "\n" + content, encoding="utf-8")
    job = read_job(path, Path("notes.jsonl"))
    assert [n.text for n in job.notes] == ["fine"]
    assert job.refused == [f"{path}: {problem.replace('line 1', 'line 2')}"]
    assert SECRET not in job.refused[0]


@pytest.mark.faults
@pytest.mark.parametrize(
    "name,content,message",
    [
        ("notes.csv", 'note_id,text\nn1,"never closed\n', "line 2: malformed CSV"),
        ("notes.csv", "note_id,note\nn1,x\n", "no column 'text' in the header"),
        ("notes.rtf", "{\\rtf1}", "unsupported file type '.rtf'"),
        ("notes.txt", "\ud800".encode("utf-8", "surrogatepass"), "are not valid UTF-8"),
    ],
)
def test_a_file_that_cannot_be_read_names_file_and_problem(tmp_path, name, content, message):
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content.replace("never", SECRET), encoding="utf-8")
    with pytest.raises(InputError, match=message) as info:
        read_job(path, Path(name))
    assert str(path) in str(info.value) and SECRET not in str(info.value)


def test_input_files_leave_hidden_ones_out_unless_asked(tmp_path):
    for name in ("a.txt", ".hidden.txt", "sub/b.jsonl", ".tmp/c.txt"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x", encoding="utf-8")
    shown = [p.relative_to(tmp_path).as_posix() for p in input_files(tmp_path)]
    every = [p.relative_to(tmp_path).as_posix() for p in input_files(tmp_path, hidden=True)]
    assert shown == ["a.txt", "sub/b.jsonl"]
    assert every == [".hidden.txt", ".tmp/c.txt", "a.txt", "sub/b.jsonl"]
