"""What the spacy-deid components promise spaCy: declared requires/assigns
(so `nlp.analyze_pipes()` catches a wrong pipeline), scores of their own
through `nlp.evaluate`, a warning when they run without data, one
serialization style that honours `exclude`, and one JSONL reader with
errors that name file and line but never the content."""
import json
import warnings

import pytest
import spacy
from spacy.training import Example

from spacy_deid import extensions
from spacy_deid.data_files import DataFileError, NoDataWarning, read_jsonl
from spacy_deid.pipeline.serialize import MissingPartError
from spacy_deid.tokenizer import blank_deid
from tiny_configs import tiny_config

# component -> (requires, assigns), as declared in its factory; all of them
CONTRACTS = {
    "deid_sections": ([], ["doc.spans", "token._.section_name", "token._.attribute_name"]),
    "deid_lexicon": ([], ["token._.lexicon", "token._.word_frequency"]),
    "deid_ontonotes": (["doc.ents"], ["token._.ontonotes", "doc.ents"]),
    "deid_ner_scores": (["doc.ents"], ["doc.spans"]),
    "deid_source_proposals": (["doc.ents"], ["doc.ents", "doc.spans"]),
    "deid_phi_rules": (["token._.attribute_name"], ["doc.spans", "doc.ents"]),
    "deid_reconciler": (["doc.spans", "doc.ents", "token._.attribute_name"], ["doc.ents", "doc.spans"]),
    "deid_safety_net": (["doc.ents", "token._.lexicon", "token._.attribute_name"], ["doc.spans"]),
    "deid_confidence": (["doc.ents", "doc.spans"], ["doc.ents", "doc.spans"]),
    "deid_release": (["doc.ents"], ["doc._.released_text"]),
}
RULES_ONLY = ["deid_sections", "deid_phi_rules", "deid_reconciler"]


def assemble(names, **configs):
    nlp = blank_deid()
    for name in names:
        nlp.add_pipe(name, config=configs.get(name, {}))
    return nlp


@pytest.fixture(scope="module")
def rules_nlp():
    nlp = assemble(RULES_ONLY)
    nlp.initialize()
    return nlp


# --- declared contracts -------------------------------------------------------------


@pytest.mark.parametrize("config_name", ["cpu", "transformer"])
def test_analyze_pipes_lists_what_each_component_requires_and_assigns(config_name):
    if config_name == "transformer":
        pytest.importorskip("spacy_transformers")
    config = tiny_config(config_name, interpolate=True)
    nlp = spacy.util.load_model_from_config(config, auto_fill=True)  # built, not initialized
    analysis = nlp.analyze_pipes(pretty=False)
    for name, (requires, assigns) in CONTRACTS.items():
        if name not in nlp.pipe_names:
            continue
        assert analysis["summary"][name]["requires"] == requires, name
        assert analysis["summary"][name]["assigns"] == assigns, name
    for name in nlp.pipe_names:  # every spacy-deid component says what it writes
        if name.startswith("deid_"):
            assert analysis["summary"][name]["assigns"], name
    assert all(not problems for problems in analysis["problems"].values()), analysis["problems"]


@pytest.mark.parametrize(
    "names,problems",
    [
        (RULES_ONLY, {}),
        # without the section detector: attribute patterns and rules have no input
        (["deid_phi_rules", "deid_reconciler"],
         {"deid_phi_rules": ["token._.attribute_name"], "deid_reconciler": ["token._.attribute_name"]}),
        # the detector after the rule tagger is as good as absent for it
        (["deid_phi_rules", "deid_sections", "deid_reconciler"], {"deid_phi_rules": ["token._.attribute_name"]}),
        # the reconciler first: nothing has written entities or span groups yet
        (["deid_reconciler", "deid_sections", "deid_phi_rules"],
         {"deid_reconciler": ["doc.spans", "doc.ents", "token._.attribute_name"]}),
    ],
)
def test_analyze_pipes_reports_missing_or_misplaced_components(names, problems):
    nlp = assemble(names)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # spaCy warns about each problem too
        found = nlp.analyze_pipes(pretty=False)["problems"]
    assert {name: sorted(attrs) for name, attrs in found.items() if attrs} == {
        name: sorted(attrs) for name, attrs in problems.items()
    }


def test_span_group_keys_are_the_shared_constants(rules_nlp):
    sections = rules_nlp.get_pipe("deid_sections").cfg
    assert (sections["sections_key"], sections["attributes_key"], sections["attribute_names_key"]) == (
        extensions.SECTIONS_KEY, extensions.ATTRIBUTES_KEY, extensions.ATTRIBUTE_NAMES_KEY)
    rules = rules_nlp.get_pipe("deid_phi_rules")
    assert (rules.spans_key, rules.attributes_key) == (extensions.RULES_KEY, extensions.ATTRIBUTES_KEY)
    reconciler = rules_nlp.get_pipe("deid_reconciler")
    assert (reconciler.rules_key, reconciler.attributes_key) == (extensions.RULES_KEY, extensions.ATTRIBUTES_KEY)
    doc = rules_nlp("MRN: 1234567\nPhone 617-555-0112")
    assert {extensions.SECTIONS_KEY, extensions.ATTRIBUTES_KEY, extensions.RULES_KEY,
            extensions.PROVENANCE_KEY, extensions.DROPPED_KEY} <= set(doc.spans)


# --- scores -------------------------------------------------------------------------

TEXT = "Phone 617-555-0112, seen 4/17/2094 with Quembly."
# (substring, label) of the gold entities: the rules find the first two, not the name
GOLD = [("617-555-0112", "PHONE"), ("4/17/2094", "DATE"), ("Quembly", "DOCTOR")]


def examples(nlp, gold=GOLD, text=TEXT):
    entities = [(text.index(s), text.index(s) + len(s), label) for s, label in gold]
    return [Example.from_dict(nlp.make_doc(text), {"entities": entities})]


def test_evaluate_returns_the_rule_taggers_own_scores(rules_nlp):
    scores = rules_nlp.evaluate(examples(rules_nlp))
    assert scores["spans_phi_rules_p"] == 1.0
    assert scores["spans_phi_rules_r"] == pytest.approx(2 / 3)
    per_type = scores["spans_phi_rules_per_type"]
    assert per_type["PHONE"]["f"] == 1.0 and per_type["DATE"]["f"] == 1.0
    assert per_type["DOCTOR"]["r"] == 0.0
    assert "ents_f" in scores  # the reconciler scores the final entities


def test_rule_scores_count_wrong_labels_and_extra_hits(rules_nlp):
    gold = [("617-555-0112", "FAX")]  # the rules say PHONE, and find a DATE the gold lacks
    scores = rules_nlp.get_pipe("deid_phi_rules").score(examples(rules_nlp, gold))
    assert (scores["spans_phi_rules_p"], scores["spans_phi_rules_r"]) == (0.0, 0.0)


@pytest.mark.parametrize(
    "scorer,spans_key,expected,absent",
    [
        ({"@scorers": "spacy-deid.PhiRulesScorer.v2"}, "phi_rules", "spans_phi_rules_f", "ents_f"),
        ({"@scorers": "spacy-deid.PhiRulesScorer.v2"}, "regex_hits", "spans_regex_hits_f", "spans_phi_rules_f"),
        # v1 (kept for old configs) measures doc.ents, which set_ents fills
        ({"@scorers": "spacy-deid.PhiRulesScorer.v1"}, "phi_rules", "ents_f", "spans_phi_rules_f"),
    ],
)
def test_the_scorer_block_decides_what_is_scored(scorer, spans_key, expected, absent):
    nlp = assemble(["deid_sections", "deid_phi_rules"],
                   deid_phi_rules={"scorer": scorer, "spans_key": spans_key, "set_ents": True})
    nlp.initialize()
    scores = nlp.evaluate(examples(nlp))
    assert scores[expected] == pytest.approx(0.8)  # 2 of 2 found are right, 2 of 3 gold found
    assert absent not in scores


# --- one lifecycle for all nine ------------------------------------------------------

ALL = list(CONTRACTS)
# Small data for each component that has data (the packaged lists are slow to load).
SMALL_DATA = {
    "deid_lexicon": {"lexicons": {"FIRST": ["Ann"], "CITY": ["Quorvale"]}, "frequencies": {"the": 7}},
    "deid_safety_net": {
        "clinical_vocabulary": ["sertraline"], "common_words": {"the": 7}, "job_heads": ["welder"]},
    "deid_confidence": {"calibration": {"classes": {"ner": {"x": [0.0, 1.0], "y": [0.2, 0.6]}}}},
}
# component -> (part that `exclude` takes, file it is saved in, what that part holds)
PARTS = {
    "deid_sections": ("sections", "sections.jsonl", lambda c: c.sections),
    "deid_lexicon": ("lexicons", "lexicons.jsonl", lambda c: c._phrases),
    "deid_phi_rules": ("patterns", "patterns.jsonl", lambda c: c.patterns),
    "deid_reconciler": ("rules", "rules.jsonl", lambda c: c.rule_ids),
    "deid_safety_net": ("clinical_vocabulary", "clinical_vocabulary.json", lambda c: sorted(c.clinical)),
    "deid_confidence": ("calibration", "calibration.json", lambda c: c.calibration.classes),
}
WITH_DATA = list(PARTS)
# component -> everything it holds (data and settings), to compare after a round trip
STATE = {
    "deid_sections": lambda c: (c.sections, c.attributes, c.cfg),
    "deid_lexicon": lambda c: (c._phrases, c._frequencies, c.cfg),
    "deid_ontonotes": lambda c: c.feature_labels,
    "deid_ner_scores": lambda c: (c.ner_name, c.spans_key, c.beam_width, c.scope),
    "deid_source_proposals": lambda c: (c.ner_name, c.source_labels, c.spans_key),
    "deid_phi_rules": lambda c: c.patterns,
    "deid_reconciler": lambda c: (c.rule_ids, c.ruleset.to_data()),
    "deid_safety_net": lambda c: (sorted(c.clinical), c.common, sorted(c.job_heads)),
    "deid_confidence": lambda c: (c.calibration.to_dict(), str(c.operating_point)),
    "deid_release": lambda c: type(c.deidentifier).__name__,
}
# ner_scores decodes the pipeline's `ner`: it cannot run alone.
RUNS_ALONE = [name for name in ALL if name != "deid_ner_scores"]


def initialized(name):
    nlp = assemble([name])
    component = nlp.get_pipe(name)
    component.initialize(nlp=nlp, **SMALL_DATA.get(name, {}))
    return nlp, component


@pytest.mark.parametrize("name", ALL)
def test_every_factory_declares_requires_and_assigns(name):
    meta = spacy.Language.get_factory_meta(name)
    assert (meta.requires, meta.assigns) == CONTRACTS[name]
    assert meta.assigns


@pytest.mark.parametrize("name", ALL)
def test_a_new_component_holds_no_packaged_data(name):
    component = assemble([name]).get_pipe(name)
    if name in PARTS:
        assert not PARTS[name][2](component)


@pytest.mark.parametrize("name", WITH_DATA)
def test_a_component_without_data_warns(name):
    nlp = assemble([name])
    with pytest.warns(NoDataWarning, match=name):
        nlp("MRN: 1234567")
    nlp, _ = initialized(name)
    with warnings.catch_warnings():
        warnings.simplefilter("error", NoDataWarning)
        nlp("MRN: 1234567")


@pytest.mark.parametrize("name", ["deid_ontonotes", "deid_release"])
def test_a_component_that_needs_no_data_never_warns(name):
    with warnings.catch_warnings():
        warnings.simplefilter("error", NoDataWarning)
        assemble([name])("MRN: 1234567")


def test_reconciler_without_rules_still_merges():
    nlp = assemble(["deid_phi_rules", "deid_reconciler"])
    nlp.get_pipe("deid_phi_rules").initialize()
    with pytest.warns(NoDataWarning, match="only merges"):
        doc = nlp("Phone 617-555-0112")
    assert [(e.text, e.label_) for e in doc.ents] == [("617-555-0112", "PHONE")]


@pytest.mark.parametrize("name", ALL)
def test_initialize_to_disk_and_spacy_load_give_the_same_component(name, tmp_path):
    nlp, component = initialized(name)
    nlp.to_disk(tmp_path / "pipeline")
    assert (tmp_path / "pipeline" / name).is_dir()
    loaded = spacy.load(tmp_path / "pipeline")
    assert STATE[name](loaded.get_pipe(name)) == STATE[name](component)
    if name in RUNS_ALONE:
        with warnings.catch_warnings():
            warnings.simplefilter("error", NoDataWarning)
            loaded("Seen by Dr. Quembly in Quorvale, MRN 1234567.")


@pytest.mark.parametrize("name", ALL)
def test_to_bytes_and_from_bytes_give_the_same_component(name):
    _, component = initialized(name)
    copy = assemble([name]).get_pipe(name).from_bytes(component.to_bytes())
    assert STATE[name](copy) == STATE[name](component)
    nlp_copy = assemble([name]).from_bytes(initialized(name)[0].to_bytes())
    assert STATE[name](nlp_copy.get_pipe(name)) == STATE[name](component)


@pytest.mark.parametrize("name", WITH_DATA)
def test_to_disk_from_disk_and_bytes_honour_exclude(name, tmp_path):
    part, filename, loaded = PARTS[name]
    _, component = initialized(name)
    component.to_disk(tmp_path / "all")
    component.to_disk(tmp_path / "without", exclude=[part])
    assert (tmp_path / "all" / filename).is_file()
    assert not (tmp_path / "without" / filename).exists()

    fresh = assemble([name]).get_pipe(name)
    fresh.from_disk(tmp_path / "all")
    assert loaded(fresh) == loaded(component) and loaded(fresh)
    fresh.from_disk(tmp_path / "all", exclude=[part])  # an excluded part keeps what it has
    assert loaded(fresh) == loaded(component)
    kept = assemble([name]).get_pipe(name).from_bytes(component.to_bytes(exclude=[part]))
    assert not loaded(kept)
    blank = assemble([name]).get_pipe(name).from_disk(tmp_path / "all", exclude=[part])
    assert not loaded(blank)


def test_pipelines_saved_before_the_common_lifecycle_still_load(tmp_path):
    """Saved before: no folder for the components without data, the safety net's
    and the confidence component's hand-made JSON files (same names, same content)."""
    names = ["deid_ontonotes", "deid_safety_net", "deid_confidence", "deid_release"]
    nlp = assemble(names)
    for name in ("deid_safety_net", "deid_confidence"):
        nlp.get_pipe(name).initialize(nlp=nlp, **SMALL_DATA[name])
    path = tmp_path / "old"
    nlp.to_disk(path)
    for name in ("deid_ontonotes", "deid_release"):
        for child in (path / name).iterdir():
            child.unlink()
        (path / name).rmdir()
    data = SMALL_DATA["deid_safety_net"]
    json_files = {
        "deid_safety_net/clinical_vocabulary.json": data["clinical_vocabulary"],
        "deid_safety_net/common_words.json": data["common_words"],
        "deid_confidence/calibration.json": SMALL_DATA["deid_confidence"]["calibration"],
    }
    for name, content in json_files.items():  # as the old code wrote them
        (path / name).write_text(json.dumps(content), encoding="utf-8")
    loaded = spacy.load(path)
    for name in names:
        assert STATE[name](loaded.get_pipe(name)) == STATE[name](nlp.get_pipe(name))


@pytest.mark.faults
@pytest.mark.parametrize(
    "name,missing",
    [(name, part[1]) for name, part in PARTS.items() if name != "deid_confidence"]
    + [("deid_safety_net", "job_heads.json"), ("deid_sections", "cfg"), ("deid_phi_rules", "cfg")],
)
def test_a_missing_saved_file_is_an_error_naming_component_and_file(name, missing, tmp_path):
    """Data comes from `initialize` or `from_disk` only: a saved folder missing a
    file fails to load (never filled from the package's data)."""
    nlp, _ = initialized(name)
    nlp.to_disk(tmp_path / "pipeline")
    spacy.load(tmp_path / "pipeline")  # complete: loads
    (tmp_path / "pipeline" / name / missing).unlink()
    with pytest.raises(MissingPartError, match=f"{name}: .*{missing} is missing"):
        spacy.load(tmp_path / "pipeline")
    # exclude leaves the part out: nothing is read, the component keeps what it has
    part = missing.split(".")[0]
    assemble([name]).get_pipe(name).from_disk(tmp_path / "pipeline" / name, exclude=[part])


def test_saved_pipeline_loads_and_finds_the_same(rules_nlp, tmp_path):
    rules_nlp.to_disk(tmp_path / "pipeline")
    loaded = spacy.load(tmp_path / "pipeline")
    text = "MRN: 1234567\nPhone 617-555-0112, seen 4/17/2094."
    assert [(e.text, e.label_) for e in loaded(text).ents] == [(e.text, e.label_) for e in rules_nlp(text).ents]


# --- the one JSONL reader ---------------------------------------------------------------


def must_have_label(entry):
    if "label" not in entry:
        raise ValueError("'label' is missing")
    return entry


@pytest.mark.parametrize(
    "content,message",
    [
        ('{"label": "a"}\n{"label": "secret text\n', "line 2: not valid JSON"),
        ('{"label": "a"}\n\n{"pattern": "secret text"}\n', "line 3: 'label' is missing"),
    ],
)
def test_read_jsonl_names_file_and_line_never_the_content(tmp_path, content, message):
    path = tmp_path / "entries.jsonl"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(DataFileError) as err:
        read_jsonl(path, must_have_label)
    assert "entries.jsonl" in str(err.value) and message in str(err.value)
    assert "secret" not in str(err.value)


def test_read_jsonl_reads_blank_lines_bom_and_line_separators(tmp_path):
    path = tmp_path / "entries.jsonl"
    rows = [{"label": "a\u2028b"}, {"label": "c"}]
    lines = [json.dumps(row, ensure_ascii=False) for row in rows]  # a raw U+2028 in the first
    path.write_text("\ufeff" + lines[0] + "\n\n" + lines[1] + "\n", encoding="utf-8")
    assert read_jsonl(path, must_have_label) == rows
    with pytest.raises(FileNotFoundError, match="patterns file not found"):
        read_jsonl(tmp_path / "missing.jsonl", what="patterns")
