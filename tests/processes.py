"""Helpers for tests that run worker processes: a bound on a hung pipe, and a process's children."""
import contextlib
import multiprocessing
import signal
from pathlib import Path
from typing import Iterator, List


@contextlib.contextmanager
def alarm_after(seconds: int) -> Iterator[None]:
    """Raise TimeoutError in the test if it runs past `seconds` (a hung nlp.pipe); then kill
    the workers it left."""

    def hung(signum, frame):
        raise TimeoutError("nlp.pipe hung")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
        for child in multiprocessing.active_children():
            child.kill()


def children_of(pid: int) -> List[int]:
    """The ids of the processes whose parent is `pid` (read from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found
