"""Cumulative ablation steps and rows."""
import pytest
import spacy

from spacy_deid import labels
from spacy_deid.corpus import Note, PhiMention
from spacy_deid.evaluation.ablation import (
    AblationError,
    ablation_markdown,
    ablation_steps,
    run_ablation,
)

PIPES = ["splitter", "ner", "rules", "reconciler"]


def test_default_steps_are_one_per_component_not_kept():
    assert ablation_steps(PIPES, None, ["splitter"]) == [["ner"], ["rules"], ["reconciler"]]


def test_given_steps_are_kept_as_groups():
    steps = [["ner"], ["rules", "reconciler"]]
    assert ablation_steps(PIPES, steps, ["splitter"]) == steps


@pytest.mark.parametrize(
    "steps,keep,message",
    [
        ([["ner", "nope"]], [], "not in the pipeline: nope"),
        (None, ["gone"], "not in the pipeline: gone"),
        ([["ner"], ["ner"]], [], "more than one step: ner"),
        (None, PIPES, "nothing to ablate"),
    ],
)
def test_bad_steps_are_errors(steps, keep, message):
    with pytest.raises(AblationError, match=message):
        ablation_steps(PIPES, steps, keep)


def test_rows_add_components_and_test_against_the_previous_row():
    text = "Seen 4/17/94 at MGH by Dr. Lee."
    gold = [
        Note(
            f"n{i}",
            text,
            [PhiMention(5, 12, labels.DATE), PhiMention(16, 19, labels.HOSPITAL)],
        )
        for i in range(4)
    ]
    nlp = spacy.blank("en")
    nlp.add_pipe("entity_ruler", name="dates").add_patterns(
        [{"label": labels.DATE, "pattern": [{"TEXT": {"REGEX": r"^\d+/\d+/\d+$"}}]}]
    )
    nlp.add_pipe("entity_ruler", name="places").add_patterns(
        [{"label": labels.HOSPITAL, "pattern": "MGH"}]
    )
    nlp.add_pipe("entity_ruler", name="noise").add_patterns(
        [{"label": labels.PATIENT, "pattern": "Lee"}]
    )
    rows = run_ablation(nlp, gold, keep=["dates"], iterations=99, seed=0)
    assert [row.enabled for row in rows] == [
        ["dates", "places"],
        ["dates", "places", "noise"],
    ]
    assert [(r.counts.tp, r.counts.fp, r.counts.fn) for r in rows] == [(8, 0, 0), (8, 4, 0)]
    assert rows[0].significance == {}
    assert rows[1].significance["p"].difference == pytest.approx(8 / 12 - 1)
    # Every document changes the same way: no shuffle can beat the observed gap.
    assert rows[1].significance["p"].s <= 0.2
    table = ablation_markdown(rows)
    assert "| dates, places | 100.00 | 100.00 | 100.00 | – | – | – |" not in table  # kept: step only
    assert "| places | 100.00 | 100.00 | 100.00 | – | – | – |" in table
    assert "| + noise | 66.67 | 100.00 | 80.00 |" in table


def test_boolean_settings_are_steps_false_before_and_true_from_their_row():
    text = "Seen 4/17/94 at MGH by Dr. Lee."
    gold = [Note(f"n{i}", text, [PhiMention(27, 30, labels.DOCTOR)]) for i in range(3)]
    nlp = spacy.blank("en")
    nlp.add_pipe("entity_ruler", name="dates").add_patterns(
        [{"label": labels.DATE, "pattern": [{"TEXT": {"REGEX": r"^\d+/\d+/\d+$"}}]}]
    )
    # span_ruler reads annotate_ents from the config (it is not saved with the patterns).
    nlp.add_pipe("span_ruler", name="names", config={"annotate_ents": False}).add_patterns(
        [{"label": labels.DOCTOR, "pattern": "Lee"}]
    )
    setting = "components.names.annotate_ents"
    rows = run_ablation(nlp, gold, steps=[["dates", "names"], [setting]], iterations=20)
    assert [row.settings for row in rows] == [{setting: False}, {setting: True}]
    assert [row.enabled for row in rows] == [["dates", "names"], ["dates", "names"]]
    # Off: the names stay in doc.spans and the dates are wrong; on: the names
    # replace doc.ents (span_ruler overwrites by default).
    assert [(r.counts.tp, r.counts.fp, r.counts.fn) for r in rows] == [(0, 3, 3), (3, 0, 0)]


@pytest.mark.parametrize(
    "item,message",
    [
        ("components.nope.merge", "a setting must be components.NAME.SETTING"),
        ("components.first.phrase_matcher_attr", "only true/false settings"),
    ],
)
def test_bad_settings_are_errors(item, message):
    nlp = spacy.blank("en")
    nlp.add_pipe("entity_ruler", name="first")
    with pytest.raises(AblationError, match=message):
        ablation_steps(nlp.pipe_names, [["first"], [item]], [], nlp.config)
