"""Scoring de-identification as docs/evaluation.md defines it.

- measures: the five levels and one-to-one matching of one note;
- pairing: gold and system notes paired by id, with checks;
- scores: overall / per category / per subtype tables for every label set;
- confusion, leaks: error analysis; significance: approximate randomization;
- report, plots: Markdown, JSON and PNG; scorer: the registered spaCy scorer;
- systems, ablation: where system outputs come from.
"""
from .confusion import MISSING, SPURIOUS, confusion_counts, confusion_matrix
from .leaks import Leak, find_leaks, leak_summary
from .measures import (
    ALL_SUBTYPES,
    BINARY_STRICT,
    BINARY_TOKEN,
    LABEL_SETS,
    LEVELS,
    RELAXED,
    STRICT,
    TOKEN,
    Counts,
    match_level,
    mention_tokens,
)
from .pairing import EvaluationInputError, NotePair, pair_notes
from .report import build_report, render_markdown, write_report
from .scorer import make_deid_scorer, score_deid
from .scores import Evaluation
from .significance import RandomizationResult, approximate_randomization

__all__ = [
    "ALL_SUBTYPES",
    "BINARY_STRICT",
    "BINARY_TOKEN",
    "Counts",
    "Evaluation",
    "EvaluationInputError",
    "LABEL_SETS",
    "LEVELS",
    "Leak",
    "MISSING",
    "NotePair",
    "RELAXED",
    "RandomizationResult",
    "SPURIOUS",
    "STRICT",
    "TOKEN",
    "approximate_randomization",
    "build_report",
    "confusion_counts",
    "confusion_matrix",
    "find_leaks",
    "leak_summary",
    "make_deid_scorer",
    "match_level",
    "mention_tokens",
    "pair_notes",
    "render_markdown",
    "score_deid",
    "write_report",
]
