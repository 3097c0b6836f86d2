"""The calibration map of `deid_confidence`: raw evidence -> probability of PHI.

A span's evidence is a class (what produced it: "rule", "rule_ner", "ner",
"propagate", "ner_candidate", "safety_net:title", ...) and a raw score in
0..1 (the NER's beam probability for its tokens, see ner_scores.py). Per
class, an isotonic regression (scikit-learn, fitted offline on held-out
generated notes) maps the raw score to the share of the span's tokens that are
PHI. Classes seen fewer than `min_count` times get one smoothed rate. The map
is plain data ({"classes": {name: {"x": [...], "y": [...]}}}), applied with
`numpy.interp`, given to `initialize` and saved with the pipeline.
"""

from collections import defaultdict
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

import numpy

# Until a map is fitted: a prior per class (rough shares measured on generated
# notes; docs/recall.md), used as a constant score. "raw" means the raw score.
PRIOR_SCORES: Dict[str, Any] = {
    "rule": 0.95,
    "rule_ner": 0.99,
    "ner": "raw",
    "propagate": 0.9,
    "ner_candidate": "raw",
    "dropped": 0.5,
    "safety_net": 0.3,
}
# Weight (in pseudo-spans) of the prior when a small class is smoothed.
PRIOR_WEIGHT = 5.0


def evidence_class(provenance: str) -> str:
    """The calibration class of a provenance string ("rule:phone|merge:ner_agrees")."""
    steps = provenance.split("|") if provenance else ["ner"]
    source = steps[0].split(":")[0]
    if source == "rule":
        return "rule_ner" if "merge:ner_agrees" in steps else "rule"
    if source == "safety_net":
        return steps[0]
    return source


def _prior(name: str, raw: float) -> float:
    prior = PRIOR_SCORES.get(name, PRIOR_SCORES.get(name.split(":")[0], "raw"))
    return raw if prior == "raw" else float(prior)


class CalibrationMap:
    """Per-class piecewise-linear maps from raw score to calibrated score."""

    def __init__(self, classes: Optional[Dict[str, Dict[str, List[float]]]] = None) -> None:
        self.classes: Dict[str, Dict[str, List[float]]] = {}
        for name, curve in (classes or {}).items():
            # Rounded: JSON writers may add float noise (0.6 -> 0.6000000000000001).
            xs = [round(float(x), 6) for x in curve["x"]]
            ys = [round(float(y), 6) for y in curve["y"]]
            if not xs or len(xs) != len(ys) or xs != sorted(xs):
                raise ValueError(f"calibration class {name!r}: x must be sorted and as long as y")
            self.classes[name] = {"x": xs, "y": ys}

    @property
    def is_fitted(self) -> bool:
        return bool(self.classes)

    def __call__(self, name: str, raw: float) -> float:
        curve = self.classes.get(name)
        if curve is None:
            return _prior(name, raw)
        return float(numpy.interp(raw, curve["x"], curve["y"]))

    def to_dict(self) -> Dict[str, Any]:
        return {"classes": self.classes}

    @classmethod
    def from_dict(cls, data: Optional[Dict[str, Any]]) -> "CalibrationMap":
        return cls((data or {}).get("classes", {}))

    @classmethod
    def fit(
        cls, records: Iterable[Tuple[str, float, float]], *, min_count: int = 30
    ) -> "CalibrationMap":
        """Fit from (class, raw score, target share of PHI tokens) records."""
        try:
            from sklearn.isotonic import IsotonicRegression
        except ImportError as err:  # the `evaluate` extra
            raise ImportError(
                "fitting a calibration map needs scikit-learn: pip install 'spacy-deid[evaluate]'"
            ) from err
        by_class: Dict[str, List[Tuple[float, float]]] = defaultdict(list)
        for name, raw, target in records:
            by_class[name].append((float(raw), float(target)))
        classes: Dict[str, Dict[str, List[float]]] = {}
        for name, points in sorted(by_class.items()):
            raws = numpy.array([p[0] for p in points])
            targets = numpy.array([p[1] for p in points])
            if len(points) < min_count or numpy.ptp(raws) == 0:
                prior = float(numpy.mean([_prior(name, r) for r in raws]))
                rate = (targets.sum() + PRIOR_WEIGHT * prior) / (len(points) + PRIOR_WEIGHT)
                classes[name] = {"x": [0.0, 1.0], "y": [round(rate, 4)] * 2}
                continue
            model = IsotonicRegression(y_min=0.0, y_max=1.0, out_of_bounds="clip").fit(
                raws, targets
            )
            xs, ys = _thin(model.X_thresholds_, model.y_thresholds_)
            classes[name] = {"x": xs, "y": ys}
        return cls(classes)


def _thin(xs: Sequence[float], ys: Sequence[float]) -> Tuple[List[float], List[float]]:
    """The isotonic steps, rounded, without repeated points (the map stays small)."""
    out_x: List[float] = []
    out_y: List[float] = []
    for x, y in zip(xs, ys):
        x, y = round(float(x), 6), round(float(y), 4)
        if out_x and x == out_x[-1]:
            out_y[-1] = y
            continue
        out_x.append(x)
        out_y.append(y)
    return out_x, out_y
