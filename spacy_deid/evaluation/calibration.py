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
from typing import Any, Dict, List, Optional, Sequence, Tuple

from spacy.tokens import Doc

from ..extensions import PROVENANCE_KEY, REJECTED_KEY
from ..pipeline.confidence.decision import DEFAULT_POSITIVE_WEIGHT, KeepDropDecision
from ..pipeline.confidence.operating_point import BALANCED, RECALL, ScoredSpan, select_spans
# Span targets and reliability live beside the component, whose scorer needs them
# (the pipeline layer never imports this one); re-exported for the evaluation's users.
from ..pipeline.confidence.reliability import (  # noqa: F401
    DEFAULT_BANDS,
    RAW_SCORES_ATTR,
    SpanRecord,
    brier_score,
    doc_scored_spans,
    expected_calibration_error,
    gold_token_set,
    reliability_table,
    span_target,
    units,
)
from .measures import BINARY_TOKEN, Unit, match_level, total

DEFAULT_THRESHOLDS: Tuple[float, ...] = tuple(round(i / 100, 2) for i in range(0, 100, 2)) + (0.99,)


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


def decision_records(component, notes: Sequence[ScoredNote]) -> List[Tuple[Dict[str, float], float]]:
    """(features, target) of every soft drop of the notes' Docs: what the keep/drop
    decision (pipeline/confidence/decision.py) is fitted on. `component` is the
    pipeline's `deid_confidence`; target = share of the units restoring the span
    would add (those of no entity inside it) that are PHI."""
    rows = []
    for note in notes:
        text = note.doc.text
        gold_tokens = gold_token_set(text, note.gold)
        for span, features, inside in component.decision_rows(note.doc):
            # A drop that widens entities is right by the words it adds.
            kept = {u for e in inside for u in units(text, e.start_char, e.end_char)}
            added = [u for u in units(text, span.start_char, span.end_char) if u not in kept]
            if added:
                rows.append((features, sum(1 for u in added if u in gold_tokens) / len(added)))
    return rows


def fit_keep_drop(
    generated_rows: Sequence[Tuple[Dict[str, float], float]],
    site_rows: Sequence[Tuple[Dict[str, float], float]] = (),
    *,
    positive_weight: float = DEFAULT_POSITIVE_WEIGHT,
) -> Optional[KeepDropDecision]:
    """The keep/drop decision fitted on the held-out notes' soft drops and a site's;
    each site row weighs about as much as all generated rows over all site rows
    (as `finetune-mix` repeats site notes), so that a site's corrections can
    overrule a drop rule the generated notes back. None: no soft drop to learn from."""
    from ..transfer import site_copies

    if not generated_rows and not site_rows:
        return None
    weight = site_copies(site_rows, generated_rows) if site_rows else 1
    rows = list(generated_rows) + list(site_rows)
    weights = [1.0] * len(generated_rows) + [float(weight)] * len(site_rows)
    decision = KeepDropDecision.fit(rows, weights=weights, positive_weight=positive_weight)
    decision.fitted_on.update(
        generated_rows=len(generated_rows), site_rows=len(site_rows), site_row_weight=weight
    )
    return decision
