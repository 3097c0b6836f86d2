"""A spaCy scorer reporting the de-identification measures from Examples.

Set it as the scorer of the component that writes doc.ents, and `spacy
evaluate` and training-time evaluation report these keys (fractions in 0-1,
0.0 where undefined, as spaCy does); `[training.score_weights]` can target
any float key, e.g. `deid_strict_f` or `deid_binary_token_r`:

    [components.ner]
    factory = "ner"
    scorer = {"@scorers":"spacy-deid.DeidScorer.v1"}

Keys: `deid_{level}_{p,r,f}` for all subtypes, `deid_hipaa_{level}_{p,r,f}`
for the i2b2 2014 HIPAA subset and `deid_safe_harbor_{level}_{p,r,f}` for
Safe Harbor, levels strict, relaxed, token, binary_token, binary_strict; plus
`deid_strict_per_type` and spaCy's own `ents_p`, `ents_r`, `ents_f`,
`ents_per_type`, so the default NER score weights keep working.
"""
from typing import Any, Callable, Dict, Iterable, List

from spacy.scorer import get_ner_prf
from spacy.training import Example
from spacy.util import registry

from .. import labels
from ..corpus import doc_to_note
from .measures import ALL_SUBTYPES, LEVELS, STRICT
from .pairing import NotePair, pair_notes
from .scores import Evaluation

# Score-key prefix of each label set: deid (all subtypes), deid_hipaa (the
# official i2b2 2014 HIPAA subset), deid_safe_harbor, ... for the other subsets.
KEY_PREFIXES = {
    ALL_SUBTYPES: "deid",
    **{
        name: "deid_hipaa" if subset == labels.HIPAA_I2B2_2014
        else "deid_" + name.replace("-", "_")
        for name, subset in labels.HIPAA_SUBSETS.items()
    },
}


def examples_to_pairs(examples: Iterable[Example]) -> List[NotePair]:
    """Reference and predicted doc.ents of each Example, paired by position."""
    gold, predicted = [], []
    for index, example in enumerate(examples):
        note_id = f"example-{index}"  # positions, not doc ids: ids may repeat across files
        gold.append(doc_to_note(example.reference, note_id=note_id))
        predicted.append(doc_to_note(example.predicted, note_id=note_id))
    return pair_notes(gold, predicted)


def _value(value):
    return 0.0 if value is None else value


def score_deid(examples: Iterable[Example], **kwargs: Any) -> Dict[str, Any]:
    """The scores dict: deid_* keys plus spaCy's ents_* keys."""
    examples = list(examples)
    evaluation = Evaluation(examples_to_pairs(examples))
    scores: Dict[str, Any] = dict(get_ner_prf(examples))
    for set_name, prefix in KEY_PREFIXES.items():
        for level in LEVELS:
            counts = evaluation.overall(level, set_name)
            scores[f"{prefix}_{level}_p"] = _value(counts.precision)
            scores[f"{prefix}_{level}_r"] = _value(counts.recall)
            scores[f"{prefix}_{level}_f"] = _value(counts.f1)
    scores["deid_strict_per_type"] = {
        subtype: {"p": _value(c.precision), "r": _value(c.recall), "f": _value(c.f1)}
        for subtype, c in evaluation.per_subtype(STRICT).items()
        if c.gold or c.predicted
    }
    return scores


@registry.scorers("spacy-deid.DeidScorer.v1")
def make_deid_scorer() -> Callable[..., Dict[str, Any]]:
    return score_deid
