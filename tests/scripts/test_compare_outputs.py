"""scripts/experiments/compare_outputs.py: the fingerprint of what a pipeline writes (entities,
span groups, scores, token features) survives a to_disk / spacy.load round trip,
and the diff finds a change."""
import json

import pytest
import spacy
from spacy.training import Example
from spacy.util import fix_random_seed

from spacy_deid import labels
from spacy_deid.extensions import PROVENANCE_KEY

import compare_outputs

TRAIN = [
    ("Seen by Dr. Lee on Monday.", [(12, 15, labels.DOCTOR)]),
    ("Patient Anna Smith came with Dr. Park.", [(8, 18, labels.PATIENT), (33, 37, labels.DOCTOR)]),
]
NOTES = [
    "Seen by Dr. Lee on 4/17/2094. Her son Brandolf Quixley visited.\nMRN: AB12345",
    "Patient: Anna Smith\nPhone: 617-555-0112\nWorks as a welder in Quorvale.",
]


@pytest.fixture(scope="module")
def trained():
    """All nine components but deid_ontonotes (it needs a pretrained NER), the NER
    trained a few steps on two sentences."""
    fix_random_seed(0)
    nlp = spacy.blank("en")
    nlp.add_pipe("deid_sections")
    nlp.add_pipe("deid_lexicon")
    nlp.add_pipe("tok2vec")
    nlp.add_pipe("ner", config={"model": {"tok2vec": {
        "@architectures": "spacy.Tok2VecListener.v1", "width": 96, "upstream": "*"}}})
    for name in ("deid_ner_scores", "deid_phi_rules", "deid_reconciler", "deid_safety_net",
                 "deid_confidence", "deid_release"):
        nlp.add_pipe(name)
    examples = [Example.from_dict(nlp.make_doc(t), {"entities": e}) for t, e in TRAIN]
    with nlp.select_pipes(disable=["deid_lexicon"]):
        nlp.initialize(lambda: examples)
    nlp.get_pipe("deid_lexicon").initialize(
        nlp=nlp, lexicons={"FIRST": ["Anna"], "JOB": ["welder"], "CITY": ["Quorvale"]},
        frequencies={"the": 7, "seen": 5},
    )
    optimizer = nlp.resume_training()
    for _ in range(5):
        nlp.update(examples, sgd=optimizer)
    return nlp


def fingerprint(nlp):
    docs = nlp.pipe(NOTES)
    notes = {str(i): compare_outputs.doc_fingerprint(doc) for i, doc in enumerate(docs)}
    return {"pipeline": nlp.pipe_names, "notes": notes}


def test_fingerprint_survives_to_disk_and_spacy_load(trained, tmp_path):
    before = fingerprint(trained)
    trained.to_disk(tmp_path / "pipeline")
    after = fingerprint(spacy.load(tmp_path / "pipeline"))
    result = compare_outputs.diff(before, after)
    assert result["identical"] and result["items_differing"] == 0
    assert result["notes_a"] == len(NOTES) and result["spans_a"] > 0
    assert PROVENANCE_KEY in result["span_groups_a"] and result["scores_a"] > 0
    json.dumps(before)  # JSON-ready
    assert "Quixley" not in json.dumps(before)  # offsets, never text


def test_diff_finds_a_changed_score_and_a_missing_note(trained, tmp_path):
    before = fingerprint(trained)
    trained.to_disk(tmp_path / "pipeline")
    changed = spacy.load(tmp_path / "pipeline")
    changed.get_pipe("deid_confidence").initialize(
        calibration={"classes": {"ner": {"x": [0.0, 1.0], "y": [0.0, 0.01]}}})
    after = fingerprint(changed)
    result = compare_outputs.diff(before, after)
    assert not result["identical"] and result["items_differing"] > 0
    del after["notes"]["1"]
    assert compare_outputs.diff(before, after)["notes_only_in_one"] == 1


@pytest.mark.parametrize(
    "value,expected",
    [
        (0.12345678, 0.123457),
        ([0.1234567, 2], [0.123457, 2]),
        ({"b": 1.0, "a": [0.5]}, {"a": [0.5], "b": 1.0}),
    ],
)
def test_group_attrs_are_rounded(value, expected):
    assert compare_outputs._rounded(value) == expected
