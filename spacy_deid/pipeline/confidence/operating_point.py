"""Operating points: which scored spans become `doc.ents`.

- `balanced`: the entities: the reconciler's, and the safety-net spans of
  `deid_confidence`'s `entity_cues` (best F1);
- `recall`: those entities, plus NER candidates and safety-net spans scored at
  least `recall_threshold`;
- a number t (0..1): every scored span (entities included) scored at least t.

Where spans overlap, entities win, then higher scores. The same function
serves the component and the evaluation's precision-recall curve.
"""

from dataclasses import dataclass
from typing import List, Optional, Sequence, Union

BALANCED = "balanced"
RECALL = "recall"
NAMED_POINTS = (BALANCED, RECALL)

OperatingPoint = Union[str, float]


@dataclass
class ScoredSpan:
    """A span (token offsets) with its label, provenance, scores and whether
    the reconciler kept it (`is_entity`)."""

    start: int
    end: int
    label: str
    provenance: str
    score: float
    raw: float
    is_entity: bool

    def overlaps(self, other: "ScoredSpan") -> bool:
        return self.start < other.end and other.start < self.end


def parse_operating_point(value: OperatingPoint) -> OperatingPoint:
    """ "balanced", "recall", or a threshold in 0..1 (given as a number or a string)."""
    if isinstance(value, str) and value.strip().lower() in NAMED_POINTS:
        return value.strip().lower()
    try:
        threshold = float(value)
    except (TypeError, ValueError):
        raise ValueError(
            f"operating point must be {' or '.join(NAMED_POINTS)} or a number in 0..1, got {value!r}"
        ) from None
    if not 0.0 <= threshold <= 1.0:
        raise ValueError(f"operating point threshold must be in 0..1, got {threshold}")
    return threshold


def select_spans(
    spans: Sequence[ScoredSpan],
    point: OperatingPoint,
    *,
    recall_threshold: float,
    use_safety_net: bool = True,
) -> List[ScoredSpan]:
    """The non-overlapping spans that become `doc.ents` at `point`, by start."""
    point = parse_operating_point(point)
    entities = [s for s in spans if s.is_entity]
    others = [s for s in spans if not s.is_entity]
    if not use_safety_net:
        others = [s for s in others if not s.provenance.startswith("safety_net")]
    threshold: Optional[float]
    if point == BALANCED:
        return sorted(entities, key=lambda s: s.start)
    if point == RECALL:
        chosen, threshold = list(entities), recall_threshold
    else:
        threshold = float(point)
        chosen = [s for s in entities if s.score >= threshold]
    for span in sorted(others, key=lambda s: (-s.score, s.start, s.end)):
        if span.score >= threshold and not any(span.overlaps(c) for c in chosen):
            chosen.append(span)
    return sorted(chosen, key=lambda s: s.start)
