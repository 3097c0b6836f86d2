"""Issue 25, fifth step: eponymous devices next to device words, and phrases of
English words that the NER takes for a name in a note typed in capitals.
Positives and negatives; all strings and names invented."""
import pytest
import spacy

from spacy_deid import labels


@pytest.fixture(scope="module")
def nlp():
    nlp = spacy.blank("en")
    # "Swan" a town, "Quinton", "Aline" and "Peg" first names, "Section" and "Green" towns
    # too: the lists that make these words look like names.
    nlp.add_pipe("deid_lexicon").initialize(
        nlp=nlp, lexicons={"FIRST": ["Quinton", "Aline", "Peg", "Will", "Abel"],
                           "LAST": ["Swan", "Bell", "Formby"],
                           "CITY": ["Swan", "Section", "Given", "Green"]},
        frequencies={})
    nlp.add_pipe("deid_reconciler", config={"reconcile": False, "propagate": False}).initialize()
    return nlp


def entities_left(nlp, text, mention, label):
    """The entities left when `mention` is given to the lexicon and the reconciler as an NER `label`."""
    doc = nlp.make_doc(text)
    start = text.index(mention)
    doc.ents = [doc.char_span(start, start + len(mention), label=label)]
    for component in ("deid_lexicon", "deid_reconciler"):
        doc = nlp.get_pipe(component)(doc)
    return [e.text for e in doc.ents]


@pytest.mark.parametrize("text, mention, kept", [
    # a catheter, line or tube named after its maker, with a device word beside it
    ("Swan was pulled from the groin at noon.", "Swan", False),
    ("Renal: Quinton cath in left subclavian.", "Quinton", False),
    ("Aline site clean and dry.", "Aline", False),
    ("Tube feeds held. Peg intact, flushed.", "Peg", False),
    ("LINES: Quinton, PIV x2.", "Quinton", False),
    # no device word, or a title, role word or relation word beside it
    ("Quinton stayed late with the team tonight.", "Quinton", True),
    ("Dr. Swan pulled the line this am.", "Swan", True),
    ("Wife Peg at bedside, line intact.", "Peg", True),
    # a word no clinical list holds is left to the other rules
    ("Formby pulled the line this am.", "Formby", True),
])
def test_a_clinical_word_beside_a_device_word_is_the_device(nlp, text, mention, kept):
    assert entities_left(nlp, text, mention, labels.PATIENT) == ([mention] if kept else [])


@pytest.mark.parametrize("text, mention, label, kept", [
    # three English words or more in a note typed in capitals: a phrase, even
    # where a town list knows one of its common words ("SECTION", "GIVEN")
    ("PT STABLE. O: SEE FLOW SHEET SECTION FOR CLINICAL DATA. WILL CONT TO MONITOR.",
     "SEE FLOW SHEET SECTION FOR CLINICAL DATA", labels.DEPARTMENT, False),
    ("DRIP OFF AFTER 6U REG INS WERE GIVEN SC. LABS WNL.",
     "REG INS WERE GIVEN SC", labels.ORGANIZATION, False),
    # an institution's head word, a word no English list knows, two words only
    ("PT SCREENED BY GREEN MEADOW REHAB TODAY.", "GREEN MEADOW REHAB", labels.HOSPITAL, True),
    ("FAMILY IN. ABEL QUENNELL FORMBY CALLED.", "ABEL QUENNELL FORMBY", labels.PATIENT, True),
    ("FAMILY CALLED. WILL BELL TO VISIT.", "WILL BELL", labels.PATIENT, True),
    # a note in mixed case: case is evidence there, the rule stays out
    ("Pt stable. See Flow Sheet Section For Clinical Data, then monitor.",
     "See Flow Sheet Section For Clinical Data", labels.DEPARTMENT, True),
])
def test_a_phrase_of_english_words_in_capitals_is_no_name(nlp, text, mention, label, kept):
    assert entities_left(nlp, text, mention, label) == ([mention] if kept else [])

