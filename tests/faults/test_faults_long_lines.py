"""A line with no break (a one-line note, a pasted base64 blob) is decoded by
`deid_ner_scores` in windows of at most `max_segment_tokens` tokens, so the
beam's time stays linear in the note's length (issue 61 item 5; the times are
in scripts/bench/benchmark_long_note.py --text blob, not in a test)."""
import base64
import random

import pytest
import spacy
from spacy.tokens import Span
from spacy.training import Example
from spacy.util import fix_random_seed

from spacy_deid.pipeline.ner_scores import bounded_segments
from spacy_deid.tokenizer import blank_deid

TRAIN = [
    ("Seen by Dr. Lee on Monday.", [(12, 15, "DOCTOR")]),
    ("Patient Anna Smith came with Dr. Park.", [(8, 18, "PATIENT"), (33, 37, "DOCTOR")]),
    ("Call Anna Smith today.", [(5, 15, "PATIENT")]),
]

# (text, greedy entity token ranges, max_tokens, expected segments)
SEGMENTS = [
    # a cut before the last token that follows punctuation in the window's second half
    ("a b , c d e f g h , i j k l m", [], 6, [(0, 6), (6, 10), (10, 15)]),
    ("a b c , d e f g", [], 4, [(0, 4), (4, 8)]),
    # never before a token that continues an entity
    ("a b c , d e f g", [(3, 5)], 4, [(0, 3), (3, 7), (7, 8)]),
    # short enough: untouched
    ("a b c", [], 4, [(0, 3)]),
    ("a b c d", [], 4, [(0, 4)]),
    # one entity longer than the window: cut at the limit
    ("a b c d e f", [(0, 6)], 4, [(0, 4), (4, 6)]),
]


@pytest.mark.faults
@pytest.mark.parametrize("text,entities,max_tokens,expected", SEGMENTS)
def test_bounded_segments(text, entities, max_tokens, expected):
    doc = spacy.blank("en")(text)
    doc.ents = [Span(doc, start, end, label="X") for start, end in entities]
    segments = bounded_segments(doc, [(0, len(doc))], max_tokens)
    assert segments == expected
    assert all(end - start <= max_tokens for start, end in segments)
    continued = {i for start, end in entities for i in range(start + 1, end)}
    assert not any(start in continued for start, _ in segments[1:]) or entities == [(0, 6)]


@pytest.mark.faults
@pytest.mark.parametrize("value", [-1, 1])
def test_max_segment_tokens_is_validated(value):
    with pytest.raises(ValueError):
        spacy.blank("en").add_pipe("deid_ner_scores", config={"max_segment_tokens": value})


@pytest.fixture(scope="module")
def nlp():
    """A tiny trained tok2vec + NER (listening to the tok2vec) + deid_ner_scores."""
    fix_random_seed(0)
    nlp = blank_deid()  # the package's tokenizer: a base64 blob is many tokens
    nlp.add_pipe("tok2vec")
    listener = {"@architectures": "spacy.Tok2VecListener.v1", "width": 96, "upstream": "*"}
    nlp.add_pipe("ner", config={"model": {"tok2vec": listener}})
    nlp.add_pipe("deid_ner_scores", config={"scope": "focus"})
    examples = [Example.from_dict(nlp.make_doc(t), {"entities": e}) for t, e in TRAIN]
    nlp.initialize(lambda: examples)
    optimizer = nlp.resume_training()
    for _ in range(15):
        nlp.update(examples, sgd=optimizer)
    return nlp


def blob(chars: int) -> str:
    rng = random.Random(7)
    return base64.b64encode(bytes(rng.getrandbits(8) for _ in range(chars))).decode("ascii")[:chars]


@pytest.mark.faults
@pytest.mark.parametrize("scope", ["lines", "focus"])
def test_a_whitespace_free_line_is_decoded_in_bounded_windows(nlp, scope):
    pipe = nlp.get_pipe("deid_ner_scores")
    before = pipe.scope, pipe.max_segment_tokens
    text = "Seen by Dr. Lee on Monday. " + blob(3000) + " Call Anna Smith."
    try:
        pipe.scope, pipe.max_segment_tokens = scope, 100
        with nlp.select_pipes(enable=["tok2vec", "ner"]):
            doc = nlp(text)
        segments = pipe.segments(doc)
        assert len(doc) > 300 and max(end - start for start, end in segments) <= 100
        pipe.max_segment_tokens = 0  # no cap: the line (or its one focus window) whole
        assert max(end - start for start, end in pipe.segments(doc)) > 100
        pipe.max_segment_tokens = 100
        doc = pipe(doc)
        group = doc.spans["ner_candidates"]
        assert all(0.0 < score <= 1.0 for score in group.attrs["scores"])
    finally:
        pipe.scope, pipe.max_segment_tokens = before


@pytest.mark.faults
def test_lines_under_the_cap_decode_as_before(nlp):
    pipe = nlp.get_pipe("deid_ner_scores")
    before = pipe.scope, pipe.max_segment_tokens
    text = "Seen by Dr. Lee on Monday.\nPatient Anna Smith came with Dr. Park.\n" * 5
    try:
        pipe.scope = "focus"
        with nlp.select_pipes(enable=["tok2vec", "ner"]):
            doc = nlp(text)
        results = []
        for cap in (0, 1000):
            pipe.max_segment_tokens = cap
            scored = pipe(doc.copy())
            group = scored.spans["ner_candidates"]
            scores = group.attrs["scores"]
            results.append([(s.start, s.end, s.label_, v) for s, v in zip(group, scores)])
        assert results[0] == results[1] and results[0]
    finally:
        pipe.scope, pipe.max_segment_tokens = before
