"""Issue 25, forty-second to forty-seventh steps: clinical abbreviations, short
forms, times of day, drugs and electrolytes that the NER takes for places or
names. Positives and negatives; all strings and
names invented."""
import pytest

from spacy_deid import labels
from spacy_deid.clinical_lexicon import CLINICAL_LIST, ENGLISH_OR_CLINICAL_LIST
from spacy_deid.pipeline.reconciler.rules import DEFAULT_LISTS_PATH, DEFAULT_RULES_PATH, read_rules
from test_reconciler_clinical_phrases import lexicon_and_reconciler
from test_reconciler_clinical_notes import names_after_lexicon_and_reconciler as entities_left


# The lists that make these words look like places: "Post", "Early" and "May"
# towns, "Fem" and "May" first names, "Maes" a surname; "Lido Beach" a town
# whose first word is a short form ("lido": lidocaine); "CA" a state's code.
PLACE_LEXICONS = {"FIRST": ["Fem", "May"], "LAST": ["Maes"],
                  "CITY": ["Post", "Early", "May", "Omaha", "Okeby", "Lido Beach"],
                  "STATE": ["CA"]}


@pytest.fixture(scope="module")
def nlp():
    return lexicon_and_reconciler(lexicons=PLACE_LEXICONS)


@pytest.fixture(scope="module")
def rules_nlp():
    return lexicon_and_reconciler(with_patterns=True, lexicons=PLACE_LEXICONS)


@pytest.mark.parametrize("text, mention, label, kept", [
    # a part of the day, with at most "early", "late", "this" before it
    ("NEPHEW PHONED, WILL COME BY EARLY EVENING.", "EARLY EVENING", labels.COUNTRY, False),
    ("NAPPED, MORE ALERT BY EARLY EVENING.", "EARLY EVENING", labels.LOCATION_OTHER, False),
    ("Son will visit Tomorrow with the forms.", "Tomorrow", labels.CITY, False),
    # a place that only starts with such a word, or a name beside one
    ("Moved to Early Springs last year.", "Early Springs", labels.CITY, True),
    ("Lives in Okeby with her son.", "Okeby", labels.CITY, True),
])
def test_a_time_of_day_is_no_place(nlp, text, mention, label, kept):
    assert entities_left(nlp, text, mention, label) == ([mention] if kept else [])


@pytest.mark.parametrize("text, mention, label, kept", [
    # the modal "may" before a verb, taken for a town in capitals
    ("SHEATH OUT AT NOON, MAY FLOAT A NEW ONE.", "MAY", labels.CITY, False),
    ("CHAPLAIN PAGED, MAY BE BY AFTER SUPPER.", "MAY", labels.LOCATION_OTHER, False),
    # a town called May, with no verb after it
    ("Lives in May with her son.", "May", labels.CITY, True),
])
def test_the_modal_may_is_no_town(nlp, text, mention, label, kept):
    assert entities_left(nlp, text, mention, label) == ([mention] if kept else [])


@pytest.mark.parametrize("text, states", [
    # a postal code after a capitalised word no town list knows, in mixed case
    ("Port placed in Left SC, site clean.", []),
    ("Goals: Follow CO and SVR hourly.", []),
    # after a town a list knows, or with a comma
    ("Moved from Omaha NE last spring.", ["NE"]),
    ("Moved from Thornbury, NE last spring.", ["NE"]),
])
def test_a_state_code_after_a_word_no_town_list_knows_is_charting(rules_nlp, text, states):
    assert [e.text for e in rules_nlp(text).ents if e.label_ == labels.STATE] == states


@pytest.mark.parametrize("text, ner_found_it, states", [
    # a town no list knows before the code: the NER finding the same state keeps it
    ("Grew up in Okeby Vale NE with her aunt.", True, ["NE"]),
    ("Grew up in Okeby Vale NE with her aunt.", False, []),
])
def test_a_state_code_the_ner_found_too_stays(rules_nlp, text, ner_found_it, states):
    doc = rules_nlp.make_doc(text)
    if ner_found_it:
        start = text.index(" NE ") + 1
        doc.ents = [doc.char_span(start, start + 2, label=labels.STATE)]
    for component in ("deid_lexicon", "deid_phi_rules", "deid_reconciler"):
        doc = rules_nlp.get_pipe(component)(doc)
    assert [e.text for e in doc.ents if e.label_ == labels.STATE] == states


@pytest.mark.parametrize("text, mention, kept", [
    # a lower-case word before a code in capitals is no town, whatever list holds it
    ("Day 3 post MI, walking the hall.", "MI", False),
    # a capitalised town before the code keeps it
    ("Grew up in Post MI with her aunt.", "MI", True),
])
def test_a_lower_case_word_is_no_town_before_a_state_code(nlp, text, mention, kept):
    assert entities_left(nlp, text, mention, labels.STATE) == ([mention] if kept else [])


@pytest.mark.parametrize("text, mention, label, kept", [
    # a short form of a line's site or a drip, at most a side's initial before it
    ("Bruising spreads around R fem since noon.", "R fem", labels.CITY, False),
    ("Sheath pulled from L Fem at noon.", "L Fem", labels.LOCATION_OTHER, False),
    ("Restarted Vanco after the level.", "Vanco", labels.COUNTRY, False),
    # a place with a word that is no short form, or a town a list knows
    ("Moved to Lido Beach last year.", "Lido Beach", labels.CITY, True),
    ("Lives in R Quennell Park now.", "R Quennell Park", labels.LOCATION_OTHER, True),
])
def test_a_charting_short_form_is_no_place(nlp, text, mention, label, kept):
    assert entities_left(nlp, text, mention, label) == ([mention] if kept else [])


@pytest.mark.parametrize("text, mention, label, kept", [
    # a wound dressing, a lung sound or an exam finding the clinical lexicon lacks
    ("Nares oozing, packed with Gelfoam.", "Gelfoam", labels.PATIENT, False),
    ("Neuro: MAEs weakly, nods to questions.", "MAEs", labels.PATIENT, False),
    ("Lungs: Rhonchi cleared with suction.", "Rhonchi", labels.DOCTOR, False),
    # a title before it, or a word that is no short form
    ("Seen by Dr. Gelfoam this am.", "Gelfoam", labels.DOCTOR, True),
    ("Wife Maes at bedside.", "Maes", labels.PATIENT, True),
])
def test_charting_words_the_lexicon_lacks_are_no_names(nlp, text, mention, label, kept):
    assert entities_left(nlp, text, mention, label) == ([mention] if kept else [])


@pytest.mark.parametrize("text, mention, label, kept", [
    # a run of charting words that holds a short form is charting too
    ("Cultures pending; now on Ceftaz and Levo.", "Ceftaz and Levo", labels.ORGANIZATION, False),
    # an institution's name with a word no English or clinical list knows
    ("Records from Vanco Quennell Clinic arrived.", "Vanco Quennell Clinic", labels.ORGANIZATION, True),
])
def test_a_run_of_charting_words_with_a_short_form_is_no_institution(nlp, text, mention, label, kept):
    assert entities_left(nlp, text, mention, label) == ([mention] if kept else [])


@pytest.mark.parametrize("text, mention, label, kept", [
    # drug names alone or joined by "and", "or", "plus": the note's drips
    ("MAP soft, needs Dobutamine and Milrinone for now.", "Dobutamine and Milrinone", labels.DEPARTMENT, False),
    ("Home meds: Metoprolol plus Lisinopril.", "Metoprolol plus Lisinopril", labels.LOCATION_OTHER, False),
    # a department named for specialties, a place a list knows, a title before a name
    ("Seen by Hematology and Oncology today.", "Hematology and Oncology", labels.DEPARTMENT, True),
    ("Lives in Early with her son.", "Early", labels.CITY, True),
    ("Dr. Heparin and Dr. Quennell called.", "Heparin", labels.DOCTOR, True),
])
def test_a_run_of_drug_names_is_no_name(nlp, text, mention, label, kept):
    assert entities_left(nlp, text, mention, label) == ([mention] if kept else [])


@pytest.mark.parametrize("text, mention, label, kept", [
    # a heart rhythm alone, opening a run with a dash, "to", "no", or ST changes
    ("Rhythm: SB to ST no PVCs after the bolus.", "ST no PVCs", labels.LOCATION_OTHER, False),
    ("Went from SR to ST - rare ectopy.", "ST - rare ectopy", labels.LOCATION_OTHER, False),
    ("FLIPPED FROM SB TO ST W RARE PACS.", "ST", labels.HOSPITAL, False),
    ("REPEAT EKG: NEW ST CHANGES IN V2.", "ST CHANGES", labels.LOCATION_OTHER, False),
    # a place named for a saint goes on with the name
    ("Transferred from ST Okeby Hospital today.", "ST Okeby Hospital", labels.HOSPITAL, True),
    ("Lives at 12 Formby St with her son.", "Formby St", labels.LOCATION_OTHER, True),
])
def test_a_heart_rhythm_is_no_place(nlp, text, mention, label, kept):
    assert entities_left(nlp, text, mention, label) == ([mention] if kept else [])


@pytest.mark.parametrize("text, mention, label, kept", [
    # a care team's role in capitals, found as a place
    ("Wife told of the plan by RN and HO.", "HO", labels.ORGANIZATION, False),
    ("SBP 78, HO PAGED.", "HO", labels.LOCATION_OTHER, False),
    # in lower case it may be a name
    ("Moved back to Ho with her son.", "Ho", labels.CITY, True),
])
def test_a_clinician_abbreviation_is_no_place(nlp, text, mention, label, kept):
    assert entities_left(nlp, text, mention, label) == ([mention] if kept else [])


@pytest.mark.parametrize("text, mention, label, kept", [
    # an electrolyte's symbol before a salt or a level, or written with its charge or "="
    ("GAVE CA GLUCONATE 1 GM IV FOR A LOW ION.", "CA", labels.COUNTRY, False),
    ("Labs: MG LEVEL 1.6, repleted.", "MG", labels.STATE, False),
    ("IONIZED CA++ 1.02, REPLETED.", "CA++", labels.STATE, False),
    ("Labs: K= 3.2, PO KCL given.", "K=", labels.LOCATION_OTHER, False),
    # a state with its town, a code before another word
    ("Moved to Okeby, CA last year.", "CA", labels.STATE, True),
    ("LIVES IN OKEBY CA WITH SON.", "CA", labels.STATE, True),
])
def test_an_electrolyte_is_no_place(nlp, text, mention, label, kept):
    assert entities_left(nlp, text, mention, label) == ([mention] if kept else [])


def test_the_short_forms_join_the_reconcilers_clinical_lists():
    lists = read_rules(DEFAULT_RULES_PATH, DEFAULT_LISTS_PATH)["lists"]
    for word in ("vanco", "fem", "lytes"):
        assert word in lists["charting_short_forms"]
        assert word in lists[CLINICAL_LIST] and word in lists[ENGLISH_OR_CLINICAL_LIST]
