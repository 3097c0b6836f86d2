"""Rules and guard lists of the `deid_reconciler` component, as data.

Rules (JSONL, one object per line, each with an `id`) say when a mention of a
given type is relabelled or dropped; guard and cue lists (JSON, name -> list
of lower-case strings) are referenced by name from the rules and used by the
reconciliation and propagation steps. Both ship in `spacy_deid/data/`
(`reconciler_rules.jsonl`, `reconciler_lists.json`; the family-role and
credential cues in `role_words.jsonl`, shared with the safety net), arrive in the component
through `initialize(..., rules=...)` (usually from the registered loader
`spacy-deid.ReconcilerRules.v1`) and are saved with the pipeline.

Rule fields:
    id           unique name, written into the provenance of what it changes
    step         "correct" (one mention at a time) or "reconcile" (every
                 mention of the same string in the note)
    kind         "context"   a cue within `before`/`after` tokens of the mention,
                             nearer than any `unless` cue;
                 "attribute" the mention lies in the value of an attribute whose
                             normalised name is in the list `attributes`;
                 "lexicon"   the normalised mention text is (`match`="in") or
                             is not (`match`="not_in") in the list `lexicon`,
                             or (`match`="near") is one word of at least
                             NEAR_MIN_LETTERS letters that is not in it but one
                             typing slip away from a word that is (a letter
                             left out, added, changed or two swapped:
                             "Recieving", "Contiue", "Proprofol")
                 "shape"     the regular expression `pattern` is found
                             (`match`="in") or not found (`match`="not_in")
                             in the mention text: what a value of the type
                             cannot look like (a person's name with no
                             capital letter, a date "13/30")
    labels       the types the rule applies to
    relabel      the new type, or null to drop the mention
    unless_attributes  (optional) a list of attribute names: the rule never
                 fires on a mention inside such a value (nor, in the
                 reconcile step, on a group with such a member)
    cues         (context) the cue lists the rule fires on; (attribute, lexicon,
                 shape, optional) cue lists one of which must be in the windows
    unless       (context) cue lists that win when nearer than `cues`; (attribute,
                 lexicon, shape) cue lists that veto the rule anywhere in the windows
    pattern      (shape) see above; (lexicon, optional) a regular expression the
                 mention text must also match ("PLan": two capitals, then lower case)
    cased_only   (optional, shape) fire only in notes written in mixed case:
                 in a note typed all in lower (or upper) case, case says nothing
    uncased_only (optional) fire only in notes typed all in one case (where
                 an upper-case word is no more a name than a lower-case one)
    unless_tags  (optional) `deid_lexicon` categories (FIRST, LAST, CITY...): the
                 rule never fires on a mention with a token so tagged ("rose"
                 in lower case is still a first name)
    unless_pattern  (optional) a regular expression: the rule never fires on a
                 mention whose text it is found in ("admitted to" a name with
                 "College" in it does not make a hospital)
    each_token   (optional, lexicon) compare each word of the mention with the
                 list instead of the whole text: "foley draining" is two
                 clinical words (numbers and punctuation are skipped); with
                 `slips_count` a word one typing slip from the list counts as
                 in it, with `skip_initials_and_signs` initials and tokens with
                 a sign ("S+S") are skipped too, `needs_word_from` (a list name)
                 asks one word to be in that list as well and `needs_slip` one
                 word to be a typing slip (mention_words.py)
    unless_tags_except  (optional, with unless_tags) a list name: a tagged
                 word in that list does not veto ("min", "comfort" are first
                 names too, and clinical or common words first)
    unless_after_tags  (optional) `deid_lexicon` categories: the rule never
                 fires when the word before the mention (a comma skipped) carries
                 one ("El Dorado CA": a city before a state); a lower-case word
                 before a mention with a capital does not ("post MI")
    cased_line_only  (optional, with cased_only) fire only when the mention's
                 own line has a lower-case word: an ALL-CAPS line or header of a
                 mixed-case note is written in one case too
    unless_ner_agrees  (optional) never fire on a pattern's mention that the
                 NER found too ("merge:ner_agrees"): two finders agreeing are
                 evidence the rule's own test does not outweigh
    glued_pattern  (optional) a regular expression: fire only when it is found
                 in the characters glued to the mention, written as the (up to)
                 8 characters before it, a '|' for the mention, and the 8 after
                 ("4.7/2.6": a digit and a period before the '|' find "7/2" glued
                 to a decimal)
    sentence_start_only  (optional) fire only on a mention that starts a
                 sentence: the note, a line or a sentence (after . ! ?) begins
                 with it, where any charting word is capitalised
    needs_lexicon  (optional) fire only when `deid_lexicon` tagged the note: a
                 rule for words no name list knows has no evidence without lists
    after_line_header  (optional) a list name: fire only on a mention that
                 directly follows a header of that list opening its line, with
                 its colon or dash ("CV: Aflutter", "Neuro- Pleasant"): the first
                 word of a systems-review line is capitalised like a sentence's
    unless_full_name  (optional) the rule never fires on a mention of two or
                 more words whose first word a first-name list knows and another
                 word a first-name or surname list knows ("ABEL FORMBY",
                 "anna louise k."): a full name is a name in any case
    windows_in_sentence  (optional, with before/after) the windows stop at the
                 end of the mention's sentence: a cue in the sentence before
                 ("Vitals stable. Widowed at 92") is about something else
    sources      (optional) where the mention came from ("ner", "rule", or one
                 PHI pattern: "rule:<pattern id>"): the rule fires only on
                 mentions of these sources (a bare number the NER called an AGE
                 needs age evidence; a rule's AGE has it)
    hard         (optional, drop rules; default true) whether the drop is a veto.
                 A soft drop (false) is evidence only: `deid_confidence`'s
                 keep/drop decision (confidence/decision.py) may restore the
                 mention. A rule is hard only where it removed no gold PHI on
                 any data measured (scripts/experiments/veto_audit.py)
"""
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, FrozenSet, Iterable, List, Optional, Pattern, Tuple

import srsly
from spacy.lang.en.stop_words import STOP_WORDS
from spacy.util import registry

from ... import labels
from ...data_files import DATA_DIR, read_jsonl
from ..shared_words import role_words

DEFAULT_RULES_PATH = DATA_DIR / "reconciler_rules.jsonl"
DEFAULT_LISTS_PATH = DATA_DIR / "reconciler_lists.json"

STEPS = ("correct", "reconcile")
KINDS = ("context", "attribute", "lexicon", "shape")
MATCHES = ("in", "not_in", "near")
# Provenance sources a rule can be limited to (the first entry of a mention's trail).
SOURCES = ("ner", "rule")


def known_source(source: object) -> bool:
    """A `sources` entry: a source ("ner", "rule") or one PHI pattern ("rule:<pattern id>")."""
    return isinstance(source, str) and (source in SOURCES or (
        source.startswith("rule:") and len(source) > len("rule:")))


# The list of PHI pattern ids whose mentions give way to an overlapping NER
# mention (patterns that find one word where the NER may know the whole name).
YIELDING_PATTERNS = "patterns_yielding_to_ner"
# Of those, the patterns anchored on a head word ("<name> Hospital") that give
# way only to an NER mention reaching outside them: an NER mention inside the
# hit is a name cut short ("Okeby" of "Okeby Vale Memorial").
WIDER_NER_ONLY_PATTERNS = "patterns_yielding_only_to_wider_ner"
# What the merge step records on a rule mention the NER found identically.
NER_AGREES = "merge:ner_agrees"
# The short forms nurses chart drips, lines and units with ("vanco", "fem"):
# read_rules adds them to the clinical vocabulary lists.
CHARTING_SHORT_FORMS = "charting_short_forms"

# Lists every rule set must have: the steps read them directly.
LABEL_LISTS = ("reconcile_labels", "propagate_labels", "case_insensitive_labels", "numeric_labels")
GUARD_LISTS = ("stop_words", "common_words", "clinical_terms")
# Lists kept once for the reconciler and the safety net (data/role_words.jsonl):
# a lists file that does not define them gets the reconciler's words from there.
SHARED_LISTS = {
    "family_role_cues": "family", "patient_cues": "patient", "credential_cues": "credential",
}
REQUIRED_LISTS = LABEL_LISTS + GUARD_LISTS


class ReconcilerRuleError(ValueError):
    """A reconciler rule or list that cannot be used (names the rule, never note text)."""


# Cue lists that count before a mention only: a title stands before a name,
# never after it ("ALLERGIC TO MS": morphine sulfate, not "Ms.").
BEFORE_ONLY_LISTS = frozenset({"title_cues", "name_titles"})


@dataclass(frozen=True)
class Rule:
    id: str
    step: str
    kind: str
    labels: FrozenSet[str]
    relabel: Optional[str]
    cues: Tuple[str, ...] = ()
    unless: Tuple[str, ...] = ()
    before: int = 0
    after: int = 0
    attributes: Optional[str] = None
    lexicon: Optional[str] = None
    match: str = "in"
    unless_attributes: Optional[str] = None
    pattern: Optional[Pattern[str]] = field(default=None, compare=False)
    unless_tags: FrozenSet[str] = frozenset()
    unless_pattern: Optional[Pattern[str]] = field(default=None, compare=False)
    cased_only: bool = False
    sources: FrozenSet[str] = frozenset()
    each_token: bool = False
    uncased_only: bool = False
    unless_full_name: bool = False
    unless_tags_except: Optional[str] = None
    unless_after_tags: FrozenSet[str] = frozenset()
    cased_line_only: bool = False
    unless_ner_agrees: bool = False
    glued_pattern: Optional[Pattern[str]] = field(default=None, compare=False)
    sentence_start_only: bool = False
    needs_lexicon: bool = False
    after_line_header: Optional[str] = None
    slips_count: bool = False
    skip_initials_and_signs: bool = False
    needs_word_from: Optional[str] = None
    needs_slip: bool = False
    windows_in_sentence: bool = False
    hard: bool = True
    description: str = field(default="", compare=False)


def normalize_value(text: str) -> str:
    """Lower case, periods dropped, spaces collapsed: "N.Y." -> "ny", "New  York" -> "new york"."""
    return " ".join(text.lower().replace(".", "").split())


def _cue_fragment(cue: str) -> str:
    """A regex for one cue: its words separated by any whitespace, anchored on
    word boundaries only where the cue starts/ends with a letter or digit (so
    "f:" also matches "F:555")."""
    body = r"\s+".join(re.escape(word) for word in cue.split())
    if cue[:1].isalnum():
        body = r"(?<![0-9a-z])" + body
    if cue[-1:].isalnum():
        body = body + r"(?![0-9a-z])"
    return body


def compile_cues(cues: Iterable[str]) -> Optional[Pattern[str]]:
    """One compiled alternation for a list of cues (longest first), or None if empty."""
    cues = sorted({c.strip().lower() for c in cues if c.strip()}, key=lambda c: (-len(c), c))
    if not cues:
        return None
    return re.compile("|".join(_cue_fragment(c) for c in cues))


class RuleSet:
    """Validated rules and lists, with the cue regexes compiled once."""

    def __init__(self, rules: List[Dict[str, Any]], lists: Dict[str, List[str]], source: str = "<rules>"):
        self.source = source
        self.raw_rules = [dict(r) for r in rules]
        self.raw_lists = {k: list(v) for k, v in lists.items() if not k.startswith("_")}
        for name in REQUIRED_LISTS:
            if name not in self.raw_lists:
                raise ReconcilerRuleError(f"{source}: list {name!r} is missing")
        self.lists: Dict[str, FrozenSet[str]] = {
            name: frozenset(v.strip().lower() for v in values) for name, values in self.raw_lists.items()
        }
        for name in LABEL_LISTS:
            bad = sorted(set(self.raw_lists[name]) - set(labels.SUBTYPES))
            if bad:
                raise ReconcilerRuleError(f"{source}: list {name!r} has unknown types {bad}")
        self.label_lists = {name: frozenset(self.raw_lists[name]) for name in LABEL_LISTS}
        # Words that are never propagated on their own: the lists plus spaCy's stop words.
        self.guard_words: FrozenSet[str] = frozenset(STOP_WORDS).union(
            *(self.lists[name] for name in GUARD_LISTS)
        )
        self.rules: List[Rule] = [self._parse(r) for r in self.raw_rules]
        ids = [r.id for r in self.rules]
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        if dupes:
            raise ReconcilerRuleError(f"{source}: duplicate rule ids {dupes}")
        # Compiled here, not at first use: each worker process forked by
        # nlp.pipe(n_process=N) then finds them compiled in the parent's memory.
        self._cue_cache: Dict[Tuple[str, ...], Optional[Pattern[str]]] = {}
        for rule in self.rules:
            self.cue_regex(rule.cues)
            self.cue_regex(rule.unless)
            self.cue_regex(unless_after_lists(rule))

    @classmethod
    def from_data(cls, data: Dict[str, Any], source: str = "<rules>") -> "RuleSet":
        """From `{"rules": [...], "lists": {...}}`, the loader's return value."""
        if not isinstance(data, dict) or "rules" not in data or "lists" not in data:
            raise ReconcilerRuleError(f"{source}: expected a dict with 'rules' and 'lists'")
        return cls(list(data["rules"]), dict(data["lists"]), source=source)

    def to_data(self) -> Dict[str, Any]:
        return {"rules": [dict(r) for r in self.raw_rules], "lists": {k: list(v) for k, v in self.raw_lists.items()}}

    @staticmethod
    def _regex(raw: Dict[str, Any], key: str, where: str) -> Optional[Pattern[str]]:
        """The optional regular expression `key` of a rule, compiled."""
        if raw.get(key) is None:
            return None
        if not isinstance(raw[key], str) or not raw[key]:
            raise ReconcilerRuleError(f"{where}: {key} must be a regular expression")
        try:
            return re.compile(raw[key])
        except re.error as err:
            raise ReconcilerRuleError(
                f"{where}: {key} is not a valid regular expression ({err})") from None

    def _parse(self, raw: Dict[str, Any]) -> Rule:
        rule_id = raw.get("id")
        where = f"{self.source}: rule {rule_id!r}"
        if not rule_id or not isinstance(rule_id, str):
            raise ReconcilerRuleError(f"{self.source}: a rule has no id")
        step, kind = raw.get("step"), raw.get("kind")
        if step not in STEPS:
            raise ReconcilerRuleError(f"{where}: step must be one of {STEPS}")
        if kind not in KINDS:
            raise ReconcilerRuleError(f"{where}: kind must be one of {KINDS}")
        rule_labels = frozenset(raw.get("labels") or ())
        if not rule_labels or not rule_labels <= set(labels.SUBTYPES):
            raise ReconcilerRuleError(f"{where}: labels must be a non-empty list of subtypes")
        relabel = raw.get("relabel")
        if relabel is not None and relabel not in labels.SUBTYPES:
            raise ReconcilerRuleError(f"{where}: relabel must be a subtype or null")
        if relabel is None and step == "reconcile":
            raise ReconcilerRuleError(f"{where}: reconcile rules relabel, they cannot drop")
        cues = tuple(raw.get("cues") or ())
        unless = tuple(raw.get("unless") or ())
        needed = list(cues + unless)
        if kind == "context" and not cues:
            raise ReconcilerRuleError(f"{where}: a context rule needs cues")
        if kind == "attribute":
            if not raw.get("attributes"):
                raise ReconcilerRuleError(f"{where}: an attribute rule needs 'attributes'")
            needed.append(raw["attributes"])
        if kind == "lexicon":
            if not raw.get("lexicon"):
                raise ReconcilerRuleError(f"{where}: a lexicon rule needs 'lexicon'")
            needed.append(raw["lexicon"])
        pattern = None
        if kind == "lexicon" and raw.get("pattern") is not None:
            pattern = self._regex(raw, "pattern", where)  # a lexicon rule's pattern narrows it
        if kind == "shape":
            if not raw.get("pattern") or not isinstance(raw["pattern"], str):
                raise ReconcilerRuleError(f"{where}: a shape rule needs a 'pattern' (a regular expression)")
            try:
                pattern = re.compile(raw["pattern"])
            except re.error as err:
                raise ReconcilerRuleError(f"{where}: pattern is not a valid regular expression ({err})") from None
        if kind in ("lexicon", "shape") and raw.get("match", "in") not in MATCHES:
            raise ReconcilerRuleError(f"{where}: match must be one of {MATCHES}")
        if raw.get("match") == "near" and (kind != "lexicon" or raw.get("each_token")):
            raise ReconcilerRuleError(f"{where}: match 'near' is for lexicon rules on the whole mention")
        unless_pattern = self._regex(raw, "unless_pattern", where)
        unless_tags = raw.get("unless_tags") or ()
        if isinstance(unless_tags, str) or not all(isinstance(t, str) and t for t in unless_tags):
            raise ReconcilerRuleError(f"{where}: unless_tags must be a list of lexicon categories")
        if raw.get("unless_attributes"):
            needed.append(raw["unless_attributes"])
        if raw.get("unless_tags_except"):
            needed.append(raw["unless_tags_except"])
        if raw.get("after_line_header"):
            needed.append(raw["after_line_header"])
        word_options = ("slips_count", "skip_initials_and_signs", "needs_word_from", "needs_slip")
        if any(raw.get(option) for option in word_options) and not (kind == "lexicon" and raw.get("each_token")):
            raise ReconcilerRuleError(f"{where}: {', '.join(word_options)} are for lexicon rules with each_token")
        if raw.get("needs_word_from"):
            needed.append(raw["needs_word_from"])
        for name in needed:  # every list a rule names exists, checked at load time
            if name not in self.lists:
                raise ReconcilerRuleError(f"{where}: unknown list {name!r}")
        sources = raw.get("sources") or ()
        if isinstance(sources, str) or not all(known_source(source) for source in sources):
            raise ReconcilerRuleError(
                f"{where}: sources must be a list of {SOURCES} or 'rule:<pattern id>'")
        before, after = int(raw.get("before", 0)), int(raw.get("after", 0))
        if before < 0 or after < 0:
            raise ReconcilerRuleError(f"{where}: before/after must be >= 0")
        if not isinstance(raw.get("hard", True), bool):
            raise ReconcilerRuleError(f"{where}: hard must be true or false")
        return Rule(
            id=rule_id, step=step, kind=kind, labels=rule_labels, relabel=relabel,
            cues=cues, unless=unless, before=before, after=after,
            attributes=raw.get("attributes"), lexicon=raw.get("lexicon"),
            match=raw.get("match", "in"), unless_attributes=raw.get("unless_attributes"),
            pattern=pattern, unless_tags=frozenset(unless_tags), unless_pattern=unless_pattern,
            cased_only=bool(raw.get("cased_only", False)), sources=frozenset(sources),
            each_token=bool(raw.get("each_token", False)),
            uncased_only=bool(raw.get("uncased_only", False)),
            unless_full_name=bool(raw.get("unless_full_name", False)),
            unless_tags_except=raw.get("unless_tags_except") or None,
            unless_after_tags=frozenset(raw.get("unless_after_tags") or ()),
            cased_line_only=bool(raw.get("cased_line_only", False)),
            unless_ner_agrees=bool(raw.get("unless_ner_agrees", False)),
            glued_pattern=self._regex(raw, "glued_pattern", where),
            sentence_start_only=bool(raw.get("sentence_start_only", False)),
            needs_lexicon=bool(raw.get("needs_lexicon", False)),
            after_line_header=raw.get("after_line_header") or None,
            slips_count=bool(raw.get("slips_count", False)),
            skip_initials_and_signs=bool(raw.get("skip_initials_and_signs", False)),
            needs_word_from=raw.get("needs_word_from") or None,
            needs_slip=bool(raw.get("needs_slip", False)),
            windows_in_sentence=bool(raw.get("windows_in_sentence", False)),
            hard=raw.get("hard", True),
            description=raw.get("description", ""),
        )

    @property
    def hard_drops(self) -> FrozenSet[str]:
        """Ids of the drop rules that are vetoes (`hard`, the default)."""
        return frozenset(r.id for r in self.rules if r.relabel is None and r.hard)

    def for_step(self, step: str) -> List[Rule]:
        return [r for r in self.rules if r.step == step]

    def cue_regex(self, names: Tuple[str, ...]) -> Optional[Pattern[str]]:
        """The compiled alternation of all cues in the named lists."""
        if names not in self._cue_cache:
            self._cue_cache[names] = compile_cues(c for n in names for c in self.lists[n])
        return self._cue_cache[names]


def unless_after_lists(rule: Rule) -> Tuple[str, ...]:
    """The rule's `unless` lists that count after a mention too (BEFORE_ONLY_LISTS left out)."""
    return tuple(name for name in rule.unless if name not in BEFORE_ONLY_LISTS)


def _a_rule_object(entry: Any) -> Dict[str, Any]:
    if not isinstance(entry, dict):
        raise ReconcilerRuleError(f"a rule must be an object, not {type(entry).__name__}")
    return entry


def read_rule_lines(path: Path) -> List[Dict[str, Any]]:
    """The rule objects of a rules JSONL file (checked against the lists by RuleSet)."""
    if not Path(path).is_file():
        raise ReconcilerRuleError(f"reconciler rules: file not found: {path}")
    return read_jsonl(path, _a_rule_object, what="reconciler rules", error=ReconcilerRuleError)


def read_lists(path: Path) -> Dict[str, List[str]]:
    """The guard and cue lists of a lists JSON file (name -> strings)."""
    if not Path(path).is_file():
        raise ReconcilerRuleError(f"reconciler lists: file not found: {path}")
    try:
        lists = srsly.read_json(path)
    except ValueError:
        raise ReconcilerRuleError(f"{path}: not valid JSON") from None
    if not isinstance(lists, dict):
        raise ReconcilerRuleError(f"{path}: expected an object of named lists")
    for name, role in SHARED_LISTS.items():
        lists.setdefault(name, sorted(role_words(role, "reconciler")))
    return lists


def read_rules(rules_path: Path, lists_path: Path) -> Dict[str, Any]:
    """Read a rules JSONL and a lists JSON file into the loader's dict; the
    clinical vocabulary lists (clinical_lexicon.py) are added where the lists
    file does not define them, with its `charting_short_forms` in the clinical ones."""
    from ...clinical_lexicon import vocabulary_lists

    lists = read_lists(lists_path)
    vocabulary = vocabulary_lists(extra_clinical=lists.get(CHARTING_SHORT_FORMS, ()))
    data = {"rules": read_rule_lines(rules_path), "lists": {**vocabulary, **lists}}
    RuleSet.from_data(data, source=str(rules_path))  # fail early, naming the file
    return data


@registry.misc("spacy-deid.ReconcilerRules.v1")
def make_reconciler_rules(
    rules_path: Optional[str] = None, lists_path: Optional[str] = None
) -> Dict[str, Any]:
    """Load reconciler rules and lists (the packaged ones where a path is None),
    for `[initialize.components.<name>.rules]`."""
    return read_rules(
        Path(rules_path) if rules_path else DEFAULT_RULES_PATH,
        Path(lists_path) if lists_path else DEFAULT_LISTS_PATH,
    )
