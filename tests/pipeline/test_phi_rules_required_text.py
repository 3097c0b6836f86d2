"""The required text of a PHI pattern: the rule scan skips a note that holds none of it.

A wrong requirement would release PHI silently, so besides the table of
constructs every shipped pattern is checked on each line of the dev notes and
of generated notes (psychiatric and nursing styles): wherever it matches, its
requirement is met in that line, and the component finds the same spans with
and without the index.
"""
import pickle

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st
from spacy.lang.en import English

from spacy_deid.corpus.i2b2_2014 import read_i2b2_2014
from spacy_deid.dev_notes import dev_note_files
from spacy_deid.pipeline.phi_rules import PhiRules
from spacy_deid.pipeline.phi_rules.patterns import compile_pattern, default_patterns
from spacy_deid.pipeline.phi_rules.required_text import (
    RequiredTextIndex,
    fold,
    required_text,
)
from spacy_deid.synth import generate_notes


@pytest.mark.parametrize(
    "pattern,required",
    [
        (r"pager", {"pager"}),
        (r"(?i:Mother|Father)\s+\d+", {"mother", "father"}),
        (r"Jan(?:uary)?\.? \d", {"jan ", "jan. ", "january ", "january. "}),  # literals spelled out
        (r"Jan(?:uary)?\d", {"jan"}),  # "january" holds "jan": one check is enough
        (r"a?bc\d", {"bc"}),
        (r"(?<=Dr\. )[A-Z][a-z]+", {"dr. "}),  # a positive lookbehind's text is in the note too
        (r"(?<![A-Za-z])(?i:bed|rm)\s*\d+", {"bed", "rm"}),
        (r"[Kk]elvin", {"kelvin"}),
        (r"(?:foo|\d)bar", {"bar"}),  # an alternative without text: the rest of the sequence decides
        (r"x{0,5}yz", {"yz"}),
        (r"(?:ab){2}c", {"ababc"}),
        (r"caf[eé] noir", {" noir"}),  # only ASCII characters are used
        (r"\d+ (?:years?|yrs?) old", {" year old", " years old", " yr old", " yrs old"}),
        (r"(?:st|nd)\w+ (?i:Hospital)", {" hospital"}),
    ],
)
def test_required_text_of_constructs(pattern, required):
    assert required_text(pattern) == frozenset(required)


@pytest.mark.parametrize(
    "pattern",
    [
        r"\d+/\d+",  # one character: almost every note holds it, not worth a check
        r"(?<![A-Z])[A-Z]{2,}",  # a negative lookbehind requires nothing
        r"(?:pager)?\d{3}-\d{4}",  # optional text requires nothing
        r"(?:pager|\d)\d{4}",  # one alternative has no text
        r"\p{Lu}\p{Ll}+ Hospital",  # syntax only `regex` reads: no requirement, never a wrong one
        r"[[:alpha:]]+ pager",  # a POSIX class `re` reads otherwise
        r"(?:pager){e<=1}",  # fuzzy matching finds other text
        r"(?V1)pager",
        r"[^a-z]{3}",
    ],
)
def test_no_requirement_where_none_is_known(pattern):
    assert required_text(pattern) is None


@pytest.mark.parametrize(
    "pattern,text",
    [
        (r"(?i:kelvin)", "\u212aELVIN"),  # the Kelvin sign folds to k
        (r"(?i:sister)", "\u017fISTER"),  # the long s folds to s (lower() would not)
        (r"(?i:dr)\.? [A-Z]", "DR QUENNELL"),
        (r"(?i:dixon)", "D\u0130XON"),  # the dotted capital I folds to "i" and a combining dot
    ],
)
def test_case_insensitive_matches_are_never_skipped(pattern, text):
    assert regex.search(pattern, text)
    assert RequiredTextIndex([required_text(pattern)]).possible(text) == [True]


def test_the_index_skips_exactly_the_patterns_a_text_cannot_match():
    requirements = [required_text(p) for p in (r"(?i:pager)\s*\d+", r"(?i:bed|rm)\s*\d+", r"\d+/\d+")]
    index = RequiredTextIndex(requirements)
    assert index.possible("Paged at 5; bed 12") == [False, True, True]
    assert index.possible("PAGER 4411") == [True, False, True]
    assert RequiredTextIndex([None, None]).possible("anything") == [True, True]


# --- every shipped pattern, line by line -------------------------------------------------
@pytest.fixture(scope="module")
def lines():
    texts = [read_i2b2_2014(path).text for path in dev_note_files()]
    texts += [note.text for note in generate_notes(16, seed=5)]
    texts += [note.text for note in generate_notes(24, seed=6, nursing=0.9)]
    return sorted({line for text in texts for line in text.splitlines() if line.strip()})


@pytest.fixture(scope="module")
def shipped():
    return [compile_pattern(pattern, order)[1] for order, pattern in enumerate(default_patterns())]


def test_most_shipped_patterns_have_a_requirement(shipped):
    assert sum(p.required is not None for p in shipped) >= 0.6 * len(shipped)


def test_a_shipped_pattern_matches_only_where_its_requirement_is_met(shipped, lines):
    index = RequiredTextIndex([p.required for p in shipped])
    matched = 0
    for line in lines:
        for pattern, possible in zip(shipped, index.possible(line)):
            if pattern.required is not None and pattern.regex.search(line):
                matched += 1
                assert possible, pattern.id  # never a skipped line that holds a match
    assert matched >= 300  # the lines do exercise the patterns


_PIECES = st.sampled_from(
    ["Dr. ", "DR ", "mother ", "Sister ", "bed ", "Rm", "pager ", "Jan ", "JANUARY ", "3/14", "2094",
     " 45 ", "y/o ", "yo ", "Quennell", "KMH", ", ", "\n", "Mass.", "MA ", "01776", "@", "www.", "#"]
)


@settings(max_examples=300, deadline=None)
@given(text=st.lists(_PIECES, max_size=12).map("".join))
def test_shipped_patterns_on_generated_text(shipped, text):
    index = RequiredTextIndex([p.required for p in shipped])
    for pattern, possible in zip(shipped, index.possible(text)):
        if not possible:
            assert pattern.regex.search(text) is None, pattern.id


# --- the component ------------------------------------------------------------------------
@pytest.fixture()
def rules():
    nlp = English()
    component = PhiRules(nlp.vocab)
    component.add_patterns(default_patterns())
    return nlp, component


def test_the_component_finds_the_same_with_and_without_the_index(rules, monkeypatch):
    nlp, component = rules
    texts = [read_i2b2_2014(path).text for path in dev_note_files()[:5]]
    texts += [note.text for note in generate_notes(6, seed=8, nursing=0.5)]
    with_index = [[(s.start, s.end, s.label_, s.id_) for s in component.find(nlp(t))] for t in texts]
    monkeypatch.setattr(RequiredTextIndex, "possible", lambda self, text: [True] * len(self._needs))
    without = [[(s.start, s.end, s.label_, s.id_) for s in component.find(nlp(t))] for t in texts]
    assert with_index == without
    assert sum(map(len, with_index)) > 50


def test_patterns_added_after_a_call_are_searched(rules):
    nlp, component = rules
    doc = nlp("Wendlock pager 4411")
    component.find(doc)  # builds the index
    component.add_patterns([{"id": "wendlock-code", "label": "IDNUM", "pattern": r"Wendlock(?= pager)"}])
    assert "wendlock-code" in [span.id_ for span in component.find(doc)]


def test_the_component_pickles_with_its_index(rules):
    nlp, component = rules
    doc = nlp("Seen by Dr. Quennell; pager 4411.")
    before = [(s.start, s.end, s.label_) for s in component.find(doc)]
    copy = pickle.loads(pickle.dumps(component))
    assert [(s.start, s.end, s.label_) for s in copy.find(doc)] == before
    assert before


def test_fold_is_casefold():
    assert fold("Stra\u00dfe \u212a") == "strasse k"
    assert fold("D\u0130XON") == "dixon"


def test_every_character_matched_case_insensitively_folds_to_its_match():
    """Over all of Unicode: what `regex` matches with an ASCII character under
    IGNORECASE folds to exactly that character."""
    import sys

    letters = regex.compile("(?i)[a-z]")
    matched = 0
    for code in range(sys.maxunicode + 1):
        if 0xD800 <= code <= 0xDFFF or not letters.fullmatch(chr(code)):
            continue
        matched += 1
        folded = fold(chr(code))
        assert len(folded) == 1 and regex.fullmatch("(?i)" + folded, chr(code)), hex(code)
    assert matched >= 52 + 3  # both cases, the Kelvin sign, the long s, the dotted capital I
