"""Every entry point declared in setup.cfg resolves, without importing spacy_deid first."""
import subprocess
import sys
from importlib.metadata import entry_points

import pytest

SPACY_GROUPS = {
    "spacy_factories": None,
    "spacy_readers": "readers",
    "spacy_misc": "misc",
    "spacy_scorers": "scorers",
    "spacy_augmenters": "augmenters",
    "spacy_tokenizers": "tokenizers",
    "spacy_architectures": "architectures",
    "spacy_callbacks": "callbacks",
}


def declared():
    eps = entry_points()
    return [
        (group, ep.name, ep.value)
        for group in SPACY_GROUPS
        for ep in eps.select(group=group)
        if ep.value.startswith("spacy_deid")
    ]


def test_reader_entry_point_is_declared():
    assert ("spacy_readers", "spacy-deid.I2b2Corpus.v1") in {(g, n) for g, n, _ in declared()}


@pytest.mark.parametrize("group,name,value", declared())
def test_entry_point_resolves_in_a_fresh_process(group, name, value):
    """spaCy finds the name through the entry point alone (a new interpreter, no import)."""
    if group == "spacy_factories":
        check = f"import spacy; nlp = spacy.blank('en'); assert nlp.has_factory({name!r}) or {name!r} in spacy.registry.factories"
    else:
        check = f"import spacy; spacy.registry.{SPACY_GROUPS[group]}.get({name!r})"
    result = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-2000:]
    assert name.startswith("spacy-deid.") or group == "spacy_factories"


def test_console_script_is_declared():
    scripts = {ep.name: ep.value for ep in entry_points().select(group="console_scripts")}
    assert scripts.get("spacy-deid") == "spacy_deid.cli:main"
