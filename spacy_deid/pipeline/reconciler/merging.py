"""The merge step's two halves: rule hits and NER mentions merged (rules win,
the hits of yielding patterns give way), and yielded hits revived when the
error correction drops the NER mention they gave way to."""
from typing import List, Optional, Sequence

from .rules import NER_AGREES
from .steps import Mention, resolve_overlaps


def merge_mentions(
    rule_mentions: Sequence[Mention], ner_mentions: Sequence[Mention], dropped: Optional[List[Mention]] = None,
    yielding: frozenset = frozenset(), wider_only: frozenset = frozenset(),
) -> List[Mention]:
    """Rule mentions win over every NER mention they overlap (rules are more precise).

    A rule mention that the NER found identically records "merge:ner_agrees";
    one that displaced a different NER mention records "merge:over_ner"; the
    displaced NER mention goes to `dropped` (if given) as "merge:under_rule".
    Mentions of the patterns in `yielding` (ids) give way instead: one that
    overlaps an NER mention goes to `dropped` as "merge:under_ner"; those also
    in `wider_only` give way only to an NER mention that is not strictly
    inside them (a shorter NER mention inside the hit loses to it as above).
    """
    if yielding:
        rule_mentions = [r for r in rule_mentions
                         if not _yields(r, yielding, ner_mentions, dropped, wider_only)]
    rules = resolve_overlaps(rule_mentions, dropped)
    kept_ner = []
    for n in ner_mentions:
        hits = [r for r in rules if r.overlaps(n)]
        if not hits:
            kept_ner.append(n)
            continue
        if dropped is not None:
            n.provenance.append("merge:under_rule")
            dropped.append(n)
        for r in hits:
            same = (r.start, r.end, r.label) == (n.start, n.end, n.label)
            note = NER_AGREES if same else "merge:over_ner"
            if note not in r.provenance:
                r.provenance.append(note)
    return sorted(rules + resolve_overlaps(kept_ner, dropped), key=lambda m: m.start)


def _yields(mention: Mention, yielding: frozenset, ner_mentions: Sequence[Mention],
            dropped: Optional[List[Mention]], wider_only: frozenset = frozenset()) -> bool:
    """Whether a rule mention of a yielding pattern overlaps an NER mention (and is dropped)."""
    pattern = mention.provenance[0].split(":", 1)[-1] if mention.provenance else ""
    if pattern not in yielding:
        return False
    wider_needed = pattern in wider_only
    if not any(n.overlaps(mention) and not (wider_needed and _strictly_inside(n, mention))
               for n in ner_mentions):
        return False
    if dropped is not None:
        mention.provenance.append("merge:under_ner")
        dropped.append(mention)
    return True


def _strictly_inside(inner: Mention, outer: Mention) -> bool:
    return (outer.start <= inner.start and inner.end <= outer.end
            and (inner.start, inner.end) != (outer.start, outer.end))


def revive_yielded(kept: Sequence[Mention], dropped: List[Mention]) -> List[Mention]:
    """Rule mentions that gave way to an NER mention ("merge:under_ner") which
    the corrections then dropped: with nothing kept over them they stand again,
    marked "merge:revived", to be corrected in their turn ("UPDATED FORMBY
    FAMILY BY PHONE": the NER's phrase goes, the pattern's surname comes
    back)."""
    corrected_away = [m for m in dropped if any(p.startswith("correct:") for p in m.provenance)]
    revived: List[Mention] = []
    for m in dropped:
        if (m.provenance[-1:] == ["merge:under_ner"]
                and any(m.overlaps(c) for c in corrected_away)
                and not any(m.overlaps(k) for k in kept)
                and not any(m.overlaps(r) for r in revived)):
            m.provenance.append("merge:revived")
            revived.append(m)
    dropped[:] = [m for m in dropped if all(m is not r for r in revived)]
    return revived
