"""The leak list: gold PHI tokens that no prediction covers.

A token (a maximal [A-Za-z0-9] run inside a gold mention) leaks when some of
its characters lie outside every predicted mention, whatever their subtype:
those characters would stay in the released text. Entries carry note ids and
offsets; the token's text only when the caller asks for it.
"""
from collections import Counter
from dataclasses import dataclass
from typing import Dict, List, Optional

from .. import labels
from .measures import mention_tokens
from .pairing import NotePair


@dataclass(frozen=True)
class Leak:
    note_id: str
    start: int
    end: int
    subtype: str
    # True when part of the token is covered (a boundary error), False when none is.
    partial: bool
    text: Optional[str] = None

    def to_dict(self) -> Dict[str, object]:
        result: Dict[str, object] = {
            "note_id": self.note_id,
            "start": self.start,
            "end": self.end,
            "subtype": self.subtype,
            "partial": self.partial,
        }
        if self.text is not None:
            result["text"] = self.text
        return result


def find_leaks(pairs: List[NotePair], *, show_text: bool = False) -> List[Leak]:
    """Every gold token not wholly inside predicted mentions, in note and offset order."""
    leaks = []
    for pair in pairs:
        covered = bytearray(len(pair.text))
        for start, end, _ in pair.predicted:
            covered[start:end] = b"\x01" * (end - start)
        for start, end, subtype in pair.gold:
            for s, e in mention_tokens(pair.text, start, end):
                hits = sum(covered[s:e])
                if hits < e - s:
                    text = pair.text[s:e] if show_text else None
                    leaks.append(Leak(pair.note_id, s, e, subtype, hits > 0, text))
    return leaks


def gold_token_counts(pairs: List[NotePair]) -> Counter:
    """Number of gold tokens per subtype (the denominators of leak rates)."""
    counts: Counter = Counter()
    for pair in pairs:
        for start, end, subtype in pair.gold:
            counts[subtype] += len(mention_tokens(pair.text, start, end))
    return counts


def leak_summary(pairs: List[NotePair], leaks: List[Leak]) -> Dict[str, Dict[str, object]]:
    """Per subtype (scheme order) and "total": gold tokens, leaked tokens, leak rate."""
    gold = gold_token_counts(pairs)
    leaked = Counter(leak.subtype for leak in leaks)
    partial = Counter(leak.subtype for leak in leaks if leak.partial)
    result: Dict[str, Dict[str, object]] = {}
    for subtype in list(labels.SUBTYPES) + ["total"]:
        n_gold = sum(gold.values()) if subtype == "total" else gold[subtype]
        n_leaked = len(leaks) if subtype == "total" else leaked[subtype]
        n_partial = sum(partial.values()) if subtype == "total" else partial[subtype]
        if n_gold or n_leaked:
            result[subtype] = {
                "gold_tokens": n_gold,
                "leaked": n_leaked,
                "partial": n_partial,
                "leak_rate": n_leaked / n_gold if n_gold else None,
            }
    return result
