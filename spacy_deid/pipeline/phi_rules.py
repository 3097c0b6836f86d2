"""`deid_phi_rules`: regular-expression tagger for PHI with regular surface forms.

Character-level regexes (the `regex` package) find URL, EMAIL, IPADDR, PHONE,
FAX, USERNAME, the ID subtypes, STATE, STREET, ZIP, AGE and DATE; the hits are
mapped onto tokens with `Doc.char_span(alignment_mode=...)` and written to
`doc.spans[spans_key]`, each span's `id_` naming the pattern that produced it.
Patterns are data (see `phi_patterns.py`); they arrive through `initialize`
and are saved by `to_disk`.

Where the section/attribute detector has run, `doc.spans["attributes"]` holds
one span per attribute value, labelled with the normalised attribute name;
patterns with an `attributes` list are searched only inside those values
(the value of "MRN" is a MEDICALRECORD, of "Fax" a FAX). Without that span
group those patterns simply find nothing.

Overlapping hits are resolved deterministically: the longest span (in
characters) wins, then the earliest, then the higher pattern priority, then
the pattern that comes first.
"""
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple, Union

import srsly
from spacy.language import Language
from spacy.scorer import get_ner_prf
from spacy.tokens import Doc, Span
from spacy.training import Example
from spacy.util import SimpleFrozenList, ensure_path, from_disk, registry, to_disk

from .phi_patterns import CompiledPattern, PatternDict, PatternError, compile_pattern, default_patterns

DEFAULT_SPANS_KEY = "phi_rules"
DEFAULT_ATTRIBUTES_KEY = "attributes"
ALIGNMENT_MODES = ("strict", "contract", "expand")
_CFG_VERSION = 1

# One candidate hit: (span, priority, pattern order).
_Candidate = Tuple[Span, int, int]


@registry.scorers("spacy-deid.PhiRulesScorer.v1")
def make_phi_rules_scorer() -> Callable[..., Dict[str, Any]]:
    """Score the rules' `doc.ents` (rules-only pipelines with set_ents=True)."""
    return score_phi_rules


def score_phi_rules(examples: Iterable[Example], **kwargs: Any) -> Dict[str, Any]:
    return get_ner_prf(examples)


@Language.factory(
    "deid_phi_rules",
    assigns=["doc.spans", "doc.ents"],
    requires=["token.text"],
    default_config={
        "spans_key": DEFAULT_SPANS_KEY,
        "attributes_key": DEFAULT_ATTRIBUTES_KEY,
        "alignment_mode": "expand",
        "set_ents": False,
        "scorer": {"@scorers": "spacy-deid.PhiRulesScorer.v1"},
    },
    default_score_weights={"ents_f": 1.0, "ents_p": 0.0, "ents_r": 0.0, "ents_per_type": None},
)
def make_phi_rules(
    nlp: Language,
    name: str,
    spans_key: str,
    attributes_key: str,
    alignment_mode: str,
    set_ents: bool,
    scorer: Optional[Callable],
) -> "PhiRules":
    """Create a `deid_phi_rules` component (patterns come through `initialize`)."""
    return PhiRules(
        nlp.vocab,
        name,
        spans_key=spans_key,
        attributes_key=attributes_key,
        alignment_mode=alignment_mode,
        set_ents=set_ents,
        scorer=scorer,
    )


class PhiRules:
    """Find PHI with regexes; write the hits to a span group (and optionally doc.ents).

    alignment_mode: how a character hit becomes a token span. "expand" (the
    default) is chosen on purpose: when a hit ends inside a token (text glued
    together in an EHR export and not split by the tokenizer), the whole token
    is taken, so the PHI is still covered; "strict" would drop such hits and
    "contract" would leave part of the PHI out.
    set_ents: also write the hits to `doc.ents` (for a rules-only pipeline,
    until the reconciler does this); rule hits replace overlapping entities.
    """

    def __init__(
        self,
        vocab: Any,
        name: str = "deid_phi_rules",
        *,
        spans_key: str = DEFAULT_SPANS_KEY,
        attributes_key: str = DEFAULT_ATTRIBUTES_KEY,
        alignment_mode: str = "expand",
        set_ents: bool = False,
        scorer: Optional[Callable] = score_phi_rules,
    ) -> None:
        if alignment_mode not in ALIGNMENT_MODES:
            raise ValueError(
                f"alignment_mode must be one of {ALIGNMENT_MODES}, got {alignment_mode!r}"
            )
        self.vocab = vocab
        self.name = name
        self.spans_key = spans_key
        self.attributes_key = attributes_key
        self.alignment_mode = alignment_mode
        self.set_ents = set_ents
        self.scorer = scorer
        self._patterns: List[PatternDict] = []
        self._compiled: List[CompiledPattern] = []

    # --- patterns -------------------------------------------------------------
    @property
    def patterns(self) -> List[PatternDict]:
        """The patterns as saved (fragments expanded), one dict per pattern."""
        return list(self._patterns)

    @property
    def labels(self) -> Tuple[str, ...]:
        return tuple(sorted({p.label for p in self._compiled}))

    @property
    def ids(self) -> Tuple[str, ...]:
        return tuple(p.id for p in self._compiled)

    def __len__(self) -> int:
        return len(self._compiled)

    def clear(self) -> None:
        self._patterns = []
        self._compiled = []

    def add_patterns(self, patterns: Iterable[PatternDict]) -> None:
        """Validate, expand and compile patterns; ids must be unique."""
        seen = {p.id for p in self._compiled}
        for raw in patterns:
            saved, compiled = compile_pattern(raw, order=len(self._compiled))
            if compiled.id in seen:
                raise PatternError(f"duplicate pattern id {compiled.id!r}")
            seen.add(compiled.id)
            self._patterns.append(saved)
            self._compiled.append(compiled)

    def initialize(
        self,
        get_examples: Optional[Callable[[], Iterable[Example]]] = None,
        *,
        nlp: Optional[Language] = None,
        patterns: Optional[Sequence[PatternDict]] = None,
    ) -> None:
        """Clear the patterns and load new ones.

        patterns: usually from `[initialize.components.NAME.patterns]` with
        `@misc = "spacy-deid.PhiPatterns.v1"`; None loads the package's own
        patterns, an empty list leaves the component without patterns.
        """
        self.clear()
        self.add_patterns(default_patterns() if patterns is None else patterns)

    # --- matching -------------------------------------------------------------
    def __call__(self, doc: Doc) -> Doc:
        spans = self.find(doc)
        doc.spans[self.spans_key] = spans
        if self.set_ents:
            kept = [e for e in doc.ents if not any(_overlaps(e, s) for s in spans)]
            doc.ents = sorted(kept + spans, key=lambda s: s.start)
        return doc

    def pipe(self, stream: Iterable[Doc], batch_size: int = 128) -> Iterable[Doc]:
        for doc in stream:
            yield self(doc)

    def find(self, doc: Doc) -> List[Span]:
        """The resolved, non-overlapping hits in document order."""
        return resolve_overlaps(self._candidates(doc))

    def _candidates(self, doc: Doc) -> List[_Candidate]:
        text = doc.text
        values = self._attribute_values(doc)
        candidates: List[_Candidate] = []
        for pattern in self._compiled:
            if pattern.attributes:
                windows = [w for name in pattern.attributes for w in values.get(name, ())]
            else:
                windows = [(0, len(text))]
            for start, end in windows:
                for match in pattern.regex.finditer(text, start, end):
                    for char_start, char_end in _phi_offsets(match, pattern.phi_groups):
                        span = doc.char_span(
                            char_start,
                            char_end,
                            label=pattern.label,
                            alignment_mode=self.alignment_mode,
                            span_id=pattern.id,
                        )
                        if span is not None and len(span) > 0:
                            candidates.append((span, pattern.priority, pattern.order))
        return candidates

    def _attribute_values(self, doc: Doc) -> Dict[str, List[Tuple[int, int]]]:
        if self.attributes_key not in doc.spans:
            return {}
        values: Dict[str, List[Tuple[int, int]]] = {}
        for span in doc.spans[self.attributes_key]:
            values.setdefault(span.label_, []).append((span.start_char, span.end_char))
        return values

    # --- serialization --------------------------------------------------------
    def to_bytes(self, *, exclude: Iterable[str] = SimpleFrozenList()) -> bytes:
        return srsly.msgpack_dumps({"cfg": self._cfg(), "patterns": self._patterns})

    def from_bytes(self, bytes_data: bytes, *, exclude: Iterable[str] = SimpleFrozenList()) -> "PhiRules":
        data = srsly.msgpack_loads(bytes_data)
        self._check_cfg(data.get("cfg", {}))
        self.clear()
        self.add_patterns(data.get("patterns", []))
        return self

    def to_disk(self, path: Union[str, Path], *, exclude: Iterable[str] = SimpleFrozenList()) -> None:
        serializers = {
            "cfg": lambda p: srsly.write_json(p, self._cfg()),
            "patterns": lambda p: srsly.write_jsonl(p.with_suffix(".jsonl"), self._patterns),
        }
        to_disk(ensure_path(path), serializers, exclude)

    def from_disk(self, path: Union[str, Path], *, exclude: Iterable[str] = SimpleFrozenList()) -> "PhiRules":
        self.clear()
        deserializers = {
            "cfg": lambda p: self._check_cfg(srsly.read_json(p)) if p.exists() else None,
            "patterns": lambda p: self.add_patterns(srsly.read_jsonl(p.with_suffix(".jsonl"))),
        }
        from_disk(ensure_path(path), deserializers, exclude)
        return self

    def _cfg(self) -> Dict[str, Any]:
        return {"version": _CFG_VERSION, "n_patterns": len(self._patterns)}

    def _check_cfg(self, cfg: Dict[str, Any]) -> None:
        version = cfg.get("version", _CFG_VERSION)
        if version != _CFG_VERSION:
            raise ValueError(f"{self.name}: saved with cfg version {version}, expected {_CFG_VERSION}")


def _phi_offsets(match: Any, phi_groups: Tuple[str, ...]) -> List[Tuple[int, int]]:
    """Character offsets of the PHI in a match: its phi groups, else the whole match."""
    if not phi_groups:
        return [match.span()] if match.end() > match.start() else []
    offsets = []
    for group in phi_groups:
        start, end = match.span(group)
        if start >= 0 and end > start:
            offsets.append((start, end))
    return offsets


def _overlaps(a: Span, b: Span) -> bool:
    return a.start < b.end and b.start < a.end


def resolve_overlaps(candidates: List[_Candidate]) -> List[Span]:
    """Keep non-overlapping hits: longest (characters) first, then earliest,
    then higher priority, then earlier pattern. Returns spans in document order."""
    ranked = sorted(
        candidates,
        key=lambda c: (-(c[0].end_char - c[0].start_char), c[0].start_char, -c[1], c[2]),
    )
    taken: set = set()
    kept: List[Span] = []
    for span, _, _ in ranked:
        tokens = range(span.start, span.end)
        if any(t in taken for t in tokens):
            continue
        taken.update(tokens)
        kept.append(span)
    return sorted(kept, key=lambda s: (s.start, s.end))
