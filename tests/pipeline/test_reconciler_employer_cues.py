"""An employer's short name after a word of work (pattern
`employer-acronym-after-work-cue`), and a job title before "of" that is no
part of an institution's name (span completion). All strings invented."""
import pytest

from spacy_deid import labels
from test_reconciler_charting_runs import rules_pipeline


def rules_nlp(job_words):
    return rules_pipeline({"JOB": job_words, "INSTITUTION": ["bank"]})


@pytest.fixture(scope="module")
def employer_nlp():
    return rules_nlp(["ceo", "president", "chief"])


def organisations(nlp, text):
    return [e.text for e in nlp(text).ents if e.label_ == labels.ORGANIZATION]


@pytest.mark.parametrize("text,expected", [
    # where someone works, worked, was employed, or retired from; in any case of note
    ("UNEMPLOYED. HUSBAND CEO OF QMX. SMOKER.", ["QMX"]),
    ("Husband works at QMX as an engineer.", ["QMX"]),
    ("RETIRED FROM QMX IN 1990.", ["QMX"]),
    ("He is employed by the QMX.", ["QMX"]),
    ("Worked for AT&T for 20 years.", ["AT&T"]),
    ("was laid off from QMX last spring", ["QMX"]),
    ("Her father is president of QMX.", ["QMX"]),
    # no word of work, or "work of" / "work with": no employer
    ("Increased work of breathing overnight.", []),
    ("Con't to work with PT, increase activity.", []),
    ("Transferred from QMX yesterday.", []),
    # times, credentials, care teams and places of care after the cue
    ("Worked at HS per pt.", []),
    ("She works at ICU as a nurse.", []),
    ("WORKED FOR PT ALL SHIFT", []),
    ("Retired from RN work in 2001.", []),
    # a longer word, a lower-case one, or a word glued to more is no short name
    ("works at QMXTRON now", []),
    ("works at qmx now", []),
    ("worked for QMX-Lindgren", []),
    # in capitals, a stop word or a common word of four or five letters is the sentence
    ("WORKED FOR TWO YEARS AS A COOK", []),
    ("RETIRED FROM HIS JOB LAST YEAR", []),
    ("WORKS AT NIGHT", []),
    ("RETIRED FROM BANK IN 1990", []),
    # ... while a company's short name of two or three letters stays, and in
    # mixed case the capitals are evidence
    ("RETIRED FROM UPS IN 1990", ["UPS"]),
    ("Worked at NBC for years", ["NBC"]),
])
def test_employer_acronym_after_a_work_cue(employer_nlp, text, expected):
    assert organisations(employer_nlp, text) == expected


@pytest.mark.parametrize("job_words,expected", [
    # a job title before "of" is the person's post, not the institution's name
    (["ceo", "president"], ["QMX"]),
    # a capitalised word no job list knows is taken in, as "Bank of" is
    (["president"], ["CEO OF QMX"]),
])
def test_a_job_title_before_of_is_no_part_of_the_institution(job_words, expected):
    assert organisations(rules_nlp(job_words), "WIFE CEO OF QMX. SMOKER.") == expected
