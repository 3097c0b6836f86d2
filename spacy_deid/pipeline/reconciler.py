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
`doc.spans["phi_dropped"]`, with the reason. See docs/reconciler.md.
"""
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, List, Optional, Union

import srsly
from spacy.language import Language
from spacy.pipeline import Pipe
from spacy.scorer import get_ner_prf
from spacy.tokens import Doc, Span, SpanGroup
from spacy.training import Example
from spacy.util import ensure_path, registry

from ..extensions import PROVENANCE_KEY, install_extensions
from .reconcile_rules import (
    DEFAULT_LISTS_PATH,
    DEFAULT_RULES_PATH,
    RuleSet,
    read_rules,
)
from .reconcile_completion import complete_mentions
from .reconcile_steps import (
    NER_SOURCE,
    RULE_SOURCE,
    Mention,
    correct_mentions,
    merge_mentions,
    propagate_mentions,
    reconcile_mentions,
    resolve_overlaps,
    token_attributes,
)

DEFAULT_RULES_KEY = "phi_rules"
DEFAULT_ATTRIBUTES_KEY = "attributes"
# Mentions an input had that the reconciler removed, with provenance in `id_`
# ("ner|merge:under_rule", "ner|correct:state_us_only"): why a span is *not* there.
DROPPED_KEY = "phi_dropped"


@registry.scorers("spacy-deid.ReconcilerScorer.v1")
def make_reconciler_scorer() -> Callable[..., Dict[str, Any]]:
    """Entity P/R/F of the final `doc.ents` (spaCy's NER measures)."""
    return score_reconciler


def score_reconciler(examples: Iterable[Example], **kwargs: Any) -> Dict[str, Any]:
    return get_ner_prf(examples)


@Language.factory(
    "deid_reconciler",
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


class Reconciler(Pipe):
    """Merge rule and NER mentions into `doc.ents`, consistently within a note.

    rules_key: span group with the rule tagger's hits (None: no rules).
    ner_key: span group with NER predictions; None reads `doc.ents`.
    attributes_key: span group of attribute values (label = attribute name).
    merge: use the rule hits, winning over overlapping NER mentions. Off: NER only.
    correct / reconcile / propagate: steps 2-4.
    partial_names: part of step 3 ("Smith" takes the type of "John Smith").
    complete: span completion between steps 2 and 3 (reconcile_completion.py):
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
        scorer: Optional[Callable] = score_reconciler,
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
        # Until `initialize` or `from_disk` says otherwise, the packaged rules:
        # a reconciler without guard lists would propagate stop words.
        self.ruleset = RuleSet.from_data(
            read_rules(DEFAULT_RULES_PATH, DEFAULT_LISTS_PATH), source="packaged rules"
        )

    # --- running ----------------------------------------------------------

    def __call__(self, doc: Doc) -> Doc:
        rule_mentions = self._collect_rules(doc)
        ner_mentions = self._collect_ner(doc, start_order=len(rule_mentions))
        dropped: List[Mention] = []
        if self.merge:
            mentions = merge_mentions(rule_mentions, ner_mentions, dropped)
        else:
            mentions = resolve_overlaps(ner_mentions, dropped)
        attrs = token_attributes(doc, self.attributes_key) if (self.correct or self.reconcile) else []
        if self.correct:
            mentions = correct_mentions(doc, mentions, self.ruleset, attrs, dropped)
        if self.complete:
            mentions = complete_mentions(doc, mentions, self.ruleset)
        if self.reconcile:
            reconcile_mentions(
                doc, mentions, self.ruleset, attrs,
                min_count=self.min_count, partial_names=self.partial_names,
            )
        if self.propagate:
            mentions = mentions + propagate_mentions(
                doc, mentions, self.ruleset, min_length=self.propagation_min_length
            )
        self._write(doc, sorted(mentions, key=lambda m: m.start), dropped)
        return doc

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
    def _write(doc: Doc, mentions: List[Mention], dropped: List[Mention]) -> None:
        doc.ents = [Span(doc, m.start, m.end, label=m.label) for m in mentions]
        for key, group in ((PROVENANCE_KEY, mentions), (DROPPED_KEY, sorted(dropped, key=lambda m: m.start))):
            doc.spans[key] = SpanGroup(
                doc,
                name=key,
                spans=[Span(doc, m.start, m.end, label=m.label, span_id=m.provenance_string) for m in group],
            )

    # --- initialize and serialisation --------------------------------------------

    def initialize(
        self,
        get_examples: Optional[Callable[[], Iterable[Example]]] = None,
        *,
        nlp: Optional[Language] = None,
        rules: Optional[Dict[str, Any]] = None,
    ) -> None:
        """Replace the rules and lists: `rules` is the dict of the loader
        `spacy-deid.ReconcilerRules.v1`; None means the packaged rules."""
        if rules is None:
            rules = read_rules(DEFAULT_RULES_PATH, DEFAULT_LISTS_PATH)
        self.ruleset = RuleSet.from_data(rules, source=f"initialize rules of {self.name!r}")

    @property
    def rule_ids(self) -> List[str]:
        return [r.id for r in self.ruleset.rules]

    def to_bytes(self, *, exclude: Iterable[str] = tuple()) -> bytes:
        return srsly.msgpack_dumps(self.ruleset.to_data())

    def from_bytes(self, bytes_data: bytes, *, exclude: Iterable[str] = tuple()) -> "Reconciler":
        self.ruleset = RuleSet.from_data(srsly.msgpack_loads(bytes_data), source=f"bytes of {self.name!r}")
        return self

    def to_disk(self, path: Union[str, Path], *, exclude: Iterable[str] = tuple()) -> None:
        path = ensure_path(path)
        path.mkdir(parents=True, exist_ok=True)
        data = self.ruleset.to_data()
        srsly.write_jsonl(path / "rules.jsonl", data["rules"])
        srsly.write_json(path / "lists.json", data["lists"])

    def from_disk(self, path: Union[str, Path], *, exclude: Iterable[str] = tuple()) -> "Reconciler":
        path = ensure_path(path)
        self.ruleset = RuleSet.from_data(read_rules(path / "rules.jsonl", path / "lists.json"), source=str(path))
        return self
