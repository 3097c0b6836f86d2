"""`pipe_in_processes(nlp, texts, n_process=N)` (spacy_deid/ml/fork.py,
spacy_deid/ml/worker_pool.py): a small workload is
cut into batches that keep every process busy, the caller works as one of the
N processes, the Docs are those of spaCy's own multiprocessing pipe and come
in order, and the workers start no BLAS threads of their own."""
import multiprocessing
import os
import sys
import threading
import time

import numpy
import pytest
from spacy.language import Language

from spacy_deid.ml import worker_pool
from spacy_deid.ml.fork import batches_for_workers
from spacy_deid.ml.worker_pool import pipe_in_processes
from spacy_deid.ml.matmul import use_one_blas_thread_after_fork
from spacy_deid.tokenizer import blank_deid

# (notes, n_process, batch_size asked for, batch size the workers get)
PIPE_BATCHES = [
    (15, 2, 32, 2),  # spaCy alone: one batch of 15, one worker idle
    (15, 2, 8, 2),
    (15, 4, 32, 1),
    (100, 2, 32, 13),
    (128, 2, 32, 32),  # two rounds of batches already: kept
    (400, 2, 32, 32),
]


@pytest.mark.parametrize("notes,n_process,batch_size,expected", PIPE_BATCHES)
def test_a_small_workload_is_cut_for_the_workers(monkeypatch, notes, n_process, batch_size, expected):
    asked = {}

    def in_this_process(nlp, items, n, size):
        asked["batch_size"], asked["n_process"] = size, n
        return ((nlp.make_doc(text), context) for text, context in items)

    monkeypatch.setattr(worker_pool, "_pipe_items", in_this_process)
    nlp = blank_deid()
    texts = [f"note {i} seen today" for i in range(notes)]
    docs = list(pipe_in_processes(nlp, texts, n_process=n_process, batch_size=batch_size))
    assert asked == {"batch_size": expected, "n_process": n_process}
    assert [doc.text for doc in docs] == texts  # nothing read ahead is lost or reordered


def test_one_process_is_not_rebatched():
    stream, size = batches_for_workers(iter(range(15)), 1, 32)
    assert size == 32 and list(stream) == list(range(15))


@Language.component("record_worker_threads")
def record_worker_threads(doc):
    from threadpoolctl import threadpool_info

    numpy.ones((64, 64)) @ numpy.ones((64, 64))  # a BLAS call, as the tok2vec makes
    if multiprocessing.parent_process() is None:
        time.sleep(0.2)  # the caller slowed down, so the worker starts and takes its batches
    doc.user_data["pid"] = os.getpid()
    # threads Python did not start (a BLAS pool's); the queue's feeder thread is Python's
    doc.user_data["native_threads"] = len(os.listdir("/proc/self/task")) - threading.active_count()
    doc.user_data["blas_threads"] = sorted(
        {pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"}
    )
    return doc


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="counts threads in /proc")
def test_workers_start_no_blas_threads():
    """A worker forked while the parent's OpenBLAS pool had several threads
    and then set to one starts that pool again (its threads spin beside the
    worker): the parent forks with its pools at one thread."""
    use_one_blas_thread_after_fork()
    nlp = blank_deid()
    nlp.add_pipe("record_worker_threads")
    docs = list(pipe_in_processes(nlp, [f"note {i}" for i in range(8)], n_process=2, batch_size=2))
    in_workers = [doc for doc in docs if doc.user_data["pid"] != os.getpid()]
    assert in_workers and {doc.user_data["native_threads"] for doc in in_workers} == {0}
    # the caller's own batches run on one BLAS thread too, like each worker's
    assert {tuple(doc.user_data["blas_threads"]) for doc in docs} <= {(1,), ()}
