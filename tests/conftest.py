from pathlib import Path

import pytest

from spacy_deid.dev_notes import DEV_NOTES_DIR


def pytest_addoption(parser):
    parser.addoption("--runslow", action="store_true", default=False, help="run slow tests")


# The markers (slow, ...) are declared once, in pyproject.toml.
def pytest_collection_modifyitems(config, items):
    if config.getoption("--runslow"):
        return
    skip_slow = pytest.mark.skip(reason="slow test: run with --runslow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip_slow)


@pytest.fixture(scope="session")
def dev_corpus_dir() -> Path:
    """The fictional development notes the package ships (measuring only, never trained on)."""
    assert DEV_NOTES_DIR.is_dir() and any(DEV_NOTES_DIR.glob("*.xml")), DEV_NOTES_DIR
    return DEV_NOTES_DIR
