"""Per-token features stored once per Doc (spacy_deid/extensions.py): the
`Token._.<feature>` getters and setters over that store, its round trips, and
the hashed ids the NER's feature layers see (which must not change, so that
pipelines trained before the store still predict the same)."""
import numpy
import pytest
import spacy
from spacy.strings import hash_string
from spacy.tokens import Doc, DocBin
from thinc.api import NumpyOps

from spacy_deid.extensions import (
    TOKEN_FEATURES,
    TOKEN_FEATURES_STORE,
    install_extensions,
    set_token_feature_values,
    token_feature_values,
)
from spacy_deid.ml.tok2vec import extension_ids

install_extensions()

SMALL = {"FIRST": ["Maria"], "LAST": ["Okafor"], "CITY": ["Cedar Hollow"], "JOB": ["nurse"]}
TEXT = "History of Present Illness:\nMaria Okafor, a nurse from Cedar Hollow.\nMRN: 1234567\n"
FEATURES = ["section_name", "attribute_name", "lexicon", "word_frequency"]


@pytest.fixture(scope="module")
def nlp():
    nlp = spacy.blank("en")
    nlp.add_pipe("deid_sections")
    nlp.add_pipe("deid_lexicon")
    nlp.initialize()
    frequencies = {"a": 7, "from": 6}
    nlp.get_pipe("deid_lexicon").initialize(nlp=nlp, lexicons=SMALL, frequencies=frequencies)
    return nlp


def _features(doc, names=FEATURES):
    return [tuple(token._.get(name) for name in names) for token in doc]


def _legacy_ids(doc, names):
    """The hashed ids as the feature layers computed them before the store: per token."""
    ids = numpy.zeros((len(doc), len(names)), dtype="uint64")
    for row, token in enumerate(doc):
        for column, name in enumerate(names):
            value = token._.get(name)
            if value:
                ids[row, column] = hash_string(str(value))
    return ids


@pytest.mark.parametrize(
    "word,name,expected",
    [
        ("Maria", "lexicon", "FIRST"),
        ("Hollow", "lexicon", "CITY"),
        ("nurse", "lexicon", "JOB"),
        ("a", "word_frequency", "7"),
        ("from", "word_frequency", "6"),
        ("Maria", "section_name", "history_of_present_illness"),
        ("1234567", "attribute_name", "mrn"),
        # negatives: defaults where nothing applies
        ("a", "lexicon", None),
        ("Okafor", "word_frequency", ""),
        ("Maria", "attribute_name", None),
        ("History", "section_name", "history_of_present_illness"),
        ("MRN", "attribute_name", None),
    ],
)
def test_getters_read_the_store(nlp, word, name, expected):
    doc = nlp(TEXT)
    token = next(t for t in doc if t.text == word)
    assert token._.get(name) == expected
    assert getattr(token._, name) == expected


def test_one_store_per_doc_not_one_entry_per_token(nlp):
    doc = nlp(TEXT)
    keys = [key for key in doc.user_data if isinstance(key, tuple) and key[1] in TOKEN_FEATURES]
    assert keys == []
    stores = [key for key in doc.user_data if key[1] == TOKEN_FEATURES_STORE]
    assert len(stores) == 1
    assert list(token_feature_values(doc, "lexicon")) == [t._.lexicon for t in doc]


@pytest.mark.parametrize("name,default", sorted(TOKEN_FEATURES.items()))
def test_unset_features_give_their_default(name, default):
    doc = spacy.blank("en")("a plain note")
    assert [token._.get(name) for token in doc] == [default] * 3
    assert list(token_feature_values(doc, name)) == [default] * 3


@pytest.mark.parametrize("name,value", [("lexicon", "LAST"), ("word_frequency", "5"),
                                        ("section_name", "plan"), ("attribute_name", "mrn"),
                                        ("ontonotes", "PERSON")])
def test_setters_write_one_token(nlp, name, value):
    doc = nlp(TEXT)
    before = [token._.get(name) for token in doc]
    doc[3]._.set(name, value)
    after = [token._.get(name) for token in doc]
    assert after[3] == value
    assert after[:3] + after[4:] == before[:3] + before[4:]
    # on a Doc no component touched
    blank = spacy.blank("en")("one two three")
    setattr(blank[1]._, name, value)
    assert [t._.get(name) for t in blank] == [TOKEN_FEATURES[name], value, TOKEN_FEATURES[name]]


@pytest.mark.parametrize("values,error", [(["A"], ValueError), (["A", "B", "C", "D"], ValueError)])
def test_a_column_must_have_one_value_per_token(values, error):
    doc = spacy.blank("en")("one two three")
    with pytest.raises(error):
        set_token_feature_values(doc, "lexicon", values)
    set_token_feature_values(doc, "lexicon", ["A", None, "B"])
    assert [t._.lexicon for t in doc] == ["A", None, "B"]


def test_unknown_feature_is_refused():
    doc = spacy.blank("en")("one two")
    with pytest.raises(KeyError, match="unknown token feature"):
        set_token_feature_values(doc, "not_a_feature", [1, 2])


def test_round_trip_through_doc_bytes_and_docbin(nlp):
    doc = nlp(TEXT)
    expected = _features(doc)
    again = Doc(nlp.vocab).from_bytes(doc.to_bytes())
    assert _features(again) == expected
    docbin = DocBin(store_user_data=True)
    docbin.add(doc)
    (from_bin,) = DocBin().from_bytes(docbin.to_bytes()).get_docs(nlp.vocab)
    assert _features(from_bin) == expected
    assert list(token_feature_values(from_bin, "lexicon")) == [e[2] for e in expected]
    from_bin[0]._.lexicon = "JOB"  # columns read back as tuples stay writable
    assert from_bin[0]._.lexicon == "JOB"
    assert _features(doc.copy()) == expected


def test_round_trip_through_disk_and_spacy_load(nlp, tmp_path):
    nlp.to_disk(tmp_path / "model")
    loaded = spacy.load(tmp_path / "model")
    assert _features(loaded(TEXT)) == _features(nlp(TEXT))


def test_docs_saved_with_per_token_entries_still_read():
    """Docs written before the store held one user_data entry per token."""
    doc = spacy.blank("en")("Maria saw a nurse")
    for token, value in zip(doc, ["FIRST", None, None, "JOB"]):
        doc.user_data[("._.", "lexicon", token.idx, None)] = value
    again = Doc(doc.vocab).from_bytes(doc.to_bytes())
    assert [t._.lexicon for t in again] == ["FIRST", None, None, "JOB"]
    assert list(token_feature_values(again, "lexicon")) == ["FIRST", None, None, "JOB"]
    assert [t._.word_frequency for t in again] == ["", "", "", ""]  # never set: the default
    set_token_feature_values(again, "word_frequency", ["", "5", "7", "4"])
    assert [t._.lexicon for t in again] == ["FIRST", None, None, "JOB"]


def test_docs_joined_by_from_docs_keep_their_features(nlp):
    first, second = nlp(TEXT), nlp("Maria Okafor is a nurse.")
    joined = Doc.from_docs([first, second])
    expected = _features(first) + _features(second)
    assert _features(joined) == expected
    assert list(token_feature_values(joined, "lexicon")) == [e[2] for e in expected]
    joined[-2]._.lexicon = "CITY"  # writing rebuilds one store for the joined Doc
    assert _features(joined)[:-2] == expected[:-2]
    assert joined[-2]._.lexicon == "CITY"


@pytest.mark.parametrize("start,end", [(0, 4), (5, 12), (12, 13)])
def test_span_as_doc_with_user_data_keeps_features(nlp, start, end):
    doc = nlp(TEXT)
    sub = doc[start:end].as_doc(copy_user_data=True)
    assert _features(sub) == _features(doc)[start:end]
    bare = doc[start:end].as_doc()  # without user data: the defaults, as before the store
    assert _features(bare) == [tuple(TOKEN_FEATURES[n] for n in FEATURES)] * (end - start)


def test_retokenized_docs_keep_the_values_of_unchanged_tokens(nlp):
    doc = nlp(TEXT)
    before = {t.idx: t._.lexicon for t in doc}
    hollow = next(t for t in doc if t.text == "Cedar").i
    with doc.retokenize() as retokenizer:
        retokenizer.merge(doc[hollow: hollow + 2])
    assert [t._.lexicon for t in doc] == [before[t.idx] for t in doc]
    assert list(token_feature_values(doc, "lexicon")) == [before[t.idx] for t in doc]


@pytest.mark.parametrize(
    "names",
    [["lexicon", "word_frequency"], ["section_name", "attribute_name"], ["ontonotes", "lexicon"]],
)
def test_feature_ids_are_the_per_token_hashes(nlp, names):
    """The NER sees exactly the ids it was trained with (pipelines saved before the store)."""
    docs = [nlp(TEXT), spacy.blank("en")(""), spacy.blank("en")("no features here")]
    legacy = Doc(nlp.vocab).from_bytes(docs[0].to_bytes())
    del legacy.user_data[("._.", TOKEN_FEATURES_STORE, 0, None)]
    for token, values in zip(legacy, _features(docs[0], names)):
        for name, value in zip(names, values):
            legacy.user_data[("._.", name, token.idx, None)] = value
    docs.append(legacy)
    model = extension_ids(names)
    model.ops = NumpyOps()
    arrays, _ = model(docs, is_train=False)
    for doc, ids in zip(docs, arrays):
        assert ids.dtype == numpy.uint64
        assert numpy.array_equal(ids, _legacy_ids(doc, names))
    assert numpy.array_equal(arrays[0], arrays[-1])
    assert arrays[0].any()  # a test that can fail: the note has features
