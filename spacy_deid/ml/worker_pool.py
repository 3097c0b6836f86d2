"""`nlp.pipe(texts, n_process=N)` in N processes: the caller and N - 1 workers.

spaCy's own multiprocessing pipe forks N workers, deals them batches in
turn, and leaves the calling process to read their Docs back. On a machine
with N cores that is N + 1 processes, and turn-taking makes a worker that
finished early wait: its Docs (megabytes of bytes) block in a pipe until the
parent has read the other worker's earlier batch. Here:

- the calling process works too, on whole batches, whenever the Docs it
  must yield next are not ready; its own Docs are never serialised, and one
  fork fewer is paid for (start and copy-on-write faults, docs/speed.md);
  with no new batch left to take, it takes back a queued batch that no
  worker has begun, so the end of a short workload does not wait for one;
- the workers take batches from one shared queue, so none waits its turn,
  and send their Docs back through one queue (a feeder thread sends them,
  so a worker goes on to its next batch at once);
- Docs are still yielded in input order, and the batches read ahead, queued
  or done but not yet yielded are bounded, so an endless stream works.

The Docs are the same as one process makes (the tests compare them): every
process runs the same components, on numpy's BLAS at one thread each.

A batch that fails, in a worker or here, goes to the pipeline's error
handler as one `ValueError` (spaCy's E871, with the traceback, as spaCy does
for its workers); reading a bad item, a handler that raises, or a caller
that stops early ends the workers at once. A worker that dies (killed, out
of memory) raises an error here instead of hanging.
"""
import multiprocessing
import pickle
import queue
import sys
import threading
import traceback
from contextlib import contextmanager
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

from spacy import util
from spacy.errors import Errors
from spacy.language import Language
from spacy.tokens import Doc
from spacy.tokens.underscore import Underscore
from threadpoolctl import ThreadpoolController

# Batches queued for the workers, per worker: enough that none runs dry
# while the caller works on a batch of its own.
QUEUED_PER_WORKER = 2
# How often (seconds) a caller waiting for Docs checks that its workers live.
LIVENESS_SECONDS = 0.5
# How long (seconds) workers may take to exit once the stream is done.
EXIT_SECONDS = 10.0

_STOP = None  # the sentinel a worker stops at
Batch = Tuple[int, List[Any]]
# (batch index, the pickled [(Doc bytes, context), ...] or None, traceback or None)
Result = Tuple[int, Optional[bytes], Optional[str]]


class WorkerDiedError(RuntimeError):
    """A worker process of nlp.pipe ended before its work was done."""


def pipe_in_processes(
    nlp: Language,
    items: Iterable[Any],
    pipes: Sequence[Callable[[Iterable[Doc]], Iterator[Doc]]],
    n_process: int,
    batch_size: int,
) -> Iterator[Doc]:
    """The Docs of `items` (str or Doc) through `pipes`, in order, made by this
    process and `n_process - 1` forked workers (see the module docstring)."""
    n_workers = max(1, n_process - 1)
    batches = enumerate(util.minibatch(items, batch_size))
    tasks: multiprocessing.Queue = multiprocessing.Queue()
    results: multiprocessing.Queue = multiprocessing.Queue()
    pool = _Pool(nlp, pipes, tasks, results, n_workers)
    ready: Dict[int, List[Doc]] = {}  # finished batches not yet yielded
    queued = 0  # batches handed to the workers and not yet back
    read = 0  # batches read from the stream
    exhausted = False
    wanted = 0  # the batch whose Docs come next
    most_ready = 2 * n_process * QUEUED_PER_WORKER
    finished = False
    try:
        while True:
            while wanted in ready:
                for doc in ready.pop(wanted):
                    yield doc
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
                ready[batch[0]] = pool.run_here([_with_context(item) for item in batch[1]])
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


def _to_worker(item: Any) -> Tuple[Any, Any]:
    """A stream item as it crosses to a worker (a Doc as bytes, as spaCy sends it)."""
    if isinstance(item, Doc):
        return item.to_bytes(), item._context
    return item, None


def _with_context(item: Any) -> Tuple[Any, Any]:
    return item, getattr(item, "_context", None)


def _take(nlp: Language, result: Result, ready: Dict[int, List[Doc]]) -> None:
    """Store a worker's batch as Docs, or hand its error to the error handler."""
    index, payload, error = result
    if error is not None:
        _report(nlp, error)
        ready[index] = []  # the handler let it pass: the batch yields nothing, as in spaCy
        return
    docs = []
    for byte_doc, context in pickle.loads(payload) if payload else ():
        doc = Doc(nlp.vocab).from_bytes(byte_doc)
        doc._context = context
        docs.append(doc)
    ready[index] = docs


def _report(nlp: Language, error: str) -> None:
    nlp.default_error_handler(None, None, None, ValueError(Errors.E871.format(error=error)))


def _process(ensure_doc: Callable, pipes: Sequence[Callable], items: Iterable[Tuple[Any, Any]]) -> List[Doc]:
    docs: Iterable[Doc] = (ensure_doc(doc_like, context) for doc_like, context in items)
    for pipe in pipes:
        docs = pipe(docs)
    return list(docs)


def _work(ensure_doc: Callable, pipes: Sequence[Callable], tasks, results, underscore_state) -> None:
    """A worker: batches from `tasks` until the sentinel, Docs (or a traceback) to `results`."""
    Underscore.load_state(underscore_state)
    while True:
        task = tasks.get()
        if task is _STOP:
            return
        index, items = task
        try:
            docs = _process(ensure_doc, pipes, pickle.loads(items))
            # Pickled here, so a context that does not pickle is reported.
            results.put((index, pickle.dumps([(doc.to_bytes(), doc._context) for doc in docs]), None))
        except Exception:
            results.put((index, None, traceback.format_exc()))


class _Pool:
    """This call's workers, forked on first use, and the caller's own share."""

    def __init__(self, nlp: Language, pipes: Sequence[Callable], tasks, results, n_workers: int) -> None:
        self.nlp, self.pipes, self.tasks, self.results = nlp, pipes, tasks, results
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
                        self.nlp._ensure_doc_with_context,
                        self.pipes,
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

    def run_here(self, items: List[Tuple[Any, Any]]) -> List[Doc]:
        """A batch of (item, context) made in this process, on one thread like
        each worker; a failure reaches the error handler as a worker's would."""
        try:
            with self._threads.limit(limits=1, user_api="blas"), _one_torch_thread():
                return _process(self.nlp._ensure_doc_with_context, self.pipes, items)
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
