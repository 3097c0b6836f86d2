"""Issue 25, forty-ninth step: evidence for a name that does not depend on
the NER, where every seed's NER missed some. Two one-case words before a
word of telling or coming ("ABEL THORNE AWARE") are a clinician's name when
name lists know them; a word before "campus" is a hospital's. Positives and
negatives; all strings and names invented."""
import pytest

from spacy_deid import labels
from test_reconciler_charting_runs import entities, rules_pipeline
from test_reconciler_name_cues import texts_of


@pytest.fixture(scope="module")
def nlp():
    # "Will", "May" first names and "Be" a surname that are everyday words too
    return rules_pipeline({"FIRST": ["Abel", "Rosalind", "Will", "May"],
                           "LAST": ["Thorne", "Formby", "Be", "Okeby"]})


@pytest.mark.parametrize("text, names", [
    # a first name and a name in capitals or lower case, before a told word
    ("K 3.2 AT 0400. ABEL THORNE AWARE, KCL ORDERED.", ["ABEL THORNE"]),
    ("k 3.1 repleted, rosalind formby notified.", ["rosalind formby"]),
    ("SATS DOWN TO 88%, ABEL FORMBY CALLED.", ["ABEL FORMBY"]),
    ("ROSALIND THORNE MADE AWARE OF LABS.", ["ROSALIND THORNE"]),
    ("abel thorne in to see pt.", ["abel thorne"]),
    # a first name before a word no English list holds: name lists miss surnames
    ("PVCS. ABEL QUIBBICK AWARE.", ["ABEL QUIBBICK"]),
    # a word no first-name list knows first, or a role
    ("CCU TEAM AWARE. HOUSE STAFF NOTIFIED.", []),
    ("TEMP 38.9. MD MADE AWARE. pt resting, md made aware.", []),
    ("FAMILY MEMBERS CALLED.", []),
    ("QUIBBICK LAB CALLED WITH RESULTS.", []),
    # a first name after a unit's abbreviation: no name of two words
    ("SICU ABEL AWARE OF PLAN.", []),
    # two everyday words, whatever name list holds them
    ("WILL BE CALLED IF NEEDED. MAY BE PAGED.", []),
    # mixed case is the NER's to judge; no told word after
    ("Abel Thorne aware of plan.", []),
    ("ABEL THORNE AT 0400.", []),
])
def test_two_names_before_a_told_word(nlp, text, names):
    assert texts_of(nlp, text, labels.DOCTOR) == names


def test_a_told_pair_gives_way_to_the_ner(nlp):
    # the NER found the first name alone: its mention stands, the pair's goes
    text = "rn rosalind aware of plan."
    assert entities(nlp, text, [("rosalind", labels.PATIENT)]) == [("rosalind", labels.PATIENT)]


@pytest.mark.parametrize("text, names", [
    # a word no English list holds before 'campus', in any case
    ("sent over by ambulance from okeby campus.", ["okeby"]),
    ("TO RETURN TO FORMBY CAMPUS TOMORROW.", ["FORMBY"]),
    ("Came from the Quibbick campus today.", ["Quibbick"]),
    # an article, a direction, an English or clinical word
    ("transferred to the main campus.", []),
    ("FROM EAST CAMPUS BY AMBULANCE.", []),
    ("walked around campus with pt.", []),
    ("Seen at the hospital campus clinic.", []),
])
def test_a_hospital_before_campus(nlp, text, names):
    assert texts_of(nlp, text, labels.HOSPITAL) == names


@pytest.mark.parametrize("text, names", [
    # other patterns' names keep their own mention: after a role, a second doctor
    ("LEVO UP TO 8. NP FORMBY MADE AWARE.", ["FORMBY"]),
    ("rn rosalind aware of plan.", ["rosalind"]),
    ("DRS FORMBY AND THORNE PAGED.", ["FORMBY", "THORNE"]),
])
def test_a_told_pair_leaves_other_patterns_names_whole(nlp, text, names):
    assert [t for t, _ in entities(nlp, text)] == names


def test_a_told_pair_leaves_a_family_name_whole(nlp):
    assert texts_of(nlp, "THORNE FAMILY MADE AWARE BY PHONE.", labels.PATIENT) == ["THORNE"]
