"""deid_safety_net: which uncovered tokens it proposes, with which cue, and its data round trip."""

import pytest
import spacy

from spacy_deid import labels
from spacy_deid.pipeline.safety_net import load_clinical_vocabulary


@pytest.fixture(scope="module")
def nlp():
    nlp = spacy.blank("en")
    nlp.add_pipe("deid_sections")
    nlp.add_pipe("deid_lexicon")
    nlp.add_pipe("deid_safety_net")
    with nlp.select_pipes(disable=["deid_lexicon"]):
        nlp.initialize()
    # Small lexicons: the packaged ones take long to load.
    nlp.get_pipe("deid_lexicon").initialize(
        nlp=nlp,
        lexicons={
            "JOB": ["kindergarten teacher", "teacher", "therapist", "psychiatrist"],
            "INSTITUTION": ["Hospital", "Psychiatric"],
        },
        frequencies={},
    )
    return nlp


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
        "Plan as above.\n\nElspira Nakatomi-Holt, MD\n",
        [("Elspira Nakatomi-Holt", "safety_net:signature")],
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
]


@pytest.mark.parametrize("text,expected", POSITIVE)
def test_proposes(nlp, text, expected):
    assert proposals(nlp, text) == expected


@pytest.mark.parametrize("text", NEGATIVE)
def test_proposes_nothing(nlp, text):
    ents = ["Lee"] if "Lee" in text else []
    assert proposals(nlp, text, ents) == []


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
    net.initialize(clinical_vocabulary=["zyxwert"], common_words={"the": 7})
    nlp.to_disk(tmp_path / "p")
    loaded = spacy.load(tmp_path / "p").get_pipe("deid_safety_net")
    assert loaded.clinical == {"zyxwert"} and loaded.common == {"the": 7}
    assert loaded.from_bytes(net.to_bytes()).clinical == {"zyxwert"}


def test_missing_data_file_is_a_clear_error(tmp_path):
    nlp = spacy.blank("en")
    net = nlp.add_pipe("deid_safety_net")
    (tmp_path / "net").mkdir()
    with pytest.raises(ValueError, match="clinical_vocabulary.json"):
        net.from_disk(tmp_path / "net")


def test_span_group_always_written(nlp):
    doc = nlp("Nothing here.")
    assert "phi_safety_net" in doc.spans and len(doc.spans["phi_safety_net"]) == 0
