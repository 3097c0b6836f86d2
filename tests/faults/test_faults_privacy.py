"""Privacy holes of the bad-input suite (issue 29, items 2, 3, 4 and 7), one table each.

Every failure path plants PHI-like strings (`PLANTED`) in the input and
asserts that no message, report, output file or temporary file shows one.
No assertion message shows note text.
"""

import json
import os
import stat
import xml.etree.ElementTree as ElementTree
from pathlib import Path
from typing import List, Tuple

import pytest
from typer.testing import CliRunner

from spacy_deid import labels
from spacy_deid.cli import app
from spacy_deid.corpus import Note, PhiMention, read_i2b2_2014, write_i2b2_2014
from spacy_deid.deid import Deidentifier
from spacy_deid.deid.release import SpanError

pytestmark = pytest.mark.faults

NAME = "Zebulon Quartermaine"  # PHI-like strings planted in bad input
MRN = "MRN 88812345"
PLANTED = (NAME, "Zebulon", "Quartermaine", "88812345")
NOTE = f"Patient {NAME} seen today. {MRN}.\n"
NAME_START = NOTE.index(NAME)
NAME_END = NAME_START + len(NAME)


def shows_planted(*texts: str) -> bool:
    return any(value in text for text in texts for value in PLANTED)


def files_show_planted(folder: Path) -> bool:
    """Whether any file under `folder` (temporary files included) holds a planted string."""
    for path in folder.rglob("*"):
        if path.is_file() and shows_planted(path.read_bytes().decode("utf-8", "replace")):
            return True
    return False


# --- 2. Deidentifier.release checks its spans ---------------------------------------
BAD_SPANS = [
    ("negative-start", [(-5, NAME_END, labels.PATIENT)], "negative"),
    ("negative-end", [(NAME_START, -1, labels.PATIENT)], "negative"),
    ("reversed", [(NAME_END, NAME_START, labels.PATIENT)], "end before start"),
    ("float", [(float(NAME_START), float(NAME_END), labels.PATIENT)], "not a whole number"),
    ("string-offset", [(str(NAME_START), NAME_END, labels.PATIENT)], "not a whole number"),
    ("bool-offset", [(True, NAME_END, labels.PATIENT)], "bool"),
    ("past-the-end", [(NAME_START, len(NOTE) + 40, labels.PATIENT)], "past the end"),
    ("overlapping", [(NAME_START, NAME_END, labels.PATIENT), (NAME_START + 3, NAME_END, labels.DOCTOR)], "overlapping"),
    ("two-items", [(NAME_START, NAME_END)], "triple"),
    ("label-is-a-name", [(NAME_START, NAME_END, NAME)], "not a PHI subtype"),
    ("label-none", [(NAME_START, NAME_END, None)], "not a PHI subtype"),
    ("spans-a-string", NAME, "string"),
]


@pytest.mark.parametrize("case,spans,problem", BAD_SPANS, ids=[c[0] for c in BAD_SPANS])
@pytest.mark.parametrize("operator", ["placeholder", "surrogate"])
def test_2_release_refuses_bad_spans(case, spans, problem, operator):
    deid = Deidentifier(operator, seed="s")
    with pytest.raises(SpanError) as error:
        deid.release(NOTE, spans, "p1")
    assert problem in str(error.value)
    assert not shows_planted(str(error.value))


GOOD_SPANS = [
    ("exact", [(NAME_START, NAME_END, labels.PATIENT)]),
    ("numpy-ints", "numpy"),
    ("empty-span", [(NAME_START, NAME_START, labels.PATIENT), (NAME_START, NAME_END, labels.PATIENT)]),
    ("to-the-end", [(NAME_START, len(NOTE), labels.PATIENT)]),
    ("touching", [(NAME_START, NAME_START + 7, labels.PATIENT), (NAME_START + 8, NAME_END, labels.PATIENT)]),
    ("generator", "generator"),
]


@pytest.mark.parametrize("case,spans", GOOD_SPANS, ids=[c[0] for c in GOOD_SPANS])
def test_2_release_takes_good_spans(case, spans):
    if spans == "numpy":
        import numpy

        spans = [(numpy.int64(NAME_START), numpy.int32(NAME_END), labels.PATIENT)]
    elif spans == "generator":
        spans = ((s, e, label) for s, e, label in [(NAME_START, NAME_END, labels.PATIENT)])
    released = Deidentifier("placeholder").release(NOTE, spans, "p1")
    assert not shows_planted(released.text.replace(MRN, ""))
    assert released.text.startswith("Patient [")


# --- 3. no value from inside a tag or a note in any message -------------------------
runner = CliRunner()
TEXT_2014 = "Seen by Dr. Lee on 4/17/2094."
GOOD_TAG = '<DATE id="P1" start="19" end="28" text="4/17/2094" TYPE="DATE" comment="" />'


def i2b2_2014(tags: str, text: str = TEXT_2014, declaration: str = "") -> str:
    return (
        f'<?xml version="1.0"{declaration}?>\n<deIdi2b2>\n<TEXT><![CDATA[{text}]]></TEXT>\n'
        f"<TAGS>\n{tags}\n</TAGS>\n</deIdi2b2>\n"
    )


def i2b2_2006(record: str) -> str:
    return f"<ROOT>\n{record}\n</ROOT>\n"


# (case, file name, content, format): each a bad tag whose value is a planted name.
BAD_TAGS = [
    ("type-is-a-name", "a.xml", i2b2_2014(f'<NAME id="P0" start="8" end="15" text="Dr. Lee" TYPE="{NAME}" comment="" />'), "auto"),
    ("tag-name-is-a-name", "a.xml", i2b2_2014('<Quartermaine id="P0" start="12" end="15" text="Lee" TYPE="DOCTOR" comment="" />'), "auto"),
    ("id-is-a-name-duplicate", "a.xml", i2b2_2014(f'<DATE id="{NAME}" start="19" end="28" TYPE="DATE" />\n<DATE id="{NAME}" start="19" end="28" TYPE="DATE" />'), "auto"),
    ("id-is-a-name-bad-offsets", "a.xml", i2b2_2014(f'<DATE id="{NAME}" start="x" end="28" TYPE="DATE" />'), "auto"),
    ("id-is-a-name-missing-type", "a.xml", i2b2_2014(f'<DATE id="{NAME}" start="19" end="28" />'), "auto"),
    ("id-is-a-name-out-of-range", "a.xml", i2b2_2014(f'<DATE id="{NAME}" start="19" end="2800" TYPE="DATE" />'), "auto"),
    ("id-is-a-name-overlap", "a.xml", i2b2_2014(f'<DATE id="{NAME}" start="19" end="28" TYPE="DATE" />\n<DATE id="P9" start="20" end="28" TYPE="DATE" />'), "auto"),
    ("id-is-a-name-text-mismatch", "a.xml", i2b2_2014(f'<DATE id="{NAME}" start="19" end="28" text="{NAME}" TYPE="DATE" />'), "auto"),
    ("undefined-entity", "a.xml", i2b2_2014(GOOD_TAG, text="x").replace("<![CDATA[x]]>", "Seen by Dr. Lee on 4/17/2094 &Quartermaine;"), "auto"),
    ("bad-character-reference", "a.xml", i2b2_2014(GOOD_TAG, text="x").replace("<![CDATA[x]]>", "Seen by Dr. Lee on 4/17/2094 &#88812345;"), "auto"),
    ("encoding-is-a-name", "a.xml", i2b2_2014(GOOD_TAG, declaration=' encoding="Zebulon"'), "auto"),
    ("2006-type-is-a-name", "b.xml", i2b2_2006(f'<RECORD ID="7"><TEXT>Seen by <PHI TYPE="{NAME}">Lee</PHI>.</TEXT></RECORD>'), "i2b2-2006"),
    ("2006-record-id-is-a-name", "b.xml", i2b2_2006(f'<RECORD ID="{NAME}"><TEXT>Seen by <PHI TYPE="DOCTOR">Lee</PHI>.</TEXT></RECORD>\n<RECORD ID="{NAME}"><TEXT>x</TEXT></RECORD>'), "i2b2-2006"),
    ("2006-element-is-a-name", "b.xml", i2b2_2006('<RECORD ID="7"><TEXT>Seen by <Quartermaine>Lee</Quartermaine>.</TEXT></RECORD>'), "i2b2-2006"),
]


def write_corpus(folder: Path, name: str, content: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(content, encoding="utf-8")
    return folder


@pytest.mark.parametrize("lenient", [False, True], ids=["strict", "lenient"])
@pytest.mark.parametrize("case,name,content,format", BAD_TAGS, ids=[c[0] for c in BAD_TAGS])
def test_3_convert_messages_show_no_value_from_a_tag(tmp_path, case, name, content, format, lenient):
    corpus = write_corpus(tmp_path / "in", name, content)
    args = ["convert", str(corpus), str(tmp_path / "out.spacy"), "--format", format]
    result = runner.invoke(app, args + (["--lenient"] if lenient else []))
    output = result.output + (str(result.exception) if result.exception else "")
    assert not isinstance(result.exception, (AssertionError, TypeError, AttributeError)), case
    assert not shows_planted(output), case
    assert "tag" in output or "RECORD" in output or "entity" in output or "character" in output or "encoding" in output or result.exit_code == 0


@pytest.mark.parametrize("case,name,content,format", [c for c in BAD_TAGS if c[3] == "auto"], ids=[c[0] for c in BAD_TAGS if c[3] == "auto"])
def test_3_evaluate_messages_show_no_value_from_a_tag(tmp_path, case, name, content, format):
    gold = write_corpus(tmp_path / "gold", name, content)
    system = write_corpus(tmp_path / "system", name, i2b2_2014(GOOD_TAG))
    for lenient in ([], ["--lenient"]):
        result = runner.invoke(
            app, ["evaluate", str(system), str(gold), "--output", str(tmp_path / "report"), "--no-plots", *lenient]
        )
        output = result.output + (str(result.exception) if result.exception else "")
        assert not shows_planted(output), (case, lenient)
        if (tmp_path / "report").exists():
            assert not files_show_planted(tmp_path / "report"), (case, lenient)


SHOWN_IDS = [
    ("P12", True), ("T3", True), ("12", True), ("#4", True), ("line 7", True),
    ("RECORD 12 PHI #3", True), ("RECORD #2", True),
    (NAME, False), ("Quartermaine", False), ("P" + "1" * 20, False), ("", False), (None, False),
    ("P1 Smith", False), ("RECORD Smith", False),
]


@pytest.mark.parametrize("value,shown", SHOWN_IDS, ids=[repr(v) for v, _ in SHOWN_IDS])
def test_3_only_id_like_values_are_shown(value, shown):
    from spacy_deid.corpus.problems import NOT_SHOWN, is_shown_id, shown_id

    assert is_shown_id(value) is shown
    assert shown_id(value) == (value if shown else NOT_SHOWN)


# --- 7. XML written by the package is XML 1.0 -------------------------------------
CONTROL_NOTES = [
    ("nul", "Seen\x00 by Lee on 4/17/2094.", [(9, 12, "DOCTOR")]),
    ("soh-in-mention", "Seen by L\x01ee on 4/17/2094.", [(8, 12, "DOCTOR")]),
    ("vertical-tab-form-feed", "Seen\x0b by\x0c Lee.", [(10, 13, "DOCTOR")]),
    ("unit-separator-crlf", "Seen\x1f by Lee\r\non 4/17/2094.", [(9, 12, "DOCTOR")]),
    ("noncharacters", "Seen \ufffe\uffff by Lee.", [(11, 14, "DOCTOR")]),
    ("allowed-only", "Tab\tand DEL\x7f and C1\x85 by Lee.", [(24, 27, "DOCTOR")]),
]


def xml_parsers():
    found = [("elementtree", ElementTree.fromstring)]
    try:
        from lxml import etree

        found.append(("lxml", etree.fromstring))
    except ImportError:
        pass
    return found


@pytest.mark.parametrize("case,text,mentions", CONTROL_NOTES, ids=[c[0] for c in CONTROL_NOTES])
def test_7_written_xml_parses_and_keeps_offsets(tmp_path, case, text, mentions):
    from spacy_deid.corpus.xml_text import XML_SUBSTITUTE, xml_1_0_text

    path = write_i2b2_2014(Note("110-01", text, [PhiMention(*m) for m in mentions]), tmp_path / "n.xml")
    data = path.read_bytes()
    for _, parse in xml_parsers():
        parse(data)  # raises on characters XML 1.0 forbids
    back = read_i2b2_2014(path)
    expected = xml_1_0_text(text)
    assert back.text == expected and len(back.text) == len(text)
    assert [(m.start, m.end) for m in back.mentions] == [(s, e) for s, e, _ in mentions]
    if case == "allowed-only":
        assert back.text == text
    else:
        assert XML_SUBSTITUTE in back.text


def test_7_deidentify_writes_parseable_xml_from_input_with_character_references(tmp_path, rules_model_dir):
    source = tmp_path / "in"
    source.mkdir()
    (source / "n1.xml").write_text(
        i2b2_2014("", text="x").replace("<![CDATA[x]]>", "Seen &#1;by Dr. Lee &#11;on 4/17/2094."),
        encoding="utf-8",
    )
    # NUL through JSON's escape: a .txt file with NUL bytes is refused as probable UTF-16
    # without a byte order mark (docs/deidentify.md), so the control characters come as JSON.
    (source / "n2.jsonl").write_text(
        json.dumps({"id": "n2", "text": "Seen\x00 by Dr. Lee on 4/17/2094.\x1b\n"}) + "\n",
        encoding="utf-8",
    )
    out, audit = tmp_path / "out", tmp_path / "audit"
    result = runner.invoke(
        app, ["deidentify", str(source), str(out), "--model", str(rules_model_dir),
              "--audit-dir", str(audit), "--no-progress"],
    )
    assert result.exit_code == 0, result.output
    written = list(out.rglob("*.xml")) + list(audit.rglob("*.xml"))
    assert len(written) == 3
    for path in written:
        for _, parse in xml_parsers():
            parse(path.read_bytes())


# --- 4. every path under the input is read or reported ------------------------------
@pytest.fixture(scope="module")
def rules_nlp(rules_model_dir):
    import spacy

    return spacy.load(rules_model_dir)


def make_tree(tmp_path: Path, case: str, monkeypatch) -> Tuple[Path, int, List[str]]:
    """An input folder with one plain note and the case's trap: (folder,
    notes expected written, names expected in the failure report)."""
    source = tmp_path / "in"
    source.mkdir()
    (source / "a.txt").write_text(NOTE, encoding="utf-8")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "b.txt").write_text(NOTE, encoding="utf-8")
    (elsewhere / "c.txt").write_text(NOTE, encoding="utf-8")
    if case == "symlinked-folder":
        (source / "linked").symlink_to(elsewhere, target_is_directory=True)
        return source, 3, []
    if case == "symlink-loop":
        (source / "sub").mkdir()
        (source / "sub" / "d.txt").write_text(NOTE, encoding="utf-8")
        (source / "sub" / "back").symlink_to(source, target_is_directory=True)
        return source, 2, ["back"]
    if case == "broken-symlink":
        (source / "gone.txt").symlink_to(tmp_path / "missing.txt")
        return source, 1, ["gone.txt"]
    if case == "fifo":
        os.mkfifo(source / "pipe.txt")
        return source, 1, ["pipe.txt"]
    if case == "unreadable-folder":
        locked = source / "locked"
        locked.mkdir()
        (locked / "e.txt").write_text(NOTE, encoding="utf-8")
        locked.chmod(0)
        real_scandir = os.scandir

        def scandir(path="."):  # root reads any folder: refuse like a mode-0 folder does
            if Path(path) == locked:
                raise PermissionError(13, "Permission denied", str(path))
            return real_scandir(path)

        monkeypatch.setattr(os, "scandir", scandir)
        return source, 1, ["locked"]
    raise ValueError(case)


TREES = ["symlinked-folder", "symlink-loop", "broken-symlink", "fifo", "unreadable-folder"]


@pytest.mark.parametrize("case", TREES)
def test_4_every_input_path_is_read_or_reported(tmp_path, monkeypatch, rules_nlp, case):
    from spacy_deid.deid.batch import run_batch

    if case == "fifo" and not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    source, written, reported = make_tree(tmp_path, case, monkeypatch)
    try:
        summary = run_batch(rules_nlp, Deidentifier("placeholder"), source, tmp_path / "out", progress=False)
    finally:
        if case == "unreadable-folder":
            (source / "locked").chmod(stat.S_IRWXU)
    assert summary.files_written == written
    failed = "\n".join(problem for _, problem in summary.failed)
    for name in reported:
        assert name in failed, case
    assert len(summary.failed) == len(reported)
    assert not shows_planted("\n".join(summary.lines()))
    assert not [p for p in (tmp_path / "out").rglob("*") if p.name.endswith(".tmp")]
