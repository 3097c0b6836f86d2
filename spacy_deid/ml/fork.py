"""Forked worker processes run torch on one thread.

`nlp.pipe(n_process=2)` forks its workers. When the parent has already run
torch on several threads, a forked child that enters torch's (OpenMP) thread
pool waits for threads that do not exist in it and hangs on a futex forever.
A child that sets torch to one thread before its first use never touches that
pool, and n workers on one thread each is also what n processes should use.

Also what `pipe_in_processes` (ml/worker_pool.py) does to a stream before its
workers see it: a workload too small to keep every worker busy in whole
batches is cut finer (`batches_for_workers`), and each item is checked in
the caller (`check_pipe_item`).
"""
import math
import os
import re
import sys
from itertools import chain, islice
from typing import Any, Iterable, Iterator, Tuple

from spacy.tokens import Doc

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


# --- items checked before they cross to a worker ------------------------------
#
# A bad item raises at once in the caller, with its position (never its
# content), instead of failing in a worker.


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
