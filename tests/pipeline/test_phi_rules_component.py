"""The `deid_phi_rules` component: config path, serialisation, attributes, overlaps, errors."""
import pytest
import spacy
import srsly
from spacy.tokens import Doc, DocBin

from spacy_deid import labels
from spacy_deid.pipeline.phi_rules.patterns import PatternError, default_patterns, load_phi_patterns
from spacy_deid.pipeline.phi_rules import DEFAULT_SPANS_KEY, PhiRules

TEXT = "Seen 3/14/2019. MRN: 2418195. Fax 447-742-0757."


def rules_nlp(**config):
    nlp = spacy.blank("en")
    nlp.add_pipe("deid_phi_rules", config=config)
    return nlp


def found(doc, key=DEFAULT_SPANS_KEY):
    return [(s.text, s.label_, s.id_) for s in doc.spans[key]]


def test_default_patterns_have_unique_ids_and_known_labels():
    patterns = default_patterns()
    ids = [p["id"] for p in patterns]
    assert len(ids) == len(set(ids))
    assert {p["label"] for p in patterns} <= set(labels.SUBTYPES)


def test_initialize_without_patterns_loads_the_package_patterns():
    nlp = rules_nlp()
    nlp.initialize()
    assert len(nlp.get_pipe("deid_phi_rules")) == len(default_patterns())
    doc = nlp(TEXT)
    assert ("3/14/2019", labels.DATE, "date-numeric-mdy") in found(doc)
    assert ("2418195", labels.MEDICALRECORD, "mrn-cue") in found(doc)
    assert ("447-742-0757", labels.FAX, "fax-cue") in found(doc)
    assert list(doc.ents) == []  # set_ents is off by default


def test_hits_go_to_doc_ents_only_when_asked():
    nlp = rules_nlp(set_ents=True)
    nlp.initialize()
    doc = nlp(TEXT)
    assert [(e.text, e.label_) for e in doc.ents] == [(t, l) for t, l, _ in found(doc)]


def test_config_path_initializes_with_patterns_from_a_registered_loader(tmp_path):
    patterns_file = tmp_path / "my_patterns.jsonl"
    srsly.write_jsonl(
        patterns_file,
        [{"id": "test-ward", "label": labels.ROOM, "pattern": r"(?<=Ward )(?P<phi>\d+[A-Z]?)"}],
    )
    config = {
        "nlp": {"lang": "en", "pipeline": ["deid_phi_rules"]},
        "components": {"deid_phi_rules": {"factory": "deid_phi_rules", "spans_key": "rules"}},
        "initialize": {
            "components": {
                "deid_phi_rules": {
                    "patterns": {"@misc": "spacy-deid.PhiPatterns.v1", "path": str(patterns_file)}
                }
            }
        },
    }
    nlp = spacy.util.load_model_from_config(spacy.util.Config(config), auto_fill=True)
    nlp.initialize()
    rules = nlp.get_pipe("deid_phi_rules")
    assert rules.ids == ("test-ward",)
    doc = nlp("Moved to Ward 7B on 3/14/2019.")
    assert found(doc, "rules") == [("7B", labels.ROOM, "test-ward")]


def test_loader_can_exclude_patterns():
    patterns = load_phi_patterns(exclude_ids=["date-year-alone"])
    assert "date-year-alone" not in {p["id"] for p in patterns}
    assert len(patterns) == len(default_patterns()) - 1


def test_initialize_clears_earlier_patterns():
    nlp = rules_nlp()
    nlp.initialize()
    rules = nlp.get_pipe("deid_phi_rules")
    rules.initialize(patterns=[{"id": "only", "label": labels.ZIP, "pattern": r"\b\d{5}\b"}])
    assert rules.ids == ("only",)
    rules.initialize(patterns=[])
    assert len(rules) == 0
    assert found(nlp(TEXT)) == []


def test_to_disk_and_spacy_load_round_trip(tmp_path):
    nlp = rules_nlp(set_ents=True)
    nlp.initialize()
    before = found(nlp(TEXT))
    nlp.to_disk(tmp_path / "pipeline")
    assert (tmp_path / "pipeline" / "deid_phi_rules" / "patterns.jsonl").exists()
    loaded = spacy.load(tmp_path / "pipeline")
    rules = loaded.get_pipe("deid_phi_rules")
    assert rules.patterns == nlp.get_pipe("deid_phi_rules").patterns
    assert rules.set_ents is True
    assert found(loaded(TEXT)) == before


def test_saved_patterns_are_self_contained(tmp_path):
    """Fragments are expanded before saving: no {NAME} reference is left."""
    nlp = rules_nlp()
    nlp.initialize()
    nlp.to_disk(tmp_path / "pipeline")
    saved = list(srsly.read_jsonl(tmp_path / "pipeline" / "deid_phi_rules" / "patterns.jsonl"))
    assert saved and all("{PHONE_NUMBER}" not in p["pattern"] for p in saved)
    assert all("comment" not in p for p in saved)


def test_bytes_round_trip_and_span_ids_survive_serialisation():
    nlp = rules_nlp()
    nlp.initialize()
    copy = rules_nlp()
    copy.from_bytes(nlp.to_bytes())
    doc = copy(TEXT)
    assert found(doc) == found(nlp(TEXT))
    restored = Doc(nlp.vocab).from_bytes(doc.to_bytes())
    assert found(restored) == found(doc)
    docbin = DocBin(docs=[doc], store_user_data=True)
    (through_docbin,) = DocBin().from_bytes(docbin.to_bytes()).get_docs(nlp.vocab)
    assert found(through_docbin) == found(doc)


def with_attributes(nlp, text, values):
    """A doc with doc.spans["attributes"] set by hand: (value text, attribute name)."""
    doc = nlp.make_doc(text)
    spans = []
    for value, name in values:
        start = text.index(value)
        spans.append(doc.char_span(start, start + len(value), label=name, alignment_mode="expand"))
    doc.spans["attributes"] = spans
    return doc


@pytest.mark.parametrize(
    "text,values,expected",
    [
        ("Number\n  00123456\n", [("00123456", "mrn")], ("00123456", labels.MEDICALRECORD)),
        ("Contact\n617-555-0199\n", [("617-555-0199", "fax")], ("617-555-0199", labels.FAX)),
        ("Reach\n40321\n", [("40321", "pager")], ("40321", labels.PHONE)),
        ("Years\n  57\n", [("57", "age")], ("57", labels.AGE)),
        ("Insurance\nZX9988776\n", [("ZX9988776", "health_plan")], ("ZX9988776", labels.HEALTHPLAN)),
        ("Social\n6789\n", [("6789", "ssn")], ("6789", labels.SSN)),
    ],
)
def test_attribute_values_decide_the_subtype(text, values, expected):
    nlp = rules_nlp()
    nlp.initialize()
    rules = nlp.get_pipe("deid_phi_rules")
    doc = rules(with_attributes(nlp, text, values))
    assert expected in [(s.text, s.label_) for s in doc.spans[DEFAULT_SPANS_KEY]]
    # Without the attribute spans the same text gives no hit of that kind.
    plain = rules(nlp.make_doc(text))
    assert expected not in [(s.text, s.label_) for s in plain.spans[DEFAULT_SPANS_KEY]]


def test_phone_in_fax_attribute_beats_generic_phone():
    nlp = rules_nlp()
    nlp.initialize()
    doc = nlp.get_pipe("deid_phi_rules")(
        with_attributes(nlp, "Contact: 617-555-0199", [("617-555-0199", "fax")])
    )
    assert [(s.text, s.label_, s.id_) for s in doc.spans[DEFAULT_SPANS_KEY]] == [
        ("617-555-0199", labels.FAX, "attr-fax")
    ]


def test_overlaps_resolved_longest_then_earliest_then_priority():
    nlp = rules_nlp()
    nlp.initialize()
    rules = nlp.get_pipe("deid_phi_rules")
    rules.initialize(
        patterns=[
            {"id": "short", "label": labels.IDNUM, "pattern": r"AB12", "priority": 50},
            {"id": "long", "label": labels.ACCOUNT, "pattern": r"AB12 34"},
            {"id": "tie-low", "label": labels.DEVICE, "pattern": r"CD56"},
            {"id": "tie-high", "label": labels.LICENSE, "pattern": r"CD56", "priority": 5},
            {"id": "left", "label": labels.ZIP, "pattern": r"11 22"},
            {"id": "right", "label": labels.ZIP, "pattern": r"22 33"},
        ]
    )
    doc = rules(nlp.make_doc("AB12 34 and CD56 and 11 22 33"))
    assert found(doc) == [
        ("AB12 34", labels.ACCOUNT, "long"),
        ("CD56", labels.LICENSE, "tie-high"),
        ("11 22", labels.ZIP, "left"),
    ]


def test_alignment_mode_is_a_setting():
    text = "IDXY12345Z7"
    strict = rules_nlp(alignment_mode="strict")
    rules = strict.get_pipe("deid_phi_rules")
    rules.initialize(patterns=[{"id": "p", "label": labels.IDNUM, "pattern": r"(?<=ID)XY\d+"}])
    assert found(strict(text)) == []
    expand = rules_nlp(alignment_mode="expand")
    expand.get_pipe("deid_phi_rules").initialize(
        patterns=[{"id": "p", "label": labels.IDNUM, "pattern": r"(?<=ID)XY\d+"}]
    )
    assert [t for t, _, _ in found(expand(text))] == ["IDXY12345Z7"]
    with pytest.raises(ValueError):
        rules_nlp(alignment_mode="nearest")


def test_existing_ents_overlapping_a_rule_hit_are_replaced():
    nlp = rules_nlp(set_ents=True)
    nlp.initialize()
    doc = nlp.make_doc("Call 447-742-0756 or ask Ann.")
    doc.ents = [doc.char_span(5, 8, label=labels.IDNUM), doc.char_span(25, 28, label=labels.PATIENT)]
    doc = nlp.get_pipe("deid_phi_rules")(doc)
    assert [(e.text, e.label_) for e in doc.ents] == [
        ("447-742-0756", labels.PHONE),
        ("Ann", labels.PATIENT),
    ]


@pytest.mark.parametrize(
    "pattern,message",
    [
        ({"label": labels.DATE, "pattern": "x"}, "missing 'id'"),
        ({"id": "a", "label": "NOT-A-LABEL", "pattern": "x"}, "not a PHI subtype"),
        ({"id": "a", "label": labels.DATE}, "missing 'pattern'"),
        ({"id": "a", "label": labels.DATE, "pattern": "{NO_SUCH_FRAGMENT}"}, "unknown regex fragment"),
        ({"id": "a", "label": labels.DATE, "pattern": "(unclosed"}, "invalid regex"),
        ({"id": "a", "label": labels.DATE, "pattern": "x", "priority": "high"}, "priority"),
        ({"id": "a", "label": labels.DATE, "pattern": "x", "colour": "red"}, "unknown keys"),
    ],
)
def test_bad_patterns_are_rejected_with_the_pattern_id(pattern, message):
    rules = PhiRules(spacy.blank("en").vocab)
    with pytest.raises(PatternError, match=message):
        rules.add_patterns([pattern])


def test_duplicate_ids_are_rejected():
    rules = PhiRules(spacy.blank("en").vocab)
    with pytest.raises(PatternError, match="duplicate"):
        rules.add_patterns(
            [
                {"id": "a", "label": labels.DATE, "pattern": "x"},
                {"id": "a", "label": labels.AGE, "pattern": "y"},
            ]
        )


def test_missing_pattern_path_is_reported(tmp_path):
    with pytest.raises(PatternError, match="no such pattern file"):
        load_phi_patterns(path=str(tmp_path / "absent"))
