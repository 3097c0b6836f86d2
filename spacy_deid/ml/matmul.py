"""Matrix products through numpy's BLAS instead of Thinc's bundled blis.

Thinc's `NumpyOps` computes every `gemm` with the `blis` package, on one
thread. On the x86-64 machines we measured, numpy's OpenBLAS computes the
same products about 2.8 times faster on one thread, and the tok2vec's
products are about half of the default pipeline's time (docs/speed.md,
"Matrix products"). `NumpyOps` has a switch for exactly this
(`use_blis=False`: its `gemm` falls back to numpy); this callback turns it
on for every model of the pipeline, through the models' public `ops`.

The two libraries round differently, and a training run amplifies the
difference into another model (on the dev notes as different as another
seed), so the configs use numpy's BLAS where it changes nothing the user
sees, at inference, and train with blis as the measured models were:

    [nlp.after_pipeline_creation]
    @callbacks = "spacy-deid.NumpyMatmul.v3"
    enabled = true
    blas_threads = "free"

    [initialize.before_init]
    @callbacks = "spacy-deid.BlisMatmul.v1"

`spacy.load` creates the pipeline (numpy's BLAS) and never initializes it;
`spacy train` initializes it first (blis). The entities of the default
pipeline are identical either way on the 75 notes checked (docs/speed.md).

v3 also sizes numpy's BLAS pools to the cores that are free when the
pipeline is created (`blas_threads`, ml/threads.py): two OpenBLAS threads on
a machine where another process holds a core wait on each other.

Processes forked after the switch run numpy's BLAS on one thread each, so N
workers do not start N x cores threads.
"""
import os
from typing import Callable, Iterator, Union

from spacy.language import Language
from spacy.util import registry
from thinc.api import Model, NumpyOps, get_current_ops

from .threads import FREE, blas_thread_count, fit_blas_threads

_fork_hook_registered = False


def _one_blas_thread() -> None:
    """Set every BLAS pool of more than one thread to one.

    Only those: after a fork, OpenBLAS's `openblas_set_num_threads` first
    starts its pool again at the parent's size, and those threads then spin
    beside the worker. A parent that forks with its pools at one thread
    (`pipe_in_processes` does: `ml/worker_pool.py`) leaves nothing to set, so no thread starts.
    """
    from threadpoolctl import ThreadpoolController

    for pool in ThreadpoolController().select(user_api="blas").lib_controllers:
        if pool.num_threads != 1:
            pool.set_num_threads(1)


def use_one_blas_thread_after_fork() -> None:
    """Make every child forked from now on run numpy's BLAS on one thread (idempotent)."""
    global _fork_hook_registered
    if not _fork_hook_registered and hasattr(os, "register_at_fork"):
        os.register_at_fork(after_in_child=_one_blas_thread)
        _fork_hook_registered = True


def model_nodes(nlp: Language) -> Iterator[Model]:
    """Every Thinc model node of every component of `nlp` that has a model."""
    for _, component in nlp.components:
        model = getattr(component, "model", None)
        if model is not None and hasattr(model, "walk"):
            yield from model.walk()


def use_numpy_matmul(nlp: Language) -> int:
    """Give every Thinc model of `nlp` a `NumpyOps(use_blis=False)`; the number of models changed.

    Only models on plain CPU ops are changed: a pipeline on a GPU (`CupyOps`)
    or on another CPU backend (Apple's, for instance) keeps its ops.
    """
    ops = NumpyOps(use_blis=False)
    changed = 0
    for node in model_nodes(nlp):
        if type(node.ops) is NumpyOps and node.ops.use_blis:
            node.ops = ops
            changed += 1
    if changed:
        use_one_blas_thread_after_fork()
    return changed


def use_blis_matmul(nlp: Language) -> int:
    """Give every Thinc model of `nlp` that uses numpy's BLAS Thinc's blis again; the number changed."""
    ops = NumpyOps(use_blis=True)
    changed = 0
    for node in model_nodes(nlp):
        if type(node.ops) is NumpyOps and not node.ops.use_blis:
            node.ops = ops
            changed += 1
    return changed


@registry.callbacks("spacy-deid.BlisMatmul.v1")
def create_blis_matmul() -> Callable[[Language], Language]:
    """An `[initialize.before_init]` callback: train with Thinc's blis (see the module's docstring)."""

    def before_init(nlp: Language) -> Language:
        use_blis_matmul(nlp)
        return nlp

    return before_init


@registry.callbacks("spacy-deid.NumpyMatmul.v1")
def create_numpy_matmul(enabled: bool = True) -> Callable[[Language], Language]:
    """An `[nlp.after_pipeline_creation]` callback: numpy's BLAS for the pipeline's matrix products.

    enabled: false leaves Thinc's blis in place (to compare, or where numpy's
    BLAS is slower).
    """

    def after_pipeline_creation(nlp: Language) -> Language:
        if enabled and type(get_current_ops()) is NumpyOps:
            use_numpy_matmul(nlp)
        return nlp

    return after_pipeline_creation


@registry.callbacks("spacy-deid.NumpyMatmul.v2")
def create_numpy_matmul_v2(
    enabled: bool = True, inference_maxout: bool = True
) -> Callable[[Language], Language]:
    """v1; `inference_maxout` is kept so that the configs and pipelines that
    name it still load, and no longer changes anything.

    It used to give Thinc's Maxout layers a forward without the index of
    each winning piece, by replacing the private forward of each Maxout
    node. Measured again (interleaved rounds in one process, the Maxout
    layers' own inputs of a pass over the 15 dev notes, one BLAS thread),
    it saved 2.8% of a pass: under the 5% a patch of Thinc's internals
    would have to be worth, so it was dropped (the outputs were the same).
    """
    return create_numpy_matmul(enabled)


@registry.callbacks("spacy-deid.NumpyMatmul.v3")
def create_numpy_matmul_v3(
    enabled: bool = True, blas_threads: Union[int, str] = FREE
) -> Callable[[Language], Language]:
    """v1, and numpy's BLAS pools sized to the cores that are free.

    enabled: false leaves Thinc's blis in place (and the pools as they are).
    blas_threads: "free" (the cores free when the pipeline is created, at
        least one; spacy_deid.ml.threads.fit_blas_threads), a thread count, or
        0 to leave numpy's BLAS at its own default (a thread per core).

    OpenBLAS rounds by its thread count: on the 15 dev and 10 generated notes
    one thread and two gave the same entities and spans, and scores that
    differ in the 6th decimal (24 of 400 items). Where scores must repeat
    exactly from run to run and machine to machine, set a fixed count (1 is
    also what each process of `pipe_in_processes` uses, so one process and
    several then give the same scores).
    """
    blas_thread_count(0 if blas_threads == FREE else blas_threads)  # a bad setting fails at once
    matmul = create_numpy_matmul(enabled)

    def after_pipeline_creation(nlp: Language) -> Language:
        matmul(nlp)
        if enabled:
            fit_blas_threads(blas_threads)
        return nlp

    return after_pipeline_creation
