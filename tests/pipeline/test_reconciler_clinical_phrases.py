"""Issue 25, fifth step: eponymous devices next to device words, and phrases of
English words that the NER takes for a name in a note typed in capitals.
Positives and negatives; all strings and names invented."""
import re

import pytest
import spacy

from spacy_deid import labels
from spacy_deid.pipeline.reconciler.rules import (
    DEFAULT_LISTS_PATH, DEFAULT_RULES_PATH, read_lists, read_rule_lines)
from test_reconciler_clinical_notes import names_after_lexicon_and_reconciler as entities_left


# The lists that make these words look like names: "Swan", "Section", "Stone",
# "Pillow" and "Lead" towns, "Quinton", "Quentin", "Aline" and "Peg" first names,
# "Pleasant", "Warm", "Plan" and "Monitor" surnames too.
DEVICE_LEXICONS = {"FIRST": ["Quinton", "Quentin", "Aline", "Peg", "Will", "Abel"],
                   "LAST": ["Swan", "Bell", "Formby", "Pleasant", "Warm", "Plan", "Monitor"],
                   "CITY": ["Swan", "Section", "Given", "Stone", "Pillow", "Lead"]}


def lexicon_and_reconciler(with_patterns=False, lexicons=DEVICE_LEXICONS):
    """deid_lexicon with these small lists, deid_phi_rules if asked, and the reconciler."""
    nlp = spacy.blank("en")
    nlp.add_pipe("deid_lexicon").initialize(nlp=nlp, lexicons=lexicons, frequencies={})
    if with_patterns:
        nlp.add_pipe("deid_phi_rules").initialize()
    nlp.add_pipe("deid_reconciler", config={"reconcile": False, "propagate": False}).initialize()
    return nlp


@pytest.fixture(scope="module")
def nlp():
    return lexicon_and_reconciler()


@pytest.mark.parametrize("text, mention, kept", [
    # a catheter, line or tube named after its maker, with a device word beside it
    ("Swan pulled at noon, site dry.", "Swan", False),
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
    # a verb of charting or "via", then a drug or a device: the sentence, not a department
    ("URINE CLEAR VIA FOLEY, 60CC/HR.", "VIA FOLEY", labels.DEPARTMENT, False),
    ("CV: stable. Continued on Heparin and Swan at noon.", "Continued on Heparin and Swan", labels.DEPARTMENT, False),
    # a department made of English words, or with a word no English list knows
    ("Seen in Cardiac Surgery today.", "Cardiac Surgery", labels.DEPARTMENT, True),
    ("Admitted via Quennell Heparin Clinic overnight.", "Quennell Heparin Clinic", labels.HOSPITAL, True),
])
def test_a_charting_verb_and_a_clinical_word_is_no_institution(nlp, text, mention, label, kept):
    assert entities_left(nlp, text, mention, label) == ([mention] if kept else [])


@pytest.mark.parametrize("text, mention, label, kept", [
    # clinical vocabulary a town list also holds is no person or institution
    ("LINES: NEW SWAN FLOATED IN R IJ.", "SWAN", labels.HOSPITAL, False),
    ("Numbers sent. Swan in good position per film.", "Swan", labels.PATIENT, False),
    # a title, a credential or a first name keeps it; a town stays a town
    ("Dr. Swan confirmed by phone.", "Swan", labels.DOCTOR, True),
    ("Seen by Swan, MD this morning.", "Swan", labels.DOCTOR, True),
    ("Wife Peg in to visit.", "Peg", labels.PATIENT, True),
    ("Lives in Swan with her son.", "Swan", labels.CITY, True),
])
def test_clinical_vocabulary_a_town_list_holds_is_no_person(nlp, text, mention, label, kept):
    assert entities_left(nlp, text, mention, label) == ([mention] if kept else [])


@pytest.mark.parametrize("text, mention, label, kept", [
    # three English words or more in a note typed in capitals: a phrase, even
    # where a town list knows one of its common words ("SECTION", "GIVEN")
    ("PT STABLE. O: SEE FLOW SHEET SECTION FOR CLINICAL DATA. WILL CONT TO MONITOR.",
     "SEE FLOW SHEET SECTION FOR CLINICAL DATA", labels.DEPARTMENT, False),
    ("BS HIGH AT NOON. TWO UNITS WERE GIVEN SQ. LYTES OK.",
     "TWO UNITS WERE GIVEN SQ", labels.ORGANIZATION, False),
    # an institution's head word, a word no English list knows, two words only
    ("PT SCREENED BY STONE BRIDGE REHAB TODAY.", "STONE BRIDGE REHAB", labels.HOSPITAL, True),
    ("FAMILY IN. ABEL QUENNELL FORMBY CALLED.", "ABEL QUENNELL FORMBY", labels.PATIENT, True),
    ("FAMILY CALLED. WILL BELL TO VISIT.", "WILL BELL", labels.PATIENT, True),
    # a note in mixed case: case is evidence there, the rule stays out
    ("Pt stable. See Flow Sheet Section For Clinical Data, then monitor.",
     "See Flow Sheet Section For Clinical Data", labels.DEPARTMENT, True),
])
def test_a_phrase_of_english_words_in_capitals_is_no_name(nlp, text, mention, label, kept):
    assert entities_left(nlp, text, mention, label) == ([mention] if kept else [])



@pytest.mark.parametrize("text, mention, label, kept", [
    # a common English word only a surname list holds, first in a sentence of a mixed-case note
    ("Denies pain. Pleasant and cooperative.", "Pleasant", labels.PATIENT, False),
    ("Feet pink.\nWarm and dry, pulses present.", "Warm", labels.PATIENT, False),
    ("Wife in today. Given the news, calm.", "Given", labels.PATIENT, False),
    # a first name, a title, not at a sentence start, or a word no list holds
    ("Family in. Will called about the plan.", "Will", labels.PATIENT, True),
    ("Seen today. Dr. Bell aware of the labs.", "Bell", labels.DOCTOR, True),
    ("Family meeting with Bell today.", "Bell", labels.PATIENT, True),
    # ... or first after a systems-review header that opens its line
    ("Lungs clear.\nNeuro: Pleasant and calm overnight.", "Pleasant", labels.PATIENT, False),
    ("Pulses present.\nSkin: Warm and dry.", "Warm", labels.PATIENT, False),
    ("Lungs clear.\nSocial: Bell visited tonight.", "Bell", labels.PATIENT, True),
    ("Lungs clear.\nNeuro: Will opens eyes to voice.", "Will", labels.PATIENT, True),
    ("Lungs clear.\nCV: Dr. Bell aware of the rate.", "Bell", labels.DOCTOR, True),
    # the shift key held too long ('PLan'), in a mixed-case note
    ("Lytes pending, PLan to recheck at noon.", "PLan", labels.DOCTOR, False),
    ("Labs sent, will MOnitor closely overnight.", "MOnitor", labels.DOCTOR, False),
    ("Spoke with Dr. PLan about the labs.", "PLan", labels.DOCTOR, True),
    ("Family in, MAcquennell visited.", "MAcquennell", labels.PATIENT, True),
    # a care-team role in capitals, alone
    ("Tylenol given per HO for a headache.", "HO", labels.DOCTOR, False),
    ("Line pulled with R.N., R.T. present.", "R.N., R.T.", labels.DOCTOR, False),
    ("Seen by Dr. HO this morning.", "HO", labels.DOCTOR, True),
    ("Daughter spoke with Ho about the plan.", "Ho", labels.PATIENT, True),
])
def test_charting_words_and_role_letters_are_no_names(nlp, text, mention, label, kept):
    assert entities_left(nlp, text, mention, label) == ([mention] if kept else [])


@pytest.mark.parametrize("text, mention, kept", [
    # a decimal or a range with no age word is a value
    ("Temp up to 99.8 overnight.", "99.8", False),
    ("CV: 80-110's SR, rare PVCs.", "80-110's", False),
    ("Rate came down from 140-130 after the bolus.", "140-130", False),
    ("A 91-92 year old man, retired.", "91-92", True),
])
def test_a_decimal_or_range_is_an_age_only_with_age_evidence(nlp, text, mention, kept):
    assert entities_left(nlp, text, mention, labels.AGE) == ([mention] if kept else [])


@pytest.fixture(scope="module")
def rules_nlp():
    return lexicon_and_reconciler(with_patterns=True)


@pytest.mark.parametrize("text, ages", [
    # a number after 'at' is what a vital sign, a pacing mode or a bed setting measures
    ("CV: AV paced at 92, rare PVCs.", []),
    ("Now avpacing at 93, CI 2.4.", []),
    # ... and an age where none stands before it
    ("Retired and living alone at 94.", ["94"]),
    ("Temp normal overnight. Widowed at 92, lives alone.", ["92"]),
])
def test_a_number_after_at_is_no_age_after_a_vital_sign(rules_nlp, text, ages):
    assert [e.text for e in rules_nlp(text).ents if e.label_ == labels.AGE] == ages


@pytest.mark.parametrize("text, ages", [
    # what a value holds at, in the same sentence: a lab, a drip, a setting, a state
    ("Hct has stabilized at 36 after the transfusion.", []),
    ("Continues on lasix drip at 10, good urine output.", []),
    ("Dopa unable to wean today, remains at 5.", []),
    ("Diminished breath sounds, PS at 13 with TV 500.", []),
    ("Pt breathing over the vent by 20 overnight.", []),
    ("NEEDS HOB NEEDS TO BE AT 91 FOR PT TO SWALLOW.", []),
    # ... an age where the cue stands in the sentence before, or where none stands
    ("Vitals stable. Widowed at 92, lives alone.", ["92"]),
    ("Lasix drip off; married at 93, then widowed.", ["93"]),
    ("Joined the navy at 94 and retired.", ["94"]),
])
def test_a_number_after_at_is_no_age_where_a_value_holds_at_it(rules_nlp, text, ages):
    assert [e.text for e in rules_nlp(text).ents if e.label_ == labels.AGE] == ages



@pytest.mark.parametrize("text, mention, label, kept", [
    # one word with a suffix of clinical word formation, capitalised as charting does
    ("Remains Acidotic on the vent.", "Acidotic", labels.PATIENT, False),
    ("Pt Tachypneic at times, sats 94%.", "Tachypneic", labels.DOCTOR, False),
    ("Pt Diaphoretic and pale.", "Diaphoretic", labels.CITY, False),
    # a title before it, a Lithuanian surname, two words
    ("Seen by Dr. Acidotic today.", "Acidotic", labels.DOCTOR, True),
    ("Spoke with Petraitis, the daughter.", "Petraitis", labels.PATIENT, True),
    ("Ann Quibbiosis called back.", "Ann Quibbiosis", labels.PATIENT, True),
])
def test_a_word_with_a_clinical_suffix_is_no_name(nlp, text, mention, label, kept):
    assert entities_left(nlp, text, mention, label) == ([mention] if kept else [])


@pytest.mark.parametrize("text, mention, label, kept", [
    # the catheter charted right after a central line's site, by a misspelt maker's
    # name that a first-name list holds ("Quentin" for a Quinton catheter)
    ("LINES: LSC QUENTIN FOR HD, PIV X2.", "QUENTIN", labels.DOCTOR, False),
    ("access: rij quentin, piv x2", "quentin", labels.PATIENT, False),
    ("Left RSC Quentin dsg changed.", "Quentin", labels.CITY, False),
    # the site word itself is a charting short form; the site and the catheter as one mention
    ("LINES: LSC QUENTIN FOR HD, PIV X2.", "LSC", labels.DOCTOR, False),
    ("LINES: LSC QUENTIN FOR HD, PIV X2.", "LSC QUENTIN", labels.DOCTOR, False),
    ("Lines: RIJ Quentin, PIV.", "RIJ Quentin", labels.PATIENT, False),
    # a word between the site and the name, or no site
    ("RIJ placed by Dr. Quentin today.", "Quentin", labels.DOCTOR, True),
    ("Quentin stayed late with the team.", "Quentin", labels.PATIENT, True),
    ("RIJ in place. Quentin at bedside.", "Quentin", labels.PATIENT, True),
])
def test_a_word_after_a_line_site_is_the_catheter(nlp, text, mention, label, kept):
    assert entities_left(nlp, text, mention, label) == ([mention] if kept else [])


def test_the_line_site_shape_rule_names_the_line_site_list():
    """A shape rule cannot read a list, so `line_site_and_catheter` spells the
    sites out: it must name exactly the sites of `line_site_words`."""
    rule = next(r for r in read_rule_lines(DEFAULT_RULES_PATH) if r["id"] == "line_site_and_catheter")
    sites = re.search(r"\(\?i:([a-z|]+)\)", rule["pattern"]).group(1).split("|")
    assert sorted(sites) == sorted(read_lists(DEFAULT_LISTS_PATH)["line_site_words"])


@pytest.mark.parametrize("text, mention, label, kept", [
    # a drip, a line or a unit by its charting short form, whatever town list holds it
    ("Cultures sent, started on Vanco and Zosyn.", "Vanco", labels.CITY, False),
    ("BP soft, Dilt held this am.", "Dilt", labels.LOCATION_OTHER, False),
    ("Came up from CSRU at noon.", "CSRU", labels.HOSPITAL, False),
    ("Seen by Dr. Vanco this am.", "Vanco", labels.DOCTOR, True),
    # two words glued by a period: one sentence's end, the next one's start
    ("Given haldol 1mg IV.has slept since.", "IV.has", labels.PATIENT, False),
    ("Ready to move to floor.will update wife.", "floor.will", labels.LOCATION_OTHER, False),
    ("Spoke with Dr.Formby today.", "Dr.Formby", labels.DOCTOR, True),
    ("Has a music channel, gaming.fan11, with many followers.", "gaming.fan11", labels.DEPARTMENT, True),
    ("Visited by Abel Formby.she stayed late.", "Abel Formby.she", labels.PATIENT, True),
    # a mention across a sentence's end
    ("Cool to touch. Bear Hugger placed.", "touch. Bear Hugger", labels.ORGANIZATION, False),
    ("Dressed with Xeroform. Nystatin powder to folds.", "Xeroform. Nystatin", labels.ORGANIZATION, False),
    ("Seen by Prof. Formby this am.", "Prof. Formby", labels.DOCTOR, True),
    ("Family in today. Abel Formby called.", "today. Abel Formby", labels.PATIENT, True),
])
def test_short_forms_and_sentence_ends_are_no_names(nlp, text, mention, label, kept):
    assert entities_left(nlp, text, mention, label) == ([mention] if kept else [])


@pytest.mark.parametrize("text, mention, label, kept", [
    # a line header written with a dash, and the first word after it
    ("Vent unchanged.\nP- Wean as tolerated.", "P- Wean", labels.DOCTOR, False),
    ("Labs sent.\nID- Cultures pending.", "ID- Cultures", labels.DOCTOR, False),
    ("Lytes repleted.\nFamily- 2 sons called.", "Family- 2", labels.DEPARTMENT, False),
    # a hyphen inside a name
    ("Visited by Abel Formby-Bell today.", "Abel Formby-Bell", labels.PATIENT, True),
    # a number and then a word: a count or a value with its unit, unless the word is a direction or wing
    ("HEELS FLOATED ON 1 PILLOW. SKIN INTACT.", "1 PILLOW", labels.DEPARTMENT, False),
    ("RATE 130S. 12 LEAD OBTAINED, NO CHANGE.", "12 LEAD", labels.DEPARTMENT, False),
    ("Transferred to 4 West overnight.", "4 West", labels.DEPARTMENT, True),
    # a value glued to a word is no part of a person's name
    ("Slept well. Turned Q2-3 hrs.", "Turned Q2-3", labels.PATIENT, False),
    ("Insulin gtt kept BS<150 overnight.", "kept BS<150", labels.PATIENT, False),
    ("Plan to wean, family Quennell 731904 called.", "Quennell 731904", labels.PATIENT, True),
])
def test_line_headers_and_counts_are_no_names(nlp, text, mention, label, kept):
    assert entities_left(nlp, text, mention, label) == ([mention] if kept else [])


@pytest.mark.parametrize("text, mention, label, after", [
    # a name ending in "Hospital" is a hospital, kept even when its words are common
    ("ADMITTED FROM GREEN MEADOW HOSPITAL LAST NIGHT.", "GREEN MEADOW HOSPITAL",
     labels.DEPARTMENT, [("GREEN MEADOW HOSPITAL", labels.HOSPITAL)]),
    ("RECORDS SENT FROM QUENNELL HOSP. TODAY.", "QUENNELL HOSP",
     labels.PATIENT, [("QUENNELL HOSP", labels.HOSPITAL)]),
    # the word alone is no hospital's name
    ("PT ADMITTED TO HOSPITAL YESTERDAY.", "HOSPITAL", labels.DEPARTMENT, []),
])
def test_a_name_ending_in_hospital_is_a_hospital(nlp, text, mention, label, after):
    doc = nlp.make_doc(text)
    start = text.index(mention)
    doc.ents = [doc.char_span(start, start + len(mention), label=label)]
    for component in ("deid_lexicon", "deid_reconciler"):
        doc = nlp.get_pipe(component)(doc)
    assert [(e.text, e.label_) for e in doc.ents] == after


@pytest.mark.parametrize("text, mention, kept", [
    # the NER's four-digit DATE after a clock cue is a time of day
    ("Repeat lytes due 2030, K 3.6 now.", "2030", False),
    ("Back from CT ~ 1930, no bleed.", "1930", False),
    # a year with no clock cue
    ("Moved to the city in 2008 with family.", "2008", True),
])
def test_four_digits_after_a_clock_cue_are_a_time(nlp, text, mention, kept):
    assert entities_left(nlp, text, mention, labels.DATE) == ([mention] if kept else [])


@pytest.mark.parametrize("text, names", [
    # an initial and a surname in lower case: a name list knows it, no English word is it
    ("cash counted by nsg (a. formby and j. quennell).", ["a. formby"]),
    ("new a. fib overnight, rate 130s.", []),
    ("seen by p. bell this am.", []),
    # in capitals, an initial and a surname before a credential
    ("NOTE WAS FOR ANOTHER PATIENT. Q. QUENNELL RRT", ["Q. QUENNELL"]),
    ("MEDS GIVEN, SIGNED A. FORMBY, RN", ["A. FORMBY"]),
    ("PT SEEN BY RN AT NOON", []),
])
def test_an_initial_and_a_surname(rules_nlp, text, names):
    assert [e.text for e in rules_nlp(text).ents] == names

def test_a_lexicon_rule_with_a_bad_pattern_is_refused():
    from spacy_deid.pipeline.reconciler.rules import ReconcilerRuleError, RuleSet, make_reconciler_rules

    data = make_reconciler_rules()
    rule = dict(next(r for r in data["rules"] if r["id"] == "name_is_shift_key_slip"), pattern="(")
    with pytest.raises(ReconcilerRuleError, match="pattern is not a valid regular expression"):
        RuleSet.from_data({"rules": [rule], "lists": data["lists"]}, source="test")


@pytest.fixture(scope="module")
def job_nlp():
    return lexicon_and_reconciler(lexicons={**DEVICE_LEXICONS, "JOB": ["locksmith"]})


@pytest.mark.parametrize("text, mention, kept", [
    # no job word: a clinical word or a phrase the NER took for a job
    ("Pt was lavaged and suctioned.", "lavaged", False),
    ("CO via fich is in the 5s.", "fich", False),
    ("Old decubiti on the sacrum, intact.", "decubiti", False),
    ("Fell at a gas station last night.", "gas station", False),
    # an occupation cue in the sentence before is about something else
    ("Excellent student; won a math olympiad medal.", "math olympiad", False),
    # a job word: a title the lists tag, an agent-noun ending, an occupation cue
    ("Her brother, a locksmith, visited.", "locksmith", True),
    ("Worked thirty years as a stenographer.", "stenographer", True),
    ("Two translators were at the bedside.", "translators", True),
    ("Her son, a student, visited.", "student", True),
    ("She is a bellhop downtown.", "bellhop", True),
    ("Retired from roofing last year.", "roofing", True),
    # a name or a handle: the type is wrong, the PHI is not
    ("Probation officer is Peg, seen weekly.", "Peg", True),
    ("Texted by quennell_77 overnight.", "quennell_77", True),
    ("Posts from his account (thorne.music) upset her.", "thorne.music", True),
])
def test_a_profession_only_the_ner_found_needs_a_job_word(job_nlp, text, mention, kept):
    assert entities_left(job_nlp, text, mention, labels.PROFESSION) == ([mention] if kept else [])


@pytest.mark.parametrize("text, from_end, expected", [
    # a window before the mention keeps what follows the last sentence end
    ("Vitals stable. Widowed ", True, " Widowed "),
    ("drip off; married ", True, " married "),
    ("line one\nline two ", True, "line two "),
    ("approx 3.5 mg then ", True, "approx 3.5 mg then "),
    # a window after it keeps what comes before the first
    (" lives alone. Temp ok", False, " lives alone"),
    (" to swallow", False, " to swallow"),
])
def test_a_window_is_cut_to_the_sentence(text, from_end, expected):
    from spacy_deid.pipeline.reconciler.surroundings import within_sentence

    assert within_sentence(text, from_end) == expected
