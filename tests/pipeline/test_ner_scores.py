"""deid_ner_scores: the beam's scope (whole Doc, lines, focus windows), its helpers, its
fallback for NERs that do not read doc.tensor, and the setting's round trip."""

import numpy
import pytest
import spacy
from spacy.tokens import Span
from spacy.training import Example

from spacy_deid import labels
from spacy_deid.pipeline.ner_scores import (
    SCOPES,
    focus_windows,
    line_ranges,
    possible_phi_tokens,
    reads_doc_tensor,
)
from test_confidence import NOTE, TRAIN, build_pipeline

ONE_LINE = "Seen by Dr. Lee on Monday. Patient Anna Smith came with Dr. Park."
MULTI_LINE = "Seen by Dr. Lee on Monday.\n\nPatient Anna Smith came with Dr. Park.\nNo change.\n"


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    path = tmp_path_factory.mktemp("ner_scores") / "tiny"
    build_pipeline().to_disk(path)
    return path


@pytest.fixture(scope="module")
def nlp(saved):
    return spacy.load(saved)


def candidates(nlp, text, **settings):
    """{(start, end, label): score} of deid_ner_scores with these settings."""
    pipe = nlp.get_pipe("deid_ner_scores")
    before = {key: getattr(pipe, key) for key in settings}
    try:
        for key, value in settings.items():
            setattr(pipe, key, value)
        wanted = [name for name in ("tok2vec", "ner", "deid_ner_scores") if name in nlp.pipe_names]
        with nlp.select_pipes(enable=wanted):
            doc = nlp(text)
    finally:
        for key, value in before.items():
            setattr(pipe, key, value)
    group = doc.spans["ner_candidates"]
    return doc, dict(zip([(s.start, s.end, s.label_) for s in group], group.attrs["scores"]))


# --- helpers --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "possible,margin,windows",
    [
        ([0, 0, 0, 0], 2, []),
        ([1, 0, 0, 0, 0, 0, 0, 1], 0, [(0, 1), (7, 8)]),
        ([1, 0, 0, 0, 0, 0, 0, 1], 2, [(0, 3), (5, 8)]),
        ([1, 0, 0, 0, 0, 0, 0, 1], 3, [(0, 8)]),  # the gaps meet: one window
        ([0, 0, 0, 1, 0, 0, 0], 1, [(2, 5)]),
        ([0, 1, 0], 5, [(0, 3)]),  # a margin wider than the line
        ([1, 1, 1], 0, [(0, 3)]),
    ],
)
def test_focus_windows(possible, margin, windows):
    assert focus_windows(numpy.array(possible, dtype=bool), margin) == windows
    shifted = [(a + 10, b + 10) for a, b in windows]
    assert focus_windows(numpy.array(possible, dtype=bool), margin, offset=10) == shifted


@pytest.mark.parametrize(
    "text,entity,lines",
    [
        ("one two\nthree four", None, [(0, 2), (3, 5)]),
        ("one two\n\nthree\n", None, [(0, 2), (3, 4)]),
        ("\none two", None, [(1, 3)]),
        ("one two", None, [(0, 2)]),
        # An entity across a newline is never cut.
        ("at Boston\nMA today", (1, 4), [(0, 5)]),
    ],
)
def test_line_ranges(text, entity, lines):
    doc = spacy.blank("en")(text)
    if entity is not None:
        doc.ents = [Span(doc, entity[0], entity[1], label=labels.CITY)]
    assert line_ranges(doc) == lines


def test_possible_phi_tokens():
    doc = spacy.blank("en")("the teacher met Anna on 4/17 , the patient")
    # deid_lexicon's annotations, set by hand: common words have a Zipf band.
    for token in doc:
        token._.word_frequency = "" if token.text in ("Anna",) else "5"
    doc[1]._.lexicon = "JOB"
    possible = [bool(p) for p in possible_phi_tokens(doc)]
    #          the    teacher met    Anna  on     4/17  ,      the    patient
    assert possible == [False, True, False, True, False, True, False, False, False]
    doc.ents = [Span(doc, 7, 9, label=labels.PATIENT)]  # a greedy entity counts
    assert list(possible_phi_tokens(doc)[7:9]) == [True, True]


# --- the component -----------------------------------------------------------------


def test_scopes_are_validated():
    for scope in SCOPES:
        spacy.blank("en").add_pipe("deid_ner_scores", config={"scope": scope})
    with pytest.raises(ValueError, match="scope"):
        spacy.blank("en").add_pipe("deid_ner_scores", config={"scope": "sentences"})
    with pytest.raises(ValueError, match="focus_margin"):
        spacy.blank("en").add_pipe("deid_ner_scores", config={"focus_margin": -1})


def test_factory_default_is_the_whole_doc():
    # Saved pipelines without the setting keep decoding (and their calibration) as before.
    assert spacy.blank("en").add_pipe("deid_ner_scores").scope == "doc"


def test_one_line_decodes_as_the_whole_doc(nlp):
    # One line and no entity across it: the sub-Doc is the Doc with its tensor,
    # so the beam must give exactly the same candidates and probabilities.
    _, whole = candidates(nlp, ONE_LINE, scope="doc")
    _, lines = candidates(nlp, ONE_LINE, scope="lines")
    assert whole and lines.keys() == whole.keys()
    for key in whole:
        assert lines[key] == pytest.approx(whole[key], abs=1e-5)


@pytest.mark.parametrize("scope", ["lines", "focus"])
def test_line_scopes_keep_the_contract(nlp, scope):
    doc, scores = candidates(nlp, MULTI_LINE + NOTE, scope=scope)
    newline_tokens = {t.i for t in doc if t.is_space and "\n" in t.text}
    assert all(0.0 < v <= 1.0 for v in scores.values())
    # Offsets are the Doc's: candidates never sit on or cross a newline token.
    assert not any(set(range(start, end)) & newline_tokens for start, end, _ in scores)
    for ent in doc.ents:  # every greedy entity is proposed, and likely
        assert scores.get((ent.start, ent.end, ent.label_), 0.0) > 0.3


def test_min_score_filters(nlp):
    _, low = candidates(nlp, MULTI_LINE, scope="lines", min_score=0.001)
    _, high = candidates(nlp, MULTI_LINE, scope="lines", min_score=0.5)
    assert set(high) <= set(low)
    assert all(value >= 0.5 for value in high.values())
    assert {k for k, v in low.items() if v >= 0.5} == set(high)


def test_ner_that_does_not_read_the_tensor_decodes_whole_docs():
    # An NER with its own tok2vec recomputes vectors: slicing would lose context,
    # so the line scopes fall back to the whole Doc.
    nlp = spacy.blank("en")
    nlp.add_pipe("ner")
    nlp.add_pipe("deid_ner_scores", config={"scope": "lines"})
    examples = [Example.from_dict(nlp.make_doc(t), {"entities": e}) for t, e in TRAIN]
    nlp.initialize(lambda: examples)
    optimizer = nlp.resume_training()
    for _ in range(10):
        nlp.update(examples, sgd=optimizer)
    assert not reads_doc_tensor(nlp.get_pipe("ner"))
    _, lines = candidates(nlp, MULTI_LINE)
    _, whole = candidates(nlp, MULTI_LINE, scope="doc")
    assert lines and lines == whole


def test_scope_round_trip(tmp_path, nlp, saved):
    assert reads_doc_tensor(nlp.get_pipe("ner"))
    changed = spacy.load(
        saved,
        config={"components": {"deid_ner_scores": {"scope": "focus", "focus_margin": 1}}},
    )
    changed.to_disk(tmp_path / "focus")
    again = spacy.load(tmp_path / "focus")
    pipe = again.get_pipe("deid_ner_scores")
    assert (pipe.scope, pipe.focus_margin) == ("focus", 1)
    assert again.config["components"]["deid_ner_scores"]["scope"] == "focus"
    text = MULTI_LINE + NOTE
    assert candidates(again, text)[1] == candidates(changed, text)[1]
