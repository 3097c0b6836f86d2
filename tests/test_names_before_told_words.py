"""Issue 25, forty-ninth step: evidence for a name that does not depend on
the NER, where every seed's NER missed some. Two one-case words before a
word of telling or coming ("ABEL THORNE AWARE") are a clinician's name when
name lists know them; a word before "campus" is a hospital's. Positives and
negatives; all strings and names invented."""
import pytest

from spacy_deid import labels
from test_charting_runs_and_site_names import entities, rules_pipeline


@pytest.fixture(scope="module")
def nlp():
    # "Will", "May" first names and "Be" a surname that are everyday words too
    return rules_pipeline({"FIRST": ["Abel", "Rosalind", "Will", "May"],
                           "LAST": ["Thorne", "Formby", "Be", "Okeby"]})


def texts_of(nlp, text, label):
    return [t for t, found in entities(nlp, text) if found == label]


@pytest.mark.parametrize("text, names", [
    # a first name and a name in capitals or lower case, before a told word
    ("RUN OF BIGEMINY. ABEL THORNE AWARE, MG GIVEN.", ["ABEL THORNE"]),
    ("k 3.1 repleted, rosalind formby notified.", ["rosalind formby"]),
    ("HR 140S. ABEL FORMBY CALLED TO BEDSIDE.", ["ABEL FORMBY"]),
    ("ROSALIND THORNE MADE AWARE OF LABS.", ["ROSALIND THORNE"]),
    ("abel thorne in to see pt.", ["abel thorne"]),
    # a first name before a word no English list holds: name lists miss surnames
    ("PVCS. ABEL QUIBBICK AWARE.", ["ABEL QUIBBICK"]),
    # a word no first-name list knows first, or a role
    ("CCU TEAM AWARE. HOUSE STAFF NOTIFIED.", []),
    ("BP 80S. MD MADE AWARE. pt resting, md made aware.", []),
    ("FAMILY MEMBERS CALLED.", []),
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
    ("received from er okeby campus, intubated.", ["okeby"]),
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
    # other patterns' names keep their own mention: a role, a family, a second doctor
    ("BP 80S. NP FORMBY MADE AWARE.", ["FORMBY"]),
    ("rn rosalind aware of plan.", ["rosalind"]),
    ("DRS FORMBY AND THORNE AWARE.", ["FORMBY", "THORNE"]),
])
def test_a_told_pair_leaves_other_patterns_names_whole(nlp, text, names):
    assert [t for t, _ in entities(nlp, text)] == names


def test_a_told_pair_leaves_a_family_name_whole(nlp):
    assert texts_of(nlp, "KEEP THORNE FAMILY AWARE OF PLAN.", labels.PATIENT) == ["THORNE"]
