"""numpy's BLAS sized to the free cores (spacy_deid/ml/threads.py): a CPU that
another process keeps busy is not counted, at least one thread is left, and
a fixed setting is taken as it is."""
import pytest
from threadpoolctl import ThreadpoolController

from spacy_deid.ml import threads

# (CPUs usable, /proc/stat (busy, total) per CPU before and after, free cores)
SAMPLES = [
    ([0, 1], {0: (0, 0), 1: (0, 0)}, {0: (1, 100), 1: (2, 100)}, 2),  # both idle
    ([0, 1], {0: (0, 0), 1: (0, 0)}, {0: (1, 100), 1: (100, 100)}, 1),  # CPU 1 busy
    ([0, 1], {0: (0, 0), 1: (0, 0)}, {0: (60, 100), 1: (100, 100)}, 1),  # both busy: still one
    ([0, 1], {0: (0, 0), 1: (0, 0)}, {0: (20, 100), 1: (5, 100)}, 1),  # CPU 0 a fifth busy
    ([1], {1: (0, 0)}, {1: (0, 100)}, 1),  # taskset to one CPU
    ([0, 1, 2, 3], {c: (0, 0) for c in range(4)}, {0: (0, 10), 1: (10, 10), 2: (0, 10), 3: (0, 10)}, 3),
]


@pytest.mark.parametrize("cpus,before,after,expected", SAMPLES)
def test_free_cores_counts_the_idle_cpus(monkeypatch, cpus, before, after, expected):
    samples = iter([before, after])
    monkeypatch.setattr(threads, "usable_cpus", lambda: cpus)
    monkeypatch.setattr(threads, "_cpu_times", lambda cpus: next(samples))
    assert threads.free_cores(sample_seconds=0) == expected


def test_free_cores_reads_this_machine():
    assert 1 <= threads.free_cores(sample_seconds=0.01) <= len(threads.usable_cpus())


# (setting, thread count asked for; "free" is replaced by a fixed free_cores)
SETTINGS = [("free", 3), (1, 1), (4, 4), (0, None)]


@pytest.mark.parametrize("setting,expected", SETTINGS)
def test_blas_thread_count(monkeypatch, setting, expected):
    monkeypatch.setattr(threads, "free_cores", lambda: 3)
    assert threads.blas_thread_count(setting) == expected


@pytest.mark.parametrize("bad", [-1, "all", "FREE", 2.0, None, True])
def test_a_bad_setting_is_refused(bad):
    with pytest.raises(ValueError, match="blas_threads"):
        threads.blas_thread_count(bad)


@pytest.mark.parametrize("setting,expected", [(1, {1}), (2, {2})])
def test_fit_blas_threads_sets_the_pools(setting, expected):
    controller = ThreadpoolController()
    if not controller.select(user_api="blas").lib_controllers:
        pytest.skip("no BLAS pool loaded")
    with controller.limit(limits=3, user_api="blas"):
        assert threads.fit_blas_threads(setting) == setting
        sizes = {pool.num_threads for pool in ThreadpoolController().select(user_api="blas").lib_controllers}
        assert sizes == expected
