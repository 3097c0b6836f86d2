"""Issue 25, tenth step: a pain or mood score out of ten ("CP 3/10") and a
count of positive culture bottles ("2/4 bottles") have a date's shape but are
values. Positives and negatives; all strings invented."""
import pytest

from spacy_deid import labels
from spacy_deid.pipeline.reconciler.rules import make_reconciler_rules


@pytest.fixture(scope="module")
def nlp(reconciler_nlp_with):
    return reconciler_nlp_with({})


@pytest.mark.parametrize("text, mention, kept", [
    # scores on the ten-point scale
    ("Nitro given, CP now 3/10 and easing.", "3/10", False),
    ("She reports her pain as 4/10 today.", "4/10", False),
    ("Describes his mood as low and rates it 2/10.", "2/10", False),
    ("PT C/O DISCOMFORT 6/10 WITH TURNS.", "6/10", False),
    # counts of culture bottles
    ("Micro called: GPC in 2/4 bottles.", "2/4", False),
    ("Blood cx 3/4 positive, ID aware.", "3/4", False),
    ("BCX 1/2 positive for GPC.", "1/2", False),
    # dates beside the same words stay dates
    ("Chest pain since admission, last echo dated 3/10.", "3/10", True),
    ("Cx from 6/11 grew yeast.", "6/11", True),
    ("Blood cultures on 3/4 negative.", "3/4", True),
    ("Seen in clinic 3/10 for follow-up.", "3/10", True),
    ("Cx sent 11/4.", "11/4", True),
    ("Pain clinic visit 4/12.", "4/12", True),
])
def test_a_score_or_a_bottle_count_is_no_date(nlp, entities_from_ner, text, mention, kept):
    dates = [text for text, _ in entities_from_ner(nlp, text, mention, labels.DATE)]
    assert dates == ([mention] if kept else [])


def test_the_cue_lists_are_shipped():
    lists = make_reconciler_rules()["lists"]
    assert {"pain", "cp", "rates"} <= set(lists["pain_cues"])
    assert {"cx", "bottles", "blood cx"} <= set(lists["culture_cues"])
    assert {"from", "on"} <= set(lists["date_prepositions"])
