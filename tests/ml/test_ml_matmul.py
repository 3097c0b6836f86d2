"""spacy-deid.NumpyMatmul.v1, v2 and v3 (the configs' callback): numpy's BLAS for the pipeline's matrix products."""
import multiprocessing

import numpy
import pytest
import spacy
from spacy.util import load_model_from_config
from thinc.api import NumpyOps

from spacy_deid.ml.matmul import create_numpy_matmul, use_blis_matmul, use_numpy_matmul
from tiny_configs import tiny_config

TEXT = "Seen by Dr. Hollis Brandt on 4/17/2094 at Larkspur Clinic in Dunmore."


def model_ops(nlp):
    return [
        node.ops
        for _, component in nlp.components
        if hasattr(getattr(component, "model", None), "walk")
        for node in component.model.walk()
    ]


def build(enabled=None, initialize=True):
    config = tiny_config("cpu")
    if enabled is None:
        config["nlp"]["after_pipeline_creation"] = None
    else:
        config["nlp"]["after_pipeline_creation"]["enabled"] = enabled
    nlp = load_model_from_config(config, auto_fill=True, validate=True)
    if initialize:
        nlp.initialize()
    return nlp


@pytest.mark.parametrize("enabled,use_blis", [(True, False), (False, True), (None, True)])
def test_the_callback_sets_the_ops_of_every_model(enabled, use_blis):
    ops = model_ops(build(enabled, initialize=False))
    assert ops and all(type(o) is NumpyOps for o in ops)
    assert {o.use_blis for o in ops} == {use_blis}


def test_training_initializes_with_blis():
    """[initialize.before_init] puts blis back: trainings stay those the models were measured with."""
    nlp = build(True, initialize=False)
    assert {o.use_blis for o in model_ops(nlp)} == {False}
    nlp.initialize()
    assert {o.use_blis for o in model_ops(nlp)} == {True}
    assert use_blis_matmul(nlp) == 0


def test_numpy_matmul_gives_the_same_vectors_as_blis():
    nlp = build(None)
    with_blis = nlp(TEXT).tensor.copy()
    assert use_numpy_matmul(nlp) > 0
    with_numpy = nlp(TEXT).tensor
    assert with_blis.shape == with_numpy.shape and with_blis.size > 0
    numpy.testing.assert_allclose(with_numpy, with_blis, rtol=1e-4, atol=1e-5)


def test_other_backends_keep_their_ops():
    class OtherOps(NumpyOps):
        name = "other-cpu-backend"

    nlp = build(None)
    other = OtherOps()
    for _, component in nlp.components:
        if hasattr(getattr(component, "model", None), "walk"):
            for node in component.model.walk():
                node.ops = other
    assert use_numpy_matmul(nlp) == 0
    assert all(o is other for o in model_ops(nlp))


def test_the_setting_survives_to_disk_and_spacy_load(tmp_path):
    nlp = build(True)  # initialized, so on blis, as after training
    nlp.to_disk(tmp_path / "pipeline")
    loaded = spacy.load(tmp_path / "pipeline")
    assert loaded.config["nlp"]["after_pipeline_creation"]["@callbacks"] == "spacy-deid.NumpyMatmul.v3"
    assert {o.use_blis for o in model_ops(loaded)} == {False}
    assert [(e.start_char, e.label_) for e in loaded(TEXT).ents] == [
        (e.start_char, e.label_) for e in nlp(TEXT).ents
    ]


def _blas_threads(queue):
    from threadpoolctl import threadpool_info

    queue.put(sorted({pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"}))


def test_forked_workers_run_one_blas_thread():
    create_numpy_matmul()(build(None))  # registers the fork hook
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    child = context.Process(target=_blas_threads, args=(queue,))
    child.start()
    threads = queue.get(timeout=60)
    child.join(timeout=60)
    assert threads == [1]


# (callback settings, numpy's BLAS) -- v2's inference_maxout still loads and changes nothing
CALLBACKS = [
    ({"@callbacks": "spacy-deid.NumpyMatmul.v2", "enabled": True, "inference_maxout": True}, True),
    ({"@callbacks": "spacy-deid.NumpyMatmul.v2", "enabled": True, "inference_maxout": False}, True),
    ({"@callbacks": "spacy-deid.NumpyMatmul.v3", "enabled": True, "blas_threads": 1}, True),
    ({"@callbacks": "spacy-deid.NumpyMatmul.v3", "enabled": False, "blas_threads": "free"}, False),
]


@pytest.mark.parametrize("callback,numpy_blas", CALLBACKS)
def test_every_published_version_loads(callback, numpy_blas):
    config = tiny_config("cpu")
    config["nlp"]["after_pipeline_creation"] = callback
    nlp = load_model_from_config(config, auto_fill=True, validate=True)
    ops = model_ops(nlp)
    assert ops and all(o.use_blis is not numpy_blas for o in ops)


def test_v3_sizes_the_blas_pools():
    from threadpoolctl import ThreadpoolController

    controller = ThreadpoolController()
    with controller.limit(limits=2, user_api="blas"):
        config = tiny_config("cpu")
        config["nlp"]["after_pipeline_creation"] = {"@callbacks": "spacy-deid.NumpyMatmul.v3", "blas_threads": 1}
        load_model_from_config(config, auto_fill=True, validate=True)
        sizes = {pool.num_threads for pool in ThreadpoolController().select(user_api="blas").lib_controllers}
    assert sizes <= {1}


@pytest.mark.parametrize("bad", [-1, "all", 1.5, True])
def test_v3_refuses_a_bad_thread_setting(bad):
    from spacy_deid.ml.matmul import create_numpy_matmul_v3

    with pytest.raises(ValueError, match="blas_threads"):
        create_numpy_matmul_v3(blas_threads=bad)
