"""Released text (spacy_deid.deid): operators, byte-exact text outside PHI,
consistent surrogates within and across a patient's notes, the HIPAA age rule,
the mapping round trip and the registered function."""

import re

import pytest
import spacy
from spacy.tokens import Span
from spacy.util import registry

from spacy_deid import labels
from spacy_deid.deid import (
    DeidMapping,
    Deidentifier,
    MappingFormatError,
    parse_overrides,
    resolve_operators,
)
from spacy_deid.deid.dates import parse_date
from spacy_deid.deid.names import split_name
from spacy_deid.synth import generate_notes

NOTE = (
    "John Smith (MRN 12G00123) was seen 4/17/94 by Dr. Jane Doe.\r\n"
    "Smith, 92, said J. Smith called 617-555-0112 on April 17th.\n"
    "SMITH, JOHN; his sister Mary Smith; John reports poor sleep; lives in Boston.\t\u00e9\n"
)
MENTIONS = [
    ("John Smith", labels.PATIENT),
    ("12G00123", labels.MEDICALRECORD),
    ("4/17/94", labels.DATE),
    ("Jane Doe", labels.DOCTOR),
    ("Smith", labels.PATIENT),
    ("92", labels.AGE),
    ("J. Smith", labels.PATIENT),
    ("617-555-0112", labels.PHONE),
    ("April 17th", labels.DATE),
    ("SMITH, JOHN", labels.PATIENT),
    ("Mary Smith", labels.PATIENT),
    ("John", labels.PATIENT),
    ("Boston", labels.CITY),
]


def spans_of(text, mentions):
    out, position = [], 0
    for string, label in mentions:
        start = text.index(string, position)
        out.append((start, start + len(string), label))
        position = start + len(string)
    return out


SPANS = spans_of(NOTE, MENTIONS)


def outside(text, released):
    """The pieces of text between replacements, in order."""
    pieces, position = [], 0
    for span in released.spans:
        pieces.append(text[position : span.start])
        position = span.end
    pieces.append(text[position:])
    return pieces


def originals_outside(text, spans):
    pieces, position = [], 0
    for start, end, _ in sorted(spans):
        pieces.append(text[position:start])
        position = end
    pieces.append(text[position:])
    return pieces


@pytest.mark.parametrize("operator", ["placeholder", "numbered", "surrogate", "remove"])
def test_text_outside_phi_is_kept_byte_for_byte(operator):
    released = Deidentifier(operator, seed="t").release(NOTE, SPANS, "p1")
    assert outside(released.text, released) == originals_outside(NOTE, SPANS)
    assert [s.label for s in released.spans] == [label for _, label in MENTIONS]
    assert b"\r\n" in released.text.encode("utf-8") and "\u00e9" in released.text


def test_placeholders():
    released = Deidentifier("placeholder").release(NOTE, SPANS, "p1")
    assert released.text.startswith(
        "[PATIENT] (MRN [MEDICALRECORD]) was seen [DATE] by Dr. [DOCTOR]."
    )
    assert "[PATIENT], 90+, said" in released.text  # AGE follows the HIPAA rule by default


def test_numbered_placeholders_number_entities_not_mentions():
    released = Deidentifier("numbered").release(NOTE, SPANS, "p1")
    texts = [released.text[s.start : s.end] for s in released.spans]
    by_mention = dict(zip([m for m, _ in MENTIONS], texts))
    # John Smith, Smith, J. Smith, SMITH, JOHN and John are one person; Mary Smith another.
    assert {by_mention[m] for m in ("John Smith", "Smith", "J. Smith", "SMITH, JOHN", "John")} == {
        "[PATIENT-1]"
    }
    assert by_mention["Mary Smith"] == "[PATIENT-2]"
    assert by_mention["4/17/94"] == "[DATE-1]" and by_mention["April 17th"] == "[DATE-2]"


def surrogate_texts(released, text=None):
    return [released.text[s.start : s.end] for s in released.spans]


def test_surrogate_name_variants_map_consistently():
    released = Deidentifier("surrogate", seed="t").release(NOTE, SPANS, "p1")
    out = dict(zip([m for m, _ in MENTIONS], surrogate_texts(released)))
    first, last = out["John Smith"].split(" ")
    assert out["Smith"] == last
    assert out["J. Smith"] == f"{first[0]}. {last}"
    assert out["SMITH, JOHN"] == f"{last.upper()}, {first.upper()}"
    assert out["John"] == first
    sister_first, sister_last = out["Mary Smith"].split(" ")
    assert sister_last == last and sister_first != first  # a relative keeps the shared surname
    for real in ("John", "Smith", "Jane", "Doe", "Mary"):
        assert not re.search(rf"\b{real}\b", released.text, re.I)


def test_surrogates_keep_the_format_of_ids_phones_and_dates():
    released = Deidentifier("surrogate", seed="t").release(NOTE, SPANS, "p1")
    out = dict(zip([m for m, _ in MENTIONS], surrogate_texts(released)))
    assert re.fullmatch(r"\d\d[A-Z]\d{5}", out["12G00123"]) and out["12G00123"] != "12G00123"
    assert (
        re.fullmatch(r"\d{3}-\d{3}-\d{4}", out["617-555-0112"])
        and out["617-555-0112"] != "617-555-0112"
    )
    assert re.fullmatch(r"\d{1,2}/\d{1,2}/\d\d", out["4/17/94"])
    assert re.fullmatch(r"[A-Z][a-z]+ \d{1,2}(st|nd|rd|th)", out["April 17th"])
    assert out["92"] == "90+"


def test_one_value_written_two_ways_keeps_one_surrogate_in_both_shapes():
    text = "call 617-555-0112 or 6175550112"
    spans = spans_of(text, [("617-555-0112", labels.PHONE), ("6175550112", labels.PHONE)])
    released = Deidentifier("surrogate", seed="t").release(text, spans, "p1")
    dashed, plain = surrogate_texts(released)
    assert dashed.replace("-", "") == plain


def test_surrogates_are_consistent_across_a_patients_notes_and_differ_between_patients():
    deid = Deidentifier("surrogate", seed="t")
    note2 = "Seen again. Mr. Smith (MRN 12G00123) says John Smith is his name; Boston."
    spans2 = spans_of(
        note2,
        [
            ("Smith", labels.PATIENT),
            ("12G00123", labels.MEDICALRECORD),
            ("John Smith", labels.PATIENT),
            ("Boston", labels.CITY),
        ],
    )
    first = dict(zip([m for m, _ in MENTIONS], surrogate_texts(deid.release(NOTE, SPANS, "p1"))))
    second = surrogate_texts(deid.release(note2, spans2, "p1"))
    assert second == [first["Smith"], first["12G00123"], first["John Smith"], first["Boston"]]
    other = surrogate_texts(deid.release(note2, spans2, "p2"))
    assert other[2] != first["John Smith"] and other[1] != first["12G00123"]


def test_date_offset_is_one_per_patient_and_keeps_intervals_across_notes():
    deid = Deidentifier("surrogate", seed="t", date_shift_min_days=-100, date_shift_max_days=100)
    texts = ["Admitted 4/17/94.", "Discharged on 1994-05-02, a Monday."]
    releases = [
        deid.release(t, spans_of(t, [(d, labels.DATE)]), "p1")
        for t, d in zip(texts, ("4/17/94", "1994-05-02"))
    ]
    shifted = [parse_date(r.text[r.spans[0].start : r.spans[0].end]).date for r in releases]
    assert (shifted[1] - shifted[0]).days == 15
    offset = deid.mapping.patient("p1").date_offset
    assert offset != 0 and -100 <= offset <= 100
    assert (shifted[0] - parse_date("4/17/94").date).days == offset


def test_unreadable_dates_become_counted_placeholders():
    text = "Seen at Thanksgiving and on 4/17/94."
    released = Deidentifier("surrogate", seed="t").release(
        text, spans_of(text, [("Thanksgiving", labels.DATE), ("4/17/94", labels.DATE)]), "p1"
    )
    assert released.text.startswith("Seen at [DATE] and on ")
    assert released.unparsed_dates == 1


@pytest.mark.parametrize(
    "age,expected",
    [
        ("92", "90+"),
        ("90", "90+"),
        ("89", "89"),
        ("ninety-two", "90+"),
        ("forty", "forty"),
        ("101", "90+"),
        ("early 90s", "90+"),
        ("7", "7"),
    ],
)
def test_ages_over_89_become_90_plus_others_stay(age, expected):
    text = f"Patient is {age} years old."
    released = Deidentifier("surrogate", seed="t").release(
        text, spans_of(text, [(age, labels.AGE)]), "p1"
    )
    assert released.text == f"Patient is {expected} years old."


def test_age_operator_can_be_configured():
    text = "Patient is 42."
    spans = spans_of(text, [("42", labels.AGE)])
    assert (
        Deidentifier("placeholder", {labels.AGE: "placeholder"}).release(text, spans).text
        == "Patient is [AGE]."
    )


def test_the_same_seed_gives_the_same_surrogates_and_another_seed_others():
    a = Deidentifier("surrogate", seed="one").release(NOTE, SPANS, "p1").text
    assert a == Deidentifier("surrogate", seed="one").release(NOTE, SPANS, "p1").text
    assert a != Deidentifier("surrogate", seed="two").release(NOTE, SPANS, "p1").text


def test_mapping_round_trip_keeps_later_notes_consistent(tmp_path):
    deid = Deidentifier("surrogate")  # a random seed, stored in the mapping
    first = deid.release(NOTE, SPANS, "p1").text
    path = deid.mapping.to_disk(tmp_path / "mapping.json")
    assert path.stat().st_mode & 0o077 == 0  # PHI: owner only
    reloaded = Deidentifier("surrogate", mapping=DeidMapping.from_disk(path))
    assert reloaded.release(NOTE, SPANS, "p1").text == first
    bad = tmp_path / "bad.json"
    bad.write_text('{"something": "else"}', encoding="utf-8")
    with pytest.raises(MappingFormatError):
        DeidMapping.from_disk(bad)


def test_operators_resolution_and_errors():
    chosen = resolve_operators("surrogate", parse_overrides(["ssn=remove", "AGE=keep"]))
    assert (
        chosen[labels.DATE] == "shift"
        and chosen[labels.SSN] == "remove"
        and chosen[labels.AGE] == "keep"
    )
    assert resolve_operators("placeholder")[labels.AGE] == "hipaa_age"
    with pytest.raises(ValueError):
        resolve_operators("scramble")
    with pytest.raises(ValueError):
        resolve_operators("placeholder", {labels.PATIENT: "shift"})
    with pytest.raises(ValueError):
        parse_overrides(["PATIENT"])
    with pytest.raises(ValueError):
        Deidentifier().release("abcdef", [(0, 4, labels.CITY), (2, 5, labels.CITY)])


@pytest.mark.parametrize(
    "name,roles",
    [
        ("John Smith", ["first", "last"]),
        ("Smith, John A.", ["last", "first", "middle"]),
        ("J. Smith", ["first", "last"]),
        ("Smith", ["single"]),
        ("JS", ["initials"]),
        ("Dr. Mary O'Brien-Lee", ["first", "last"]),
        ("Van Buren, Martin", ["last", "first"]),
    ],
)
def test_name_parts(name, roles):
    assert [part.role for part in split_name(name)] == roles


def test_release_doc_and_registered_function():
    nlp = spacy.blank("en")
    doc = nlp("Mary Major lives in Springfield.")
    doc.ents = [Span(doc, 0, 2, label=labels.PATIENT), Span(doc, 4, 5, label=labels.CITY)]
    config = {
        "d": {
            "@misc": "spacy-deid.Deidentifier.v1",
            "operator": "numbered",
            "operators": {labels.CITY: "placeholder"},
        }
    }
    deid = registry.resolve(config)["d"]
    assert deid.release_doc(doc).text == "[PATIENT-1] lives in [CITY]."


def test_no_tagged_phi_string_survives_on_synthetic_notes():
    """Every gold PHI string of a note, once tagged, is absent from the output
    (unless the same string also stands untagged elsewhere in the note)."""
    checked = 0
    for operator, skip in (("placeholder", ()), ("surrogate", (labels.DATE, labels.AGE))):
        deid = Deidentifier(
            operator, {labels.AGE: "placeholder"} if operator == "placeholder" else {}, seed="t"
        )
        for note in generate_notes(25, seed=11):
            spans = [m.key() for m in note.mentions]
            released = deid.release(note.text, spans, note.patient_id)
            rest = "\x00".join(originals_outside(note.text, spans))
            for mention in note.mentions:
                value = note.text[mention.start : mention.end].strip()
                if mention.label in skip or len(value) < 3:
                    continue
                pattern = rf"(?<!\w){re.escape(value)}(?!\w)"
                assert len(re.findall(pattern, released.text)) <= len(
                    re.findall(pattern, rest)
                ), mention.label
                checked += 1
    assert checked > 500
