"""Confusion matrix over subtypes plus "missing" and "spurious".

Gold and predicted mentions are paired when their offsets are equal (any
subtype): a pair with two subtypes is a type error, an unpaired gold mention
is missing PHI (a privacy risk), an unpaired prediction is spurious PHI (lost
clinical information). Partial overlaps count as one missing plus one
spurious at the entity level; the token level (offsets of tokens) gives them
credit where the tokens agree.
"""
from collections import Counter
from typing import Dict, List, Tuple

from .. import labels
from .measures import BINARY_STRICT, BINARY_TOKEN, match_level
from .pairing import NotePair

MISSING = "missing"
SPURIOUS = "spurious"
_LEVEL_OF = {"entity": BINARY_STRICT, "token": BINARY_TOKEN}


def confusion_counts(pairs: List[NotePair], unit: str = "entity") -> Counter:
    """Counter of (gold subtype or SPURIOUS, predicted subtype or MISSING)."""
    if unit not in _LEVEL_OF:
        raise ValueError(f"unit must be one of {', '.join(_LEVEL_OF)}, not {unit!r}")
    cells: Counter = Counter()
    for pair in pairs:
        match = match_level(pair.text, pair.gold, pair.predicted, _LEVEL_OF[unit])
        for gold, predicted in match.pairs:
            cells[(gold[2], predicted[2])] += 1
        for gold in match.missed:
            cells[(gold[2], MISSING)] += 1
        for predicted in match.spurious:
            cells[(SPURIOUS, predicted[2])] += 1
    return cells


def confusion_matrix(
    pairs: List[NotePair], unit: str = "entity", *, keep_empty: bool = False
) -> Tuple[List[str], List[str], List[List[int]]]:
    """(row names, column names, counts): rows are gold subtypes and "spurious",
    columns predicted subtypes and "missing". Subtypes without any count are
    left out unless keep_empty."""
    cells = confusion_counts(pairs, unit)
    used = {name for cell in cells for name in cell}
    subtypes = [s for s in labels.SUBTYPES if keep_empty or s in used]
    rows = subtypes + [SPURIOUS]
    columns = subtypes + [MISSING]
    return rows, columns, [[cells.get((r, c), 0) for c in columns] for r in rows]


def confusion_dict(pairs: List[NotePair], unit: str = "entity") -> Dict[str, Dict[str, int]]:
    """{gold row: {predicted column: count}} with zero cells left out (for JSON)."""
    result: Dict[str, Dict[str, int]] = {}
    for (row, column), count in sorted(confusion_counts(pairs, unit).items()):
        result.setdefault(row, {})[column] = count
    return result
