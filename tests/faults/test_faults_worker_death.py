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
from processes import alarm_after, children_of

pytestmark = pytest.mark.faults

# A hang fails after this many seconds instead of blocking the suite.
SECONDS = 60
# Docs bytes far over a pipe's buffer (64 KiB): the worker's sending thread
# blocks with part of the message written while the caller is busy.
BIG = 4_000_000


@pytest.fixture
def bounded():
    with alarm_after(SECONDS):
        yield


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


NOTE = "Seen on 4/17/2094 by Dr. Zebulon Quattlebaum.\nPhone: 617-555-0143\n\nPlan: follow up.\n"


def _wait_for(condition, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc")
@pytest.mark.parametrize("killed_in", ["first-pass", "second-pass"])
def test_corpus_aware_run_with_a_killed_worker_ends_and_releases_its_locks(
    tmp_path, rules_model_dir, killed_in
):
    source, out, mapping = tmp_path / "in", tmp_path / "out", tmp_path / "map.json"
    source.mkdir()
    for i in range(120):
        (source / f"{i:04d}.txt").write_text(NOTE * 40, encoding="utf-8")
    command = [sys.executable, "-c", "from spacy_deid.cli import main; main()", "deidentify",
               str(source), str(out), "--model", str(rules_model_dir), "--no-progress",
               "--corpus-aware", "--n-process", "2", "--batch-size", "2",
               "--operator", "surrogate", "--seed", "s", "--mapping", str(mapping)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               start_new_session=True)
    try:
        # The second pass holds the output's lock; kill a worker once it works.
        second = killed_in == "second-pass"
        started = _wait_for(
            lambda: (out / LOCK_NAME).exists() == second and children_of(process.pid), 300
        )
        assert started, f"the {killed_in} did not start in time"
        time.sleep(1.0)
        for pid in children_of(process.pid):
            os.kill(pid, signal.SIGKILL)
        stdout, stderr = process.communicate(timeout=SECONDS)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
    assert process.returncode == 1
    assert "WorkerDiedError" in stdout.decode() + stderr.decode()
    assert "Traceback" not in stderr.decode()
    assert not (out / LOCK_NAME).exists() and not list(tmp_path.glob("*.lock"))
    assert not list(out.glob(".*.tmp"))
