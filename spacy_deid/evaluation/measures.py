"""The de-identification measures of docs/evaluation.md.

Five levels, each a way of cutting mentions into units and matching them:

- ``strict``: a mention, correct when start, end and subtype equal a gold one's;
- ``relaxed``: as strict, but the end may differ by up to 2 characters;
- ``token``: a maximal ``[A-Za-z0-9]`` run inside a mention, with the subtype;
- ``binary_token`` / ``binary_strict``: token / strict without the subtype.

Matching is one-to-one and done per note. Counts are micro-summed over notes
(and over subtypes for categories and the overall rows). Label sets ("all" and
the HIPAA subsets of labels.py) filter both sides *before* matching, as the
official i2b2 2014 script does, so a gold DOCTOR predicted as PATIENT is a
false positive in the HIPAA subset.
"""
import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Dict, FrozenSet, Iterable, List, Mapping, Optional, Sequence, Tuple

from .. import labels

STRICT = "strict"
RELAXED = "relaxed"
TOKEN = "token"
BINARY_TOKEN = "binary_token"
BINARY_STRICT = "binary_strict"
LEVELS: Tuple[str, ...] = (STRICT, RELAXED, TOKEN, BINARY_TOKEN, BINARY_STRICT)
LEVEL_TITLES: Mapping[str, str] = {
    STRICT: "entity, strict",
    RELAXED: "entity, relaxed (end within 2)",
    TOKEN: "token",
    BINARY_TOKEN: "binary token",
    BINARY_STRICT: "binary strict",
}
# Levels that ignore the subtype when matching (PHI versus not-PHI).
BINARY_LEVELS: FrozenSet[str] = frozenset({BINARY_TOKEN, BINARY_STRICT})
TOKEN_LEVELS: FrozenSet[str] = frozenset({TOKEN, BINARY_TOKEN})
# evaluation.md: "the end offset may differ by up to 2 characters".
RELAXED_END_TOLERANCE = 2

ALL_SUBTYPES = "all"
# Label sets every measure is reported for: the 30 subtypes and the HIPAA subsets.
LABEL_SETS: Mapping[str, FrozenSet[str]] = {
    ALL_SUBTYPES: frozenset(labels.SUBTYPES),
    **labels.HIPAA_SUBSETS,
}

# A token: a maximal run of ASCII letters and digits (evaluation.md).
TOKEN_PATTERN = re.compile(r"[A-Za-z0-9]+")

# (start, end, subtype) of a mention or token within one note.
Unit = Tuple[int, int, str]


@dataclass
class Counts:
    """True positives, false positives, false negatives; fp None = recall only."""

    tp: int = 0
    fp: Optional[int] = 0
    fn: int = 0

    def __add__(self, other: "Counts") -> "Counts":
        fp = None if self.fp is None or other.fp is None else self.fp + other.fp
        return Counts(self.tp + other.tp, fp, self.fn + other.fn)

    @property
    def gold(self) -> int:
        return self.tp + self.fn

    @property
    def predicted(self) -> Optional[int]:
        return None if self.fp is None else self.tp + self.fp

    @property
    def precision(self) -> Optional[float]:
        predicted = self.predicted
        return self.tp / predicted if predicted else None

    @property
    def recall(self) -> Optional[float]:
        return self.tp / self.gold if self.gold else None

    @property
    def f1(self) -> Optional[float]:
        # 2tp / (2tp + fp + fn): the harmonic mean of P and R where both are
        # defined, and 0 when nothing is right but something was to be found.
        if self.fp is None:
            return None
        denominator = 2 * self.tp + self.fp + self.fn
        return 2 * self.tp / denominator if denominator else None

    def to_dict(self) -> Dict[str, Optional[float]]:
        return {
            "p": self.precision,
            "r": self.recall,
            "f": self.f1,
            "tp": self.tp,
            "fp": self.fp,
            "fn": self.fn,
            "support": self.gold,
            "predicted": self.predicted,
        }


def total(counts: Iterable[Counts]) -> Counts:
    result = Counts()
    for item in counts:
        result = result + item
    return result


def mention_tokens(text: str, start: int, end: int) -> List[Tuple[int, int]]:
    """Offsets of the maximal [A-Za-z0-9] runs inside text[start:end] (runs
    are cut at the mention's edges: a mention ending inside a word stops there)."""
    return [(start + m.start(), start + m.end()) for m in TOKEN_PATTERN.finditer(text[start:end])]


def units(text: str, mentions: Iterable[Unit], level: str) -> List[Unit]:
    """The units a level compares: mentions, or the tokens inside them."""
    if level in TOKEN_LEVELS:
        return [
            (s, e, label) for start, end, label in mentions
            for s, e in mention_tokens(text, start, end)
        ]
    return list(mentions)


@dataclass
class Match:
    """The outcome of matching one note's gold and predicted units."""

    pairs: List[Tuple[Unit, Unit]] = field(default_factory=list)
    missed: List[Unit] = field(default_factory=list)
    spurious: List[Unit] = field(default_factory=list)

    def counts(self) -> Counts:
        return Counts(len(self.pairs), len(self.spurious), len(self.missed))

    def counts_by_label(self) -> Dict[str, Counts]:
        """Per subtype: tp by gold subtype, fp by predicted, fn by gold."""
        result: Dict[str, Counts] = defaultdict(Counts)
        for gold, _ in self.pairs:
            result[gold[2]].tp += 1
        for unit in self.spurious:
            result[unit[2]].fp += 1  # type: ignore[operator]
        for unit in self.missed:
            result[unit[2]].fn += 1
        return dict(result)


def match_units(
    gold: Sequence[Unit],
    predicted: Sequence[Unit],
    *,
    end_tolerance: int = 0,
    ignore_label: bool = False,
) -> Match:
    """One-to-one matching: same start, same subtype (unless ignored), end
    within `end_tolerance`; each prediction takes the closest free gold end."""
    gold = sorted(gold)
    by_start: Dict[Tuple[int, Optional[str]], List[int]] = defaultdict(list)
    for index, unit in enumerate(gold):
        by_start[(unit[0], None if ignore_label else unit[2])].append(index)
    used = set()
    match = Match()
    for unit in sorted(predicted):
        key = (unit[0], None if ignore_label else unit[2])
        options = [
            (abs(gold[i][1] - unit[1]), i)
            for i in by_start.get(key, ())
            if i not in used and abs(gold[i][1] - unit[1]) <= end_tolerance
        ]
        if options:
            _, best = min(options)
            used.add(best)
            match.pairs.append((gold[best], unit))
        else:
            match.spurious.append(unit)
    match.missed = [unit for i, unit in enumerate(gold) if i not in used]
    return match


def match_level(
    text: str, gold: Iterable[Unit], predicted: Iterable[Unit], level: str,
    label_set: Optional[FrozenSet[str]] = None,
) -> Match:
    """Match one note's mentions at one level, keeping only `label_set` subtypes."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; expected one of {', '.join(LEVELS)}")
    if label_set is not None:
        gold = [m for m in gold if m[2] in label_set]
        predicted = [m for m in predicted if m[2] in label_set]
    return match_units(
        units(text, gold, level),
        units(text, predicted, level),
        end_tolerance=RELAXED_END_TOLERANCE if level == RELAXED else 0,
        ignore_label=level in BINARY_LEVELS,
    )
