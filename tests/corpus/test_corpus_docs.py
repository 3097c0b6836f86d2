"""Notes as Docs: gold ents, alignment policies, DocBin, the config reader, the CLI."""
import spacy
import pytest
from spacy.tokens import DocBin
from typer.testing import CliRunner

from spacy_deid.cli import app
from spacy_deid.corpus import (
    AlignmentReport,
    CorpusFormatError,
    Note,
    PhiMention,
    doc_to_note,
    note_to_doc,
    read_corpus,
    write_i2b2_2014,
)

# "39Sex" glues the age to the next word: the AGE ends inside a token.
GLUED = Note("5-1", "Age: 39Sex: F. Seen by Dr. Lee.", [PhiMention(5, 7, "AGE"), PhiMention(27, 30, "DOCTOR")],
             patient_id="5", source_file="5-1.xml")


@pytest.fixture
def nlp():
    return spacy.blank("en")


def test_aligned_mentions_become_ents_with_ids(nlp):
    note = Note("1-1", "Seen by Dr. Lee on 4/17/94.", [PhiMention(12, 15, "DOCTOR"), PhiMention(19, 26, "DATE")],
                patient_id="1", source_file="1-1.xml")
    report = AlignmentReport()
    doc = note_to_doc(note, nlp.make_doc, report=report)
    assert [(e.text, e.label_) for e in doc.ents] == [("Lee", "DOCTOR"), ("4/17/94", "DATE")]
    assert (doc._.note_id, doc._.patient_id, doc._.source_file) == ("1-1", "1", "1-1.xml")
    assert report.misaligned == 0
    assert doc_to_note(doc).mention_keys() == note.mention_keys()


@pytest.mark.parametrize(
    "policy,ents,kinds",
    [
        ("expand", [("39Sex", "AGE"), ("Lee", "DOCTOR")], {"misaligned": 1, "expanded": 1}),
        ("skip", [("Lee", "DOCTOR")], {"misaligned": 1, "skipped": 1}),
        ("contract", [("Lee", "DOCTOR")], {"misaligned": 1, "skipped": 1}),
    ],
)
def test_misaligned_mentions_are_reported_never_silently_dropped(nlp, policy, ents, kinds):
    report = AlignmentReport()
    doc = note_to_doc(GLUED, nlp.make_doc, misaligned=policy, report=report)
    assert [(e.text, e.label_) for e in doc.ents] == ents
    assert report.counts == {"5-1.xml": kinds}
    assert "5-1.xml" in report.summary() and "39" not in report.summary()


def test_misaligned_error_policy_raises(nlp):
    with pytest.raises(CorpusFormatError, match="5-1.xml.*inside a token") as info:
        note_to_doc(GLUED, nlp.make_doc, misaligned="error")
    assert "39" not in str(info.value)


def test_mentions_colliding_after_expansion_are_counted(nlp):
    note = Note("2-1", "IDs 12G00123,12N01234 noted", [PhiMention(4, 12, "IDNUM"), PhiMention(13, 21, "IDNUM")],
                source_file="2-1.xml")
    report = AlignmentReport()
    doc = note_to_doc(note, nlp.make_doc, report=report)
    assert len(doc.ents) == 1
    assert report.counts["2-1.xml"]["collided"] == 1


def test_doc_round_trip_over_dev_notes(nlp, dev_corpus_dir, tmp_path):
    """read -> Doc -> write -> read keeps text and every aligned mention."""
    for note in read_corpus(dev_corpus_dir):
        report = AlignmentReport()
        doc = note_to_doc(note, nlp.make_doc, misaligned="skip", report=report)
        again = list(read_corpus(write_i2b2_2014(doc_to_note(doc), tmp_path / f"{note.note_id}.xml")))[0]
        assert again.text == note.text
        kept = set(again.mention_keys())
        assert kept <= set(note.mention_keys())
        assert len(note.mentions) - len(kept) == report.misaligned


def test_convert_cli_then_registered_reader_in_a_config(dev_corpus_dir, tmp_path):
    output = tmp_path / "dev.spacy"
    result = CliRunner().invoke(app, ["convert", str(dev_corpus_dir), str(output)])
    assert result.exit_code == 0, result.output
    assert "Wrote 15 notes" in result.output
    docs = list(DocBin().from_disk(output).get_docs(spacy.blank("en").vocab))
    assert len(docs) == 15 and all(doc._.note_id for doc in docs)

    config = spacy.util.load_config_from_str(
        f"""
[paths]
train = "{output}"
[nlp]
lang = "en"
pipeline = ["ner"]
[components]
[components.ner]
factory = "ner"
[corpora]
[corpora.train]
@readers = "spacy-deid.I2b2Corpus.v1"
path = ${{paths.train}}
limit = 3
""",
        interpolate=True,
    )
    corpora = spacy.util.registry.resolve(config["corpora"])
    nlp = spacy.util.load_model_from_config(config, auto_fill=True)
    examples = list(corpora["train"](nlp))
    assert len(examples) == 3
    assert all(eg.reference.ents for eg in examples)
    assert examples[0].reference.text == docs[0].text
    nlp.initialize(lambda: examples)
    assert set(nlp.get_pipe("ner").labels) <= set(__import__("spacy_deid").labels.SUBTYPES)


def test_reader_reads_xml_folders_directly(dev_corpus_dir):
    from spacy_deid.corpus.reader import create_i2b2_corpus_reader

    nlp = spacy.blank("en")
    reader = create_i2b2_corpus_reader(dev_corpus_dir, limit=2)
    with pytest.warns(UserWarning, match="inside a token"):
        examples = list(reader(nlp))
    assert len(examples) == 2 and all(eg.reference.ents for eg in examples)


def test_reader_without_path_explains(tmp_path):
    from spacy_deid.corpus.reader import create_i2b2_corpus_reader

    with pytest.raises(ValueError, match="path is not set"):
        create_i2b2_corpus_reader(None)


def test_convert_cli_reports_bad_input_without_text(tmp_path):
    bad = tmp_path / "in"
    bad.mkdir()
    (bad / "9-1.xml").write_text(
        '<deIdi2b2><TEXT><![CDATA[Secret Name]]></TEXT><TAGS>'
        '<NAME id="P0" start="0" end="99" text="Secret Name" TYPE="PATIENT" /></TAGS></deIdi2b2>'
    )
    runner = CliRunner()
    result = runner.invoke(app, ["convert", str(bad), str(tmp_path / "out.spacy")])
    assert result.exit_code == 1
    assert "9-1.xml: tag P0" in result.output and "Secret" not in result.output
    result = runner.invoke(app, ["convert", str(bad), str(tmp_path / "out.spacy"), "--lenient"])
    assert result.exit_code == 0, result.output
    assert "offsets-out-of-range x1" in result.output and "Secret" not in result.output
