"""Calibrated PHI probabilities (`deid_confidence`) and operating points.

- `component`: the factory, the `PhiConfidence` pipe and `load_at_operating_point`;
- `calibration_map`: the per-evidence-class calibration maps it applies;
- `decision`: the keep/drop decision on the mentions the reconciler dropped softly;
- `operating_point`: choosing spans at the balanced or recall point;
- `reliability`: span targets, reliability table, ECE and Brier score (its scorer's).
"""
from .component import (
    PhiConfidence,
    add_confidence_pipes,
    load_at_operating_point,
    load_calibration,
    make_confidence,
    make_confidence_scorer,
)
from .operating_point import parse_operating_point

__all__ = [
    "PhiConfidence",
    "add_confidence_pipes",
    "load_at_operating_point",
    "load_calibration",
    "make_confidence",
    "make_confidence_scorer",
    "parse_operating_point",
]
