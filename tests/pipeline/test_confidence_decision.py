"""The keep/drop decision of deid_confidence (pipeline/confidence/decision.py):
its features, its fit, a soft drop restored or not as the weights say, hard
vetoes, serialisation with and without decision.json, and `spacy-deid
calibrate` fitting it (with a site's notes too)."""
import re

import pytest
import spacy
from spacy.tokens import Span
from typer.testing import CliRunner

from spacy_deid import labels
from spacy_deid.cli import app
from spacy_deid.evaluation.calibration import fit_keep_drop
from spacy_deid.evaluation.measures import mention_tokens
from spacy_deid.extensions import DROPPED_KEY, PROVENANCE_KEY, set_token_feature_values
from spacy_deid.pipeline.confidence.component import (
    DECISION_FILE,
    DEFAULT_DECISION_THRESHOLD,
    PhiConfidence,
    dropped_evidence,
)
from spacy_deid.pipeline.confidence.decision import (
    DecisionContext,
    KeepDropDecision,
    mention_features,
    note_casing,
    trail_features,
)
from spacy_deid.pipeline.confidence.reliability import units
from spacy_deid.pipeline.reconciler.component import FIRED_RULES_ATTR, HARD_ATTR
from spacy_deid.pipeline.reconciler.rules import make_reconciler_rules

NLP = spacy.blank("en")


def dropped_doc(text, drops):
    """A Doc with a dropped group: drops = (start, end, label, provenance, fired, hard)."""
    doc = NLP.make_doc(text)
    group = [Span(doc, s, e, label=lab, span_id=prov) for s, e, lab, prov, _, _ in drops]
    doc.spans[DROPPED_KEY] = group
    doc.spans[DROPPED_KEY].attrs[FIRED_RULES_ATTR] = [list(d[4]) for d in drops]
    doc.spans[DROPPED_KEY].attrs[HARD_ATTR] = [d[5] for d in drops]
    return doc


def component(weights=None, bias=-2.0, threshold=0.5):
    pipe = PhiConfidence(NLP.vocab, decision_threshold=threshold)
    if weights is not None:
        pipe.decision = KeepDropDecision(weights, bias)
    return pipe


# --- features ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "text,expected",
    [
        ("Seen by Dr Lee today and Anna Smith came too", "mixed"),
        ("SEEN BY DR LEE TODAY AND ANNA SMITH CAME", "upper"),
        ("seen by dr lee today and anna smith came", "lower"),
    ],
)
def test_note_casing(text, expected):
    assert note_casing(NLP.make_doc(text)) == expected


@pytest.mark.parametrize(
    "provenance,fired,expected",
    [
        ("ner|correct:a", ["a", "b"], {"source:ner", "rule:a", "rule:b"}),
        ("ner|correct:a", [], {"source:ner", "rule:a"}),  # a trail from before fired_rules
        ("rule:phone|merge:under_ner", [], {"source:rule", "source:rule:phone", "step:merge:under_ner"}),
        ("ner|complete:absorbed:rule:x|correct:c", ["c"], {"source:ner", "step:complete:absorbed", "rule:c"}),
        ("ner|merge:under_rule", [], {"source:ner", "step:merge:under_rule"}),
    ],
)
def test_trail_features(provenance, fired, expected):
    assert set(trail_features(provenance, fired)) == expected


def test_mention_features_read_tags_sections_context_and_shape():
    doc = NLP.make_doc("spoke with son rufus today about plan")
    set_token_feature_values(doc, "lexicon", [None, None, None, "FIRST", None, None, None])
    set_token_feature_values(doc, "section_name", ["social"] * len(doc))
    span = Span(doc, 3, 4, label=labels.PATIENT, span_id="ner|correct:uncased")
    features = mention_features(DecisionContext(doc), span, 0.7, ["uncased"], buckets=8, window=2)
    assert features["raw"] == 0.7
    expected = {"tag:FIRST", "section:social", "case:lower", "span_case:lower", "label:PATIENT",
                "length:1", "rule:uncased", "source:ner"}
    assert expected <= set(features)
    assert len([f for f in features if f.startswith("before:")]) <= 2
    assert len([f for f in features if f.startswith("after:")]) <= 2
    assert any(f.startswith("before:") for f in features) and any(f.startswith("after:") for f in features)
    # Nothing of the note's words in a feature name: only ids, categories and buckets.
    assert not any(word in name for name in features for word in ("rufus", "spoke", "today"))
    untagged = mention_features(DecisionContext(doc), Span(doc, 4, 5, label=labels.PATIENT), 0.1, [])
    assert "tag:FIRST" not in untagged and "section:social" in untagged


def test_units_agree_with_the_evaluations_binary_tokens():
    text = "Dr. O'Brien-Lee, 4/17/2094 (x2) a_b"
    assert units(text, 0, len(text)) == mention_tokens(text, 0, len(text))


# --- the logistic regression --------------------------------------------------------


def table(rows):
    """(features, target) rows from (feature names, raw, target)."""
    return [({**{n: 1.0 for n in names}, "raw": raw}, target) for names, raw, target in rows]


SYNTHETIC = table(
    [(["rule:a", "tag:FIRST"], 0.8, 1.0)] * 12
    + [(["rule:a"], 0.6, 1.0)] * 4
    + [(["rule:b"], 0.8, 0.0)] * 16
    + [(["rule:a"], 0.1, 0.0)] * 2
)


@pytest.mark.parametrize(
    "names,raw,phi",
    [
        (["rule:a", "tag:FIRST"], 0.8, True),
        (["rule:b"], 0.8, False),
        (["rule:b", "rule:unknown"], 0.9, False),  # an unseen rule weighs nothing
    ],
)
def test_fit_on_a_tiny_table_learns_which_rule_to_trust(names, raw, phi):
    decision = KeepDropDecision.fit(SYNTHETIC)
    p = decision.probability({**{n: 1.0 for n in names}, "raw": raw})
    assert (p >= 0.5) is phi
    assert decision.fitted_on["rows"] == len(SYNTHETIC) and decision.fitted_on["phi_rows"] == 16


def test_fit_with_one_class_is_a_constant_below_one_half():
    decision = KeepDropDecision.fit(table([(["rule:b"], 0.9, 0.0)] * 5))
    assert decision.weights == {} and decision.probability({"rule:b": 1.0}) < 0.5


def test_fit_refuses_no_rows():
    with pytest.raises(ValueError, match="no dropped mentions"):
        KeepDropDecision.fit([])


@pytest.mark.parametrize("with_site,overruled", [(False, False), (True, True)])
def test_a_sites_corrections_overrule_a_rule(with_site, overruled):
    # Generated notes: rule x drops words that are not PHI; the site's corrections
    # say its drops there are PHI. Site rows weigh like the generated ones together.
    generated = table([(["rule:x"], 0.5, 0.0)] * 40 + [(["rule:y"], 0.5, 1.0)] * 10)
    site = table([(["rule:x"], 0.5, 1.0)] * 4) if with_site else []
    decision = fit_keep_drop(generated, site)
    assert (decision.probability({"rule:x": 1.0, "raw": 0.5}) >= 0.5) is overruled
    assert decision.fitted_on["site_rows"] == len(site)


def test_fit_keep_drop_without_rows_is_no_decision():
    assert fit_keep_drop([], []) is None


# --- the component: restore, or not -------------------------------------------------

TEXT = "Seen with rufus and kettering today"
SOFT = (2, 3, labels.PATIENT, "ner|correct:uncased", ["uncased"], False)
HARD = (4, 5, labels.CITY, "ner|correct:town", ["town"], True)
RULE_SOFT = (2, 3, labels.PATIENT, "rule:relative|correct:uncased", ["uncased"], False)


@pytest.mark.parametrize(
    "drops,weights,threshold,restored,candidates",
    [
        # The weights trust the rule's drops: restored, provenance "decision|...".
        ([SOFT], {"rule:uncased": 5.0}, 0.5, ["decision|ner|correct:uncased"], []),
        # The weights back the rule: stays dropped, a candidate scored P.
        ([SOFT], {"rule:uncased": -5.0}, 0.5, [], ["dropped|ner|correct:uncased"]),
        # The threshold is the config's; 1.0 restores nothing.
        ([SOFT], {"rule:uncased": 2.5}, 0.9, [], ["dropped|ner|correct:uncased"]),
        ([SOFT], {"rule:uncased": 99.0}, 1.0, [], ["dropped|ner|correct:uncased"]),
        ([SOFT], {"rule:uncased": 2.5}, 0.5, ["decision|ner|correct:uncased"], []),
        # A hard veto is never restored, whatever the weights; its NER mention is a
        # candidate as before.
        ([HARD], {"rule:town": 9.0}, 0.5, [], ["dropped|ner|correct:town"]),
        # A pattern's soft drop is evidence too.
        ([RULE_SOFT], {"rule:uncased": 5.0}, 0.5, ["decision|rule:relative|correct:uncased"], []),
        # No decision: today's behaviour (the pattern's drop is no candidate).
        ([SOFT, HARD], None, 0.5, [], ["dropped|ner|correct:uncased", "dropped|ner|correct:town"]),
        ([RULE_SOFT], None, 0.5, [], []),
    ],
)
def test_soft_drops_are_restored_as_the_weights_say(drops, weights, threshold, restored, candidates):
    doc = dropped_doc(TEXT, drops)
    spans = component(weights, threshold=threshold).scored_spans(doc)
    assert [s.provenance for s in spans if s.is_entity] == restored
    assert sorted(s.provenance for s in spans if not s.is_entity) == sorted(candidates)


def test_restored_drops_become_entities_at_the_balanced_point():
    doc = dropped_doc(TEXT, [SOFT, HARD])
    doc = component({"rule:uncased": 5.0})(doc)
    assert [(e.text, e.label_) for e in doc.ents] == [("rufus", labels.PATIENT)]
    assert [s.id_ for s in doc.spans[PROVENANCE_KEY]] == ["decision|ner|correct:uncased"]


def test_overlapping_soft_drops_restore_the_more_probable_only():
    doc = dropped_doc(TEXT, [
        (2, 3, labels.PATIENT, "ner|correct:a", ["a"], False),
        (2, 5, labels.PATIENT, "ner|merge:overlap", [], False),
    ])
    spans = component({"rule:a": 4.0, "step:merge:overlap": 6.0}).scored_spans(doc)
    assert [(s.start, s.end) for s in spans if s.is_entity] == [(2, 5)]


@pytest.mark.parametrize(
    "entity,dropped,weights,entities",
    [
        # The same words as an entity, or crossing its edge: never restored.
        ((2, 3), (2, 3), {"rule:uncased": 9.0}, [(2, 3, labels.DOCTOR, "ner")]),
        ((3, 5), (2, 4), {"rule:uncased": 9.0}, [(3, 5, labels.DOCTOR, "ner")]),
        # A wider drop over an entity: it widens the entity (the entity's label) ...
        ((3, 4), (2, 5), {"rule:uncased": 2.0, "widens": 2.0},
         [(2, 5, labels.DOCTOR, "decision|ner|correct:uncased")]),
        # ... where the weights say so only.
        ((3, 4), (2, 5), {"rule:uncased": 2.0, "widens": -9.0}, [(3, 4, labels.DOCTOR, "ner")]),
    ],
)
def test_a_drop_over_an_entity_only_widens_it(entity, dropped, weights, entities):
    doc = dropped_doc(TEXT, [(*dropped, labels.PATIENT, "ner|correct:uncased", ["uncased"], False)])
    doc.ents = [Span(doc, *entity, label=labels.DOCTOR)]
    spans = component(weights).scored_spans(doc)
    assert [(s.start, s.end, s.label, s.provenance) for s in spans if s.is_entity] == entities


@pytest.mark.parametrize(
    "provenance,fired,hard",
    [("ner|correct:a", ["a"], True), ("ner|merge:under_rule", [], False)],
)
def test_dropped_groups_written_before_fired_rules_read_the_trail(provenance, fired, hard):
    doc = NLP.make_doc(TEXT)
    doc.spans[DROPPED_KEY] = [Span(doc, 2, 3, label=labels.PATIENT, span_id=provenance)]
    assert [(f, h) for _, f, h in dropped_evidence(doc)] == [(fired, hard)]


# --- the reconciler records every drop rule that fired --------------------------------


def reconciler(extra_rules):
    data = make_reconciler_rules()
    nlp = spacy.blank("en")
    pipe = nlp.add_pipe("deid_reconciler", config={"reconcile": False, "propagate": False})
    pipe.initialize(rules={"rules": extra_rules, "lists": data["lists"]})
    return nlp, pipe


def shape_rule(rule_id, pattern, **more):
    return {"id": rule_id, "step": "correct", "kind": "shape", "labels": [labels.PATIENT],
            "pattern": pattern, "match": "in", "relabel": None, **more}


@pytest.mark.parametrize(
    "word,fired,hard",
    [
        ("zqb", ["test_lower", "test_starts_z", "test_no_vowel"], True),  # one of them is hard
        ("zqa", ["test_lower", "test_starts_z"], False),
        ("Za", [], None),  # no rule fires: kept
    ],
)
def test_the_reconciler_records_all_drop_rules_that_fired(word, fired, hard):
    nlp, pipe = reconciler([
        shape_rule("test_lower", "^[a-z]+$", hard=False),
        shape_rule("test_starts_z", "^z", hard=False),
        shape_rule("test_no_vowel", "^[^aeiouAEIOU]+$"),  # no "hard": a veto
    ])
    doc = nlp.make_doc(f"Seen with {word} today")
    doc.ents = [Span(doc, 2, 3, label=labels.PATIENT)]
    doc = pipe(doc)
    group = doc.spans[DROPPED_KEY]
    ours = [(list(f), h) for s, f, h in zip(group, group.attrs[FIRED_RULES_ATTR], group.attrs[HARD_ATTR])
            if s.start == 2]
    assert ours == ([] if hard is None else [(fired, hard)])


@pytest.mark.faults
@pytest.mark.parametrize("bad", ["yes", 1, None])
def test_a_rule_with_a_bad_hard_flag_is_refused(bad):
    with pytest.raises(ValueError, match="hard must be true or false"):
        reconciler([shape_rule("test_bad_hard", "^x", hard=bad)])


def test_the_packaged_drop_rules_all_say_whether_they_are_hard():
    rules = make_reconciler_rules()["rules"]
    drops = [r for r in rules if r.get("relabel") is None]
    assert drops and all(isinstance(r.get("hard"), bool) for r in drops)
    assert not any("hard" in r for r in rules if r.get("relabel") is not None)


# --- serialisation --------------------------------------------------------------------


def confidence_pipeline(decision=None):
    nlp = spacy.blank("en")
    pipe = nlp.add_pipe("deid_confidence")
    pipe.initialize(decision=decision)
    return nlp


DECISION = {"bias": -1.5, "weights": {"rule:a": 2.0, "raw": 1.0}, "buckets": 32, "window": 1}


@pytest.mark.parametrize("decision", [DECISION, None])
def test_round_trip_through_disk_with_and_without_a_decision(tmp_path, decision):
    nlp = confidence_pipeline(decision)
    nlp.to_disk(tmp_path / "p")
    assert (tmp_path / "p" / "deid_confidence" / DECISION_FILE).exists() is (decision is not None)
    loaded = spacy.load(tmp_path / "p").get_pipe("deid_confidence")
    if decision is None:
        assert loaded.decision is None
    else:
        assert loaded.decision.to_dict()["weights"] == DECISION["weights"]
        assert (loaded.decision.bias, loaded.decision.buckets, loaded.decision.window) == (-1.5, 32, 1)
    copy = PhiConfidence(NLP.vocab).from_bytes(nlp.get_pipe("deid_confidence").to_bytes())
    assert (copy.decision is None) is (decision is None)


def test_a_pipeline_saved_before_the_decision_loads_without_one(tmp_path):
    # As saved before: calibration.json only, and a config without decision_threshold.
    nlp = confidence_pipeline(DECISION)
    nlp.to_disk(tmp_path / "p")
    (tmp_path / "p" / "deid_confidence" / DECISION_FILE).unlink()
    config = (tmp_path / "p" / "config.cfg").read_text()
    (tmp_path / "p" / "config.cfg").write_text(re.sub(r"decision_threshold = .*\n", "", config))
    loaded = spacy.load(tmp_path / "p").get_pipe("deid_confidence")
    assert loaded.decision is None and loaded.decision_threshold == DEFAULT_DECISION_THRESHOLD


def test_saving_without_a_decision_removes_an_old_decision_file(tmp_path):
    confidence_pipeline(DECISION).to_disk(tmp_path / "p")
    confidence_pipeline(None).to_disk(tmp_path / "p")
    assert not (tmp_path / "p" / "deid_confidence" / DECISION_FILE).exists()


@pytest.mark.faults
@pytest.mark.parametrize(
    "bad,message",
    [
        ({"weights": {}}, "'weights' and 'bias'"),
        ({"bias": 0, "weights": {"a": "x"}}, "map feature names to numbers"),
        ({"bias": 0, "weights": {}, "version": 9}, "version"),
        ({"bias": 0, "weights": {}, "buckets": 0}, "buckets"),
    ],
)
def test_a_bad_decision_is_refused(tmp_path, bad, message):
    nlp = confidence_pipeline(None)
    nlp.to_disk(tmp_path / "p")
    (tmp_path / "p" / "deid_confidence" / DECISION_FILE).write_text(__import__("json").dumps(bad))
    with pytest.raises(ValueError, match=message):
        spacy.load(tmp_path / "p")


@pytest.mark.faults
@pytest.mark.parametrize("bad", [-0.1, 1.5])
def test_a_bad_decision_threshold_is_refused(bad):
    with pytest.raises(ValueError, match="decision_threshold"):
        PhiConfidence(NLP.vocab, decision_threshold=bad)


# --- spacy-deid calibrate fits it -----------------------------------------------------


@pytest.fixture(scope="module")
def rules_pipeline_with_a_soft_rule(tmp_path_factory):
    """A pipeline without NER whose reconciler drops every date softly: each
    generated note then has soft drops to learn from."""
    from spacy_deid.tokenizer import blank_deid

    nlp = blank_deid()
    for name in ("deid_sections", "deid_lexicon", "deid_phi_rules", "deid_reconciler"):
        nlp.add_pipe(name)
    nlp.initialize()
    data = make_reconciler_rules()
    soft = {"id": "test_no_dates", "step": "correct", "kind": "shape", "labels": [labels.DATE],
            "pattern": r"\d", "match": "in", "relabel": None, "hard": False}
    nlp.get_pipe("deid_reconciler").initialize(
        rules={"rules": [soft] + data["rules"], "lists": data["lists"]})
    path = tmp_path_factory.mktemp("decision") / "model"
    nlp.to_disk(path)
    notes = path.parent / "notes"
    result = CliRunner().invoke(app, ["synth", str(notes), "--n", "4", "--seed", "5", "--quiet"])
    assert result.exit_code == 0, result.output
    return path, notes


@pytest.mark.parametrize("options,site_rows", [([], False), (["--site", "NOTES"], True)])
def test_calibrate_writes_the_decision(rules_pipeline_with_a_soft_rule, tmp_path, options, site_rows):
    model, notes = rules_pipeline_with_a_soft_rule
    options = [str(notes) if o == "NOTES" else o for o in options]
    result = CliRunner().invoke(app, ["calibrate", str(model), str(notes), str(tmp_path / "out"), *options])
    assert result.exit_code == 0, result.output
    saved = tmp_path / "out" / "deid_confidence" / DECISION_FILE
    assert saved.exists()
    # Restoring is on where the threshold is below 1.0 (the default restores nothing).
    nlp = spacy.load(tmp_path / "out", config={"components": {"deid_confidence": {"decision_threshold": 0.5}}})
    decision = nlp.get_pipe("deid_confidence").decision
    default = spacy.load(tmp_path / "out")
    assert decision.fitted_on["rows"] > 0 and (decision.fitted_on["site_rows"] > 0) is site_rows
    # The dates the soft rule dropped are PHI in the generated notes: the decision
    # learns to overrule it, and the calibrated pipeline releases them no more.
    from spacy_deid.evaluation.systems import read_notes

    doc = nlp(read_notes(notes)[0].text)
    restored = [s for s in doc.spans[PROVENANCE_KEY] if s.id_.startswith("decision|")]
    assert any(s.label_ == labels.DATE and "correct:test_no_dates" in s.id_ for s in restored)
    assert {(s.start, s.end) for s in restored} <= {(e.start, e.end) for e in doc.ents}
    default_doc = default(read_notes(notes)[0].text)
    assert not any(s.id_.startswith("decision|") for s in default_doc.spans[PROVENANCE_KEY])


def test_calibrate_no_decision(rules_pipeline_with_a_soft_rule, tmp_path):
    model, notes = rules_pipeline_with_a_soft_rule
    result = CliRunner().invoke(
        app, ["calibrate", str(model), str(notes), str(tmp_path / "out"), "--no-decision"])
    assert result.exit_code == 0, result.output
    assert not (tmp_path / "out" / "deid_confidence" / DECISION_FILE).exists()
