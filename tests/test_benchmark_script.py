"""scripts/benchmark.py: peers run on the same spaCy release as the pipelines."""
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "scripts"))

import benchmark  # noqa: E402


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
