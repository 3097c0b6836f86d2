"""The global-consistency reconciler (`deid_reconciler`): one block per step,
the switches, provenance, rule data, serialisation and the config path."""
import json

import pytest
import spacy
from spacy.tokens import Doc, DocBin, Span, SpanGroup, Token

from spacy_deid import labels
from spacy_deid.extensions import PROVENANCE_KEY
from spacy_deid.pipeline.reconciler.rules import (
    DEFAULT_LISTS_PATH,
    ReconcilerRuleError,
    RuleSet,
    compile_cues,
    make_reconciler_rules,
    normalize_value,
)
from spacy_deid.pipeline.reconciler.steps import Mention, resolve_overlaps

ALL_OFF = {"merge": False, "correct": False, "reconcile": False, "propagate": False}


def make_nlp(**config):
    nlp = spacy.blank("en")
    nlp.add_pipe("deid_reconciler", config=config)
    nlp.initialize()  # the packaged rules and lists, through the registered loader
    return nlp


def find(doc, text, nth=0):
    """Token span of the nth occurrence of `text` in the doc (must be token-aligned)."""
    start = -1
    for _ in range(nth + 1):
        start = doc.text.index(text, start + 1)
    span = doc.char_span(start, start + len(text))
    assert span is not None, f"not token-aligned: {text!r}"
    return span.start, span.end


def build(nlp, text, ner=(), rules=(), attributes=()):
    """A doc with NER predictions in doc.ents, rule hits and attribute values.

    ner: (substring, label[, nth]); rules: (substring, label, pattern_id[, nth]);
    attributes: (substring, attribute_name[, nth]).
    """
    doc = nlp.make_doc(text)
    ents = []
    for item in ner:
        s, e = find(doc, item[0], *item[2:])
        ents.append(Span(doc, s, e, label=item[1]))
    doc.ents = ents
    hits = []
    for item in rules:
        s, e = find(doc, item[0], *item[3:])
        hits.append(Span(doc, s, e, label=item[1], span_id=item[2]))
    if rules:
        doc.spans["phi_rules"] = SpanGroup(doc, name="phi_rules", spans=hits)
    values = []
    for item in attributes:
        s, e = find(doc, item[0], *item[2:])
        values.append(Span(doc, s, e, label=item[1]))
    if attributes:
        doc.spans["attributes"] = SpanGroup(doc, name="attributes", spans=values)
    return doc


def run(nlp, doc):
    return nlp.get_pipe("deid_reconciler")(doc)


def ents(doc):
    return [(e.text, e.label_) for e in doc.ents]


# --- factory -----------------------------------------------------------------


def test_factory_defaults_and_packaged_rules():
    nlp = make_nlp()
    rec = nlp.get_pipe("deid_reconciler")
    assert (rec.merge, rec.correct, rec.reconcile, rec.propagate) == (True, True, True, True)
    assert rec.min_count == 2 and rec.ner_key is None and rec.rules_key == "phi_rules"
    assert {"fax_context", "state_us_only", "hospital_school_context", "doctor_title_cue"} <= set(rec.rule_ids)
    assert "doc.ents" in nlp.get_pipe_meta("deid_reconciler").assigns


def test_works_without_any_input_groups():
    nlp = make_nlp()
    doc = run(nlp, nlp.make_doc("Nothing to see here."))
    assert list(doc.ents) == [] and len(doc.spans[PROVENANCE_KEY]) == 0


# --- (1) merge -----------------------------------------------------------------

TEXT_MERGE = "Call 617-555-0100 on 2019-03-04 please."


def test_merge_rule_wins_over_overlapping_ner():
    nlp = make_nlp(correct=False, reconcile=False, propagate=False)
    doc = build(
        nlp, TEXT_MERGE,
        ner=[("617-555-0100", labels.DATE), ("2019", labels.DATE)],
        rules=[("617-555-0100", labels.PHONE, "phone_nanp"), ("2019-03-04", labels.DATE, "date_iso")],
    )
    run(nlp, doc)
    assert ents(doc) == [("617-555-0100", labels.PHONE), ("2019-03-04", labels.DATE)]
    assert doc.ents[0]._.phi_source == "rule:phone_nanp|merge:over_ner"


def test_merge_keeps_ner_outside_rules_and_records_agreement():
    nlp = make_nlp(correct=False, reconcile=False, propagate=False)
    doc = build(
        nlp, "Seen by Jones at 617-555-0100 .",
        ner=[("Jones", labels.DOCTOR), ("617-555-0100", labels.PHONE)],
        rules=[("617-555-0100", labels.PHONE, "phone_nanp")],
    )
    run(nlp, doc)
    assert ents(doc) == [("Jones", labels.DOCTOR), ("617-555-0100", labels.PHONE)]
    assert [e._.phi_source for e in doc.ents] == ["ner", "rule:phone_nanp|merge:ner_agrees"]


def test_merge_resolves_overlapping_ner_mentions_deterministically():
    nlp = make_nlp(ner_key="ner_preds", correct=False, reconcile=False, propagate=False)
    doc = nlp.make_doc("Mary Ann Lee visited Boston General Hospital today.")
    s1, e1 = find(doc, "Mary Ann")
    s2, e2 = find(doc, "Ann Lee")
    s3, e3 = find(doc, "Boston")
    s4, e4 = find(doc, "Boston General Hospital")
    doc.spans["ner_preds"] = [
        Span(doc, s1, e1, labels.PATIENT), Span(doc, s2, e2, labels.DOCTOR),
        Span(doc, s3, e3, labels.CITY), Span(doc, s4, e4, labels.HOSPITAL),
    ]
    run(nlp, doc)
    # equal length: the earlier one; different length: the longer one
    assert ents(doc) == [("Mary Ann", labels.PATIENT), ("Boston General Hospital", labels.HOSPITAL)]


def test_merge_off_means_ner_only():
    nlp = make_nlp(**ALL_OFF)
    doc = build(
        nlp, TEXT_MERGE, ner=[("2019", labels.DATE)],
        rules=[("617-555-0100", labels.PHONE, "phone_nanp")],
    )
    run(nlp, doc)
    assert ents(doc) == [("2019", labels.DATE)]


def test_rule_hits_without_id_and_overlapping_rules():
    nlp = make_nlp(correct=False, reconcile=False, propagate=False)
    doc = nlp.make_doc("Call 617-555-0100 now")
    s, e = find(doc, "617-555-0100")
    doc.spans["phi_rules"] = [Span(doc, s, e, labels.PHONE), Span(doc, s, s + 1, labels.ZIP)]
    run(nlp, doc)
    assert ents(doc) == [("617-555-0100", labels.PHONE)]
    assert doc.ents[0]._.phi_source == "rule"


def test_resolve_overlaps_is_order_independent():
    a, b, c = Mention(0, 2, labels.PATIENT, order=0), Mention(1, 3, labels.DOCTOR, order=1), Mention(5, 6, labels.CITY, order=2)
    first = [(m.start, m.end, m.label) for m in resolve_overlaps([a, b, c])]
    second = [(m.start, m.end, m.label) for m in resolve_overlaps([c, b, a])]
    assert first == second == [(0, 2, labels.PATIENT), (5, 6, labels.CITY)]


# --- (2) error correction ---------------------------------------------------------

CORRECTION_CASES = [
    # id, text, mention, given label, expected label (None: dropped), provenance
    ("fax_cue", "Fax: 617-555-0100", "617-555-0100", labels.PHONE, labels.FAX, "correct:fax_context"),
    ("fax_short_cue", "F: 617-555-0100", "617-555-0100", labels.PHONE, labels.FAX, "correct:fax_context"),
    ("phone_cue_nearer", "fax or cell 617-555-0100", "617-555-0100", labels.PHONE, labels.PHONE, None),
    ("phone_no_cue", "reach her at 617-555-0100", "617-555-0100", labels.PHONE, labels.PHONE, None),
    ("fax_to_phone", "Tel: 617-555-0100", "617-555-0100", labels.FAX, labels.PHONE, "correct:phone_context"),
    ("state_name", "moved to Ohio last year", "Ohio", labels.STATE, labels.STATE, None),
    ("state_postal", "Springfield , MA 01101", "MA", labels.STATE, labels.STATE, None),
    ("state_dotted", "lives in N.Y. now", "N.Y.", labels.STATE, labels.STATE, None),
    ("state_multiword", "born in New Hampshire", "New Hampshire", labels.STATE, labels.STATE, None),
    ("state_not_us", "moved to Ontario last year", "Ontario", labels.STATE, None, "correct:state_us_only"),
    ("hospital_school", "she is a senior at Westbrook Academy now", "Westbrook Academy", labels.HOSPITAL,
     labels.ORGANIZATION, "correct:hospital_school_context"),
    ("hospital_employer", "he works at Acme Clinic as a cook", "Acme Clinic", labels.HOSPITAL,
     labels.ORGANIZATION, "correct:hospital_school_context"),
    ("hospital_plain", "admitted to Acme Clinic overnight", "Acme Clinic", labels.HOSPITAL, labels.HOSPITAL, None),
    ("patient_dr", "followed by Dr. Quill since", "Quill", labels.PATIENT, labels.DOCTOR,
     "correct:patient_title_before"),
    ("patient_md", "letter from Anna Quill , MD today", "Anna Quill", labels.PATIENT, labels.DOCTOR,
     "correct:patient_credential_after"),
    ("patient_licsw", "met Anna Quill LICSW weekly", "Anna Quill", labels.PATIENT, labels.DOCTOR,
     "correct:patient_credential_after"),
    ("patient_therapist", "her therapist Anna Quill says", "Anna Quill", labels.PATIENT, labels.DOCTOR,
     "correct:patient_clinician_role"),
    ("doctor_mother", "lives with her mother Anna Quill in", "Anna Quill", labels.DOCTOR, labels.PATIENT,
     "correct:doctor_family_role"),
    ("doctor_mothers_dr", "her mother's psychiatrist Anna Quill", "Anna Quill", labels.DOCTOR, labels.DOCTOR, None),
    ("patient_plain", "lives with Anna Quill in", "Anna Quill", labels.PATIENT, labels.PATIENT, None),
    # what a value of the type cannot look like (shape, context and lexicon guards)
    ("name_lower_case", "Sleep worse with sundowning in the Evening", "sundowning", labels.PATIENT, None,
     "correct:name_without_capital"),
    ("name_lower_case_note", "seen with anna quill today", "anna quill", labels.PATIENT, labels.PATIENT, None),
    ("place_lower_case", "Moved to a new city in May", "new city", labels.CITY, None, "correct:name_without_capital"),
    ("date_impossible", "MMSE: 13/30 today", "13/30", labels.DATE, None, "correct:date_impossible_fraction"),
    ("date_impossible_big", "Seen 45/2 again", "45/2", labels.DATE, None, "correct:date_impossible_fraction"),
    ("date_month_day", "Seen on 12/30 again", "12/30", labels.DATE, labels.DATE, None),
    ("date_month_year", "Seen in 4/98 again", "4/98", labels.DATE, labels.DATE, None),
    ("date_dose", "Suboxone 16/4 mg daily", "16/4", labels.DATE, None, "correct:date_before_unit"),
    ("date_day_month", "Seen 16/4 in clinic", "16/4", labels.DATE, labels.DATE, None),
    # the modal 'may' before a verb; a simple fraction before what it is a part of
    ("may_modal_caps", "WILL RECHECK K, MAY NEED MORE KCL", "MAY", labels.DATE, None, "correct:may_before_a_verb_is_no_month"),
    ("may_modal_sentence", "Labs ok. May start sips later", "May", labels.PATIENT, None,
     "correct:may_before_a_verb_is_no_month"),
    ("may_month_day", "Seen May 4 in clinic", "May", labels.DATE, labels.DATE, None),
    ("may_month_pronoun", "Seen in May he said", "May", labels.DATE, labels.DATE, None),
    ("may_name_verb_s", "Sister May needs a ride home", "May", labels.PATIENT, labels.PATIENT, None),
    ("fraction_saline", "Fluids now 1/2 NS at 60cc/hr", "1/2", labels.DATE, None, "correct:fraction_is_a_part"),
    ("fraction_of", "Gave 1/2 of D50 for a low BS", "1/2", labels.DATE, None, "correct:fraction_is_a_part"),
    ("fraction_up", "Rales 1/3 up on the left", "1/3", labels.DATE, None, "correct:fraction_is_a_part"),
    ("fraction_date_after_of", "The night of 1/2 was calm", "1/2", labels.DATE, labels.DATE, None),
    ("fraction_with_saline", "Fluids now 1/2 NS at 60cc/hr", "1/2 NS", labels.DATE, None, "correct:fraction_with_its_part"),
    ("fraction_with_dextrose", "Gave 1/2 of D50 at noon", "1/2 of D50", labels.DATE, None,
     "correct:fraction_with_its_part"),
    ("fraction_after_up", "Rales up 1/3 from the bases", "1/3", labels.DATE, None, "correct:fraction_after_up_or_down"),
    ("fraction_of_a_year_kept", "Seen 1/2 of 2019", "1/2 of 2019", labels.DATE, labels.DATE, None),
    ("fraction_after_other_word_kept", "Seen since 1/2 at home", "1/2", labels.DATE, labels.DATE, None),
    ("date_not_a_simple_fraction", "Seen 12/4 of that year", "12/4", labels.DATE, labels.DATE, None),
    ("instrument_inside", "Cornell Scale for Depression: 14", "Cornell Scale", labels.PATIENT, None,
     "correct:name_is_instrument"),
    ("instrument_after", "Hamilton Rating Scale was 20", "Hamilton", labels.DOCTOR, None,
     "correct:name_before_instrument"),
    ("name_before_verb", "Hamilton rated her mood", "Hamilton", labels.DOCTOR, labels.DOCTOR, None),
    # a clinical eponym: the name right before the noun it names is no person or place
    ("eponym_valve", "Trialed a Passy Muir valve today", "Passy Muir", labels.CITY, None,
     "correct:name_before_eponym_head"),
    ("eponym_filter", "Greenfield filter placed today", "Greenfield", labels.CITY, None,
     "correct:name_before_eponym_head"),
    ("eponym_fracture", "Xray shows a Colles fracture", "Colles", labels.PATIENT, None,
     "correct:name_before_eponym_head"),
    ("eponym_tear", "Scope found a small Mallory Weiss tear", "Mallory Weiss", labels.PATIENT, None,
     "correct:name_before_eponym_head"),
    ("eponym_collar", "Keep the Miami J collar on", "Miami J", labels.LOCATION_OTHER, None,
     "correct:name_before_eponym_head"),
    ("eponym_position", "Put in Trendelenburg position", "Trendelenburg", labels.DOCTOR, None,
     "correct:name_before_eponym_head"),
    ("eponym_head_inside", "Scope found a small Mallory Weiss tear", "Mallory Weiss tear", labels.PATIENT, None,
     "correct:name_ending_in_eponym_head"),
    ("eponym_head_inside_place", "On a Passy Muir Valve today", "Passy Muir Valve", labels.LOCATION_OTHER, None,
     "correct:name_ending_in_eponym_head"),
    ("eponym_possessive", "Formby's drain is intact", "Formby", labels.PATIENT, labels.PATIENT, None),
    ("eponym_head_later", "Thorne placed the drain", "Thorne", labels.DOCTOR, labels.DOCTOR, None),
    ("eponym_sign_is_a_verb", "Asked Quennell to sign the form", "Quennell", labels.PATIENT, labels.PATIENT, None),
    ("eponym_ward_bed", "Moved to Wendlock bed 4", "Wendlock", labels.LOCATION_OTHER, labels.LOCATION_OTHER, None),
    # vital signs charted as decades and ranges are values, whatever the NER calls them
    ("value_range_username", "SBP 120's-150's/60-70's overnight", "120's-150's/60-70's", labels.USERNAME, None,
     "correct:value_range_is_no_name"),
    ("value_open_slash_street", "SBP fell to 140-150/ after the drip", "140-150/", labels.STREET, None,
     "correct:value_range_is_no_name"),
    ("value_room_number_kept", "Moved to room 412 today", "412", labels.ROOM, labels.ROOM, None),
    ("value_street_with_name_kept", "Lives at 150-160 Formby St", "150-160 Formby St", labels.STREET,
     labels.STREET, None),
    # a nursing note's title is no place
    ("note_title_caps", "CVICU NURSING SHIFT NOTE: Neuro intact", "CVICU NURSING", labels.LOCATION_OTHER, None,
     "correct:note_title_is_no_place"),
    ("note_title_mixed", "SICU Nursing Admit Note 7p-7a", "SICU Nursing Admit", labels.DEPARTMENT, None,
     "correct:note_title_is_no_place"),
    ("note_title_ward_name", "Wendlock Nursing Progress Note", "Wendlock Nursing", labels.LOCATION_OTHER,
     labels.LOCATION_OTHER, None),
    ("note_title_no_note", "Called MICU Nursing about the bed", "MICU Nursing", labels.DEPARTMENT, labels.DEPARTMENT, None),
    ("clinical_term", "No SIB reported", "SIB", labels.DOCTOR, None, "correct:name_is_clinical_term"),
    ("clinical_term_org", "Attends AA weekly", "AA", labels.ORGANIZATION, None, "correct:name_is_clinical_term"),
    ("unit_username", "Level 212 mcg/mL today", "mcg/mL", labels.USERNAME, None, "correct:username_is_unit"),
    ("username_plain", "Handle mcg_fan on X", "mcg_fan", labels.USERNAME, labels.USERNAME, None),
    # institutions: what the name says it is
    ("hospital_named_school", "Records from Oak Bluff Elementary arrived", "Oak Bluff Elementary",
     labels.HOSPITAL, labels.ORGANIZATION, "correct:hospital_not_medical"),
    ("hospital_named_choir", "Sings with Lakeside Harbor Chorale on Sundays", "Lakeside Harbor Chorale",
     labels.HOSPITAL, labels.ORGANIZATION, "correct:hospital_not_medical"),
    ("hospital_medical_school", "Seen at Harbor University Hospital today", "Harbor University Hospital",
     labels.HOSPITAL, labels.HOSPITAL, None),
    ("organization_named_hospital", "Transferred from Mercy Hospital overnight", "Mercy Hospital",
     labels.ORGANIZATION, labels.HOSPITAL, "correct:organization_is_hospital"),
    ("organization_hospital_employer", "He works at Mercy Hospital as a cook", "Mercy Hospital",
     labels.ORGANIZATION, labels.ORGANIZATION, None),
    ("hospital_named_unit", "Admitted to the Adult Neuropsychiatry Unit today", "Adult Neuropsychiatry Unit",
     labels.HOSPITAL, labels.DEPARTMENT, "correct:hospital_is_department"),
    ("hospital_with_unit_word", "Admitted to Mercy Clinic Unit today", "Mercy Clinic Unit",
     labels.HOSPITAL, labels.HOSPITAL, None),
    ("hospital_named_community_center", "Volunteers at Pell Ridge Community Center", "Pell Ridge Community Center",
     labels.HOSPITAL, labels.ORGANIZATION, "correct:hospital_not_medical"),
    ("hospital_community_health_center", "Seen at Pell Ridge Community Health Center", "Pell Ridge Community Health Center",
     labels.HOSPITAL, labels.HOSPITAL, None),
    ("organization_admitted_to", "She was admitted to Birchwood Manor for rehab", "Birchwood Manor",
     labels.ORGANIZATION, labels.HOSPITAL, "correct:organization_admitted_to"),
    ("organization_admitted_school", "He was admitted to Harlow College in May", "Harlow College",
     labels.ORGANIZATION, labels.ORGANIZATION, None),
    ("organization_visited", "She visited Birchwood Manor in May", "Birchwood Manor",
     labels.ORGANIZATION, labels.ORGANIZATION, None),
    # places: buildings and bases are other locations
    ("city_named_hall", "Lives in a suite in Penrose Hall on campus", "Penrose Hall",
     labels.CITY, labels.LOCATION_OTHER, "correct:place_is_landmark"),
    ("city_named_quad", "Avoids the Tillman Quad since May", "Tillman Quad",
     labels.CITY, labels.LOCATION_OTHER, "correct:place_is_landmark"),
    ("city_plain", "Lives in Marshall Falls since May", "Marshall Falls", labels.CITY, labels.CITY, None),
    ("city_named_fort", "Was stationed near Fort Tamsin for a year", "Fort Tamsin",
     labels.CITY, labels.LOCATION_OTHER, "correct:place_is_military_base"),
    ("organization_named_fob", "Injured at FOB Harwan in 2010", "FOB Harwan",
     labels.ORGANIZATION, labels.LOCATION_OTHER, "correct:organization_is_military_base"),
    ("city_fortune", "Moved to Fortuna Bay in May", "Fortuna Bay", labels.CITY, labels.CITY, None),
    # person roles: who is a clinician
    ("therapy_with", "Weekly therapy with Ms. Quennell since May", "Quennell",
     labels.PATIENT, labels.DOCTOR, "correct:patient_clinician_role"),
    ("union_rep", "Union rep: Ivo Marsh (helping with forms)", "Ivo Marsh",
     labels.DOCTOR, labels.PATIENT, "correct:doctor_family_role"),
    ("therapy_with_mother", "Family therapy with mother Ada Quennell", "Ada Quennell",
     labels.DOCTOR, labels.PATIENT, "correct:doctor_family_role"),
]


@pytest.mark.parametrize(
    "text,mention,given,expected,provenance",
    [case[1:] for case in CORRECTION_CASES],
    ids=[case[0] for case in CORRECTION_CASES],
)
def test_error_correction(text, mention, given, expected, provenance):
    nlp = make_nlp(reconcile=False, propagate=False)
    doc = run(nlp, build(nlp, text, ner=[(mention, given)]))
    if expected is None:
        assert ents(doc) == []
        return
    assert ents(doc) == [(mention, expected)]
    assert doc.ents[0]._.phi_source == ("ner" if provenance is None else f"ner|{provenance}")


def test_lower_case_guard_spares_names_the_lexicon_knows():
    """"rose" in lower case is still a first name; "sundowning" is no name."""
    nlp = spacy.blank("en")
    nlp.add_pipe("deid_lexicon").initialize(nlp=nlp, lexicons={"FIRST": ["Rose"]}, frequencies={})
    nlp.add_pipe("deid_reconciler", config={"reconcile": False, "propagate": False}).initialize()
    doc = build(nlp, "Visited by rose and sundowning in the Evening", ner=[("rose", labels.PATIENT),
                                                                          ("sundowning", labels.PATIENT)])
    doc = nlp.get_pipe("deid_lexicon")(doc)
    doc = run(nlp, doc)
    assert ents(doc) == [("rose", labels.PATIENT)]


@pytest.mark.parametrize(
    "rule,message",
    [
        ({"kind": "shape"}, "needs a 'pattern'"),
        ({"kind": "shape", "pattern": "(unclosed"}, "not a valid regular expression"),
        ({"kind": "shape", "pattern": "x", "match": "maybe"}, "match must be one of"),
        ({"kind": "shape", "pattern": "x", "unless_tags": "FIRST"}, "unless_tags must be a list"),
        ({"kind": "shape", "pattern": "x", "unless_pattern": "(unclosed"}, "unless_pattern is not a valid"),
        ({"kind": "shape", "pattern": "x", "unless_pattern": 3}, "unless_pattern must be a regular expression"),
    ],
)
def test_shape_rule_errors(rule, message):
    lists = json.loads(DEFAULT_LISTS_PATH.read_text())
    raw = dict({"id": "bad", "step": "correct", "labels": [labels.PATIENT], "relabel": None}, **rule)
    with pytest.raises(ReconcilerRuleError, match=message):
        RuleSet([raw], lists)


@pytest.mark.parametrize(
    "attribute,given,expected",
    [("fax", labels.PHONE, labels.FAX), ("phone", labels.FAX, labels.PHONE), ("phone", labels.PHONE, labels.PHONE)],
)
def test_error_correction_from_attribute_spans(attribute, given, expected):
    nlp = make_nlp(reconcile=False, propagate=False)
    doc = build(nlp, "Number 617-555-0100", ner=[("617-555-0100", given)], attributes=[("617-555-0100", attribute)])
    assert ents(run(nlp, doc)) == [("617-555-0100", expected)]


def test_error_correction_from_token_extension():
    if not Token.has_extension("attribute_name"):
        Token.set_extension("attribute_name", default=None)
    nlp = make_nlp(reconcile=False, propagate=False)
    doc = build(nlp, "Number 617-555-0100", ner=[("617-555-0100", labels.PHONE)])
    for token in doc[1:]:
        token._.attribute_name = "fax"
    try:
        assert ents(run(nlp, doc)) == [("617-555-0100", labels.FAX)]
    finally:
        for token in doc:
            token._.attribute_name = None


@pytest.mark.parametrize(
    "text,given,attribute,expected",
    [
        # a patient may be a doctor: the title cue does not reach the patient-name value
        ("Patient: Dr. Quill . Dr. Quill said so .", labels.PATIENT, "patient_name", labels.PATIENT),
        ("Patient: Dr. Quill . Dr. Quill said so .", labels.DOCTOR, "patient_name", labels.PATIENT),
        ("Contact: Dr. Quill . Quill said so .", labels.PATIENT, "clinician", labels.DOCTOR),
        ("Emergency contact: Quill . Quill said so .", labels.DOCTOR, "emergency_contact", labels.PATIENT),
    ],
)
def test_patient_and_contact_attributes(text, given, attribute, expected):
    nlp = make_nlp(propagate=False)
    doc = build(nlp, text, ner=[("Quill", given, 0), ("Quill", given, 1)], attributes=[("Quill", attribute, 0)])
    assert run(nlp, doc).ents[0].label_ == expected


def test_error_correction_changes_a_mention_once():
    """An attribute rule and a context rule that disagree do not undo each other."""
    nlp = make_nlp(reconcile=False, propagate=False)
    doc = build(nlp, "Tel: 617-555-0100", ner=[("617-555-0100", labels.PHONE)], attributes=[("617-555-0100", "fax")])
    run(nlp, doc)
    assert ents(doc) == [("617-555-0100", labels.FAX)]
    assert doc.ents[0]._.phi_source == "ner|correct:fax_attribute"


def test_error_correction_switch():
    nlp = make_nlp(correct=False, reconcile=False, propagate=False)
    doc = run(nlp, build(nlp, "moved to Ontario and Fax: 617-555-0100", ner=[
        ("Ontario", labels.STATE), ("617-555-0100", labels.PHONE)]))
    assert ents(doc) == [("Ontario", labels.STATE), ("617-555-0100", labels.PHONE)]


def test_error_correction_applies_to_rule_hits_too():
    nlp = make_nlp(reconcile=False, propagate=False)
    doc = build(nlp, "Fax: 617-555-0100", rules=[("617-555-0100", labels.PHONE, "phone_nanp")])
    run(nlp, doc)
    assert doc.ents[0].label_ == labels.FAX
    assert doc.ents[0]._.phi_source == "rule:phone_nanp|correct:fax_context"


# --- (3) global reconciliation ---------------------------------------------------


def test_reconcile_title_cue_makes_every_mention_doctor():
    nlp = make_nlp(correct=False, propagate=False)
    text = "Seen by Dr. Quill today. Quill suggested rest. QUILL will call."
    doc = build(nlp, text, ner=[("Quill", labels.DOCTOR, 0), ("Quill", labels.PATIENT, 1), ("QUILL", labels.PATIENT)])
    run(nlp, doc)
    assert [e.label_ for e in doc.ents] == [labels.DOCTOR] * 3
    assert [e._.phi_source for e in doc.ents] == [
        "ner", "ner|reconcile:doctor_title_cue", "ner|reconcile:doctor_title_cue"]


def test_reconcile_credential_cue():
    nlp = make_nlp(correct=False, propagate=False)
    text = "Anna Quill , MD wrote this. Anna Quill will follow up."
    doc = build(nlp, text, ner=[("Anna Quill", labels.PATIENT, 0), ("Anna Quill", labels.PATIENT, 1)])
    assert [e.label_ for e in run(nlp, doc).ents] == [labels.DOCTOR, labels.DOCTOR]


def test_reconcile_referral_source_attribute():
    nlp = make_nlp(correct=False, propagate=False)
    text = "Referral source: Quill. Pt says Quill is kind. Quill agreed."
    doc = build(
        nlp, text,
        ner=[("Quill", labels.PATIENT, 0), ("Quill", labels.PATIENT, 1), ("Quill", labels.PATIENT, 2)],
        attributes=[("Quill", "referral_source", 0)],
    )
    run(nlp, doc)
    assert [e.label_ for e in doc.ents] == [labels.DOCTOR] * 3
    assert doc.ents[2]._.phi_source == "ner|reconcile:doctor_referral_attribute"


def test_reconcile_referral_attribute_not_for_family():
    nlp = make_nlp(correct=False, propagate=False)
    text = "Referral source: his wife , Nell Quill . Nell Quill is worried ."
    doc = build(nlp, text, ner=[("Nell Quill", labels.PATIENT, 0), ("Nell Quill", labels.PATIENT, 1)],
                attributes=[("his wife , Nell Quill", "referral_source")])
    assert [e.label_ for e in run(nlp, doc).ents] == [labels.PATIENT, labels.PATIENT]


def test_reconcile_cue_rules_beat_counting():
    nlp = make_nlp(correct=False, propagate=False)
    text = "Quill came. Quill left. Quill slept. Dr. Quill called."
    doc = build(nlp, text, ner=[("Quill", labels.PATIENT, i) for i in range(3)] + [("Quill", labels.DOCTOR, 3)])
    assert {e.label_ for e in run(nlp, doc).ents} == {labels.DOCTOR}


COUNT_CASES = [
    # given labels of one string, min_count, expected labels
    ((labels.HOSPITAL, labels.HOSPITAL, labels.ORGANIZATION), 2, (labels.HOSPITAL,) * 3),
    ((labels.HOSPITAL, labels.ORGANIZATION), 2, (labels.HOSPITAL, labels.ORGANIZATION)),  # nobody twice
    ((labels.HOSPITAL, labels.HOSPITAL, labels.ORGANIZATION, labels.ORGANIZATION), 2,
     (labels.HOSPITAL, labels.HOSPITAL, labels.ORGANIZATION, labels.ORGANIZATION)),  # tie: unchanged
    ((labels.CITY, labels.CITY, labels.CITY, labels.STATE), 3, (labels.CITY,) * 4),
    ((labels.CITY, labels.CITY, labels.STATE), 3, (labels.CITY, labels.CITY, labels.STATE)),
]


@pytest.mark.parametrize("given,min_count,expected", COUNT_CASES)
def test_reconcile_type_counting(given, min_count, expected):
    nlp = make_nlp(correct=False, propagate=False, min_count=min_count)
    text = " and ".join(["Westbrook"] * len(given)) + " ."
    doc = build(nlp, text, ner=[("Westbrook", label, i) for i, label in enumerate(given)])
    assert tuple(e.label_ for e in run(nlp, doc).ents) == expected
    changed = [e._.phi_source for e in doc.ents if e._.phi_source != "ner"]
    assert all(p == "ner|reconcile:count" for p in changed)


def test_reconcile_counting_ignores_case_for_names():
    nlp = make_nlp(correct=False, propagate=False)
    doc = build(nlp, "Quill and quill and QUILL .", ner=[
        ("Quill", labels.PATIENT), ("quill", labels.PATIENT), ("QUILL", labels.DOCTOR)])
    assert [e.label_ for e in run(nlp, doc).ents] == [labels.PATIENT] * 3


def test_reconcile_leaves_numbers_and_dates_alone():
    nlp = make_nlp(correct=False, propagate=False)
    doc = build(nlp, "age 12 and 12 and 12 .", ner=[
        ("12", labels.AGE, 0), ("12", labels.DATE, 1), ("12", labels.DATE, 2)])
    assert [e.label_ for e in run(nlp, doc).ents] == [labels.AGE, labels.DATE, labels.DATE]


def test_reconcile_partial_names():
    nlp = make_nlp(correct=False, propagate=False)
    doc = build(nlp, "John Quill , his psychiatrist . Later Quill called .", ner=[
        ("John Quill", labels.DOCTOR), ("Quill", labels.PATIENT, 1)])
    run(nlp, doc)
    assert ents(doc) == [("John Quill", labels.DOCTOR), ("Quill", labels.DOCTOR)]
    assert doc.ents[1]._.phi_source == "ner|reconcile:partial_name"
    nlp_off = make_nlp(correct=False, propagate=False, partial_names=False)
    doc = build(nlp_off, "John Quill , his psychiatrist . Later Quill called .", ner=[
        ("John Quill", labels.DOCTOR), ("Quill", labels.PATIENT, 1)])
    assert ents(run(nlp_off, doc))[1] == ("Quill", labels.PATIENT)


def test_reconcile_switch():
    nlp = make_nlp(correct=False, propagate=False, reconcile=False)
    doc = build(nlp, "Seen by Dr. Quill today. Quill left.", ner=[("Quill", labels.DOCTOR, 0), ("Quill", labels.PATIENT, 1)])
    assert [e.label_ for e in run(nlp, doc).ents] == [labels.DOCTOR, labels.PATIENT]


# --- (4) propagation ------------------------------------------------------------


def test_propagation_labels_unlabelled_occurrences():
    nlp = make_nlp(correct=False, reconcile=False)
    text = "Pt lives with Anna Quill . ANNA QUILL visits daily ; Quill works nights ."
    doc = build(nlp, text, ner=[("Anna Quill", labels.PATIENT)])
    run(nlp, doc)
    # whole string, case-insensitive for names; the bare surname is not "Anna Quill"
    assert ents(doc) == [("Anna Quill", labels.PATIENT), ("ANNA QUILL", labels.PATIENT)]
    assert doc.ents[1]._.phi_source == "propagate"


def test_propagation_is_token_aligned():
    nlp = make_nlp(correct=False, reconcile=False)
    doc = build(nlp, "Quill met Quillian and McQuill friends . Quill", ner=[("Quill", labels.PATIENT, 0)])
    run(nlp, doc)
    assert [(e.start_char, e.label_) for e in doc.ents] == [(0, labels.PATIENT), (len(doc.text) - 5, labels.PATIENT)]


GUARD_CASES = [
    # id, text, mention, label, whether the second occurrence gets labelled
    ("name", "Brandt came . Brandt left .", "Brandt", labels.PATIENT, True),
    ("stop_word", "Will came . Will left .", "Will", labels.PATIENT, False),
    ("common_word", "Hope came . Hope left .", "Hope", labels.PATIENT, False),
    ("month", "May came . May left .", "May", labels.PATIENT, False),
    ("clinical_term", "Parkinson came . Parkinson left .", "Parkinson", labels.PATIENT, False),
    ("short", "Bo came . Bo left .", "Bo", labels.PATIENT, False),
    ("year_digits", "In 2019 . In 2019 .", "2019", labels.DATE, False),
    ("full_date", "On 3/4/2019 . On 3/4/2019 .", "3/4/2019", labels.DATE, True),
    ("idnum_digits", "ID 448812 . ID 448812 .", "448812", labels.IDNUM, True),
    ("age_not_propagated", "aged 45 . aged 45 .", "45", labels.AGE, False),
    ("lowercase_occurrence", "Brandt came . brandt left .", "Brandt", labels.PATIENT, False),
    ("exact_case_for_ids", "ID AB12C . ID ab12c .", "AB12C", labels.IDNUM, False),
]


@pytest.mark.parametrize(
    "text,mention,label,propagated", [c[1:] for c in GUARD_CASES], ids=[c[0] for c in GUARD_CASES]
)
def test_propagation_guards(text, mention, label, propagated):
    nlp = make_nlp(correct=False, reconcile=False)
    doc = run(nlp, build(nlp, text, ner=[(mention, label, 0)]))
    assert len(doc.ents) == (2 if propagated else 1)
    assert all(e.label_ == label for e in doc.ents)


def test_propagation_extends_person_names_and_skips_longer_names():
    nlp = make_nlp(correct=False, reconcile=False)
    text = "Quill came .\nHusband Piet Quill-Brandt called ; Anna Quill too .\nQuill Boat Club ; Westbrook Boat Club ; Westbrook"
    doc = build(nlp, text, ner=[("Quill", labels.PATIENT, 0), ("Westbrook", labels.CITY, 1)])
    run(nlp, doc)
    assert ents(doc) == [
        ("Quill", labels.PATIENT), ("Piet Quill-Brandt", labels.PATIENT), ("Anna Quill", labels.PATIENT),
        ("Westbrook", labels.CITY),
    ]
    assert doc.ents[1]._.phi_source == "propagate|propagate:extend_name"
    assert doc.ents[3]._.phi_source == "ner"  # the Westbrook inside "Westbrook Boat Club" is left alone


def test_propagation_skips_ambiguous_strings_and_never_overlaps():
    nlp = make_nlp(correct=False, reconcile=False)
    text = "Brandt came . Brandt left . Brandt Clinic called . Brandt"
    doc = build(nlp, text, ner=[("Brandt", labels.PATIENT, 0), ("Brandt", labels.DOCTOR, 1), ("Brandt Clinic", labels.HOSPITAL)])
    run(nlp, doc)
    assert len(doc.ents) == 3  # the last "Brandt" is PATIENT or DOCTOR: left alone


def test_propagation_min_length_and_switch():
    text = "Brandt came . Brandt left ."
    nlp = make_nlp(correct=False, reconcile=False, propagation_min_length=7)
    assert len(run(nlp, build(nlp, text, ner=[("Brandt", labels.PATIENT, 0)])).ents) == 1
    nlp = make_nlp(correct=False, reconcile=False, propagate=False)
    assert len(run(nlp, build(nlp, text, ner=[("Brandt", labels.PATIENT, 0)])).ents) == 1


def test_all_steps_together():
    nlp = make_nlp()
    text = "Referred by Dr. Quill . Fax: 617-555-0100 . Quill will call . Mother Nell Brandt ; Nell Brandt is 50 ."
    doc = build(
        nlp, text,
        ner=[("Quill", labels.PATIENT, 0), ("Quill", labels.PATIENT, 1), ("Nell Brandt", labels.PATIENT, 0)],
        rules=[("617-555-0100", labels.PHONE, "phone_nanp")],
    )
    run(nlp, doc)
    assert ents(doc) == [
        ("Quill", labels.DOCTOR), ("617-555-0100", labels.FAX), ("Quill", labels.DOCTOR),
        ("Nell Brandt", labels.PATIENT), ("Nell Brandt", labels.PATIENT),
    ]
    assert [e._.phi_source for e in doc.ents] == [
        "ner|correct:patient_title_before", "rule:phone_nanp|correct:fax_context",
        "ner|reconcile:doctor_title_cue", "ner", "propagate",
    ]


# --- provenance ------------------------------------------------------------------


def test_provenance_group_mirrors_ents_and_survives_serialisation():
    nlp = make_nlp()
    doc = build(nlp, "Fax: 617-555-0100 . Brandt came . Brandt left .", ner=[("Brandt", labels.PATIENT, 0)],
                rules=[("617-555-0100", labels.PHONE, "phone_nanp")])
    run(nlp, doc)
    group = doc.spans[PROVENANCE_KEY]
    assert [(s.start, s.end, s.label_) for s in group] == [(e.start, e.end, e.label_) for e in doc.ents]
    expected = [e._.phi_source for e in doc.ents]
    assert expected == ["rule:phone_nanp|correct:fax_context", "ner", "propagate"]
    again = Doc(spacy.blank("en").vocab).from_bytes(doc.to_bytes())
    assert [e._.phi_source for e in again.ents] == expected
    docbin = DocBin(docs=[doc])
    fresh = list(DocBin().from_bytes(docbin.to_bytes()).get_docs(spacy.blank("en").vocab))[0]
    assert [e._.phi_source for e in fresh.ents] == expected


def test_dropped_mentions_are_kept_with_the_reason():
    nlp = make_nlp(reconcile=False, propagate=False)
    doc = build(nlp, "Call 617-555-0100 from Ontario .", ner=[("617-555-0100", labels.DATE), ("Ontario", labels.STATE)],
                rules=[("617-555-0100", labels.PHONE, "phone_nanp")])
    run(nlp, doc)
    assert ents(doc) == [("617-555-0100", labels.PHONE)]
    assert [(s.text, s.label_, s.id_) for s in doc.spans["phi_dropped"]] == [
        ("617-555-0100", labels.DATE, "ner|merge:under_rule"),
        ("Ontario", labels.STATE, "ner|correct:state_us_only"),
    ]


def test_phi_source_is_none_without_reconciler():
    nlp = spacy.blank("en")
    doc = nlp.make_doc("Brandt came")
    doc.ents = [Span(doc, 0, 1, labels.PATIENT)]
    from spacy_deid.extensions import install_extensions
    install_extensions()
    assert doc.ents[0]._.phi_source is None


# --- rule data ---------------------------------------------------------------------


def test_packaged_rule_files_are_valid_and_ids_unique():
    data = make_reconciler_rules()
    ruleset = RuleSet.from_data(data)
    ids = [r["id"] for r in data["rules"]]
    assert len(ids) == len(set(ids)) and all(ids)
    assert all(r.get("description") for r in data["rules"])
    assert {"ohio", "oh", "ny", "new hampshire", "ma"} <= ruleset.lists["us_states"]
    assert "ontario" not in ruleset.lists["us_states"]


@pytest.mark.parametrize(
    "change,message",
    [
        ({"id": ""}, "no id"),
        ({"step": "later"}, "step"),
        ({"kind": "magic"}, "kind"),
        ({"labels": ["NOTATYPE"]}, "labels"),
        ({"relabel": "NOTATYPE"}, "relabel"),
        ({"cues": ["no_such_list"]}, "unknown list"),
        ({"cues": []}, "needs cues"),
    ],
)
def test_bad_rules_are_rejected_with_the_rule_id(change, message):
    data = make_reconciler_rules()
    index = next(i for i, r in enumerate(data["rules"]) if r["kind"] == "context")
    data["rules"][index] = {**data["rules"][index], **change}
    with pytest.raises(ReconcilerRuleError, match=message):
        RuleSet.from_data(data)


def test_duplicate_rule_ids_and_missing_lists_are_rejected():
    data = make_reconciler_rules()
    data["rules"].append(dict(data["rules"][0]))
    with pytest.raises(ReconcilerRuleError, match="duplicate"):
        RuleSet.from_data(data)
    data = make_reconciler_rules()
    del data["lists"]["clinical_terms"]
    with pytest.raises(ReconcilerRuleError, match="clinical_terms"):
        RuleSet.from_data(data)


@pytest.mark.parametrize(
    "cues,text,found",
    [
        (["fax"], "fax:", True), (["fax"], "faxed", False), (["fax"], "telefax", False),
        (["f:"], "f:555", True), (["f:"], "if:", False), (["works at"], "works  at", True),
        (["dr"], "dr.", True), (["dr"], "drive", False), (["md"], ", md", True),
    ],
)
def test_cue_matching(cues, text, found):
    assert bool(compile_cues(cues).search(text)) is found


@pytest.mark.parametrize("given,expected", [("N.Y.", "ny"), ("New  York", "new york"), (" Mass. ", "mass")])
def test_normalize_value(given, expected):
    assert normalize_value(given) == expected


# --- initialize, config, serialisation ----------------------------------------------


def custom_rules(tmp_path):
    """A rule set with one rule: every CITY is dropped."""
    lists = json.loads(DEFAULT_LISTS_PATH.read_text(encoding="utf-8"))
    rules_path, lists_path = tmp_path / "rules.jsonl", tmp_path / "lists.json"
    rule = {"id": "no_cities", "step": "correct", "kind": "lexicon", "labels": [labels.CITY],
            "lexicon": "stop_words", "match": "not_in", "relabel": None, "description": "test"}
    rules_path.write_text(json.dumps(rule) + "\n", encoding="utf-8")
    lists_path.write_text(json.dumps(lists), encoding="utf-8")
    return rules_path, lists_path


def test_initialize_replaces_rules(tmp_path):
    nlp = make_nlp()
    rules_path, lists_path = custom_rules(tmp_path)
    nlp.initialize()
    assert "fax_context" in nlp.get_pipe("deid_reconciler").rule_ids
    nlp.get_pipe("deid_reconciler").initialize(rules=make_reconciler_rules(str(rules_path), str(lists_path)))
    assert nlp.get_pipe("deid_reconciler").rule_ids == ["no_cities"]


def test_config_path_initializes_rules_from_loader(tmp_path):
    rules_path, lists_path = custom_rules(tmp_path)
    nlp = spacy.blank("en")
    nlp.add_pipe("deid_reconciler", name="reconciler", config={"reconcile": False, "propagate": False})
    config = nlp.config.copy()
    config["initialize"]["components"]["reconciler"] = {
        "rules": {"@misc": "spacy-deid.ReconcilerRules.v1", "rules_path": str(rules_path), "lists_path": str(lists_path)}
    }
    nlp = spacy.util.load_model_from_config(config, auto_fill=True)
    nlp.initialize()
    assert nlp.get_pipe("reconciler").rule_ids == ["no_cities"]
    doc = build(nlp, "Fax: 617-555-0100 in Springfield", ner=[("617-555-0100", labels.PHONE), ("Springfield", labels.CITY)])
    doc = nlp.get_pipe("reconciler")(doc)
    assert ents(doc) == [("617-555-0100", labels.PHONE)]  # packaged fax rule gone, custom rule active


def test_loader_names_the_missing_file(tmp_path):
    with pytest.raises(ReconcilerRuleError, match="not found"):
        make_reconciler_rules(str(tmp_path / "nope.jsonl"))


def test_to_disk_and_spacy_load_round_trip(tmp_path):
    rules_path, lists_path = custom_rules(tmp_path / "src" if (tmp_path / "src").mkdir() is None else tmp_path)
    nlp = make_nlp(propagate=False, min_count=3)
    nlp.initialize()
    nlp.get_pipe("deid_reconciler").initialize(rules=make_reconciler_rules(str(rules_path), str(lists_path)))
    nlp.to_disk(tmp_path / "pipeline")
    assert (tmp_path / "pipeline" / "deid_reconciler" / "rules.jsonl").is_file()
    rules_path.unlink()  # the saved pipeline must not need the source files
    loaded = spacy.load(tmp_path / "pipeline")
    rec = loaded.get_pipe("deid_reconciler")
    assert rec.rule_ids == ["no_cities"] and rec.propagate is False and rec.min_count == 3
    doc = build(loaded, "in Springfield", ner=[("Springfield", labels.CITY)])
    assert ents(loaded(doc)) == []
    again = make_nlp().get_pipe("deid_reconciler").from_bytes(rec.to_bytes())
    assert again.rule_ids == ["no_cities"]


def test_scorer_reports_entity_prf():
    from spacy.training import Example

    nlp = make_nlp()
    gold = build(nlp, "Fax: 617-555-0100", ner=[("617-555-0100", labels.FAX)])
    pred = run(nlp, build(nlp, "Fax: 617-555-0100", ner=[("617-555-0100", labels.PHONE)]))
    scores = nlp.get_pipe("deid_reconciler").score([Example(pred, gold)])
    assert scores["ents_f"] == 1.0


# --- note-level helpers counted without Token objects -------------------------------
@pytest.mark.parametrize(
    "text,expected",
    [
        ("Patient John Smith seen today with his Mother in Boston.", True),
        ("patient john smith seen today with his mother in boston.", False),  # all lower case
        ("PATIENT JOHN SMITH SEEN TODAY WITH HIS MOTHER IN BOSTON.", False),  # all capitals
        ("Pt Seen Today With Mother", False),  # every word capitalised
        ("12 34 / - .", False),  # no words
        ("", False),
    ],
)
def test_mixed_case(text, expected):
    from spacy_deid.pipeline.reconciler.steps import mixed_case

    assert mixed_case(spacy.blank("en")(text)) is expected


def test_mixed_case_counts_repeated_words_each_time():
    from spacy_deid.pipeline.reconciler.steps import mixed_case

    # one capitalised word against a lower-case word repeated: the share is per token
    assert mixed_case(spacy.blank("en")("Smith " + "seen " * 2)) is True
    assert mixed_case(spacy.blank("en")("Smith " + "seen " * 40)) is False


def test_lower_forms_match_token_lower():
    from spacy_deid.pipeline.reconciler.propagation import _lower_forms

    doc = spacy.blank("en")("Smith met SMITH and smith; Ärzte ÄRZTE")
    assert _lower_forms(doc) == [t.lower_ for t in doc]



@pytest.mark.parametrize("text, mention, label", [
    ("PT RESTING. ABEL VISITED THIS AM.", "ABEL", labels.PATIENT),  # a one-case note
    ("Seen with Rosalind, her sister, at noon.", "Rosalind", labels.PATIENT),
    ("Followed by Dr. Quennell, MD in clinic.", "Quennell", labels.DOCTOR),
    ("Lives in Formby with her husband.", "Formby", labels.CITY),
    ("Call 555-0199 after 5 pm.", "555-0199", labels.PHONE),
])
def test_every_cue_regex_is_compiled_when_the_rules_load(
        reconciler_nlp_with, entities_from_ner, text, mention, label):
    """Forked nlp.pipe workers find the cue regexes compiled in the parent's
    memory instead of compiling them again on each worker's first notes."""
    nlp = reconciler_nlp_with({"FIRST": ["Rosalind", "Abel"], "LAST": ["Quennell"]})
    ruleset = nlp.get_pipe("deid_reconciler").ruleset
    compiled = dict(ruleset._cue_cache)
    entities_from_ner(nlp, text, mention, label)
    assert ruleset._cue_cache == compiled


def test_the_eponym_pattern_spells_out_the_eponym_heads():
    """name_ending_in_eponym_head's pattern and the list eponym_heads name the same nouns."""
    import re
    from spacy_deid.pipeline.reconciler.rules import make_reconciler_rules
    rules = make_reconciler_rules()
    pattern = next(r["pattern"] for r in rules["rules"] if r["id"] == "name_ending_in_eponym_head")
    spelled = set(re.search(r"\(\?i:([^)]*)\)\$$", pattern).group(1).split("|"))
    assert spelled == set(rules["lists"]["eponym_heads"])
