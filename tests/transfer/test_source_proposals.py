"""`deid_source_proposals` and `spacy-deid keep-source`: a fine-tuned pipeline that keeps
its source NER's proposals of the labels the site's corrections show it gets right."""
import pytest
import spacy
from spacy.language import Language
from spacy.pipeline import Pipe
from spacy.pipeline.tok2vec import Tok2VecListener
from spacy.tokens import Span
from spacy.util import load_model_from_config
from tiny_configs import tiny_config
from typer.testing import CliRunner

from spacy_deid.cli import app
from spacy_deid.corpus.i2b2_2014 import write_i2b2_2014
from spacy_deid.corpus.note import Note, PhiMention
from spacy_deid.pipeline.source_proposals import (
    add_source_proposals,
    added_entities,
    label_precision,
    trusted_labels,
)

TEXT = "Seen by Ann Lee at Oak on 3/4 ."


class WordNer(Pipe):
    """A stand-in NER: fixed words get fixed labels; it keeps no preset entity."""

    def __init__(self, nlp, name, words):
        self.name = name
        self.words = dict(words)

    def predict(self, docs):
        return [[(t.i, t.i + 1, self.words[t.text]) for t in doc if t.text in self.words] for doc in docs]

    def set_annotations(self, docs, found):
        for doc, spans in zip(docs, found):
            assert all(t.ent_iob_ == "" for t in doc), "the source NER must see no preset entity"
            doc.set_ents([Span(doc, s, e, label=lab) for s, e, lab in spans], default="outside")

    def __call__(self, doc):
        self.set_annotations([doc], self.predict([doc]))
        return doc


@Language.factory("test_word_ner", default_config={"words": {}})
def make_word_ner(nlp, name, words):
    return WordNer(nlp, name, words)


SOURCE_WORDS = {"Lee": "DOCTOR", "Oak": "HOSPITAL", "3/4": "DATE", "Ann": "PATIENT"}


def pipeline(labels, own=("Ann", "Lee")):
    nlp = spacy.blank("en")
    nlp.add_pipe("test_word_ner", name="ner", config={"words": {w: "PATIENT" for w in own}})
    nlp.add_pipe("test_word_ner", name="source_ner", config={"words": SOURCE_WORDS})
    nlp.disable_pipe("source_ner")
    nlp.add_pipe("deid_source_proposals", config={"labels": labels})
    return nlp


@pytest.mark.parametrize(
    "labels,own,expected,added",
    [
        # the source's DATE is added; its DOCTOR overlaps the pipeline's own PATIENT
        (["DATE", "DOCTOR"], ("Ann", "Lee"), [("Ann", "PATIENT"), ("Lee", "PATIENT"), ("3/4", "DATE")],
         ["3/4"]),
        # where the pipeline's NER found nothing, the source's DOCTOR is kept
        (["DATE", "DOCTOR"], ("Ann",), [("Ann", "PATIENT"), ("Lee", "DOCTOR"), ("3/4", "DATE")],
         ["Lee", "3/4"]),
        # a label not taken (HOSPITAL) is never added
        (["DATE"], ("Ann", "Lee"), [("Ann", "PATIENT"), ("Lee", "PATIENT"), ("3/4", "DATE")], ["3/4"]),
        # no labels: the Doc keeps the pipeline's own entities only
        ([], ("Ann", "Lee"), [("Ann", "PATIENT"), ("Lee", "PATIENT")], []),
        ([], (), [], []),
    ],
)
def test_source_entities_are_added_where_the_own_ner_found_none(labels, own, expected, added):
    doc = pipeline(labels, own)(TEXT)
    assert [(e.text, e.label_) for e in doc.ents] == expected
    assert [s.text for s in doc.spans["source_proposals"]] == added
    # tokens outside the entities are "O" again, not missing
    assert all(t.ent_iob_ in ("B", "I", "O") for t in doc)


def test_the_source_ner_is_named_in_the_error_when_missing():
    nlp = spacy.blank("en")
    nlp.add_pipe("deid_source_proposals", config={"labels": ["DATE"]})
    with pytest.raises(ValueError, match="source_ner"):
        nlp(TEXT)


@pytest.mark.parametrize(
    "own,theirs,labels,expected",
    [
        ([(0, 2, "PATIENT")], [(1, 2, "DOCTOR"), (3, 4, "DATE")], ["DOCTOR", "DATE"], [(3, 4, "DATE")]),
        ([], [(0, 2, "DOCTOR"), (1, 3, "DOCTOR")], ["DOCTOR"], [(0, 2, "DOCTOR")]),
        ([], [(0, 1, "HOSPITAL")], ["DATE"], []),
        ([(5, 6, "DATE")], [(4, 5, "DATE"), (6, 7, "DATE")], ["DATE"], [(4, 5, "DATE"), (6, 7, "DATE")]),
    ],
)
def test_added_entities(own, theirs, labels, expected):
    assert added_entities(own, theirs, labels) == expected


@pytest.mark.parametrize(
    "counts,min_precision,expected",
    [
        ({"DATE": (9, 10), "DOCTOR": (7, 10), "HOSPITAL": (1, 4)}, 0.8, ["DATE"]),
        ({"DATE": (9, 10), "DOCTOR": (7, 10), "HOSPITAL": (1, 4)}, 0.7, ["DATE", "DOCTOR"]),
        ({"DATE": (8, 10)}, 0.8, ["DATE"]),  # at the bar: taken
        ({"PHONE": (0, 0)}, 0.0, []),  # never proposed: no evidence, not taken
        ({}, 0.8, []),
    ],
)
def test_trusted_labels(counts, min_precision, expected):
    assert trusted_labels(counts, min_precision) == expected


@pytest.mark.parametrize("bad", [-0.1, 1.5])
def test_trusted_labels_refuses_a_share_outside_0_1(bad):
    with pytest.raises(ValueError, match="min_precision"):
        trusted_labels({"DATE": (1, 1)}, bad)


def test_label_precision_counts_phi_words_per_label():
    nlp = spacy.blank("en")
    nlp.add_pipe("test_word_ner", name="ner", config={"words": SOURCE_WORDS})
    # gold: Ann Lee (a patient) and 3/4; Oak is not PHI in this note
    note = Note("n1", TEXT, [PhiMention(8, 15, "PATIENT"), PhiMention(26, 29, "DATE")])
    counts = label_precision(nlp, [note, Note("n2", "Oak .", [])])
    assert counts == {"DATE": (1, 1), "DOCTOR": (1, 1), "HOSPITAL": (0, 2), "PATIENT": (1, 1)}


@pytest.fixture(scope="module")
def source(tmp_path_factory):
    """An untrained tiny pipeline of configs/cpu.cfg, saved."""
    config = tiny_config("cpu")
    config["nlp"]["after_pipeline_creation"] = None
    nlp = load_model_from_config(config, auto_fill=True, validate=True)
    nlp.initialize()
    path = tmp_path_factory.mktemp("source") / "source"
    nlp.to_disk(path)
    return path


def test_a_site_pipeline_with_its_source_saves_and_loads(tmp_path, source):
    """The source NER travels with its own tok2vec (its listener replaced), stays
    disabled, and the pipeline runs after spacy.load."""
    site = spacy.load(source)
    add_source_proposals(site, spacy.load(source), ["DATE"])
    add_source_proposals(site, spacy.load(source), ["DATE", "DOCTOR"])  # replaces, no duplicate
    site.to_disk(tmp_path / "site")
    loaded = spacy.load(tmp_path / "site")
    assert loaded.disabled == ["source_ner"]
    names = loaded.pipe_names
    assert names.index("deid_source_proposals") == names.index("ner") + 1
    assert loaded.get_pipe("deid_source_proposals").source_labels == ["DATE", "DOCTOR"]
    assert loaded.get_pipe("tok2vec").listening_components == ["ner"]
    assert not any(isinstance(n, Tok2VecListener) for n in loaded.get_pipe("source_ner").model.walk())
    assert any(isinstance(n, Tok2VecListener) for n in loaded.get_pipe("ner").model.walk())
    doc = loaded("Seen by Dr. Lee on 3/4 at Oak Hospital.")
    assert "source_proposals" in doc.spans


def test_keep_source_command(tmp_path, source):
    site = tmp_path / "site"
    spacy.load(source).to_disk(site)
    notes = tmp_path / "notes"
    notes.mkdir()
    write_i2b2_2014(Note("n1", TEXT, [PhiMention(8, 15, "PATIENT")]), notes / "n1.xml")
    runner = CliRunner()
    result = runner.invoke(app, ["keep-source", str(site), str(source), str(notes), "--label", "DATE"])
    assert result.exit_code == 0, result.output
    assert spacy.load(site).get_pipe("deid_source_proposals").source_labels == ["DATE"]
    # chosen from the notes: the untrained source proposes nothing, so no label is taken
    result = runner.invoke(app, ["keep-source", str(site), str(source), str(notes)])
    assert result.exit_code == 0, result.output
    assert spacy.load(site).get_pipe("deid_source_proposals").source_labels == []
    assert "Ann" not in result.output and "Lee" not in result.output
    empty = tmp_path / "empty"
    empty.mkdir()
    result = runner.invoke(app, ["keep-source", str(site), str(source), str(empty)])
    assert result.exit_code == 1 and "empty" in result.output
