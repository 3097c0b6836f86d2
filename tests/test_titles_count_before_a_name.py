"""Issue 25, twelfth step: a title is evidence of a name only before it. After
a word, "MS" or "MR" is a drug or a finding ("ALLERGIC TO MS": morphine
sulfate; "MILD MR": mitral regurgitation). Positives and negatives; all
strings and names invented."""
import pytest
import spacy

from spacy_deid import labels
from spacy_deid.pipeline.reconciler.steps import BEFORE_ONLY_LISTS


@pytest.fixture(scope="module")
def nlp():
    nlp = spacy.blank("en")
    nlp.add_pipe("deid_lexicon").initialize(
        nlp=nlp, lexicons={"FIRST": ["Rosalind"], "LAST": ["Formby", "Quennell"]}, frequencies={})
    nlp.add_pipe("deid_reconciler", config={"reconcile": False, "propagate": False}).initialize()
    return nlp


def entities(nlp, text, mention, label):
    doc = nlp.make_doc(text)
    start = text.index(mention)
    doc.ents = [doc.char_span(start, start + len(mention), label=label)]
    for component in ("deid_lexicon", "deid_reconciler"):
        doc = nlp.get_pipe(component)(doc)
    return [(e.text, e.label_) for e in doc.ents]


@pytest.mark.parametrize("text, mention, label, left", [
    # a title-like word after the mention is no evidence (a note typed in capitals)
    ("NOTED TO BE ALLERGIC TO MS PER FAMILY.", "ALLERGIC", labels.PATIENT, []),
    ("ECHO SHOWED MODERATE MR AND TR.", "MODERATE", labels.PATIENT, []),
    ("LUNGS COARSE, NEEDS MS FOR PAIN.", "NEEDS", labels.DOCTOR, []),
    # before the mention it still is
    ("SEEN BY DR QUENNELL TODAY.", "QUENNELL", labels.DOCTOR, [("QUENNELL", labels.DOCTOR)]),
    ("MS FORMBY AT BEDSIDE.", "FORMBY", labels.PATIENT, [("FORMBY", labels.PATIENT)]),
    ("MRS ROSALIND QUENNELL CALLED.", "ROSALIND QUENNELL", labels.PATIENT,
     [("ROSALIND QUENNELL", labels.PATIENT)]),
])
def test_a_title_counts_before_a_name_only(nlp, text, mention, label, left):
    assert entities(nlp, text, mention, label) == left


def test_the_before_only_lists_are_the_titles():
    assert BEFORE_ONLY_LISTS == {"title_cues", "name_titles"}
