"""Issue 25, eighth step: the words a note calls the patient by ("Pt",
"patient") make a name beside them the patient's, but they are no evidence
that a word near them is a name: nursing notes open sentence after sentence
with "Pt". Positives and negatives; all strings and names invented."""
import pytest

from spacy_deid import labels
from spacy_deid.pipeline.reconciler.rules import make_reconciler_rules
from spacy_deid.pipeline.reconciler.steps import _name_word
from spacy_deid.pipeline.shared_words import role_words


@pytest.fixture(scope="module")
def nlp(reconciler_nlp_with):
    return reconciler_nlp_with({"FIRST": ["Rosalind"], "LAST": ["Brisko", "Formby"]})


@pytest.mark.parametrize("text, mention, label, left", [
    # a charting word after "Pt" or "patient" is dropped as it is elsewhere
    ("Pt tired. Dialyzed overnight.", "Dialyzed", labels.PATIENT, []),
    ("Pt comfortable. Ambulated to chair.", "Ambulated", labels.PATIENT, []),
    ("Patient restless.\nSuctioning done q2h.", "Suctioning", labels.DOCTOR, []),
    ("PT REMAINS SLEEPY. DIALYZED OVERNIGHT.", "DIALYZED", labels.PATIENT, []),
    # a relative's word still keeps the name, a title too
    ("Wife in. Dialyzed overnight.", "Dialyzed", labels.PATIENT, [("Dialyzed", labels.PATIENT)]),
    ("Pt seen by Dr. Formby today.", "Formby", labels.DOCTOR, [("Formby", labels.DOCTOR)]),
    # "Pt" beside a name still makes it the patient's
    ("Pt Rosalind Brisko is resting.", "Rosalind Brisko", labels.DOCTOR,
     [("Rosalind Brisko", labels.PATIENT)]),
    ("Patient Brisko seen today.", "Brisko", labels.DOCTOR, [("Brisko", labels.PATIENT)]),
])
def test_a_patient_word_is_no_evidence_of_a_name(
        nlp, entities_from_ner, text, mention, label, left):
    assert entities_from_ner(nlp, text, mention, label) == left


def test_patient_words_are_their_own_list():
    assert {"patient", "pt"} <= role_words("patient", "reconciler")
    assert not {"patient", "pt"} & role_words("family", "reconciler")
    # a lists file without the list gets it from the role words
    assert {"patient", "pt"} <= set(make_reconciler_rules()["lists"]["patient_cues"])


@pytest.mark.parametrize("word", ["Pt", "Patient"])
def test_a_patient_word_is_never_part_of_a_name(nlp, word):
    rules = nlp.get_pipe("deid_reconciler").ruleset
    assert not _name_word(nlp.make_doc(f"{word} Brisko")[0], rules)
