"""Issue 25, ninth step: the rules that say whose name a mention is (the
patient's after "pt" or a relative's word, a doctor's after a title) come
after the rules that ask whether it is a name at all. A role rule that fires
first settles the mention, and charting words beside "pt" stayed a name.
Positives and negatives; all strings and names invented."""
import json

import pytest

from spacy_deid import labels
from spacy_deid.pipeline.reconciler.rules import DEFAULT_RULES_PATH

ROLE_RULES = (
    "doctor_patient_attribute", "doctor_contact_attribute", "patient_title_before",
    "patient_credential_after", "patient_clinician_role", "doctor_family_role",
)


@pytest.fixture(scope="module")
def nlp(reconciler_nlp_with):
    return reconciler_nlp_with({"FIRST": ["Rosalind"], "LAST": ["Brisko", "Formby"]})


@pytest.mark.parametrize("text, mention, label, left", [
    # charting words right after "pt", which a role rule gave to the patient
    ("Weaning slowly, pt now on PS12 PEEP8.", "PS12 PEEP8", labels.DOCTOR, []),
    ("PT ON CPAP5 PS10 SINCE NOON.", "CPAP5 PS10", labels.DOCTOR, []),
    ("Pt on PS15 PEEP5 overnight.", "PS15 PEEP5", labels.DOCTOR, []),
    # names beside the same words keep their role
    ("Pt Rosalind Brisko resting comfortably.", "Rosalind Brisko", labels.DOCTOR,
     [("Rosalind Brisko", labels.PATIENT)]),
    ("Husband Rosalind at bedside.", "Rosalind", labels.DOCTOR, [("Rosalind", labels.PATIENT)]),
    ("Seen by Dr. Formby this am.", "Formby", labels.PATIENT, [("Formby", labels.DOCTOR)]),
])
def test_charting_words_are_dropped_before_a_role_decides(
        nlp, entities_from_ner, text, mention, label, left):
    assert entities_from_ner(nlp, text, mention, label) == left


def test_role_rules_come_after_every_correct_rule_that_drops():
    rules = [json.loads(line) for line in DEFAULT_RULES_PATH.read_text(encoding="utf-8").splitlines()
             if line.strip()]
    correct = [r for r in rules if r["step"] == "correct"]
    position = {r["id"]: i for i, r in enumerate(correct)}
    first_role = min(position[rule_id] for rule_id in ROLE_RULES)
    person_drops = [r["id"] for r in correct
                    if r.get("relabel") is None and {labels.PATIENT, labels.DOCTOR} & set(r["labels"])]
    assert person_drops
    assert all(position[rule_id] < first_role for rule_id in person_drops)
