"""`deid_confidence`: a calibrated PHI probability on every span, and the operating point.

Last before release. For each entity the reconciler kept (with its provenance
in `doc.spans["phi_provenance"]`), each NER candidate the greedy decoder did
not choose (`doc.spans["ner_candidates"]`, from `deid_ner_scores`) and each
safety-net proposal (`doc.spans["phi_safety_net"]`, from `deid_safety_net`),
it computes

- a raw score: the mean, over the span's tokens, of the NER beam's
  probability that the token is PHI (the candidate's own probability for a
  candidate);
- a calibrated score: the calibration map (calibration.py) applied to the raw
  score within the span's evidence class (rule, rule + NER agreeing, NER,
  propagation, candidate, safety-net cue);

Mentions the reconciler dropped (`doc.spans["phi_dropped"]`) go to the
keep/drop decision (`decision.py`) when the component has one: a soft drop
(no hard veto among its `fired_rules`) whose P(PHI) is at least
`decision_threshold` (below 1.0, the default) is restored as an entity at every point (provenance
"decision|<the drop's trail>", score P); the others are candidates scored P
(the `recall` point adds those at `recall_threshold`). Without a decision
(pipelines calibrated before it) dropped NER mentions are candidates scored by
the calibration map, as before, and dropped pattern mentions are left out.

It then sets `doc.ents` at the operating point (`operating_point.py`) and writes

- `doc.spans["phi_provenance"]`: the final entities, `id_` = provenance,
  `attrs["scores"]` / `attrs["raw_scores"]` one value per span;
- `doc.spans["phi_rejected"]`: the scored spans not used at this point.

`span._.phi_score` reads the score back (spacy_deid/extensions.py); span group attrs travel through
DocBin and `Doc.to_bytes`. Safety-net spans of the cues named in `entity_cues`
(by default the charting cues of nursing notes, `safety_net.charting.CHARTING_CUES`)
are entities: they count at every operating point, `balanced` included, like the
reconciler's.

The operating point is a config setting
(`operating_point = "recall"`), overridable at load time
(`spacy.load(path, config={"components": {"deid_confidence": {"operating_point": "recall"}}})`)
or by setting the attribute. The calibration map arrives through `initialize`
(`spacy-deid.PhiCalibration.v1`, the packaged map by default) or `from_disk`
only; without one the component warns and scores with the evidence priors.
The decision arrives through `initialize(decision=...)` (from `spacy-deid
calibrate`) or `from_disk` (`decision.json`) only, never from package data.
See docs/recall.md.
"""

from pathlib import Path
from typing import Any, Callable, Dict, FrozenSet, Iterable, List, Optional, Sequence, Tuple, Union

import srsly
from spacy.language import Language
from spacy.pipeline import Pipe
from spacy.tokens import Doc, Span, SpanGroup
from spacy.training import Example
from spacy.util import registry

from ...data_files import DATA_DIR, warn_no_data
from ...extensions import DROPPED_KEY, PROVENANCE_KEY, REJECTED_KEY, SCORES_ATTR, install_extensions
from .calibration_map import CalibrationMap, evidence_class
from .decision import DecisionContext, Features, KeepDropDecision
from .reliability import (
    RAW_SCORES_ATTR,
    brier_score,
    doc_scored_spans,
    expected_calibration_error,
    reliability_table,
)
from ..serialize import Part, SavedParts
from ..ner_scores import DEFAULT_CANDIDATES_KEY, group_scores, token_probabilities
from .operating_point import (
    BALANCED,
    OperatingPoint,
    ScoredSpan,
    parse_operating_point,
    select_spans,
)
from ..reconciler.component import FIRED_RULES_ATTR, HARD_ATTR
from ..reconciler.steps import RULE_SOURCE, Mention, mention_source
from ..safety_net import DEFAULT_SPANS_KEY as SAFETY_NET_KEY
from ..safety_net.component import SOURCE as SAFETY_NET_SOURCE
from ..safety_net.charting import CHARTING_CUES

CANDIDATE_SOURCE = "ner_candidate"
DROPPED_SOURCE = "dropped"
# Provenance prefix of a dropped mention the keep/drop decision restored.
DECISION_SOURCE = "decision"
DECISION_FILE = "decision.json"
# Lowest P(PHI) that restores a soft drop at every point; 1.0 restores none. 1.0 by
# default: a decision fitted on generated notes (`calibrate`) restores words the rules
# rightly dropped in real notes, whose drop rules removed no gold PHI word (binary P,
# mean of 3 seeds: nursing read/ half 72.4 -> 69.4 at 0.9, 37.7 at 0.5; sealed/ 74.1
# -> 72.7 and 42.4, recall unchanged; dev notes 94.6 -> 94.2 and 92.1) while it raises
# recall on generated notes (seed 7: 97.2 -> 97.5 at 0.9, 98.3 at 0.5). Refitted on a
# site's corrected notes (`calibrate --site`) it changed nothing at 0.9 on the site's
# other patients (docs/results.md).
DEFAULT_DECISION_THRESHOLD = 1.0
# The decision's feature of a drop that would widen entities inside it.
WIDENS_FEATURE = "widens"
# The reconciler's group of the mentions it removed (`reconciler/component.py`).
DEFAULT_CALIBRATION_PATH = DATA_DIR / "phi_calibration.json"


def from_rule(provenance: str) -> bool:
    """Whether a reconciler provenance string starts at a PHI rule: "rule" or
    "rule:<pattern id>", with or without steps after it ("rule|merge:overlap").
    Parsed by the reconciler's own `mention_source`, so the confidence component
    reads the trail exactly as the reconciler's rules do (`provenance_string`
    joins the trail with "|")."""
    trail = provenance.split("|") if provenance else []
    return mention_source(Mention(0, 0, "", trail)) == RULE_SOURCE


def dropped_evidence(doc: Doc) -> List[Tuple[Span, List[str], bool]]:
    """(span, ids of the drop rules that fired, whether one is a hard veto) of each
    mention the reconciler dropped. A group written before the reconciler recorded
    them: the rule named in the trail, and any rule's drop counts as hard."""
    group = doc.spans.get(DROPPED_KEY)
    if group is None:
        return []
    fired_lists = group.attrs.get(FIRED_RULES_ATTR)
    hard_flags = group.attrs.get(HARD_ATTR)
    rows = []
    for i, span in enumerate(group):
        if fired_lists is not None and hard_flags is not None and i < len(fired_lists):
            rows.append((span, list(fired_lists[i]), bool(hard_flags[i])))
            continue
        steps = span.id_.split("|") if span.id_ else []
        fired = [step.split(":", 1)[1] for step in steps if step.startswith("correct:")]
        rows.append((span, fired, bool(fired)))
    return rows


def widened_entities(span, entities: Sequence[Any]) -> Optional[List[Any]]:
    """The entities (anything with start/end) a dropped span overlaps, when restoring
    it would only widen them: [] (none overlaps), the entities (all inside it, none
    the same words), or None (it crosses an entity's edge or is one)."""
    over = [e for e in entities if span.start < e.end and e.start < span.end]
    for e in over:
        if e.start < span.start or span.end < e.end or (e.start, e.end) == (span.start, span.end):
            return None
    return over


def _overlaps_any(span: Span, others: Iterable[ScoredSpan]) -> bool:
    """Whether the Doc span shares a token with any of the scored spans."""
    return any(span.start < other.end and other.start < span.end for other in others)


@registry.misc("spacy-deid.PhiCalibration.v1")
def load_calibration(path: Optional[str] = None) -> Dict[str, Any]:
    """A calibration map fitted by `spacy-deid calibrate` (JSON); the packaged one by default."""
    source = Path(path) if path else DEFAULT_CALIBRATION_PATH
    if not source.exists():
        raise ValueError(f"calibration file not found: {source}")
    return srsly.read_json(source)


@Language.factory(
    "deid_confidence",
    requires=["doc.ents", "doc.spans"],
    assigns=["doc.ents", "doc.spans"],
    default_config={
        "operating_point": BALANCED,
        "recall_threshold": 0.05,
        "decision_threshold": DEFAULT_DECISION_THRESHOLD,
        "use_safety_net": True,
        "entity_cues": list(CHARTING_CUES),
        "candidates_key": DEFAULT_CANDIDATES_KEY,
        "safety_net_key": SAFETY_NET_KEY,
        "rejected_key": REJECTED_KEY,
        "scorer": {"@scorers": "spacy-deid.ConfidenceScorer.v1"},
    },
    default_score_weights={"phi_score_ece": None, "phi_score_brier": None},
)
def make_confidence(
    nlp: Language,
    name: str,
    operating_point: Union[str, float],
    recall_threshold: float,
    decision_threshold: float,
    use_safety_net: bool,
    entity_cues: List[str],
    candidates_key: str,
    safety_net_key: str,
    rejected_key: str,
    scorer: Optional[Callable],
) -> "PhiConfidence":
    """Create a `deid_confidence` component (the calibration map comes through `initialize`)."""
    return PhiConfidence(
        nlp.vocab,
        name,
        operating_point=operating_point,
        recall_threshold=recall_threshold,
        decision_threshold=decision_threshold,
        use_safety_net=use_safety_net,
        entity_cues=entity_cues,
        candidates_key=candidates_key,
        safety_net_key=safety_net_key,
        rejected_key=rejected_key,
        scorer=scorer,
    )


@registry.scorers("spacy-deid.ConfidenceScorer.v1")
def make_confidence_scorer() -> Callable[..., Dict[str, Any]]:
    """Expected calibration error and Brier score of the final entities' scores."""
    return score_confidence


def score_confidence(examples: Iterable[Example], **kwargs: Any) -> Dict[str, Any]:
    pairs = []
    for eg in examples:
        gold = [(e.start_char, e.end_char, e.label_) for e in eg.reference.ents]
        pairs.extend(
            (s.score, s.target) for s in doc_scored_spans(eg.predicted, gold) if s.in_output
        )
    if not pairs:
        return {"phi_score_ece": None, "phi_score_brier": None}
    return {
        "phi_score_ece": expected_calibration_error(reliability_table(pairs)),
        "phi_score_brier": brier_score(pairs),
    }


class PhiConfidence(SavedParts, Pipe):
    """Calibrated scores on PHI spans, and `doc.ents` at an operating point.

    operating_point: "balanced", "recall", or a threshold in 0..1.
    recall_threshold: lowest score of an added span at the recall point.
    decision_threshold: lowest P(PHI) at which the keep/drop decision restores a
        softly dropped mention as an entity (1.0: none; no effect without a decision).
    use_safety_net: add safety-net spans at the recall point (off: candidates only;
        the entity cues' spans stay, being entities).
    entity_cues: safety-net cues ("role" for "safety_net:role") whose spans are
        entities at every point: cues precise enough to release by default.
    candidates_key / safety_net_key: span groups read (absent groups are skipped).
    rejected_key: span group for the scored spans not used at this point.
    """

    def __init__(
        self,
        vocab,
        name: str = "deid_confidence",
        *,
        operating_point: OperatingPoint = BALANCED,
        recall_threshold: float = 0.05,
        decision_threshold: float = DEFAULT_DECISION_THRESHOLD,
        use_safety_net: bool = True,
        entity_cues: Sequence[str] = CHARTING_CUES,
        candidates_key: str = DEFAULT_CANDIDATES_KEY,
        safety_net_key: str = SAFETY_NET_KEY,
        rejected_key: str = REJECTED_KEY,
        scorer: Optional[Callable] = score_confidence,
    ) -> None:
        install_extensions()
        self.vocab = vocab
        self.name = name
        self.operating_point = operating_point
        self.recall_threshold = recall_threshold
        if not 0.0 <= float(decision_threshold) <= 1.0:
            raise ValueError(f"{name}: decision_threshold must be in 0..1, got {decision_threshold}")
        self.decision_threshold = float(decision_threshold)
        self.use_safety_net = use_safety_net
        self.entity_cues = entity_cues
        self.candidates_key = candidates_key
        self.safety_net_key = safety_net_key
        self.rejected_key = rejected_key
        self.scorer = scorer
        # Empty until `initialize` or `from_disk` (the component warns when it runs so).
        self.calibration = CalibrationMap()
        # The keep/drop decision: None (today's vetoes) until `initialize` or `from_disk`.
        self.decision: Optional[KeepDropDecision] = None

    @property
    def entity_cues(self) -> FrozenSet[str]:
        return self._entity_cues

    @entity_cues.setter
    def entity_cues(self, cues: Sequence[str]) -> None:
        if isinstance(cues, str) or not all(isinstance(c, str) and c for c in cues):
            raise ValueError(f"{self.name}: entity_cues must be a list of cue names, got {cues!r}")
        # Stored as the span ids the safety net writes ("safety_net:role").
        self._entity_cues = frozenset(cues)
        self._entity_ids = frozenset(f"{SAFETY_NET_SOURCE}:{cue}" for cue in cues)

    @property
    def operating_point(self) -> OperatingPoint:
        return self._operating_point

    @operating_point.setter
    def operating_point(self, value: OperatingPoint) -> None:
        self._operating_point = parse_operating_point(value)

    # --- scoring --------------------------------------------------------------

    def scored_spans(self, doc: Doc) -> List[ScoredSpan]:
        """Every entity, candidate and safety-net span of the Doc, scored."""
        token_probs = token_probabilities(doc, self.candidates_key)
        spans: List[ScoredSpan] = []
        for start, end, label, provenance in self._entities(doc):
            raw = sum(token_probs[start:end]) / max(1, end - start)
            spans.append(self._scored(start, end, label, provenance, raw, is_entity=True))
        entities = list(spans)
        taken = {(s.start, s.end) for s in spans}
        group = doc.spans.get(self.candidates_key)
        if group is not None:
            for span, raw in zip(group, group_scores(group)):
                # Only candidates on tokens no entity covers: the rest could never be
                # added, and would skew the candidates' calibration.
                if not _overlaps_any(span, entities):
                    spans.append(
                        self._scored(
                            span.start,
                            span.end,
                            span.label_,
                            CANDIDATE_SOURCE,
                            raw,
                            is_entity=False,
                        )
                    )
        spans.extend(self._dropped_spans(doc, entities, token_probs))
        for span in doc.spans.get(self.safety_net_key, []):
            if (span.start, span.end) in taken:
                continue
            provenance = span.id_ or SAFETY_NET_SOURCE
            # Two cues may propose the same words ("<surname> AND DRS ..." is a role's
            # and a coordinated name's): the first is the entity, the other a candidate.
            is_entity = provenance in self._entity_ids and not _overlaps_any(span, entities)
            scored = self._candidate(span, provenance, token_probs, is_entity=is_entity)
            spans.append(scored)
            if is_entity:
                entities.append(scored)
        return spans

    def _dropped_spans(self, doc: Doc, entities: List[ScoredSpan], token_probs) -> List[ScoredSpan]:
        """The reconciler's dropped mentions, scored.

        Hard vetoes, and every drop without a decision: NER mentions on words no
        entity covers are candidates ("ner|merge:under_rule"); a PHI pattern's
        mention is the pattern's guess judged wrong, no candidate. Soft drops with
        a decision: scored P(PHI) and, from P >= decision_threshold, most probable
        first, restored as entities (appended to `entities`): on words no entity
        covers, or widening the entities that lie inside them (an NER name merged
        under a shorter pattern hit: the entities give way, the widest label kept).
        """
        scored: List[ScoredSpan] = []
        soft = []
        for span, fired, hard in dropped_evidence(doc):
            inside = widened_entities(span, entities)
            if self.decision is not None and not hard:
                if inside is not None:
                    soft.append((span, fired, bool(inside)))
            elif inside == [] and not from_rule(span.id_):
                scored.append(self._candidate(span, f"{DROPPED_SOURCE}|{span.id_}", token_probs))
        if not soft:
            return scored
        decided = []
        for span, features in self._decision_features(doc, soft, token_probs):
            decided.append((self.decision.probability(features), span, features["raw"]))
        for p, span, raw in sorted(decided, key=lambda d: (-d[0], d[1].start, d[1].end)):
            inside = widened_entities(span, entities)
            restore = p >= self.decision_threshold < 1.0 and inside is not None
            label = span.label_
            if restore and inside:
                # The entities inside give way; one entity's label is the reconciler's word.
                label = inside[0].label if len(inside) == 1 else label
                for entity in inside:
                    entity.is_entity = False
                    entities.remove(entity)
            source = DECISION_SOURCE if restore else DROPPED_SOURCE
            one = ScoredSpan(
                span.start, span.end, label, f"{source}|{span.id_}",
                round(p, 4), round(min(1.0, max(0.0, raw)), 4), restore,
            )
            scored.append(one)
            if restore:
                entities.append(one)
        return scored

    def _decision_features(
        self, doc: Doc, soft: Sequence[Tuple[Span, List[str], bool]], token_probs
    ) -> List[Tuple[Span, Features]]:
        decision = self.decision or KeepDropDecision({}, 0.0)
        context = DecisionContext(doc, doc.spans.get(self.safety_net_key, []))
        rows = []
        for span, fired, widens in soft:
            raw = sum(token_probs[span.start : span.end]) / max(1, len(span))
            features = decision.features(context, span, raw, fired)
            if widens:
                features[WIDENS_FEATURE] = 1.0
            rows.append((span, features))
        return rows

    def decision_rows(self, doc: Doc) -> List[Tuple[Span, Features, List[Span]]]:
        """The decision's inputs on a Doc this pipeline ran on: (span, features, the
        reconciler entities restoring it would widen) of each soft drop that could
        be restored (what `spacy-deid calibrate` fits the decision on; the Doc may
        have been scored with or without a decision)."""
        entities = [
            s for s in doc.spans.get(PROVENANCE_KEY, [])
            if not s.id_.startswith((SAFETY_NET_SOURCE, DECISION_SOURCE))
        ]
        soft, inside_of = [], []
        for span, fired, hard in dropped_evidence(doc):
            inside = None if hard else widened_entities(span, entities)
            if inside is not None:
                soft.append((span, fired, bool(inside)))
                inside_of.append(inside)
        rows = self._decision_features(doc, soft, token_probabilities(doc, self.candidates_key))
        return [(span, features, inside) for (span, features), inside in zip(rows, inside_of)]

    def _candidate(
        self, span: Span, source: str, token_probs, *, is_entity: bool = False
    ) -> ScoredSpan:
        """A scored span of a span group (no reconciler entity): its raw score is its
        tokens' mean NER probability."""
        raw = sum(token_probs[span.start : span.end]) / max(1, len(span))
        return self._scored(span.start, span.end, span.label_, source, raw, is_entity=is_entity)

    def _entities(self, doc: Doc):
        """(start, end, label, provenance) of doc.ents; provenance from the reconciler's group."""
        provenance = {}
        for span in doc.spans.get(PROVENANCE_KEY, []):
            provenance[(span.start, span.end)] = span.id_
        for ent in doc.ents:
            yield ent.start, ent.end, ent.label_, provenance.get((ent.start, ent.end)) or "ner"

    def _scored(self, start, end, label, provenance, raw, *, is_entity) -> ScoredSpan:
        raw = min(1.0, max(0.0, float(raw)))
        score = self.calibration(evidence_class(provenance), raw)
        return ScoredSpan(start, end, label, provenance, round(score, 4), round(raw, 4), is_entity)

    # --- running ----------------------------------------------------------------

    def __call__(self, doc: Doc) -> Doc:
        if not self.calibration.is_fitted:
            warn_no_data(self.name, "calibration map", "scores spans with its priors only")
        spans = self.scored_spans(doc)
        chosen = select_spans(
            spans,
            self.operating_point,
            recall_threshold=self.recall_threshold,
            use_safety_net=self.use_safety_net,
        )
        chosen_ids = {id(s) for s in chosen}
        rejected = sorted(
            (s for s in spans if id(s) not in chosen_ids), key=lambda s: (s.start, s.end)
        )
        doc.ents = [Span(doc, s.start, s.end, label=s.label) for s in chosen]
        doc.spans[PROVENANCE_KEY] = self._group(doc, PROVENANCE_KEY, chosen)
        doc.spans[self.rejected_key] = self._group(doc, self.rejected_key, rejected)
        return doc

    @staticmethod
    def _group(doc: Doc, name: str, spans: List[ScoredSpan]) -> SpanGroup:
        return SpanGroup(
            doc,
            name=name,
            attrs={SCORES_ATTR: [s.score for s in spans], RAW_SCORES_ATTR: [s.raw for s in spans]},
            spans=[Span(doc, s.start, s.end, label=s.label, span_id=s.provenance) for s in spans],
        )

    # --- initialize and serialisation -------------------------------------------

    def initialize(
        self,
        get_examples=None,
        *,
        nlp: Optional[Language] = None,
        calibration: Optional[Dict[str, Any]] = None,
        decision: Optional[Dict[str, Any]] = None,
    ) -> None:
        """Set the calibration map (`spacy-deid.PhiCalibration.v1`; None: the packaged
        one) and the keep/drop decision (its JSON data; None: no decision, every
        drop rule a veto as before)."""
        if calibration is None and DEFAULT_CALIBRATION_PATH.exists():
            calibration = load_calibration()
        self.calibration = CalibrationMap.from_dict(calibration)
        self._set_decision(decision, f"initialize decision of {self.name!r}")

    # Saved as calibration.json and decision.json (null without a decision); a
    # pipeline saved before the decision existed has no decision.json and loads
    # with none (every drop a veto, as before). `exclude` takes "calibration"
    # and "decision".
    def saved_parts(self) -> Dict[str, Part]:
        return {
            "calibration": Part("calibration.json", self.calibration.to_dict),
            "decision": Part(
                DECISION_FILE,
                lambda: self.decision.to_dict() if self.decision is not None else None,
                optional=True,
            ),
        }

    def load_parts(self, values: Dict[str, Any], source: str) -> None:
        if "calibration" in values:
            self._set_calibration(values["calibration"])
        # Parts written before the decision existed have none: none is set.
        self._set_decision(values.get("decision"), source)

    def _set_calibration(self, data: Optional[Dict[str, Any]]) -> None:
        self.calibration = CalibrationMap.from_dict(data)

    def _set_decision(self, data: Optional[Dict[str, Any]], source: str) -> None:
        self.decision = None if data is None else KeepDropDecision.from_dict(data, source)



# --- adding the components to a trained pipeline ------------------------------------


def add_confidence_pipes(nlp: Language) -> List[str]:
    """Add `deid_ner_scores`, `deid_safety_net` and `deid_confidence` where they are
    missing (after `ner`; after the reconciler, before `deid_release`), and
    `deid_lexicon` for the safety net, initialised with the packaged data.
    Returns the names added."""
    added: List[str] = []
    names = nlp.pipe_names
    if "deid_ner_scores" not in names and "ner" in names:
        nlp.add_pipe("deid_ner_scores", after="ner")
        added.append("deid_ner_scores")
    anchor = next(
        (
            n
            for n in ("deid_reconciler", "deid_phi_rules", "deid_ner_scores", "ner")
            if n in nlp.pipe_names
        ),
        None,
    )
    where = {"after": anchor} if anchor else {}
    if "deid_lexicon" not in names:
        # The safety net reads its job-title and institution tags (token attributes only).
        nlp.add_pipe("deid_lexicon", **where)
        added.append("deid_lexicon")
        where = {"after": "deid_lexicon"}
    if "deid_safety_net" not in names:
        nlp.add_pipe("deid_safety_net", **where)
        added.append("deid_safety_net")
    if "deid_confidence" not in names:
        nlp.add_pipe(
            "deid_confidence",
            after="deid_safety_net" if "deid_safety_net" in nlp.pipe_names else anchor,
        )
        added.append("deid_confidence")
    for name in added:
        nlp.get_pipe(name).initialize(nlp=nlp)
    return added


def load_at_operating_point(
    model: Union[str, Path], operating_point: Optional[OperatingPoint] = None
) -> Language:
    """Load a pipeline; with an operating point, set it on `deid_confidence` (adding
    the confidence components with the packaged calibration where the pipeline has none)."""
    import spacy

    if operating_point is None:
        return spacy.load(model)
    point = parse_operating_point(operating_point)
    nlp = spacy.load(model)
    if "deid_confidence" not in nlp.pipe_names:
        add_confidence_pipes(nlp)
    nlp.get_pipe("deid_confidence").operating_point = point
    return nlp
