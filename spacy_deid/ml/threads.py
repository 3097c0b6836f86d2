"""numpy's BLAS on as many threads as there are free cores.

OpenBLAS starts one thread per core and splits each matrix product between
them; a product is done when its slowest part is. When another process holds
a core, the thread that shares it is descheduled and the others spin waiting
for it. Measured on the dev notes (15 notes, one process, numpy's BLAS, a
2-core machine with other jobs running, interleaved rounds in one process):
two BLAS threads took 1.37 times the wall time of one (1.22 to 1.61 over
six rounds) and a third more CPU time.

`fit_blas_threads()` sets the BLAS pools of this process to the number of
cores that are free now: the idle time of the CPUs this process may run on,
sampled over a tenth of a second from /proc/stat (elsewhere: the CPUs less
the load average), at least one thread. The configs do it when the pipeline
is created (`spacy-deid.NumpyMatmul.v3`, `blas_threads = "free"`); a service
whose machine gets busier later can call it again. The thread count
changes the rounding of the products (scores in the 6th decimal, not the
entities on the notes checked): a fixed count repeats exactly.
"""
import os
import time
from pathlib import Path
from typing import List, Optional, Union

from threadpoolctl import ThreadpoolController

FREE = "free"
SAMPLE_SECONDS = 0.1
# A core counts as free when at least this share of it was idle.
FREE_SHARE = 0.9

BlasThreads = Union[int, str]


def usable_cpus() -> List[int]:
    """The CPUs this process may run on (a container or `taskset` may allow fewer)."""
    if hasattr(os, "sched_getaffinity"):
        return sorted(os.sched_getaffinity(0))
    return list(range(os.cpu_count() or 1))


def _cpu_times(cpus: List[int]) -> Optional[dict]:
    """(busy, total) jiffies per CPU from /proc/stat, or None where there is none."""
    stat = Path("/proc/stat")
    if not stat.exists():
        return None
    times = {}
    for line in stat.read_text().splitlines():
        name, _, rest = line.partition(" ")
        if not name.startswith("cpu") or name == "cpu":
            continue
        cpu = int(name[3:])
        if cpu in cpus:
            values = [int(v) for v in rest.split()]
            idle = values[3] + (values[4] if len(values) > 4 else 0)  # idle + iowait
            times[cpu] = (sum(values) - idle, sum(values))
    return times


def free_cores(sample_seconds: float = SAMPLE_SECONDS) -> int:
    """How many of this process's CPUs are free now (see the module docstring); at least 1."""
    cpus = usable_cpus()
    before = _cpu_times(cpus)
    if not before:
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0
        return max(1, len(cpus) - int(load + 1 - FREE_SHARE))
    time.sleep(sample_seconds)
    after = _cpu_times(cpus) or {}
    free = 0
    for cpu, (busy, total) in after.items():
        busy0, total0 = before.get(cpu, (busy, total))
        elapsed = total - total0
        if elapsed > 0 and 1 - (busy - busy0) / elapsed >= FREE_SHARE:
            free += 1
    return max(1, free)


def blas_thread_count(setting: BlasThreads) -> Optional[int]:
    """The thread count a `blas_threads` setting asks for: "free" -> `free_cores()`,
    N >= 1 -> N, 0 -> None (the libraries' own default: a thread per core)."""
    if setting == FREE:
        return free_cores()
    if isinstance(setting, bool) or not isinstance(setting, int) or setting < 0:
        raise ValueError(f'blas_threads must be "free", 0 (the default pools) or a thread count, not {setting!r}')
    return setting or None


def fit_blas_threads(setting: BlasThreads = FREE) -> Optional[int]:
    """Set numpy's BLAS pools of this process to `setting` ("free": the free
    cores now); the thread count set, or None when left as they are (0)."""
    threads = blas_thread_count(setting)
    if threads is not None:
        ThreadpoolController().limit(limits=threads, user_api="blas")
    return threads
