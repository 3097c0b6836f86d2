"""scripts/bench/benchmark.py: peers run on the same spaCy release as the pipelines; rounds
interleave the systems and the loads; the busy load starts and ends with the benchmark."""
import os
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

import benchmark


@pytest.mark.parametrize(
    "package,expected",
    [("spacy", True), ("srsly", True), ("no-such-package-for-deid-tests", False)],
)
def test_installed_version_reads_the_environment(package, expected):
    found = benchmark.installed_version(Path(sys.executable), package)
    assert (found is not None) == expected
    if package == "spacy":
        import spacy

        assert found == spacy.about.__version__


def fake_peer_env(tmp_path: Path, peer: str) -> Path:
    # A peer environment whose Python is this one: its spaCy is ours.
    python = tmp_path / peer / "bin" / "python"
    python.parent.mkdir(parents=True)
    # a wrapper, not a symlink: a symlinked venv Python loses its site-packages
    python.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n')
    python.chmod(0o755)
    return python


def test_peer_on_another_spacy_release_is_refused_without_install(tmp_path):
    fake_peer_env(tmp_path, benchmark.PRESIDIO)
    with pytest.raises(SystemExit, match="not 0.0.1"):
        benchmark.peer_python(tmp_path, benchmark.PRESIDIO, install=False, spacy_pin="0.0.1")


@pytest.mark.parametrize("pin", [None, "ours"])
def test_peer_on_the_pinned_release_is_used_as_it_is(tmp_path, pin):
    import spacy

    python = fake_peer_env(tmp_path, benchmark.PHILTER)
    spacy_pin = spacy.about.__version__ if pin == "ours" else None
    found = benchmark.peer_python(tmp_path, benchmark.PHILTER, install=False, spacy_pin=spacy_pin)
    assert found == python


def test_missing_peer_without_install_says_how(tmp_path):
    with pytest.raises(SystemExit, match="--install-peers"):
        benchmark.peer_python(tmp_path, benchmark.PRESIDIO, install=False, spacy_pin=None)


def test_report_names_the_spacy_release_of_each_system():
    report = {
        "machine": {"cpus": 2, "processor": "x86_64", "python": "3.11", "load_average_before": []},
        "passes": 3,
        "spacy_versions": {"default": "3.8.7", benchmark.PEER_LABELS["presidio"]: "3.8.7"},
        "runs": [],
    }
    text = benchmark.markdown(report)
    assert "spaCy release per system: default 3.8.7, Presidio" in text
    del report["spacy_versions"]
    assert "spaCy release per system" not in benchmark.markdown(report)


def run_row(kind, system, n_process, round_number, words_per_second, status="ok"):
    return {"kind": kind, "system": system, "workload": "dev", "words": 1000,
            "n_process": n_process, "round": round_number, "status": status,
            "words_per_second": words_per_second}


@pytest.mark.parametrize(
    "rows,expected",
    [
        # each round against the peer's own round, the median over rounds
        ([run_row("pipeline", "ours", 2, 1, 300.0), run_row("presidio", "P", 2, 1, 200.0),
          run_row("pipeline", "ours", 2, 2, 100.0), run_row("presidio", "P", 2, 2, 200.0),
          run_row("pipeline", "ours", 2, 3, 400.0), run_row("presidio", "P", 2, 3, 200.0)],
         [("ours", "P", 2, [1.5, 0.5, 2.0], 1.5)]),
        # another process count is another pair; peers are never divided by each other
        ([run_row("pipeline", "ours", 1, 1, 150.0), run_row("presidio", "P", 1, 1, 100.0),
          run_row("pipeline", "ours", 2, 1, 300.0), run_row("presidio", "P", 2, 1, 100.0),
          run_row("philter", "F", 2, 1, 50.0)],
         [("ours", "P", 1, [1.5], 1.5), ("ours", "P", 2, [3.0], 3.0), ("ours", "F", 2, [6.0], 6.0)]),
        # a failed or timed-out measurement gives no ratio for its round
        ([run_row("pipeline", "ours", 2, 1, 300.0), run_row("philter", "F", 2, 1, 0, "timed out"),
          run_row("pipeline", "ours", 2, 2, 300.0), run_row("philter", "F", 2, 2, 100.0)],
         [("ours", "F", 2, [3.0], 3.0)]),
        # no peer: no ratio
        ([run_row("pipeline", "ours", 2, 1, 300.0)], []),
    ],
)
def test_peer_ratios_pair_each_round_with_the_same_round(rows, expected):
    found = [(r["system"], r["peer"], r["n_process"], r["ratios"], r["median"])
             for r in benchmark.peer_ratios(rows)]
    assert sorted(found) == sorted(expected)


def test_report_with_rounds_shows_each_round_and_the_median_ratio():
    report = {
        "machine": {"cpus": 2, "processor": "x86_64", "python": "3.11", "load_average_before": []},
        "passes": 3,
        "rounds": 2,
        "runs": [run_row("pipeline", "ours", 2, 1, 300.0), run_row("presidio", "P", 2, 1, 200.0),
                 run_row("pipeline", "ours", 2, 2, 360.0), run_row("presidio", "P", 2, 2, 200.0)],
    }
    text = benchmark.markdown(report)
    assert "2 rounds, every system measured in turn" in text
    assert "| 2 (round 2) |" in text
    assert "| ours | P | dev | 2 | idle | 1.50, 1.80 | 1.65 | 1.50-1.80 |" in text
    assert "| ours | dev | 2 | idle | 330 (300-360) |" in text


def test_rounds_interleave_the_systems(tmp_path, monkeypatch):
    measured = []

    def fake_measure(python, job, work, timeout, env):
        measured.append((job["kind"], job["n_process"], job["components"]))
        return {"status": "ok", "pass_seconds": [1.0], "pass_cpu_seconds": [1.0], "tokens": 0}

    monkeypatch.setattr(benchmark, "measure", fake_measure)
    monkeypatch.setattr(benchmark, "peer_python", lambda *args: Path(sys.executable))
    benchmark.main(["some-pipeline", "--notes", "dev", "--processes", "1", "2", "--rounds", "2",
                    "--peers", "presidio", "--output", str(tmp_path)])
    one_round = [("pipeline", 1), ("pipeline", 2), ("presidio", 1), ("presidio", 2)]
    assert [(kind, n) for kind, n, _ in measured] == one_round * 2
    # the component-by-component pass only in the first round
    assert [c for kind, n, c in measured if kind == "pipeline"] == [True, True, False, False]
    report = (tmp_path / "benchmark.json").read_text()
    assert '"rounds": 2' in report


def test_loads_alternate_round_by_round_and_the_busy_loop_runs_only_under_busy(tmp_path, monkeypatch):
    measured = []
    started = []

    class FakeLoad:
        def __enter__(self):
            started.append("start")
            return self

        def __exit__(self, *exc):
            started.append("stop")

    def fake_measure(python, job, work, timeout, env):
        measured.append((job["kind"], started[-1:] == ["start"]))
        return {"status": "ok", "pass_seconds": [1.0], "pass_cpu_seconds": [1.0], "tokens": 0}

    monkeypatch.setattr(benchmark, "measure", fake_measure)
    monkeypatch.setattr(benchmark, "BusyLoad", FakeLoad)
    monkeypatch.setattr(benchmark, "peer_python", lambda *args: Path(sys.executable))
    benchmark.main(["some-pipeline", "--notes", "dev", "--processes", "1", "--rounds", "2",
                    "--loads", "idle", "busy", "--peers", "presidio", "--output", str(tmp_path)])
    # round 1: idle then busy; round 2: busy then idle; both systems under each
    busy = [b for _, b in measured]
    assert busy == [False, False, True, True, True, True, False, False]
    assert started == ["start", "stop", "start", "stop"]
    import json

    report = json.loads((tmp_path / "benchmark.json").read_text())
    assert {row["load"] for row in report["runs"]} == {"idle", "busy"}
    assert {(r["load"], r["median"]) for r in report["ratios"]} == {("idle", 1.0), ("busy", 1.0)}


def spinning_cpu(pid):
    return os.sched_getaffinity(pid)


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="CPU affinity is Linux-only")
def test_the_busy_load_starts_pinned_and_stops():
    load = benchmark.BusyLoad()
    assert not load.running
    load.start()
    try:
        assert load.running
        deadline = time.monotonic() + 30
        while spinning_cpu(load.process.pid) != {load.cpu} and time.monotonic() < deadline:
            time.sleep(0.05)  # the child pins itself once started
        assert spinning_cpu(load.process.pid) == {load.cpu}
        assert load.cpu == max(os.sched_getaffinity(0))
        process = load.process
    finally:
        load.stop()
    assert not load.running and not process.is_alive()
    load.stop()  # stopping twice is harmless


def test_the_busy_load_stops_when_its_block_fails():
    with pytest.raises(RuntimeError):
        with benchmark.BusyLoad() as load:
            process = load.process
            assert process.is_alive()
            raise RuntimeError("a measurement failed")
    assert not process.is_alive() and not load.running
