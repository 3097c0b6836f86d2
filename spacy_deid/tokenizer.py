"""The conjoined-token splitter: spaCy's tokenizer plus the splits EHR text needs.

Notes extracted from EHRs glue words together ("rangeImpression",
"winterHx", "39Sex", "JMH.Does", "MRN:8810245DOB:02/27/2073"), and a PHI
boundary inside a token cannot be tagged. `DeidTokenizer` runs the
language's own tokenizer first, then

1. cuts its tokens where a glue rule fires (lower->Upper case change,
   letter<->digit change, punctuation glued between words), and
2. keeps "protected" strings whole: shapes such as dates, times, phone
   numbers, e-mail addresses, URLs and hyphenated IDs (built in:
   `tokenizer_rules.py`), and
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

import numpy
import spacy
import srsly
from spacy.attrs import IDX, IS_SPACE, LENGTH, NORM, SPACY
from spacy.language import Language
from spacy.tokens import Doc
from spacy.util import ensure_path, from_bytes, from_disk, registry, to_bytes, to_disk
from spacy.vocab import Vocab

from .tokenizer_rules import (  # noqa: F401 (CASE/DIGIT/PUNCT_RULES, read_exceptions: public here too)
    CASE_RULES,
    DIGIT_RULES,
    PUNCT_RULES,
    SHAPES_RE,
    shapes_regex,
    compile_exceptions,
    compile_rules,
    load_tokenizer_exceptions,
    read_exceptions,
    trim_url,
    validate_exception,
)

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
        self._rules = compile_rules(split_case, split_digits, split_punct)
        self.set_exceptions(exceptions if exceptions is not None else load_tokenizer_exceptions())

    # --- exceptions --------------------------------------------------------
    @property
    def exceptions(self) -> List[Dict[str, str]]:
        """The exception entries in use (copies)."""
        return [dict(entry) for entry in self._exceptions]

    def set_exceptions(self, entries: Iterable[Dict[str, str]]) -> None:
        """Replace the exceptions (each {"id", "kind", "text"})."""
        self._exceptions = [validate_exception(entry) for entry in entries]
        self._exceptions_re = compile_exceptions(self._exceptions)

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
            base = _BaseTokens.of_parts([(self.base(text[start:end]), start) for start, end in lines])
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
            for match in shapes_regex(text).finditer(text):
                if match.lastgroup == "url":
                    span = trim_url(text, match.start(), match.end())
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
        self._rules = compile_rules(
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
        return cls.of_parts([(doc, 0)])

    @classmethod
    def of_parts(cls, parts: Sequence[Tuple[Doc, int]]) -> "_BaseTokens":
        """The tokens of consecutive parts of a text (a Doc each, with its
        character offset in the text): one array, one conversion to lists."""
        arrays = []
        for doc, offset in parts:
            if len(doc):
                array = doc.to_array([IDX, LENGTH, SPACY, IS_SPACE, NORM])
                array[:, 0] += offset
                arrays.append(array)
        if not arrays:
            return cls([], [], [], [], [])
        starts, lengths, spaces, is_space, norms = numpy.concatenate(arrays).T.tolist()
        return cls(starts, [start + length for start, length in zip(starts, lengths)], spaces, is_space, norms)

    def spans(self) -> List[Tuple[int, int]]:
        return list(zip(self.starts, self.ends))



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
        # Only the tokenizer: the pipeline object is left as spaCy made it
        # (several processes: spacy_deid.ml.worker_pool.pipe_in_processes).
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
