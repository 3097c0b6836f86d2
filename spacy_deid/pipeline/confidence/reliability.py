"""How right the scored spans of `deid_confidence` were: span targets, the
reliability table, expected calibration error and Brier score.

The component's scorer needs these, and so does the evaluation layer
(`evaluation/calibration.py`, which re-exports them); they live here because
the pipeline layer never imports the evaluation layer (which imports it).

A scored span is *right* to the extent its tokens are PHI: its target is the
share of its binary-token units (maximal [A-Za-z0-9] runs, as in
`evaluation/measures.py`) that are inside a gold mention. Only offsets,
counts and scores: no note text.
"""
import re
from dataclasses import dataclass
from typing import Any, Dict, Iterable, List, Optional, Sequence, Set, Tuple

from spacy.tokens import Doc

from ...extensions import PROVENANCE_KEY, REJECTED_KEY
from .calibration_map import evidence_class

RAW_SCORES_ATTR = "raw_scores"
DEFAULT_BANDS = 10
# The binary-token unit of evaluation/measures.py (TOKEN_PATTERN), which this
# layer may not import; tests/pipeline/test_confidence_decision.py checks they agree.
UNIT_PATTERN = re.compile(r"[A-Za-z0-9]+")

# (start_char, end_char, label) of a gold mention.
GoldMention = Tuple[int, int, str]


def units(text: str, start: int, end: int) -> List[Tuple[int, int]]:
    """Offsets of the binary-token units inside text[start:end]."""
    return [(start + m.start(), start + m.end()) for m in UNIT_PATTERN.finditer(text[start:end])]


def gold_token_set(text: str, gold: Iterable[GoldMention]) -> Set[Tuple[int, int]]:
    return {unit for start, end, _ in gold for unit in units(text, start, end)}


def span_target(
    text: str, start: int, end: int, gold_tokens: Set[Tuple[int, int]]
) -> Optional[float]:
    """Share of the span's units that are gold PHI (None: the span has no unit)."""
    span_units = units(text, start, end)
    if not span_units:
        return None
    return sum(1 for u in span_units if u in gold_tokens) / len(span_units)


@dataclass
class SpanRecord:
    """A scored span with its character offsets and how right it was."""

    start_char: int
    end_char: int
    label: str
    provenance: str
    score: float
    raw: float
    in_output: bool
    target: float

    @property
    def evidence(self) -> str:
        return evidence_class(self.provenance)


def doc_scored_spans(doc: Doc, gold: Iterable[GoldMention]) -> List[SpanRecord]:
    """Every scored span deid_confidence left on the Doc (output and rejected), with targets."""
    gold_tokens = gold_token_set(doc.text, gold)
    records = []
    for key, in_output in ((PROVENANCE_KEY, True), (REJECTED_KEY, False)):
        group = doc.spans.get(key)
        if group is None or "scores" not in group.attrs:
            continue
        raws = group.attrs.get(RAW_SCORES_ATTR) or group.attrs["scores"]
        for span, score, raw in zip(group, group.attrs["scores"], raws):
            target = span_target(doc.text, span.start_char, span.end_char, gold_tokens)
            if target is None:
                continue
            records.append(
                SpanRecord(
                    span.start_char,
                    span.end_char,
                    span.label_,
                    span.id_,
                    float(score),
                    float(raw),
                    in_output,
                    target,
                )
            )
    return records


def reliability_table(
    pairs: Iterable[Tuple[float, float]], bands: int = DEFAULT_BANDS
) -> List[Dict[str, Any]]:
    """(score, target) pairs binned into equal-width score bands."""
    rows = [
        {"low": i / bands, "high": (i + 1) / bands, "spans": 0, "score_sum": 0.0, "right_sum": 0.0}
        for i in range(bands)
    ]
    for score, target in pairs:
        row = rows[min(bands - 1, max(0, int(score * bands)))]
        row["spans"] += 1
        row["score_sum"] += score
        row["right_sum"] += target
    for row in rows:
        n = row["spans"]
        row["mean_score"] = row.pop("score_sum") / n if n else None
        row["share_right"] = row.pop("right_sum") / n if n else None
    return rows


def expected_calibration_error(rows: Sequence[Dict[str, Any]]) -> Optional[float]:
    n = sum(r["spans"] for r in rows)
    if not n:
        return None
    return sum(r["spans"] * abs(r["mean_score"] - r["share_right"]) for r in rows if r["spans"]) / n


def brier_score(pairs: Sequence[Tuple[float, float]]) -> Optional[float]:
    return sum((s - t) ** 2 for s, t in pairs) / len(pairs) if pairs else None
