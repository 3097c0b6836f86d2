"""Approximate randomization (Chinchor 1992), as in the i2b2 2006 challenge
and the hybrid-system paper: shuffle two systems' outputs document by
document, count how often the shuffled difference is at least the observed
one, s = (n + 1) / (N + 1).

Per-document (tp, fp, fn) counts are all a shuffle needs, so the test runs on
count arrays: each iteration swaps the two systems' counts of every document
with probability 1/2 and recomputes the micro-averaged measure.
"""
from dataclasses import dataclass
from typing import Dict, Sequence

import numpy

from .measures import Counts

DEFAULT_ITERATIONS = 9999
DEFAULT_ALPHA = 0.1  # the significance level of the papers
METRICS = ("f", "p", "r")
# Shuffled differences this close to the observed one count as "at least as large".
_TOLERANCE = 1e-12
# Iterations per block, to bound memory for large corpora.
_BLOCK = 1000


@dataclass
class RandomizationResult:
    metric: str
    a: float
    b: float
    difference: float  # a - b
    at_least_as_large: int  # n
    iterations: int  # N
    s: float

    def significant(self, alpha: float = DEFAULT_ALPHA) -> bool:
        return self.s <= alpha

    def to_dict(self) -> Dict[str, float]:
        return {
            "metric": self.metric,
            "a": self.a,
            "b": self.b,
            "difference": self.difference,
            "n": self.at_least_as_large,
            "N": self.iterations,
            "s": self.s,
        }


def _measure(tp, fp, fn, metric: str):
    """Micro P, R or F1 of summed counts (arrays), 0 where undefined."""
    with numpy.errstate(divide="ignore", invalid="ignore"):
        p = numpy.where(tp + fp > 0, tp / numpy.maximum(tp + fp, 1), 0.0)
        r = numpy.where(tp + fn > 0, tp / numpy.maximum(tp + fn, 1), 0.0)
        if metric == "p":
            return p
        if metric == "r":
            return r
        return numpy.where(p + r > 0, 2 * p * r / numpy.maximum(p + r, 1e-300), 0.0)


def approximate_randomization(
    a: Sequence[Counts],
    b: Sequence[Counts],
    *,
    iterations: int = DEFAULT_ITERATIONS,
    seed: int = 0,
    metrics: Sequence[str] = METRICS,
) -> Dict[str, RandomizationResult]:
    """Two-sided test of |measure(A) - measure(B)| for each metric ("f", "p", "r").

    `a[i]` and `b[i]` are the two systems' counts on the same document i.
    """
    if len(a) != len(b):
        raise ValueError(f"the systems were scored on {len(a)} and {len(b)} documents")
    if iterations < 1:
        raise ValueError("iterations must be at least 1")
    for metric in metrics:
        if metric not in METRICS:
            raise ValueError(f"unknown metric {metric!r}; expected one of {METRICS}")
    counts_a = numpy.array([(c.tp, c.fp, c.fn) for c in a], dtype=float).reshape(-1, 3)
    counts_b = numpy.array([(c.tp, c.fp, c.fn) for c in b], dtype=float).reshape(-1, 3)
    sum_a, sum_b = counts_a.sum(axis=0), counts_b.sum(axis=0)
    observed = {m: (float(_measure(*sum_a, m)), float(_measure(*sum_b, m))) for m in metrics}
    at_least = {m: 0 for m in metrics}
    rng = numpy.random.default_rng(seed)
    difference = counts_b - counts_a
    done = 0
    while done < iterations:
        block = min(_BLOCK, iterations - done)
        swap = rng.random((block, len(counts_a))) < 0.5
        # Swapping document i moves its counts from A to B and back.
        shuffled_a = sum_a + swap @ difference
        shuffled_b = sum_b - swap @ difference
        for m in metrics:
            diffs = numpy.abs(_measure(*shuffled_a.T, m) - _measure(*shuffled_b.T, m))
            gap = abs(observed[m][0] - observed[m][1])
            at_least[m] += int(numpy.sum(diffs >= gap - _TOLERANCE))
        done += block
    return {
        m: RandomizationResult(
            metric=m,
            a=observed[m][0],
            b=observed[m][1],
            difference=observed[m][0] - observed[m][1],
            at_least_as_large=at_least[m],
            iterations=iterations,
            s=(at_least[m] + 1) / (iterations + 1),
        )
        for m in metrics
    }
