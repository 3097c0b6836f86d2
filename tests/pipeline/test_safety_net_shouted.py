"""`shouted_tokens`: the all-capitals stretches of a Doc in one pass, as `shouted_at` finds them token by token."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from spacy.lang.en import English

from spacy_deid.corpus.i2b2_2014 import read_i2b2_2014
from spacy_deid.dev_notes import dev_note_files
from spacy_deid.pipeline.safety_net.tokens import shouted_at, shouted_tokens
from spacy_deid.synth import generate_notes

_NLP = English()


@pytest.mark.parametrize(
    "text,shouted",
    [
        ("PT SEEN BY DR QUENNELL TODAY", [True] * 6),
        ("Pt seen by Dr Quennell today", [False] * 6),
        ("PT SEEN by DR QUENNELL", [False] * 5),  # a lower-case word in the stretch
        ("A B PT", [False] * 3),  # one-letter words do not count: too few words
        ("", []),
    ],
)
def test_shouted_tokens_table(text, shouted):
    assert shouted_tokens(_NLP(text)) == shouted


def test_shouted_tokens_match_token_by_token_on_notes():
    texts = [read_i2b2_2014(path).text for path in dev_note_files()[:5]]
    texts += [note.text for note in generate_notes(20, seed=4, nursing=0.9)]
    found = 0
    for text in texts:
        doc = _NLP(text)
        flags = shouted_tokens(doc)
        assert flags == [shouted_at(doc, i) for i in range(len(doc))]
        found += sum(flags)
    assert found > 100  # the nursing-style notes have stretches in capitals


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["PT", "Pt", "A", "I", "RN", "aware", "SEEN", "12", "-", ".", "\n", "É", "ÉTÉ"]), max_size=20))
def test_shouted_tokens_match_token_by_token(words):
    doc = _NLP(" ".join(words))
    assert shouted_tokens(doc) == [shouted_at(doc, i) for i in range(len(doc))]
