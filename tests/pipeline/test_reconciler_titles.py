"""Issue 25, twelfth step: a title is evidence of a name only before it. After
a word, "MS" or "MR" is a drug or a finding ("ALLERGIC TO MS": morphine
sulfate; "MILD MR": mitral regurgitation). Positives and negatives; all
strings and names invented."""
import pytest

from spacy_deid import labels
from spacy_deid.pipeline.reconciler.steps import BEFORE_ONLY_LISTS


@pytest.fixture(scope="module")
def nlp(reconciler_nlp_with):
    return reconciler_nlp_with({"FIRST": ["Rosalind"], "LAST": ["Formby", "Quennell"]})


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
def test_a_title_counts_before_a_name_only(
        nlp, entities_from_ner, text, mention, label, left):
    assert entities_from_ner(nlp, text, mention, label) == left


def test_the_before_only_lists_are_the_titles():
    assert BEFORE_ONLY_LISTS == {"title_cues", "name_titles"}
