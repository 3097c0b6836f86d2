from pathlib import Path

import pytest
import spacy

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


@pytest.fixture(scope="session")
def rules_model_dir(tmp_path_factory) -> Path:
    """A saved rules-only pipeline (tokenizer, sections, rules, reconciler): no training."""
    from spacy_deid.tokenizer import blank_deid

    nlp = blank_deid()
    for name in ("deid_sections", "deid_phi_rules", "deid_reconciler"):
        nlp.add_pipe(name)
    nlp.initialize()
    path = tmp_path_factory.mktemp("model") / "rules"
    nlp.to_disk(path)
    return path


# Module scope: each test file gets its own loaded copy, so a test that changes
# the pipeline (max_length, an added pipe) cannot leak into another file.
@pytest.fixture(scope="module")
def rules_nlp(rules_model_dir):
    """The rules-only pipeline, loaded from `rules_model_dir`."""
    return spacy.load(rules_model_dir)


def _reconciler_nlp(lexicons):
    """A blank pipeline: `deid_lexicon` with these lexicons (no word frequencies)
    and `deid_reconciler` with its packaged rules, reconcile and propagate off."""
    nlp = spacy.blank("en")
    nlp.add_pipe("deid_lexicon").initialize(nlp=nlp, lexicons=lexicons, frequencies={})
    nlp.add_pipe("deid_reconciler", config={"reconcile": False, "propagate": False}).initialize()
    return nlp


def _entities_from_one_ner_mention(nlp, text, mention, label):
    """(text, label) of the entities the reconciler leaves when `mention` (its
    first occurrence) comes from the NER as `label`."""
    doc = nlp.make_doc(text)
    start = text.index(mention)
    doc.ents = [doc.char_span(start, start + len(mention), label=label)]
    for component in ("deid_lexicon", "deid_reconciler"):
        doc = nlp.get_pipe(component)(doc)
    return [(e.text, e.label_) for e in doc.ents]


@pytest.fixture(scope="session")
def reconciler_nlp_with():
    """Build a lexicon + reconciler pipeline: `reconciler_nlp_with({"FIRST": [...]})`."""
    return _reconciler_nlp


def _safety_net_nlp(lexicons):
    """A blank pipeline: `deid_sections`, `deid_lexicon` with these small
    lexicons (the packaged ones take long to load; no word frequencies) and
    `deid_safety_net` with its packaged word lists."""
    nlp = spacy.blank("en")
    nlp.add_pipe("deid_sections")
    nlp.add_pipe("deid_lexicon")
    nlp.add_pipe("deid_safety_net")
    with nlp.select_pipes(disable=["deid_lexicon"]):
        nlp.initialize()
    nlp.get_pipe("deid_lexicon").initialize(nlp=nlp, lexicons=lexicons, frequencies={})
    return nlp


@pytest.fixture(scope="session")
def safety_net_nlp_with():
    """Build a sections + lexicon + safety net pipeline: `safety_net_nlp_with({"LAST": [...]})`."""
    return _safety_net_nlp


@pytest.fixture(scope="session")
def entities_from_ner():
    """`entities_from_ner(nlp, text, mention, label)`: the entities left after
    `deid_lexicon` and `deid_reconciler` when the NER found `mention` as `label`."""
    return _entities_from_one_ner_mention
