"""The tokenizer's rules as data: glue rules, protected shapes and exceptions.

`spacy_deid.tokenizer.DeidTokenizer` cuts tokens where a glue rule fires
(CASE_RULES, DIGIT_RULES, PUNCT_RULES) and keeps protected strings whole:
the built-in SHAPES (dates, times, phone numbers, e-mail addresses, URLs,
hyphenated IDs) and the exceptions read from `data/tokenizer_exceptions.jsonl`.
"""

import re
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from spacy.lang.char_classes import ALPHA_LOWER, ALPHA_UPPER
from spacy.util import registry

from .data_files import DATA_DIR, read_jsonl

DEFAULT_EXCEPTIONS_PATH = DATA_DIR / "tokenizer_exceptions.jsonl"

# Kinds of exception entries (the "kind" field of the JSONL file).
LITERAL = "literal"  # a string kept whole wherever it stands as a word ("PhD")
NAME_PREFIX = "name_prefix"  # a surname prefix glued to a capitalised name ("Mc")
# A field label glued to the end of an all-caps word, before "#" or ":"
# ("SMITH, JOHNMRN: ..."): split off and kept whole.
FIELD_LABEL = "field_label"
EXCEPTION_KINDS = (LITERAL, NAME_PREFIX, FIELD_LABEL)

# --- regex fragments -------------------------------------------------------
# Unicode-aware letter classes from spaCy, so "ÉvaluationDate" splits too.
LOWER = f"[{ALPHA_LOWER}]"
UPPER = f"[{ALPHA_UPPER}]"
LETTER = f"[{ALPHA_LOWER}{ALPHA_UPPER}]"
ALNUM = f"[0-9{ALPHA_LOWER}{ALPHA_UPPER}]"
# ",000" after digits: a thousands separator, never cut.
THOUSANDS = ",[0-9]{3}(?![0-9])"
# A glued word: Titlecase or lowercase with at least two lower-case letters
# ("Sex", "winter", "mg"), a two-letter Titlecase word ("Pt", "Dr", "Hx"),
# a run of three capitals ("AGE", "DOB") or two and a lower-case ("FHx").
# Other short letter runs next to digits are usually codes ("12G00123",
# "B12", "2D6").
WORD_AFTER_DIGIT = "(?:" + "|".join(
    (
        f"{UPPER}?{LOWER}{{2}}",
        f"{UPPER}{LOWER}(?!{LETTER})",
        f"{UPPER}{{3}}",
        f"{UPPER}{{2}}{LOWER}(?!{LETTER})",
    )
) + ")"
# (as two lookbehinds: Python's must each have a fixed width)
AFTER_WORD = f"(?:(?<={LOWER}{{2}})|(?<={UPPER}{{3}}))"
# A capitalised word of three letters or more: what follows an all-caps run
# that swallowed it ("EVALUATIONWendmere"); "MRIs", "SSRIs" stay whole.
TITLE_WORD = f"{UPPER}{LOWER}{{2}}"

# Glue rules: each matches the zero-width position of one cut.
CASE_RULES = {
    # "rangeImpression", "HealthDOS": a lower-case letter, then a capital.
    "lower_upper": f"(?<={LOWER})(?={UPPER})",
    # "EVALUATIONWendmere": an all-caps run, then a capitalised word.
    "caps_title": f"(?<={UPPER})(?={TITLE_WORD})",
    # "Saturdays": a weekday is a DATE, its plural "s" is not.
    "weekday_plural": "(?:"
    + "|".join(
        f"(?<={day}day)|(?<={day.upper()}DAY)"
        for day in ("Mon", "Tues", "Wednes", "Thurs", "Fri", "Satur", "Sun")
    )
    + f")(?=[sS](?!{LETTER}))",
}
DIGIT_RULES = {
    # "39Sex", "2063Pt", "4471AGE": digits, then a word.
    "digit_letter": f"(?<=[0-9])(?={WORD_AFTER_DIGIT})",
    # "winter2089", "HPI20": a word, then digits.
    "letter_digit": f"{AFTER_WORD}(?=[0-9])",
    # "1512382CC:": digits, then the capitals of the next field's label.
    "digit_label": f"(?<=[0-9])(?={UPPER}{{2,}}[:#])",
    # "twentyyo": a spelled-out age glued to "yo" (years old).
    "number_word_yo": "(?:"
    + "|".join(
        f"(?<={end})"
        for end in (
            "ty",
            "teen",
            "one",
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "eleven",
            "twelve",
        )
    )
    + f")(?=yo(?!{LETTER}))",
    # "23F", "27YO", "5PM": a short number (an age, an hour) with one or two
    # capitals glued to it ("12G00123", "2D6" go on with digits and stay).
    "number_caps": "(?:"
    + "|".join(f"(?<=(?<![0-9A-Za-z])[0-9]{{{n}}})" for n in (1, 2))
    + f")(?={UPPER}{{1,2}}(?![0-9{ALPHA_LOWER}{ALPHA_UPPER}]))",
}
PUNCT_RULES = {
    # "JMH.Does", "2003.She", "model.53": a period glued between a word or
    # number and a capitalised word, or between a word and a number.
    "period_before": f"(?<={ALNUM})(?=\\.{UPPER}{LOWER})|(?<={LOWER}{{2}})(?=\\.[0-9])"
    f"|(?<=[0-9])(?=\\.{UPPER}{{2}})",
    "period_after": f"(?<={ALNUM}\\.)(?={UPPER}{LOWER})|(?<={LOWER}{{2}}\\.)(?=[0-9])"
    f"|(?<=[0-9]\\.)(?={UPPER}{{2}})|(?<=,\\.)(?={UPPER}{LOWER})",
    # "Jude W..": an initial's period, then the sentence's.
    "double_period": f"(?<={LETTER}\\.)(?=\\.(?!\\.))",
    # "12G00123,12N01234": a comma glued between alphanumerics, except a
    # thousands separator ("1,000").
    # ("70748,#390211", "surgeon,.Denies" too).
    "comma_before": f"(?<={LETTER})(?=,(?:{ALNUM}|#|[.;:]))"
    f"|(?<=[0-9])(?=,(?:{ALNUM}|#))(?!{THOUSANDS})",
    "comma_after": f"(?<={LETTER},)(?={ALNUM}|#)|(?<=[0-9],)(?={ALNUM}|#)(?!{THOUSANDS[1:]})",
    # "MRN:8810245", "2073Age:29": a colon glued to a word on either side
    # (a colon between digits is a time or a ratio and stays).
    "colon_before": f"(?<={LETTER})(?=:(?:{ALNUM}|#|\\([0-9]))|(?<=[0-9])(?=:{LETTER})"
    f"|(?<=[.)])(?=:{ALNUM})",
    "colon_after": f"(?<={LETTER}:)(?={ALNUM})|(?<=[0-9]:)(?={LETTER})|(?<=[.)]:)(?={ALNUM})"
    "|(?<=:)(?=#[0-9])",
    # "Fax:(914)": a colon glued to a bracketed number (spaCy reads ":(" as
    # an emoticon).
    "colon_paren": "(?<=:)(?=\\([0-9])",
    # "MRN#1234567": a number sign glued to a word and a number.
    "number_sign": f"(?<={LETTER})(?=#)|(?<=#)(?=[0-9:])|(?<=#:)(?={ALNUM})",
    # "8/5/74)Next", "drug(s)": brackets, semicolons and bars glued to words.
    "bracket": "(?<=[0-9A-Za-z])(?=[()\\[\\];|])|(?<=[()\\[\\];|])(?=[0-9A-Za-z])",
}

# Shapes kept whole (their edges are cut points, cuts inside are dropped).
_NOT_DIGIT_BEFORE = "(?<![0-9])"
_NOT_DIGIT_AFTER = "(?![0-9])"
# A four-digit year, also when a clock time is glued to it ("206203:15").
_YEAR4 = "[0-9]{4}(?:(?![0-9])|(?=[0-9]{1,2}:[0-9]{2}))"
SHAPES = {
    # 2094-04-17
    "iso_date": f"{_NOT_DIGIT_BEFORE}[0-9]{{4}}-[0-9]{{1,2}}-[0-9]{{1,2}}{_NOT_DIGIT_AFTER}",
    # 4/17/94, 04/17/2094, 4/17
    "slash_date": f"(?<![0-9/])[0-9]{{1,2}}/[0-9]{{1,2}}"
    f"(?:/{_YEAR4}|/[0-9]{{2}}(?![0-9/])|(?![0-9/]))",
    # 14:05, 14:05:59
    "time": "(?<![0-9:])[0-9]{1,2}:[0-9]{2}(?::[0-9]{2})?(?![0-9:])",
    # 617-555-0112, 617.555.0112, (617)555-0112, 555-0112
    "phone": f"{_NOT_DIGIT_BEFORE}(?:\\([0-9]{{3}}\\)|[0-9]{{3}}[-.])?"
    "[0-9]{3}[-.][0-9]{4}(?![0-9-])",
    # 123-45-6789
    "ssn": f"{_NOT_DIGIT_BEFORE}[0-9]{{3}}-[0-9]{{2}}-[0-9]{{4}}(?![0-9-])",
    # XF-1747210-9837, SCG-0712284, HU2096-44718, 214-B: hyphenated groups of
    # capitals and digits with at least one of each.
    # The last group has a digit or is one capital, so "43-YEAR-OLD" is no ID.
    "hyphen_id": "(?<![0-9A-Za-z-])(?=[A-Z0-9-]*[A-Z])(?=[A-Z0-9-]*[0-9])"
    "(?:[A-Z]{1,4}|[A-Z]{0,3}[0-9]+)(?:-(?:[A-Z]{1,4}|[A-Z]{0,3}[0-9]+))*"
    "-(?:[A-Z]{0,3}[0-9]+(?![0-9a-z-])|[A-Z](?![0-9A-Za-z-]))",
    # 3rd, 21st: ordinals
    "ordinal": f"{_NOT_DIGIT_BEFORE}[0-9]+(?:st|nd|rd|th)(?!{LOWER})",
    # jane.doe@example.org (the top-level domain ends before a glued word)
    "email": "(?<![\\w.+-])[\\w.+-]+@(?:[A-Za-z0-9-]+\\.)+"
    "(?:[a-z]{2,}(?![a-z0-9])|[A-Z]{2,}(?![A-Za-z0-9]))",
    # https://..., www....; trimmed in _url_spans
    "url": "(?<![\\w/])(?:[A-Za-z][A-Za-z0-9+.-]*://|www\\.)[^\\s<>\"']+",
}
_URL_TRAILING_PUNCT = ".,;:!?)]}'\""
# The next field's label glued to a URL: a capitalised word at its end after
# a capital or digit ("/v/8KQ2-77TDSession"), or one with a colon after a
# lower-case letter or digit ("/blogAttending:").
_URL_GLUED_WORD = re.compile(f"(?<=[A-Z0-9]){UPPER}{LOWER}{{2,}}$")
_URL_GLUED_LABEL = re.compile(f"(?<=[a-z0-9]){UPPER}{LOWER}{{2,}}:")


# Checked first at every position, so the scan skips most positions without
# trying each rule; tests/pipeline/test_tokenizer.py checks that it changes no cut.
# - Every glue rule looks at a character that is no whitespace on both sides
#   of its cut.
# - Every glue rule needs, on one side, a character that is not an ASCII
#   lower-case letter (a capital, digit, period, comma, colon, "#" or
#   bracket), except the two that cut before a lower-case "s" or "y"
#   ("Mondays", "twentyyo"): prose is mostly lower-case letters.
# - Between two ASCII capitals the only cuts are before a capitalised word
#   ("EVALUATIONWendmere": a lower-case letter follows) and a weekday's
#   plural ("MONDAYS": after a "Y"): notes typed in capitals are mostly such
#   positions.
_CUT_GUARD = (
    r"(?<=\S)(?=\S)(?:(?<![a-z])|(?![a-z])|(?=[sy]))"
    f"(?!(?<=[A-XZ])[A-Z](?!{LOWER}))"
)


def compile_rules(split_case: bool, split_digits: bool, split_punct: bool) -> "re.Pattern[str]":
    rules: Dict[str, str] = {}
    if split_case:
        rules.update(CASE_RULES)
    if split_digits:
        rules.update(DIGIT_RULES)
    if split_punct:
        rules.update(PUNCT_RULES)
    if not rules:
        return re.compile("(?!)")  # never matches
    return re.compile(_CUT_GUARD + "(?:" + "|".join(f"(?:{rule})" for rule in rules.values()) + ")")


SHAPES_RE = re.compile("|".join(f"(?P<{name}>{shape})" for name, shape in SHAPES.items()))
# The same scan for a text that holds no "@", "://" or "www." (no e-mail
# address or URL can match in it): the other shapes all start with a digit,
# a capital or "(", and a lookahead on those lets the scan skip the rest
# (about 2.5 times faster on notes; the same matches, tests/pipeline/test_tokenizer.py).
_WEB_SHAPES = ("email", "url")
_SHAPES_WITHOUT_WEB_RE = re.compile(
    "(?=[0-9A-Z(])(?:"
    + "|".join(f"(?P<{name}>{shape})" for name, shape in SHAPES.items() if name not in _WEB_SHAPES)
    + ")"
)


def shapes_regex(text: str) -> "re.Pattern[str]":
    """The shapes scan for `text`: SHAPES_RE, or a faster one with the same
    matches where no e-mail address or URL can be."""
    if "@" in text or "://" in text or "www." in text:
        return SHAPES_RE
    return _SHAPES_WITHOUT_WEB_RE


def read_exceptions(path: Union[str, Path]) -> List[Dict[str, str]]:
    """Read and check a tokenizer-exceptions JSONL file (id, kind, text, comment)."""
    return read_jsonl(path, validate_exception, what="tokenizer exceptions")


def validate_exception(entry: Any) -> Dict[str, str]:
    """Check one exception entry; return it with defaults filled in."""
    if not isinstance(entry, dict):
        raise ValueError("an exception must be an object with 'kind' and 'text'")
    kind = entry.get("kind", LITERAL)
    text = entry.get("text")
    if kind not in EXCEPTION_KINDS:
        raise ValueError(f"'kind' must be one of {', '.join(EXCEPTION_KINDS)}, not {kind!r}")
    if not isinstance(text, str) or not text or any(ch.isspace() for ch in text):
        raise ValueError("'text' must be a non-empty string without whitespace")
    if kind in (NAME_PREFIX, FIELD_LABEL) and not text.isalpha():
        raise ValueError(f"a {kind} must consist of letters")
    checked = {"id": str(entry.get("id") or f"{kind}:{text}"), "kind": kind, "text": text}
    if entry.get("comment"):
        checked["comment"] = str(entry["comment"])
    return checked


@registry.misc("spacy-deid.TokenizerExceptions.v1")
def load_tokenizer_exceptions(path: Optional[Path] = None) -> List[Dict[str, str]]:
    """The tokenizer exceptions in `path` (JSONL), or the package's own."""
    return read_exceptions(path if path is not None else DEFAULT_EXCEPTIONS_PATH)


def compile_exceptions(
    entries: Sequence[Dict[str, str]], first_char_guard: bool = True
) -> Optional["re.Pattern[str]"]:
    """One regex for the exception entries (first_char_guard=False: without
    the lookahead that only makes the scan faster, for tests)."""
    literals = sorted(
        (re.escape(e["text"]) for e in entries if e["kind"] == LITERAL), key=len, reverse=True
    )
    prefixes = sorted(
        (re.escape(e["text"]) for e in entries if e["kind"] == NAME_PREFIX), key=len, reverse=True
    )
    labels = sorted(
        (re.escape(e["text"]) for e in entries if e["kind"] == FIELD_LABEL), key=len, reverse=True
    )
    alternatives = []
    if labels:
        # "JOHNMRN:": after two capitals, before an optional space and "#"/":".
        alternatives.append(f"(?<={UPPER}{{2}})(?:{'|'.join(labels)})(?=[ ]?[#:])")
    if literals:
        # A literal as a word of its own (plural "s" allowed): not inside a
        # longer word, but digits may precede it ("10mg/dL") and glued text
        # may follow if it starts a new word.
        alternatives.append(f"(?<!{LETTER})(?:{'|'.join(literals)})s?(?!{LOWER})")
    if prefixes:
        # "McDonald": prefix + capitalised name, as one word.
        alternatives.append(f"(?<!{LETTER})(?:{'|'.join(prefixes)}){UPPER}{LOWER}+")
    if not alternatives:
        return None
    if not first_char_guard:
        return re.compile("|".join(alternatives))
    # Checked first at every position: every match starts with the first
    # character of an entry's text (the lookbehinds before it consume
    # nothing), so the scan skips the other positions without trying each
    # alternative; about twice as fast on notes, the same matches.
    firsts = sorted({e["text"][0] for e in entries})
    guard = "(?=[" + "".join(re.escape(char) for char in firsts) + "])"
    return re.compile(guard + "(?:" + "|".join(alternatives) + ")")


def trim_url(text: str, start: int, end: int) -> Optional[Tuple[int, int]]:
    """Drop a glued next-field label and trailing punctuation from a URL match."""
    label = _URL_GLUED_LABEL.search(text, start, end)
    if label is not None:
        end = label.start()
    while end > start and text[end - 1] in _URL_TRAILING_PUNCT:
        end -= 1
    glued = _URL_GLUED_WORD.search(text, start, end)
    if glued is not None:
        end = glued.start()
    return (start, end) if end > start else None
