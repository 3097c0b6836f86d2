"""Speed-ups of the PHI patterns that must not change a single match.

The word lists are written as prefix trees (`phi_rules.fragments._alternation`)
and digit-start patterns get a first-character lookahead
(`phi_rules.first_chars.scan_guard`). Both are checked against the plain forms on
notes and on generated text.
"""
import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from spacy_deid.corpus.i2b2_2014 import read_i2b2_2014
from spacy_deid.dev_notes import dev_note_files
from spacy_deid.pipeline.phi_rules.patterns import compile_pattern, default_patterns
from spacy_deid.pipeline.phi_rules.first_chars import first_char_guard, scan_guard
from spacy_deid.pipeline.phi_rules.fragments import _alternation, expand
from spacy_deid.synth import generate_notes


def _longest_first(words):
    """The alternation as it was written before the prefix tree."""
    unique = sorted(set(words), key=lambda w: (-len(w), w))
    return "(?:" + "|".join(regex.escape(w) for w in unique) + ")"


@pytest.fixture(scope="module")
def note_texts():
    texts = [read_i2b2_2014(path).text for path in dev_note_files()]
    return texts + [note.text for note in generate_notes(12, seed=3)]


# --- first-character guards ------------------------------------------------------------
@pytest.mark.parametrize(
    "pattern,admitted,refused",
    [
        (r"abc", "a", "bA1 "),
        (r"(?i:abc)", "aA", "b1"),
        (r"(?<![\w.])\d+", "05", "a.-"),
        (r"(?:Mon|Tue)?\d", "MT7", "mt "),
        (r"x?y*z", "xyz", "a"),
        (r"(?=\d)[0-9a-f]+", "0a", "g"),  # lookarounds consume nothing: the class decides
        (r"[^a-z]q", "A1 ", "a"),
        (r"(?:a|(?i:b))c", "abB", "A"),
    ],
)
def test_first_char_guard_admits_exactly_the_first_characters(pattern, admitted, refused):
    guard = regex.compile(first_char_guard(pattern))
    assert all(guard.match(char) for char in admitted)
    assert not any(guard.match(char) for char in refused)


@pytest.mark.parametrize(
    "pattern",
    [
        r"a?",  # can match empty: no first character
        r"(?:ab)*",
        r".x",  # any character
        r"(a)?\1b",  # a backreference among the first items is not modelled
        r"(?i)abc",  # global flags must stay first
        r"\p{Lu}x",  # syntax only `regex` reads
        r"(?a:\w)x",  # a scoped flag that changes classes
        r"[[:alpha:]]+x",  # a POSIX class: re would read "[[:alph]" and a "]"
        r"(?:word){e<=1}",  # fuzzy matching may start with another character
        r"(?V1)[a-z]x",  # version flags
    ],
)
def test_no_guard_where_the_first_characters_are_unknown(pattern):
    assert first_char_guard(pattern) is None


@pytest.mark.parametrize(
    "pattern,guarded",
    [
        (r"(?<![\w.])\d{1,2}(?:st|nd|rd|th) of", True),  # digit start, after a lookbehind
        (r"(?:Monday,? )?\d\d?/\d\d?", True),
        (r"(?i:phone|tel)\W*\d", False),  # letters in either case: regex skips ahead itself
        (r"[a-z0-9]+\.com", False),  # starts at most lower-case letters
        (r"Room \d+", False),  # no digit start
    ],
)
def test_scan_guard_only_where_it_pays(pattern, guarded):
    assert (scan_guard(pattern) is not None) is guarded


def test_shipped_patterns_find_the_same_with_and_without_guards(note_texts):
    patterns = default_patterns()
    assert sum(scan_guard(expand(p["pattern"])) is not None for p in patterns) >= 10
    for order, pattern in enumerate(patterns):
        saved, compiled = compile_pattern(pattern, order)
        plain = regex.compile(saved["pattern"])
        assert compiled.regex.pattern.endswith(saved["pattern"])
        for text in note_texts:
            expected = [m.span() for m in plain.finditer(text)]
            assert [m.span() for m in compiled.regex.finditer(text)] == expected, pattern["id"]


def test_saved_patterns_carry_no_guard():
    patterns = default_patterns()
    saved = [compile_pattern(p, i)[0]["pattern"] for i, p in enumerate(patterns)]
    assert saved == [expand(p["pattern"]) for p in patterns]


_GLUE_TEXT = st.lists(
    st.sampled_from(list("0123456789aAbMFmf /-.,:()#\n") + ["Monday", "1st", "of ", "March", "yo", "12F"]),
    max_size=30,
).map("".join)


@pytest.fixture(scope="module")
def guarded_pairs():
    """(id, guarded regex, plain regex) of the shipped patterns that carry a guard."""
    pairs = []
    for order, pattern in enumerate(default_patterns()):
        saved, compiled = compile_pattern(pattern, order)
        if compiled.regex.pattern != saved["pattern"]:
            pairs.append((pattern["id"], compiled.regex, regex.compile(saved["pattern"])))
    return pairs


@settings(max_examples=200, deadline=None)
@given(text=_GLUE_TEXT)
def test_guarded_shipped_patterns_on_generated_text(guarded_pairs, text):
    for pattern_id, guarded, plain in guarded_pairs:
        assert [m.span() for m in guarded.finditer(text)] == [m.span() for m in plain.finditer(text)], pattern_id


# --- word lists as prefix trees ---------------------------------------------------------
def test_prefix_tree_prefers_the_longest_word():
    words = ["Virginia", "West Virginia", "Sep", "Sept", "September"]
    tree = regex.compile(_alternation(words))
    assert tree.match("West Virginia").group() == "West Virginia"
    assert tree.match("Septembers").group() == "September"
    assert tree.match("Sept.").group() == "Sept"
    assert tree.match("Sep 3").group() == "Sep"
    assert tree.match("Vermont") is None


_WORDS = st.lists(st.text(alphabet="abAB .'", min_size=1, max_size=5), min_size=1, max_size=8)


@settings(max_examples=300, deadline=None)
@given(_WORDS, st.text(alphabet="abAB .'x", max_size=30), st.sampled_from(["", "b", r"(?![a-z])", r"\.?x"]))
def test_prefix_tree_matches_like_the_longest_first_list(words, text, after):
    """Same matches in the same order of preference, whatever follows the list."""
    tree = regex.compile(_alternation(words) + after)
    listed = regex.compile(_longest_first(words) + after)
    assert [m.span() for m in tree.finditer(text)] == [m.span() for m in listed.finditer(text)]


def _word_lists():
    from spacy_deid.pipeline.phi_rules import fragments

    states = [name for name, _ in fragments.us_states()]
    return {
        "months": fragments._title_and_upper(fragments.MONTHS_FULL + fragments.MONTHS_ABBR),
        "weekdays": fragments._title_and_upper(fragments.WEEKDAYS_FULL + fragments.WEEKDAYS_ABBR),
        "holidays": list(fragments.HOLIDAYS),
        "states": states + [name.upper() for name in states],
        "countries": fragments._unambiguous_countries(),
        "job heads": fragments._job_heads(),
    }


@pytest.mark.parametrize("after", ["", r"\.?(?![A-Za-z])", r",?\s+\d"])
def test_word_lists_find_the_same_as_the_longest_first_list(note_texts, after):
    for name, words in _word_lists().items():
        tree = regex.compile(_alternation(words) + after)
        listed = regex.compile(_longest_first(words) + after)
        for text in note_texts:
            assert [m.span() for m in tree.finditer(text)] == [m.span() for m in listed.finditer(text)], name


# The two hand-written word lists that became prefix trees, as they were written.
_NUMBER_WORD_AS_LIST = (
    "(?i:(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)"
    "(?:[- ](?:one|two|three|four|five|six|seven|eight|nine))?"
    "|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen"
    "|one|two|three|four|five|six|seven|eight|nine)(?![a-z])"
)
_DATE_CUE_AS_LIST = (
    r"(?i:in|on|since|from|until|till|til|by|during|through|thru|to|of|early|late|mid|"
    r"last|next|this|that|around|about|before|after|starting|started|beginning|began|"
    r"begins|every|each|throughout|over|circa|dated|as\s+of)"
)


@pytest.mark.parametrize(
    "fragment,as_list,after",
    [
        ("NUMBER_WORD", _NUMBER_WORD_AS_LIST, ""),
        ("NUMBER_WORD", _NUMBER_WORD_AS_LIST, r"\s*(?:years?|yo)"),
        ("DATE_CUE", _DATE_CUE_AS_LIST, r"\s+"),  # every use is followed by whitespace
    ],
)
def test_hand_written_lists_as_trees_find_the_same(note_texts, fragment, as_list, after):
    tree = regex.compile(r"(?<![A-Za-z])" + expand("{" + fragment + "}") + after)
    listed = regex.compile(r"(?<![A-Za-z])" + as_list + after)
    texts = note_texts + ["Twenty-one years, SIXTEEN yo, seventy seven, throughout June, thru May, as  of 3/4, till 5"]
    for text in texts:
        assert [m.span() for m in tree.finditer(text)] == [m.span() for m in listed.finditer(text)]
