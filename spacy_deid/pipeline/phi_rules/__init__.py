"""The PHI rule tagger (`deid_phi_rules`): regular-expression patterns for structured PHI.

- `component`: the factory, the `PhiRules` pipe and its scorers;
- `patterns`: loading and compiling the patterns in `data/phi_patterns_*.jsonl`;
- `fragments`: the named fragments (`{MONTH}`, `{STATE}`) patterns are written with;
- `first_chars`: a first-character guard that lets digit-start patterns skip positions fast;
- `required_text`: the strings one of which a note must hold for a pattern to match (notes without any are not scanned).
"""
from .component import (
    DEFAULT_SPANS_KEY,
    PhiRules,
    make_phi_rules,
    make_phi_rules_scorer,
    make_phi_rules_spans_scorer,
)
from .patterns import PatternError, load_phi_patterns

__all__ = [
    "DEFAULT_SPANS_KEY",
    "PatternError",
    "PhiRules",
    "load_phi_patterns",
    "make_phi_rules",
    "make_phi_rules_scorer",
    "make_phi_rules_spans_scorer",
]
