"""Section headers and attribute-value pairs of clinical notes.

Psychiatric intake notes are half forms: section headers ("History of
Present Illness:", "MENTAL STATUS EXAM") and attribute-value pairs
("MRN: 1234567", "Referral source: Dr. X", "Cocaine: no"). The component
finds them from two dictionaries of phrases (matched case-insensitively on
tokens) and writes

- `doc.spans["sections"]`: one span per header (its words, not the colon),
  label = normalised section name ("history_of_present_illness");
- `doc.spans["attribute_names"]`: one span per attribute name, label =
  normalised attribute name ("mrn", "referral_source", "cocaine");
- `doc.spans["attributes"]`: one span per attribute value (after the colon,
  to the end of the line or the next attribute), same label as its name;
- `Token._.section_name` (the section a token is in) and
  `Token._.attribute_name` (for tokens inside an attribute value).

Span ids (`span.id_`) name the dictionary entry that matched. The
dictionaries are data (`data/section_headers.jsonl`,
`data/attribute_names.jsonl`), arrive through `initialize`, and are saved
with the pipeline. Entries are {"id", "label", "pattern"} plus, for
attributes, "phi_expected": false where the value is not an identifier
("Mood", "Cocaine"). Such values still mention dates and names now and then
("Alcohol: quit in March 2069"), so this is a hint, never a filter.
"""

import re
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Set, Tuple, Union

from spacy.language import Language
from spacy.matcher import PhraseMatcher
from spacy.pipeline import Pipe
from spacy.tokens import Doc, Span, Token
from spacy.util import filter_spans, registry

from ..data_files import DATA_DIR, read_jsonl, warn_no_data
from ..extensions import (
    ATTRIBUTE_NAMES_KEY,
    ATTRIBUTES_KEY,
    SECTIONS_KEY,
    install_extensions,
    set_token_feature_values,
)
from .serialize import Part, SavedParts

DEFAULT_SECTIONS_PATH = DATA_DIR / "section_headers.jsonl"
DEFAULT_ATTRIBUTES_PATH = DATA_DIR / "attribute_names.jsonl"

SECTION, ATTRIBUTE = "section", "attribute"
# Normalised names are lower-case snake_case.
_LABEL_RE = re.compile(r"^[a-z][a-z0-9_]*$")
# Tokens that may precede a header on its line: bullets and numbering
# ("- Plan", "2. Past Psychiatric History", "IV) Assessment").
_BULLETS = {"-", "*", "•", "·", "–", "—", ">", "#", "o"}
_NUMBERING_RE = re.compile(r"^(?:[0-9]{1,2}|[IVXivx]{1,4}|[A-Za-z])[.)]?$|^[.)]$")
_MAX_NUMBERING_TOKENS = 3
# Separators between an attribute name and its value.
_SEPARATORS = {":", "="}
_NUMBER_SIGN = "#"
# Punctuation trimmed from the end of a value ("Tobacco: never. Drugs: no").
_TRAILING_PUNCT = {".", ",", ";", "|", ":"}


def read_entries(path: Union[str, Path], kind: str) -> List[Dict[str, Any]]:
    """Read and check a JSONL dictionary of section headers or attribute names."""
    return read_jsonl(path, lambda entry: validate_entry(entry, kind), what=f"{kind} dictionary")


def validate_entry(entry: Any, kind: str) -> Dict[str, Any]:
    """Check one dictionary entry; return it with its id filled in."""
    if not isinstance(entry, dict):
        raise ValueError(f"a {kind} entry must be an object with 'label' and 'pattern'")
    label, pattern = entry.get("label"), entry.get("pattern")
    if not isinstance(label, str) or not _LABEL_RE.match(label):
        raise ValueError(f"'label' must be a lower-case snake_case name, not {label!r}")
    if not isinstance(pattern, str) or not pattern.strip():
        raise ValueError("'pattern' must be a non-empty string")
    checked: Dict[str, Any] = {
        "id": str(entry.get("id") or f"{kind}-{label}-{pattern.lower()}"),
        "label": label,
        "pattern": pattern,
    }
    if kind == ATTRIBUTE and entry.get("phi_expected") is False:
        checked["phi_expected"] = False
    return checked


@registry.misc("spacy-deid.SectionHeaders.v1")
def load_section_headers(path: Optional[Path] = None) -> List[Dict[str, Any]]:
    """Section-header entries from `path` (JSONL), or the package's dictionary."""
    return read_entries(path if path is not None else DEFAULT_SECTIONS_PATH, SECTION)


@registry.misc("spacy-deid.AttributeNames.v1")
def load_attribute_names(path: Optional[Path] = None) -> List[Dict[str, Any]]:
    """Attribute-name entries from `path` (JSONL), or the package's dictionary."""
    return read_entries(path if path is not None else DEFAULT_ATTRIBUTES_PATH, ATTRIBUTE)


@Language.factory(
    "deid_sections",
    requires=[],
    assigns=["doc.spans", "token._.section_name", "token._.attribute_name"],
    default_config={
        "sections_key": SECTIONS_KEY,
        "attributes_key": ATTRIBUTES_KEY,
        "attribute_names_key": ATTRIBUTE_NAMES_KEY,
    },
    default_score_weights={},
)
def make_section_detector(
    nlp: Language,
    name: str,
    sections_key: str,
    attributes_key: str,
    attribute_names_key: str,
) -> "SectionDetector":
    """Find section headers and attribute-value pairs (dictionaries via initialize)."""
    return SectionDetector(
        nlp,
        name,
        sections_key=sections_key,
        attributes_key=attributes_key,
        attribute_names_key=attribute_names_key,
    )


class SectionDetector(SavedParts, Pipe):
    """Dictionary-based section-header and attribute-value detector.

    The dictionaries arrive through `initialize` (or `from_disk`); until then
    the detector warns and finds nothing.
    """

    def __init__(
        self,
        nlp: Language,
        name: str = "deid_sections",
        *,
        sections_key: str = SECTIONS_KEY,
        attributes_key: str = ATTRIBUTES_KEY,
        attribute_names_key: str = ATTRIBUTE_NAMES_KEY,
    ) -> None:
        install_extensions()
        self.nlp = nlp
        self.name = name
        self.cfg = {
            "sections_key": sections_key,
            "attributes_key": attributes_key,
            "attribute_names_key": attribute_names_key,
        }
        self._sections: List[Dict[str, Any]] = []
        self._attributes: List[Dict[str, Any]] = []
        self._matcher = PhraseMatcher(nlp.vocab, attr="LOWER")
        self._entry_by_key: Dict[int, Tuple[str, Dict[str, Any]]] = {}

    # --- dictionaries ------------------------------------------------------
    @property
    def sections(self) -> List[Dict[str, Any]]:
        """The section-header entries (copies)."""
        return [dict(entry) for entry in self._sections]

    @property
    def attributes(self) -> List[Dict[str, Any]]:
        """The attribute-name entries (copies)."""
        return [dict(entry) for entry in self._attributes]

    @property
    def phi_unexpected_attributes(self) -> Set[str]:
        """Attribute labels whose values are not identifiers ("mood", "cocaine").

        A hint: their values still hold dates or names now and then.
        """
        return {e["label"] for e in self._attributes if e.get("phi_expected") is False}

    def initialize(
        self,
        get_examples: Optional[Callable[[], Iterable[Any]]] = None,
        *,
        nlp: Optional[Language] = None,
        sections: Optional[Sequence[Dict[str, Any]]] = None,
        attributes: Optional[Sequence[Dict[str, Any]]] = None,
    ) -> None:
        """Replace the dictionaries; None loads the package's own."""
        self.set_dictionaries(
            sections if sections is not None else load_section_headers(),
            attributes if attributes is not None else load_attribute_names(),
        )

    def set_dictionaries(
        self, sections: Iterable[Dict[str, Any]], attributes: Iterable[Dict[str, Any]]
    ) -> None:
        """Clear the dictionaries and add these entries."""
        self._sections = [validate_entry(entry, SECTION) for entry in sections]
        self._attributes = [validate_entry(entry, ATTRIBUTE) for entry in attributes]
        self._matcher = PhraseMatcher(self.nlp.vocab, attr="LOWER")
        self._entry_by_key = {}
        for kind, entries in ((SECTION, self._sections), (ATTRIBUTE, self._attributes)):
            for entry in entries:
                key = f"{kind}:{entry['id']}"
                self._entry_by_key[self.nlp.vocab.strings.add(key)] = (kind, entry)
                self._matcher.add(key, [self.nlp.make_doc(entry["pattern"])])

    # --- detection ---------------------------------------------------------
    def __call__(self, doc: Doc) -> Doc:
        if not self._entry_by_key:
            warn_no_data(self.name, "section or attribute dictionaries")
        headers, names = self._find_headers_and_names(doc)
        starts = sorted({span.start for span in headers} | {span.start for span in names})
        values = [self._value_span(doc, name, starts) for name in names]
        doc.spans[self.cfg["sections_key"]] = headers
        doc.spans[self.cfg["attribute_names_key"]] = names
        doc.spans[self.cfg["attributes_key"]] = [v for v in values if v is not None]
        self._set_token_extensions(doc, headers, doc.spans[self.cfg["attributes_key"]])
        return doc

    def _find_headers_and_names(self, doc: Doc) -> Tuple[List[Span], List[Span]]:
        candidates: List[Tuple[str, Span]] = []
        for key, start, end in self._matcher(doc):
            kind, entry = self._entry_by_key[key]
            span = Span(doc, start, end, label=entry["label"], span_id=entry["id"])
            if kind == SECTION and _is_header(doc, start, end):
                candidates.append((SECTION, span))
            elif kind == ATTRIBUTE and _is_attribute_name(doc, start, end):
                candidates.append((ATTRIBUTE, span))
        # Longest match first, then earliest; no two results share a token.
        kind_of = {id(span): kind for kind, span in candidates}
        kept = filter_spans([span for _, span in candidates])
        headers = [span for span in kept if kind_of[id(span)] == SECTION]
        names = [span for span in kept if kind_of[id(span)] == ATTRIBUTE]
        return headers, names

    def _value_span(self, doc: Doc, name: Span, starts: Sequence[int]) -> Optional[Span]:
        """The value of an attribute: after its separator to the line's end or next field."""
        i = _skip_separator(doc, name.end)
        i = _skip_inline_space(doc, i)
        if i < len(doc) and _is_single_line_break(doc[i]) and not _starts_field(i + 1, starts):
            i += 1  # "Age:\n24": the value is on the next line
        start = i
        end = start
        while end < len(doc) and not _is_line_break(doc[end]) and end not in starts:
            end += 1
        while end > start and (doc[end - 1].is_space or doc[end - 1].text in _TRAILING_PUNCT):
            end -= 1
        if end <= start:
            return None
        return Span(doc, start, end, label=name.label, span_id=name.id)

    def _set_token_extensions(
        self, doc: Doc, headers: Sequence[Span], values: Sequence[Span]
    ) -> None:
        sections: List[Optional[str]] = [None] * len(doc)
        for header, following in zip(headers, list(headers[1:]) + [None]):
            end = following.start if following is not None else len(doc)
            sections[header.start : end] = [header.label_] * (end - header.start)
        attributes: List[Optional[str]] = [None] * len(doc)
        for value in values:
            attributes[value.start : value.end] = [value.label_] * len(value)
        set_token_feature_values(doc, "section_name", sections)
        set_token_feature_values(doc, "attribute_name", attributes)

    # --- serialization (pipeline/serialize.py) -------------------------------
    def saved_parts(self) -> Dict[str, Part]:
        return {
            "cfg": Part("cfg", lambda: self.cfg),
            "sections": Part(
                "sections.jsonl", lambda: self._sections, read=lambda p: read_entries(p, SECTION)
            ),
            "attributes": Part(
                "attributes.jsonl",
                lambda: self._attributes,
                read=lambda p: read_entries(p, ATTRIBUTE),
            ),
        }

    def load_parts(self, values: Dict[str, Any], source: str) -> None:
        self.cfg.update(values.get("cfg", {}))
        self.set_dictionaries(
            values.get("sections", self._sections), values.get("attributes", self._attributes)
        )


# --- position rules ----------------------------------------------------------
def _is_line_break(token: Token) -> bool:
    return token.is_space and ("\n" in token.text or "\r" in token.text)


def _is_single_line_break(token: Token) -> bool:
    """A line break that is not a blank line ("\\n", "\\r\\n", "\\n  ")."""
    text = token.text.replace("\r\n", "\n").replace("\r", "\n")
    return token.is_space and text.count("\n") == 1


def _skip_inline_space(doc: Doc, i: int) -> int:
    while i < len(doc) and doc[i].is_space and not _is_line_break(doc[i]):
        i += 1
    return i


def _at_line_start(doc: Doc, start: int) -> bool:
    """Only bullets, numbering or nothing between the line's start and `start`."""
    i = start - 1
    skipped = 0
    while (
        i >= 0
        and skipped < _MAX_NUMBERING_TOKENS
        and (doc[i].text in _BULLETS or _NUMBERING_RE.match(doc[i].text))
    ):
        i -= 1
        skipped += 1
    return i < 0 or _is_line_break(doc[i])


def _skip_separator(doc: Doc, i: int) -> int:
    """Index after an attribute separator (":", "=", "#", "#:") at i, or i if none."""
    i = _skip_inline_space(doc, i)
    if i < len(doc) and doc[i].text == _NUMBER_SIGN:
        i += 1
        j = _skip_inline_space(doc, i)
        return j + 1 if j < len(doc) and doc[j].text in _SEPARATORS else i
    return i + 1 if i < len(doc) and doc[i].text in _SEPARATORS else i


def _has_separator(doc: Doc, end: int) -> bool:
    return _skip_separator(doc, end) > _skip_inline_space(doc, end)


def _starts_uppercase(doc: Doc, start: int) -> bool:
    return doc[start].text[:1].isupper()


def _is_header(doc: Doc, start: int, end: int) -> bool:
    """A dictionary phrase alone at the start of a line, ending in a colon or the line.

    Without a colon the header must start with a capital ("Plan", "PLAN"), so
    that a lower-case line of prose is not taken for one.
    """
    if not _at_line_start(doc, start):
        return False
    after = _skip_inline_space(doc, end)
    if after < len(doc) and doc[after].text == ":":
        return True
    return (after >= len(doc) or _is_line_break(doc[after])) and _starts_uppercase(doc, start)


def _is_attribute_name(doc: Doc, start: int, end: int) -> bool:
    """A dictionary phrase followed by a separator, where a field can start.

    A field starts at the start of a line, after punctuation ("...no. Drugs:
    none"), after a word glued to it ("ReyesMRN:"), or anywhere with a capital
    ("Alcohol: no Tobacco: no").
    """
    if not _has_separator(doc, end):
        return False
    if _at_line_start(doc, start) or _starts_uppercase(doc, start):
        return True
    previous = doc[start - 1]
    return previous.is_punct or not previous.whitespace_


def _starts_field(i: int, starts: Sequence[int]) -> bool:
    return i in starts
