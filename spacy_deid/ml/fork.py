"""Forked worker processes run torch on one thread.

`nlp.pipe(n_process=2)` forks its workers. When the parent has already run
torch on several threads, a forked child that enters torch's (OpenMP) thread
pool waits for threads that do not exist in it and hangs on a futex forever.
A child that sets torch to one thread before its first use never touches that
pool, and n workers on one thread each is also what n processes should use.

The package's tokenizer also wraps the pipeline's multiprocessing pipe: a
workload too small to keep every worker busy in whole batches is cut finer
(`batches_for_workers`), and a pipe that fails ends its workers instead of
hanging.
"""
import math
import multiprocessing
import os
import re
import sys
from itertools import chain, islice
from typing import Any, Callable, Iterable, Iterator, Tuple

from spacy.language import Language
from spacy.tokens import Doc
from threadpoolctl import threadpool_limits

from .msgpack_codecs import cache_msgpack_codecs

_registered = False
# A small workload is cut into about this many batches per worker process.
BATCHES_PER_WORKER = 4


def _one_torch_thread() -> None:
    torch = sys.modules.get("torch")  # only where the parent already loaded it
    if torch is not None:
        torch.set_num_threads(1)


def use_one_torch_thread_after_fork() -> None:
    """Make every child forked from now on run torch on one thread (idempotent)."""
    global _registered
    if not _registered and hasattr(os, "register_at_fork"):
        os.register_at_fork(after_in_child=_one_torch_thread)
        _registered = True


# --- batches that keep every worker busy ---------------------------------------


def batches_for_workers(
    stream: Iterable[Any], n_process: int, batch_size: int, per_worker: int = BATCHES_PER_WORKER
) -> Tuple[Iterator[Any], int]:
    """(the same stream, a batch size) for `nlp.pipe(..., n_process=n_process)`.

    spaCy hands whole batches to the workers in turn, so 15 notes in batches
    of 32 go to one worker and the others idle. When the stream holds fewer
    than two rounds of batches (read ahead to find out; only those items are
    held), the batch shrinks so that each worker gets about `per_worker`
    batches: notes of unequal length then even out across the workers. A
    longer stream keeps `batch_size`."""
    if n_process <= 1:
        return iter(stream), batch_size
    stream = iter(stream)
    head = list(islice(stream, 2 * n_process * batch_size))
    if len(head) < 2 * n_process * batch_size:
        batch_size = max(1, min(batch_size, math.ceil(len(head) / (n_process * per_worker))))
    return chain(head, stream), batch_size


# --- nlp.pipe(n_process=...) that fails must end, not hang --------------------
#
# spaCy 3.8's `Language._multiprocessing_pipe` joins its workers in a
# `finally` once the parent stops reading (an error reported by a worker, a bad
# item, a consumer that breaks out of the loop, SIGTERM). A worker that is then
# sending a batch of Docs larger than the pipe buffer waits for a reader for
# good: every worker inherited every channel's read end at fork, so closing the
# parent's copy never breaks its pipe. The join, and the pipe() call, hang.
# The wrapper below ends this call's workers before spaCy joins them, and
# checks each item in the parent before it is sent, so a bad item raises at
# once with its position (never its content).


class PipeInputError(ValueError):
    """An item of nlp.pipe that no pipeline can process (named by position and kind)."""


def check_pipe_item(index: int, item: Any) -> Any:
    """`item` if a pipeline can take it: a Doc (or its bytes), or a str that is valid Unicode
    text (a lone surrogate such as "\\ud800" cannot be tokenized or written)."""
    if isinstance(item, (Doc, bytes)):  # bytes: a serialized Doc, as spaCy takes it
        return item
    if not isinstance(item, str):
        raise PipeInputError(
            f"nlp.pipe: item {index} is {type(item).__name__}, not a str or Doc"
        )
    surrogate = _LONE_SURROGATE.search(item)
    if surrogate is not None:
        raise PipeInputError(
            f"nlp.pipe: item {index} holds a lone surrogate code point (half a UTF-16 "
            f"pair) at character {surrogate.start()}: decode the note correctly first"
        )
    return item


# Python str never holds a valid pair as two code points, so any surrogate is lone.
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def end_workers_when_pipe_fails(nlp: Language) -> None:
    """Make `nlp.pipe(..., n_process>1)` raise instead of hang when it stops
    early (idempotent; only this pipeline object is changed, and it still
    pickles, as spawned workers need)."""
    if not isinstance(nlp.__dict__.get("_multiprocessing_pipe"), _PipeEndingWorkers):
        nlp._multiprocessing_pipe = _PipeEndingWorkers(nlp)


_NO_DOC = object()


class _PipeEndingWorkers:
    """Stands in for `nlp._multiprocessing_pipe` (a class, not a closure, so
    the pipeline still pickles)."""

    def __init__(self, nlp: Language) -> None:
        self.nlp = nlp

    def __call__(self, texts, pipes, n_process: int, batch_size: int) -> Iterator[Doc]:
        nlp = self.nlp
        # Every Doc crosses the pipe as bytes, a dozen msgpack calls each: look
        # their codecs up once (here, so the forked workers inherit it too).
        cache_msgpack_codecs()
        texts, batch_size = batches_for_workers(texts, n_process, batch_size)
        end_workers = _EndNewWorkers()
        checked = (check_pipe_item(i, item) for i, item in enumerate(texts))
        handler = nlp.default_error_handler
        docs = Language._multiprocessing_pipe(
            nlp, _ending_on_error(checked, end_workers), pipes, n_process, batch_size
        )
        nlp.default_error_handler = _EndWorkersThenHandle(handler, end_workers)
        try:
            # spaCy forks its workers when asked for the first Doc: fork them
            # with the BLAS pools at one thread, as each worker runs them, so
            # no worker starts the parent's pool again (ml/matmul.py).
            with threadpool_limits(limits=1, user_api="blas"):
                first = next(docs, _NO_DOC)
            if first is _NO_DOC:
                return
            yield first
            for doc in docs:
                yield doc
        except BaseException:  # GeneratorExit (the caller stopped), SystemExit, errors
            end_workers()
            raise
        finally:
            nlp.default_error_handler = handler
            docs.close()


class _EndNewWorkers:
    """Terminates the child processes started after it was made (this call's workers)."""

    def __init__(self) -> None:
        self.before = {child.pid for child in multiprocessing.active_children()}

    def __call__(self) -> None:
        for child in multiprocessing.active_children():
            if child.pid not in self.before:
                child.terminate()


class _EndWorkersThenHandle:
    """The pipeline's error handler, ending the workers first when it raises."""

    def __init__(self, handler: Callable, end_workers: Callable[[], None]) -> None:
        self.handler, self.end_workers = handler, end_workers

    def __call__(self, name, component, docs, error):
        try:
            return self.handler(name, component, docs, error)
        except BaseException:
            self.end_workers()
            raise


def _ending_on_error(items: Iterable, end_workers: Callable[[], None]) -> Iterator:
    """`items`, ending the workers first when reading the next one raises."""
    iterator = iter(items)
    while True:
        try:
            item = next(iterator)
        except StopIteration:
            return
        except BaseException:
            end_workers()
            raise
        yield item
