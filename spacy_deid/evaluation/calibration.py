"""Calibration and operating points of the PHI scores (deid_confidence).

- A scored span is *right* to the extent its tokens are PHI: its target is the
  share of its binary-token units (maximal [A-Za-z0-9] runs, as in
  measures.py) that are inside a gold mention.
- The reliability table bins spans by score: per band the number of spans,
  their mean score and the share of their tokens that were PHI; the expected
  calibration error (ECE) is the span-weighted mean gap between the two.
- The precision-recall curve is the binary-token P/R of the spans selected at
  each threshold (operating_point.select_spans), with the balanced and recall
  points beside it.

Only offsets, counts and scores: no note text.
"""

from dataclasses import dataclass
from typing import Any, Dict, Iterable, List, Optional, Sequence, Set, Tuple

from spacy.tokens import Doc

from ..extensions import PROVENANCE_KEY, REJECTED_KEY
from ..pipeline.confidence.calibration_map import evidence_class
from ..pipeline.confidence.operating_point import BALANCED, RECALL, ScoredSpan, select_spans
from .measures import BINARY_TOKEN, Unit, match_level, mention_tokens, total

RAW_SCORES_ATTR = "raw_scores"
DEFAULT_BANDS = 10
DEFAULT_THRESHOLDS: Tuple[float, ...] = tuple(round(i / 100, 2) for i in range(0, 100, 2)) + (0.99,)


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


def gold_token_set(text: str, gold: Iterable[Unit]) -> Set[Tuple[int, int]]:
    return {tok for start, end, _ in gold for tok in mention_tokens(text, start, end)}


def span_target(
    text: str, start: int, end: int, gold_tokens: Set[Tuple[int, int]]
) -> Optional[float]:
    """Share of the span's units that are gold PHI (None: the span has no unit)."""
    units = mention_tokens(text, start, end)
    if not units:
        return None
    return sum(1 for u in units if u in gold_tokens) / len(units)


def doc_scored_spans(doc: Doc, gold: Iterable[Unit]) -> List[SpanRecord]:
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


def doc_spans_for_selection(doc: Doc) -> List[ScoredSpan]:
    """The Doc's scored spans as operating_point.ScoredSpan (token offsets), so that
    another operating point can be applied offline. Needs a Doc scored at `balanced`,
    where the output spans are exactly the entities (the reconciler's and
    the safety net's `entity_cues` spans)."""
    spans = []
    for key, is_entity in ((PROVENANCE_KEY, True), (REJECTED_KEY, False)):
        group = doc.spans.get(key)
        if group is None or "scores" not in group.attrs:
            continue
        raws = group.attrs.get(RAW_SCORES_ATTR) or group.attrs["scores"]
        for span, score, raw in zip(group, group.attrs["scores"], raws):
            spans.append(
                ScoredSpan(
                    span.start, span.end, span.label_, span.id_, float(score), float(raw), is_entity
                )
            )
    return spans


# --- reliability ----------------------------------------------------------------


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


# --- operating points and the curve ------------------------------------------------


@dataclass
class ScoredNote:
    """One note for the curve: its text, gold mentions and its Doc's scored spans."""

    note_id: str
    text: str
    gold: List[Unit]
    doc: Doc


def _binary_prf(notes: Sequence[ScoredNote], predicted: Sequence[List[Unit]]) -> Dict[str, Any]:
    counts = total(
        match_level(n.text, n.gold, p, BINARY_TOKEN).counts() for n, p in zip(notes, predicted)
    )
    return {
        "p": counts.precision,
        "r": counts.recall,
        "f": counts.f1,
        "tp": counts.tp,
        "fp": counts.fp,
        "fn": counts.fn,
    }


def _selected_units(
    note: ScoredNote, point, recall_threshold: float, use_safety_net: bool
) -> List[Unit]:
    chosen = select_spans(
        doc_spans_for_selection(note.doc),
        point,
        recall_threshold=recall_threshold,
        use_safety_net=use_safety_net,
    )
    doc = note.doc
    return [
        (doc[s.start : s.end].start_char, doc[s.start : s.end].end_char, s.label) for s in chosen
    ]


def operating_point_scores(
    notes: Sequence[ScoredNote], point, *, recall_threshold: float, use_safety_net: bool = True
) -> Dict[str, Any]:
    """Binary-token P/R/F1 of the spans selected at `point`."""
    predicted = [_selected_units(n, point, recall_threshold, use_safety_net) for n in notes]
    return _binary_prf(notes, predicted)


def precision_recall_curve(
    notes: Sequence[ScoredNote],
    thresholds: Sequence[float] = DEFAULT_THRESHOLDS,
    *,
    recall_threshold: float,
) -> List[Dict[str, Any]]:
    return [
        {"threshold": t, **operating_point_scores(notes, t, recall_threshold=recall_threshold)}
        for t in thresholds
    ]


def confidence_report(
    notes: Sequence[ScoredNote],
    *,
    recall_threshold: float,
    bands: int = DEFAULT_BANDS,
    thresholds: Sequence[float] = DEFAULT_THRESHOLDS,
) -> Dict[str, Any]:
    """Reliability tables, ECE, both operating points, the safety net's own gain and
    the curve, for Docs scored at the balanced point."""
    records = [r for n in notes for r in doc_scored_spans(n.doc, n.gold)]
    balanced_out = [(r.score, r.target) for r in records if r.in_output]
    recall_out = []
    for n in notes:
        chosen = {
            (s.start, s.end)
            for s in select_spans(
                doc_spans_for_selection(n.doc), RECALL, recall_threshold=recall_threshold
            )
        }
        for r in doc_scored_spans(n.doc, n.gold):
            span = n.doc.char_span(r.start_char, r.end_char)
            if span is not None and (span.start, span.end) in chosen:
                recall_out.append((r.score, r.target))
    table_balanced = reliability_table(balanced_out, bands)
    table_recall = reliability_table(recall_out, bands)
    by_evidence: Dict[str, List[Tuple[float, float]]] = {}
    for r in records:
        by_evidence.setdefault(r.evidence, []).append((r.score, r.target))
    return {
        "recall_threshold": recall_threshold,
        "reliability": {
            "balanced_output": {
                "rows": table_balanced,
                "ece": expected_calibration_error(table_balanced),
                "brier": brier_score(balanced_out),
            },
            "recall_output": {
                "rows": table_recall,
                "ece": expected_calibration_error(table_recall),
                "brier": brier_score(recall_out),
            },
        },
        "evidence": {
            name: {
                "spans": len(p),
                "mean_score": sum(s for s, _ in p) / len(p),
                "share_right": sum(t for _, t in p) / len(p),
            }
            for name, p in sorted(by_evidence.items())
        },
        "points": {
            BALANCED: operating_point_scores(notes, BALANCED, recall_threshold=recall_threshold),
            RECALL: operating_point_scores(notes, RECALL, recall_threshold=recall_threshold),
            "recall_without_safety_net": operating_point_scores(
                notes, RECALL, recall_threshold=recall_threshold, use_safety_net=False
            ),
        },
        "curve": precision_recall_curve(notes, thresholds, recall_threshold=recall_threshold),
    }


def calibration_records(notes: Sequence[ScoredNote]) -> List[Tuple[str, float, float]]:
    """(evidence class, raw score, target) of every scored span: what a map is fitted on."""
    return [(r.evidence, r.raw, r.target) for n in notes for r in doc_scored_spans(n.doc, n.gold)]
