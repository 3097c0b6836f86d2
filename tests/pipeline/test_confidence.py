"""Span scores (deid_ner_scores + deid_confidence), calibration, operating points,
their serialisation, and `deidentify --operating-point` on a tiny trained pipeline."""

import pytest
import spacy
from spacy.tokens import Doc, DocBin, Span
from spacy.training import Example
from spacy.util import fix_random_seed
from typer.testing import CliRunner

from spacy_deid import labels
from spacy_deid.cli import app
from spacy_deid.evaluation.calibration import (
    ScoredNote,
    confidence_report,
    expected_calibration_error,
    reliability_table,
    span_target,
)
from spacy_deid.extensions import DROPPED_KEY, PROVENANCE_KEY, REJECTED_KEY, SCORES_ATTR
from spacy_deid.pipeline.confidence.calibration_map import CalibrationMap, evidence_class
from spacy_deid.pipeline.confidence import add_confidence_pipes, load_at_operating_point
from spacy_deid.pipeline.confidence.component import PhiConfidence, from_rule
from spacy_deid.pipeline.ner_scores import token_probabilities
from spacy_deid.pipeline.confidence.operating_point import ScoredSpan, parse_operating_point, select_spans

TRAIN = [
    ("Seen by Dr. Lee on Monday.", [(12, 15, labels.DOCTOR)]),
    ("Patient Anna Smith came with Dr. Park.", [(8, 18, labels.PATIENT), (33, 37, labels.DOCTOR)]),
    ("Call Dr. Lee tomorrow about Anna Smith.", [(9, 12, labels.DOCTOR), (28, 38, labels.PATIENT)]),
]
NOTE = "Seen by Dr. Lee on 4/17/2094. Her son Brandolf Quixley visited.\nMRN: AB12345"


def build_pipeline(with_confidence: bool = True):
    # Seeded: the tests read properties of the trained scores (a greedy entity is
    # likely), which an unlucky initialisation of this tiny model can miss.
    fix_random_seed(0)
    nlp = spacy.blank("en")
    nlp.add_pipe("tok2vec")
    nlp.add_pipe(
        "ner",
        config={
            "model": {
                "tok2vec": {
                    "@architectures": "spacy.Tok2VecListener.v1",
                    "width": 96,
                    "upstream": "*",
                }
            }
        },
    )
    if with_confidence:
        nlp.add_pipe("deid_ner_scores")
    nlp.add_pipe("deid_sections")
    nlp.add_pipe("deid_phi_rules")
    nlp.add_pipe("deid_reconciler")
    if with_confidence:
        nlp.add_pipe("deid_safety_net")
        nlp.add_pipe("deid_confidence")
    examples = [Example.from_dict(nlp.make_doc(t), {"entities": e}) for t, e in TRAIN]
    nlp.initialize(lambda: examples)
    optimizer = nlp.resume_training()
    for _ in range(25):
        nlp.update(examples, sgd=optimizer)
    return nlp


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    path = tmp_path_factory.mktemp("pipelines") / "tiny"
    build_pipeline().to_disk(path)
    return path


@pytest.fixture(scope="module")
def nlp(saved):
    return spacy.load(saved)


def ent_keys(doc):
    return [(e.start, e.end, e.label_) for e in doc.ents]


# --- deid_ner_scores ----------------------------------------------------------------


def test_ner_scores_cover_the_greedy_entities_without_changing_them(nlp):
    with nlp.select_pipes(
        disable=[
            "deid_ner_scores",
            "deid_phi_rules",
            "deid_reconciler",
            "deid_safety_net",
            "deid_confidence",
        ]
    ):
        greedy = ent_keys(nlp(NOTE))
    with nlp.select_pipes(
        disable=["deid_phi_rules", "deid_reconciler", "deid_safety_net", "deid_confidence"]
    ):
        doc = nlp(NOTE)
    assert ent_keys(doc) == greedy
    group = doc.spans["ner_candidates"]
    scores = dict(zip([(s.start, s.end, s.label_) for s in group], group.attrs["scores"]))
    assert all(0.0 < v <= 1.0 for v in scores.values())
    for key in greedy:  # every greedy entity is a beam candidate, and a likely one
        assert scores.get(key, 0.0) > 0.3
    probs = token_probabilities(doc)
    assert len(probs) == len(doc) and all(0.0 <= p <= 1.0 for p in probs)


def test_ner_scores_needs_a_transition_ner():
    nlp = spacy.blank("en")
    nlp.add_pipe("deid_ner_scores")
    with pytest.raises(ValueError, match="no component 'ner'"):
        nlp("Seen by Dr. Lee.")
    with pytest.raises(ValueError, match="beam_width"):
        spacy.blank("en").add_pipe("deid_ner_scores", config={"beam_width": 1})


# --- deid_confidence ---------------------------------------------------------------


def test_balanced_point_keeps_the_reconciler_output(saved):
    nlp = spacy.load(saved)
    with nlp.select_pipes(disable=["deid_safety_net", "deid_confidence"]):
        before = ent_keys(nlp(NOTE))
    assert ent_keys(nlp(NOTE)) == before


def test_every_entity_has_a_score_and_provenance(nlp):
    doc = nlp(NOTE)
    assert doc.ents
    for ent in doc.ents:
        assert 0.0 <= ent._.phi_score <= 1.0
        assert ent._.phi_source
    group = doc.spans[PROVENANCE_KEY]
    assert len(group.attrs[SCORES_ATTR]) == len(group) == len(doc.ents)
    rejected = doc.spans[REJECTED_KEY]
    assert len(rejected.attrs[SCORES_ATTR]) == len(rejected)


def test_scores_survive_docbin_and_bytes(nlp):
    doc = nlp(NOTE)
    expected = [(e.text, e._.phi_score, e._.phi_source) for e in doc.ents]
    docbin = DocBin(docs=[doc])
    restored = list(DocBin().from_bytes(docbin.to_bytes()).get_docs(nlp.vocab))[0]
    assert [(e.text, e._.phi_score, e._.phi_source) for e in restored.ents] == expected
    again = Doc(nlp.vocab).from_bytes(doc.to_bytes())
    assert [(e.text, e._.phi_score) for e in again.ents] == [(t, s) for t, s, _ in expected]


def token_set(doc):
    return {i for e in doc.ents for i in range(e.start, e.end)}


def test_recall_point_removes_a_superset(saved):
    balanced = spacy.load(saved)
    recall = spacy.load(
        saved, config={"components": {"deid_confidence": {"operating_point": "recall"}}}
    )
    assert recall.get_pipe("deid_confidence").operating_point == "recall"
    b, r = balanced(NOTE), recall(NOTE)
    assert token_set(b) < token_set(r)  # strictly more: the safety net finds "Brandolf Quixley"
    assert any(e._.phi_source.startswith("safety_net") for e in r.ents)
    assert all(e._.phi_score is not None for e in r.ents)


@pytest.mark.parametrize("point", ["0.0", 0.5, "1"])
def test_numeric_threshold_keeps_spans_scored_at_least_t(saved, point):
    nlp = spacy.load(saved, config={"components": {"deid_confidence": {"operating_point": point}}})
    doc = nlp(NOTE)
    assert all(e._.phi_score >= float(point) for e in doc.ents)


@pytest.mark.parametrize("bad", ["strict", "1.5", -0.1, None])
def test_bad_operating_point_is_refused(nlp, bad):
    with pytest.raises(ValueError, match="operating point"):
        parse_operating_point(bad)
    with pytest.raises(ValueError):
        nlp.get_pipe("deid_confidence").operating_point = bad


def test_calibration_round_trips_through_disk(nlp, tmp_path):
    component = nlp.get_pipe("deid_confidence")
    old = component.calibration.to_dict()
    component.initialize(calibration={"classes": {"ner": {"x": [0.0, 1.0], "y": [0.2, 0.6]}}})
    try:
        nlp.to_disk(tmp_path / "p")
        loaded = spacy.load(tmp_path / "p")
        assert (
            loaded.get_pipe("deid_confidence").calibration.to_dict()
            == component.calibration.to_dict()
        )
        assert loaded.get_pipe("deid_confidence").calibration("ner", 0.5) == pytest.approx(0.4)
        restored = loaded.get_pipe("deid_confidence").from_bytes(component.to_bytes())
        assert restored.calibration.to_dict() == component.calibration.to_dict()
    finally:
        component.initialize(calibration=old)


def test_confidence_components_are_added_to_a_pipeline_without_them(tmp_path):
    plain = build_pipeline(with_confidence=False)
    plain.to_disk(tmp_path / "plain")
    nlp = load_at_operating_point(tmp_path / "plain", "recall")
    names = nlp.pipe_names
    assert names.index("ner") < names.index("deid_ner_scores") < names.index("deid_confidence")
    assert (
        names.index("deid_reconciler")
        < names.index("deid_safety_net")
        < names.index("deid_confidence")
    )
    assert nlp.get_pipe("deid_confidence").operating_point == "recall"
    assert add_confidence_pipes(nlp) == []  # idempotent
    assert all(e._.phi_score is not None for e in nlp(NOTE).ents)


# --- operating points on plain spans --------------------------------------------------


def scored(start, end, score, is_entity, provenance="ner"):
    return ScoredSpan(start, end, labels.PATIENT, provenance, score, score, is_entity)


SPANS = [
    scored(0, 1, 0.9, True),
    scored(3, 4, 0.3, True),
    scored(3, 5, 0.6, False, "ner_candidate"),  # overlaps an entity
    scored(6, 7, 0.2, False, "ner_candidate"),
    scored(8, 9, 0.1, False, "safety_net:title"),
    scored(8, 10, 0.15, False, "ner_candidate"),  # overlaps the safety-net span, scores higher
]


@pytest.mark.parametrize(
    "point,threshold,net,expected",
    [
        ("balanced", 0.05, True, [(0, 1), (3, 4)]),
        ("recall", 0.05, True, [(0, 1), (3, 4), (6, 7), (8, 10)]),
        ("recall", 0.18, True, [(0, 1), (3, 4), (6, 7)]),
        ("recall", 0.05, False, [(0, 1), (3, 4), (6, 7), (8, 10)]),
        (0.5, 0.05, True, [(0, 1), (3, 5)]),
        (0.95, 0.05, True, []),
        (0.0, 0.05, True, [(0, 1), (3, 4), (6, 7), (8, 10)]),
    ],
)
def test_select_spans(point, threshold, net, expected):
    chosen = select_spans(SPANS, point, recall_threshold=threshold, use_safety_net=net)
    assert [(s.start, s.end) for s in chosen] == expected


def test_safety_net_spans_are_used_only_when_allowed():
    spans = [scored(0, 1, 0.9, True), scored(2, 3, 0.3, False, "safety_net:relation")]
    assert len(select_spans(spans, "recall", recall_threshold=0.1)) == 2
    assert len(select_spans(spans, "recall", recall_threshold=0.1, use_safety_net=False)) == 1


# --- calibration ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "provenance,expected",
    [
        ("ner", "ner"),
        ("", "ner"),
        ("rule:phone_nanp", "rule"),
        ("rule:phone_nanp|merge:ner_agrees", "rule_ner"),
        ("rule:date|merge:over_ner|correct:x", "rule"),
        ("propagate|propagate:extend_name", "propagate"),
        ("ner|complete:hyphen", "ner"),
        ("ner_candidate", "ner_candidate"),
        ("safety_net:title", "safety_net:title"),
        ("dropped|ner|merge:under_rule", "dropped"),
    ],
)
def test_evidence_class(provenance, expected):
    assert evidence_class(provenance) == expected


def test_calibration_fit_is_monotone_and_matches_rates():
    records = [("ner", r / 100, 1.0 if r >= 50 else 0.0) for r in range(100)] * 2
    records += [("safety_net:title", 0.0, 1.0)] * 3 + [("safety_net:title", 0.0, 0.0)]
    fitted = CalibrationMap.fit(records, min_count=30)
    curve = [fitted("ner", r / 20) for r in range(21)]
    assert curve == sorted(curve)
    assert fitted("ner", 0.1) == pytest.approx(0.0) and fitted("ner", 0.9) == pytest.approx(1.0)
    # A small class gets one smoothed rate between its own (0.75) and the prior (0.3).
    assert 0.3 < fitted("safety_net:title", 0.0) < 0.75
    assert CalibrationMap.from_dict(fitted.to_dict()).to_dict() == fitted.to_dict()


def test_unfitted_map_uses_priors():
    empty = CalibrationMap()
    assert not empty.is_fitted
    assert empty("ner", 0.42) == pytest.approx(0.42)
    assert empty("rule_ner", 0.0) > 0.9
    assert empty("safety_net:relation", 0.9) < 0.5


@pytest.mark.parametrize(
    "bad",
    [
        {"classes": {"ner": {"x": [1.0, 0.0], "y": [0.0, 1.0]}}},
        {"classes": {"ner": {"x": [0.0], "y": [0.0, 1.0]}}},
    ],
)
def test_bad_calibration_map_is_refused(bad):
    with pytest.raises(ValueError, match="ner"):
        CalibrationMap.from_dict(bad)


# --- evaluation measures ------------------------------------------------------------


def test_reliability_table_and_ece():
    pairs = [(0.95, 1.0), (0.95, 1.0), (0.15, 0.0), (0.15, 1.0)]
    rows = reliability_table(pairs, bands=10)
    assert rows[9]["spans"] == 2 and rows[9]["share_right"] == 1.0
    assert rows[1]["spans"] == 2 and rows[1]["share_right"] == 0.5
    # |0.95 - 1| * 2 + |0.15 - 0.5| * 2, over 4 spans
    assert expected_calibration_error(rows) == pytest.approx((0.1 + 0.7) / 4)
    assert expected_calibration_error(reliability_table([])) is None


@pytest.mark.parametrize(
    "span,gold,expected",
    [
        ((0, 8), [(0, 3, "PATIENT")], 0.5),  # "Ann Lee": one of two tokens
        ((0, 3), [(0, 8, "PATIENT")], 1.0),
        ((4, 7), [(0, 3, "PATIENT")], 0.0),
        ((3, 4), [], None),  # a space: no unit
    ],
)
def test_span_target(span, gold, expected):
    from spacy_deid.evaluation.calibration import gold_token_set

    text = "Ann Lee came"
    assert span_target(text, *span, gold_token_set(text, gold)) == expected


def test_confidence_report_points_and_curve(nlp):
    gold = [
        (NOTE.index("Lee"), NOTE.index("Lee") + 3, labels.DOCTOR),
        (NOTE.index("Brandolf"), NOTE.index("Quixley") + 7, labels.PATIENT),
    ]
    report = confidence_report([ScoredNote("n", NOTE, gold, nlp(NOTE))], recall_threshold=0.05)
    points = report["points"]
    assert points["recall"]["r"] >= points["balanced"]["r"]
    assert (
        points["recall"]["tp"] + points["recall"]["fn"]
        == points["balanced"]["tp"] + points["balanced"]["fn"]
    )
    thresholds = [c["threshold"] for c in report["curve"]]
    assert thresholds == sorted(thresholds)
    recalls = [c["r"] for c in report["curve"]]
    assert recalls == sorted(recalls, reverse=True)  # a higher threshold never finds more


# --- the command line -------------------------------------------------------------------


def leaked_phi_tokens(released: str):
    return [w for w in ("Lee", "2094", "Brandolf", "Quixley", "AB12345") if w in released]


def test_deidentify_recall_point_releases_fewer_phi_tokens(saved, tmp_path):
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "n1.txt").write_text(NOTE, encoding="utf-8")
    runner = CliRunner()
    leaks = {}
    for point in ("balanced", "recall"):
        out = tmp_path / point
        result = runner.invoke(
            app,
            [
                "deidentify",
                str(notes),
                str(out),
                "--model",
                str(saved),
                "--operating-point",
                point,
                "--seed",
                "s",
                "--no-progress",
            ],
        )
        assert result.exit_code == 0, result.output
        leaks[point] = leaked_phi_tokens((out / "n1.txt").read_text(encoding="utf-8"))
    assert len(leaks["recall"]) < len(leaks["balanced"])


def test_deidentify_refuses_a_bad_operating_point(saved, tmp_path):
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "n1.txt").write_text(NOTE, encoding="utf-8")
    result = CliRunner().invoke(
        app,
        [
            "deidentify",
            str(notes),
            str(tmp_path / "out"),
            "--model",
            str(saved),
            "--operating-point",
            "loose",
            "--seed",
            "s",
            "--no-progress",
        ],
    )
    assert result.exit_code == 1
    assert "operating point" in result.output
    assert "Brandolf" not in result.output


def test_calibrate_in_place_and_evaluate_confidence(saved, tmp_path):
    import shutil

    notes = tmp_path / "heldout"
    runner = CliRunner()
    result = runner.invoke(app, ["synth", str(notes), "--n", "3", "--seed", "5", "--quiet"])
    assert result.exit_code == 0, result.output
    model = tmp_path / "model"
    shutil.copytree(saved, model)
    result = runner.invoke(
        app, ["calibrate", str(model), str(notes), str(model), "--map", str(tmp_path / "map.json")]
    )
    assert result.exit_code == 0, result.output
    calibration = spacy.load(model).get_pipe("deid_confidence").calibration
    assert calibration.is_fitted and {"ner", "rule"} <= set(calibration.classes)
    report = tmp_path / "report"
    result = runner.invoke(
        app, ["evaluate-confidence", str(model), str(notes), "--output", str(report)]
    )
    assert result.exit_code == 0, result.output
    text = (report / "report.md").read_text(encoding="utf-8")
    assert "## Confidence and operating points" in text and "| recall |" in text
    assert (report / "pr_curve.png").exists() and (report / "reliability.png").exists()


def test_a_patterns_mention_judged_wrong_is_no_candidate(nlp):
    # "son called": the one-case relative pattern finds "called", the reconciler
    # drops it (no first name); that is the pattern's guess, not a PHI candidate.
    doc = nlp("Spoke with son called twice about the plan.")
    assert any(s.id_.startswith("rule:person-after-relative-one-case") for s in doc.spans[DROPPED_KEY])
    sources = [s.id_ for s in doc.spans[REJECTED_KEY]]
    assert not any(source.startswith("dropped|rule:") for source in sources)


# Provenance strings as the reconciler writes them (`Mention.provenance_string`):
# the source first ("rule", "rule:<pattern id>", "ner", ...), then one "step:id"
# per step. A rule span with no pattern id is plain "rule" (reconciler
# `_collect_rules`), so once a step is added it reads "rule|merge:overlap".
@pytest.mark.parametrize(
    "provenance,expected",
    [
        ("rule", True),
        ("rule:phone_nanp", True),
        ("rule:person-after-relative-one-case|correct:x", True),
        ("rule|merge:overlap", True),  # a prefix test on "rule:" missed this one
        ("rule|correct:x|reconcile:y", True),
        ("ner", False),
        ("ner|merge:under_rule", False),
        ("ner|relabel:rule", False),
        ("propagate|propagate:extend_name", False),
        ("safety_net:title", False),
        ("ruler:x", False),
        ("", False),
    ],
)
def test_from_rule_reads_the_reconcilers_sources(provenance, expected):
    assert from_rule(provenance) is expected


def test_dropped_rule_mentions_are_no_candidates_in_any_form():
    # Only the reconciler's removed NER mentions become candidates, whichever
    # form the rule's provenance takes.
    nlp = spacy.blank("en")
    doc = nlp.make_doc("aa bb cc dd")
    ids = ["rule|merge:overlap", "rule:x|correct:y", "rule", "ner|merge:under_rule"]
    doc.spans[DROPPED_KEY] = [
        Span(doc, i, i + 1, label=labels.PATIENT, span_id=id_) for i, id_ in enumerate(ids)
    ]
    sources = [s.provenance for s in PhiConfidence(nlp.vocab).scored_spans(doc)]
    assert sources == ["dropped|ner|merge:under_rule"]
