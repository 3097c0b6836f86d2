"""`deid_phi_rules`: regular-expression tagger for PHI with regular surface forms.

Character-level regexes (the `regex` package) find URL, EMAIL, IPADDR, PHONE,
FAX, USERNAME, the ID subtypes, STATE, STREET, ZIP, AGE and DATE; the hits are
mapped onto tokens with `Doc.char_span(alignment_mode=...)` and written to
`doc.spans[spans_key]`, each span's `id_` naming the pattern that produced it.
Patterns are data (see `patterns.py`); they arrive through `initialize`
and are saved by `to_disk`.

Where the section/attribute detector has run, `doc.spans["attributes"]` holds
one span per attribute value, labelled with the normalised attribute name;
patterns with an `attributes` list are searched only inside those values
(the value of "MRN" is a MEDICALRECORD, of "Fax" a FAX). Without that span
group those patterns simply find nothing.

Overlapping hits are resolved deterministically: the longest span (in
characters) wins, then the earliest, then the higher pattern priority, then
the pattern that comes first.

`score()` measures the rule hits on their own (as spaCy's `SpanRuler` scores
its spans key): P/R/F of `doc.spans[spans_key]` against the reference
entities, reported as `spans_<spans_key>_p/r/f/per_type` by `nlp.evaluate`.
"""
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple

from spacy.language import Language
from spacy.pipeline import Pipe
from spacy.pipeline.ner import ner_score
from spacy.scorer import Scorer
from spacy.tokens import Doc, Span
from spacy.training import Example
from spacy.util import registry

from ...data_files import warn_no_data
from ...extensions import ATTRIBUTES_KEY, RULES_KEY
from .patterns import (
    CompiledPattern,
    PatternDict,
    PatternError,
    compile_pattern,
    load_phi_patterns,
    read_pattern_files,
)
from ..serialize import Part, SavedParts
from .full_width import fold_full_width
from .required_text import RequiredTextIndex

DEFAULT_SPANS_KEY = RULES_KEY
DEFAULT_ATTRIBUTES_KEY = ATTRIBUTES_KEY
ALIGNMENT_MODES = ("strict", "contract", "expand")
_CFG_VERSION = 1

# One candidate hit: (span, priority, pattern order).
_Candidate = Tuple[Span, int, int]


@registry.scorers("spacy-deid.PhiRulesScorer.v1")
def make_phi_rules_scorer() -> Callable[..., Dict[str, Any]]:
    """Entity P/R/F of the final `doc.ents`: spaCy's own NER scorer.

    Kept for configs that name it; it does not see the rule hits (use v2).
    """
    return ner_score


@registry.scorers("spacy-deid.PhiRulesScorer.v2")
def make_phi_rules_spans_scorer() -> Callable[..., Dict[str, Any]]:
    """P/R/F of the rule hits (the component's `spans_key` group) against the reference entities."""
    return score_rule_spans


def score_rule_spans(
    examples: Iterable[Example], *, spans_key: str = DEFAULT_SPANS_KEY, **kwargs: Any
) -> Dict[str, Any]:
    """spaCy's `Scorer.score_spans` over the rule hits, keys `spans_<spans_key>_*`.

    The predicted side is the span group; the reference side is its entities
    (gold corpora have no rule span group). Reference docs without entity
    annotation are skipped.
    """

    def rule_hits_or_gold_entities(doc: Doc, attr: str) -> Iterable[Span]:
        return doc.spans[spans_key] if spans_key in doc.spans else doc.ents

    kwargs = {key: value for key, value in kwargs.items() if key in ("labeled", "allow_overlap")}
    return Scorer.score_spans(
        examples,
        f"spans_{spans_key}",
        getter=rule_hits_or_gold_entities,
        has_annotation=lambda doc: doc.has_annotation("ENT_IOB"),
        **kwargs,
    )


@Language.factory(
    "deid_phi_rules",
    # The attribute-limited patterns search the values found by deid_sections
    # (doc.spans["attributes"]); its token attribute stands for that group,
    # as analyze_pipes cannot name a span group key.
    requires=["token._.attribute_name"],
    assigns=["doc.spans", "doc.ents"],
    default_config={
        "spans_key": DEFAULT_SPANS_KEY,
        "attributes_key": DEFAULT_ATTRIBUTES_KEY,
        "alignment_mode": "expand",
        "set_ents": False,
        "scorer": {"@scorers": "spacy-deid.PhiRulesScorer.v2"},
    },
    # Shown in the training table, never weighted: the rules do not train.
    default_score_weights={
        f"spans_{DEFAULT_SPANS_KEY}_f": 0.0,
        f"spans_{DEFAULT_SPANS_KEY}_p": 0.0,
        f"spans_{DEFAULT_SPANS_KEY}_r": 0.0,
        f"spans_{DEFAULT_SPANS_KEY}_per_type": None,
    },
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


class PhiRules(SavedParts, Pipe):
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
        scorer: Optional[Callable] = score_rule_spans,
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
        self._required_index: Optional[RequiredTextIndex] = None  # built on first use

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
        self._required_index = None

    def add_patterns(self, patterns: Iterable[PatternDict]) -> None:
        """Validate, expand and compile patterns; ids must be unique."""
        self._required_index = None  # (built on first use if a pattern below fails)
        seen = {p.id for p in self._compiled}
        for raw in patterns:
            saved, compiled = compile_pattern(raw, order=len(self._compiled))
            if compiled.id in seen:
                raise PatternError(f"duplicate pattern id {compiled.id!r}")
            seen.add(compiled.id)
            self._patterns.append(saved)
            self._compiled.append(compiled)
        # Built here, not in each forked worker on its first note.
        self._required_index = RequiredTextIndex([p.required for p in self._compiled])

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
        self._set_patterns(load_phi_patterns() if patterns is None else patterns)

    # --- matching -------------------------------------------------------------
    def __call__(self, doc: Doc) -> Doc:
        if not self._compiled:
            warn_no_data(self.name, "patterns")
        spans = self.find(doc)
        doc.spans[self.spans_key] = spans
        if self.set_ents:
            kept = [e for e in doc.ents if not any(_overlaps(e, s) for s in spans)]
            doc.ents = sorted(kept + spans, key=lambda s: s.start)
        return doc

    def find(self, doc: Doc) -> List[Span]:
        """The resolved, non-overlapping hits in document order."""
        return resolve_overlaps(self._candidates(doc))

    def _candidates(self, doc: Doc) -> List[_Candidate]:
        # Full-width letters are matched as ASCII; the offsets stay the note's.
        text = fold_full_width(doc.text)
        values = self._attribute_values(doc)
        candidates: List[_Candidate] = []
        if self._required_index is None:
            self._required_index = RequiredTextIndex([p.required for p in self._compiled])
        possible = self._required_index.possible(text)
        for pattern, can_match in zip(self._compiled, possible):
            if not can_match:
                continue  # the note holds none of the text every match needs
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

    def score(self, examples: Iterable[Example], **kwargs: Any) -> Dict[str, Any]:
        """The scorer's measures of this component's own span group (`spans_key`)."""
        if self.scorer is None:
            return {}
        return self.scorer(examples, **{"spans_key": self.spans_key, **kwargs})

    def _attribute_values(self, doc: Doc) -> Dict[str, List[Tuple[int, int]]]:
        if self.attributes_key not in doc.spans:
            return {}
        values: Dict[str, List[Tuple[int, int]]] = {}
        for span in doc.spans[self.attributes_key]:
            values.setdefault(span.label_, []).append((span.start_char, span.end_char))
        return values

    # --- serialization (pipeline/serialize.py) ---------------------------------
    # "cfg" (a format version) and "patterns" (JSONL on disk, read with file
    # and line in its errors).
    def saved_parts(self) -> Dict[str, Part]:
        return {
            "cfg": Part("cfg", self._cfg),
            "patterns": Part(
                "patterns.jsonl", lambda: self._patterns, read=lambda p: read_pattern_files([p])
            ),
        }

    def load_parts(self, values: Dict[str, Any], source: str) -> None:
        if "cfg" in values:
            self._check_cfg(values["cfg"])
        if "patterns" in values:
            self._set_patterns(values["patterns"])

    def _set_patterns(self, patterns: Iterable[PatternDict]) -> None:
        self.clear()
        self.add_patterns(patterns)

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
