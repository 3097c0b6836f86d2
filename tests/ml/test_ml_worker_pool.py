"""The package's multiprocessing pipe (spacy_deid/ml/worker_pool.py,
`pipe_in_processes`): the caller works as one of the N processes, the Docs
are those of spaCy's own multiprocessing pipe, in input order, and a pipe
that stops early or loses a worker ends instead of hanging. The pipeline
object itself is left as spaCy made it."""
import itertools
import multiprocessing
import os

import pytest
import spacy
from spacy.language import Language
from spacy.tokens import Doc

from spacy_deid.ml import worker_pool
from spacy_deid.ml.worker_pool import WorkerDiedError, pipe_in_processes
from processes import alarm_after

# Every test here forks; one that hangs fails after this many seconds.
SECONDS = 60


@pytest.fixture(autouse=True)
def bounded():
    with alarm_after(SECONDS):
        yield


@Language.component("record_process")
def record_process(doc):
    doc.user_data["pid"] = os.getpid()
    return doc


@Language.component("slow_in_caller")
def slow_in_caller(doc):
    # The caller takes back batches no worker has begun: slowed down, it
    # leaves a worker time to start and take its first batch.
    if multiprocessing.parent_process() is None:
        import time

        time.sleep(0.2)
    return doc


@Language.component("exit_worker_on_marker")
def exit_worker_on_marker(doc):
    if doc.text.startswith("EXIT") and multiprocessing.parent_process() is not None:
        os._exit(3)  # a worker killed mid-batch (out of memory, SIGKILL)
    return doc


@Language.component("raise_on_marker_here")
def raise_on_marker_here(doc):
    if doc.text.startswith("RAISE"):
        raise RuntimeError("component failed")
    return doc


def notes(count):
    # unequal lengths, so batches take unequal times
    return [f"Seen by Dr Quennell on visit {i}. " * (1 + (7 * i) % 5) for i in range(count)]


def entities(docs):
    return [[(e.start_char, e.end_char, e.label_) for e in doc.ents] for doc in docs]


@pytest.fixture(scope="module")
def nlp(rules_model_dir):
    return spacy.load(rules_model_dir)


# (notes, n_process, batch_size)
WORKLOADS = [(15, 2, 8), (15, 2, 1), (40, 3, 2), (64, 2, 32), (5, 4, 1)]


@pytest.mark.parametrize("count,n_process,batch_size", WORKLOADS)
def test_the_docs_are_spacys_in_input_order(nlp, count, n_process, batch_size):
    texts = notes(count)
    ours = list(pipe_in_processes(nlp, texts, n_process=n_process, batch_size=batch_size))
    spacys = list(nlp.pipe(texts, n_process=n_process, batch_size=batch_size))  # spaCy's own
    assert [doc.text for doc in ours] == texts
    assert [doc.to_bytes() for doc in ours] == [doc.to_bytes() for doc in spacys]
    assert entities(ours) == entities(nlp.pipe(texts))


def test_the_caller_is_one_of_the_processes(rules_model_dir):
    nlp = spacy.load(rules_model_dir)
    nlp.add_pipe("slow_in_caller")
    nlp.add_pipe("record_process")
    docs = list(pipe_in_processes(nlp, notes(12), n_process=2, batch_size=2))
    made_by = {doc.user_data["pid"] for doc in docs}
    assert os.getpid() in made_by  # its own share, never serialised
    assert len(made_by) == 2  # and one worker: two processes in all


def test_contexts_and_docs_as_input(nlp):
    texts = notes(9)
    pairs = list(pipe_in_processes(nlp, [(text, {"row": i}) for i, text in enumerate(texts)], as_tuples=True, n_process=2, batch_size=1))
    assert [context for _, context in pairs] == [{"row": i} for i in range(9)]
    assert [doc.text for doc, _ in pairs] == texts
    made = [nlp.make_doc(text) for text in texts]
    assert [doc.text for doc in pipe_in_processes(nlp, made, n_process=2, batch_size=2)] == texts


def test_an_empty_stream_starts_no_worker(nlp):
    before = set(multiprocessing.active_children())
    assert list(pipe_in_processes(nlp, [], n_process=2)) == []
    assert set(multiprocessing.active_children()) == before


def test_an_endless_stream_is_read_a_bounded_way_ahead(nlp):
    read = itertools.count()

    def endless():
        for i in read:
            yield f"Visit {i} with Dr Quennell."

    docs = pipe_in_processes(nlp, endless(), n_process=2, batch_size=2)
    first = list(itertools.islice(docs, 30))
    docs.close()
    assert [doc.text for doc in first] == [f"Visit {i} with Dr Quennell." for i in range(30)]
    assert next(read) <= 30 + 2 * (2 * 2 * worker_pool.QUEUED_PER_WORKER + 2) + 1
    assert not multiprocessing.active_children()  # the workers ended with the pipe


def test_a_consumer_that_stops_early_ends_the_workers(nlp):
    docs = pipe_in_processes(nlp, notes(40), n_process=3, batch_size=1)
    next(docs)
    assert multiprocessing.active_children()
    docs.close()
    assert not multiprocessing.active_children()


def test_a_dead_worker_raises_instead_of_hanging(rules_model_dir):
    nlp = spacy.load(rules_model_dir)
    nlp.add_pipe("slow_in_caller")
    nlp.add_pipe("exit_worker_on_marker")
    texts = ["EXIT now."] + notes(11)  # the first batch is queued for the worker
    with pytest.raises(WorkerDiedError) as info:
        list(pipe_in_processes(nlp, texts, n_process=2, batch_size=1))
    assert "exit code 3" in str(info.value)
    assert not multiprocessing.active_children()


@pytest.mark.parametrize("where", [0, 5, 11])  # a worker's batch, the caller's, either
def test_a_failed_batch_reaches_the_error_handler_wherever_it_ran(rules_model_dir, where):
    nlp = spacy.load(rules_model_dir)
    nlp.add_pipe("raise_on_marker_here")
    texts = notes(12)
    texts[where] = "RAISE " + texts[where]
    with pytest.raises(ValueError, match="component failed"):
        list(pipe_in_processes(nlp, texts, n_process=2, batch_size=1))
    assert not multiprocessing.active_children()


@pytest.mark.parametrize("n_process", [1, 2, -1])
def test_pipe_in_processes_on_a_generator(nlp, n_process):
    texts = notes(10)
    docs = list(pipe_in_processes(nlp, iter(texts), n_process=n_process, batch_size=3))
    assert all(isinstance(doc, Doc) for doc in docs)
    assert entities(docs) == entities(nlp.pipe(texts))


@pytest.mark.parametrize("n_process", [0, -2])
def test_pipe_in_processes_refuses_a_bad_process_count(nlp, n_process):
    with pytest.raises(ValueError, match="n_process"):
        list(pipe_in_processes(nlp, notes(2), n_process=n_process))


def test_the_pipeline_object_is_left_as_spacy_made_it(nlp):
    list(pipe_in_processes(nlp, notes(4), n_process=2, batch_size=1))
    assert "_multiprocessing_pipe" not in vars(nlp)


@pytest.mark.slow
def test_spawned_workers_get_the_pipeline_pickled(rules_model_dir, monkeypatch):
    """macOS and Windows (and Python 3.14's default on Linux, forkserver)
    start workers without fork: the pipeline and its pipes cross pickled."""
    nlp = spacy.load(rules_model_dir)
    monkeypatch.setattr(worker_pool, "multiprocessing", multiprocessing.get_context("spawn"))
    texts = notes(8)
    docs = list(pipe_in_processes(nlp, texts, n_process=2, batch_size=2))
    assert entities(docs) == entities(nlp.pipe(texts))


@Language.component("slow_in_workers")
def slow_in_workers(doc):
    if multiprocessing.parent_process() is not None:
        import time

        time.sleep(1.0)  # a worker busy with a long note
    doc.user_data["pid"] = os.getpid()
    return doc


def test_the_caller_takes_back_a_batch_no_worker_has_begun(rules_model_dir):
    nlp = spacy.load(rules_model_dir)
    nlp.add_pipe("slow_in_workers")
    texts = notes(6)  # batches of one: 0 and 1 queued for the worker, 2-5 made here
    docs = list(pipe_in_processes(nlp, texts, n_process=2, batch_size=1))
    assert [doc.text for doc in docs] == texts
    made_by = [doc.user_data["pid"] for doc in docs]
    assert made_by[2:] == [os.getpid()] * 4
    # The worker is still on its first batch (or not yet started) when the
    # stream runs out: the caller makes a queued one instead of waiting.
    assert made_by[:2].count(os.getpid()) >= 1
