"""The keep/drop decision of `deid_confidence`: P(PHI) of a dropped mention.

The reconciler's soft drop rules (`"hard": false` in reconciler_rules.jsonl)
and its merge step remove mentions the NER or a PHI pattern proposed; it keeps
them in `doc.spans["phi_dropped"]` with the ids of every drop rule that fired
(`fired_rules`) and whether one of them is a veto (`hard`). Here a small
logistic regression weighs that evidence against the rest:

- `raw`: the NER's probability (mean over the span's tokens);
- `rule:<id>`: each drop rule that fired; `step:<step>`: the other steps of
  the provenance trail ("merge:under_rule"); `source:<source>` (ner, rule,
  rule:<pattern id>); `cue:<cue>`: safety-net cues on the same words;
- `tag:<category>`: `deid_lexicon` tags on the span's tokens (FIRST, LAST, CITY);
- `case:<mixed|upper|lower>`: the note's casing; `span_case:<...>`: the span's;
- `section:<name>`: the `deid_sections` section the span starts in;
- `before:<n>` / `after:<n>`: the lower-cased words just around the span,
  hashed into `buckets` buckets (a small bag of context words);
- `label:<type>`, `length:<1|2|3+>` (tokens);
- `widens` (set by the component): restoring the span would widen entities
  lying inside it (an NER name merged under a shorter pattern hit).

All features but `raw` are 0/1. The weights are plain data (JSON), applied in
numpy; `fit` (scikit-learn, offline: `spacy-deid calibrate`) learns them from
(features, target) rows of held-out annotated notes. Feature names carry rule
ids and hashed buckets only, never words.
"""
import zlib
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

import numpy
from spacy.tokens import Doc, Span

from ...extensions import token_feature_values
from ..reconciler.steps import lexicon_tags, mixed_case

DECISION_VERSION = 1
DEFAULT_BUCKETS = 64
DEFAULT_WINDOW = 2
# Class weight of PHI rows when fitting: a PHI word released costs more than a
# word redacted for nothing (recall is the product).
DEFAULT_POSITIVE_WEIGHT = 2.0
# Inverse L2 strength: the rows are few (a few hundred dropped mentions) and
# generated, so the weights are kept small: with 1.0, a decision fitted on
# generated notes restored 5x more non-PHI words on the nursing read/ half at P >= 0.9
# (79 against 15 at 0.1), and no PHI word (the drops removed none there).
DEFAULT_C = 0.1

Features = Dict[str, float]


def note_casing(doc: Doc) -> str:
    """"mixed", or the case a one-case note is typed in ("upper" / "lower")."""
    if mixed_case(doc):
        return "mixed"
    upper = sum(1 for t in doc if t.is_alpha and len(t) > 1 and t.is_upper)
    lower = sum(1 for t in doc if t.is_alpha and len(t) > 1 and t.is_lower)
    return "upper" if upper > lower else "lower"


def span_casing(span: Span) -> str:
    words = [t for t in span if t.is_alpha]
    if not words:
        return "none"
    if all(t.is_upper for t in words):
        return "upper"
    if all(t.is_lower for t in words):
        return "lower"
    return "title" if all(t.is_title for t in words) else "other"


def bucket(word: str, buckets: int) -> int:
    """A stable hash bucket of a word (crc32: the same on every run and machine)."""
    return zlib.crc32(word.encode("utf8")) % buckets


def context_words(doc: Doc, start: int, end: int, window: int) -> Tuple[List[str], List[str]]:
    """The lower-cased words (tokens with a letter or digit) just before and after."""
    before: List[str] = []
    i = start - 1
    while i >= 0 and len(before) < window:
        if any(c.isalnum() for c in doc[i].text):
            before.append(doc[i].lower_)
        i -= 1
    after: List[str] = []
    i = end
    while i < len(doc) and len(after) < window:
        if any(c.isalnum() for c in doc[i].text):
            after.append(doc[i].lower_)
        i += 1
    return before, after


def trail_features(provenance: str, fired_rules: Sequence[str]) -> List[str]:
    """Source, steps and rules of a dropped span's provenance trail ("ner|correct:x")."""
    steps = provenance.split("|") if provenance else []
    names = []
    if steps:
        source = steps[0]
        names.append(f"source:{source.split(':', 1)[0]}")
        if ":" in source:
            names.append(f"source:{source}")
    for step in steps[1:]:
        if step.startswith("correct:"):
            continue  # the drop rules come from `fired_rules` (all of them)
        # "complete:absorbed:<trail>" names another mention: its kind only.
        names.append("step:" + ":".join(step.split(":", 2)[:2]))
    rules = list(fired_rules) or [s.split(":", 1)[1] for s in steps[1:] if s.startswith("correct:")]
    names.extend(f"rule:{rule}" for rule in rules)
    return names


class DecisionContext:
    """What every dropped span of one Doc shares: casing, sections, cues."""

    def __init__(self, doc: Doc, cue_spans: Iterable[Span] = ()) -> None:
        self.doc = doc
        self.casing = note_casing(doc)
        self.sections = token_feature_values(doc, "section_name")
        self.cue_spans = list(cue_spans)


def mention_features(
    context: DecisionContext,
    span: Span,
    raw: float,
    fired_rules: Sequence[str],
    *,
    buckets: int = DEFAULT_BUCKETS,
    window: int = DEFAULT_WINDOW,
) -> Features:
    """The decision's features of one dropped span (see the module's docstring)."""
    doc = context.doc
    names = trail_features(span.id_, fired_rules)
    names.append(f"label:{span.label_}")
    length = len(span)
    names.append(f"length:{length if length < 3 else '3+'}")
    names.append(f"case:{context.casing}")
    names.append(f"span_case:{span_casing(span)}")
    section = context.sections[span.start] if span.start < len(context.sections) else None
    names.append(f"section:{section or 'none'}")
    for token in span:
        names.extend(f"tag:{tag}" for tag in lexicon_tags(token))
    for cue in context.cue_spans:
        if cue.start < span.end and span.start < cue.end:
            names.append(f"cue:{cue.id_ or cue.label_}")
    before, after = context_words(doc, span.start, span.end, window)
    names.extend(f"before:{bucket(w, buckets)}" for w in before)
    names.extend(f"after:{bucket(w, buckets)}" for w in after)
    features: Features = {name: 1.0 for name in names}
    features["raw"] = float(raw)
    return features


class KeepDropDecision:
    """A logistic regression over named features: P(PHI) of a dropped mention."""

    def __init__(
        self,
        weights: Mapping[str, float],
        bias: float,
        *,
        buckets: int = DEFAULT_BUCKETS,
        window: int = DEFAULT_WINDOW,
        fitted_on: Optional[Mapping[str, Any]] = None,
    ) -> None:
        if buckets < 1 or window < 0:
            raise ValueError(f"decision: buckets must be >= 1 and window >= 0, got {buckets}, {window}")
        self.weights = {str(k): float(v) for k, v in weights.items()}
        self.bias = float(bias)
        self.buckets = int(buckets)
        self.window = int(window)
        self.fitted_on = dict(fitted_on or {})

    def features(self, context: DecisionContext, span: Span, raw: float, fired_rules) -> Features:
        return mention_features(
            context, span, raw, fired_rules, buckets=self.buckets, window=self.window
        )

    def probability(self, features: Mapping[str, float]) -> float:
        """P(PHI): the logistic of the bias plus the weighted features (unknown ones weigh 0)."""
        names = [n for n in features if n in self.weights]
        values = numpy.fromiter((features[n] for n in names), dtype=float, count=len(names))
        weights = numpy.fromiter((self.weights[n] for n in names), dtype=float, count=len(names))
        z = self.bias + float(values @ weights)
        return float(1.0 / (1.0 + numpy.exp(-z)))

    # --- data -----------------------------------------------------------------

    def to_dict(self) -> Dict[str, Any]:
        return {
            "version": DECISION_VERSION,
            "bias": self.bias,
            "weights": dict(sorted(self.weights.items())),
            "buckets": self.buckets,
            "window": self.window,
            "fitted_on": self.fitted_on,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], source: str = "decision") -> "KeepDropDecision":
        if not isinstance(data, Mapping) or "weights" not in data or "bias" not in data:
            raise ValueError(f"{source}: expected an object with 'weights' and 'bias'")
        if data.get("version", DECISION_VERSION) != DECISION_VERSION:
            raise ValueError(f"{source}: decision version {data.get('version')!r} is not {DECISION_VERSION}")
        weights = data["weights"]
        if not isinstance(weights, Mapping) or not all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in weights.values()
        ):
            raise ValueError(f"{source}: 'weights' must map feature names to numbers")
        return cls(
            weights,
            data["bias"],
            buckets=data.get("buckets", DEFAULT_BUCKETS),
            window=data.get("window", DEFAULT_WINDOW),
            fitted_on=data.get("fitted_on"),
        )

    @classmethod
    def fit(
        cls,
        rows: Sequence[Tuple[Features, float]],
        *,
        weights: Optional[Sequence[float]] = None,
        positive_weight: float = DEFAULT_POSITIVE_WEIGHT,
        c: float = DEFAULT_C,
        buckets: int = DEFAULT_BUCKETS,
        window: int = DEFAULT_WINDOW,
    ) -> "KeepDropDecision":
        """Fit on (features, target) rows: target = share of the span's words that are
        PHI, >= 0.5 counts as PHI. `weights`: one per row (default 1); PHI rows
        weigh `positive_weight` times more."""
        try:
            from sklearn.feature_extraction import DictVectorizer
            from sklearn.linear_model import LogisticRegression
        except ImportError as err:  # the `evaluate` extra
            raise ImportError(
                "fitting the keep/drop decision needs scikit-learn: pip install 'spacy-deid[evaluate]'"
            ) from err
        if not rows:
            raise ValueError("decision: no dropped mentions to fit on")
        labels = numpy.array([1 if target >= 0.5 else 0 for _, target in rows])
        sample = numpy.ones(len(rows)) if weights is None else numpy.asarray(weights, dtype=float)
        sample = sample * numpy.where(labels == 1, positive_weight, 1.0)
        fitted_on = {
            "rows": len(rows),
            "phi_rows": int(labels.sum()),
            "positive_weight": positive_weight,
            "c": c,
        }
        if labels.min() == labels.max():
            # One class only: a constant decision at its smoothed rate.
            rate = (labels.sum() + 1.0) / (len(labels) + 2.0)
            bias = float(numpy.log(rate / (1 - rate)))
            return cls({}, bias, buckets=buckets, window=window, fitted_on=fitted_on)
        vectorizer = DictVectorizer()
        matrix = vectorizer.fit_transform([features for features, _ in rows])
        model = LogisticRegression(C=c, max_iter=2000)
        model.fit(matrix, labels, sample_weight=sample)
        learned = {
            name: round(float(w), 4)
            for name, w in zip(vectorizer.get_feature_names_out(), model.coef_[0])
            if abs(w) >= 1e-4
        }
        return cls(
            learned,
            round(float(model.intercept_[0]), 4),
            buckets=buckets,
            window=window,
            fitted_on=fitted_on,
        )
