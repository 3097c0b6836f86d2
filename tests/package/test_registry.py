"""Every registered function and factory is declared in setup.cfg, and every
entry point declared there resolves to the registered object (both ways)."""
import configparser
import importlib
import pkgutil
import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

import catalogue
import pytest
import spacy
from spacy.language import Language

import spacy_deid

SETUP_CFG = Path(__file__).resolve().parents[2] / "setup.cfg"
# setup.cfg entry point group -> spaCy registry (catalogue namespace) it fills
SPACY_GROUPS = {
    "spacy_factories": "internal_factories",
    "spacy_readers": "readers",
    "spacy_misc": "misc",
    "spacy_scorers": "scorers",
    "spacy_augmenters": "augmenters",
    "spacy_tokenizers": "tokenizers",
    "spacy_architectures": "architectures",
    "spacy_callbacks": "callbacks",
}


def setup_cfg_entry_points():
    """(group, name, "module:attr") of every spaCy entry point in the repository's setup.cfg
    (read from the file: the installed metadata may be older than the checkout)."""
    parser = configparser.ConfigParser()
    parser.read(SETUP_CFG, encoding="utf-8")
    section = parser["options.entry_points"]
    found = []
    for group in SPACY_GROUPS:
        for line in section.get(group, "").splitlines():
            line = line.split("#")[0].strip()
            if line:
                name, value = (part.strip() for part in line.split("=", 1))
                found.append((group, name, value))
    return found


def registered_in_code():
    """(registry, name) of every spacy-deid function and deid_* factory the code
    registers, after importing every module of the package."""
    for module in pkgutil.walk_packages(spacy_deid.__path__, "spacy_deid."):
        importlib.import_module(module.name)
    names = set()
    for key, func in catalogue.REGISTRY.items():
        if key[0] != "spacy" or len(key) != 3:
            continue
        if getattr(func, "__module__", "").startswith("spacy_deid"):
            names.add((key[1], key[2]))
    return names


DECLARED = setup_cfg_entry_points()


def test_setup_cfg_declares_the_components_and_the_reader():
    declared = {(group, name) for group, name, _ in DECLARED}
    assert ("spacy_readers", "spacy-deid.I2b2Corpus.v1") in declared
    assert ("spacy_misc", "spacy-deid.JobHeadNouns.v1") in declared
    factories = {name for group, name in declared if group == "spacy_factories"}
    assert factories == {
        "deid_sections", "deid_lexicon", "deid_ontonotes", "deid_phi_rules", "deid_reconciler",
        "deid_ner_scores", "deid_safety_net", "deid_confidence", "deid_release",
        "deid_windowed_tok2vec", "deid_source_proposals",
    }


def test_everything_the_code_registers_is_declared_in_setup_cfg():
    by_registry = {(SPACY_GROUPS[group], name) for group, name, _ in DECLARED}
    missing = sorted(registered_in_code() - by_registry)
    assert not missing, f"registered but not in setup.cfg [options.entry_points]: {missing}"


@pytest.mark.parametrize("group,name,value", DECLARED)
def test_every_declared_entry_point_is_the_registered_object(group, name, value):
    module, attr = value.split(":")
    obj = getattr(importlib.import_module(module), attr)
    if group == "spacy_factories":
        assert name.startswith("deid_")
        assert spacy.registry.factories.get(name) is obj
        assert Language.get_factory_meta(name).factory == name
    else:
        assert name.startswith("spacy-deid.")
        assert spacy.registry.get(SPACY_GROUPS[group], name) is obj


def installed():
    eps = entry_points()
    return [
        (group, ep.name, ep.value)
        for group in SPACY_GROUPS
        for ep in eps.select(group=group)
        if ep.value.startswith("spacy_deid")
    ]


@pytest.mark.parametrize("group,name,value", installed())
def test_installed_entry_point_is_the_registered_object(group, name, value):
    """The installed metadata (the wheel's, in CI) names the object the code registers."""
    (entry_point,) = [ep for ep in entry_points().select(group=group) if ep.name == name]
    obj = entry_point.load()
    if group == "spacy_factories":
        assert spacy.registry.factories.get(name) is obj
    else:
        assert spacy.registry.get(SPACY_GROUPS[group], name) is obj


def first_installed_per_group():
    """One installed entry point of each group: a fresh interpreter that resolves
    any name imports the package, which registers all the others too."""
    firsts = {}
    for group, name, value in installed():
        firsts.setdefault(group, (group, name, value))
    return list(firsts.values())


@pytest.mark.parametrize("group,name,value", first_installed_per_group())
def test_installed_entry_point_resolves_in_a_fresh_process(group, name, value):
    """spaCy finds the name through the entry point alone (a new interpreter, no import)."""
    if group == "spacy_factories":
        check = f"import spacy; nlp = spacy.blank('en'); assert nlp.has_factory({name!r})"
    else:
        check = f"import spacy; spacy.registry.{SPACY_GROUPS[group]}.get({name!r})"
    check += "; import sys; assert 'spacy_deid' in sys.modules"
    result = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-2000:]


def test_console_script_is_declared():
    scripts = {ep.name: ep.value for ep in entry_points().select(group="console_scripts")}
    assert scripts.get("spacy-deid") == "spacy_deid.cli:main"
