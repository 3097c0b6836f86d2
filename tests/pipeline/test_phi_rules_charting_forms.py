"""Table-driven tests of the PHI patterns for general charting forms that no
component proposed on unseen nursing notes (the recall issue's classes and the
reliability issue's planted names): clinicians after 'Dr.' with no space, after
"Drs'" and before '(resident)'; phones split by slashes or spaced hyphens;
hyphenated month-day dates and ranges; years in a history list; a name after
'significant other'; hospital short names before a unit or after 'seen at';
'University of <place>' names; a patient's full name at a note's top or end; a
first name as a subject; full-width letters.

Positives: (text, span text expected among the rule hits, subtype). Negatives:
ordinary clinical text where the subtype must not be found. All names invented.
"""
from typing import List, Tuple

import pytest

from spacy_deid import labels
from spacy_deid.pipeline.phi_rules import DEFAULT_SPANS_KEY
from spacy_deid.pipeline.phi_rules.full_width import fold_full_width
from spacy_deid.tokenizer import blank_deid


@pytest.fixture(scope="module")
def nlp():
    nlp = blank_deid()
    nlp.add_pipe("deid_phi_rules")
    nlp.initialize()
    return nlp


def hits(nlp, text: str) -> List[Tuple[str, str]]:
    doc = nlp(text)
    return [(s.text, s.label_) for s in doc.spans[DEFAULT_SPANS_KEY]]


POSITIVES = [
    # clinicians
    ("PLAN PER DR.QUENNELL. BP STABLE.", "DR.QUENNELL", labels.DOCTOR),
    ("Seen by Dr.Quennell this am.", "Quennell", labels.DOCTOR),
    ("AWARE PER DRS' QUENNELL AND ABERNATHY.", "QUENNELL", labels.DOCTOR),
    ("AWARE PER DRS' QUENNELL AND ABERNATHY.", "ABERNATHY", labels.DOCTOR),
    ("seen by drs' quennell and abernathy.", "abernathy", labels.DOCTOR),
    ("SEEN BY QUENNELL (RESIDENT) AT 0300.", "QUENNELL", labels.DOCTOR),
    ("md aware, quennell (resident) at bedside.", "quennell", labels.DOCTOR),
    ("Paged Quennell (intern) re: K 3.1.", "Quennell", labels.DOCTOR),
    # phones
    ("Family can be reached at 617/555/0142.", "617/555/0142", labels.PHONE),
    ("call son at 617- 555-0142 with updates.", "617- 555-0142", labels.PHONE),
    ("WIFE 617 - 555 - 0142", "617 - 555 - 0142", labels.PHONE),
    ("son's cell 555- 0142.", "555- 0142", labels.PHONE),
    ("daughter 555 0142 if changes.", "555 0142", labels.PHONE),
    # dates
    ("Line placed 7-23, changed 7-26.", "7-23", labels.DATE),
    ("Line placed 7-23, changed 7-26.", "7-26", labels.DATE),
    ("PICC 12-3 to 12-5 in place.", "12-5", labels.DATE),
    ("Abx course 12/3-12/9.", "12/3", labels.DATE),
    ("Abx course 12/3-12/9.", "12/9", labels.DATE),
    ("febrile 7/23-24, cultures pending", "24", labels.DATE),
    ("foley d/c'd on 14th.", "14th", labels.DATE),
    ("PMH: HTN, CAD s/p MI 98, CABG '02, DM2.", "98", labels.DATE),
    ("PMH: AAA REPAIR 99, CVA '04, AFIB.", "99", labels.DATE),
    ("pmh: copd, chf, mi in 97, cabg x3 '03", "97", labels.DATE),
    ("PMH: CVA 04; HTN", "04", labels.DATE),
    # a relative's name after 'significant other'
    ("significant other abernathy at bedside.", "abernathy", labels.PATIENT),
    ("SIGNIFICANT OTHER ABERNATHY CALLED.", "ABERNATHY", labels.PATIENT),
    # hospitals
    ("Pt seen at QRMC yesterday and sent over.", "QRMC", labels.HOSPITAL),
    ("Was in QRMC ED overnight.", "QRMC", labels.HOSPITAL),
    ("Arrived from the QRMC ICU on drips.", "QRMC", labels.HOSPITAL),
    ("taken to qh cath lab this am", "qh", labels.HOSPITAL),
    ("transferred from qrmc ed intubated.", "qrmc", labels.HOSPITAL),
    ("TRANSFERRED FROM UNIVERSITY OF QUARRYTOWN HOSPITAL.", "UNIVERSITY OF QUARRYTOWN HOSPITAL", labels.HOSPITAL),
    ("TX FROM QUARRYTOWN UNIV HOSP FOR CATH", "QUARRYTOWN UNIV HOSP", labels.HOSPITAL),
    # planted names (issue 61, item 9)
    ("QUENNELL, ABERNATHY is a 70 yo male admitted with sepsis.", "QUENNELL, ABERNATHY", labels.PATIENT),
    ("Patient: ABERNATHY QUENNELL\nMRN: 0012", "ABERNATHY QUENNELL", labels.PATIENT),
    ("pt name: abernathy quennell", "abernathy quennell", labels.PATIENT),
    ("abernathy quennell is a 70 yo male with copd.", "abernathy quennell", labels.PATIENT),
    ("Abernathy reports poor sleep.", "Abernathy", labels.PATIENT),
    ("Slept 4 hours. Abernathy denies pain.", "Abernathy", labels.PATIENT),
    ("Will monitor closely. Abernathy Quennell", "Abernathy Quennell", labels.DOCTOR),
    ("Note written by ABERNATHY QUENNELL", "ABERNATHY QUENNELL", labels.DOCTOR),
    ("cont to monitor.\nabernathy quennell, rn\n", "abernathy quennell", labels.DOCTOR),
    ("Patient: ＡＢＥＲＮＡＴＨＹ ＱＵＥＮＮＥＬＬ", "ＡＢＥＲＮＡＴＨＹ ＱＵＥＮＮＥＬＬ", labels.PATIENT),
]

NEGATIVES = [
    # no phone in ratios, settings, ranges or volumes
    ("VENT 40/1000/15 A/C, BP 120/80.", labels.PHONE),
    ("UO 100- 150 cc/hr overnight.", labels.PHONE),
    ("I/O 1200/800, plt 150- 200.", labels.PHONE),
    ("Labs 135/4.1/101/24/18/1.1/140", labels.PHONE),
    # no date in ranges of counts, doses, flows and settings
    ("on 2-3 L NC, sats 95%.", labels.DATE),
    ("given 1-2 tabs percocet.", labels.DATE),
    ("placed on 2-4 lpm.", labels.DATE),
    ("HR 80-90 SR, RR 12-20.", labels.DATE),
    ("since 5-10 minutes after the dose.", labels.DATE),
    ("PS 10/5-12/5 overnight.", labels.DATE),
    ("takes 1/2-3/4 of meals.", labels.DATE),
    ("percocet 1/2-1 tab q4h", labels.DATE),
    ("K 4.1, CA 10, MG 2.0", labels.DATE),
    ("HR 98, SBP 110.", labels.DATE),
    ("foley cath 16 fr placed", labels.DATE),
    ("MI 98 mg given", labels.DATE),
    # no clinician before a team's or a credential's bracket
    ("ICU (resident) aware.", labels.DOCTOR),
    ("Quennell, Lena, LCSW (resident)", labels.DOCTOR),
    # no hospital from units, the outside hospital or capitals' abbreviations
    ("NO SEDATION GIVEN SINCE ED BEFORE 5 AM.", labels.HOSPITAL),
    ("CV: TMAX ED 104.2", labels.HOSPITAL),
    ("Pt now in MICU ICU bed.", labels.HOSPITAL),
    ("Labs sent at 0400 from OSH ED.", labels.HOSPITAL),
    ("seen at HS and at NOON.", labels.HOSPITAL),
    ("back to the icu, then to cath lab.", labels.HOSPITAL),
    ("sent from osh ed, now in micu icu bed.", labels.HOSPITAL),
    ("brought to our ed by ems.", labels.HOSPITAL),
    # no patient name from ordinary sentence openers or the note's subject
    ("this patient is a 70 yo male with copd.", labels.PATIENT),
    ("HTN, CAD is a concern.", labels.PATIENT),
    ("Patient reports poor sleep. She denies pain.", labels.PATIENT),
    ("Veteran reports nightmares. Also endorses guilt.", labels.PATIENT),
    ("Patient: tolerated feeds well overnight.", labels.PATIENT),
    # no signature from the last words of a note without a name's shape
    ("VS STABLE.\nSUPPORT FAMILY\n", labels.DOCTOR),
    ("advance tf\nsx prn\n", labels.DOCTOR),
    ("PLAN PER DR.QUENNELL. BP STABLE.", labels.DOCTOR, "BP STABLE"),
    ("SIGNIFICANT OTHER ABERNATHY CALLED.", labels.PATIENT, "OTHER ABERNATHY"),
]


@pytest.mark.parametrize("text,expected,label", POSITIVES)
def test_charting_form_found(nlp, text, expected, label):
    found = hits(nlp, text)
    assert (expected, label) in found, found


@pytest.mark.parametrize("case", NEGATIVES, ids=lambda c: c[0][:40])
def test_clinical_text_not_found(nlp, case):
    text, label, *span = case
    found = hits(nlp, text)
    if span:
        assert (span[0], label) not in found, found
    else:
        assert all(lab != label for _, lab in found), found


@pytest.mark.parametrize(
    "text,folded",
    [
        ("ＱＵＥＮＮＥＬＬ\u3000７０", "QUENNELL 70"),
        ("plain text", "plain text"),
        ("ｑｕｅｎｎｅｌｌ, ＲＮ", "quennell, RN"),
        ("中文 text", "中文 text"),  # only full-width ASCII is folded
    ],
)
def test_full_width_folded_one_for_one(text, folded):
    assert fold_full_width(text) == folded
    assert len(fold_full_width(text)) == len(text)


def test_full_width_hit_points_at_the_original_characters(nlp):
    text = "Patient: ＡＢＥＲＮＡＴＨＹ ＱＵＥＮＮＥＬＬ\nMRN: 0012"
    doc = nlp(text)
    [span] = [s for s in doc.spans[DEFAULT_SPANS_KEY] if s.label_ == labels.PATIENT]
    assert text[span.start_char : span.end_char] == "ＡＢＥＲＮＡＴＨＹ ＱＵＥＮＮＥＬＬ"


# The planted forms survive the reconciler of the rules-only pipeline.
@pytest.mark.parametrize(
    "text,expected",
    [
        ("QUENNELL, ABERNATHY is a 70 yo male admitted with sepsis.", "QUENNELL, ABERNATHY"),
        ("Patient: ABERNATHY QUENNELL\nMRN: 0012", "ABERNATHY QUENNELL"),
        ("abernathy quennell is a 70 yo male with copd.", "abernathy quennell"),
        ("Will monitor closely. Abernathy Quennell", "Abernathy Quennell"),
        ("AWARE PER DRS' QUENNELL AND ABERNATHY.", "ABERNATHY"),
        ("Family can be reached at 617/555/0142.", "617/555/0142"),
        ("Line placed 7-23, changed 7-26.", "7-26"),
    ],
)
def test_forms_survive_the_reconciler(rules_nlp, text, expected):
    assert expected in [e.text for e in rules_nlp(text).ents]
