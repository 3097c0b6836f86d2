"""Step (4) of the global-consistency reconciler: propagation. A string labelled
with enough trust labels its other, unlabelled occurrences in the note (the
"trusted PHI" idea of the i2b2 2006 systems)."""
from collections import defaultdict
from typing import Dict, List, Tuple

from spacy.attrs import LOWER
from spacy.tokens import Doc

from .rules import RuleSet, normalize_value
from .steps import PERSON_LABELS, Mention, _joined, _name_word


def propagatable(doc: Doc, mention: Mention, rules: RuleSet, min_length: int) -> bool:
    """Whether a labelled string is trusted enough to label its other occurrences.

    Refused: types outside `propagate_labels`; strings shorter than
    `min_length` characters (spaces ignored); strings with no letter or digit;
    strings made only of stop words, common words and clinical terms (or one
    of those as a whole); digit-only strings of types that are not IDs or
    contact numbers (years, ages, counts).
    """
    if mention.label not in rules.label_lists["propagate_labels"]:
        return False
    tokens = doc[mention.start: mention.end]
    compact = "".join(t.text for t in tokens)
    if len(compact) < min_length or not any(c.isalnum() for c in compact):
        return False
    if all(t.lower_ in rules.guard_words or not any(c.isalnum() for c in t.text) for t in tokens):
        return False
    if normalize_value(tokens.text) in rules.guard_words:
        return False
    if compact.isdigit() and mention.label not in rules.label_lists["numeric_labels"]:
        return False
    return True


def propagate_mentions(
    doc: Doc, mentions: List[Mention], rules: RuleSet, min_length: int = 3
) -> List[Mention]:
    """New mentions for unlabelled, token-aligned occurrences of trusted strings.

    Matching is case-insensitive for the types in `case_insensitive_labels`
    (names, places), exact otherwise; an all-lower-case occurrence of a string
    only ever seen capitalised is skipped ("Hope" the name, "hope" the word).
    A string labelled with two types in the note is ambiguous and skipped.
    Longer strings go first; new mentions never overlap existing ones.
    """
    case_insensitive = rules.label_lists["case_insensitive_labels"]
    trusted: Dict[Tuple[str, ...], Dict] = {}
    for m in mentions:
        if not propagatable(doc, m, rules, min_length):
            continue
        tokens = doc[m.start: m.end]
        entry = trusted.setdefault(
            tuple(t.lower_ for t in tokens), {"labels": set(), "forms": set(), "ci": True}
        )
        entry["labels"].add(m.label)
        entry["forms"].add(tuple(t.text for t in tokens))
        entry["ci"] = entry["ci"] and m.label in case_insensitive
    by_first: Dict[str, List[Tuple[str, ...]]] = defaultdict(list)
    for key, entry in trusted.items():
        if len(entry["labels"]) == 1:
            by_first[key[0]].append(key)
    for keys in by_first.values():
        keys.sort(key=lambda k: (-len(k), k))
    occupied = [False] * len(doc)
    for m in mentions:
        for i in range(m.start, m.end):
            occupied[i] = True
    new: List[Mention] = []
    lowers = _lower_forms(doc)
    i = 0
    while i < len(doc):
        starts_a_key = not occupied[i] and lowers[i] in by_first
        length = _match_at(doc, i, lowers, by_first, trusted, occupied) if starts_a_key else 0
        if not length:
            i += 1
            continue
        key = tuple(lowers[i: i + length])
        label = next(iter(trusted[key]["labels"]))
        start, end = i, i + length
        if label in PERSON_LABELS:
            # "Smith" trusted, "John Smith" here: the mention is the whole name
            start, end = _extend_name(doc, start, end, rules, occupied)
        if _inside_longer_name(doc, start, end, rules):
            # "Brandt" the city inside "Brandt Boat Club": not this type
            i += length
            continue
        new.append(Mention(start, end, label, ["propagate"] if (start, end) == (i, i + length)
                           else ["propagate", "propagate:extend_name"]))
        for j in range(start, end):
            occupied[j] = True
        i = end
    return new


def _extend_name(doc: Doc, start: int, end: int, rules: RuleSet, occupied: List[bool]):
    """Grow a propagated person name over hyphenated parts ("Lee" -> "Lee-Park")
    and over capitalised name words right before it on the same line (first
    names: "Smith" -> "John Smith"). Words after it are not taken: "Smith
    Boat Club" is no person, and `_inside_longer_name` then skips it."""
    while end + 1 < len(doc) and _joined(doc, end - 1) == "" and doc[end].text == "-" \
            and _joined(doc, end) == "" and doc[end + 1].is_alpha and not any(occupied[end:end + 2]):
        end += 2
    while True:
        if start >= 2 and _joined(doc, start - 1) == "" and doc[start - 1].text == "-" \
                and _joined(doc, start - 2) == "" and doc[start - 2].is_alpha and not any(occupied[start - 2:start]):
            start -= 2
        elif start >= 1 and _joined(doc, start - 1) == " " and _name_word(doc[start - 1], rules) \
                and not occupied[start - 1]:
            start -= 1
        else:
            break
    return start, end


def _inside_longer_name(doc: Doc, start: int, end: int, rules: RuleSet) -> bool:
    """Whether the occurrence is glued by a hyphen to a word, or followed on the
    same line by a capitalised name word: then it is part of a longer name."""
    if end < len(doc) and _joined(doc, end - 1) == "" and doc[end].text == "-":
        return True
    if start >= 1 and _joined(doc, start - 1) == "" and doc[start - 1].text == "-":
        return True
    return end < len(doc) and _joined(doc, end - 1) == " " and _name_word(doc[end], rules)


def _lower_forms(doc: Doc) -> List[str]:
    """Each token's lower-case form (`token.lower_`), without a Token object per token."""
    strings = doc.vocab.strings
    return [strings[lower] for lower in doc.to_array(LOWER).tolist()]


def _match_at(doc, i, lowers, by_first, trusted, occupied) -> int:
    for key in by_first.get(lowers[i], ()):
        end = i + len(key)
        if end > len(doc) or any(occupied[i:end]):
            continue
        if tuple(lowers[i:end]) != key:
            continue
        tokens = doc[i:end]
        entry = trusted[key]
        forms = tuple(t.text for t in tokens)
        if forms in entry["forms"]:
            return len(key)
        if not entry["ci"]:
            continue
        lower_occurrence = not any(c.isupper() for c in "".join(forms))
        always_cased = all(any(c.isupper() for c in "".join(f)) for f in entry["forms"])
        if lower_occurrence and always_cased:
            continue
        return len(key)
    return 0
