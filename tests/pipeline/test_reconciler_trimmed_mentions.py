"""Issue 25, fourteenth step: a mention that span completion cut short gets the
correct rules once more, and one common word at a sentence start is no
organisation ("Comfort and reassurance offered" -> "Comfort" -> dropped).
Positives and negatives; all strings and names invented."""
import pytest

from spacy_deid import labels


@pytest.fixture(scope="module")
def nlp(reconciler_nlp_with):
    return reconciler_nlp_with({"CITY": ["Comfort", "Haven"], "FIRST": ["Mercy"]})


@pytest.mark.parametrize("text, mention, label, left", [
    # cut to one common word at a sentence start by trim_lowercase, then dropped
    ("Heparin running. Comfort and reassurance offered to family.",
     "Comfort and reassurance", labels.ORGANIZATION, []),
    ("Plan discussed. Support and teaching offered to wife.",
     "Support and teaching", labels.DEPARTMENT, []),
    ("Vitals stable.\nComfort measures discussed with team.", "Comfort", labels.ORGANIZATION, []),
    # names of more words, hospitals, words after a move stay
    ("Seen at Harbor Clinic today.", "Harbor Clinic", labels.ORGANIZATION,
     [("Harbor Clinic", labels.ORGANIZATION)]),
    ("Vitals stable. Comfort Keepers aide visits daily.", "Comfort Keepers", labels.ORGANIZATION,
     [("Comfort Keepers", labels.ORGANIZATION)]),
    ("Bed search ongoing. Mercy called back today.", "Mercy", labels.HOSPITAL,
     [("Mercy", labels.HOSPITAL)]),
    ("Plan to be transferred to Haven tomorrow.", "Haven", labels.ORGANIZATION,
     [("Haven", labels.HOSPITAL)]),
])
def test_a_trimmed_mention_is_judged_again(
        nlp, entities_from_ner, text, mention, label, left):
    assert entities_from_ner(nlp, text, mention, label) == left
