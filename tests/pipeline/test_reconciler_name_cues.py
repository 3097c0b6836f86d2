"""Issue 25, seventh step (and issue 28): evidence that does not depend on the
NER. Names beside a title, role, credential or relation in parentheses,
towns after a place preposition, hospitals before their head word, and
dates the NER may miss. Each pattern gives way to the NER's mention where
the NER found one, so a fine-tuned NER that loses names keeps these.
Positives and negatives; all strings and names invented."""
import pytest

from spacy_deid import labels
from test_reconciler_charting_runs import entities, rules_pipeline


@pytest.fixture(scope="module")
def nlp():
    # "Stonebridge" a town; "Heparin" a town a list knows that is also a drug
    return rules_pipeline({"FIRST": ["Rosalind", "Abel"], "LAST": ["Formby", "Tremb", "Quennell"],
                           "CITY": ["Stonebridge", "Heparin"]})


def texts_of(nlp, text, label):
    return [t for t, found in entities(nlp, text) if found == label]


@pytest.mark.parametrize("text, names", [
    # a title and a capitalised name in cased text; a possessive 's stays out
    ("Mrs. Quennell's daughter visited this evening.", ["Quennell"]),
    ("Mr. Abel Formby called for an update.", ["Abel Formby"]),
    ("Spoke with Ms. Tremb at the bedside.", ["Tremb"]),
    # the start of a longer capitalised run, a lower-case word, a month
    ("Ms. Rosalind Formby Hospital called back.", []),
    ("Mr. and the team met today.", []),
    ("Mrs. Formby May visited.", ["Formby"]),
])
def test_a_name_after_a_title_in_cased_text(nlp, text, names):
    assert texts_of(nlp, text, labels.PATIENT) == names


def test_a_doctor_after_a_title_leaves_a_possessive_out(nlp):
    assert texts_of(nlp, "Spoke with Dr. Quennell's team today.", labels.DOCTOR) == ["Quennell"]
    assert texts_of(nlp, "Seen by Dr. Tremb O'Formby today.", labels.DOCTOR) == ["Tremb O'Formby"]


def test_the_title_pattern_gives_way_to_the_ner(nlp):
    # the NER's longer mention and its label stand
    text = "Spoke with Mrs. Quennell, the unit's social worker."
    assert entities(nlp, text, [("Quennell", labels.DOCTOR)]) == [("Quennell", labels.DOCTOR)]


@pytest.mark.parametrize("text, names", [
    # a role abbreviation and one or two capitalised name words
    ("Plan per NP Rosalind PRN for pain.", ["Rosalind"]),
    ("Report given to RN Abel Quennell at 7.", ["Abel Quennell"]),
    # an English, clinical or stop word after the role
    ("RN Aware of the plan.", []),
    ("MD Notified of the change.", []),
    ("Per NP The plan stands.", []),
])
def test_a_clinician_after_a_role_in_cased_text(nlp, text, names):
    assert texts_of(nlp, text, labels.DOCTOR) == names


@pytest.mark.parametrize("text, names", [
    # one to three name words before the relation in parentheses
    ("Social: Rosalind Formby (daughter) is the HCP.", ["Rosalind Formby"]),
    ("SOCIAL: ABEL FORMBY (SON) CALLED.", ["ABEL FORMBY"]),
    ("Emergency contact Quennell ( wife ).", ["Quennell"]),
    # a clinical, common or stop word before it
    ("Spoke with HCP (wife) by phone.", []),
    ("Called Family (wife) at noon.", []),
    ("Updated The (son) later.", []),
])
def test_a_name_before_a_relation_in_parentheses(nlp, text, names):
    assert texts_of(nlp, text, labels.PATIENT) == names


@pytest.mark.parametrize("text, names", [
    # a credential after a full name; lower-case initial, surname and credential
    ("Rosalind Quennell CRT", ["Rosalind Quennell"]),
    ("Vent settings unchanged. Abel Formby, RRT", ["Abel Formby"]),
    ("resting quietly overnight. q. brisko rrt", ["q. brisko"]),
    ("suctioned for small amts.  a. tremblo, rn", ["a. tremblo"]),
    # no credential: the lower-case initial and word stay an abbreviation
    ("pt in a. fib overnight.", []),
])
def test_a_clinician_before_a_credential(nlp, text, names):
    assert texts_of(nlp, text, labels.DOCTOR) == names


@pytest.mark.parametrize("text, towns", [
    # a town a list knows, after a place preposition, in cased text
    ("Her brother drove in from Stonebridge today.", ["Stonebridge"]),
    ("Moved to Stonebridge Arkansas last year.", ["Stonebridge"]),
    # no town list knows it, a town's name that is clinical, capitals, lower case
    ("Pt transferred to Lasix drip.", []),
    ("Her brother drove in from Quennelly today.", []),
    ("Switched to Heparin drip at noon.", []),
    ("HER BROTHER DROVE IN FROM STONEBRIDGE.", []),
    ("her brother drove in from stonebridge.", []),
    # a capitalised town after a preposition in capitals (a note typed in
    # capitals, the town's name written as names are)
    ("SON FLYING BACK TO Stonebridge ON SUNDAY.", ["Stonebridge"]),
    ("FAMILY DROVE IN FROM Stonebridge.", ["Stonebridge"]),
    # the same with no town list's word, or a drug a town list holds
    ("SON FLYING BACK TO Quennelly ON SUNDAY.", []),
    ("SWITCHED TO Heparin DRIP.", []),
])
def test_a_town_after_a_place_preposition(nlp, text, towns):
    assert texts_of(nlp, text, labels.CITY) == towns


def test_the_town_pattern_gives_way_to_the_ner(nlp):
    text = "Her brother drove in from Stonebridge Falls today."
    whole = "Stonebridge Falls"
    assert entities(nlp, text, [(whole, labels.CITY)]) == [(whole, labels.CITY)]


@pytest.mark.parametrize("text, hospitals", [
    # one or two name words before Hospital, Hosp or Rehab
    ("Came from Tremb Hospital today.", ["Tremb Hospital"]),
    ("TRANSFERRED TO FORMBY HOSP. STABLE.", ["FORMBY HOSP"]),
    ("Plan: to Stonebridge Rehab when a bed opens.", ["Stonebridge Rehab"]),
    # English or clinical words only: left to the NER
    ("AFTER A PROLONGED HOSPITAL COURSE.", []),
    ("STILL AWAITING REHAB BED.", []),
    ("Referred to Cardiac Rehab. Green Meadow Hospital called.", []),
    ("Admitted to the Hospital overnight.", []),
])
def test_a_hospital_before_its_head_word(nlp, text, hospitals):
    assert texts_of(nlp, text, labels.HOSPITAL) == hospitals


@pytest.mark.parametrize("text, hospitals", [
    # a saint's hospital by its initial, after a place preposition or "@"
    ("Rehab offered a place @ St Q. for Monday.", ["St Q."]),
    ("Plan to transfer to St Q's tomorrow.", ["St Q's"]),
    ("PT TO BE TRANSFERRED TO ST Q'S IN AM.", ["ST Q'S"]),
    # a heart rhythm in capitals, a street, a saint's full name, no preposition
    ("RHYTHM CHANGED TO ST W PVCS.", []),
    ("ST ELEVATION IN LEADS V2-V4.", []),
    ("Lives at 12 Main St. Q is her son.", []),
    ("Moved to St Quennelly last year.", []),
    ("St Q's called back.", []),
])
def test_a_saints_hospital_by_its_initial(nlp, text, hospitals):
    assert texts_of(nlp, text, labels.HOSPITAL) == hospitals


@pytest.mark.parametrize("text, dates", [
    # a full date with an 18xx year (the oldest patients' births, a disoriented answer)
    ("Says she was born June 3, 1897 at home.", ["June 3, 1897"]),
    ("DOB 3/14/1897.", ["3/14/1897"]),
    ("Born 2 June 1897.", ["2 June 1897"]),
    # an 18xx number alone is a quantity
    ("Gave 1897 cc over the shift.", []),
    # a day of the month as an ordinal after 'on the', 'since the' ...
    ("Blood cultures sent on the 14th. Repeat pending.", ["14th"]),
    ("No stool since the 2nd, when lactulose was held.", ["2nd"]),
    # an ordinal before a noun: a count, not a date
    ("Intubated on the 3rd attempt.", []),
    ("Transferred to the unit on the 4th floor.", []),
    ("In the 90th percentile since the 1st grade.", []),
])
def test_dates_the_ner_may_miss(nlp, text, dates):
    assert texts_of(nlp, text, labels.DATE) == dates
