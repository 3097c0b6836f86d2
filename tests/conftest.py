from pathlib import Path

import pytest

# The fictional development notes of the project (never trained on).
DEV_CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "dev"


def pytest_addoption(parser):
    parser.addoption("--runslow", action="store_true", default=False, help="run slow tests")


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: trains or runs whole workflows")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--runslow"):
        return
    skip_slow = pytest.mark.skip(reason="slow test: run with --runslow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip_slow)


@pytest.fixture(scope="session")
def dev_corpus_dir() -> Path:
    if not DEV_CORPUS.is_dir():
        pytest.skip(f"development notes not found at {DEV_CORPUS} (../shared/ is absent)")
    return DEV_CORPUS
