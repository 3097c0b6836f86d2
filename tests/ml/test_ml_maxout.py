"""spacy-deid.NumpyMatmul.v2 and spacy_deid/ml/maxout.py: Thinc's Maxout
layers predict without the winning piece's index, with the same outputs."""
import pickle

import numpy
import pytest
import spacy
from spacy.training import Example
from spacy.util import load_model_from_config
from thinc.api import Maxout, NumpyOps

from spacy_deid.ml.maxout import (
    inference_maxout_forward,
    thinc_maxout_forward,
    use_inference_maxout,
    use_thinc_maxout,
)
from tiny_configs import tiny_config

TEXT = "Seen by Dr. Hollis Brandt on 4/17/2094 at Larkspur Clinic in Dunmore."


def maxout_funcs(nlp):
    return [
        node._func
        for _, component in nlp.components
        if hasattr(getattr(component, "model", None), "walk")
        for node in component.model.walk()
        if node.name == "maxout"
    ]


def build(callback):
    config = tiny_config("cpu")
    config["nlp"]["after_pipeline_creation"] = callback
    nlp = load_model_from_config(config, auto_fill=True, validate=True)
    nlp.initialize()
    return nlp


# (rows, nO, nP, nI): pieces 2-4, no rows at all, one row
SHAPES = [(7, 5, 3, 4), (30, 16, 2, 8), (1, 3, 4, 6), (0, 4, 3, 5)]


@pytest.mark.parametrize("rows,nO,nP,nI", SHAPES)
def test_the_inference_forward_gives_thincs_values(rows, nO, nP, nI):
    layer = Maxout(nO=nO, nI=nI, nP=nP)
    layer.initialize()
    rng = numpy.random.default_rng(0)
    layer.set_param("b", rng.normal(size=(nO, nP)).astype("f"))
    X = rng.normal(size=(rows, nI)).astype("f")
    expected, _ = thinc_maxout_forward(layer, X, is_train=False)
    got, backprop = inference_maxout_forward(layer, X, is_train=False)
    assert got.shape == (rows, nO) and got.dtype == expected.dtype
    assert numpy.array_equal(got, expected)  # exactly: a maximum rounds nothing
    with pytest.raises(ValueError, match="no backward pass"):
        backprop(got)


def test_ties_give_the_tied_value():
    layer = Maxout(nO=2, nI=1, nP=3)
    layer.initialize()
    layer.set_param("W", numpy.ones((2, 3, 1), dtype="f"))
    layer.set_param("b", numpy.zeros((2, 3), dtype="f"))
    X = numpy.array([[2.0], [-1.0]], dtype="f")
    got, _ = inference_maxout_forward(layer, X, is_train=False)
    assert numpy.array_equal(got, thinc_maxout_forward(layer, X, is_train=False)[0])


def test_training_goes_through_thincs_forward():
    layer = Maxout(nO=3, nI=4, nP=2)
    layer.initialize()
    layer._func = inference_maxout_forward
    X = numpy.ones((5, 4), dtype="f")
    Y, backprop = layer.begin_update(X)
    assert backprop(numpy.ones_like(Y)).shape == X.shape  # Thinc's own backward


@pytest.mark.parametrize(
    "callback,swapped",
    [
        ({"@callbacks": "spacy-deid.NumpyMatmul.v2", "enabled": True, "inference_maxout": True}, True),
        ({"@callbacks": "spacy-deid.NumpyMatmul.v2", "enabled": True, "inference_maxout": False}, False),
        ({"@callbacks": "spacy-deid.NumpyMatmul.v1", "enabled": True}, False),
        (None, False),
    ],
)
def test_the_callback_swaps_every_maxout_node(callback, swapped):
    nlp = build(callback)
    funcs = maxout_funcs(nlp)
    assert funcs
    assert set(funcs) == {inference_maxout_forward if swapped else thinc_maxout_forward}


def test_same_entities_and_vectors_either_way_and_training_still_works():
    nlp = build(None)
    before = nlp(TEXT)
    assert use_inference_maxout(nlp) > 0
    after = nlp(TEXT)
    assert numpy.array_equal(before.tensor, after.tensor)
    assert [(e.start_char, e.label_) for e in after.ents] == [(e.start_char, e.label_) for e in before.ents]
    doc = nlp.make_doc(TEXT)
    losses = nlp.update([Example.from_dict(doc, {"entities": [(12, 25, "DOCTOR")]})], sgd=nlp.create_optimizer())
    assert losses["ner"] > 0
    assert use_thinc_maxout(nlp) == len(maxout_funcs(nlp))


def test_the_setting_survives_to_disk_spacy_load_and_pickle(tmp_path):
    nlp = build({"@callbacks": "spacy-deid.NumpyMatmul.v2", "enabled": True, "inference_maxout": True})
    nlp.to_disk(tmp_path / "pipeline")
    loaded = spacy.load(tmp_path / "pipeline")
    assert loaded.config["nlp"]["after_pipeline_creation"]["@callbacks"] == "spacy-deid.NumpyMatmul.v2"
    assert set(maxout_funcs(loaded)) == {inference_maxout_forward}
    assert {type(node.ops) for _, c in loaded.components if hasattr(getattr(c, "model", None), "walk") for node in c.model.walk()} == {NumpyOps}
    copy = pickle.loads(pickle.dumps(loaded))
    assert [(e.start_char, e.label_) for e in copy(TEXT).ents] == [(e.start_char, e.label_) for e in loaded(TEXT).ents]
