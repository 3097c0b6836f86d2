"""The registered spaCy scorer, through spacy.blank("en") Examples."""
import pytest
import spacy
from spacy.training import Example

from spacy_deid import labels
from spacy_deid.evaluation.scorer import score_deid

TEXT = "Seen Wednesday, 4/17/94 by Dr. Ann Lee at MGH."


def make_example(nlp, gold, predicted):
    reference = nlp.make_doc(TEXT)
    reference.ents = [reference.char_span(s, e, label=l) for s, e, l in gold]
    doc = nlp.make_doc(TEXT)
    doc.ents = [doc.char_span(s, e, label=l) for s, e, l in predicted]
    return Example(doc, reference)


@pytest.fixture
def nlp():
    return spacy.blank("en")


def test_scorer_resolves_from_the_registry():
    scorer = spacy.registry.scorers.get("spacy-deid.DeidScorer.v1")()
    assert scorer is score_deid


def test_scorer_keys_and_values(nlp):
    gold = [(5, 23, labels.DATE), (31, 38, labels.DOCTOR), (42, 45, labels.HOSPITAL)]
    predicted = [(5, 14, labels.DATE), (16, 23, labels.DATE), (31, 38, labels.PATIENT),
                 (42, 45, labels.HOSPITAL)]
    scores = score_deid([make_example(nlp, gold, predicted)])
    # strict: only MGH right: tp 1, fp 3, fn 2.
    assert scores["deid_strict_p"] == pytest.approx(0.25)
    assert scores["deid_strict_r"] == pytest.approx(1 / 3)
    assert scores["deid_strict_f"] == pytest.approx(2 / 7)
    # token: Wednesday 4 17 94 + MGH right, Ann Lee wrong type: tp 5, fp 2, fn 2.
    assert scores["deid_token_p"] == pytest.approx(5 / 7)
    assert scores["deid_token_r"] == pytest.approx(5 / 7)
    # binary token: every gold token found.
    assert scores["deid_binary_token_r"] == 1.0
    assert scores["deid_binary_strict_p"] == pytest.approx(0.5)
    # HIPAA (i2b2 2014): gold DATE only; predicted 2 DATE pieces + PATIENT.
    assert scores["deid_hipaa_strict_r"] == 0.0
    assert scores["deid_hipaa_binary_token_r"] == 1.0
    assert scores["deid_safe_harbor_strict_f"] == 0.0
    assert scores["deid_strict_per_type"][labels.HOSPITAL] == {"p": 1.0, "r": 1.0, "f": 1.0}
    # spaCy's own NER keys stay, so default score weights keep working.
    assert scores["ents_f"] == pytest.approx(scores["deid_strict_f"])
    for key, value in scores.items():
        if key.startswith("deid_") and not key.endswith("per_type"):
            assert isinstance(value, float), key


def test_scorer_undefined_values_are_zero_like_spacy(nlp):
    scores = score_deid([make_example(nlp, [], [])])
    assert scores["deid_strict_f"] == 0.0 and scores["deid_binary_token_r"] == 0.0


def test_scorer_in_a_pipeline_config_reaches_nlp_evaluate(nlp):
    ruler = nlp.add_pipe(
        "entity_ruler", config={"scorer": {"@scorers": "spacy-deid.DeidScorer.v1"}}
    )
    ruler.add_patterns([{"label": labels.HOSPITAL, "pattern": "MGH"}])
    reference = nlp.make_doc(TEXT)
    reference.ents = [reference.char_span(42, 45, label=labels.HOSPITAL),
                      reference.char_span(31, 38, label=labels.DOCTOR)]
    scores = nlp.evaluate([Example(nlp.make_doc(TEXT), reference)])
    assert scores["deid_strict_p"] == 1.0
    assert scores["deid_strict_r"] == 0.5
    assert scores["deid_binary_token_r"] == pytest.approx(1 / 3)
