"""Fault suite (issue 61, items 1 and 2): symbolic links around a run.

Every path `deidentify` writes, the mapping above all, is judged on its real
path: a mapping given through a link that lies in the output (or the input),
or that leads into them, is refused with a message before any note is
processed; a link elsewhere is written through (the file it leads to is
replaced, never the link); two runs given the mapping and a link to it share
one lock. A link in the input to the output, or in the output to the input,
is refused instead of reading released files or counting an original as
released. Each case fails on the code before issue 61.
"""
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spacy_deid.cli import app
from spacy_deid.deid import DeidMapping, Deidentifier
from spacy_deid.deid.batch import LOCK_NAME, BatchRunner, OutputInUseError, run_batch

pytestmark = [
    pytest.mark.faults,
    pytest.mark.skipif(not hasattr(os, "symlink") or os.name != "posix", reason="POSIX links"),
]

NAME, PHONE = "Zebulon Quattlebaum", "617-555-0143"  # planted PHI
NOTE = f"Seen on 4/17/2094 by Dr. {NAME}.\nPhone: {PHONE}\n\nPlan: follow up.\n"


def cli(*args):
    return CliRunner().invoke(app, [str(a) for a in args])


def words(result) -> str:
    return " ".join(result.output.split())


def surrogate_run(nlp, source, out, mapping=None, **settings):
    deid = Deidentifier("surrogate", seed="s")
    return run_batch(nlp, deid, source, out, mapping_path=mapping, progress=False, **settings)


def link(path: Path, target: Path) -> Path:
    """`path` made a symbolic link to `target`, written relative as a user would."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.symlink_to(os.path.relpath(target, path.parent))
    return path


@pytest.fixture
def tree(tmp_path):
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.txt").write_text(NOTE, encoding="utf-8")
    (tmp_path / "secure").mkdir()
    (tmp_path / "out").mkdir()
    return tmp_path


# --- 1. the mapping through links ------------------------------------------------------
REFUSED_MAPPINGS = [
    # (case, make(tmp) -> the --mapping path, words of the message)
    ("link-in-output-to-elsewhere",
     lambda t: link(t / "out" / "maplink.json", t / "secure" / "map.json"), "lies inside the output"),
    ("link-in-output-to-an-existing-mapping",
     lambda t: link(t / "out" / "maplink.json", t / "secure" / "old.json"), "lies inside the output"),
    ("link-elsewhere-into-output",
     lambda t: link(t / "secure" / "maplink.json", t / "out" / "map.json"), "is a link to"),
    ("link-to-the-output-folder",
     lambda t: link(t / "secure" / "outlink", t / "out") / "map.json", "inside the output"),
    ("inside-input", lambda t: t / "in" / "map.json", "inside the input"),
    ("link-into-input",
     lambda t: link(t / "secure" / "maplink.json", t / "in" / "map.json"), "is a link to"),
    ("link-in-input-to-elsewhere",
     lambda t: link(t / "in" / "maplink.json", t / "secure" / "map.json"), "lies inside the input"),
    ("link-to-a-folder",
     lambda t: link(t / "secure" / "maplink.json", t / "secure"), "is a folder"),
]


@pytest.mark.parametrize("case,make,expected", REFUSED_MAPPINGS, ids=[c[0] for c in REFUSED_MAPPINGS])
def test_a_mapping_through_a_link_into_the_output_or_input_is_refused(
    tree, rules_model_dir, case, make, expected
):
    old = tree / "secure" / "old.json"
    DeidMapping(seed="s").to_disk(old)
    before = old.read_bytes()
    mapping = make(tree)
    result = cli("deidentify", tree / "in", tree / "out", "--model", rules_model_dir,
                 "--no-progress", "--operator", "surrogate", "--seed", "s", "--mapping", mapping)
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result.output
    assert expected in words(result) and str(mapping) in words(result)
    assert "Traceback" not in result.output and NAME not in result.output
    released = [p for p in (tree / "out").rglob("*") if p.is_file() and not p.is_symlink()]
    assert not released, released  # no note released, no mapping written into the output
    assert not (tree / "in" / "map.json").exists() and not (tree / "out" / "map.json").exists()
    assert old.read_bytes() == before
    for path in (tree / "out" / "maplink.json", tree / "secure" / "maplink.json"):
        assert not path.exists() or path.is_symlink()  # a link given stays a link


def test_a_mapping_through_a_link_elsewhere_is_written_through(tree, rules_nlp):
    """The file the link leads to is the mapping: updated in place, the link kept."""
    vault = tree / "vault"
    vault.mkdir()
    real_file = vault / "map.json"
    given = link(tree / "secure" / "maplink.json", real_file)
    surrogate_run(rules_nlp, tree / "in", tree / "out", mapping=given)
    assert given.is_symlink() and real_file.is_file() and not real_file.is_symlink()
    assert DeidMapping.from_disk(real_file).patients  # the run's values are in the real file
    assert not list(tree.rglob("*.lock")) and not list(tree.rglob(".*.tmp"))
    # A later run through the real path continues the same mapping; the link stays.
    (tree / "in" / "b.txt").write_text(NOTE, encoding="utf-8")
    loaded = DeidMapping.from_disk(given)
    deid = Deidentifier("surrogate", seed="s", mapping=loaded)
    run_batch(rules_nlp, deid, tree / "in", tree / "out", mapping_path=real_file, progress=False)
    assert given.is_symlink() and len(DeidMapping.from_disk(given).patients) == 2


@pytest.mark.parametrize("first,second", [("real", "link"), ("link", "real")])
def test_runs_given_the_mapping_and_a_link_to_it_share_one_lock(tree, rules_nlp, first, second):
    real_file = tree / "secure" / "map.json"
    paths = {"real": real_file, "link": link(tree / "vault" / "maplink.json", real_file)}
    runner = BatchRunner(rules_nlp, Deidentifier("surrogate", seed="s"), progress=False)
    with runner.lock(tree / "out-first", paths[first]):  # the first run, still going
        with pytest.raises(OutputInUseError, match="another spacy-deid run"):
            with runner.lock(tree / "out-second", paths[second]):
                pass
    with runner.lock(tree / "out-second", paths[second]):  # free again afterwards
        pass


def test_runs_given_the_output_and_a_link_to_it_share_one_lock(tree, rules_nlp):
    out_link = link(tree / "outlink", tree / "out")
    runner = BatchRunner(rules_nlp, Deidentifier("placeholder"), progress=False)
    with runner.lock(tree / "out", None):
        with pytest.raises(OutputInUseError):
            with runner.lock(out_link, None):
                pass
    assert not (tree / "out" / LOCK_NAME).exists()


# --- 2. links between the input and the output ------------------------------------------
def test_an_input_link_to_the_output_is_refused(tree, rules_nlp, rules_model_dir):
    surrogate_run(rules_nlp, tree / "in", tree / "out")
    link(tree / "in" / "outlink", tree / "out")
    with pytest.raises(ValueError, match="leads into the output folder"):
        surrogate_run(rules_nlp, tree / "in", tree / "out")
    assert not (tree / "out" / "outlink").exists()
    result = cli("deidentify", tree / "in", tree / "out", "--model", rules_model_dir,
                 "--no-progress", "--corpus-aware")  # refused before the first pass reads it
    assert result.exit_code == 1 and "leads into the output folder" in words(result)
    assert "Traceback" not in result.output


def test_an_input_link_to_the_mapping_is_refused(tree, rules_nlp):
    mapping = tree / "secure" / "map.json"
    DeidMapping(seed="s").to_disk(mapping)
    link(tree / "in" / "notes.jsonl", mapping)
    with pytest.raises(ValueError, match="is the mapping file"):
        surrogate_run(rules_nlp, tree / "in", tree / "out", mapping=mapping)


@pytest.mark.parametrize("linked", ["folder", "file"])
def test_an_output_link_to_the_input_is_refused_not_counted_as_released(tree, rules_nlp, linked):
    (tree / "in" / "sub").mkdir()
    original = tree / "in" / "sub" / "b.txt"
    original.write_text(NOTE, encoding="utf-8")
    if linked == "folder":
        link(tree / "out" / "sub", tree / "in" / "sub")
    else:
        link(tree / "out" / "sub" / "b.txt", original)
    with pytest.raises(ValueError, match="leads into the input"):
        surrogate_run(rules_nlp, tree / "in", tree / "out")
    assert original.read_text(encoding="utf-8") == NOTE  # never overwritten
    assert not (tree / "out" / "a.txt").exists()  # refused before any work


def test_an_output_link_elsewhere_is_written_through(tree, rules_nlp):
    elsewhere = tree / "elsewhere"
    elsewhere.mkdir()
    link(tree / "out" / "a.txt", elsewhere / "a.txt")
    summary = surrogate_run(rules_nlp, tree / "in", tree / "out", overwrite=True)
    assert summary.files_written == 1 and (tree / "out" / "a.txt").is_symlink()
    assert PHONE not in (elsewhere / "a.txt").read_text(encoding="utf-8")


# --- small items (8): a file name near the limit is written back ------------------------
@pytest.mark.parametrize("length", [100, 240, 250, 255])
def test_a_long_file_name_is_written_back(tmp_path, rules_nlp, length):
    (tmp_path / "in").mkdir()
    name = "n" * (length - 4) + ".txt"
    (tmp_path / "in" / name).write_text(NOTE, encoding="utf-8")
    summary = surrogate_run(rules_nlp, tmp_path / "in", tmp_path / "out")
    assert summary.files_written == 1 and not summary.failed, summary.failed
    assert PHONE not in (tmp_path / "out" / name).read_text(encoding="utf-8")
    assert not list((tmp_path / "out").glob(".*.tmp"))


def test_a_long_multibyte_file_name_is_written_back(tmp_path, rules_nlp):
    (tmp_path / "in").mkdir()
    name = "é" * 124 + ".txt"  # 252 bytes in UTF-8
    (tmp_path / "in" / name).write_text(NOTE, encoding="utf-8")
    summary = surrogate_run(rules_nlp, tmp_path / "in", tmp_path / "out")
    assert summary.files_written == 1 and not summary.failed, summary.failed


def test_temporary_names_stay_within_the_limit():
    from spacy_deid.deid.files import NAME_MAX, temporary_name

    for name in ["a.txt", "n" * 255, "é" * 127, "日本" * 40]:
        temporary = temporary_name(name)
        assert len(os.fsencode(temporary)) <= NAME_MAX
        assert temporary.startswith(".") and temporary.endswith(".tmp")
    assert temporary_name("a.txt").startswith(".a.txt.")
