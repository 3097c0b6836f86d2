"""deid_lexicon: dictionary features for the NER, and the lexicon embedding."""
import numpy
import pytest
import spacy
from thinc.api import NumpyOps

from spacy_deid.data_files import NoDataWarning
from spacy_deid.ml.tok2vec import create_lexicon_embed, feature_dropout
from spacy_deid.pipeline.lexicon import CATEGORIES, load_lexicons

SMALL = {"FIRST": ["Maria", "Jean-Luc"], "LAST": ["Okafor", "Lindgren"],
         "CITY": ["Cedar Hollow", "Saint-Louis"], "JOB": ["guidance counselor", "nurse"]}


@pytest.fixture(scope="module")
def nlp():
    nlp = spacy.blank("en")
    nlp.add_pipe("deid_lexicon")
    nlp.initialize()
    return nlp


@pytest.fixture
def small_nlp():
    nlp = spacy.blank("en")
    nlp.add_pipe("deid_lexicon").initialize(nlp=nlp, lexicons=SMALL, frequencies={"the": 7})
    return nlp


@pytest.mark.parametrize(
    "text,word,expected",
    [
        ("Seen with Maria today", "Maria", "FIRST"),
        ("Dr. Okafor - Lindgren called", "Lindgren", "LAST"),
        ("moved to Cedar Hollow last year", "Hollow", "CITY"),
        ("born in Saint-Louis", "Louis", "CITY"),
        ("her guidance counselor said", "counselor", "JOB"),
        ("JEAN-LUC came in", "LUC", "FIRST"),
        # negatives: a part of a phrase alone, and words in no list
        ("a hollow sound", "hollow", None),
        ("the counselor said", "counselor", None),
        ("denies suicidal ideation", "suicidal", None),
    ],
)
def test_tokens_get_the_categories_of_their_phrases(small_nlp, text, word, expected):
    doc = small_nlp(text)
    token = next(t for t in doc if t.text == word)
    assert token._.lexicon == expected


def test_word_frequency_is_a_zipf_bucket(small_nlp):
    doc = small_nlp("the Okafor")
    assert [t._.word_frequency for t in doc] == ["7", ""]


@pytest.mark.parametrize(
    "word,category",
    [("Smith", "LAST"), ("Patricia", "FIRST"), ("Worcester", "CITY"), ("Canada", "COUNTRY"),
     ("Ohio", "STATE"), ("Hospital", "INSTITUTION"), ("pharmacist", "JOB")],
)
def test_package_lexicons(nlp, word, category):
    doc = nlp(f"x {word} x")
    assert category in (doc[1]._.lexicon or "").split("|")


def test_common_words_are_known(nlp):
    doc = nlp("the patient denies Okonkwo")
    assert doc[0]._.word_frequency == "7"
    assert doc[3]._.word_frequency == ""


def test_package_lexicons_cover_every_category():
    assert set(load_lexicons()) == set(CATEGORIES)


def test_round_trip_through_disk(small_nlp, tmp_path):
    small_nlp.to_disk(tmp_path / "model")
    loaded = spacy.load(tmp_path / "model")
    text = "Maria Okafor-Lindgren, guidance counselor in Cedar Hollow, the end"
    assert [(t._.lexicon, t._.word_frequency) for t in loaded(text)] == [
        (t._.lexicon, t._.word_frequency) for t in small_nlp(text)
    ]
    assert (tmp_path / "model" / "deid_lexicon" / "lexicons.jsonl").exists()


def test_no_lexicons_is_a_clear_warning():
    nlp = spacy.blank("en")
    nlp.add_pipe("deid_lexicon")
    with pytest.warns(NoDataWarning, match="deid_lexicon"):
        doc = nlp("Maria Okafor")
    assert [t._.lexicon for t in doc] == [None, None]


def test_unknown_category_is_refused():
    nlp = spacy.blank("en")
    with pytest.raises(ValueError, match="unknown lexicon categories"):
        nlp.add_pipe("deid_lexicon").initialize(nlp=nlp, lexicons={"PETS": ["Rex"]}, frequencies={})


def test_feature_dropout_zeroes_whole_rows_in_training_only():
    layer = feature_dropout(0.5)
    layer.ops = NumpyOps()
    ids = numpy.ones((2000, 2), dtype="uint64")
    assert (layer.predict([ids])[0] == ids).all()
    dropped, _ = layer.begin_update([ids])
    rows = dropped[0]
    assert ((rows == 0).all(axis=1) | (rows == 1).all(axis=1)).all()
    assert 0.4 < (rows[:, 0] == 0).mean() < 0.6


def test_lexicon_embed_width(small_nlp):
    model = create_lexicon_embed(width=8, rows=50)
    docs = [small_nlp("Maria Okafor is a nurse")]
    model.initialize(X=docs)
    (vectors,) = model.predict(docs)
    assert vectors.shape == (5, 16)
