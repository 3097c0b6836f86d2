"""The conjoined-token splitter (spacy-deid.Tokenizer.v1)."""

import functools
import pickle

import pytest
import spacy
from hypothesis import given, settings
from hypothesis import strategies as st

from spacy_deid.corpus.docs import default_tokenizer_nlp
from spacy_deid.tokenizer import (
    DeidTokenizer,
    blank_deid,
    load_tokenizer_exceptions,
    read_exceptions,
    validate_exception,
)


@pytest.fixture(scope="module")
def nlp():
    return blank_deid()


def words(nlp, text):
    doc = nlp.make_doc(text)
    assert doc.text == text
    return [t.text for t in doc]


SPLITS = [
    # id, text, tokens
    ("lower_upper", "rangeImpression", ["range", "Impression"]),
    ("lower_upper_name", "stantonPsychiatric", ["stanton", "Psychiatric"]),
    ("lower_upper_short", "winterHx", ["winter", "Hx"]),
    ("caps_then_title", "EVALUATIONPatient", ["EVALUATION", "Patient"]),
    ("lower_then_caps", "ClinicPSYCHIATRIC", ["Clinic", "PSYCHIATRIC"]),
    ("digit_title", "39Sex", ["39", "Sex"]),
    ("digit_two_letter_title", "2063Pt", ["2063", "Pt"]),
    ("digit_caps_word", "4471AGE", ["4471", "AGE"]),
    ("letter_digit", "winter2089", ["winter", "2089"]),
    ("caps_word_digit", "HPI20", ["HPI", "20"]),
    ("period_glued", "JMH.Does", ["JMH", ".", "Does"]),
    ("comma_glued_ids", "12G00123,12N01234", ["12G00123", ",", "12N01234"]),
    ("colon_glued_number", "MRN:8810245", ["MRN", ":", "8810245"]),
    ("number_sign", "MRN#1234567", ["MRN", "#", "1234567"]),
    ("bracket_glued", "8/5/74)Next", ["8/5/74", ")", "Next"]),
    (
        "field_run",
        "ReyesMRN:8810245DOB:02/27/2073Age:29",
        ["Reyes", "MRN", ":", "8810245", "DOB", ":", "02/27/2073", "Age", ":", "29"],
    ),
    ("date_then_word", "2102-11-08Provider", ["2102-11-08", "Provider"]),
    ("credential_then_date", "MD04/09/2098", ["MD", "04/09/2098"]),
    ("date_then_time", "06/08/206203:15Patient", ["06/08/2062", "03:15", "Patient"]),
    ("id_then_word", "SCG-0712284Age", ["SCG-0712284", "Age"]),
    ("id_then_caps", "HU2096-44718DOB", ["HU2096-44718", "DOB"]),
    ("email_then_word", "jdoe@mail.example.eduCell", ["jdoe@mail.example.edu", "Cell"]),
    (
        "url_then_word",
        "https://x.example.org/v/8KQ2-77TDSession",
        ["https://x.example.org/v/8KQ2-77TD", "Session"],
    ),
    ("name_prefix_then_word", "McDonaldHospital", ["McDonald", "Hospital"]),
    ("unit_after_number", "10mg/dL", ["10", "mg/dL"]),
    ("age_sex", "23F", ["23", "F"]),
    ("weekday_plural", "Saturdays", ["Saturday", "s"]),
    ("period_after_number", "2003.She", ["2003", ".", "She"]),
    ("period_before_number", "model.53", ["model", ".", "53"]),
    ("initial_then_sentence_end", "W..", ["W", ".", "."]),
    ("digits_then_label", "1512382CC:", ["1512382", "CC", ":"]),
    ("digits_then_mixed_word", "2002FHx", ["2002", "FHx"]),
    ("colon_then_bracketed_number", "Fax:(914)", ["Fax", ":", "(", "914", ")"]),
    ("spelled_age_then_yo", "twentyyo", ["twenty", "yo"]),
    (
        "url_then_label",
        "https://x.example.net/blogAttending:",
        ["https://x.example.net/blog", "Attending", ":"],
    ),
    ("caps_name_then_label", "JOHNMRN:", ["JOHN", "MRN", ":"]),
    ("caps_name_then_label_sign", "JOHNMR#", ["JOHN", "MR", "#"]),
    ("caps_age_is_not_an_id", "43-YEAR-OLD", ["43", "-", "YEAR", "-", "OLD"]),
    ("number_then_two_caps", "27YO", ["27", "YO"]),
    ("caps_weekday_plural", "FRIDAYS", ["FRIDAY", "S"]),
    ("comma_then_number_sign", "70748,#390211", ["70748", ",", "#", "390211"]),
    ("colon_then_number_sign", "ID:#183005", ["ID", ":", "#", "183005"]),
    ("colon_after_abbreviation", "D.O.B.:Thu", ["D.O.B.", ":", "Thu"]),
    ("number_period_caps", "11.RULE", ["11", ".", "RULE"]),
    ("comma_period_word", "surgeon,.Denies", ["surgeon", ",", ".", "Denies"]),
    ("caps_then_account_label", "VAMCCSN:", ["VAMC", "CSN", ":"]),
    ("numbers_then_word_are_no_id", "5/2002-1998Religion", ["5/2002", "-", "1998", "Religion"]),
    # One merge and one cut leave the token count unchanged: both must apply.
    ("merge_and_cut", "555-0112 rangeImpression", ["555-0112", "range", "Impression"]),
]


@pytest.mark.parametrize("text,expected", [c[1:] for c in SPLITS], ids=[c[0] for c in SPLITS])
def test_splits(nlp, text, expected):
    assert words(nlp, text) == expected


KEPT_WHOLE = [
    # id, text
    ("decimal", "3.75"),
    ("thousands", "1,250,000"),
    ("slash_date", "4/17/94"),
    ("slash_date_long", "04/17/2094"),
    ("iso_date", "2094-04-17"),
    ("time", "14:05"),
    ("phone", "617-555-0112"),
    ("phone_dots", "617.555.0112"),
    ("phone_parens", "(617)555-0112"),
    ("ssn", "123-45-6789"),
    ("email", "jane.doe2@example.org"),
    ("url", "https://www.example.org/path?a=1&b=Two"),
    ("license_id", "XF-1747210-9837"),
    ("code_letters_digits", "12G00123"),
    ("vitamin", "B12"),
    ("surname_mc", "McDonald"),
    ("surname_de", "DeLuca"),
    ("product", "iPhone"),
    ("degree", "PhD"),
    ("degree_plural", "PhDs"),
    ("unit", "mg/dL"),
    ("lab", "HbA1c"),
    ("oxygen", "SpO2"),
    ("enzyme", "CYP2D6"),
    ("plural_acronym", "SSRIs"),
    ("ordinal", "3rd"),
    ("decade", "1990s"),
    ("all_caps", "PSYCHIATRIC"),
    ("caps_word_ending_like_a_label", "LANGUAGE:"[:-1]),
    ("three_digit_then_letter", "123F"),
    ("camel_case_url_path", "https://example.org/MyPage"),
    ("ellipsis", "..."),
    ("abbreviation", "Dr."),
    ("id_ending_in_one_letter", "214-B"),
    ("code_with_digits_after_caps", "2D6"),
    ("initialism", "U.S."),
]


@pytest.mark.parametrize("text", [c[1] for c in KEPT_WHOLE], ids=[c[0] for c in KEPT_WHOLE])
def test_kept_whole(nlp, text):
    assert words(nlp, text) == [text]


SPACY_BEHAVIOUR_KEPT = [
    "Dr. Smith can't come today, (she said).",
    "Seen on 4/17 at 10am with Mr. O'Neil.",
    "  two  spaces\tand\ttabs\r\nand CRLF\n\n",
    "",
]


@pytest.mark.parametrize("text", SPACY_BEHAVIOUR_KEPT)
def test_ordinary_text_is_tokenized_as_spacy_does(nlp, text):
    """Where nothing is glued, the tokens are spaCy's own (norms included)."""
    english = spacy.blank("en")
    ours, theirs = nlp.make_doc(text), english.make_doc(text)
    assert [(t.text, t.whitespace_, t.norm_) for t in ours] == [
        (t.text, t.whitespace_, t.norm_) for t in theirs
    ]


def test_norms_of_untouched_tokens_survive_a_split(nlp):
    doc = nlp.make_doc("can't stop rangeImpression")
    assert [t.text for t in doc] == ["ca", "n't", "stop", "range", "Impression"]
    assert doc[1].norm_ == "not"


def test_spaces_are_kept_at_split_points(nlp):
    doc = nlp.make_doc("winterHx  noted\nHPI20 yo")
    assert doc.text == "winterHx  noted\nHPI20 yo"
    assert [t.whitespace_ for t in doc[:2]] == ["", " "]


@pytest.mark.parametrize(
    "flag,text,expected",
    [
        ("split_case", "rangeImpression", ["rangeImpression"]),
        ("split_digits", "39Sex", ["39Sex"]),
        ("split_punct", "MRN:8810245", ["MRN:8810245"]),
    ],
)
def test_rule_groups_can_be_switched_off(flag, text, expected):
    config = {"nlp": {"tokenizer": {"@tokenizers": "spacy-deid.Tokenizer.v1", flag: False}}}
    nlp = spacy.blank("en", config=config)
    assert words(nlp, text) == expected


def test_without_shapes_dates_are_split_as_spacy_does():
    config = {
        "nlp": {"tokenizer": {"@tokenizers": "spacy-deid.Tokenizer.v1", "keep_shapes": False}}
    }
    nlp = spacy.blank("en", config=config)
    assert words(nlp, "2094-04-17") == ["2094", "-", "04", "-", "17"]


def test_exceptions_are_data_and_replaceable(nlp):
    entries = load_tokenizer_exceptions()
    assert {"PhD", "McDonald"} & {e["text"] for e in entries} == {"PhD"}
    assert all(e["id"] and e["kind"] in ("literal", "name_prefix", "field_label") for e in entries)
    custom = spacy.blank(
        "en", config={"nlp": {"tokenizer": {"@tokenizers": "spacy-deid.Tokenizer.v1"}}}
    )
    custom.tokenizer.initialize(exceptions=[{"id": "x", "kind": "literal", "text": "eVisit"}])
    assert words(custom, "eVisit PhD") == ["eVisit", "Ph", "D"]
    custom.tokenizer.initialize()  # back to the package's exceptions
    assert words(custom, "eVisit PhD") == ["e", "Visit", "PhD"]


def test_exceptions_from_initialize_config(tmp_path):
    path = tmp_path / "exceptions.jsonl"
    path.write_text('{"id": "brand", "kind": "literal", "text": "eVisit"}\n', encoding="utf8")
    config = {
        "nlp": {"tokenizer": {"@tokenizers": "spacy-deid.Tokenizer.v1"}},
        "initialize": {
            "tokenizer": {
                "exceptions": {"@misc": "spacy-deid.TokenizerExceptions.v1", "path": str(path)}
            }
        },
    }
    nlp = spacy.blank("en", config=config)
    nlp.initialize()
    assert words(nlp, "eVisit") == ["eVisit"]


@pytest.mark.parametrize(
    "line,problem",
    [
        ('{"kind": "regex", "text": "x"}', "'kind'"),
        ('{"kind": "literal", "text": "two words"}', "without whitespace"),
        ('{"kind": "name_prefix", "text": "M1"}', "letters"),
        ('["PhD"]', "an object"),
    ],
)
def test_bad_exception_files_name_file_and_line(tmp_path, line, problem):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"kind": "literal", "text": "PhD"}\n' + line + "\n", encoding="utf8")
    with pytest.raises(ValueError) as err:
        read_exceptions(path)
    assert "bad.jsonl, line 2" in str(err.value) and problem in str(err.value)


def test_validate_exception_fills_id():
    assert validate_exception({"text": "PhD"})["id"] == "literal:PhD"


def test_round_trip_to_disk_and_spacy_load(tmp_path):
    nlp = blank_deid()
    nlp.tokenizer.set_exceptions([{"id": "brand", "kind": "literal", "text": "eVisit"}])
    nlp.to_disk(tmp_path / "pipeline")
    assert (tmp_path / "pipeline" / "tokenizer" / "exceptions.jsonl").exists()
    loaded = spacy.load(tmp_path / "pipeline")
    assert isinstance(loaded.tokenizer, DeidTokenizer)
    assert [e["text"] for e in loaded.tokenizer.exceptions] == ["eVisit"]
    assert words(loaded, "eVisit PhD winterHx") == ["eVisit", "Ph", "D", "winter", "Hx"]


def test_round_trip_bytes_keeps_settings():
    config = {"nlp": {"tokenizer": {"@tokenizers": "spacy-deid.Tokenizer.v1", "split_case": False}}}
    nlp = spacy.blank("en", config=config)
    other = blank_deid()
    other.tokenizer.from_bytes(nlp.tokenizer.to_bytes())
    assert other.tokenizer.cfg["split_case"] is False
    assert words(other, "rangeImpression") == ["rangeImpression"]


def test_pickles_for_multiprocessing(nlp):
    again = pickle.loads(pickle.dumps(nlp))
    assert words(again, "winterHx") == ["winter", "Hx"]


def test_pipe_matches_call(nlp):
    texts = ["39Sex", "plain text", "JMH.Does"]
    assert [d.text for d in nlp.tokenizer.pipe(texts)] == texts
    assert [len(d) for d in nlp.pipe(texts)] == [len(nlp.make_doc(t)) for t in texts]


def test_corpus_converter_uses_this_tokenizer():
    assert isinstance(default_tokenizer_nlp().tokenizer, DeidTokenizer)


@functools.lru_cache(maxsize=1)
def _shared_nlp():
    # hypothesis calls a test many times; fixtures are not reset between calls
    return blank_deid()


# Characters that exercise every rule: letters of both cases (ASCII and
# beyond), digits, the glue punctuation, whitespace of all kinds.
_ALPHABET = st.sampled_from(
    list("aZqQ09 5\n\r\t.,:;#()[]|/-@_'\"xÉéß") + ["https://", "www.", "Mc"]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_ALPHABET, max_size=40).map("".join))
def test_text_is_never_changed_glue_alphabet(text):
    doc = _shared_nlp().make_doc(text)
    assert doc.text == text


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=80))
def test_text_is_never_changed_any_text(text):
    doc = _shared_nlp().make_doc(text)
    assert doc.text == text
    assert all(len(token) for token in doc)


def _write_note(folder, name, text, mentions):
    from spacy_deid.corpus import Note, PhiMention, write_i2b2_2014

    note = Note(
        name, text, [PhiMention(s, e, label, f"P{i}") for i, (s, e, label) in enumerate(mentions)]
    )
    return write_i2b2_2014(note, folder / f"{name}.xml")


def test_count_misaligned_compares_tokenizers(tmp_path):
    from spacy_deid.cli.alignment import count_misaligned, default_tokenizers
    from spacy_deid.corpus import read_corpus

    text = "Seen winterHx by Dr. Quill. Age:39Sex:F"
    # "winter" (DATE) is glued to "Hx"; "39" (AGE) is glued to "Sex".
    _write_note(tmp_path, "1-01", text, [(5, 11, "DATE"), (21, 26, "DOCTOR"), (32, 34, "AGE")])
    counts = count_misaligned(read_corpus(tmp_path), default_tokenizers())
    english, ours = counts["spacy.blank('en')"], counts["spacy-deid.Tokenizer.v1"]
    assert (english.mentions, english.misaligned) == (3, 2)
    assert dict(english.by_label) == {"DATE": 1, "AGE": 1}
    assert (ours.mentions, ours.misaligned, ours.share) == (3, 0, 0.0)


def test_check_alignment_cli_prints_counts_not_text(tmp_path):
    from typer.testing import CliRunner

    from spacy_deid.cli import app

    _write_note(tmp_path, "1-01", "Seen winterHx today", [(5, 11, "DATE")])
    result = CliRunner().invoke(app, ["check-alignment", str(tmp_path), "--details"])
    assert result.exit_code == 0, result.output
    assert "winter" not in result.output
    assert "1-01.xml" in result.output and "100.00%" in result.output and "0.00%" in result.output


# --- the cut guard: a speed-up that must change no cut ------------------------------
def _cuts_without_guard(text):
    """The glue rules' cut positions scanned rule by rule, without the guard."""
    import re

    from spacy_deid.tokenizer import CASE_RULES, DIGIT_RULES, PUNCT_RULES

    rules = {**CASE_RULES, **DIGIT_RULES, **PUNCT_RULES}
    return {m.start() for rule in rules.values() for m in re.finditer(rule, text)}


def _cuts_with_guard(text):
    tokenizer = _shared_nlp().tokenizer
    return {m.start() for m in tokenizer._rules.finditer(text)}


@pytest.mark.parametrize(
    "text",
    [
        "Mondays and SATURDAYS",  # the "s" rule between lower-case letters
        "twentyyo male",  # the "yo" rule between lower-case letters
        "rangeImpression winterHx 39Sex HU2096 2073Age:29",
        "MRN:8810245DOB:02/27/2073 Fax:(914) drug(s) surgeon,.Denies",
        "JMH.Does 2003.She model.53 Jude W.. 12G00123,12N01234 1,000",
        "a b\tc\nd  e; f|g [h] #5 MRN#1234 #:AB",
        "PT SEEN BY DR QUENNELL MONDAYS. EVALUATIONWendmere 23F 4471AGE HPI20 KMH.Does",
        "ÉVALUATIONDate ABCÉtude 12YO, MRN:88 (A)B [C];D",
    ],
)
def test_cut_guard_changes_no_cut(text):
    assert _cuts_with_guard(text) == _cuts_without_guard(text)


def test_cut_guard_changes_no_cut_on_notes():
    from spacy_deid.corpus.i2b2_2014 import read_i2b2_2014
    from spacy_deid.dev_notes import dev_note_files
    from spacy_deid.synth import generate_notes

    texts = [read_i2b2_2014(path).text for path in dev_note_files()]
    texts += [note.text for note in generate_notes(20, seed=5)]
    texts += [note.text for note in generate_notes(20, seed=9, nursing=0.9)]  # capitals, one-case notes
    for text in texts:
        assert _cuts_with_guard(text) == _cuts_without_guard(text)


@settings(max_examples=300, deadline=None)
@given(st.lists(_ALPHABET | st.sampled_from(["yo", "days", "DAYS", "ty", "teen", "Y", "S", "AB", "Ab", "MRN"]), max_size=40).map("".join))
def test_cut_guard_changes_no_cut_glue_alphabet(text):
    assert _cuts_with_guard(text) == _cuts_without_guard(text)


# --- the base tokenizer, line by line: the same tokens as one call --------------------
def _base_rows(doc):
    return [(t.idx, t.text, t.whitespace_, t.norm_, t.is_space) for t in doc]


def _joined_base_rows(tokenizer, text):
    from spacy_deid.tokenizer import _BaseTokens, _line_offsets

    base = _BaseTokens.of_parts([(tokenizer.base(text[start:end]), start) for start, end in _line_offsets(text)])
    strings = tokenizer.vocab.strings
    return [
        (start, text[start:end], " " if space else "", strings[norm], bool(is_space))
        for start, end, space, is_space, norm in zip(base.starts, base.ends, base.spaces, base.is_space, base.norms)
    ]


@pytest.mark.parametrize(
    "text",
    [
        "",
        "one line, no break",
        "Dr. Smith can't come.\nShe won't either.\n\nPlan: f/u in 2 wks",
        "\nleading break\n",
        "trailing spaces  \n  indented line\n\tTabbed\r\nWindows line",
        "a \nb\n c\n\n\nd",
    ],
)
def test_line_by_line_base_tokens_equal_one_call(nlp, text):
    tokenizer = nlp.tokenizer
    assert _joined_base_rows(tokenizer, text) == _base_rows(tokenizer.base(text))


@settings(max_examples=300, deadline=None)
@given(st.lists(_ALPHABET | st.sampled_from(["\n", "\n\n", " \n", "Dr.", "can't", "n't", ":)"]), max_size=40).map("".join))
def test_line_by_line_base_tokens_equal_one_call_any_text(text):
    tokenizer = _shared_nlp().tokenizer
    assert _joined_base_rows(tokenizer, text) == _base_rows(tokenizer.base(text))


def test_line_by_line_base_tokens_equal_one_call_on_notes():
    from spacy_deid.corpus.i2b2_2014 import read_i2b2_2014
    from spacy_deid.dev_notes import dev_note_files

    tokenizer = _shared_nlp().tokenizer
    for path in dev_note_files():
        text = read_i2b2_2014(path).text
        assert _joined_base_rows(tokenizer, text) == _base_rows(tokenizer.base(text))


def test_a_one_line_note_without_cuts_keeps_the_base_doc(nlp):
    doc = nlp.make_doc("She can't sleep.")
    assert doc[2].norm_ == "not" and [t.text for t in doc] == ["She", "ca", "n't", "sleep", "."]


# --- the shapes scan without the web shapes: the same matches ---------------------------
def _shape_matches(pattern, text):
    return [(m.span(), m.lastgroup) for m in pattern.finditer(text)]


@pytest.mark.parametrize(
    "text,fast",
    [
        ("DOB 04/17/2094, seen 14:05; call 617-555-0112 or (617)555-0112", True),
        ("MRN XF-1747210-9837, SSN 123-45-6789, the 3rd of May, 214-B", True),
        ("mail jane.doe@example.org", False),  # an e-mail address: the full scan
        ("see https://example.org/x or www.example.org", False),
    ],
)
def test_shapes_regex_chooses_the_fast_scan_only_without_web_text(text, fast):
    from spacy_deid.tokenizer_rules import SHAPES_RE, shapes_regex

    assert (shapes_regex(text) is not SHAPES_RE) is fast
    assert _shape_matches(shapes_regex(text), text) == _shape_matches(SHAPES_RE, text)


def test_shapes_regex_finds_the_same_on_notes():
    from spacy_deid.corpus.i2b2_2014 import read_i2b2_2014
    from spacy_deid.dev_notes import dev_note_files
    from spacy_deid.synth import generate_notes
    from spacy_deid.tokenizer_rules import SHAPES_RE, shapes_regex

    texts = [read_i2b2_2014(path).text for path in dev_note_files()]
    texts += [note.text for note in generate_notes(20, seed=7, nursing=0.5)]
    texts += [line for text in texts for line in text.splitlines()]  # lines: most hold no web text
    assert sum(shapes_regex(text) is not SHAPES_RE for text in texts) > 100
    for text in texts:
        assert _shape_matches(shapes_regex(text), text) == _shape_matches(SHAPES_RE, text)


@settings(max_examples=300, deadline=None)
@given(st.lists(_ALPHABET | st.sampled_from(["2094", "-", "12", "(617)", "555-0112", "AB", "3rd", "/"]), max_size=30).map("".join))
def test_shapes_regex_finds_the_same_on_generated_text(text):
    from spacy_deid.tokenizer_rules import SHAPES_RE, shapes_regex

    assert _shape_matches(shapes_regex(text), text) == _shape_matches(SHAPES_RE, text)


# --- the exceptions scan: its first-character guard changes no match ----------------
def _exception_matches(text, first_char_guard):
    from spacy_deid.tokenizer_rules import compile_exceptions, load_tokenizer_exceptions

    pattern = compile_exceptions(load_tokenizer_exceptions(), first_char_guard=first_char_guard)
    return [match.span() for match in pattern.finditer(text)]


@pytest.mark.parametrize(
    "text,found",
    [
        ("Dr. Lee, PhD, saw her", True),
        ("Na 140 mg/dL today", True),
        ("seen by McDonald", True),
        ("SMITH, JOHNMRN: 123", True),
        ("no exception in this line", False),
        ("", False),
    ],
)
def test_exceptions_guard_changes_no_match(text, found):
    assert _exception_matches(text, True) == _exception_matches(text, False)
    assert bool(_exception_matches(text, True)) is found


_EXCEPTION_PIECES = st.sampled_from(["PhD", "mg/dL", "Mc", "Donald", "MRN", "DOB", "JOHN", "s", ":", "#"])


@settings(max_examples=300, deadline=None)
@given(st.lists(_ALPHABET | _EXCEPTION_PIECES, max_size=30).map("".join))
def test_exceptions_guard_changes_no_match_on_generated_text(text):
    assert _exception_matches(text, True) == _exception_matches(text, False)
