"""i2b2 2014 XML: exact text, round trips, and every bad-input case."""
from pathlib import Path

import pytest

from spacy_deid.corpus import (
    CorpusFormatError,
    Note,
    PhiMention,
    ProblemLog,
    read_corpus,
    read_i2b2_2014,
    write_i2b2_2014,
)

NOTE_TEXT = "Seen 2067-05-03 by Dr. Hendrick."
SECRET_WORDS = ("Hendrick", "2067-05-03", "Seen")


def xml_file(tmp_path: Path, text: str, tags: str, name: str = "110-01.xml") -> Path:
    path = tmp_path / name
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8" ?>\n<deIdi2b2>\n'
        f"<TEXT><![CDATA[{text}]]></TEXT>\n<TAGS>\n{tags}</TAGS>\n</deIdi2b2>\n",
        encoding="utf-8",
    )
    return path


GOOD_TAGS = (
    '<DATE id="P0" start="5" end="15" text="2067-05-03" TYPE="DATE" comment="" />\n'
    '<NAME id="P1" start="23" end="31" text="Hendrick" TYPE="DOCTOR" comment="" />\n'
)


def test_reads_text_mentions_and_ids(tmp_path):
    note = read_i2b2_2014(xml_file(tmp_path, NOTE_TEXT, GOOD_TAGS))
    assert note.text == NOTE_TEXT
    assert note.mention_keys() == [(5, 15, "DATE"), (23, 31, "DOCTOR")]
    assert (note.note_id, note.patient_id) == ("110-01", "110")
    assert [m.tag_id for m in note.mentions] == ["P0", "P1"]


def test_note_without_official_name_has_no_patient_id(tmp_path):
    note = read_i2b2_2014(xml_file(tmp_path, NOTE_TEXT, GOOD_TAGS, name="intake_note.xml"))
    assert (note.note_id, note.patient_id) == ("intake_note", None)


@pytest.mark.parametrize(
    "text",
    [
        "  leading and trailing whitespace kept \n\n",
        "line one\r\nline two\r\n",
        "lone\rcarriage return",
        "caf\u00e9 na\u00efve \u2013 \u00bd tab\there",
        "markup-like <b> & ]] > and ]]> inside",
        "",
    ],
)
def test_text_is_preserved_exactly_through_write_and_read(tmp_path, text):
    mentions = [PhiMention(0, 4, "PATIENT")] if len(text) >= 4 and text[:4].strip() == text[:4] else []
    note = Note("200-02", text, mentions)
    again = read_i2b2_2014(write_i2b2_2014(note, tmp_path / "200-02.xml"))
    assert again.text == text
    assert again.mention_keys() == note.mention_keys()


def test_written_file_keeps_crlf_as_a_character_reference(tmp_path):
    note = Note("1-1", "a\r\nb", [PhiMention(0, 1, "PATIENT")])
    data = write_i2b2_2014(note, tmp_path / "1-1.xml").read_bytes()
    assert b"<TEXT>a&#13;\nb</TEXT>" in data
    assert b'<NAME id="P0" start="0" end="1" text="a" TYPE="PATIENT" comment="" />' in data


def test_tag_text_spanning_a_line_break_is_escaped(tmp_path):
    note = Note("1-2", "12 Main St\nBoston", [PhiMention(3, 17, "STREET")])
    path = write_i2b2_2014(note, tmp_path / "1-2.xml")
    assert 'text="Main St&#10;Boston"' in path.read_text(encoding="utf-8")
    assert read_i2b2_2014(path).mention_keys() == [(3, 17, "STREET")]


def test_written_xml_parses_with_elementtree_like_the_official_scorer(tmp_path):
    import xml.etree.ElementTree as ET

    note = Note("3-1", NOTE_TEXT, [PhiMention(5, 15, "DATE"), PhiMention(23, 31, "DOCTOR")])
    root = ET.parse(write_i2b2_2014(note, tmp_path / "3-1.xml")).getroot()
    assert root.tag == "deIdi2b2" and root.find("TEXT").text == NOTE_TEXT
    tags = [(t.tag, t.get("TYPE"), t.get("start"), t.get("end"), t.get("text")) for t in root.find("TAGS")]
    assert tags == [("DATE", "DATE", "5", "15", "2067-05-03"), ("NAME", "DOCTOR", "23", "31", "Hendrick")]


def test_round_trip_over_every_dev_note(dev_corpus_dir, tmp_path):
    paths = sorted(dev_corpus_dir.glob("*.xml"))
    assert len(paths) >= 15
    for path in paths:
        note = read_i2b2_2014(path)
        assert note.mentions, path.name
        again = read_i2b2_2014(write_i2b2_2014(note, tmp_path / path.name))
        assert again.text == note.text, path.name
        assert again.mention_keys() == note.mention_keys(), path.name


# --- bad input: (case id, tags or raw file, error kind, tag id in message) ------------
BAD_TAGS = [
    ("offsets-out-of-range", '<DATE id="P7" start="5" end="999" text="x" TYPE="DATE" />', "offsets-out-of-range", "P7"),
    ("negative-offset", '<DATE id="P7" start="-1" end="3" TYPE="DATE" />', "offsets-out-of-range", "P7"),
    ("empty-mention", '<DATE id="P7" start="5" end="5" TYPE="DATE" />', "offsets-out-of-range", "P7"),
    ("text-mismatch", '<DATE id="P7" start="5" end="15" text="2067-05-04" TYPE="DATE" />', "text-mismatch", "P7"),
    ("unknown-type", '<DATE id="P7" start="5" end="15" text="2067-05-03" TYPE="BIRTHDAY" />', "unknown-type", "P7"),
    ("unknown-category", '<WHEN id="P7" start="5" end="15" TYPE="DATE" />', "unknown-type", "P7"),
    ("category-mismatch", '<NAME id="P7" start="5" end="15" TYPE="DATE" />', "category-mismatch", "P7"),
    ("missing-attribute", '<DATE id="P7" start="5" text="2067-05-03" TYPE="DATE" />', "missing-attribute", "P7"),
    ("non-integer-offsets", '<DATE id="P7" start="five" end="15" TYPE="DATE" />', "bad-offsets", "P7"),
    ("duplicate-tag", GOOD_TAGS + '<DATE id="P7" start="5" end="15" TYPE="DATE" />', "duplicate-tag", "P7"),
    ("overlapping-tags", GOOD_TAGS + '<DATE id="P7" start="10" end="20" TYPE="DATE" />', "overlapping-tags", "P7"),
    ("duplicate-id", GOOD_TAGS + '<DATE id="P1" start="17" end="19" TYPE="DATE" />', "duplicate-id", "P1"),
]


@pytest.mark.parametrize("case,tags,kind,tag_id", BAD_TAGS, ids=[c[0] for c in BAD_TAGS])
def test_bad_tag_raises_naming_file_tag_and_problem(tmp_path, case, tags, kind, tag_id):
    path = xml_file(tmp_path, NOTE_TEXT, tags + "\n")
    with pytest.raises(CorpusFormatError) as info:
        read_i2b2_2014(path)
    error = info.value
    assert error.kind == kind
    assert error.tag_id == tag_id
    message = str(error)
    assert str(path) in message and f"tag {tag_id}" in message
    assert not any(word in message for word in SECRET_WORDS), "note text leaked into the error"


@pytest.mark.parametrize("case,tags,kind,tag_id", BAD_TAGS, ids=[c[0] for c in BAD_TAGS])
def test_lenient_mode_skips_and_counts_bad_tags(tmp_path, case, tags, kind, tag_id):
    path = xml_file(tmp_path, NOTE_TEXT, tags + "\n")
    log = ProblemLog(lenient=True)
    note = read_i2b2_2014(path, log)
    assert log.total == 1 and log.by_kind() == {kind: 1}
    assert str(path) in log.summary() and kind in log.summary()
    good = {(5, 15, "DATE"), (23, 31, "DOCTOR")}
    assert set(note.mention_keys()) <= good


BAD_FILES = [
    ("malformed-xml", b"<deIdi2b2><TEXT><![CDATA[Hendrick]]></TEXT><TAGS><DATE id='P0'</TAGS></deIdi2b2>", "malformed-xml", "malformed XML at line 1"),
    ("unclosed-root", b"<deIdi2b2><TEXT><![CDATA[Hendrick]]></TEXT><TAGS></TAGS>", "malformed-xml", "malformed XML"),
    ("no-text-element", b"<deIdi2b2><TAGS></TAGS></deIdi2b2>", "malformed-xml", "expected one TEXT element"),
    ("undecodable-bytes", b"<deIdi2b2><TEXT><![CDATA[Hendrick \xff\xfe]]></TEXT><TAGS/></deIdi2b2>", "undecodable-bytes", "bytes 34-35 are not valid utf-8"),
    ("undefined-entity", b"<deIdi2b2><TEXT>Hendrick &nbsp;</TEXT><TAGS/></deIdi2b2>", "malformed-xml", "undefined XML entity"),
]


@pytest.mark.parametrize("case,data,kind,fragment", BAD_FILES, ids=[c[0] for c in BAD_FILES])
def test_bad_file_raises_even_in_lenient_mode(tmp_path, case, data, kind, fragment):
    path = tmp_path / "bad.xml"
    path.write_bytes(data)
    for log in (None, ProblemLog(lenient=True)):
        with pytest.raises(CorpusFormatError) as info:
            read_i2b2_2014(path, log)
        assert info.value.kind == kind
        assert str(path) in str(info.value) and fragment in str(info.value)
        assert "Hendrick" not in str(info.value)


def test_read_corpus_is_strict_by_default_and_lenient_on_request(tmp_path):
    xml_file(tmp_path, NOTE_TEXT, GOOD_TAGS, name="1-1.xml")
    xml_file(tmp_path, NOTE_TEXT, BAD_TAGS[0][1] + "\n", name="1-2.xml")
    with pytest.raises(CorpusFormatError):
        list(read_corpus(tmp_path))
    log = ProblemLog(lenient=True)
    notes = list(read_corpus(tmp_path, log=log))
    assert [n.note_id for n in notes] == ["1-1", "1-2"]
    assert log.counts == {str(tmp_path / "1-2.xml"): {"offsets-out-of-range": 1}}
