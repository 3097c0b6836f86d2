"""i2b2 2014 XML as written by the package reads the same in every parser:
ElementTree (what the official i2b2 scorer uses), lxml where installed, and
spacy_deid.corpus. XML parsers turn CRLF and lone CR into LF, inside CDATA
too, so a CR must be written as the character reference &#13;."""
import xml.etree.ElementTree as ET

import pytest
from typer.testing import CliRunner

from spacy_deid.cli import app
from spacy_deid.corpus import Note, PhiMention, read_i2b2_2014, write_i2b2_2014

# (case, text, mentions): each line-end style, markup characters and "]]>"
NOTES = [
    ("lf", "Seen by Lee\non 4/17/2094\nat Oak Clinic.", [(8, 11, "DOCTOR"), (15, 24, "DATE")]),
    ("crlf", "Seen by Lee\r\non 4/17/2094\r\nat Oak Clinic.", [(8, 11, "DOCTOR"), (16, 25, "DATE"), (30, 40, "HOSPITAL")]),
    ("lone-cr", "Seen by Lee\ron 4/17/2094\rat Oak Clinic.", [(8, 11, "DOCTOR"), (15, 24, "DATE"), (28, 38, "HOSPITAL")]),
    ("mixed", "A\r\n\r\nB\n\rLee\r", [(8, 11, "PATIENT")]),
    ("cdata-end", "x]]>y Lee ]]]]> <b> & &amp; Lee", [(6, 9, "PATIENT"), (28, 31, "PATIENT")]),
    ("edge-space", "\r\n  Lee  \r\n", [(4, 7, "PATIENT")]),
    ("tab-unicode", "caf\u00e9\tLee\u2028\r\nDr. M\u00fcller", [(5, 8, "PATIENT"), (15, 21, "DOCTOR")]),
    ("empty", "", []),
]


def parsers():
    found = [("elementtree", ET.fromstring)]
    try:
        from lxml import etree

        found.append(("lxml", lambda data: etree.fromstring(data)))
    except ImportError:
        pass
    return found


@pytest.mark.parametrize("case,text,mentions", NOTES, ids=[n[0] for n in NOTES])
@pytest.mark.parametrize("parser_name,parse", parsers(), ids=[p[0] for p in parsers()])
def test_every_parser_reads_the_text_and_offsets_of_the_package(tmp_path, case, text, mentions, parser_name, parse):
    note = Note("110-01", text, [PhiMention(*m) for m in mentions])
    for start, end, _ in mentions:  # the table itself is right
        assert text[start:end].strip() == text[start:end] and end > start
    path = write_i2b2_2014(note, tmp_path / "110-01.xml")
    root = parse(path.read_bytes())
    seen = root.find("TEXT").text or ""
    # Booleans only: a failure message must not show note text.
    same_text = seen == text
    assert same_text, f"{case}: {parser_name} reads another text"
    for tag in root.find("TAGS"):
        start, end = int(tag.get("start")), int(tag.get("end"))
        same_tag = seen[start:end] == tag.get("text")
        assert same_tag, f"{case}: tag {tag.get('id')} shifted"
    back = read_i2b2_2014(path)
    same_back = back.text == text and back.mention_keys() == note.mention_keys()
    assert same_back, case


@pytest.mark.parametrize(
    "raw,expected",
    [  # files in the wild: CDATA read byte for byte, CRLF included
        (b"<deIdi2b2><TEXT><![CDATA[a\r\nb]]></TEXT><TAGS/></deIdi2b2>", "a\r\nb"),
        (b"<deIdi2b2><TEXT><![CDATA[a\rb]]></TEXT><TAGS/></deIdi2b2>", "a\rb"),
        (b"<deIdi2b2><TEXT>a&#13;\nb &amp; c</TEXT><TAGS/></deIdi2b2>", "a\r\nb & c"),
        (b"<deIdi2b2><TEXT><![CDATA[x]]]]><![CDATA[>]]></TEXT><TAGS/></deIdi2b2>", "x]]>"),
    ],
)
def test_reading_stays_exact_for_files_in_the_wild(tmp_path, raw, expected):
    path = tmp_path / "1-1.xml"
    path.write_bytes(raw)
    same = read_i2b2_2014(path).text == expected
    assert same


def test_lf_notes_keep_the_official_cdata_form(tmp_path):
    data = write_i2b2_2014(Note("1-1", "a\nb", []), tmp_path / "1-1.xml").read_bytes()
    assert b"<TEXT><![CDATA[a\nb]]></TEXT>" in data


def test_synth_notes_read_by_elementtree_match_their_tags(tmp_path):
    """The issue's must-show: 200 synthetic notes, seed 7 (some with CRLF)."""
    result = CliRunner().invoke(app, ["synth", str(tmp_path), "--n", "200", "--seed", "7", "--quiet"])
    assert result.exit_code == 0, result.output
    paths = sorted(tmp_path.glob("*.xml"))
    assert len(paths) == 200
    with_cr = 0
    for path in paths:
        root = ET.parse(path).getroot()
        text = root.find("TEXT").text or ""
        same_text = text == read_i2b2_2014(path).text
        assert same_text, path.name
        with_cr += "\r" in text
        for tag in root.find("TAGS"):
            start, end = int(tag.get("start")), int(tag.get("end"))
            same_tag = text[start:end] == tag.get("text")
            assert same_tag, f"{path.name}: tag {tag.get('id')}"
    assert with_cr > 0  # the CRLF notes are among them
