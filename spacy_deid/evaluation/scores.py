"""Scoring paired notes: every level, label set, category and subtype."""
from typing import Dict, FrozenSet, List, Mapping, Optional, Tuple

from .. import labels
from .measures import (
    ALL_SUBTYPES,
    BINARY_LEVELS,
    LABEL_SETS,
    LEVELS,
    Counts,
    Match,
    match_level,
    total,
)
from .pairing import NotePair


class Evaluation:
    """The matches of every note, level and label set, and the tables made from them.

    Overall and per-category rows are micro sums. Binary levels ignore the
    subtype when matching, so their per-subtype and per-category rows are
    recall only (gold units of that subtype found as PHI of any subtype).
    """

    def __init__(
        self, pairs: List[NotePair], label_sets: Optional[Mapping[str, FrozenSet[str]]] = None
    ) -> None:
        self.pairs = pairs
        self.label_sets = dict(LABEL_SETS if label_sets is None else label_sets)
        self.matches: Dict[Tuple[str, str], List[Match]] = {}
        for set_name, label_set in self.label_sets.items():
            for level in LEVELS:
                self.matches[(set_name, level)] = [
                    match_level(pair.text, pair.gold, pair.predicted, level, label_set)
                    for pair in pairs
                ]

    @property
    def note_ids(self) -> List[str]:
        return [pair.note_id for pair in self.pairs]

    def per_note(self, level: str, label_set: str = ALL_SUBTYPES) -> List[Counts]:
        return [match.counts() for match in self.matches[(label_set, level)]]

    def overall(self, level: str, label_set: str = ALL_SUBTYPES) -> Counts:
        return total(self.per_note(level, label_set))

    def per_subtype(self, level: str, label_set: str = ALL_SUBTYPES) -> Dict[str, Counts]:
        """Counts for every subtype of the label set, in the scheme's order."""
        result = {subtype: Counts() for subtype in labels.SUBTYPES
                  if subtype in self.label_sets[label_set]}
        for match in self.matches[(label_set, level)]:
            for subtype, counts in match.counts_by_label().items():
                result[subtype] = result[subtype] + counts
        if level in BINARY_LEVELS:
            result = {s: Counts(c.tp, None, c.fn) for s, c in result.items()}
        return result

    def per_category(self, level: str, label_set: str = ALL_SUBTYPES) -> Dict[str, Counts]:
        subtypes = self.per_subtype(level, label_set)
        result = {}
        for category, members in labels.SUBTYPES_BY_CATEGORY.items():
            present = [subtypes[s] for s in members if s in subtypes]
            if present:
                result[category] = total(present)
        return result

    def to_dict(self) -> Dict[str, Dict[str, Dict[str, object]]]:
        """{label set: {level: {"overall", "per_category", "per_subtype"}}}, JSON-ready."""
        return {
            set_name: {
                level: {
                    "overall": self.overall(level, set_name).to_dict(),
                    "per_category": {
                        k: v.to_dict() for k, v in self.per_category(level, set_name).items()
                    },
                    "per_subtype": {
                        k: v.to_dict() for k, v in self.per_subtype(level, set_name).items()
                    },
                }
                for level in LEVELS
            }
            for set_name in self.label_sets
        }
