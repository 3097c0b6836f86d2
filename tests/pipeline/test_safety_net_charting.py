"""deid_safety_net's charting-style cues (safety_net/charting.py): month/day dates,
ages opening a line, names after role abbreviations or joined to a titled name,
years marked by an apostrophe, residences and call-outs. Positive and negative
rows per cue; the names and places are invented."""

import pytest

from spacy_deid.pipeline.safety_net.charting import CHARTING_CUES, ChartingCues

CUES = set(CHARTING_CUES)


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


# --- the charting cues as entities (deid_confidence's entity_cues) ----------------


@pytest.fixture(scope="module")
def confidence_nlp(safety_net_nlp_with):
    nlp = safety_net_nlp_with({"LAST": ["Quennell"], "FIRST": ["Rosalind"]})
    nlp.add_pipe("deid_confidence").initialize(nlp=nlp)
    return nlp


def released(nlp, text, point, entity_cues):
    confidence = nlp.get_pipe("deid_confidence")
    before = (confidence.operating_point, confidence.entity_cues)
    confidence.operating_point, confidence.entity_cues = point, entity_cues
    try:
        return [(e.text, e.label_) for e in nlp(text).ents]
    finally:
        confidence.operating_point, confidence.entity_cues = before


ENTITY_CUE_ROWS = [
    # the default: every charting cue is an entity at the balanced point
    ("balanced", CHARTING_CUES, [("QUENNELL", "DOCTOR"), ("7/23", "DATE")]),
    # only the cues named
    ("balanced", ["month_day"], [("7/23", "DATE")]),
    ("balanced", ["role"], [("QUENNELL", "DOCTOR")]),
    # none named: the cues count at the recall point only
    ("balanced", [], []),
    ("recall", [], [("QUENNELL", "DOCTOR"), ("7/23", "DATE")]),
    # a cue that is not charting leaves these spans alone
    ("balanced", ["capitalised"], []),
]


@pytest.mark.parametrize("point,cues,expected", ENTITY_CUE_ROWS)
def test_entity_cues_release_their_spans_at_every_point(confidence_nlp, point, cues, expected):
    text = "DOSE VERIFIED W/MD QUENNELL BEFORE GIVEN\nplan reviewed 7/23"
    assert released(confidence_nlp, text, point, cues) == expected


def test_entity_cue_spans_are_scored_entities(confidence_nlp):
    doc = confidence_nlp("plan reviewed 7/23\nLytes: pending")
    provenance = doc.spans["phi_provenance"]
    assert [(s.text, s.id_) for s in provenance] == [("7/23", "safety_net:month_day")]
    assert len(provenance.attrs["scores"]) == 1
    assert not [s for s in doc.spans["phi_rejected"] if s.id_ == "safety_net:month_day"]


@pytest.mark.parametrize("bad", ["role", ["role", ""], [3]])
def test_bad_entity_cues_are_refused(confidence_nlp, bad):
    with pytest.raises(ValueError, match="entity_cues must be a list of cue names"):
        confidence_nlp.get_pipe("deid_confidence").entity_cues = bad


def test_entity_cues_round_trip_through_the_config(safety_net_nlp_with, tmp_path):
    import spacy

    nlp = safety_net_nlp_with({"LAST": ["Quennell"]})
    nlp.add_pipe("deid_confidence", config={"entity_cues": ["role"]}).initialize(nlp=nlp)
    nlp.to_disk(tmp_path / "nlp")
    loaded = spacy.load(tmp_path / "nlp")
    assert loaded.get_pipe("deid_confidence").entity_cues == {"role"}
    text = "DOSE VERIFIED W/MD QUENNELL BEFORE GIVEN\nplan reviewed 7/23"
    assert [e.text for e in loaded(text).ents] == ["QUENNELL"]


def test_entity_cues_stay_when_the_safety_net_is_off_at_the_recall_point(confidence_nlp):
    confidence = confidence_nlp.get_pipe("deid_confidence")
    text = "DOSE VERIFIED W/MD QUENNELL BEFORE GIVEN\nplan reviewed 7/23"
    confidence.use_safety_net = False
    try:
        assert released(confidence_nlp, text, "recall", ["role"]) == [("QUENNELL", "DOCTOR")]
        assert released(confidence_nlp, text, "recall", []) == []
    finally:
        confidence.use_safety_net = True


def test_overlapping_entity_cues_give_one_entity(confidence_nlp):
    # "QUENNELL" is a role's name (after "W/MD") and a coordinated one (before
    # "AND DRS"): two safety-net spans on one word, one entity.
    text = "LYTES SENT. CHECKED W/MD QUENNELL AND DRS ABEL AND THORNE AWARE."
    doc = confidence_nlp(text)
    cues = sorted(s.id_ for s in doc.spans["phi_safety_net"] if s.text == "QUENNELL")
    assert cues == ["safety_net:coordinated", "safety_net:role"]
    assert [e.text for e in doc.ents] == ["QUENNELL"]
