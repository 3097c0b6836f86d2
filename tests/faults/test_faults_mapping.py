"""Fault suite (issue 61, items 7 and 8): the mapping file's faults are
messages, never tracebacks or a wrong reason.

- a mapping that cannot be written (file size limit, disk full) stops the run
  with a message naming the file and the reason, exit 1, no traceback; the
  files of that checkpoint are not written (the mapping must hold every
  released value) and the locks are removed;
- a bad value in a loaded mapping (a decimal or textual `date_offset`, a
  surrogate that is not a string, ...) is refused when the file is loaded,
  naming the patient by position and the field, instead of "the pipeline
  failed (TypeError)" in the middle of the run, or silently accepted.
"""
import errno
import json
import os

import pytest
from typer.testing import CliRunner

from spacy_deid.cli import app
from spacy_deid.deid import DeidMapping
from spacy_deid.deid.batch import LOCK_NAME

pytestmark = pytest.mark.faults

NAME, PHONE = "Zebulon Quattlebaum", "617-555-0143"  # planted PHI
NOTE = f"Seen on 4/17/2094 by Dr. {NAME}.\nPhone: {PHONE}\n\nPlan: follow up.\n"


def cli(*args):
    return CliRunner().invoke(app, [str(a) for a in args])


def words(result) -> str:
    return " ".join(result.output.split())


def notes_folder(tmp_path, count=1):
    folder = tmp_path / "in"
    folder.mkdir()
    lines = [json.dumps({"id": f"n{i}", "patient_id": "p1", "text": NOTE}) for i in range(count)]
    (folder / "notes.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


def deidentify(tmp_path, model, mapping, *extra):
    return cli("deidentify", tmp_path / "in", tmp_path / "out", "--model", model, "--no-progress",
               "--operator", "surrogate", "--seed", "s", "--mapping", mapping, *extra)


# --- 7: the mapping cannot be written -----------------------------------------------------
@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EFBIG, errno.EDQUOT])
def test_a_mapping_that_cannot_be_written_is_a_message(tmp_path, rules_model_dir, monkeypatch, code):
    notes_folder(tmp_path)
    mapping = tmp_path / "secure" / "map.json"

    def full(self, path):
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(DeidMapping, "to_disk", full)
    result = deidentify(tmp_path, rules_model_dir, mapping)
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result.output
    message = words(result)
    assert f"cannot write the mapping file {mapping}" in message and os.strerror(code) in message
    assert "pipeline failed" not in message and NAME not in result.output
    assert not (tmp_path / "out" / "notes.jsonl").exists()  # never released without its mapping
    assert not list(tmp_path.rglob("*.lock")) and not (tmp_path / "out" / LOCK_NAME).exists()


@pytest.mark.skipif(os.name != "posix", reason="POSIX resource limits")
def test_a_real_file_size_limit_on_the_mapping_is_a_message(tmp_path, rules_model_dir):
    """The issue's case: `ulimit -f` below the mapping's size (Errno 27)."""
    import resource

    notes_folder(tmp_path, count=60)  # the mapping outgrows the limit, the released file not
    mapping = tmp_path / "secure" / "map.json"
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (6000, hard))
    try:
        result = deidentify(tmp_path, rules_model_dir, mapping, "--patient-field", "id")
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result.output
    assert "cannot write the mapping file" in words(result) and "File too large" in words(result)
    assert not (tmp_path / "out" / "notes.jsonl").exists()
    assert not list(tmp_path.rglob("*.lock")) and not list(tmp_path.rglob(".*.tmp"))


# --- 7, 8: bad values in a loaded mapping --------------------------------------------------
def _mapping(patient: dict, **header) -> dict:
    return {"format": "spacy-deid-mapping", "version": 2, "seed": "s", **header,
            "patients": {"p1": patient}}


GOOD_PERSON = {"first": "zebulon", "last": "quattlebaum", "surrogate": ["Ann", "Lee", "F", "J"]}
BAD_MAPPINGS = [
    # (case, mapping, words of the message)
    ("decimal-offset", _mapping({"date_offset": 12.5}), "'date_offset' is not a whole number"),
    ("decimal-whole-offset", _mapping({"date_offset": 12.0}), "'date_offset' is not a whole number"),
    ("text-offset", _mapping({"date_offset": "12"}), "'date_offset' is not a whole number"),
    ("bool-offset", _mapping({"date_offset": True}), "'date_offset' is not a whole number"),
    ("zero-offset", _mapping({"date_offset": 0}), "dates would not move"),
    ("number-surrogate", _mapping({"values": {"numbers": {"6175550143": 5}}}), "'values'"),
    ("list-table", _mapping({"values": {"numbers": ["6175550143"]}}), "'values'"),
    ("text-number", _mapping({"numbers": {"PATIENT": {"person:0": "1"}}}), "'numbers'"),
    ("short-surrogate", _mapping({"people": [{**GOOD_PERSON, "surrogate": ["Ann", "Lee"]}]}),
     "'surrogate'"),
    ("number-surrogate-name", _mapping({"people": [{**GOOD_PERSON, "surrogate": [1, 2, "F", ""]}]}),
     "'surrogate'"),
    ("number-real-name", _mapping({"people": [{**GOOD_PERSON, "last": 5}]}), "'last'"),
    ("people-not-a-list", _mapping({"people": "zebulon"}), "'people'"),
    ("entry-not-an-object", _mapping([NAME]), "not an object"),  # type: ignore[arg-type]
    ("number-seed", _mapping({}, seed=5), "'seed'"),
    ("empty-seed", _mapping({}, seed=""), "'seed'"),
]


@pytest.mark.parametrize("case,data,expected", BAD_MAPPINGS, ids=[c[0] for c in BAD_MAPPINGS])
def test_a_bad_mapping_value_is_refused_when_loaded(tmp_path, rules_model_dir, case, data, expected):
    notes_folder(tmp_path)
    mapping = tmp_path / "map.json"
    mapping.write_text(json.dumps(data), encoding="utf-8")
    result = deidentify(tmp_path, rules_model_dir, mapping)
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result.output
    message = words(result)
    assert expected in message and str(mapping) in message, message
    assert "pipeline failed" not in message and NAME.lower() not in message.lower()
    assert not (tmp_path / "out").exists()  # refused before any note


GOOD_MAPPINGS = [
    ("offset", _mapping({"date_offset": -12})),
    ("values", _mapping({"date_offset": 30, "values": {"numbers": {"6175550143": "5085550199"}}})),
    ("person", _mapping({"people": [GOOD_PERSON], "numbers": {"PATIENT": {"person:0": 1}}})),
    ("empty", _mapping({})),
]


@pytest.mark.parametrize("case,data", GOOD_MAPPINGS, ids=[c[0] for c in GOOD_MAPPINGS])
def test_a_good_mapping_is_loaded_and_used(tmp_path, rules_model_dir, case, data):
    notes_folder(tmp_path)
    mapping = tmp_path / "map.json"
    mapping.write_text(json.dumps(data), encoding="utf-8")
    result = deidentify(tmp_path, rules_model_dir, mapping)
    assert result.exit_code == 0, result.output
    released = (tmp_path / "out" / "notes.jsonl").read_text(encoding="utf-8")
    assert PHONE not in released and NAME not in released
    if case == "values":
        assert "508-555-0199" in released  # the mapping's surrogate, in the note's shape
    if case == "offset":
        assert "4/5/2094" in released  # 4/17/2094 moved by the mapping's -12 days
