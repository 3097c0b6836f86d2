"""Fault suite for `spacy-deid deidentify` (issues 27 and 29): one table per
kind of input fault, run as a user would (CLI or run_batch) on the
rules-only pipeline. Every failing input holds planted PHI; no message,
report, output or temporary file may contain it.

Each table names the defect it pins: bad JSONL lines and CSV rows (27.2),
duplicate keys and columns (29.1), encodings (27.3), SIGTERM with one
process (29.5), folders and mappings that used to give tracebacks (29.8).
"""
import codecs
import json
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spacy_deid.cli import app
from spacy_deid.deid import Deidentifier
from spacy_deid.deid.batch import LOCK_NAME, run_batch

pytestmark = pytest.mark.faults

NAME, PHONE = "Zebulon Quattlebaum", "617-555-0143"  # planted PHI
PLANTED = (NAME, PHONE)
NOTE = f"Seen on 4/17/2094 by Dr. {NAME}.\nPhone: {PHONE}\n\nPlan: follow up.\n"


def batch(nlp, source, out, **settings):
    settings.setdefault("progress", False)
    return run_batch(nlp, Deidentifier("placeholder", seed="s"), source, out, **settings)


def cli(*args) -> "CliRunner.invoke":
    return CliRunner().invoke(app, [str(a) for a in args])


def no_planted(*texts: str) -> bool:
    return not any(value in text for text in texts for value in PLANTED)


def tree_text(folder: Path) -> str:
    """Every file under `folder` (hidden and temporary ones too), as text."""
    if not folder.exists():
        return ""
    return "\n".join(
        p.read_bytes().decode("utf-8", "replace") for p in folder.rglob("*") if p.is_file()
    )


# --- 27.2 / 29.1: one bad JSONL line refuses that line, not the file ----------------
GOOD_LINE = json.dumps({"id": "n1", "text": NOTE})
BAD_LINES = [
    ("not-json", '{"id": "n2", "text": "' + NAME + '"', "not valid JSON"),
    ("null-text", json.dumps({"id": "n2", "text": None, "who": NAME}), "missing or null"),
    ("missing-text", json.dumps({"id": "n2", "body": NAME}), "missing or null"),
    ("number-text", json.dumps({"id": "n2", "text": 617555, "who": NAME}), "a number"),
    ("object-text", json.dumps({"id": "n2", "text": {"n": NAME}}), "an object"),
    ("array-line", json.dumps([NAME, PHONE]), "not a JSON object"),
    ("two-texts", '{"id": "n2", "text": "' + NOTE.replace("\n", "\\n") + '", "text": "x"}', "twice"),
    ("two-patients", '{"id": "n2", "patient_id": "' + NAME + '", "patient_id": "p", "text": "x"}', "twice"),
    ("lone-surrogate", '{"id": "n2", "text": "' + NAME + ' \\ud800"}', "lone surrogate"),
]


@pytest.mark.parametrize("case,line,problem", BAD_LINES, ids=[c[0] for c in BAD_LINES])
def test_a_bad_jsonl_line_is_refused_and_the_good_lines_released(
    tmp_path, rules_model_dir, case, line, problem
):
    (tmp_path / "in").mkdir()
    content = "\n".join([GOOD_LINE, line, GOOD_LINE.replace("n1", "n3")]) + "\n"
    (tmp_path / "in" / "notes.jsonl").write_text(content, encoding="utf-8")
    result = cli("deidentify", tmp_path / "in", tmp_path / "out", "--model", rules_model_dir,
                 "--no-progress", "--seed", "s")
    assert result.exit_code == 1  # not every note was released
    assert "notes.jsonl: line 2" in result.output and problem in result.output
    released = (tmp_path / "out" / "notes.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(r)["id"] for r in released] == ["n1", "n3"]  # the bad line left out
    assert no_planted(result.output, tree_text(tmp_path / "out"))
    assert "Traceback" not in result.output


def test_a_file_of_bad_lines_only_is_a_failed_file(tmp_path, rules_nlp):
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "bad.jsonl").write_text(BAD_LINES[0][1] + "\n", encoding="utf-8")
    summary = batch(rules_nlp, tmp_path / "in", tmp_path / "out")
    assert summary.files_failed == 1 and not (tmp_path / "out" / "bad.jsonl").exists()
    assert no_planted(*summary.lines())


BAD_CSV = [
    # (case, content, problem named, files written)
    ("two-text-columns", f'id,text,text\n1,"{NOTE}",x\n', "line 1: the header names a column twice ('text'", 0),
    ("two-other-columns", f'id,site,site,text\n1,a,b,"{NOTE}"\n', "line 1: the header names a column twice", 0),
    ("short-row", f'id,text\n1,"{NOTE}"\n2\n', "line 7: 1 fields", 1),
    ("long-row", f'id,text\n1,"{NOTE}"\n2,"{NAME}",{PHONE}\n', "line 7: 3 fields", 1),
]


@pytest.mark.parametrize("case,content,problem,written", BAD_CSV, ids=[c[0] for c in BAD_CSV])
def test_ambiguous_or_ragged_csv_is_refused_by_file_and_line(
    tmp_path, rules_nlp, case, content, problem, written
):
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "notes.csv").write_text(content, encoding="utf-8")
    summary = batch(rules_nlp, tmp_path / "in", tmp_path / "out")
    report = "\n".join(summary.lines())
    assert summary.files_written == written and not summary.complete
    assert "notes.csv: " + problem in report
    assert no_planted(report, tree_text(tmp_path / "out"))


# --- 27.3: every supported encoding in, the same encoding out -----------------------
ENCODINGS = [
    # (name in the report, codec, BOM)
    ("utf-8", "utf-8", b""),
    ("utf-8 with BOM", "utf-8", codecs.BOM_UTF8),
    ("utf-16-le", "utf-16-le", codecs.BOM_UTF16_LE),
    ("utf-16-be", "utf-16-be", codecs.BOM_UTF16_BE),
    ("utf-32-le", "utf-32-le", codecs.BOM_UTF32_LE),
]
FORMATS = {
    "txt": NOTE,
    "jsonl": json.dumps({"id": "n1", "text": NOTE}, ensure_ascii=False) + "\n",
    "csv": f'id,text\n1,"{NOTE}"\n',
}


@pytest.mark.parametrize("kind", sorted(FORMATS))
@pytest.mark.parametrize("name,codec,bom", ENCODINGS, ids=[e[0] for e in ENCODINGS])
def test_every_encoding_is_read_and_written_back_the_same(
    tmp_path, rules_nlp, kind, name, codec, bom
):
    (tmp_path / "in").mkdir()
    source = tmp_path / "in" / f"note.{kind}"
    source.write_bytes(bom + FORMATS[kind].encode(codec))
    summary = batch(rules_nlp, tmp_path / "in", tmp_path / "out")
    assert summary.files_written == 1 and summary.complete, summary.lines()
    assert summary.encodings == {name: 1}
    assert (f"note.{kind}: {name}" in "\n".join(summary.lines())) == (name != "utf-8")
    out = (tmp_path / "out" / f"note.{kind}").read_bytes()
    assert out.startswith(bom)
    text = out[len(bom):].decode(codec)
    assert "[DATE]" in text and no_planted(text)


@pytest.mark.parametrize(
    "case,data",
    [
        ("utf-16-without-bom", NOTE.encode("utf-16-le")),
        ("latin-1", f"Seen by {NAME} caf\xe9.\n".encode("latin-1")),
    ],
)
def test_text_in_an_unknown_encoding_is_refused_naming_the_file(tmp_path, rules_nlp, case, data):
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.txt").write_bytes(data)
    summary = batch(rules_nlp, tmp_path / "in", tmp_path / "out")
    assert summary.files_failed == 1
    problem = summary.failed[0][1]
    assert "a.txt: byte" in problem and "byte order mark" in problem and no_planted(problem)


# --- 29.8: folders and mappings: messages, never tracebacks --------------------------
def _read_only(folder: Path) -> Path:
    folder.mkdir()
    folder.chmod(stat.S_IRUSR | stat.S_IXUSR)
    return folder


FOLDER_FAULTS = [
    # (case, make(tmp) -> extra CLI args and output, words of the message)
    ("output-is-a-file", lambda t: ([], t / "out.txt"), "is a file, not a folder"),
    ("input-inside-output", lambda t: ([], t), "inside the output folder"),
    ("audit-inside-input", lambda t: (["--audit-dir", t / "in" / "audit"], t / "out"), "--audit-dir"),
    ("audit-dir-is-a-file", lambda t: (["--audit-dir", t / "out.txt"], t / "out"), "is a file"),
    ("malformed-mapping-entry", lambda t: (["--mapping", t / "bad-map.json"], t / "out"),
     "malformed mapping entry (patient 1 of 1"),
    ("mapping-not-an-object", lambda t: (["--mapping", t / "list-map.json"], t / "out"),
     "malformed mapping ('patients'"),
]


@pytest.mark.parametrize("case,make,words", FOLDER_FAULTS, ids=[c[0] for c in FOLDER_FAULTS])
def test_folder_and_mapping_faults_are_messages(tmp_path, rules_model_dir, case, make, words):
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.txt").write_text(NOTE, encoding="utf-8")
    (tmp_path / "out.txt").write_text("not a folder", encoding="utf-8")
    header = {"format": "spacy-deid-mapping", "version": 2, "seed": "s"}
    (tmp_path / "bad-map.json").write_text(
        json.dumps({**header, "patients": {NAME: {"values": [NAME, PHONE]}}}), encoding="utf-8"
    )
    (tmp_path / "list-map.json").write_text(
        json.dumps({**header, "patients": [NAME]}), encoding="utf-8"
    )
    extra, output = make(tmp_path)
    result = cli("deidentify", tmp_path / "in", output, "--model", rules_model_dir, "--no-progress",
                 "--seed", "s", *extra)
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    assert words in " ".join(result.output.split()) and no_planted(result.output)
    assert not (tmp_path / "in" / "audit").exists()


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root writes anywhere")
def test_read_only_output_folder_is_a_message(tmp_path, rules_model_dir):
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.txt").write_text(NOTE, encoding="utf-8")
    output = _read_only(tmp_path / "out")
    try:
        result = cli("deidentify", tmp_path / "in", output, "--model", rules_model_dir,
                     "--no-progress")
    finally:
        output.chmod(stat.S_IRWXU)
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    output_words = " ".join(result.output.split())
    assert "cannot write into" in output_words and "Permission denied" in output_words


def test_unwritable_output_folder_is_a_message_even_for_root(tmp_path, rules_nlp, monkeypatch):
    """A lock that cannot be created (read-only folder, full disk) is a ValueError
    naming the folder, the same for root, for whom chmod does not stop writes."""
    from filelock import FileLock

    def refuse(self, *args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(FileLock, "acquire", refuse)
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.txt").write_text(NOTE, encoding="utf-8")
    with pytest.raises(ValueError, match="cannot write into .*Permission denied"):
        batch(rules_nlp, tmp_path / "in", tmp_path / "out")


# --- 29.5 / 27: SIGTERM with the default single process, then resume ----------------
def _wait_for(condition, seconds: float) -> bool:
    deadline = time.time() + seconds
    while time.time() < deadline:
        if condition():
            return True
        time.sleep(0.2)
    return False


@pytest.mark.skipif(not hasattr(signal, "SIGTERM") or os.name != "posix", reason="POSIX signals")
def test_sigterm_with_one_process_keeps_finished_files_and_removes_locks(
    tmp_path, rules_model_dir, rules_nlp
):
    source, out, mapping = tmp_path / "in", tmp_path / "out", tmp_path / "map.json"
    source.mkdir()
    for i in range(400):
        (source / f"{i:04d}.txt").write_text(NOTE * 20, encoding="utf-8")
    command = [sys.executable, "-c", "from spacy_deid.cli import main; main()", "deidentify",
               str(source), str(out), "--model", str(rules_model_dir), "--no-progress",
               "--seed", "s", "--operator", "surrogate", "--mapping", str(mapping)]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               start_new_session=True, env=env)
    try:
        # Outputs are written every 50 files: stop after the first checkpoint.
        started = _wait_for(lambda: len(list(out.glob("*.txt"))) >= 50, 240)
        process.send_signal(signal.SIGTERM)
        stdout, stderr = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
    assert started, "no checkpoint within the time allowed"
    assert process.returncode != 0
    done = sorted(p.name for p in out.glob("*.txt"))
    assert 50 <= len(done) < 400 and mapping.is_file()
    assert not list(out.glob(LOCK_NAME)) and not list(tmp_path.glob("*.lock"))
    assert not list(out.glob(".*.tmp")) and not list(tmp_path.glob(".*.tmp"))
    assert no_planted(stdout.decode(), stderr.decode(), tree_text(out))
    # Resume: no note lost, none twice, the same bytes as one uninterrupted run.
    deid = lambda: Deidentifier("surrogate", seed="s")  # noqa: E731
    from spacy_deid.deid import DeidMapping

    resumed = run_batch(rules_nlp,
                        Deidentifier("surrogate", seed="s", mapping=DeidMapping.from_disk(mapping)),
                        source, out, mapping_path=mapping, progress=False)
    assert resumed.files_resumed == len(done) and resumed.files_written == 400 - len(done)
    run_batch(rules_nlp, deid(), source, tmp_path / "whole", progress=False)
    assert sorted(p.name for p in out.glob("*.txt")) == sorted(p.name for p in (tmp_path / "whole").glob("*.txt"))
    differing = [p.name for p in out.glob("*.txt") if p.read_bytes() != (tmp_path / "whole" / p.name).read_bytes()]
    assert not differing, differing[:5]


# --- 27: two runs into one output folder ---------------------------------------------
def test_a_second_run_into_a_busy_output_is_a_message(tmp_path, rules_model_dir, rules_nlp):
    from spacy_deid.deid.batch import BatchRunner

    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.txt").write_text(NOTE, encoding="utf-8")
    runner = BatchRunner(rules_nlp, Deidentifier("placeholder", seed="s"), progress=False)
    with runner.lock(tmp_path / "out", None):  # the first run, still going
        result = cli("deidentify", tmp_path / "in", tmp_path / "out", "--model", rules_model_dir,
                     "--no-progress", "--seed", "s")
    assert result.exit_code == 1 and "another spacy-deid run" in " ".join(result.output.split())
    assert not (tmp_path / "out" / "a.txt").exists() and no_planted(result.output)


def test_review_reports_a_refused_line_instead_of_leaving_it_out(tmp_path):
    from spacy_deid.cli.review import read_review_notes
    from spacy_deid.corpus.note_input import InputError

    (tmp_path / "notes.jsonl").write_text(
        GOOD_LINE + "\n" + BAD_LINES[0][1] + "\n" + BAD_LINES[1][1] + "\n", encoding="utf-8"
    )
    with pytest.raises(InputError) as info:
        read_review_notes(tmp_path)
    assert "notes.jsonl: line 2" in str(info.value) and "1 more" in str(info.value)
    assert no_planted(str(info.value))
