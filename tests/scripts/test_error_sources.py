"""error_sources.py counts redacted units per source in a set's scheme (invented text)."""
import pytest

from spacy_deid.evaluation.schemes import get_scheme

import error_sources

TEXT = "Seen Monday by Dr Abel Quennell, age 45, at Okeby Hospital with Rosalind."
GOLD = [(TEXT.index("Abel"), TEXT.index(","), "DOCTOR"),
        (TEXT.index("Rosalind"), TEXT.index("Rosalind") + 8, "PATIENT")]
ENTITIES = [
    (TEXT.index("Monday"), TEXT.index("Monday") + 6, "DATE", "rule:date-weekday"),
    (TEXT.index("Dr"), TEXT.index(","), "DOCTOR", "ner|complete:trim_title"),
    (TEXT.index("45"), TEXT.index("45") + 2, "AGE", "rule:age-is"),
    (TEXT.index("Okeby"), TEXT.index(" with"), "HOSPITAL", ""),
]


@pytest.mark.parametrize("scheme, phi, other, missed", [
    # weekday names and ages under 90 are left out of the corpus's view; names
    # and places are scored word by word
    ("physionet", {("DOCTOR", "ner", "several"): 2},
     {("DOCTOR", "ner", "several"): 1, ("HOSPITAL", "unknown", "several"): 2}, 1),
    ("i2b2-2014", {("DOCTOR", "ner", "several"): 2},
     {("DOCTOR", "ner", "several"): 1, ("DATE", "rule:date-weekday", "one"): 1,
      ("AGE", "rule:age-is", "one"): 1, ("HOSPITAL", "unknown", "several"): 2}, 1),
])
def test_units_count_under_their_source_in_the_scheme(scheme, phi, other, missed):
    got_phi, got_other, got_missed = error_sources.count_note(TEXT, GOLD, ENTITIES, get_scheme(scheme))
    assert dict(got_phi) == phi
    assert dict(got_other) == other
    assert got_missed == missed


@pytest.mark.parametrize("trail, source", [
    ("ner|complete:inner_word", "ner"), ("rule:ward-number", "rule:ward-number"),
    ("safety_net:call_out", "safety_net:call_out"), ("", "unknown"),
])
def test_source_is_the_first_step_of_the_trail(trail, source):
    assert error_sources.source_of(trail) == source


def test_render_prints_counts_and_ids_only():
    result = {"notes": 1, "scheme": "physionet", "missed": 1, "phi": 2, "other": 3,
              "rows": [{"label": "DOCTOR", "source": "ner", "words": "several", "phi": 2, "other": 1}]}
    text = error_sources.render("sealed", result, top=5)
    assert "| DOCTOR | ner | several | 2 | 1 |" in text
    assert "Quennell" not in text
