"""The batch runner and the `deidentify` command on tmp folders, with the
rules-only pipeline (blank_deid + deid_sections + deid_phi_rules +
deid_reconciler), which runs offline on CPU."""

import csv
import json
import re
from pathlib import Path

import pytest
import spacy
from typer.testing import CliRunner

from spacy_deid import labels
from spacy_deid.cli import app
from spacy_deid.corpus import read_i2b2_2014, write_i2b2_2014
from spacy_deid.deid import DeidMapping, Deidentifier
from spacy_deid.deid.batch import run_batch
from spacy_deid.synth import generate_notes

SECRET = "Zebulon Quattlebaum"  # a PHI-like string that must never reach the logs


@pytest.fixture(scope="session")
def model_dir(rules_model_dir) -> Path:
    return rules_model_dir


@pytest.fixture(scope="session")
def nlp(model_dir):
    return spacy.load(model_dir)


@pytest.fixture(scope="session")
def notes():
    return list(generate_notes(8, seed=5))


def write_inputs(folder: Path, notes) -> Path:
    """XML for the first four notes, .txt (CRLF kept) for the rest, and a corrupt XML file."""
    folder.mkdir(parents=True, exist_ok=True)
    for note in notes[:4]:
        write_i2b2_2014(note, folder / f"{note.note_id}.xml")
    for note in notes[4:]:
        (folder / f"{note.note_id}.txt").write_bytes(
            note.text.replace("\n", "\r\n").encode("utf-8")
        )
    (folder / "000-00.xml").write_text(f"<deIdi2b2><TEXT>{SECRET} was seen", encoding="utf-8")
    return folder


def test_batch_releases_every_format_and_reports_the_corrupt_file(tmp_path, nlp, notes):
    source = write_inputs(tmp_path / "in", notes)
    deid = Deidentifier("surrogate", seed="t")
    summary = run_batch(nlp, deid, source, tmp_path / "out", progress=False)
    assert summary.files_written == 8 and summary.files_failed == 1 and summary.notes == 8
    assert "000-00.xml" in summary.failed[0][1] and SECRET not in "\n".join(summary.lines())
    assert not (tmp_path / "out" / "000-00.xml").exists()
    for note in notes:
        suffix = ".xml" if (source / f"{note.note_id}.xml").exists() else ".txt"
        out = tmp_path / "out" / f"{note.note_id}{suffix}"
        if suffix == ".xml":
            released = read_i2b2_2014(out)
            original = note.text
            # the output's TAGS are the replacements, never the originals
            assert all(m.comment for m in released.mentions)
            released_text = released.text
        else:
            original = note.text.replace("\n", "\r\n")
            released_text = out.read_bytes().decode("utf-8")
        doc = nlp(original)
        tagged = [(e.start_char, e.end_char) for e in doc.ents]
        # byte-for-byte outside PHI: the pieces between spans, in order, are unchanged
        pieces, position = [], 0
        for start, end in tagged:
            pieces.append(original[position:start])
            position = end
        pieces.append(original[position:])
        cursor = 0
        for piece in pieces:
            found = released_text.find(piece, cursor)
            assert found >= 0
            cursor = found + len(piece)
        # no tagged string (dates and ages aside) survives unless it also stands untagged
        rest = "\x00".join(pieces)
        for (start, end), ent in zip(tagged, doc.ents):
            value = original[start:end]
            if ent.label_ in (labels.DATE, labels.AGE) or len(value) < 3:
                continue
            pattern = rf"(?<!\w){re.escape(value)}(?!\w)"
            assert len(re.findall(pattern, released_text)) <= len(re.findall(pattern, rest))


def test_gold_strings_tagged_by_the_pipeline_never_reach_the_output(tmp_path, nlp, notes):
    source = write_inputs(tmp_path / "in", notes)
    deid = Deidentifier("placeholder", {labels.AGE: "placeholder"})
    run_batch(nlp, deid, source, tmp_path / "out", progress=False)
    checked = 0
    for note in notes[4:]:
        released = (tmp_path / "out" / f"{note.note_id}.txt").read_text(encoding="utf-8")
        ents = nlp(note.text).ents
        for mention in note.mentions:
            if any(e.start_char <= mention.start and mention.end <= e.end_char for e in ents):
                value = note.text[mention.start : mention.end]
                pattern = re.compile(rf"(?<!\w){re.escape(value)}(?!\w)")
                untagged = sum(
                    1
                    for m in pattern.finditer(note.text)
                    if not any(e.start_char <= m.start() < e.end_char for e in ents)
                )
                assert len(pattern.findall(released)) <= untagged
                checked += 1
    assert checked > 20


def test_resume_after_an_interrupted_run(tmp_path, nlp, notes, monkeypatch):
    source = write_inputs(tmp_path / "in", notes)
    mapping = tmp_path / "private" / "mapping.json"
    reference = run_batch(
        nlp, Deidentifier("surrogate", seed="r"), source, tmp_path / "clean", progress=False
    )
    assert reference.files_written == 8

    real_pipe = nlp.pipe

    def interrupted_pipe(*args, **kwargs):
        for count, item in enumerate(real_pipe(*args, **kwargs)):
            if count == 3:
                raise KeyboardInterrupt
            yield item

    monkeypatch.setattr(nlp, "pipe", interrupted_pipe)
    with pytest.raises(KeyboardInterrupt):
        run_batch(
            nlp,
            Deidentifier("surrogate", seed="r"),
            source,
            tmp_path / "out",
            mapping_path=mapping,
            checkpoint_files=1,
            progress=False,
        )
    monkeypatch.undo()
    done = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert len(done) == 3 and not [
        p for p in (tmp_path / "out").rglob(".*")
    ]  # no temporary files left
    deid = Deidentifier("surrogate", mapping=DeidMapping.from_disk(mapping))
    summary = run_batch(nlp, deid, source, tmp_path / "out", mapping_path=mapping, progress=False)
    assert summary.files_resumed == 3 and summary.files_written == 5 and summary.notes == 5
    for path in (tmp_path / "clean").iterdir():
        assert (tmp_path / "out" / path.name).read_bytes() == path.read_bytes()


def test_two_processes_give_the_same_output_as_one(tmp_path, model_dir, notes):
    source = write_inputs(tmp_path / "in", notes)
    for n_process in (1, 2):
        summary = run_batch(
            spacy.load(model_dir),
            Deidentifier("surrogate", seed="p"),
            source,
            tmp_path / f"out{n_process}",
            n_process=n_process,
            batch_size=2,
            progress=False,
        )
        assert summary.notes == 8 and summary.files_failed == 1
    for path in (tmp_path / "out1").iterdir():
        assert (tmp_path / "out2" / path.name).read_bytes() == path.read_bytes()


def test_atomic_write_leaves_no_partial_file(tmp_path, nlp, notes, monkeypatch):
    source = write_inputs(tmp_path / "in", notes[4:5])
    import spacy_deid.deid.files as files

    def broken_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files.os, "replace", broken_replace)
    summary = run_batch(nlp, Deidentifier(), source, tmp_path / "out", progress=False)
    assert (
        summary.files_written == 0 and summary.files_failed == 2
    )  # the corrupt input and the write
    assert list((tmp_path / "out").iterdir()) == []


def test_jsonl_and_csv_keep_their_other_fields(tmp_path, nlp, notes):
    source = tmp_path / "in"
    source.mkdir()
    with (source / "notes.jsonl").open("w", encoding="utf-8") as file_:
        for note in notes[:3]:
            file_.write(
                json.dumps({"id": note.note_id, "text": note.text, "patient_id": note.patient_id})
                + "\n"
            )
    with (source / "notes.csv").open("w", encoding="utf-8", newline="") as file_:
        writer = csv.DictWriter(file_, fieldnames=["id", "mrn_of_patient", "text"])
        writer.writeheader()
        for note in notes[3:6]:
            writer.writerow(
                {"id": note.note_id, "mrn_of_patient": note.patient_id, "text": note.text}
            )
    (source / "broken.jsonl").write_text(
        '{"text": "ok"}\n{"text": ' + json.dumps(SECRET) + "\n", encoding="utf-8"
    )
    summary = run_batch(
        nlp,
        Deidentifier("numbered"),
        source,
        tmp_path / "out",
        progress=False,
        audit_dir=tmp_path / "audit",
    )
    # The broken file's good line is released; its bad line is refused by number.
    assert summary.files_written == 3 and summary.files_failed == 0 and summary.notes == 7
    assert len(summary.refused_lines) == 1 and not summary.complete
    assert "broken.jsonl: line 2" in summary.refused_lines[0]
    assert SECRET not in "\n".join(summary.lines())
    broken_out = (tmp_path / "out" / "broken.jsonl").read_text("utf-8")
    assert broken_out.count("\n") == 1 and SECRET not in broken_out
    records = [
        json.loads(line)
        for line in (tmp_path / "out" / "notes.jsonl").read_text("utf-8").splitlines()
    ]
    assert [r["id"] for r in records] == [n.note_id for n in notes[:3]]
    assert all("[DATE-" in r["text"] for r in records)
    with (tmp_path / "out" / "notes.csv").open(encoding="utf-8", newline="") as file_:
        rows = list(csv.DictReader(file_))
    assert [r["id"] for r in rows] == [n.note_id for n in notes[3:6]] and all(
        "[DATE-" in r["text"] for r in rows
    )
    audit = sorted(p.name for p in (tmp_path / "audit").iterdir())
    assert audit == ["broken-jsonl-0001.xml"] + [
        f"notes-{kind}-{i:04d}.xml" for kind in ("csv", "jsonl") for i in (1, 2, 3)
    ]
    tags = read_i2b2_2014(tmp_path / "audit" / "notes-jsonl-0001.xml").mentions
    assert tags and all(m.comment == "numbered" or m.label == labels.AGE for m in tags)


def test_cli_deidentify(tmp_path, model_dir, notes):
    source = write_inputs(tmp_path / "in", notes)
    mapping = tmp_path / "private" / "mapping.json"
    args = [
        "deidentify",
        str(source),
        str(tmp_path / "out"),
        "--model",
        str(model_dir),
        "--operator",
        "surrogate",
        "--mapping",
        str(mapping),
        "--no-progress",
        "--subtype-operator",
        "STATE=placeholder",
    ]
    result = CliRunner().invoke(app, args)
    assert (
        result.exit_code == 1
    ), result.output  # the corrupt file makes the run fail, after the others
    assert "files written: 8" in result.output and "failed: 1" in result.output
    assert "000-00.xml" in result.output and SECRET not in result.output
    assert mapping.exists() and DeidMapping.from_disk(mapping).patients
    for note in notes[4:]:
        assert note.text.replace("\n", "\r\n") != (
            tmp_path / "out" / f"{note.note_id}.txt"
        ).read_text("utf-8")
    again = CliRunner().invoke(app, args)
    assert "already done (resumed): 8" in again.output
    bad = CliRunner().invoke(app, args[:3] + ["--model", str(model_dir), "--operator", "scramble"])
    assert bad.exit_code == 1 and "unknown operator" in bad.output


def test_cli_config_file(tmp_path, model_dir, notes):
    source = write_inputs(tmp_path / "in", notes[4:5])
    (source / "000-00.xml").unlink()
    config = tmp_path / "deid.cfg"
    config.write_text(
        '[deidentifier]\n@misc = "spacy-deid.Deidentifier.v1"\noperator = "placeholder"\n'
        'operators = {"DATE": "remove"}\n',
        encoding="utf-8",
    )
    result = CliRunner().invoke(
        app,
        [
            "deidentify",
            str(source),
            str(tmp_path / "out"),
            "--model",
            str(model_dir),
            "--config",
            str(config),
            "--no-progress",
            "--seed",
            "s",
        ],
    )
    assert result.exit_code == 0, result.output
    released = read_i2b2_2014(tmp_path / "out" / f"{notes[4].note_id}.xml")
    assert "[DATE]" not in released.text and "[" in released.text
    assert released.mentions and not [m for m in released.mentions if m.label == labels.DATE]


def test_cli_deidentify_runs_with_the_loaded_pipeline_frozen(tmp_path, model_dir, notes, monkeypatch):
    """What was loaded stays out of the cyclic garbage collector during the run
    (gc.freeze, docs/speed.md), and the process is as before afterwards."""
    import gc

    import spacy_deid.cli.deidentify as command

    frozen_during_run = []
    run_batch_itself = command.run_batch

    def spy(*args, **kwargs):
        frozen_during_run.append(gc.get_freeze_count())
        return run_batch_itself(*args, **kwargs)

    monkeypatch.setattr(command, "run_batch", spy)
    source = write_inputs(tmp_path / "in", notes[:2])
    assert gc.get_freeze_count() == 0
    args = ["deidentify", str(source), str(tmp_path / "out"), "--model", str(model_dir),
            "--seed", "3", "--no-progress"]
    result = CliRunner().invoke(app, args)
    assert "files written: 2" in result.output, result.output
    assert len(frozen_during_run) == 1 and frozen_during_run[0] > 0
    assert gc.get_freeze_count() == 0
