"""`concatenate_docs` (spacy_deid/ml/tok2vec.py, the FeaturedTok2Vec
architectures): Thinc's `concatenate` for per-Doc arrays where one layer
gives an empty Doc a (0, 0) array, as spacy-transformers does; the same
values as `concatenate` otherwise, and the same node structure."""
import numpy
import pytest
import spacy
from thinc.api import Model, concatenate

from spacy_deid.ml.tok2vec import concatenate_docs

WIDTHS = {"narrow": 3, "wide": 5}


def per_doc(name, width, empty_is_zero_wide):
    """A layer giving each Doc a (tokens, width) array of its token indices;
    (0, 0) for an empty Doc when `empty_is_zero_wide`."""

    def forward(model, docs, is_train):
        arrays = [
            numpy.zeros((0, 0), dtype="f") if not len(doc) and empty_is_zero_wide
            else numpy.arange(len(doc) * width, dtype="f").reshape((len(doc), width))
            for doc in docs
        ]
        shapes = [a.shape for a in arrays]

        def backprop(d_arrays):
            assert [d.shape for d in d_arrays] == shapes  # the shapes this layer gave
            return []

        return arrays, backprop

    return Model(name, forward, dims={"nO": width})


@pytest.fixture(scope="module")
def nlp():
    return spacy.blank("en")


# (texts of a batch, whether the first layer gives empty Docs (0, 0))
BATCHES = [
    (["Seen today .", "Called back later ."], True),
    (["Seen today .", "", "Called back ."], True),
    (["", ""], True),
    (["Seen today .", "", "Called back ."], False),
]


@pytest.mark.parametrize("texts,zero_wide", BATCHES)
def test_every_doc_gets_the_full_width(nlp, texts, zero_wide):
    docs = [nlp(text) for text in texts]
    model = concatenate_docs(per_doc("narrow", 3, zero_wide), per_doc("wide", 5, False))
    arrays, backprop = model(docs, is_train=True)
    if any(len(doc) for doc in docs) or not zero_wide:
        assert [a.shape for a in arrays] == [(len(doc), 8) for doc in docs]
    backprop([numpy.ones(a.shape, dtype="f") for a in arrays])  # the layers check their shapes


@pytest.mark.parametrize("texts", [["Seen today .", "Called back later ."], ["One .", "Two words ."]])
def test_the_same_as_thincs_concatenate_without_empty_docs(nlp, texts):
    docs = [nlp(text) for text in texts]
    ours = concatenate_docs(per_doc("narrow", 3, True), per_doc("wide", 5, False))
    thincs = concatenate(per_doc("narrow", 3, True), per_doc("wide", 5, False))
    assert ours.name == thincs.name and len(list(ours.walk())) == len(list(thincs.walk()))
    for a, b in zip(ours.predict(docs), thincs.predict(docs)):
        assert numpy.array_equal(a, b)


def test_thincs_concatenate_fails_on_an_empty_doc(nlp):
    """What concatenate_docs is for: without it the whole batch fails."""
    docs = [nlp("Seen today ."), nlp("")]
    with pytest.raises(ValueError):
        concatenate(per_doc("narrow", 3, True), per_doc("wide", 5, False)).predict(docs)
