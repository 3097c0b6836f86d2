"""deid_lexicon: dictionary features for the NER, and the lexicon embedding."""
import numpy
import pytest
import spacy
from thinc.api import NumpyOps

from spacy_deid.data_files import NoDataWarning
from spacy_deid.ml.tok2vec import create_lexicon_embed, feature_dropout
from spacy_deid.pipeline.lexicon import (
    ABBREVIATION, CATEGORIES, CLINICAL, DRUG, OCCUPATION, load_lexicons, load_lexicons_v2,
    load_lexicons_v3,
)

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
    assert set(load_lexicons_v3()) == set(CATEGORIES)
    clinical = {DRUG, ABBREVIATION, CLINICAL}
    assert set(load_lexicons_v2()) == set(CATEGORIES) - clinical  # v2 and v1 stay as published
    assert set(load_lexicons()) == set(CATEGORIES) - clinical - {OCCUPATION}


def lexicon_nlp(version: str):
    """A blank pipeline whose deid_lexicon has the registered `spacy-deid.Lexicons.<version>`
    (looked up as a config would name it, so the v2 and v3 fixtures differ only there)."""
    nlp = spacy.blank("en")
    lexicons = spacy.util.registry.misc.get(f"spacy-deid.Lexicons.{version}")()
    nlp.add_pipe("deid_lexicon").initialize(nlp=nlp, lexicons=lexicons)
    return nlp


@pytest.fixture(scope="module")
def nlp_v2():
    return lexicon_nlp("v2")


@pytest.mark.parametrize(
    "text,word,occupation",
    [
        ("works as a nurse at night", "nurse", True),
        ("both parents are teachers", "teachers", True),
        ("laid off as a mechanic", "mechanic", True),
        ("former cook and cashier", "cashier", True),
        ("sister is a paralegal", "paralegal", True),
        # people who are no occupation, and things that head job titles
        ("the patient denies SI", "patient", False),
        ("lives with her mother", "mother", False),
        ("a boy at school", "boy", False),
        ("medical equipment at home", "equipment", False),
        ("called the police", "police", False),
    ],
)
def test_one_word_occupations(nlp_v2, nlp, text, word, occupation):
    token = next(t for t in nlp_v2(text) if t.text == word)
    assert (OCCUPATION in (token._.lexicon or "").split("|")) is occupation
    # Lexicons.v1 (the published lists) has no such category
    assert OCCUPATION not in (next(t for t in nlp(text) if t.text == word)._.lexicon or "")


def test_clinical_lexicons_are_deterministic():
    assert load_lexicons_v3() == load_lexicons_v3()
    assert all(values == sorted(values) for key, values in load_lexicons_v3().items()
               if key in (DRUG, ABBREVIATION, CLINICAL))


@pytest.fixture(scope="module")
def nlp_v3():
    return lexicon_nlp("v3")


@pytest.mark.parametrize(
    "text,word,category,tagged",
    [
        ("heparin gtt at 900 units/hr", "heparin", DRUG, True),
        ("started on levophed overnight", "levophed", DRUG, True),
        ("neuro: perrla, follows commands", "perrla", ABBREVIATION, True),
        ("foley draining clear yellow urine", "foley", CLINICAL, True),
        # names, places and plain words are no clinical vocabulary
        ("wife Rosalind visited", "Rosalind", DRUG, False),
        ("moved here from Tulsa", "Tulsa", ABBREVIATION, False),
        ("slept well overnight", "slept", CLINICAL, False),
    ],
)
def test_clinical_categories(nlp_v3, nlp_v2, text, word, category, tagged):
    token = next(t for t in nlp_v3(text) if t.text == word)
    assert (category in (token._.lexicon or "").split("|")) is tagged
    # Lexicons.v2 (published) has no clinical categories
    assert category not in (next(t for t in nlp_v2(text) if t.text == word)._.lexicon or "")


def test_config_selects_the_lexicons(tmp_path):
    config = spacy.util.load_config_from_str(
        """
[nlp]
lang = "en"
pipeline = ["deid_lexicon"]
[components]
[components.deid_lexicon]
factory = "deid_lexicon"
[initialize]
[initialize.components]
[initialize.components.deid_lexicon]
[initialize.components.deid_lexicon.lexicons]
@misc = "spacy-deid.Lexicons.v2"
"""
    )
    nlp = spacy.util.load_model_from_config(config, auto_fill=True)
    nlp.initialize()
    nlp.to_disk(tmp_path / "model")
    doc = spacy.load(tmp_path / "model")("an unemployed nurse")
    assert OCCUPATION in doc[2]._.lexicon.split("|")


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
