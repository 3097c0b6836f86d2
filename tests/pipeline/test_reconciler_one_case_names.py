"""Span completion, one_case_name: a person's name typed in one case and found
in part grows to the surname after a first name, or to the first name before
a first-and-last name, when the lexicon says the words are names."""
import pytest

from spacy_deid import labels

LEXICONS = {"FIRST": ["Abel", "Rosalind", "Will"], "LAST": ["Quennell", "Stone", "Formby"]}
D = labels.DOCTOR


@pytest.fixture(scope="module")
def nlp(reconciler_nlp_with):
    return reconciler_nlp_with(LEXICONS)


@pytest.mark.parametrize(
    "text,found,expected",
    [
        # a first name found alone takes the surname after it
        ("pt seen by dr. abel quennell today.", "abel", [("abel quennell", D)]),
        ("PT SEEN BY DR. ABEL QUENNELL TODAY.", "ABEL", [("ABEL QUENNELL", D)]),
        # a first-and-last name takes the first name before it
        ("spoke with abel rosalind quennell from speech.", "rosalind quennell",
         [("abel rosalind quennell", D)]),
        # negatives: the surname is an English word, the next word no surname,
        # the name is capitalised (the NER's to judge), the case differs
        ("pt seen by dr. abel stone today.", "abel", [("abel", D)]),
        ("pt seen by dr. abel aware of plan.", "abel", [("abel", D)]),
        ("Seen by Dr. Abel Quennell today.", "Abel", [("Abel", D)]),
        ("pt seen by dr. abel QUENNELL today.", "abel", [("abel", D)]),
        # negatives: the word before is no first name, or the mention no first name
        ("seen with stone rosalind quennell today.", "rosalind quennell", [("rosalind quennell", D)]),
        ("seen with abel formby quennell today.", "formby quennell", [("formby quennell", D)]),
        # an initial and a surname take the first name before them (a signature line)
        ("QUIET NIGHT.\n ABEL Q. FORMBY-QUENNELL, RRT", "Q. FORMBY-QUENNELL",
         [("ABEL Q. FORMBY-QUENNELL", D)]),
        ("all is well. abel q. formby rrt", "q. formby", [("abel q. formby", D)]),
        # ... not a stop word that a first-name list holds, nor a word no first name
        ("HE WILL Q. FORMBY, RN", "Q. FORMBY", [("Q. FORMBY", D)]),
        ("SEEN BY Q. FORMBY, RN", "Q. FORMBY", [("Q. FORMBY", D)]),
        ("seen by stone q. formby rn", "q. formby", [("q. formby", D)]),
    ],
)
def test_one_case_name_grows_over_name_words(nlp, entities_from_ner, text, found, expected):
    assert entities_from_ner(nlp, text, found, D) == expected
