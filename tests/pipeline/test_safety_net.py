"""deid_safety_net: which uncovered tokens it proposes, with which cue, and its data round trip."""

import pytest
import spacy

from spacy_deid import labels
from spacy_deid.pipeline.safety_net import load_clinical_vocabulary, load_job_heads


@pytest.fixture(scope="module")
def nlp(safety_net_nlp_with):
    return safety_net_nlp_with(
        {
            "JOB": ["kindergarten teacher", "teacher", "therapist", "psychiatrist"],
            "INSTITUTION": ["Hospital", "Psychiatric"],
            "COUNTRY": ["Peru", "United States"],
        }
    )


def proposals(nlp, text, ents=()):
    doc = nlp.make_doc(text)
    doc.ents = [
        doc.char_span(text.index(e), text.index(e) + len(e), label=labels.PATIENT) for e in ents
    ]
    for _, pipe in nlp.pipeline:
        doc = pipe(doc)
    return [(s.text, s.id_) for s in doc.spans["phi_safety_net"]]


# (text, expected (span text, cue) pairs) — positive cases
POSITIVE = [
    ("Seen today with Dr. Quembly about sleep.", [("Quembly", "safety_net:title")]),
    ("She lives with her son Brandolf and two cats.", [("Brandolf", "safety_net:relation")]),
    ("Her husband, Tamsin, drove her in.", [("Tamsin", "safety_net:relation")]),
    ("Name: Orsolya Vantreek\nAge: 44", [("Orsolya Vantreek", "safety_net:attribute")]),
    (
        "Plan as above.\n\nOrvella Tashkent-Roy, MD\n",
        [("Orvella Tashkent-Roy", "safety_net:signature")],
    ),
    ("Electronically signed by Tomasz Wrobel", [("Tomasz Wrobel", "safety_net:signature")]),
    ("He says that Zyxwert helped him move.", [("Zyxwert", "safety_net:capitalised")]),
    ("MRN: AB12345X", [("AB12345X", "safety_net:id_cue")]),
    ("Referral packet, account no 88231047 attached.", [("88231047", "safety_net:id_cue")]),
    (
        "Seen at Quarrington Psychiatric Hospital last year.",
        [("Quarrington Psychiatric Hospital", "safety_net:institution")],
    ),
    (
        "Her mother is a retired kindergarten teacher.",
        [("kindergarten teacher", "safety_net:occupation")],
    ),
    # an institution's head word; a run through a place entity keeps only the rest
    (
        "She worked at the Quorvale County Family Court.",
        [("Quorvale County Family Court", "safety_net:institution")],
    ),
    (
        "ANXIETY DISORDERS TEAM - OUTPATIENT INTAKE",
        [("ANXIETY DISORDERS TEAM", "safety_net:institution")],
    ),
    ("He served in the US Marines for six years.", [("US Marines", "safety_net:institution")]),
    (
        "Members of Stonebridge Grace Fellowship visit.",
        [("Stonebridge Grace Fellowship", "safety_net:institution")],
    ),
    # job head nouns (the lists' last words) with their modifiers, after a cue
    ("She is a freelance bookkeeper.", [("bookkeeper", "safety_net:occupation")]),
    (
        "He is a 71 yo retired furniture upholsterer.",
        [("furniture upholsterer", "safety_net:occupation")],
    ),
    # initials declared, then used; a bed number
    (
        "Patient initials: Q.Z.\nQZ reports poor sleep.",
        [("Q.Z.", "safety_net:initials"), ("QZ", "safety_net:initials")],
    ),
    ("Moved to bed 12-3 overnight.", [("12-3", "safety_net:room")]),
    ("Her cousin lives in Peru now.", [("Peru", "safety_net:place")]),
    # after a title the run opens with a person: the institution starts after "and"
    (
        "ROI signed for Dr Quorin Vask and Fay Center for Addiction Recovery.",
        [
            ("Quorin Vask", "safety_net:title"),
            ("Fay Center for Addiction Recovery", "safety_net:institution"),
        ],
    ),
    # an attribute value stops at the next attribute's name
    ("Referral source: Belva Quorrin    Payer: self", [("Belva Quorrin", "safety_net:attribute")]),
    # a capitalised function word mid-sentence is part of the name
    (
        "Diagnosis made at Such Center for Addiction Recovery.",
        [("Such Center for Addiction Recovery", "safety_net:institution")],
    ),
    # a header line that is only a name keeps its common first word
    (
        "Plan as above.\nMobile Crisis Service\nFollow-up weekly.",
        [("Mobile Crisis Service", "safety_net:institution")],
    ),
]
# Text where nothing may be proposed.
NEGATIVE = [
    "Started sertraline 50 mg daily; PHQ-9 was 14.",  # drugs, scales
    "Patient denies SI. Mood is low.",  # sentence-initial and common words
    "He reports Alzheimer disease in his father.",  # eponym on the clinical list
    "Blood pressure 120/80, pulse 72.",  # numbers without an ID cue
    "Seen by Dr. Lee on Monday.",  # "Lee" is already an entity (covered)
    "MENTAL STATUS EXAM\nAppearance: casual.",  # header in capitals
    "Her therapist and psychiatrist agree.",  # clinical occupations
    "She has a lawyer for the custody case.",  # someone the patient has, not a job
    "He is a runner and a pipe smoker.",  # behaviours, not jobs
    "Family history of Quelling's syndrome.",  # an eponym before "syndrome"
    "PHQ-9 score 18; dx F43.21 adjustment disorder; chart reviewed.",  # scale, ICD code
    "REVIEWED RISKS, BENEFITS, AND ALTERNATIVES.",  # a signature verb without "by"
    "She came to the United States in 2015.",  # the home country
    "COURSE IN HOSPITAL:\nStable.",  # a heading before ":"
    "Seen at 3:15 PM today.",  # a time
    "Spent 10 hours in bed 3 nights ago.",  # a quantity, not a bed number
    "Abuse by fatherRaised: foster care",  # a lost line break, not a name after "father"
    "Cocaine: no\nK2/Spice: remote use",  # "no" is an ID cue only as "No." / "no:"
    "--- Hospital Course ---\nStable.",  # one word with a head: a heading
    "DATE OF SERVICE - 3/18/2068",  # an attribute name with a head word
    "He was a struggling student.",  # a generic job head
    "HIS DAUGHTER WORKS AS A CLERK.",  # shouted text: "WORKS" is no name
]


@pytest.mark.parametrize("text,expected", POSITIVE)
def test_proposes(nlp, text, expected):
    assert proposals(nlp, text) == expected


@pytest.mark.parametrize("text", NEGATIVE)
def test_proposes_nothing(nlp, text):
    ents = ["Lee"] if "Lee" in text else []
    assert proposals(nlp, text, ents) == []


def proposals_with(nlp, text, ents):
    """Proposals with entities given as (text, label) pairs."""
    doc = nlp.make_doc(text)
    doc.ents = [
        doc.char_span(text.index(e), text.index(e) + len(e), label=label) for e, label in ents
    ]
    for _, pipe in nlp.pipeline:
        doc = pipe(doc)
    return [(s.text, s.id_, s.label_) for s in doc.spans["phi_safety_net"]]


# (text, entities found by the pipeline, expected proposals) — cues that read the entities
WITH_ENTITIES = [
    # the initials of a person entity of the same note
    (
        "Seen with Kara Moss-Rennick today. KMR reports poor sleep.",
        [("Kara Moss-Rennick", labels.PATIENT)],
        [("KMR", "safety_net:initials", labels.PATIENT)],
    ),
    # the capitalised words around an institution entity on its line
    (
        "QUARRY LANE AND EARLY PSYCHOSIS PROGRAM\nIntake",
        [("EARLY PSYCHOSIS PROGRAM", labels.DEPARTMENT)],
        [("QUARRY LANE AND", "safety_net:institution", labels.DEPARTMENT)],
    ),
    (
        "Works at the Quillmere Museum of Local History downtown.",
        [("Quillmere Museum of Local", labels.ORGANIZATION)],
        [("History", "safety_net:institution", labels.ORGANIZATION)],
    ),
    # no head word: the run is a name because it holds an institution entity
    (
        "Larchmont Behavioral Health\nIntake note",
        [("Behavioral Health", labels.DEPARTMENT)],
        [("Larchmont", "safety_net:extend", labels.DEPARTMENT)],
    ),
    # a person is no part of an institution's name: only the clinic is proposed
    (
        "ROI signed for Dr. Merabet and Quell Clinic today.",
        [("Merabet", labels.DOCTOR)],
        [("Quell Clinic", "safety_net:institution", labels.DEPARTMENT)],
    ),
    # a place inside the name: the rest of the name is proposed
    (
        "She worked at the Quorvale County Family Court.",
        [("Quorvale", labels.CITY)],
        [("County Family Court", "safety_net:institution", labels.ORGANIZATION)],
    ),
    # modifiers before a profession entity
    (
        "She is a 33 yo married embedded software developer.",
        [("software developer", labels.PROFESSION)],
        [("embedded", "safety_net:occupation", labels.PROFESSION)],
    ),
]
# Entities that must not pull their neighbours in.
WITH_ENTITIES_NEGATIVE = [
    # "RE:", "MR#", "AM" are not initials even when a name has them
    (
        "RE: Ross Ember\nMR#: see chart\nAt 10:30 AM with Anya Mercer.",
        [("Ross Ember", labels.PATIENT), ("Anya Mercer", labels.DOCTOR)],
    ),
]


@pytest.mark.parametrize("text,ents,expected", WITH_ENTITIES)
def test_proposes_around_entities(nlp, text, ents, expected):
    assert proposals_with(nlp, text, ents) == expected


@pytest.mark.parametrize("text,ents", WITH_ENTITIES_NEGATIVE)
def test_entities_pull_nothing_in(nlp, text, ents):
    assert [p for p in proposals_with(nlp, text, ents) if p[1] != "safety_net:capitalised"] == []


def test_job_heads_come_from_the_shipped_job_titles():
    heads = set(load_job_heads())
    assert {"developer", "upholsterer", "bookkeeper", "welder", "teacher"} <= heads
    # generic heads, behaviours and clinical words are left out
    assert not {"member", "person", "smoker", "runner", "department"} & heads


def test_covered_tokens_are_never_proposed(nlp):
    text = "She lives with her son Brandolf and two cats."
    assert proposals(nlp, text, ents=["Brandolf"]) == []


def test_labels_follow_the_cue(nlp):
    doc = nlp("Seen with Dr. Quembly. MRN: AB12345X")
    found = {s.text: s.label_ for s in doc.spans["phi_safety_net"]}
    assert found == {"Quembly": labels.DOCTOR, "AB12345X": labels.IDNUM}


def test_clinical_vocabulary_is_shipped_and_lower_case():
    words = load_clinical_vocabulary()
    assert {"sertraline", "phq", "alzheimer", "psychiatrist"} <= set(words)
    assert all(w == w.lower() for w in words)


def test_initialize_replaces_the_word_lists():
    nlp = spacy.blank("en")
    net = nlp.add_pipe("deid_safety_net")
    nlp.initialize()
    text = "He says that Zyxwert helped."
    doc = net(nlp.make_doc(text))
    assert [s.text for s in doc.spans["phi_safety_net"]] == ["Zyxwert"]
    net.initialize(clinical_vocabulary=["zyxwert"], common_words={})
    doc = net(nlp.make_doc(text))
    assert len(doc.spans["phi_safety_net"]) == 0


def test_round_trip(tmp_path):
    nlp = spacy.blank("en")
    net = nlp.add_pipe("deid_safety_net")
    nlp.initialize()
    net.initialize(clinical_vocabulary=["zyxwert"], common_words={"the": 7}, job_heads=["welder"])
    nlp.to_disk(tmp_path / "p")
    loaded = spacy.load(tmp_path / "p").get_pipe("deid_safety_net")
    assert loaded.clinical == {"zyxwert"} and loaded.common == {"the": 7}
    assert loaded.job_heads == {"welder"}
    assert loaded.from_bytes(net.to_bytes()).clinical == {"zyxwert"}


def test_a_folder_saved_without_job_heads_is_an_error_not_the_packaged_ones(tmp_path):
    """Data comes from initialize or from_disk only (pipeline/serialize.py)."""
    nlp = spacy.blank("en")
    net = nlp.add_pipe("deid_safety_net")
    nlp.initialize()
    net.to_disk(tmp_path / "net")
    (tmp_path / "net" / "job_heads.json").unlink()
    with pytest.raises(ValueError, match="deid_safety_net: .*job_heads.json is missing"):
        net.from_disk(tmp_path / "net")


def test_missing_data_file_is_a_clear_error(tmp_path):
    nlp = spacy.blank("en")
    net = nlp.add_pipe("deid_safety_net")
    (tmp_path / "net").mkdir()
    with pytest.raises(ValueError, match="clinical_vocabulary.json"):
        net.from_disk(tmp_path / "net")


def test_span_group_always_written(nlp):
    doc = nlp("Nothing here.")
    assert "phi_safety_net" in doc.spans and len(doc.spans["phi_safety_net"]) == 0


@pytest.mark.parametrize(
    "role,word,safety_net,reconciler",
    [
        ("family", "son", True, True),
        ("family", "guardian", True, False),
        ("family", "neighbor", False, True),
        ("credential", "md", True, True),
        ("credential", "bcba", True, False),
        ("credential", "m.d.", False, True),
        ("credential", "son", False, False),
    ],
)
def test_role_words_are_kept_once_for_both_components(role, word, safety_net, reconciler):
    from spacy_deid.pipeline.reconciler.rules import make_reconciler_rules
    from spacy_deid.pipeline.safety_net import cues

    by_role = {
        "family": (cues.RELATIONS, "family_role_cues"),
        "credential": (cues.CREDENTIALS, "credential_cues"),
    }
    safety_net_words, list_name = by_role[role]
    assert (word in safety_net_words) is safety_net
    assert (word in make_reconciler_rules()["lists"][list_name]) is reconciler


def test_a_bad_role_word_line_names_the_file_and_line(tmp_path, monkeypatch):
    from spacy_deid.data_files import DataFileError
    from spacy_deid.pipeline import shared_words

    bad = tmp_path / "role_words.jsonl"
    bad.write_text(
        '{"word": "son", "role": "family", "used_by": ["safety_net"]}\n'
        '{"word": "x", "role": "pet", "used_by": ["safety_net"]}\n'
    )
    monkeypatch.setattr(shared_words, "ROLE_WORDS_PATH", bad)
    shared_words.role_words.cache_clear()
    try:
        with pytest.raises(DataFileError, match="line 2"):
            shared_words.role_words("family", "safety_net")
    finally:
        shared_words.role_words.cache_clear()
