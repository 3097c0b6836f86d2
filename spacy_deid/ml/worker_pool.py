"""`pipe_in_processes(nlp, texts, n_process=N)`: nlp.pipe in N processes, the caller one of them.

A documented helper a user calls (`spacy-deid deidentify` calls it through
`pipe_bounded`); `nlp.pipe(n_process=N)` itself stays spaCy's own. spaCy's
multiprocessing pipe forks N workers, deals them batches in turn, and leaves
the calling process to read their Docs back. On a machine with N cores that
is N + 1 processes, and turn-taking makes a worker that finished early wait:
its Docs (megabytes of bytes) block in a pipe until the parent has read the
other worker's earlier batch. Here:

- the calling process works too, on whole batches, whenever the Docs it
  must yield next are not ready; its own Docs are never serialised, and one
  fork fewer is paid for (start and copy-on-write faults, docs/speed.md);
  with no new batch left to take, it takes back a queued batch that no
  worker has begun, so the end of a short workload does not wait for one;
- the workers take batches from one shared queue, so none waits its turn,
  and send their Docs back through one queue (a feeder thread sends them,
  so a worker goes on to its next batch at once);
- Docs are still yielded in input order, and the batches read ahead, queued
  or done but not yet yielded are bounded, so an endless stream works;
- a workload too small to keep every process busy in whole batches is cut
  finer (`batches_for_workers`), and each item is checked in the caller
  before it is sent, so a bad item raises at once with its position (never
  its content: `PipeInputError`).

Every process runs `nlp.pipe` on its batches (the same components and error
handlers as one process), on numpy's BLAS at one thread each; the Docs are
the same as one process makes (the tests compare them).

A batch that fails, in a worker or here, goes to the pipeline's error
handler as one `ValueError` (spaCy's E871, with the traceback, as spaCy does
for its workers); reading a bad item, a handler that raises, or a caller
that stops early ends the workers at once. A worker that dies (killed, out
of memory) raises an error here instead of hanging, where spaCy's own pipe
could hang for good.
"""
import multiprocessing
import os
import pickle
import queue
import sys
import threading
import traceback
from contextlib import contextmanager
from typing import Any, Dict, Iterable, Iterator, List, Optional, Tuple

from spacy import util
from spacy.errors import Errors
from spacy.language import Language
from spacy.tokens import Doc
from spacy.tokens.underscore import Underscore
from threadpoolctl import ThreadpoolController

from .doc_transfer import doc_from_transfer, doc_to_transfer
from .fork import batches_for_workers, check_pipe_item

# Batches queued for the workers, per worker: enough that none runs dry
# while the caller works on a batch of its own.
QUEUED_PER_WORKER = 2
# How often (seconds) a caller waiting for Docs checks that its workers live.
LIVENESS_SECONDS = 0.5
# How long (seconds) workers may take to exit once the stream is done.
EXIT_SECONDS = 10.0

_STOP = None  # the sentinel a worker stops at
Item = Tuple[Any, Any]  # (str, Doc or Doc bytes; its context)
Batch = Tuple[int, List[Item]]
# (batch index, the pickled [(Doc in parts, context), ...] or None, traceback or None)
Result = Tuple[int, Optional[bytes], Optional[str]]


class WorkerDiedError(RuntimeError):
    """A worker process of pipe_in_processes ended before its work was done."""


def pipe_in_processes(
    nlp: Language,
    texts: Iterable[Any],
    *,
    n_process: int = 2,
    batch_size: Optional[int] = None,
    as_tuples: bool = False,
) -> Iterator[Any]:
    """`nlp.pipe(texts, as_tuples=as_tuples, batch_size=batch_size)` made by this
    process and `n_process - 1` forked workers, in input order (see the module
    docstring). `n_process=1` is `nlp.pipe` itself; -1: one process per CPU
    this process may use. Items are str, Doc or Doc bytes (with their context
    when `as_tuples`)."""
    if batch_size is None:
        batch_size = nlp.batch_size
    if n_process == -1:
        n_process = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    if n_process < 1:
        raise ValueError(f"n_process must be -1 or at least 1, not {n_process}")
    if n_process == 1:
        yield from nlp.pipe(texts, as_tuples=as_tuples, batch_size=batch_size)
        return
    items = texts if as_tuples else ((text, None) for text in texts)
    items, batch_size = batches_for_workers(items, n_process, batch_size)
    checked = ((check_pipe_item(i, item), context) for i, (item, context) in enumerate(items))
    done = _pipe_items(nlp, checked, n_process, batch_size)
    try:
        for doc, context in done:
            yield (doc, context) if as_tuples else doc
    finally:
        done.close()  # a caller that stops early ends the workers now


def _pipe_items(nlp: Language, items: Iterable[Item], n_process: int, batch_size: int) -> Iterator[Item]:
    """(Doc, context) of every (item, context), in order, from the caller and n_process - 1 workers."""
    n_workers = max(1, n_process - 1)
    batches = enumerate(util.minibatch(items, batch_size))
    tasks: multiprocessing.Queue = multiprocessing.Queue()
    results: multiprocessing.Queue = multiprocessing.Queue()
    pool = _Pool(nlp, tasks, results, n_workers)
    ready: Dict[int, List[Item]] = {}  # finished batches not yet yielded
    queued = 0  # batches handed to the workers and not yet back
    read = 0  # batches read from the stream
    exhausted = False
    wanted = 0  # the batch whose Docs come next
    most_ready = 2 * n_process * QUEUED_PER_WORKER
    finished = False
    try:
        while True:
            while wanted in ready:
                yield from ready.pop(wanted)
                wanted += 1
            if exhausted and wanted >= read:
                finished = True
                return
            # Take in what the workers have done, then keep their queue full.
            for result in pool.drain():
                queued -= 1
                _take(nlp, result, ready)
            while not exhausted and queued < n_workers * QUEUED_PER_WORKER:
                batch = next(batches, None)
                if batch is None:
                    exhausted = True
                    break
                # Pickled here, so an item that cannot cross (a context that
                # does not pickle) raises here, not in the queue's thread.
                tasks.put((batch[0], pickle.dumps([_to_worker(item) for item in batch[1]])))
                queued += 1
                read += 1
            if queued:
                pool.start()  # once: the workers fork with their first batches queued
            if wanted in ready:
                continue
            batch = None
            if not exhausted and len(ready) < most_ready:
                batch = next(batches, None)
                exhausted = batch is None
            if batch is not None:
                read += 1
                ready[batch[0]] = pool.run_here(batch[1])
                continue
            # Nothing new to take on: a queued batch no worker has begun is
            # made here rather than waited for (the end of a short workload).
            stolen = pool.take_back() if queued else None
            if stolen is not None:
                queued -= 1
                ready[stolen[0]] = pool.run_here(stolen[1])
                continue
            if queued:
                result = pool.wait()
                queued -= 1
                _take(nlp, result, ready)
    finally:
        pool.close(orderly=finished)


def _to_worker(item: Item) -> Item:
    """A stream item as it crosses to a worker (a Doc as bytes, as spaCy sends it)."""
    doc_like, context = item
    if isinstance(doc_like, Doc):
        return doc_like.to_bytes(), context
    return doc_like, context


def _take(nlp: Language, result: Result, ready: Dict[int, List[Item]]) -> None:
    """Store a worker's batch as Docs, or hand its error to the error handler."""
    index, payload, error = result
    if error is not None:
        _report(nlp, error)
        ready[index] = []  # the handler let it pass: the batch yields nothing, as in spaCy
        return
    ready[index] = [
        (doc_from_transfer(nlp.vocab, transfer), context)
        for transfer, context in (pickle.loads(payload) if payload else ())
    ]


def _report(nlp: Language, error: str) -> None:
    nlp.default_error_handler(None, None, None, ValueError(Errors.E871.format(error=error)))


def _process(nlp: Language, items: List[Item]) -> List[Item]:
    """A batch of (item, context) through `nlp.pipe` in this process (its
    components and error handlers; spaCy keeps each context with its Doc)."""
    return list(nlp.pipe(items, as_tuples=True, batch_size=max(1, len(items))))


def _work(nlp: Language, tasks, results, underscore_state) -> None:
    """A worker: batches from `tasks` until the sentinel, Docs (or a traceback) to `results`."""
    Underscore.load_state(underscore_state)
    while True:
        task = tasks.get()
        if task is _STOP:
            return
        index, items = task
        try:
            done = _process(nlp, pickle.loads(items))
            # Pickled here, so a context that does not pickle is reported.
            # A Doc crosses in parts, one msgpack call (ml/doc_transfer.py).
            results.put((index, pickle.dumps([(doc_to_transfer(doc), context) for doc, context in done]), None))
        except Exception:
            results.put((index, None, traceback.format_exc()))


class _Pool:
    """This call's workers, forked on first use, and the caller's own share."""

    def __init__(self, nlp: Language, tasks, results, n_workers: int) -> None:
        self.nlp, self.tasks, self.results = nlp, tasks, results
        self.n_workers = n_workers
        self.procs: List[multiprocessing.Process] = []
        self._threads = ThreadpoolController()
        self.inbox: "queue.Queue[Result]" = queue.Queue()  # results read whole, by `_read`
        self.reading = threading.Event()
        self.reader: Optional[threading.Thread] = None

    def start(self) -> None:
        if self.procs:
            return
        # Forked with the BLAS pools at one thread, as each worker runs them,
        # so no worker starts the parent's pool again (ml/matmul.py).
        with self._threads.limit(limits=1, user_api="blas"):
            for _ in range(self.n_workers):
                proc = multiprocessing.Process(
                    target=_work,
                    args=(
                        self.nlp,
                        self.tasks,
                        self.results,
                        Underscore.get_state(),
                    ),
                )
                proc.start()
                self.procs.append(proc)
        # Started after the fork, so no worker inherits it.
        self.reading.set()
        self.reader = threading.Thread(target=self._read, name="pipe results", daemon=True)
        self.reader.start()

    def _read(self) -> None:
        """Move whole results from the workers' queue to the inbox, in a thread.

        A worker killed while it sends its Docs leaves half a message in the
        pipe, and a read of it waits for the rest for good (this process holds
        the pipe's write end too, so no end of file comes). Read here, that
        blocks only this daemon thread: the caller waits on the inbox with a
        timeout and raises WorkerDiedError (issue 61)."""
        while self.reading.is_set():
            try:
                self.inbox.put(self.results.get(timeout=LIVENESS_SECONDS))
            except queue.Empty:
                continue
            except (EOFError, OSError, ValueError):  # the queue was closed
                return

    def drain(self) -> Iterator[Result]:
        """The results read so far, without waiting."""
        while True:
            try:
                yield self.inbox.get_nowait()
            except queue.Empty:
                return

    def take_back(self) -> Optional[Batch]:
        """A batch from the workers' queue that none of them has taken, or None.

        Only while every worker is busy: an idle worker waits in `get()`
        holding the queue's read lock, so the lock is not free and it keeps
        the batch."""
        try:
            index, items = self.tasks.get_nowait()
        except queue.Empty:
            return None
        return index, pickle.loads(items)

    def run_here(self, items: List[Item]) -> List[Item]:
        """A batch of (item, context) made in this process, on one thread like
        each worker; a failure reaches the error handler as a worker's would."""
        try:
            with self._threads.limit(limits=1, user_api="blas"), _one_torch_thread():
                return _process(self.nlp, items)
        except Exception:
            _report(self.nlp, traceback.format_exc())
            return []

    def wait(self) -> Result:
        """The next finished batch; raises if a worker died meanwhile."""
        while True:
            try:
                return self.inbox.get(timeout=LIVENESS_SECONDS)
            except queue.Empty:
                for proc in self.procs:
                    if not proc.is_alive():
                        raise WorkerDiedError(
                            f"nlp.pipe: a worker process ended (exit code {proc.exitcode}) "
                            "before its batches were done"
                        ) from None

    def close(self, orderly: bool) -> None:
        """Stop the workers: at once unless every batch was read back."""
        if orderly:
            for _ in self.procs:
                self.tasks.put(_STOP)
            for proc in self.procs:
                proc.join(EXIT_SECONDS)
        for proc in self.procs:
            if proc.is_alive():
                proc.terminate()
            proc.join()
        self.reading.clear()
        if orderly and self.reader is not None:
            self.reader.join(EXIT_SECONDS)
        for channel in (self.tasks, self.results):
            channel.cancel_join_thread()  # nothing left worth sending
            channel.close()


@contextmanager
def _one_torch_thread():
    torch = sys.modules.get("torch")  # only where the pipeline already loaded it
    if torch is None:
        yield
        return
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(threads)
