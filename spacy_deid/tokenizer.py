"""The conjoined-token splitter: spaCy's tokenizer plus the splits EHR text needs.

Notes extracted from EHRs glue words together ("rangeImpression",
"winterHx", "39Sex", "JMH.Does", "MRN:8810245DOB:02/27/2073"), and a PHI
boundary inside a token cannot be tagged. `DeidTokenizer` runs the
language's own tokenizer first, then

1. cuts its tokens where a glue rule fires (lower->Upper case change,
   letter<->digit change, punctuation glued between words), and
2. keeps "protected" strings whole: shapes such as dates, times, phone
   numbers, e-mail addresses, URLs and hyphenated IDs (built in, below), and
   the exceptions kept as data (mixed-case words such as "PhD", "mg/dL",
   "iPhone", surname prefixes such as "Mc" in "McDonald"). Protected strings
   the base tokenizer split ("2094-04-17", "617-555-0112") are merged back,
   and their edges are always token boundaries.

Because it is the tokenizer, `nlp.make_doc` gives reference and predicted
docs the same tokens at training and at inference, and `doc.text` is always
the input text. The exceptions are data (`data/tokenizer_exceptions.jsonl`),
replaceable through `[initialize.tokenizer]`, and saved with the pipeline.
"""

import re
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

import spacy
import srsly
from spacy.attrs import IDX, IS_SPACE, LENGTH, NORM, SPACY
from spacy.lang.char_classes import ALPHA_LOWER, ALPHA_UPPER
from spacy.language import Language
from spacy.tokens import Doc
from spacy.util import ensure_path, from_bytes, from_disk, registry, to_bytes, to_disk
from spacy.vocab import Vocab

from .data_files import DATA_DIR, read_jsonl
from .ml.fork import end_workers_when_pipe_fails

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


# Every glue rule needs, on one side of its cut, a character that is neither
# an ASCII lower-case letter nor whitespace (a capital, digit, period, comma,
# colon, "#" or bracket), except the two that cut before a lower-case "s" or
# "y" ("Mondays", "twentyyo"). Most positions in prose lie between two
# lower-case letters or next to a space; checking that first lets the scan
# skip them without trying each rule, and halves the tokenizer's rule scan.
# tests/test_tokenizer.py checks that the guard changes no cut.
_CUT_GUARD = r"(?:(?<![a-z\s])|(?![a-z\s])|(?=[sy]))"


def _compile_rules(split_case: bool, split_digits: bool, split_punct: bool) -> "re.Pattern[str]":
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


_SHAPES_RE = re.compile("|".join(f"(?P<{name}>{shape})" for name, shape in SHAPES.items()))


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


def _compile_exceptions(entries: Sequence[Dict[str, str]]) -> Optional["re.Pattern[str]"]:
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
    return re.compile("|".join(alternatives))


class DeidTokenizer:
    """spaCy's tokenizer for the language, plus the conjoined-token splits.

    The result is a Doc whose text is exactly the input text; tokens the
    base tokenizer produced unchanged keep their attributes (such as NORM).
    """

    def __init__(
        self,
        vocab: Vocab,
        base: Callable[[str], Doc],
        *,
        split_case: bool = True,
        split_digits: bool = True,
        split_punct: bool = True,
        keep_shapes: bool = True,
        exceptions: Optional[Sequence[Dict[str, str]]] = None,
    ) -> None:
        self.vocab = vocab
        self.base = base
        self.cfg: Dict[str, bool] = {
            "split_case": split_case,
            "split_digits": split_digits,
            "split_punct": split_punct,
            "keep_shapes": keep_shapes,
        }
        self._rules = _compile_rules(split_case, split_digits, split_punct)
        self.set_exceptions(exceptions if exceptions is not None else load_tokenizer_exceptions())

    # --- exceptions --------------------------------------------------------
    @property
    def exceptions(self) -> List[Dict[str, str]]:
        """The exception entries in use (copies)."""
        return [dict(entry) for entry in self._exceptions]

    def set_exceptions(self, entries: Iterable[Dict[str, str]]) -> None:
        """Replace the exceptions (each {"id", "kind", "text"})."""
        self._exceptions = [validate_exception(entry) for entry in entries]
        self._exceptions_re = _compile_exceptions(self._exceptions)

    def initialize(
        self,
        get_examples: Optional[Callable[[], Iterable[Any]]] = None,
        *,
        nlp: Optional[Language] = None,
        exceptions: Optional[Sequence[Dict[str, str]]] = None,
    ) -> None:
        """Set the exceptions (from `[initialize.tokenizer]`); None: the package's own."""
        self.set_exceptions(exceptions if exceptions is not None else load_tokenizer_exceptions())

    # --- tokenizing --------------------------------------------------------
    def __call__(self, text: str) -> Doc:
        lines = _line_offsets(text)
        if len(lines) == 1:
            base_doc: Optional[Doc] = self.base(text)
            base = _BaseTokens.of(base_doc)
        else:
            base_doc = None
            base = _BaseTokens.concat(
                [(_BaseTokens.of(self.base(text[start:end])), start) for start, end in lines]
            )
        protected = self.protected_spans(text)
        cuts = self.cut_points(text, protected)
        pieces = self._pieces(base, cuts, protected, text)
        if base_doc is not None and [(start, end) for start, end, _ in pieces] == base.spans():
            return base_doc  # one line, nothing cut, nothing merged: spaCy's own Doc
        words = [text[start:end] for start, end, _ in pieces]
        spaces = [space for _, _, space in pieces]
        doc = Doc(self.vocab, words=words, spaces=spaces)
        self._copy_norms(base, doc)
        return doc

    def pipe(self, texts: Iterable[str], batch_size: int = 1000) -> Iterator[Doc]:
        for text in texts:
            yield self(text)

    def protected_spans(self, text: str) -> List[Tuple[int, int]]:
        """Character spans kept whole, sorted, overlapping ones merged."""
        spans: List[Tuple[int, int]] = []
        if self.cfg["keep_shapes"]:
            for match in _SHAPES_RE.finditer(text):
                if match.lastgroup == "url":
                    span = _trim_url(text, match.start(), match.end())
                    if span is not None:
                        spans.append(span)
                elif match.lastgroup == "hyphen_id" and not _has_letter(match.group()):
                    continue  # the lookahead saw a letter beyond the match
                else:
                    spans.append(match.span())
        if self._exceptions_re is not None:
            spans.extend(match.span() for match in self._exceptions_re.finditer(text))
        return _merge_spans(spans)

    def cut_points(self, text: str, protected: Sequence[Tuple[int, int]]) -> List[int]:
        """Sorted character offsets where glue rules cut (protected edges included)."""
        cuts = {match.start() for match in self._rules.finditer(text)}
        for start, end in protected:
            cuts.add(start)
            cuts.add(end)
        inside = _inside(protected)
        return sorted(cut for cut in cuts if not inside(cut))

    def _pieces(
        self,
        base: "_BaseTokens",
        cuts: Sequence[int],
        protected: Sequence[Tuple[int, int]],
        text: str,
    ) -> List[Tuple[int, int, bool]]:
        """(start, end, trailing space) of the final tokens."""
        inside = _inside(protected)
        edges = {offset for span in protected for offset in span}
        pieces: List[Tuple[int, int, bool]] = []
        cut_index = 0
        for start, end, has_space, is_space in zip(base.starts, base.ends, base.spaces, base.is_space):
            if is_space:
                pieces.append((start, end, has_space))
                continue
            while cut_index < len(cuts) and cuts[cut_index] <= start:
                cut_index += 1
            bounds = [start]
            while cut_index < len(cuts) and cuts[cut_index] < end:
                cut = cuts[cut_index]
                # spaCy keeps an abbreviation's period ("Dr.Smith" -> "Dr."
                # "Smith"): don't cut it off again.
                if not (
                    cut == end - 1
                    and text[cut] == "."
                    and text[cut - 1].isalpha()
                    and cut not in edges
                ):
                    bounds.append(cut)
                cut_index += 1
            bounds.append(end)
            for i, (piece_start, piece_end) in enumerate(zip(bounds, bounds[1:])):
                last = i == len(bounds) - 2
                if (
                    pieces
                    and pieces[-1][1] == piece_start
                    and not pieces[-1][2]
                    and inside(piece_start)
                    and not text[pieces[-1][0] : pieces[-1][1]].isspace()
                ):
                    # A protected string the base tokenizer split: merge.
                    pieces[-1] = (pieces[-1][0], piece_end, has_space if last else False)
                else:
                    pieces.append((piece_start, piece_end, has_space if last else False))
        return pieces

    def _copy_norms(self, base: "_BaseTokens", doc: Doc) -> None:
        """Keep token-level norms (e.g. "n't" -> "not") of tokens left as they were.

        A new Doc's tokens have their words' norms; where the base tokenizer
        gave the same token (same offsets) another norm, it is copied over.
        """
        base_norms = {
            (start, end): norm for start, end, norm in zip(base.starts, base.ends, base.norms)
        }
        for i, (start, length, norm) in enumerate(doc.to_array([IDX, LENGTH, NORM]).tolist()):
            base_norm = base_norms.get((start, start + length))
            if base_norm is not None and base_norm != norm:
                doc[i].norm_ = self.vocab.strings[base_norm]

    # --- serialization -----------------------------------------------------
    def to_bytes(self, *, exclude: Iterable[str] = tuple()) -> bytes:
        serializers = {
            "cfg": lambda: srsly.json_dumps(self.cfg),
            "exceptions": lambda: srsly.json_dumps(self._exceptions),
            "base": lambda: self.base.to_bytes(exclude=["vocab"]),  # type: ignore[attr-defined]
        }
        return to_bytes(serializers, exclude)

    def from_bytes(self, bytes_data: bytes, *, exclude: Iterable[str] = tuple()) -> "DeidTokenizer":
        deserializers = {
            "cfg": lambda b: self._set_cfg(srsly.json_loads(b)),
            "exceptions": lambda b: self.set_exceptions(srsly.json_loads(b)),
            "base": lambda b: self.base.from_bytes(  # type: ignore[attr-defined]
                b, exclude=["vocab"]
            ),
        }
        from_bytes(bytes_data, deserializers, exclude)
        return self

    def to_disk(self, path: Union[str, Path], *, exclude: Iterable[str] = tuple()) -> None:
        path = ensure_path(path)
        serializers = {
            "cfg": lambda p: srsly.write_json(p, self.cfg),
            "exceptions.jsonl": lambda p: srsly.write_jsonl(p, self._exceptions),
            "base": lambda p: self.base.to_disk(p, exclude=["vocab"]),  # type: ignore[attr-defined]
        }
        to_disk(path, serializers, exclude)

    def from_disk(
        self, path: Union[str, Path], *, exclude: Iterable[str] = tuple()
    ) -> "DeidTokenizer":
        path = ensure_path(path)
        deserializers = {
            "cfg": lambda p: self._set_cfg(srsly.read_json(p)),
            "exceptions.jsonl": lambda p: self.set_exceptions(read_exceptions(p)),
            "base": lambda p: self.base.from_disk(  # type: ignore[attr-defined]
                p, exclude=["vocab"]
            ),
        }
        from_disk(path, deserializers, exclude)
        return self

    def _set_cfg(self, cfg: Dict[str, bool]) -> None:
        self.cfg.update({key: bool(value) for key, value in cfg.items() if key in self.cfg})
        self._rules = _compile_rules(
            self.cfg["split_case"], self.cfg["split_digits"], self.cfg["split_punct"]
        )


# Where a line starts after a line break (and any whitespace before it):
# the base tokenizer is called once per line. spaCy's tokenizer caches the
# tokens of each whitespace-separated chunk, but within one call it stops
# saving chunks to the cache once it has met a special case ("Dr.", "don't"),
# so a long note would be split affix by affix on every call; line by line
# the cache fills and later notes reuse it (the base tokenizer is about 6x
# faster on the dev notes). Chunks never span whitespace, and a line ends
# with its whitespace, so the tokens are the same as from one call.
_LINE_START = re.compile(r"(?<=\n)(?=\S)")


def _line_offsets(text: str) -> List[Tuple[int, int]]:
    """(start, end) of the lines of `text`, each ending with the whitespace after it."""
    starts = [0] + [match.start() for match in _LINE_START.finditer(text)]
    return list(zip(starts, starts[1:] + [len(text)]))


class _BaseTokens:
    """The base tokenizer's tokens of a text as columns: offsets, spaces, norms."""

    __slots__ = ("starts", "ends", "spaces", "is_space", "norms")

    def __init__(self, starts, ends, spaces, is_space, norms) -> None:
        self.starts: List[int] = starts
        self.ends: List[int] = ends
        self.spaces: List[int] = spaces
        self.is_space: List[int] = is_space
        self.norms: List[int] = norms

    @classmethod
    def of(cls, doc: Doc) -> "_BaseTokens":
        rows = doc.to_array([IDX, LENGTH, SPACY, IS_SPACE, NORM]).tolist() if len(doc) else []
        return cls(
            [row[0] for row in rows],
            [row[0] + row[1] for row in rows],
            [row[2] for row in rows],
            [row[3] for row in rows],
            [row[4] for row in rows],
        )

    @classmethod
    def concat(cls, parts: Sequence[Tuple["_BaseTokens", int]]) -> "_BaseTokens":
        """The tokens of consecutive parts of a text, each shifted by its offset."""
        joined = cls([], [], [], [], [])
        for part, offset in parts:
            joined.starts.extend(start + offset for start in part.starts)
            joined.ends.extend(end + offset for end in part.ends)
            joined.spaces.extend(part.spaces)
            joined.is_space.extend(part.is_space)
            joined.norms.extend(part.norms)
        return joined

    def spans(self) -> List[Tuple[int, int]]:
        return list(zip(self.starts, self.ends))


def _trim_url(text: str, start: int, end: int) -> Optional[Tuple[int, int]]:
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


def _has_letter(text: str) -> bool:
    return any(ch.isalpha() for ch in text)


def _merge_spans(spans: List[Tuple[int, int]]) -> List[Tuple[int, int]]:
    merged: List[Tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start < merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def _inside(spans: Sequence[Tuple[int, int]]) -> Callable[[int], bool]:
    """A test of whether an offset lies strictly inside one of the sorted spans."""
    import bisect

    starts = [start for start, _ in spans]

    def inside(offset: int) -> bool:
        i = bisect.bisect_left(starts, offset) - 1
        return i >= 0 and spans[i][0] < offset < spans[i][1]

    return inside


@registry.tokenizers("spacy-deid.Tokenizer.v1")
def create_deid_tokenizer(
    split_case: bool = True,
    split_digits: bool = True,
    split_punct: bool = True,
    keep_shapes: bool = True,
) -> Callable[[Language], DeidTokenizer]:
    """The language's default tokenizer wrapped by the conjoined-token splitter.

    split_case: cut at lower->Upper and CAPS->Titlecase changes.
    split_digits: cut between words and digits.
    split_punct: cut at periods, commas, colons and brackets glued between words.
    keep_shapes: keep dates, times, phone numbers, IDs, e-mails and URLs whole.
    The exceptions come from the package data, or from `[initialize.tokenizer]`.
    """
    base_factory = registry.tokenizers.get("spacy.Tokenizer.v1")()

    def deid_tokenizer_factory(nlp: Language) -> DeidTokenizer:
        # Every pipeline with this tokenizer: nlp.pipe(n_process>1) raises on a
        # bad item or a failing worker instead of hanging (see ml/fork.py).
        end_workers_when_pipe_fails(nlp)
        return DeidTokenizer(
            nlp.vocab,
            base_factory(nlp),
            split_case=split_case,
            split_digits=split_digits,
            split_punct=split_punct,
            keep_shapes=keep_shapes,
        )

    return deid_tokenizer_factory


def blank_deid(lang: str = "en") -> Language:
    """A blank pipeline for `lang` whose tokenizer is `spacy-deid.Tokenizer.v1`."""
    config = {"nlp": {"tokenizer": {"@tokenizers": "spacy-deid.Tokenizer.v1"}}}
    return spacy.blank(lang, config=config)
