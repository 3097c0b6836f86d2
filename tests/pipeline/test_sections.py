"""The section / attribute-value detector (factory "deid_sections")."""

import pytest
import spacy
from spacy.tokens import DocBin

from spacy_deid.data_files import NoDataWarning
from spacy_deid.pipeline.sections import (
    SectionDetector,
    load_attribute_names,
    load_section_headers,
    read_entries,
)
from spacy_deid.tokenizer import blank_deid


@pytest.fixture(scope="module")
def nlp():
    nlp = blank_deid()
    nlp.add_pipe("deid_sections")
    nlp.initialize()
    return nlp


def sections(doc):
    return [(s.text, s.label_) for s in doc.spans["sections"]]


def attributes(doc):
    return [(s.text, s.label_) for s in doc.spans["attributes"]]


HEADERS = [
    # id, text, expected (header text, label)
    (
        "colon",
        "History of Present Illness:\nShe reports",
        [("History of Present Illness", "history_of_present_illness")],
    ),
    ("upper_no_colon", "MENTAL STATUS EXAM\nCalm.", [("MENTAL STATUS EXAM", "mental_status_exam")]),
    ("abbreviation", "HPI: 45 yo man", [("HPI", "history_of_present_illness")]),
    (
        "variant",
        "Psychiatric History:\nNone",
        [("Psychiatric History", "past_psychiatric_history")],
    ),
    ("hx_variant", "Social Hx:\nLives alone", [("Social Hx", "social_history")]),
    ("numbered", "2. Family History:\nNone", [("Family History", "family_history")]),
    ("bulleted", "- Plan\ncontinue", [("Plan", "plan")]),
    ("inline_content", "Substance Use: denies", [("Substance Use", "substance_use_history")]),
    ("lower_with_colon", "assessment: stable", [("assessment", "assessment")]),
    ("crlf", "Plan\r\nfollow up", [("Plan", "plan")]),
    ("trailing_spaces", "Allergies   \nNKDA", [("Allergies", "allergies")]),
    ("longest_wins", "Assessment and Plan:\nok", [("Assessment and Plan", "assessment_and_plan")]),
    (
        "glued_split_by_tokenizer",
        "Family History:\nnoneSocial History:\nalone",
        [("Family History", "family_history")],
    ),
]


@pytest.mark.parametrize("text,expected", [c[1:] for c in HEADERS], ids=[c[0] for c in HEADERS])
def test_headers(nlp, text, expected):
    assert sections(nlp(text)) == expected


NOT_HEADERS = [
    # id, text: dictionary phrases that are not headers where they stand
    ("mid_sentence", "She described her social history at length."),
    ("lower_line_without_colon", "plan\nto return"),
    ("followed_by_words", "Plan to return next week."),
    ("after_words_on_line", "See the Plan:\nreturn"),
]


@pytest.mark.parametrize("text", [c[1] for c in NOT_HEADERS], ids=[c[0] for c in NOT_HEADERS])
def test_not_headers(nlp, text):
    assert sections(nlp(text)) == []


ATTRIBUTES = [
    # id, text, expected (value text, label)
    ("mrn", "MRN: 1234567", [("1234567", "mrn")]),
    ("mrn_number_sign", "MRN #: 1234567", [("1234567", "mrn")]),
    ("mrn_number_sign_only", "MRN# 1234567", [("1234567", "mrn")]),
    ("age", "Age: 39", [("39", "age")]),
    ("dob_variant", "Date of Birth: 3/4/2050", [("3/4/2050", "dob")]),
    (
        "referral",
        "Referral source: Dr. Ann Example, outpatient",
        [("Dr. Ann Example, outpatient", "referral_source")],
    ),
    ("referred_by", "Referred by: her therapist", [("her therapist", "referral_source")]),
    (
        "phone_then_fax",
        "Phone: 555-201-3344 Fax: 555-201-3399",
        [("555-201-3344", "phone"), ("555-201-3399", "fax")],
    ),
    ("pager", "Pager #12345", [("12345", "pager")]),
    ("email", "E-mail: someone@example.org", [("someone@example.org", "email")]),
    (
        "substances",
        "Alcohol: socially. Tobacco: never. Cocaine: no",
        [("socially", "alcohol"), ("never", "tobacco"), ("no", "cocaine")],
    ),
    ("after_section_header", "Substance Use: Cannabis: daily", [("daily", "cannabis")]),
    (
        "glued_fields",
        "Patient:Ann ExampleMRN:7654321DOB:01/02/2050Age:40",
        [("Ann Example", "name"), ("7654321", "mrn"), ("01/02/2050", "dob"), ("40", "age")],
    ),
    ("value_on_next_line", "Age:\n24Sex:F", [("24", "age"), ("F", "sex")]),
    ("equals", "Weight = 70 kg", [("70 kg", "weight")]),
    ("quoted_value", 'Mood: "okay"', [('"okay"', "mood")]),
    ("health_plan", "Health plan ID: ABC-123-45", [("ABC-123-45", "health_plan")]),
    ("record_date", "Record date: 2090-01-02", [("2090-01-02", "date")]),
]


@pytest.mark.parametrize(
    "text,expected", [c[1:] for c in ATTRIBUTES], ids=[c[0] for c in ATTRIBUTES]
)
def test_attribute_values(nlp, text, expected):
    assert attributes(nlp(text)) == expected


NOT_ATTRIBUTES = [
    # id, text
    ("no_separator", "Her age was not given"),
    ("lower_mid_sentence", "she uses no drugs: says so"),
    ("empty_value", "MRN:\n\nnext paragraph"),
    ("not_in_dictionary", "Favourite colour: blue"),
    ("value_line_is_a_header", "Age:\nPlan:\nreturn"),
]


@pytest.mark.parametrize("text", [c[1] for c in NOT_ATTRIBUTES], ids=[c[0] for c in NOT_ATTRIBUTES])
def test_not_attribute_values(nlp, text):
    assert attributes(nlp(text)) == []


NOTE = """PSYCHIATRIC INTAKE EVALUATION
Record date: 2090-01-02
MRN: 1234567
Referral source: Dr. Ann Example

History of Present Illness:
Ms. Example reports low mood since the winter.

Substance Use:
Alcohol: rarely
Cocaine: never

MENTAL STATUS EXAM
Mood: "tired"
"""


def test_note_spans_and_token_extensions(nlp):
    doc = nlp(NOTE)
    assert [s.label_ for s in doc.spans["sections"]] == [
        "history_of_present_illness",
        "substance_use_history",
        "mental_status_exam",
    ]
    assert [s.label_ for s in doc.spans["attribute_names"]] == [
        "date",
        "mrn",
        "referral_source",
        "alcohol",
        "cocaine",
        "mood",
    ]
    assert [s.text for s in doc.spans["attribute_names"]][:3] == [
        "Record date",
        "MRN",
        "Referral source",
    ]
    by_text = {t.text: t for t in doc}
    assert by_text["PSYCHIATRIC"]._.section_name is None
    assert by_text["winter"]._.section_name == "history_of_present_illness"
    assert by_text["rarely"]._.section_name == "substance_use_history"
    assert by_text["1234567"]._.attribute_name == "mrn"
    assert by_text["Ann"]._.attribute_name == "referral_source"
    assert by_text["winter"]._.attribute_name is None
    assert by_text["MRN"]._.attribute_name is None  # names are not values
    assert all(
        span.id_ for key in ("sections", "attributes", "attribute_names") for span in doc.spans[key]
    )


def test_results_survive_docbin(nlp):
    doc = nlp(NOTE)
    docbin = DocBin(store_user_data=True, docs=[doc])
    again = list(DocBin().from_bytes(docbin.to_bytes()).get_docs(nlp.vocab))[0]
    assert attributes(again) == attributes(doc)
    assert [s.id_ for s in again.spans["sections"]] == [s.id_ for s in doc.spans["sections"]]
    assert [t._.attribute_name for t in again] == [t._.attribute_name for t in doc]


def test_uninitialized_component_warns_and_finds_nothing():
    nlp = blank_deid()
    nlp.add_pipe("deid_sections")
    with pytest.warns(NoDataWarning, match="deid_sections"):
        doc = nlp("MRN: 1234567")
    assert list(doc.spans["attributes"]) == []


def test_package_dictionaries_are_valid_data():
    headers, names = load_section_headers(), load_attribute_names()
    assert len(headers) > 100 and len(names) > 200
    for entries in (headers, names):
        ids = [e["id"] for e in entries]
        assert len(ids) == len(set(ids))
    header_phrases = {e["pattern"].lower() for e in headers}
    name_phrases = {e["pattern"].lower() for e in names}
    assert not header_phrases & name_phrases, "a phrase must be a header or an attribute, not both"
    labels = {e["label"] for e in names}
    assert {
        "mrn",
        "age",
        "phone",
        "fax",
        "pager",
        "referral_source",
        "dob",
        "date",
        "name",
        "email",
        "ssn",
        "health_plan",
        "account",
    } <= labels


def test_phi_unexpected_attributes_is_a_hint_from_data(nlp):
    hints = nlp.get_pipe("deid_sections").phi_unexpected_attributes
    assert {"cocaine", "alcohol", "mood"} <= hints
    assert not {"mrn", "referral_source", "name"} & hints


def test_dictionaries_from_initialize_config(tmp_path):
    sections_path = tmp_path / "sections.jsonl"
    sections_path.write_text(
        '{"id": "s1", "label": "vitals_and_labs", "pattern": "Vitals and Labs"}\n'
    )
    config = {
        "nlp": {"tokenizer": {"@tokenizers": "spacy-deid.Tokenizer.v1"}},
        "initialize": {
            "components": {
                "deid_sections": {
                    "sections": {
                        "@misc": "spacy-deid.SectionHeaders.v1",
                        "path": str(sections_path),
                    },
                    "attributes": [
                        {"id": "a1", "label": "favourite_colour", "pattern": "Favourite colour"}
                    ],
                }
            }
        },
    }
    nlp = spacy.blank("en", config=config)
    nlp.add_pipe("deid_sections")
    nlp.initialize()
    doc = nlp("Vitals and Labs:\nFavourite colour: blue\nMRN: 1")
    assert sections(doc) == [("Vitals and Labs", "vitals_and_labs")]
    assert attributes(doc) == [("blue", "favourite_colour")]  # the package's "MRN" is gone


@pytest.mark.parametrize(
    "line,problem",
    [
        ('{"label": "Social History", "pattern": "Social History"}', "snake_case"),
        ('{"label": "social_history", "pattern": ""}', "non-empty"),
        ('"Social History"', "an object"),
    ],
)
def test_bad_dictionary_files_name_file_and_line(tmp_path, line, problem):
    path = tmp_path / "headers.jsonl"
    path.write_text('{"label": "plan", "pattern": "Plan"}\n' + line + "\n")
    with pytest.raises(ValueError) as err:
        read_entries(path, "section")
    assert "headers.jsonl, line 2" in str(err.value) and problem in str(err.value)


def test_round_trip_to_disk_and_spacy_load(tmp_path):
    nlp = blank_deid()
    detector = nlp.add_pipe("deid_sections", config={"attributes_key": "fields"})
    nlp.initialize()
    detector.set_dictionaries(
        [{"id": "s1", "label": "plan", "pattern": "Plan"}],
        [
            {"id": "a1", "label": "mrn", "pattern": "MRN"},
            {"id": "a2", "label": "cocaine", "pattern": "Cocaine", "phi_expected": False},
        ],
    )
    nlp.to_disk(tmp_path / "pipeline")
    loaded = spacy.load(tmp_path / "pipeline")
    assert loaded.pipe_names == ["deid_sections"]
    assert type(loaded.tokenizer).__name__ == "DeidTokenizer"
    restored = loaded.get_pipe("deid_sections")
    assert isinstance(restored, SectionDetector)
    assert restored.sections == detector.sections and restored.attributes == detector.attributes
    assert restored.phi_unexpected_attributes == {"cocaine"}
    doc = loaded("Plan:\nMRN:7654321\nHistory of Present Illness:\nx")
    assert sections(doc) == [("Plan", "plan")]  # only the saved dictionary
    assert [(s.text, s.label_) for s in doc.spans["fields"]] == [("7654321", "mrn")]


def test_round_trip_bytes(nlp):
    detector = nlp.get_pipe("deid_sections")
    other = blank_deid().add_pipe("deid_sections")
    other.from_bytes(detector.to_bytes())
    assert other.sections == detector.sections
    assert other.attributes == detector.attributes


def test_dev_notes_have_sections_and_attributes(nlp, dev_corpus_dir):
    """Counts only (never text): the detector finds structure in most dev notes."""
    from spacy_deid.corpus import read_corpus

    notes = list(read_corpus(dev_corpus_dir))
    counts = [
        (len(d.spans["sections"]), len(d.spans["attributes"]))
        for d in nlp.pipe(n.text for n in notes)
    ]
    assert sum(1 for s, _ in counts if s) >= len(notes) // 2
    assert all(a for _, a in counts)
