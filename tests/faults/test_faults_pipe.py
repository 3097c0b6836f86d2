"""Fault suite (issue 27, item 1): the package's `pipe_in_processes` (what
`deidentify` runs) with a bad item, with one and two processes, raises within
a bound and never hangs.

All cases run in one child process (loading spaCy once); each case has its
own alarm, and the child as a whole a timeout after which its process group
is killed, so a regression fails here instead of hanging CI.
"""
import json
import os
import signal
import subprocess
import sys

import pytest

pytestmark = pytest.mark.faults

# PHI-like strings planted in every note: no error message may contain one.
PLANTED = ("Zebulon Quattlebaum", "617-555-0199")
GOOD = f"Seen by Dr. {PLANTED[0]} on 4/17/2094. Call {PLANTED[1]}.\n" * 300  # > a pipe buffer as Docs
CASE_SECONDS = 60
# (id, bad item, where it goes among 12 good notes, n_process, batch_size, expected error)
CASES = [
    ("none-first-1proc", None, 0, 1, 2, "ValueError"),
    ("none-first", None, 0, 2, 1, "PipeInputError"),
    ("none-middle", None, 6, 2, 2, "PipeInputError"),
    ("none-late", None, 9, 2, 3, "PipeInputError"),
    ("surrogate-1proc", f"Seen by {PLANTED[0]} \ud800", 5, 1, 2, "UnicodeEncodeError"),
    ("surrogate-middle", f"Seen by {PLANTED[0]} \ud800", 5, 2, 3, "PipeInputError"),
    ("number", 42, 7, 2, 1, "PipeInputError"),
    ("worker-error", "RAISE-IN-WORKER " + PLANTED[0], 7, 2, 2, "ValueError"),
]

CHILD = r"""
import json, signal, sys, multiprocessing
import spacy
from spacy.language import Language
from spacy_deid.ml.worker_pool import pipe_in_processes

class Hung(Exception):
    pass

def alarm(signum, frame):
    raise Hung()

@Language.component("raise_on_marker")
def raise_on_marker(doc):
    if doc.text.startswith("RAISE-IN-WORKER"):
        raise RuntimeError("component failed")
    return doc

signal.signal(signal.SIGALRM, alarm)
nlp = spacy.load(sys.argv[1])
nlp.add_pipe("raise_on_marker")
cases, good, seconds = json.loads(sys.stdin.read())
for name, bad, where, n_process, batch_size in cases:
    texts = [good] * 12
    texts.insert(where, bad)
    signal.alarm(seconds)
    try:
        for doc in pipe_in_processes(nlp, texts, n_process=n_process, batch_size=batch_size):
            pass
        outcome, message = "no error", ""
    except Hung:
        outcome, message = "hung", ""
    except Exception as err:
        outcome, message = type(err).__name__, str(err)
    signal.alarm(0)
    for child in multiprocessing.active_children():
        child.kill()
    print(json.dumps([name, outcome, message]), flush=True)
"""

@pytest.fixture(scope="module")
def outcomes(rules_model_dir):
    cases = [[name, bad, where, n, b] for name, bad, where, n, b, _ in CASES]
    payload = json.dumps([cases, GOOD, CASE_SECONDS])  # ensure_ascii: "\ud800" stays an escape
    process = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(rules_model_dir)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        out, err = process.communicate(payload.encode(), timeout=CASE_SECONDS * len(CASES) + 120)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        out, err = process.communicate()
    found = {}
    for line in out.decode().splitlines():
        name, outcome, message = json.loads(line)
        found[name] = (outcome, message)
    return found, err.decode(errors="replace")


@pytest.mark.parametrize(
    "name,expected", [(c[0], c[5]) for c in CASES], ids=[c[0] for c in CASES]
)
def test_pipe_with_a_bad_item_raises_within_a_bound(outcomes, name, expected):
    found, stderr = outcomes
    assert name in found, f"the child never reported this case (it hung or died); stderr tail: {stderr[-500:]}"
    outcome, message = found[name]
    assert outcome == expected
    assert not any(value in message for value in PLANTED)


def test_check_pipe_item_table():
    from spacy_deid.ml.fork import PipeInputError, check_pipe_item

    assert check_pipe_item(0, "fine text") == "fine text"
    assert check_pipe_item(0, "") == ""
    assert check_pipe_item(0, "pair \U0001f600 ok") == "pair \U0001f600 ok"
    for bad in (None, 3, ["a list"], "x\ud800", "\udfff y"):
        with pytest.raises(PipeInputError) as info:
            check_pipe_item(4, bad)
        assert "item 4" in str(info.value)


def test_the_pipeline_still_pickles(rules_model_dir):
    """Spawned workers (macOS, Windows) receive the pipeline pickled."""
    import pickle

    import spacy

    nlp = spacy.load(rules_model_dir)
    copy = pickle.loads(pickle.dumps(nlp))
    assert [t.text for t in copy("Seen by Dr. Lee.")] == [t.text for t in nlp("Seen by Dr. Lee.")]
