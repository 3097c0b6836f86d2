"""`deid_reconciler`: the global-consistency reconciler, last in the pipeline.

Turns rule hits (`doc.spans["phi_rules"]`) and NER predictions (`doc.ents`,
or a span group) into the final `doc.ents`, in four steps that can each be
switched off in the config (for ablation):

1. merge: rule mentions win over the NER mentions they overlap;
2. correct: context rules for known confusions (FAX/PHONE, STATE, HOSPITAL
   vs ORGANIZATION, PATIENT vs DOCTOR);
3. reconcile: mentions of the same string agree on a type (cue rules, then
   type counting, then partial names);
4. propagate: unlabelled occurrences of trusted PHI strings are labelled.

Rules and guard lists are data (`reconciler_rules.jsonl`,
`reconciler_lists.json`), given to `initialize` and saved with the pipeline.
Every final entity has a twin in `doc.spans["phi_provenance"]` whose `id_`
says where it came from ("rule:phone_nanp|correct:fax_context", "ner",
"propagate"); `ent._.phi_source` reads it. Mentions it removed are kept in
`doc.spans["phi_dropped"]`, with the reason; the group's attrs hold, per span,
the ids of every drop rule that fired on it (`fired_rules`) and whether one of
them is a veto (`hard`): `deid_confidence`'s keep/drop decision may restore
the others. See docs/reconciler.md.
"""
from typing import Any, Callable, Dict, Iterable, List, Optional

from spacy.language import Language
from spacy.pipeline import Pipe
from spacy.pipeline.ner import ner_score
from spacy.tokens import Doc, Span, SpanGroup
from spacy.training import Example
from spacy.util import registry

from ...data_files import warn_no_data
from ...extensions import ATTRIBUTES_KEY, DROPPED_KEY, PROVENANCE_KEY, RULES_KEY, install_extensions
from .rules import WIDER_NER_ONLY_PATTERNS, YIELDING_PATTERNS, RuleSet, make_reconciler_rules, read_lists, read_rule_lines
from ..serialize import Part, SavedParts
from .completion import complete_mentions
from .merging import merge_mentions, revive_yielded
from .propagation import propagate_mentions
from .steps import (
    NER_SOURCE,
    RULE_SOURCE,
    Mention,
    correct_mentions,
    mixed_case,
    reconcile_mentions,
    resolve_overlaps,
    token_attributes,
)

DEFAULT_RULES_KEY = RULES_KEY
# Provenance of a mention span completion cut short (completion.py).
TRIMMED = "complete:trim"
DEFAULT_ATTRIBUTES_KEY = ATTRIBUTES_KEY
# Attrs of the dropped group, one value per span: the drop rules that fired
# (a list of ids; empty for a mention merged away) and whether one is hard.
FIRED_RULES_ATTR = "fired_rules"
HARD_ATTR = "hard"


@registry.scorers("spacy-deid.ReconcilerScorer.v1")
def make_reconciler_scorer() -> Callable[..., Dict[str, Any]]:
    """Entity P/R/F of the final `doc.ents`: spaCy's own NER scorer."""
    return ner_score


@Language.factory(
    "deid_reconciler",
    # The rule hits (doc.spans), the NER's entities and the attribute values
    # of deid_sections (its token attribute stands for that span group).
    requires=["doc.spans", "doc.ents", "token._.attribute_name"],
    assigns=["doc.ents", "doc.spans"],
    default_config={
        "rules_key": DEFAULT_RULES_KEY,
        "ner_key": None,
        "attributes_key": DEFAULT_ATTRIBUTES_KEY,
        "merge": True,
        "correct": True,
        "reconcile": True,
        "propagate": True,
        "partial_names": True,
        "complete": True,
        "min_count": 2,
        "propagation_min_length": 3,
        "scorer": {"@scorers": "spacy-deid.ReconcilerScorer.v1"},
    },
    default_score_weights={"ents_f": 1.0, "ents_p": 0.0, "ents_r": 0.0, "ents_per_type": None},
)
def make_reconciler(
    nlp: Language,
    name: str,
    rules_key: Optional[str],
    ner_key: Optional[str],
    attributes_key: Optional[str],
    merge: bool,
    correct: bool,
    reconcile: bool,
    propagate: bool,
    partial_names: bool,
    complete: bool,
    min_count: int,
    propagation_min_length: int,
    scorer: Optional[Callable],
) -> "Reconciler":
    """Create a `deid_reconciler` (rules come through `initialize`)."""
    return Reconciler(
        nlp, name, rules_key=rules_key, ner_key=ner_key, attributes_key=attributes_key,
        merge=merge, correct=correct, reconcile=reconcile, propagate=propagate,
        partial_names=partial_names, complete=complete, min_count=min_count,
        propagation_min_length=propagation_min_length, scorer=scorer,
    )


class Reconciler(SavedParts, Pipe):
    """Merge rule and NER mentions into `doc.ents`, consistently within a note.

    rules_key: span group with the rule tagger's hits (None: no rules).
    ner_key: span group with NER predictions; None reads `doc.ents`.
    attributes_key: span group of attribute values (label = attribute name).
    merge: use the rule hits, winning over overlapping NER mentions. Off: NER only.
    correct / reconcile / propagate: steps 2-4.
    partial_names: part of step 3 ("Smith" takes the type of "John Smith").
    complete: span completion between steps 2 and 3 (`completion.py`):
        names over hyphens and "Last, First", institutions over inner "of"/"&",
        professions over known occupation words.
    min_count: how often a type must be seen to win type counting.
    propagation_min_length: shortest string (in characters) propagated.
    """

    def __init__(
        self,
        nlp: Language,
        name: str = "deid_reconciler",
        *,
        rules_key: Optional[str] = DEFAULT_RULES_KEY,
        ner_key: Optional[str] = None,
        attributes_key: Optional[str] = DEFAULT_ATTRIBUTES_KEY,
        merge: bool = True,
        correct: bool = True,
        reconcile: bool = True,
        propagate: bool = True,
        partial_names: bool = True,
        complete: bool = True,
        min_count: int = 2,
        propagation_min_length: int = 3,
        scorer: Optional[Callable] = ner_score,
    ) -> None:
        install_extensions()
        self.nlp = nlp
        self.name = name
        self.rules_key = rules_key
        self.ner_key = ner_key
        self.attributes_key = attributes_key
        self.merge = merge
        self.correct = correct
        self.reconcile = reconcile
        self.propagate = propagate
        self.partial_names = partial_names
        self.complete = complete
        self.min_count = min_count
        self.propagation_min_length = propagation_min_length
        self.scorer = scorer
        # Rules and lists arrive through `initialize` or `from_disk`.
        self.ruleset: Optional[RuleSet] = None

    # --- running ----------------------------------------------------------

    def __call__(self, doc: Doc) -> Doc:
        rule_mentions = self._collect_rules(doc)
        ner_mentions = self._collect_ner(doc, start_order=len(rule_mentions))
        dropped: List[Mention] = []
        if self.merge:
            lists = self.ruleset.lists if self.ruleset else {}
            mentions = merge_mentions(
                rule_mentions, ner_mentions, dropped,
                yielding=lists.get(YIELDING_PATTERNS, frozenset()),
                wider_only=lists.get(WIDER_NER_ONLY_PATTERNS, frozenset()),
            )
        else:
            mentions = resolve_overlaps(ner_mentions, dropped)
        ruleset = self.ruleset
        if ruleset is None:
            # Without the guard lists, propagation would spread stop words:
            # only the merge runs.
            warn_no_data(self.name, "rules and lists", "only merges rule and NER mentions")
        else:
            mentions = self._apply_rules(doc, mentions, ruleset, dropped)
        hard_drops = ruleset.hard_drops if ruleset is not None else frozenset()
        self._write(doc, sorted(mentions, key=lambda m: m.start), dropped, hard_drops)
        return doc

    def _apply_rules(
        self, doc: Doc, mentions: List[Mention], ruleset: RuleSet, dropped: List[Mention]
    ) -> List[Mention]:
        """Steps 2-4: correct, complete, reconcile, propagate (each as configured)."""
        attrs = token_attributes(doc, self.attributes_key) if (self.correct or self.reconcile) else []
        # Once per note: the correct and complete steps all ask.
        cased = mixed_case(doc) if (self.correct or self.complete) else False
        if self.correct:
            mentions = correct_mentions(doc, mentions, ruleset, attrs, dropped, cased)
            revived = revive_yielded(mentions, dropped)
            if revived:
                mentions = sorted(
                    mentions + correct_mentions(doc, revived, ruleset, attrs, dropped, cased),
                    key=lambda m: m.start,
                )
        if self.complete:
            mentions = complete_mentions(doc, mentions, ruleset, cased)
            if self.correct:
                mentions = self._correct_trimmed(doc, mentions, ruleset, attrs, dropped, cased)
        if self.reconcile:
            reconcile_mentions(
                doc, mentions, ruleset, attrs,
                min_count=self.min_count, partial_names=self.partial_names,
            )
        if self.propagate:
            mentions = mentions + propagate_mentions(
                doc, mentions, ruleset, min_length=self.propagation_min_length
            )
        return mentions

    @staticmethod
    def _correct_trimmed(
        doc: Doc, mentions: List[Mention], ruleset: RuleSet, attrs, dropped: List[Mention],
        cased: bool,
    ) -> List[Mention]:
        """The correct rules once more on the mentions completion cut short: a
        trimmed mention has a shape the rules have not judged ("Comfort and
        reassurance offered" -> "Comfort")."""
        trimmed = [m for m in mentions if any(p.startswith(TRIMMED) for p in m.provenance)]
        if not trimmed:
            return mentions
        kept = correct_mentions(doc, trimmed, ruleset, attrs, dropped, cased)
        gone = {id(m) for m in trimmed} - {id(m) for m in kept}
        return [m for m in mentions if id(m) not in gone]

    def _collect_rules(self, doc: Doc) -> List[Mention]:
        if not self.rules_key or self.rules_key not in doc.spans:
            return []
        return [
            Mention(s.start, s.end, s.label_, [f"{RULE_SOURCE}:{s.id_}" if s.id_ else RULE_SOURCE], order=i)
            for i, s in enumerate(doc.spans[self.rules_key])
            if s.label_ and s.end > s.start
        ]

    def _collect_ner(self, doc: Doc, start_order: int) -> List[Mention]:
        if self.ner_key is None:
            spans = list(doc.ents)
        elif self.ner_key in doc.spans:
            spans = list(doc.spans[self.ner_key])
        else:
            spans = []
        return [
            Mention(s.start, s.end, s.label_, [NER_SOURCE], order=start_order + i)
            for i, s in enumerate(spans)
            if s.label_ and s.end > s.start
        ]

    @staticmethod
    def _write(doc: Doc, mentions: List[Mention], dropped: List[Mention], hard_drops: frozenset) -> None:
        doc.ents = [Span(doc, m.start, m.end, label=m.label) for m in mentions]
        dropped = sorted(dropped, key=lambda m: m.start)
        attrs = {
            FIRED_RULES_ATTR: [list(m.fired_rules) for m in dropped],
            HARD_ATTR: [any(r in hard_drops for r in m.fired_rules) for m in dropped],
        }
        for key, group, group_attrs in ((PROVENANCE_KEY, mentions, {}), (DROPPED_KEY, dropped, attrs)):
            doc.spans[key] = SpanGroup(
                doc,
                name=key,
                attrs=group_attrs,
                spans=[Span(doc, m.start, m.end, label=m.label, span_id=m.provenance_string) for m in group],
            )

    # --- initialize ------------------------------------------------------------

    def initialize(
        self,
        get_examples: Optional[Callable[[], Iterable[Example]]] = None,
        *,
        nlp: Optional[Language] = None,
        rules: Optional[Dict[str, Any]] = None,
    ) -> None:
        """Replace the rules and lists: `rules` is the dict of the loader
        `spacy-deid.ReconcilerRules.v1`; None loads the packaged rules through it."""
        if rules is None:
            rules = make_reconciler_rules()
        self.ruleset = RuleSet.from_data(rules, source=f"initialize rules of {self.name!r}")

    @property
    def rule_ids(self) -> List[str]:
        return [r.id for r in self.ruleset.rules] if self.ruleset is not None else []

    # --- serialization -------------------------------------------------------
    # "rules" (JSONL on disk) and "lists" (a JSON object: name -> strings);
    # rules name lists, so both are read before the rule set is built.
    # An excluded part keeps what the component has.
    def _data(self) -> Dict[str, Any]:
        return self.ruleset.to_data() if self.ruleset is not None else {"rules": [], "lists": {}}

    def _set_data(self, data: Dict[str, Any], source: str) -> None:
        if data["rules"] or data["lists"]:
            self.ruleset = RuleSet.from_data(data, source=source)

    def saved_parts(self) -> Dict[str, Part]:
        return {
            "rules": Part("rules.jsonl", lambda: self._data()["rules"], read=read_rule_lines),
            "lists": Part("lists.json", lambda: self._data()["lists"], read=read_lists),
        }

    def load_parts(self, values: Dict[str, Any], source: str) -> None:
        self._set_data({**self._data(), **values}, source=source)
