"""deid_safety_net's charting-style cues (safety_net/charting.py): month/day dates,
ages opening a line, names after role abbreviations or joined to a titled name,
years marked by an apostrophe, residences and call-outs. Positive and negative
rows per cue; the names and places are invented."""

import pytest

from spacy_deid.pipeline.safety_net.charting import ChartingCues

CUES = {
    "month_day",
    "line_age",
    "role",
    "year_mark",
    "coordinated",
    "residence",
    "call_out",
}


@pytest.fixture(scope="module")
def nlp(safety_net_nlp_with):
    return safety_net_nlp_with(
        {
            "LAST": ["Quennell", "Plan", "Warm"],
            "FIRST": ["Rosalind"],
            "CITY": ["Dayton"],
            "DRUG": ["betadine", "lasix"],
        }
    )


def charting(nlp, text):
    doc = nlp(text)
    return [
        (span.text, span.id_.split(":", 1)[1])
        for span in doc.spans["phi_safety_net"]
        if span.id_.split(":", 1)[1] in CUES
    ]


POSITIVE = [
    # a month/day date with no cue
    ("plan reviewed 7/23\nLytes: pending", [("7/23", "month_day")]),
    ("Family meeting held 11/23 with team.", [("11/23", "month_day")]),
    # an age opening a line, its "yo" left out
    ("vitals per chart\n\n93 s/p fall with rib fx", [("93", "line_age")]),
    ("88 h/o CHF, admitted with SOB", [("88", "line_age")]),
    # a name list's word after a role abbreviation, in the note's one case
    ("DOSE VERIFIED W/MD QUENNELL BEFORE GIVEN", [("QUENNELL", "role")]),
    ("discussed with np quennell, will follow", [("quennell", "role")]),
    # a two-digit year marked by an apostrophe after it
    ("HX: DM, S/P AVR 89'.\nHTN", [("89", "year_mark")]),
    # rare words joined to a titled name
    ("LABS SENT. ROSWIN TAVEL AND DRS ABEL AND THORNE AWARE.", [("ROSWIN TAVEL", "coordinated")]),
    # where a patient lives
    ("social: lives with husband in okeby marsh, son nearby", [("okeby marsh", "residence")]),
    ("lives with wife in Dayton, retired", [("Dayton", "residence")]),
    # the rare word a patient is called out to
    ("plan c/o to quennford in am if stable", [("quennford", "call_out")]),
    ("will transfer to okeby 4 when bed ready", [("okeby", "call_out")]),
    ("admitted from quennford hills with CHF", [("quennford hills", "call_out")]),
    ("d/c to okeby tomorrow", [("okeby", "call_out")]),
]

NEGATIVE = [
    # scores, parts and ventilator settings written like a date
    "pain 3/10 at rest",
    "rates it 5/10 today",
    "crackles 1/2 way up bilat",
    "PS 10/5 overnight",
    "recalls 3/3 at 5 minutes",
    "1/4 strength betadine to wound",
    "BP 120/80, HR 88",
    "seen 5/3/09 in clinic",
    # numbers that are no age: mid-line, or before no history cue
    "Temp 98 s/p tylenol",
    "98 yo woman with CHF",
    "120 cc out",
    # English words a surname list holds, and no role before
    "MD PLAN TO DIURESE",
    "MD WARM SOAK",
    "QUENNELL BEFORE GIVEN",
    # counts and ranges with an apostrophe
    "ambulated x 30' tol well",
    "HR 70-80' nsr",
    # common words before "and Dr"
    "TEAM AWARE AND DR. ABEL AT BEDSIDE",
    # no place name after "in" or "to"
    "lives alone in apartment",
    "lives in a nursing home",
    "c/o to MICU when stable",
    "tx to floor in am",
    "discharged to rehab on friday",
    "sent to lab for draw",
]


@pytest.mark.parametrize("text,expected", POSITIVE)
def test_charting_cues_propose(nlp, text, expected):
    assert charting(nlp, text) == expected


@pytest.mark.parametrize("text", NEGATIVE)
def test_charting_cues_propose_nothing(nlp, text):
    assert charting(nlp, text) == []


def test_covered_tokens_are_never_proposed(nlp):
    text = "plan reviewed 7/23\nLytes"
    doc = nlp.make_doc(text)
    start = text.index("7/23")
    doc.ents = [doc.char_span(start, start + 4, label="DATE")]
    for _, pipe in nlp.pipeline:
        doc = pipe(doc)
    assert [s.text for s in doc.spans["phi_safety_net"]] == []


def test_score_shapes():
    assert ChartingCues._score_shape("3/10") and ChartingCues._score_shape("10/5")
    assert not ChartingCues._score_shape("7/23") and not ChartingCues._score_shape("12/3")


def test_call_outs_read_the_reconcilers_care_settings():
    from spacy_deid.pipeline.shared_words import reconciler_list

    assert {"micu", "floor", "icu"} <= reconciler_list("care_settings")
    with pytest.raises(ValueError, match="reconciler_lists.json has no list 'no_such_list'"):
        reconciler_list("no_such_list")
