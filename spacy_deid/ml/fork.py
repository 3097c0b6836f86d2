"""Forked worker processes run torch on one thread.

`nlp.pipe(n_process=2)` forks its workers. When the parent has already run
torch on several threads, a forked child that enters torch's (OpenMP) thread
pool waits for threads that do not exist in it and hangs on a futex forever.
A child that sets torch to one thread before its first use never touches that
pool, and n workers on one thread each is also what n processes should use.
"""
import os
import sys

_registered = False


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
