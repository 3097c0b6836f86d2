"""Issue 25, sixth step: runs of charting words that the NER takes for a name
(a drug beside common words, a typing slip beside clinical words), and the
name shapes nursing notes write. Positives and negatives; all strings and
names invented."""
import pytest
import spacy

from spacy_deid import labels
from spacy_deid.pipeline.reconciler.rules import ReconcilerRuleError, RuleSet, make_reconciler_rules
from test_reconciler_clinical_notes import names_after_lexicon_and_reconciler as entities_left


@pytest.fixture(scope="module")
def nlp():
    nlp = spacy.blank("en")
    # "Start" and "Bell" surnames, "Start" and "Okeby" towns, "Rosalind" a first name
    nlp.add_pipe("deid_lexicon").initialize(
        nlp=nlp, lexicons={"FIRST": ["Rosalind", "Abel"], "LAST": ["Start", "Bell", "Formby"],
                           "CITY": ["Start", "Okeby"]},
        frequencies={})
    nlp.add_pipe("deid_reconciler", config={"reconcile": False, "propagate": False}).initialize()
    return nlp


@pytest.mark.parametrize("text, mention, label, kept", [
    # a drug or clinical word, the other words English, initials or tokens with a sign
    ("Thrush: Nystatin S+S given at noon.", "Nystatin S+S", labels.PATIENT, False),
    ("Improved N/V. Droperidol held tonight.", "V. Droperidol", labels.DOCTOR, False),
    ("Heparin and Natrecor running at the same rates.", "Heparin and Natrecor",
     labels.PATIENT, False),
    ("Tube feeds: 3/4 str Nepro via ngt.", "str Nepro", labels.LOCATION_OTHER, False),
    # a title before it, a word no English list holds, no clinical word,
    # a surname or town list knowing a word, or an organisation's name
    ("Seen by Dr. Bell Heparin today.", "Bell Heparin", labels.DOCTOR, True),
    ("Quennell Lasix called back tonight.", "Quennell Lasix", labels.PATIENT, True),
    ("Spoke with Abel Strong about the plan.", "Abel Strong", labels.PATIENT, True),
    ("Plan: Start Nepro slowly.", "Start Nepro", labels.PATIENT, True),
    ("Heparin Cancer Society called back.", "Heparin Cancer Society", labels.ORGANIZATION, True),
])
def test_a_run_of_clinical_and_english_words_is_no_name(nlp, text, mention, label, kept):
    assert entities_left(nlp, text, mention, label) == ([mention] if kept else [])


@pytest.mark.parametrize("text, mention, kept", [
    # a typing slip beside clinical or English words, on a line in mixed case
    ("Afebrile.\nResp: LS Diminshed on the left.", "LS Diminshed", False),
    ("Diuresing. Excellant UO overnight.", "Excellant UO", False),
    ("Tolerating diet. Recieving PO meds.", "Recieving PO", False),
    # a first name, no slip, a line in capitals, a quote glued before it
    ("Wife in. Rosalind Brisko called twice.", "Rosalind Brisko", True),
    ("Wife in. Strong Formby called twice.", "Strong Formby", True),
    ("Social: lives alone.\nWIFE: STRONG BRISKO, AT BEDSIDE.", "STRONG BRISKO", True),
    ('Brother in, called "Strong Brisko" by all.', "Strong Brisko", True),
])
def test_a_phrase_with_a_typing_slip_is_no_name(nlp, text, mention, kept):
    assert entities_left(nlp, text, mention, labels.PATIENT) == ([mention] if kept else [])


@pytest.fixture(scope="module")
def package_lists():
    return make_reconciler_rules()["lists"]


@pytest.mark.parametrize("option", [
    {"slips_count": True}, {"skip_initials_and_signs": True}, {"needs_slip": True},
    {"needs_word_from": "clinical_vocabulary"},
])
def test_word_options_need_a_lexicon_rule_on_each_token(package_lists, option):
    rule = {"id": "r", "step": "correct", "kind": "lexicon", "labels": [labels.PATIENT],
            "lexicon": "clinical_vocabulary", **option}
    with pytest.raises(ReconcilerRuleError, match="each_token"):
        RuleSet([rule], package_lists)


def test_needs_word_from_names_a_known_list(package_lists):
    rule = {"id": "r", "step": "correct", "kind": "lexicon", "labels": [labels.PATIENT],
            "lexicon": "clinical_vocabulary", "each_token": True, "needs_word_from": "no_such_list"}
    with pytest.raises(ReconcilerRuleError, match="no_such_list"):
        RuleSet([rule], package_lists)


def rules_pipeline(lexicons):
    """The lexicon (with these word lists), the PHI patterns and the reconciler,
    behind the package's tokenizer, which splits a ward's number from its name
    ("formby2")."""
    nlp = spacy.blank("en", config={"nlp": {"tokenizer": {"@tokenizers": "spacy-deid.Tokenizer.v1"}}})
    nlp.add_pipe("deid_lexicon").initialize(nlp=nlp, lexicons=lexicons, frequencies={})
    nlp.add_pipe("deid_phi_rules").initialize()
    nlp.add_pipe("deid_reconciler", config={"reconcile": False, "propagate": False}).initialize()
    return nlp


@pytest.fixture(scope="module")
def rules_nlp():
    # "Formby" and "Tremb" surnames no English list holds; "Foster" one it does
    return rules_pipeline({"FIRST": ["Rosalind"], "LAST": ["Formby", "Tremb", "Foster", "Quennell"]})


def entities(nlp, text, ner=()):
    """The entities the lexicon, the patterns and the reconciler leave, given
    the NER's mentions `ner` as (text, label)."""
    doc = nlp.make_doc(text)
    doc.ents = [doc.char_span(text.index(t), text.index(t) + len(t), label=label) for t, label in ner]
    for component in ("deid_lexicon", "deid_phi_rules", "deid_reconciler"):
        doc = nlp.get_pipe(component)(doc)
    return [(e.text, e.label_) for e in doc.ents]


@pytest.mark.parametrize("text, names", [
    # a surname before 'family', capitalised or in capitals
    ("Spoke with the Formby family at the bedside.", ["Formby"]),
    ("UPDATED TREMB FAMILY BY PHONE.", ["TREMB"]),
    # no surname list knows it, or it is a common English word
    ("Spoke with the Quennelly family at the bedside.", []),
    ("UPDATED HER FAMILY. FOSTER FAMILY IN.", []),
    ("Pt stable. Updated family by phone.", []),
    # lower case: no name shape
    ("spoke with formby family at the bedside.", []),
])
def test_a_surname_before_family(rules_nlp, text, names):
    assert [t for t, _ in entities(rules_nlp, text)] == names


@pytest.mark.parametrize("text, names", [
    # a name after a title in capitals, a hyphen glued after it ('MR. TREMB- PLEASE ...')
    ("CALLED MR. FORMBY AND MR. TREMB- BOTH AGREE.", ["FORMBY", "TREMB-"]),
    # a hyphened name is not cut in two
    ("NOTES REFER TO MR. FORMBY-TREMB TODAY.", []),
])
def test_a_name_after_a_title_before_a_glued_hyphen(rules_nlp, text, names):
    assert [t for t, _ in entities(rules_nlp, text)] == names


@pytest.mark.parametrize("ner, kept", [
    # the NER's phrase over the pattern's surname is dropped: the surname comes back
    (("TREMB FAMILY BY PHONE", labels.HOSPITAL), [("TREMB", labels.PATIENT)]),
    # the NER's own mention stays: the pattern keeps giving way to it
    (("TREMB", labels.PATIENT), [("TREMB", labels.PATIENT)]),
])
def test_a_pattern_hit_comes_back_when_the_ner_mention_it_gave_way_to_is_dropped(rules_nlp, ner, kept):
    assert entities(rules_nlp, "UPDATED TREMB FAMILY BY PHONE.", [ner]) == kept


def test_revived_mentions_leave_the_dropped_list():
    from spacy_deid.pipeline.reconciler.merging import revive_yielded
    from spacy_deid.pipeline.reconciler.steps import Mention

    rule_hit = Mention(1, 2, labels.PATIENT, ["rule:surname-before-family", "merge:under_ner"])
    ner_phrase = Mention(1, 8, labels.HOSPITAL, ["ner", "correct:some_rule"])
    other_hit = Mention(10, 11, labels.PATIENT, ["rule:surname-before-family", "merge:under_ner"])
    ner_kept = Mention(10, 12, labels.PATIENT, ["ner"])
    dropped = [rule_hit, ner_phrase, other_hit]
    assert revive_yielded([ner_kept], dropped) == [rule_hit]
    assert rule_hit.provenance[-1] == "merge:revived"
    assert dropped == [ner_phrase, other_hit]


@pytest.mark.parametrize("text, mention, kept", [
    # an initial before a device named after its maker, a device word beside it
    ("LINES: R Swan, PIV x2.", "R Swan", False),
    ("R swan ganz in place, wedge 14.", "R swan", False),
    # a title before it
    ("Line placed by Dr. R Swan, site dry.", "R Swan", True),
])
def test_an_initial_before_a_device_word(nlp, text, mention, kept):
    assert entities_left(nlp, text, mention, labels.DOCTOR) == ([mention] if kept else [])


@pytest.mark.parametrize("text, wards", [
    # a ward after 'transfer' without 'to', and a ward number glued on
    ("PLAN: TRANSFER FORMBY 2 IN AM.", ["FORMBY 2"]),
    ("plan: transfer to formby2.", ["formby2"]),
    # English words, units of care and counts are no wards
    ("Plan: transfer to floor2 when bed available.", []),
    ("PLAN TRANSFER 2 UNITS PRBC.", []),
    ("Pt to room2 after the scan.", []),
])
def test_a_ward_after_transfer_and_a_glued_ward_number(rules_nlp, text, wards):
    assert [t for t, label in entities(rules_nlp, text) if label == labels.DEPARTMENT] == wards


@pytest.mark.parametrize("text, hospitals", [
    # one or two name words before a hospital's qualifier, with or without "Hospital"
    ("SEEN FIRST AT STONEBRIDGE REGIONAL LAST WEEK.", ["STONEBRIDGE REGIONAL"]),
    ("Transferred from Tremb General Hospital on arrival.", ["Tremb General Hospital"]),
    ("The coordinator from Green Meadow Memorial called.", ["Green Meadow Memorial"]),
    # common words, a preposition or a title before the qualifier
    ("DONE UNDER GENERAL ANESTHESIA. FAMILY MEMORIAL TOMORROW.", []),
    ("PT GENERAL CONDITION POOR.", []),
    ("Read the Surgeon General warning.", []),
    ("Pt in general good spirits.", []),
    # nor a preposition as the second word: the NER is left the hospital
    ("PT XFERRED FROM REGIONAL HOSPITAL YESTERDAY", []),
])
def test_a_hospital_named_before_its_qualifier(rules_nlp, text, hospitals):
    assert [t for t, label in entities(rules_nlp, text) if label == labels.HOSPITAL] == hospitals


def test_a_hospital_pattern_takes_the_head_and_gives_way_to_the_ner(rules_nlp):
    text = "PCP at Tremb Community Health Center for years."
    assert [t for t, _ in entities(rules_nlp, text)] == ["Tremb Community Health Center"]
    # the NER's whole name stands: the pattern would cut "Tremb Community College" short
    text = "Classes at Tremb Community College since fall."
    whole = "Tremb Community College"
    assert entities(rules_nlp, text, [(whole, labels.ORGANIZATION)]) == [(whole, labels.ORGANIZATION)]


@pytest.mark.parametrize("text, mention, kept", [
    # capitals that no town list holds, on a line in mixed case: an abbreviation
    ("Pt now in TLVX on cool mist.", "TLVX", False),
    ("Brief AIVR seen on tele.", "AIVR", False),
    # a town a list holds (not a common word: "START" is dropped as an
    # abbreviation), a line in capitals, a town written in mixed case
    ("Pt lives in OKEBY with his wife.", "OKEBY", True),
    ("Social: lives alone.\nLIVES IN TLVX WITH WIFE.", "TLVX", True),
    ("Pt lives in Tlvx with his wife.", "Tlvx", True),
])
def test_a_town_in_capitals_no_town_list_holds(nlp, text, mention, kept):
    assert entities_left(nlp, text, mention, labels.CITY) == ([mention] if kept else [])


@pytest.mark.parametrize("text, mention, label, kept", [
    # charting words the NER called an institution: no word of the run names one
    ("MAP > 60. Heparin and Natrecor infusions unchanged.", "Heparin and Natrecor",
     labels.ORGANIZATION, False),
    ("ORDERED KCL CHLORIDE INFUSION OVER 2 HRS.", "KCL CHLORIDE INFUSION", labels.ORGANIZATION, False),
    ("Seen early. Lasix Drip Protocol resumed.", "Lasix Drip Protocol", labels.HOSPITAL, False),
    # an institution's kind in its name (also "Heparin Cancer Society", in the
    # table above), a specialty, a place list's word, no clinical word at all,
    # a title before it, a department
    ("Transferred from Lasix Medical Center today.", "Lasix Medical Center", labels.HOSPITAL, True),
    ("Studied at Heparin Theology for a year.", "Heparin Theology", labels.ORGANIZATION, True),
    ("Moved from Okeby Heparin last year.", "Okeby Heparin", labels.ORGANIZATION, True),
    ("Worked at Strong Bridge for years.", "Strong Bridge", labels.ORGANIZATION, True),
    ("Seen by Dr. Heparin Natrecor today.", "Heparin Natrecor", labels.ORGANIZATION, True),
    ("Admitted to Addiction Heparin today.", "Addiction Heparin", labels.DEPARTMENT, True),
])
def test_a_run_of_charting_words_is_no_institution(nlp, text, mention, label, kept):
    assert entities_left(nlp, text, mention, label) == ([mention] if kept else [])


@pytest.fixture(scope="module")
def towns_nlp():
    return rules_pipeline({"CITY": ["Okeby", "Wendlock", "West Okeby"]})


@pytest.mark.parametrize("text, hospitals", [
    # a town a list knows before "VA" with no comma: the town's VA hospital
    ("ON HOME O2, FOLLOWED @ WENDLOCK VA.", ["WENDLOCK VA"]),
    ("Followed at the Okeby VA Medical Center for PTSD.", ["Okeby VA Medical Center"]),
    ("Pt seen at Okeby VAMC last week.", ["Okeby VAMC"]),
    # no town list's word, a comma (a town and its state), VA as a word alone
    ("PT VA BENEFITS PENDING. COPD VA CLAIM.", []),
    ("Lives in Okeby, VA with his wife.", []),
    ("Seen by VA social work.", []),
])
def test_a_towns_va_hospital(towns_nlp, text, hospitals):
    assert [t for t, label in entities(towns_nlp, text) if label == labels.HOSPITAL] == hospitals


@pytest.fixture(scope="module")
def census_nlp():
    """Place lists that, like the real ones, hold common English words as towns."""
    nlp = spacy.blank("en")
    nlp.add_pipe("deid_lexicon").initialize(
        nlp=nlp, lexicons={"LAST": ["Formby"], "CITY": ["Green", "Section", "Note", "Okeby"]},
        frequencies={})
    nlp.add_pipe("deid_reconciler", config={"reconcile": False, "propagate": False}).initialize()
    return nlp


@pytest.mark.parametrize("text, mention, kept", [
    # a note typed in one case: a department with no word of its kind
    ("PLAN: SEE FLOW SHEET SECTION OF CAREVUE.\nCV: STABLE.", "SECTION OF CAREVUE", False),
    ("SECRETIONS FROM ETT, ORANGE TO GREEN, THICK.", "GREEN", False),
    ("neuro: alert. see nursing note and carevue.", "nursing note and carevue", False),
    # a transfer cue before it, a name list knowing a word, or a note in mixed case
    ("PLAN: TRANSFER TO EASTGATE 4 WHEN BED AVAILABLE.", "EASTGATE 4", True),
    ("FAMILY CALLED FROM OKEBY OFFICE TODAY.", "OKEBY OFFICE", True),
    ("Seen in the Kessler Annex today.", "Kessler Annex", True),
])
def test_a_department_in_a_one_case_note_names_its_kind(census_nlp, text, mention, kept):
    assert entities_left(census_nlp, text, mention, labels.DEPARTMENT) == ([mention] if kept else [])
