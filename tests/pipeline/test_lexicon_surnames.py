"""Surnames the word lists get wrong. Written with an apostrophe ("o'malley",
"D'ANGELO"), which the census lists write without it ("OMALLEY"): the lexicon
knows them, and no list of English words holds them, though wordfreq counts
them as words. A rare stop word that a surname list knows ("dr. thence"): a
name after a title, as a rare English word is (title_word_is_stop_word)."""
import pytest
import spacy

from spacy_deid.clinical_lexicon import ENGLISH_LIST, vocabulary_lists
from spacy_deid.tokenizer import blank_deid

SMALL = {"LAST": ["Orourke", "Lindgren"], "FIRST": ["Abel"]}


@pytest.fixture(scope="module")
def small_nlp():
    nlp = spacy.blank("en")
    nlp.add_pipe("deid_lexicon").initialize(nlp=nlp, lexicons=SMALL, frequencies={})
    return nlp


@pytest.mark.parametrize(
    "text,word,expected",
    [
        ("seen by d. o'rourke today", "o'rourke", "LAST"),
        ("SEEN BY O’ROURKE", "O’ROURKE", "LAST"),
        ("Dr. O'Rourke called", "O'Rourke", "LAST"),
        # negatives: only the apostrophe goes, the letter before it stays
        ("at 5 o'clock", "o'clock", None),
        ("seen by o'lindgren", "o'lindgren", None),
    ],
)
def test_the_lexicon_looks_an_apostrophe_surname_up_without_it(small_nlp, text, word, expected):
    token = next(t for t in small_nlp(text) if t.text == word)
    assert token._.lexicon == expected


def test_apostrophe_surnames_are_no_english_words():
    english = set(vocabulary_lists()[ENGLISH_LIST])
    assert "o'malley" not in english and "o'reilly" not in english
    assert "o'clock" in english  # no census surname "oclock"


@pytest.fixture(scope="module")
def rules_pipeline():
    nlp = blank_deid()
    for name in ("deid_lexicon", "deid_sections", "deid_phi_rules", "deid_reconciler"):
        nlp.add_pipe(name)
    nlp.initialize()
    return nlp


@pytest.mark.parametrize(
    "text,expected",
    [
        # an initial and an apostrophe surname, typed in lower case, signing a count
        ("cash counted by nsg (a. formby and j. o'malley) and locked up.", ["j. o'malley"]),
        # negatives: an initial and a word no name list knows, or an English word
        ("cash counted by nsg (a. formby and j. o'clock) and locked up.", []),
        ("bp cuff reading from r. arm only.", []),
    ],
)
def test_initial_and_apostrophe_surname_in_lower_case_is_a_person(rules_pipeline, text, expected):
    found = [e.text for e in rules_pipeline(text).ents if e.label_ in ("DOCTOR", "PATIENT")]
    assert [f for f in found if "formby" not in f] == expected


# --- a stop word after a title ------------------------------------------------------


@pytest.fixture(scope="module")
def stop_word_surname_nlp():
    nlp = blank_deid()
    nlp.add_pipe("deid_lexicon").initialize(nlp=nlp, lexicons={"LAST": ["Thence", "Will"]}, frequencies={})
    nlp.add_pipe("deid_phi_rules").initialize()
    nlp.add_pipe("deid_reconciler", config={"reconcile": False, "propagate": False}).initialize()
    return nlp


@pytest.mark.parametrize(
    "text,expected",
    [
        # a rare stop word that a surname list knows is the surname after a title
        ("bronchoscopy done by dr. thence today.", ["thence"]),
        # negatives: a common stop word, a surname or not; a stop word no list knows
        ("plan discussed, dr will see him today.", []),
        ("nothing new, dr whence asked.", []),
    ],
)
def test_a_rare_stop_word_a_surname_list_knows_is_a_name_after_a_title(stop_word_surname_nlp, text, expected):
    found = [e.text for e in stop_word_surname_nlp(text).ents if e.label_ in ("DOCTOR", "PATIENT")]
    assert found == expected
