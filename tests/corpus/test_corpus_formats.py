"""i2b2 2006 inline XML, PhysioNet deid files, and format discovery."""
import pytest

from spacy_deid.corpus import (
    CorpusFormatError,
    ProblemLog,
    corpus_files,
    read_corpus,
    read_i2b2_2006,
    read_physionet,
    sniff_xml_format,
)

I2B2_2006 = (
    b'<?xml version="1.0" encoding="UTF-8"?>\r\n<ROOT>\r\n'
    b'<RECORD ID="101">\r\n<TEXT>\r\nSeen by <PHI TYPE="DOCTOR">John Bland</PHI> on '
    b'<PHI TYPE="DATE">4/17</PHI> at <PHI TYPE="HOSPITAL">Oak Clinic</PHI>; MRN '
    b'<PHI TYPE="ID">123-45</PHI>, caf\xc3\xa9 &amp; co\r\n</TEXT>\r\n</RECORD>\r\n'
    b'<RECORD ID="102"><TEXT>No PHI here.</TEXT></RECORD>\r\n</ROOT>\r\n'
)


def test_i2b2_2006_records_text_and_mapped_types(tmp_path):
    path = tmp_path / "train.xml"
    path.write_bytes(I2B2_2006)
    first, second = read_i2b2_2006(path)
    assert first.note_id == "101" and first.patient_id is None
    assert first.text == "\r\nSeen by John Bland on 4/17 at Oak Clinic; MRN 123-45, caf\u00e9 & co\r\n"
    found = [(m.label, first.text[m.start : m.end]) for m in first.mentions]
    assert found == [
        ("DOCTOR", "John Bland"),
        ("DATE", "4/17"),
        ("HOSPITAL", "Oak Clinic"),
        ("IDNUM", "123-45"),
    ]
    assert (second.note_id, second.text, second.mentions) == ("102", "No PHI here.", [])


@pytest.mark.parametrize(
    "record,kind",
    [
        (b'<RECORD ID="1"><TEXT>a <PHI TYPE="NAME">b</PHI></TEXT></RECORD>', "unknown-type"),
        (b'<RECORD ID="1"><TEXT>a <PHI TYPE="DATE"></PHI> b</TEXT></RECORD>', "offsets-out-of-range"),
        (b'<RECORD><TEXT>a</TEXT></RECORD>', "missing-attribute"),
        (b'<RECORD ID="1"><TEXT>a</TEXT></RECORD><RECORD ID="1"><TEXT>b</TEXT></RECORD>', "duplicate-id"),
        (b'<RECORD ID="1"></RECORD>', "malformed-xml"),
        (b'<RECORD ID="1"><TEXT>a <B>b</B></TEXT></RECORD>', "malformed-xml"),
    ],
)
def test_i2b2_2006_bad_input(tmp_path, record, kind):
    path = tmp_path / "bad.xml"
    path.write_bytes(b"<ROOT>" + record + b"</ROOT>")
    with pytest.raises(CorpusFormatError) as info:
        list(read_i2b2_2006(path))
    assert info.value.kind == kind and str(path) in str(info.value)
    log = ProblemLog(lenient=True)
    list(read_i2b2_2006(path, log))
    assert log.by_kind()[kind] == 1


def physionet_files(tmp_path, phrases):
    text = tmp_path / "id.text"
    text.write_bytes(
        b"START_OF_RECORD=7||||1||||\r\nPt seen 2/10 by Dr. Smith.\r\n||||END_OF_RECORD\r\n"
        b"START_OF_RECORD=7||||2||||\nCalled wife Ann at 555-1234.\n||||END_OF_RECORD\n"
    )
    (tmp_path / "id-phi.phrase").write_text(phrases)
    return text


@pytest.mark.parametrize(
    "phrases",
    [
        "7 1 8 12 Date 2/10\n7 1 20 25 HCPName Smith\n7 2 12 15 RelativeProxyName Ann\n7 2 19 27 Phone 555-1234\n",
        "7 1 8 11 Date 2/10\n7 1 20 24 HCPName Smith\n7 2 12 14 RelativeProxyName Ann\n7 2 19 26 Phone 555-1234\n",
    ],
    ids=["exclusive-ends", "inclusive-ends"],
)
def test_physionet_records_and_phrases(tmp_path, phrases):
    notes = list(read_physionet(physionet_files(tmp_path, phrases)))
    assert [(n.note_id, n.patient_id) for n in notes] == [("7-1", "7"), ("7-2", "7")]
    assert notes[0].text == "Pt seen 2/10 by Dr. Smith.\r\n"
    found = [(m.label, n.text[m.start : m.end]) for n in notes for m in n.mentions]
    assert found == [("DATE", "2/10"), ("DOCTOR", "Smith"), ("PATIENT", "Ann"), ("PHONE", "555-1234")]


@pytest.mark.parametrize(
    "phrases,kind",
    [
        ("7 1 8 12 Birthday 2/10\n", "unknown-type"),
        ("7 9 8 12 Date 2/10\n", "missing-record"),
        ("7 1 8 Date\n", "missing-attribute"),
        ("7 1 8 12 Date 2/11\n", "text-mismatch"),
        ("7 1 8 400 Date 2/10\n", "offsets-out-of-range"),
    ],
)
def test_physionet_bad_annotations(tmp_path, phrases, kind):
    text_path = physionet_files(tmp_path, phrases)
    with pytest.raises(CorpusFormatError) as info:
        list(read_physionet(text_path))
    assert info.value.kind == kind
    assert "Smith" not in str(info.value)


def test_physionet_unterminated_record(tmp_path):
    path = tmp_path / "id.text"
    path.write_text("START_OF_RECORD=1||||1||||\nno end\n")
    (tmp_path / "id-phi.phrase").write_text("")
    with pytest.raises(CorpusFormatError, match="has no \\|\\|\\|\\|END_OF_RECORD"):
        list(read_physionet(path))


def test_format_discovery(tmp_path, dev_corpus_dir):
    (tmp_path / "a.xml").write_bytes(I2B2_2006)
    assert sniff_xml_format(tmp_path / "a.xml") == "i2b2-2006"
    assert sniff_xml_format(next(dev_corpus_dir.glob("*.xml"))) == "i2b2-2014"
    (tmp_path / "odd.xml").write_text("<html></html>")
    with pytest.raises(CorpusFormatError, match="cannot tell the corpus format"):
        sniff_xml_format(tmp_path / "odd.xml")


def test_folder_reading_warns_about_files_it_ignores(tmp_path):
    (tmp_path / "a.xml").write_bytes(I2B2_2006)
    (tmp_path / "notes.txt").write_text("x")
    with pytest.warns(UserWarning, match="ignoring 1 file.*notes.txt"):
        files = corpus_files(tmp_path)
    assert files == [tmp_path / "a.xml"]


def test_folder_without_xml_files_is_an_error(tmp_path):
    with pytest.raises(CorpusFormatError, match="no .xml or .jsonl files"):
        corpus_files(tmp_path)


def test_read_corpus_auto_detects_physionet_folder(tmp_path):
    physionet_files(tmp_path, "7 1 8 12 Date 2/10\n")
    assert [n.note_id for n in read_corpus(tmp_path)] == ["7-1", "7-2"]


def test_missing_path_is_a_clear_error(tmp_path):
    with pytest.raises(FileNotFoundError, match="does not exist"):
        list(read_corpus(tmp_path / "nowhere"))


@pytest.mark.faults
@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-16-be"])
@pytest.mark.parametrize("fmt", ["i2b2-2014", "i2b2-2006"])
def test_format_discovery_in_wide_encodings(tmp_path, dev_corpus_dir, encoding, fmt):
    """A Windows editor's "Unicode" XML (UTF-16 with a byte order mark) is sniffed and read
    like UTF-8 (`convert` refused it with "root element <>" before)."""
    if fmt == "i2b2-2014":
        text = next(dev_corpus_dir.glob("*.xml")).read_text("utf-8")
    else:
        text = I2B2_2006.decode("utf-8")
    wide = encoding.startswith("utf-16")
    declared = text.replace('encoding="UTF-8"', f'encoding="{encoding.upper()}"') if wide else text
    data = declared.encode(encoding)
    if encoding in ("utf-16-le", "utf-16-be"):
        data = "\ufeff".encode(encoding) + data  # the byte order mark, as editors write it
    (tmp_path / "note.xml").write_bytes(data)
    assert sniff_xml_format(tmp_path / "note.xml") == fmt
    expected = list(read_corpus(tmp_path / "note.xml", fmt)) if not wide else None
    notes = list(read_corpus(tmp_path))
    assert notes and all(note.mentions or note.text for note in notes)
    if expected is not None:
        assert [n.mentions for n in notes] == [n.mentions for n in expected]


@pytest.mark.faults
def test_format_discovery_still_refuses_other_xml_in_utf16(tmp_path):
    (tmp_path / "odd.xml").write_bytes('<?xml version="1.0" encoding="UTF-16"?><html/>'.encode("utf-16"))
    with pytest.raises(CorpusFormatError, match="cannot tell the corpus format"):
        sniff_xml_format(tmp_path / "odd.xml")
