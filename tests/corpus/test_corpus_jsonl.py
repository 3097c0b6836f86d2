"""Annotated JSONL notes (spacy_deid/corpus/jsonl.py): the package's JSONL note
format with `spans`, read by `read_corpus` and `spacy-deid convert`."""
import json

import pytest
import spacy
from spacy.tokens import DocBin
from typer.testing import CliRunner

from spacy_deid import labels
from spacy_deid.cli import app
from spacy_deid.corpus import CorpusFormatError, ProblemLog, corpus_files, read_corpus

TEXT = "Seen by Dr. Lee \U0001F600 on 4/17/2094."
# A value that must never appear in a message.
SECRET = "Zebulon"


def line(**record) -> str:
    return json.dumps(record, ensure_ascii=False) + "\n"


GOOD = line(
    note_id="n1",
    patient_id="p7",
    text=TEXT,
    spans=[
        {"start": 12, "end": 15, "label": "DOCTOR", "text": "Lee", "review": "accepted"},
        {"start": 21, "end": 30, "label": "date", "score": 0.9},
    ],
)


def test_reads_notes_spans_ids_and_review_fields(tmp_path):
    path = tmp_path / "notes.jsonl"
    path.write_text(GOOD + "\n" + line(text="No PHI here."), encoding="utf-8")
    first, second = read_corpus(path)
    assert (first.note_id, first.patient_id) == ("n1", "p7")
    assert [(TEXT[m.start : m.end], m.label, m.comment) for m in first.mentions] == [
        ("Lee", labels.DOCTOR, "review=accepted"),
        ("4/17/2094", labels.DATE, "score=0.900"),
    ]
    # No id field: file stem and line number (blank lines count).
    assert (second.note_id, second.mentions) == ("notes:3", [])


def test_convert_reads_jsonl_file_and_folder(tmp_path):
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "a.jsonl").write_text(GOOD, encoding="utf-8")
    for source in (folder / "a.jsonl", folder):
        out = tmp_path / "out.spacy"
        result = CliRunner().invoke(app, ["convert", str(source), str(out)])
        assert result.exit_code == 0, result.output
        assert "Wrote 1 notes with 2 PHI mentions" in result.output
        (doc,) = DocBin().from_disk(out).get_docs(spacy.blank("en").vocab)
        assert [(e.text, e.label_) for e in doc.ents] == [
            ("Lee", labels.DOCTOR), ("4/17/2094", labels.DATE)
        ]
    assert corpus_files(folder) == [folder / "a.jsonl"]


BAD_LINES = [
    ("not json", "{" + SECRET, "not valid JSON"),
    ("no text", line(note_id="x", spans=[]), "no text"),
    ("spans not a list", line(text=SECRET, spans={"start": 0}), "'spans' is not a list"),
    ("span not an object", line(text=SECRET, spans=[SECRET]), "not an object"),
    ("missing label", line(text=SECRET, spans=[{"start": 0, "end": 3}]), "missing field"),
    ("offsets not integers", line(text=SECRET, spans=[{"start": "0", "end": 3, "label": "CITY"}]),
     "not integers"),
    ("boolean offset", line(text=SECRET, spans=[{"start": True, "end": 3, "label": "CITY"}]),
     "not integers"),
    ("unknown label", line(text=SECRET, spans=[{"start": 0, "end": 3, "label": SECRET}]),
     "unknown label"),
    ("out of range", line(text=SECRET, spans=[{"start": 0, "end": 99, "label": "CITY"}]),
     "outside the note text"),
    ("text differs", line(text=SECRET, spans=[{"start": 0, "end": 3, "label": "CITY",
                                               "text": "Abc"}]), "differs"),
    ("overlap", line(text=SECRET, spans=[{"start": 0, "end": 3, "label": "CITY"},
                                         {"start": 2, "end": 5, "label": "CITY"}]), "overlaps"),
]


@pytest.mark.parametrize("name,content,problem", BAD_LINES, ids=[b[0] for b in BAD_LINES])
def test_bad_lines_are_named_by_file_and_line_never_by_content(tmp_path, name, content, problem):
    path = tmp_path / "bad.jsonl"
    path.write_text(GOOD + content, encoding="utf-8")
    with pytest.raises(CorpusFormatError) as caught:
        list(read_corpus(path))
    message = str(caught.value)
    assert f"{path}: line 2" in message and problem in message
    assert SECRET not in message and "Lee" not in message


def test_lenient_skips_bad_spans_and_counts_them(tmp_path):
    path = tmp_path / "notes.jsonl"
    path.write_text(
        line(text=TEXT, spans=[{"start": 12, "end": 15, "label": "DOCTOR"},
                               {"start": 0, "end": 3, "label": SECRET}]),
        encoding="utf-8",
    )
    log = ProblemLog(lenient=True)
    (note,) = read_corpus(path, log=log)
    assert [m.label for m in note.mentions] == [labels.DOCTOR]
    assert log.total == 1 and SECRET not in log.summary()


def test_undecodable_file_is_named(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_bytes(b'{"text": "\xff"}\n')
    with pytest.raises(CorpusFormatError, match="not valid UTF-8") as caught:
        list(read_corpus(path))
    assert str(caught.value).startswith(str(path))
