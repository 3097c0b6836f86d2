"""The reconciler (`deid_reconciler`): merges the NER's and the rules' PHI mentions into `doc.ents`.

- `component`: the factory, the `Reconciler` pipe and its scorer;
- `rules`: the rule set (cue lists, label rules) read from `data/reconciler_*`;
- `steps`: the reconciliation steps (overlaps, propagation, label votes);
- `completion`: span completion (titles, name parts, address pieces).
"""
from .component import Reconciler, make_reconciler, make_reconciler_scorer
from .rules import ReconcilerRuleError, RuleSet, make_reconciler_rules

__all__ = [
    "Reconciler",
    "ReconcilerRuleError",
    "RuleSet",
    "make_reconciler",
    "make_reconciler_rules",
    "make_reconciler_scorer",
]
