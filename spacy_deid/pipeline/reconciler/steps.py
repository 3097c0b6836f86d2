"""Steps 1-3 of the global-consistency reconciler (merge, correct, reconcile),
as plain functions; step 4, propagation, is propagation.py.

They work on `Mention`s (token offsets, a label, a provenance trail) so that
each step can be tested, and switched off, on its own. The seed is section
3.3.4 of the hybrid CEGS N-GRID system.
"""
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import AbstractSet, Dict, FrozenSet, Iterable, List, Optional, Sequence, Set, Tuple

import numpy
from spacy.attrs import ORTH
from spacy.tokens import Doc, Token

from ... import labels
from ...extensions import has_token_feature, lexicon_tags, token_feature_values
from .rules import (  # noqa: F401 (BEFORE_ONLY_LISTS: public here too)
    BEFORE_ONLY_LISTS,
    NER_AGREES,
    Rule,
    RuleSet,
    normalize_value,
    unless_after_lists,
)
from .mention_words import words_fit
from .surroundings import follows_line_header, glued_text, line_starts_at, within_sentence
from .typing_slips import is_near_miss

NER_SOURCE = "ner"
RULE_SOURCE = "rule"
# Person-name types for partial-name matching (USERNAME is not a person's name).
PERSON_LABELS = (labels.PATIENT, labels.DOCTOR)
# Share of capitalised (and of lower-case) words a note needs for case to tell
# names from words: running English text has well above 5% of each.
MIXED_CASE_SHARE = 0.05


@dataclass
class Mention:
    start: int
    end: int
    label: str
    provenance: List[str] = field(default_factory=list)
    # Position in the input, for deterministic tie-breaking.
    order: int = 0
    # Ids of every drop rule that fired on a dropped mention, the deciding one
    # first (its provenance names that one only): evidence for deid_confidence.
    fired_rules: List[str] = field(default_factory=list)

    def overlaps(self, other: "Mention") -> bool:
        return self.start < other.end and other.start < self.end

    def relabel(self, label: str, step: str, rule_id: str) -> None:
        self.label = label
        self.provenance.append(f"{step}:{rule_id}")

    @property
    def provenance_string(self) -> str:
        return "|".join(self.provenance)


# --- (1) merge ---------------------------------------------------------------


def resolve_overlaps(mentions: Iterable[Mention], dropped: Optional[List[Mention]] = None) -> List[Mention]:
    """Non-overlapping subset: longest first, then earliest start, then input order.
    The losers go to `dropped` (if given), marked "merge:overlap"."""
    kept: List[Mention] = []
    for m in sorted(mentions, key=lambda m: (-(m.end - m.start), m.start, m.order)):
        if not any(m.overlaps(k) for k in kept):
            kept.append(m)
        elif dropped is not None:
            m.provenance.append("merge:overlap")
            dropped.append(m)
    return sorted(kept, key=lambda m: m.start)


# --- context, attributes, lexicons ---------------------------------------------


class TokenMemo:
    """The texts of token ranges and the lexicon tags of tokens, each computed
    once: the rules of a step ask them of the same mention again and again
    (a Span and a Token object made for each ask were most of the correct
    step's time). Only for one step call: the Doc must not change meanwhile."""

    def __init__(self, doc: Doc) -> None:
        self.doc = doc
        self._texts: Dict[Tuple[int, int], str] = {}
        self._tags: Dict[int, Tuple[str, ...]] = {}

    def text(self, start: int, end: int) -> str:
        """`doc[start:end].text`."""
        text = self._texts.get((start, end))
        if text is None:
            text = self._texts[(start, end)] = self.doc[start:end].text
        return text

    def tags(self, i: int) -> Tuple[str, ...]:
        """`lexicon_tags(doc[i])`."""
        tags = self._tags.get(i)
        if tags is None:
            tags = self._tags[i] = lexicon_tags(self.doc[i])
        return tags


_NO_ATTRIBUTES: FrozenSet[str] = frozenset()


def token_attributes(doc: Doc, attributes_key: Optional[str]) -> List[AbstractSet[str]]:
    """For each token, the normalised names of the attributes whose value holds it.

    Reads `doc.spans[attributes_key]` and `Token._.attribute_name`, whichever is there.
    """
    # Most tokens hold no attribute: they share one empty set (read only), and a
    # token gets its own set when it needs one (a new set per token cost more
    # than the rest of the reconciler's correct step on short nursing notes).
    names: List[AbstractSet[str]] = [_NO_ATTRIBUTES] * len(doc)

    def add(i: int, name: str) -> None:
        if names[i] is _NO_ATTRIBUTES:
            names[i] = set()
        names[i].add(name)  # type: ignore[union-attr]

    if attributes_key and attributes_key in doc.spans:
        for span in doc.spans[attributes_key]:
            for i in range(span.start, span.end):
                add(i, span.label_.lower())
    if Token.has_extension("attribute_name"):
        for i, value in enumerate(token_feature_values(doc, "attribute_name")):
            if value:
                add(i, str(value).lower())
    return names


def _nearest(pattern, text: str, from_end: bool) -> Optional[int]:
    """Distance in characters from the mention to the nearest cue in a window text."""
    if pattern is None:
        return None
    best = None
    for match in pattern.finditer(text.lower()):
        distance = len(text) - match.end() if from_end else match.start()
        if best is None or distance < best:
            best = distance
    return best


def cue_distances(doc: Doc, mention: Mention, rule: Rule, rules: RuleSet):
    """Distances (characters) from the mention to the nearest `cues` and the
    nearest `unless` cue within the rule's windows; None where there is none.
    The `unless` lists of BEFORE_ONLY_LISTS are not looked for after it."""
    # The window texts come from spans, never from `doc.text`, which spaCy
    # rebuilds from all tokens on each access (quadratic over a long note).
    windows = []
    if rule.before and mention.start > 0:
        first = max(0, mention.start - rule.before)
        windows.append((doc[first: mention.start].text_with_ws, True))
    if rule.after and mention.end < len(doc):
        last = min(len(doc), mention.end + rule.after)
        windows.append((doc[mention.end - 1].whitespace_ + doc[mention.end: last].text, False))
    if rule.windows_in_sentence:
        windows = [(within_sentence(text, from_end), from_end) for text, from_end in windows]
    cue, unless = rules.cue_regex(rule.cues), rules.cue_regex(rule.unless)
    unless_after = rules.cue_regex(unless_after_lists(rule))
    cue_d = unless_d = None
    for text, from_end in windows:
        d = _nearest(cue, text, from_end)
        if d is not None and (cue_d is None or d < cue_d):
            cue_d = d
        d = _nearest(unless if from_end else unless_after, text, from_end)
        if d is not None and (unless_d is None or d < unless_d):
            unless_d = d
    return cue_d, unless_d


def context_fires(doc: Doc, mention: Mention, rule: Rule, rules: RuleSet) -> bool:
    """A cue within the windows, nearer to the mention than any `unless` cue."""
    cue_d, unless_d = cue_distances(doc, mention, rule, rules)
    return cue_d is not None and (unless_d is None or cue_d < unless_d)


def in_attribute(mention: Mention, names: frozenset, attrs: Sequence[AbstractSet[str]]) -> bool:
    """Whether the mention lies (partly) in the value of one of the named attributes."""
    return bool(attrs) and any(attrs[i] & names for i in range(mention.start, mention.end))


def blocked(mention: Mention, rule: Rule, rules: RuleSet, attrs: Sequence[AbstractSet[str]]) -> bool:
    """The rule's `unless_attributes` veto: e.g. a titled person who is the patient."""
    return rule.unless_attributes is not None and in_attribute(mention, rules.lists[rule.unless_attributes], attrs)


def has_lexicon_tag(
    doc: Doc, mention: Mention, tags: frozenset, except_words: frozenset = frozenset(),
    memo: Optional[TokenMemo] = None,
) -> bool:
    """Whether a token of the mention carries one of the `deid_lexicon`
    categories (tokens whose normalised form is in `except_words` do not count)."""
    memo = memo or TokenMemo(doc)
    return any(tags.intersection(memo.tags(i)) for i in range(mention.start, mention.end)
               if not except_words or normalize_value(memo.text(i, i + 1)) not in except_words)


def is_full_name(doc: Doc, mention: Mention) -> bool:
    """Two or more words, the first a known first name and another a known
    first name or surname: "ABEL FORMBY" in an ALL-CAPS note."""
    words = [t for t in doc[mention.start: mention.end] if t.is_alpha and len(t) > 1]
    return (len(words) >= 2 and "FIRST" in lexicon_tags(words[0])
            and any({"FIRST", "LAST"}.intersection(lexicon_tags(w)) for w in words[1:]))


def after_tagged_word(doc: Doc, mention: Mention, tags: frozenset) -> bool:
    """Whether the word before the mention (a comma skipped) carries one of the tags.

    A word in lower case before a mention with a capital does not count: a town
    is written in the case of the state code after it or capitalised ("Omaha
    NE", "omaha ne"), while "post MI" is charting whatever town list holds
    "post".
    """
    i = mention.start - 1
    if i >= 0 and doc[i].text == ",":
        i -= 1
    if i < 0 or not tags.intersection(lexicon_tags(doc[i])):
        return False
    return not (doc[i].is_lower and any(char.isupper() for char in doc[mention.start: mention.end].text))


# Tokens looked at on each side of a mention for its line's case: more than a
# line of a clinical note holds, and a bound on the work per mention in a note
# that is one long line (a whitespace-free blob was quadratic; issue 61).
LINE_SCAN_TOKENS = 1000


def line_has_lower_case(doc: Doc, mention: Mention) -> bool:
    """Whether the mention's line (up to LINE_SCAN_TOKENS tokens on each side)
    holds a word with a lower-case letter; the scan stops at the first one."""

    def lower(token) -> bool:
        return token.is_alpha and not token.is_upper

    if any(lower(token) for token in doc[mention.start : mention.end]):
        return True
    start = mention.start
    for _ in range(LINE_SCAN_TOKENS):
        if start <= 0 or "\n" in doc[start - 1].whitespace_ or doc[start - 1].is_space:
            break
        start -= 1
        if lower(doc[start]):
            return True
    end = mention.end
    for _ in range(LINE_SCAN_TOKENS):
        if end >= len(doc) or "\n" in doc[end - 1].whitespace_ or doc[end].is_space:
            break
        if lower(doc[end]):
            return True
        end += 1
    return False


SENTENCE_ENDS = frozenset(".!?")


def starts_sentence(doc: Doc, mention: Mention) -> bool:
    """Whether the mention starts the note, a line or a sentence (the token
    before it, spaces skipped, ends one with . ! or ?)."""
    if line_starts_at(doc, mention.start):
        return True
    i = mention.start - 1
    while doc[i].is_space:  # a token that is no space stands before: not a line start
        i -= 1
    return doc[i].text in SENTENCE_ENDS


def mention_source(mention: Mention) -> str:
    """Where a mention came from: "ner", "rule" (from "rule:<pattern id>"), ..."""
    return mention.provenance[0].split(":", 1)[0] if mention.provenance else ""


def from_sources(mention: Mention, sources: frozenset) -> bool:
    """Whether the mention came from one of `sources`: "ner", "rule" or "rule:<pattern id>"."""
    return mention_source(mention) in sources or (
        bool(mention.provenance) and mention.provenance[0] in sources)


def mixed_case(doc: Doc) -> bool:
    """Whether the note is written in mixed case: both some capitalised and
    some lower-case words (a note typed all in one case has neither)."""
    # Counted over the distinct word forms (a note repeats most of its words),
    # without making a Token object per token.
    orths, counts = numpy.unique(doc.to_array(ORTH), return_counts=True)
    words = upper = 0
    for orth, count in zip(orths.tolist(), counts.tolist()):
        text = doc.vocab.strings[orth]
        if text.isalpha() and len(text) > 1:
            words += count
            upper += count if text[0].isupper() else 0
    if not words:
        return False
    return MIXED_CASE_SHARE <= upper / words <= 1 - MIXED_CASE_SHARE


def rule_fires(
    doc: Doc, mention: Mention, rule: Rule, rules: RuleSet, attrs: Sequence[AbstractSet[str]],
    memo: Optional[TokenMemo] = None,
) -> bool:
    """Whether `rule` applies to `mention` (its label is checked by the caller)."""
    memo = memo or TokenMemo(doc)
    if blocked(mention, rule, rules, attrs):
        return False
    if rule.sources and not from_sources(mention, rule.sources):
        return False
    except_words = rules.lists[rule.unless_tags_except] if rule.unless_tags_except else frozenset()
    if rule.unless_tags and has_lexicon_tag(doc, mention, rule.unless_tags, except_words, memo):
        return False
    if rule.unless_pattern is not None and rule.unless_pattern.search(memo.text(mention.start, mention.end)):
        return False
    if rule.unless_full_name and is_full_name(doc, mention):
        return False
    if rule.unless_after_tags and after_tagged_word(doc, mention, rule.unless_after_tags):
        return False
    if rule.cased_line_only and not line_has_lower_case(doc, mention):
        return False
    if rule.unless_ner_agrees and NER_AGREES in mention.provenance:
        return False
    if rule.sentence_start_only and not starts_sentence(doc, mention):
        return False
    if rule.needs_lexicon and not has_token_feature(doc, "lexicon"):
        return False
    if rule.glued_pattern is not None and not rule.glued_pattern.search(
            glued_text(doc, mention.start, mention.end)):
        return False
    if rule.after_line_header and not follows_line_header(
            doc, mention.start, rules.lists[rule.after_line_header]):
        return False
    if rule.kind == "context":
        return context_fires(doc, mention, rule, rules)
    # The rule's own test first: it is cheaper than looking for cues in the
    # windows, and fails far more often (both must pass, in either order).
    if not _own_test(doc, mention, rule, rules, attrs, memo):
        return False
    if rule.cues or rule.unless:
        cue_d, unless_d = cue_distances(doc, mention, rule, rules)
        if unless_d is not None:
            return False  # attribute, lexicon and shape rules: any `unless` cue in the window vetoes
        if rule.cues and cue_d is None:
            return False  # ... and their `cues`, where they have some, must be in it
    return True


def _own_test(
    doc: Doc, mention: Mention, rule: Rule, rules: RuleSet, attrs: Sequence[AbstractSet[str]],
    memo: TokenMemo,
) -> bool:
    """The test of an attribute, shape or lexicon rule on the mention itself (cues aside)."""
    if rule.kind == "attribute":
        return in_attribute(mention, rules.lists[rule.attributes], attrs)
    text = memo.text(mention.start, mention.end)
    if rule.kind == "shape":
        found = rule.pattern.search(text) is not None
        return found if rule.match == "in" else not found
    if rule.pattern is not None and not rule.pattern.search(text):
        return False  # a lexicon rule with a pattern: the mention must have that shape too
    if rule.match == "near":
        return is_near_miss(text, rules.lists[rule.lexicon])
    if rule.each_token:
        found = words_fit(doc[mention.start: mention.end], rule, rules.lists)
    else:
        found = normalize_value(text) in rules.lists[rule.lexicon]
    return found if rule.match == "in" else not found


# --- (2) error correction ------------------------------------------------------


def correct_mentions(
    doc: Doc, mentions: List[Mention], rules: RuleSet, attrs: Sequence[AbstractSet[str]],
    dropped: Optional[List[Mention]] = None, cased: Optional[bool] = None,
) -> List[Mention]:
    """Apply the "correct" rules in file order; the first rule that fires on a
    mention decides (so a mention is changed at most once). Mentions a rule
    drops go to `dropped` (if given), with the ids of all the drop rules that
    fire on them in `fired_rules` (the deciding one first)."""
    step_rules = rules.for_step("correct")
    if any(rule.cased_only or rule.uncased_only for rule in step_rules):
        if cased is None:
            cased = mixed_case(doc)
        step_rules = [rule for rule in step_rules
                      if not (rule.cased_only and not cased) and not (rule.uncased_only and cased)]
    # A mention keeps its label until a rule fires: it is asked only the rules of that label.
    rules_of: Dict[str, List[Tuple[int, Rule]]] = {}
    memo = TokenMemo(doc)
    kept = []
    for m in mentions:
        is_dropped = False
        if m.label not in rules_of:
            rules_of[m.label] = [(i, rule) for i, rule in enumerate(step_rules) if m.label in rule.labels]
        for index, rule in rules_of[m.label]:
            if rule_fires(doc, m, rule, rules, attrs, memo):
                if rule.relabel is None:
                    m.provenance.append(f"correct:{rule.id}")
                    m.fired_rules = [rule.id] + _other_drops(
                        doc, m, step_rules[index + 1:], rules, attrs, memo)
                    is_dropped = True
                elif rule.relabel != m.label:
                    m.relabel(rule.relabel, "correct", rule.id)
                break
        if not is_dropped:
            kept.append(m)
        elif dropped is not None:
            dropped.append(m)
    return kept


def _other_drops(
    doc: Doc, mention: Mention, later: Sequence[Rule], rules: RuleSet, attrs: Sequence[AbstractSet[str]],
    memo: Optional[TokenMemo] = None,
) -> List[str]:
    """The later drop rules that fire on a dropped mention too (only dropped
    mentions are asked, a few per note)."""
    return [rule.id for rule in later if rule.relabel is None and mention.label in rule.labels
            and rule_fires(doc, mention, rule, rules, attrs, memo)]


# --- (3) global reconciliation -------------------------------------------------


def string_key(doc: Doc, mention: Mention) -> Tuple[str, ...]:
    """Mentions with the same lower-cased tokens are the same string."""
    return tuple(t.lower_ for t in doc[mention.start: mention.end])


def reconcile_mentions(
    doc: Doc, mentions: List[Mention], rules: RuleSet, attrs: Sequence[AbstractSet[str]],
    min_count: int = 2, partial_names: bool = True,
) -> None:
    """Make mentions of the same string agree on a type, in place.

    Per group of same-string mentions (types in the `reconcile_labels` list):
    the first "reconcile" cue rule that fires on any member relabels every
    member of the rule's types; otherwise a type seen at least `min_count`
    times, and more often than any other, wins (a tie changes nothing).
    """
    allowed = rules.label_lists["reconcile_labels"]
    groups: Dict[Tuple[str, ...], List[Mention]] = defaultdict(list)
    for m in mentions:
        if m.label in allowed:
            groups[string_key(doc, m)].append(m)
    step_rules = rules.for_step("reconcile")
    memo = TokenMemo(doc)
    settled: Set[int] = set()
    for members in groups.values():
        decided = False
        for rule in step_rules:
            if any(blocked(m, rule, rules, attrs) for m in members):
                continue
            if any(m.label in rule.labels and rule_fires(doc, m, rule, rules, attrs, memo) for m in members):
                for m in members:
                    if m.label in rule.labels and m.label != rule.relabel:
                        m.relabel(rule.relabel, "reconcile", rule.id)
                decided = True
                break
        if not decided:
            decided = _count_types(members, min_count)
        if decided:
            settled.update(id(m) for m in members)
    if partial_names:
        _reconcile_partial_names(doc, mentions, rules, settled)


def _count_types(members: List[Mention], min_count: int) -> bool:
    """Type counting: the strictly most frequent type, seen >= min_count times, wins."""
    counts = Counter(m.label for m in members)
    if len(counts) < 2:
        return len(members) >= min_count
    ranked = counts.most_common()
    (best, n), runner_up = ranked[0], ranked[1][1]
    if n < min_count or n == runner_up:
        return False
    for m in members:
        if m.label != best:
            m.relabel(best, "reconcile", "count")
    return True


def _reconcile_partial_names(doc: Doc, mentions: List[Mention], rules: RuleSet, settled: Set[int]) -> None:
    """A one-token person name that is a word of longer person names of a single
    type takes that type ("John Smith" DOCTOR ... "Smith" PATIENT -> DOCTOR),
    unless its own group was already settled by a cue rule or by counting."""
    word_types: Dict[str, Set[str]] = defaultdict(set)
    for m in mentions:
        if m.label in PERSON_LABELS and m.end - m.start >= 2:
            for t in doc[m.start: m.end]:
                if t.is_alpha and len(t) > 1 and t.lower_ not in rules.guard_words:
                    word_types[t.lower_].add(m.label)
    for m in mentions:
        if m.label not in PERSON_LABELS or m.end - m.start != 1 or id(m) in settled:
            continue
        types = word_types.get(doc[m.start].lower_)
        if types and len(types) == 1 and m.label not in types:
            m.relabel(next(iter(types)), "reconcile", "partial_name")


# --- words of names (completion and propagation) ---------------------------------


def _joined(doc: Doc, left: int) -> str:
    """How token `left` and the next one are joined: "" (glued), " " (same line), "\n" (else)."""
    ws = doc[left].whitespace_
    return "" if not ws else (" " if "\n" not in ws and "\r" not in ws else "\n")


# Cue words are capitalised at the start of a sentence ("Husband Piet ..."), never names.
NOT_NAME_LISTS = (
    "title_cues", "credential_cues", "clinician_role_cues", "family_role_cues", "patient_cues",
)


def _name_word(token: Token, rules: RuleSet) -> bool:
    """A capitalised word that can be part of a person's or place's name."""
    return token.is_alpha and token.is_title and not _guard_or_cue_word(token, rules)


def _guard_or_cue_word(token: Token, rules: RuleSet) -> bool:
    """A stop word, a guard-list word or a cue word (title, role, credential):
    never part of a name, whatever its case."""
    return token.lower_ in rules.guard_words or any(
        token.lower_ in rules.lists.get(name, ()) for name in NOT_NAME_LISTS)
